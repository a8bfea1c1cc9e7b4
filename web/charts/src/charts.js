// The playground's Overview charts (window.kueueplayCharts), bundled by
// `make site` into charts.js and charts.css. boot.js loads them the first
// time the Overview is opened, after the first result, so they cost the
// first load nothing.
//
// mount(root, overview, {onStep}) draws the series ui/view's Overview
// computes (the worker sends them as one JSON string, without their
// numbers, which come as typed arrays in overview.columns: ui/engine's
// Columns) into the chart
// boxes ui/layout renders in root: every element [data-chart=ID] with a
// .chart child. Usage and pending charts are uPlot charts (stepped lines
// over simulated time); the workload timeline is one canvas, drawn lane
// by lane for the visible lanes only, so that thousands of workloads
// stay fast. A chart is created when its box first scrolls into view.
// A click on any chart calls onStep with the step shown at the time
// under the pointer (the last step at or before it; a click within 3 px
// before a step's time counts as on it), or, on a preemption
// mark of the timeline, with the preemption's step. Colours come from
// the page's CSS variables (--chart-1..8, --fg, --muted, --border,
// --accent, ...), read again when the theme changes. The step shown is
// a line over each chart (div.chart-current, coloured by the page's CSS):
// a step move moves the lines and redraws no chart.
import { restore } from "./lazy-intl.js";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

restore();

const root = document.documentElement;

// Same words as view.FormatTime: "0s", "100ms", "1.5s", "1m30s", "2h".
function fmtTime(ms) {
  if (ms === 0) return "0s";
  const neg = ms < 0 ? "-" : "";
  ms = Math.abs(ms);
  if (ms < 1000) return neg + Math.round(ms) + "ms";
  let s = ms / 1000;
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  s = Math.round(s * 1000) / 1000;
  let out = neg;
  if (h) out += h + "h";
  if (m) out += m + "m";
  if (s || (!h && !m)) out += s + "s";
  return out;
}

function colors() {
  const cs = getComputedStyle(root);
  const v = (n, d) => cs.getPropertyValue(n).trim() || d;
  const series = [];
  for (let i = 1; i <= 8; i++) series.push(v(`--chart-${i}`, "#2563eb"));
  return {
    fg: v("--fg", "#1f2328"),
    bg: v("--bg", "#ffffff"),
    muted: v("--muted", "#59636e"),
    grid: v("--border", "#d0d7de"),
    cursor: v("--accent", "#0969da"),
    quota: v("--marker-quota", "#1f2328"),
    limit: v("--marker-limit", "#d1242f"),
    waiting: v("--chart-waiting", "#8c959f"),
    admitted: v("--chart-admitted", "#2563eb"),
    terminating: v("--chart-terminating", "#e8910c"),
    preemption: v("--mark-preemption", "#cf222e"),
    series,
  };
}

// stepAt is view.Overview.StepAt: the last step at or before ms.
function stepAt(times, ms) {
  let lo = 0;
  let hi = times.length; // first step after ms
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= ms) lo = mid + 1;
    else hi = mid;
  }
  return Math.max(0, lo - 1);
}

// stepNear is stepAt for a click at ms, where slack ms is a few pixels: a
// click just before a step's time (on its point) goes to that step.
function stepNear(times, ms, slack) {
  const i = stepAt(times, ms);
  if (i + 1 < times.length && times[i + 1] - ms <= slack) return stepAt(times, times[i + 1]);
  return i;
}

// A chart box's width: its .chart element's, at least 200 px.
const widthOf = (el) => Math.max(200, Math.floor(el.clientWidth || el.getBoundingClientRect().width || 600));

// uPlot data: x in ms, every series divided into its unit, gaps as null.
// A series' values are a view of overview.columns.values (valueViews).
// A value equal to the one before it (no change: a stepped line goes on
// level through it) is left undefined, which uPlot's paths skip without
// a gap (gaps are null): the line drawn is the same, from far fewer
// points. A usage chart's quota and limit rarely change: at 15,000
// workloads the 35 usage charts' 106,000 points became 38,000 (the
// pending chart's 35,500, whose series change more often, 28,600). The
// legend reads the value at the cursor from the series itself
// (uPlotChart), not from these.
function chartData(c) {
  const data = [Float64Array.from(c.xMs)];
  for (const s of c.series) {
    const n = c.xMs.length;
    const vals = new Array(n);
    const gap = new Uint8Array(n);
    for (const g of s.gaps || []) gap[g] = 1;
    let prev = null;
    for (let i = 0; i < n; i++) {
      if (gap[i]) {
        vals[i] = null;
        prev = null;
        continue;
      }
      const v = s.values[i] / c.divisor;
      // The last point stays: the line ends at the last x.
      vals[i] = v === prev && i < n - 1 ? undefined : v;
      prev = v;
    }
    data.push(vals);
  }
  return data;
}

// fmtNum is a value axis's label: digits grouped by threes with commas,
// up to 3 decimals, as uPlot's default (Intl.NumberFormat) writes them
// in English; the page writes its numbers so too (boot.js's line count).
// Intl is not used: its first NumberFormat costs 30-40 ms (lazy-intl.js).
function fmtNum(v) {
  if (v == null) return "";
  const r = Math.round(Math.abs(v) * 1000) / 1000;
  if (r === 0) return v < 0 ? "-0" : "0";
  let [int, frac] = String(r).split(".");
  let out = "";
  while (int.length > 3) {
    out = "," + int.slice(-3) + out;
    int = int.slice(0, -3);
  }
  return (v < 0 ? "-" : "") + int + out + (frac ? "." + frac : "");
}

function fmtValue(v, unit) {
  if (v == null) return "–";
  const r = Math.round(v * 1000) / 1000;
  return unit ? `${r} ${unit}` : String(r);
}

// uPlotChart makes one Chart (ui/view) for el, in two tasks: it makes
// the uPlot (its options, series, axes and legend, off the page) and
// returns {chart, finish}; finish, called in a later task, puts it in el
// and draws it. One task was 20-50 ms of CPU on this machine for each of
// the 15,000-workload run's charts (about half of it uPlot's setup, half
// its first draw). width is el's width (mount's widthFor).
function uPlotChart(el, c, ov, ctx, width) {
  const col = ctx.colors();
  const stepped = uPlot.paths.stepped({ align: 1 });
  let flavorIdx = -1;
  let lastFlavor = null;
  const series = [{ label: "time", value: (u, v) => (v == null ? "–" : fmtTime(v)) }];
  c.series.forEach((s, i) => {
    let stroke;
    let dash;
    let width = 1.5;
    if (s.kind === "pending") {
      stroke = i === 0 ? col.fg : col.series[(i - 1) % col.series.length];
      width = i === 0 ? 2 : 1.5;
    } else {
      if (s.flavor !== lastFlavor) {
        lastFlavor = s.flavor;
        flavorIdx++;
      }
      const fc = col.series[flavorIdx % col.series.length];
      if (s.kind === "used") {
        stroke = fc;
        width = 2;
      } else if (s.kind === "quota") {
        stroke = flavorIdx === 0 ? col.quota : fc;
        dash = [5, 4];
      } else {
        stroke = flavorIdx === 0 ? col.limit : fc;
        dash = [2, 3];
      }
    }
    // The value at the cursor (idx) from the series, since chartData
    // leaves repeated values undefined.
    const value = (u, v, si, idx) => fmtValue(idx == null || v === null ? v : s.values[idx] / c.divisor, c.unit);
    series.push({ label: s.label, stroke, width, dash, paths: stepped, points: { show: false }, value });
  });
  const opts = {
    width,
    height: c.id === "pending" ? 200 : 150,
    series,
    scales: { x: { time: false } },
    axes: [
      { stroke: col.muted, grid: { stroke: col.grid, width: 1 }, ticks: { stroke: col.grid }, values: (u, vals) => vals.map(fmtTime) },
      { stroke: col.muted, grid: { stroke: col.grid, width: 1 }, ticks: { stroke: col.grid }, size: 48, label: c.unit, labelSize: 14, values: (u, vals) => vals.map(fmtNum) },
    ],
    // The cursor's index for every series is the x under it (uPlot's own
    // moves to the nearest defined value, and chartData leaves repeats
    // undefined).
    cursor: { sync: { key: "kueueplay-overview" }, drag: { x: true, y: false }, dataIdx: (u, si, idx) => idx },
    legend: { live: true },
    hooks: { draw: [() => place()] },
  };
  let line = null;
  const place = () => line && placeLine(line, ctx.currentMs == null ? null : u.valToPos(ctx.currentMs, "x"), u.bbox.width / (uPlot.pxRatio || devicePixelRatio || 1));
  // uPlot calls then(u, init) instead of drawing: init sets the data and
  // size and draws.
  let init = null;
  const u = new uPlot(opts, chartData(c), (_, f) => (init = f));
  const chart = {
    kind: "uplot",
    u,
    series: c.series.map((s) => s.label),
    place,
    // resize sets the chart's width when el's has changed: uPlot's
    // setSize redraws the whole chart even at the same size.
    resize: () => {
      const w = widthOf(el);
      if (w !== u.width) u.setSize({ width: w, height: opts.height });
    },
    // clientPoint is where time ms is on the page (mid-height of the plot).
    clientPoint(ms) {
      const r = u.over.getBoundingClientRect();
      return { x: r.left + u.valToPos(ms, "x"), y: r.top + r.height / 2 };
    },
    destroy: () => u.destroy(),
  };
  const finish = () => {
    // Drawn (batch: now, not in a microtask) before it is put in el: a
    // canvas on the page brings the page's style up to date each time its
    // font is set (uPlot sets its axes' fonts a few times a draw), 40% of
    // the charts' drawing in a CPU profile. Its position on the page is
    // read again when needed (syncRect(true)).
    u.batch(init);
    el.append(u.root);
    u.syncRect(true);
    line = currentLine(u.over, null);
    place();
    // A click (not a drag, which zooms) goes to the step at that time.
    let down = null;
    u.over.addEventListener("mousedown", (e) => (down = { x: e.clientX, y: e.clientY }));
    u.over.addEventListener("click", (e) => {
      if (down && Math.abs(e.clientX - down.x) + Math.abs(e.clientY - down.y) > 3) return;
      const left = e.clientX - u.over.getBoundingClientRect().left;
      const ms = u.posToVal(left, "x");
      const slack = Math.abs(u.posToVal(left + 3, "x") - ms);
      if (Number.isFinite(ms)) ctx.onStep(stepNear(ov.timesMs, ms, slack));
    });
  };
  return { chart, finish };
}

// currentLine makes the current step's line (div.chart-current, the
// height of the plot: all of parent's, or height px), in parent.
function currentLine(parent, height) {
  const line = document.createElement("div");
  line.className = "chart-current";
  line.setAttribute("aria-hidden", "true");
  if (height != null) line.style.height = height + "px";
  line.hidden = true;
  parent.append(line);
  return line;
}

// placeLine puts line at x px of its plot (null: no step), hidden
// outside the plot's width px. Only the line moves: a step move redraws
// no chart (each of the 1,048-point charts of a long run took a few
// milliseconds of canvas and compositing a frame).
function placeLine(line, x, width) {
  const show = x != null && Number.isFinite(x) && x >= 0 && x <= width;
  if (line.hidden === show) line.hidden = !show;
  if (show) line.style.transform = `translateX(${Math.round(x)}px)`;
}

// KINDS are the span kinds by their code in the timeline's spans.kinds
// (ui/engine's spanCode).
const KINDS = ["waiting", "admitted", "terminating"];
const WAITING = 0;
const ADMITTED = 1;

// timelineChart draws the workloads' lanes into el: one canvas, only
// the visible lanes drawn. Drag selects a time range to zoom into; the
// wheel scrolls the lanes (Ctrl+wheel zooms); the box's
// button[data-zoom=in|out|reset] zoom too.
function timelineChart(el, box, tl, ov, ctx) {
  const lanes = tl.lanes;
  // Lane i's spans are sp.lanes[i] to sp.lanes[i+1]: their kinds (codes
  // into KINDS), start and end (ms).
  const sp = ov.columns;
  const end = Math.max(ov.endMs, 1);
  const AXIS = 20;
  // Readable lanes are 3 to 16 px (the wheel scrolls them when they do
  // not fit); "All lanes" (data-zoom=fit) squeezes every lane into the
  // plot, a density picture of the whole run.
  const readableH = Math.max(3, Math.min(16, Math.floor(360 / Math.max(1, lanes.length))));
  const plotH = Math.max(readableH, Math.min(360, lanes.length * readableH));
  let laneH = readableH;
  const canvas = document.createElement("canvas");
  canvas.className = "timeline-canvas";
  canvas.setAttribute("role", "img");
  canvas.setAttribute("aria-label", `Timeline of ${lanes.length} workloads and ${(tl.preemptions || []).length} preemptions; click to go to that step`);
  el.append(canvas);
  const line = currentLine(el, plotH);
  const view = { x0: 0, x1: end, top: 0 }; // top: first lane shown (px)
  let width = widthOf(el);
  let col = colors();
  const maxTop = () => Math.max(0, lanes.length * laneH - plotH);
  const xOf = (ms) => ((ms - view.x0) / (view.x1 - view.x0)) * width;
  const msOf = (x) => view.x0 + (x / width) * (view.x1 - view.x0);
  let frame = 0;
  const place = () => placeLine(line, ctx.currentMs == null || ctx.currentMs < view.x0 || ctx.currentMs > view.x1 ? null : xOf(ctx.currentMs), width);
  const draw = () => {
    frame = 0;
    place();
    const dpr = devicePixelRatio || 1;
    const h = plotH + AXIS;
    if (canvas.width !== Math.round(width * dpr) || canvas.height !== Math.round(h * dpr)) {
      canvas.width = Math.round(width * dpr);
      canvas.height = Math.round(h * dpr);
      canvas.style.width = width + "px";
      canvas.style.height = h + "px";
    }
    const c = canvas.getContext("2d");
    c.setTransform(dpr, 0, 0, dpr, 0, 0);
    c.clearRect(0, 0, width, h);
    c.save();
    c.beginPath();
    c.rect(0, 0, width, plotH);
    c.clip();
    const first = Math.floor(view.top / laneH);
    const last = Math.min(lanes.length - 1, Math.floor((view.top + plotH) / laneH));
    const barH = laneH >= 3 ? Math.max(2, laneH - (laneH > 5 ? 2 : 1)) : Math.max(0.5, laneH);
    let cq = null;
    for (let i = first; i <= last; i++) {
      const l = lanes[i];
      const y = i * laneH - view.top;
      if (l.cq !== cq) {
        if (cq !== null || i > 0) {
          c.fillStyle = col.grid;
          c.fillRect(0, y, width, 1);
        }
        cq = l.cq;
      }
      for (let j = sp.lanes[i]; j < sp.lanes[i + 1]; j++) {
        const from = sp.fromMs[j];
        const to = sp.toMs[j];
        if (to < view.x0 || from > view.x1) continue;
        const x0 = xOf(from);
        const w = Math.max(1, xOf(to) - x0);
        const kind = sp.kinds[j];
        if (kind === WAITING) {
          c.fillStyle = col.waiting;
          c.fillRect(x0, y + laneH / 2 - 0.5, w, Math.min(1, laneH));
        } else {
          c.fillStyle = kind === ADMITTED ? col.admitted : col.terminating;
          c.fillRect(x0, y + (laneH - barH) / 2, w, barH);
        }
      }
    }
    // Group labels: each ClusterQueue's name at its first visible lane.
    if (laneH >= 3) {
      c.font = "11px system-ui, sans-serif";
      c.textBaseline = "top";
      let prev = null;
      for (let i = first; i <= last; i++) {
        if (lanes[i].cq === prev) continue;
        prev = lanes[i].cq;
        const y = Math.max(0, i * laneH - view.top);
        const label = prev || "(no ClusterQueue)";
        const tw = c.measureText(label).width;
        c.globalAlpha = 0.8;
        c.fillStyle = col.bg;
        c.fillRect(2, y + 1, tw + 6, 13);
        c.globalAlpha = 1;
        c.fillStyle = col.muted;
        c.fillText(label, 5, y + 2);
      }
    }
    // Preemptions: a line from the preemptor's lane to the victim's, and
    // a mark on the victim's.
    for (const p of tl.preemptions || []) {
      if (p.timeMs < view.x0 || p.timeMs > view.x1) continue;
      const x = xOf(p.timeMs);
      const vy = p.victim * laneH - view.top + laneH / 2;
      c.strokeStyle = col.preemption;
      c.fillStyle = col.preemption;
      if (p.preemptor >= 0) {
        const py = p.preemptor * laneH - view.top + laneH / 2;
        c.lineWidth = 1;
        c.beginPath();
        c.moveTo(x, py);
        c.lineTo(x, vy);
        c.stroke();
        c.fillRect(x - 1.5, py - 1.5, 3, 3);
      }
      c.beginPath();
      c.moveTo(x, vy - 4);
      c.lineTo(x + 4, vy);
      c.lineTo(x, vy + 4);
      c.lineTo(x - 4, vy);
      c.closePath();
      c.fill();
    }
    // Where the lanes shown are among all of them.
    if (maxTop() > 0) {
      const total = lanes.length * laneH;
      c.globalAlpha = 0.5;
      c.fillStyle = col.muted;
      c.fillRect(width - 4, (view.top / total) * plotH, 3, Math.max(6, (plotH / total) * plotH));
      c.globalAlpha = 1;
    }
    if (drag && drag.moved) {
      c.globalAlpha = 0.15;
      c.fillStyle = col.cursor;
      c.fillRect(Math.min(drag.x0, drag.x1), 0, Math.abs(drag.x1 - drag.x0), plotH);
      c.globalAlpha = 1;
    }
    c.restore();
    // The time axis.
    c.fillStyle = col.grid;
    c.fillRect(0, plotH, width, 1);
    c.fillStyle = col.muted;
    c.font = "11px system-ui, sans-serif";
    c.textBaseline = "top";
    const span = view.x1 - view.x0;
    const raw = span / Math.max(2, Math.floor(width / 90));
    const mag = Math.pow(10, Math.floor(Math.log10(raw)));
    const inc = [1, 2, 5, 10].map((k) => k * mag).find((k) => k >= raw) || raw;
    for (let t = Math.ceil(view.x0 / inc) * inc; t <= view.x1; t += inc) {
      const x = xOf(t);
      c.fillRect(x, plotH, 1, 4);
      const label = fmtTime(t);
      const tw = c.measureText(label).width;
      c.fillText(label, Math.min(width - tw, Math.max(0, x - tw / 2)), plotH + 5);
    }
  };
  const redraw = () => {
    if (!frame) frame = requestAnimationFrame(draw);
  };
  const zoom = (factor, at) => {
    const span = view.x1 - view.x0;
    const ns = Math.min(end, Math.max(1, span * factor));
    const anchor = at ?? view.x0 + span / 2;
    const f = (anchor - view.x0) / span;
    view.x0 = Math.max(0, anchor - f * ns);
    view.x1 = Math.min(end, view.x0 + ns);
    view.x0 = Math.max(0, view.x1 - ns);
    redraw();
  };
  // laneAt and markAt find what is under a point of the canvas.
  const laneAt = (y) => Math.floor((y + view.top) / laneH);
  const markAt = (x, y) =>
    (tl.preemptions || []).find((p) => Math.abs(xOf(p.timeMs) - x) <= 5 && Math.abs(p.victim * laneH - view.top + laneH / 2 - y) <= 5);
  let drag = null;
  const local = (e) => {
    const r = canvas.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };
  canvas.addEventListener("pointerdown", (e) => {
    const p = local(e);
    if (p.y > plotH) return;
    drag = { x0: p.x, x1: p.x, moved: false };
    canvas.setPointerCapture(e.pointerId);
  });
  canvas.addEventListener("pointermove", (e) => {
    const p = local(e);
    if (drag) {
      drag.x1 = p.x;
      drag.moved = drag.moved || Math.abs(drag.x1 - drag.x0) > 3;
      if (drag.moved) redraw();
      return;
    }
    const mark = markAt(p.x, p.y);
    if (mark) {
      canvas.title = `${lanes[mark.victim].workload} preempted by ${mark.preemptorName} at ${fmtTime(mark.timeMs)} (step ${mark.step})`;
      return;
    }
    const li = laneAt(p.y);
    const l = lanes[li];
    const ms = msOf(p.x);
    let s = -1;
    if (l) for (let j = sp.lanes[li]; j < sp.lanes[li + 1] && s < 0; j++) if (sp.fromMs[j] <= ms && ms <= sp.toMs[j]) s = j;
    canvas.title = l
      ? `${l.workload} (${l.cq || "no ClusterQueue"}, priority ${l.priority})` + (s >= 0 ? `: ${KINDS[sp.kinds[s]] || "?"} ${fmtTime(sp.fromMs[s])}–${fmtTime(sp.toMs[s])}` : "") + `; click for step ${stepAt(ov.timesMs, ms)}`
      : "";
  });
  canvas.addEventListener("pointerup", (e) => {
    if (!drag) return;
    const d = drag;
    drag = null;
    if (d.moved) {
      const a = msOf(Math.min(d.x0, d.x1));
      const b = msOf(Math.max(d.x0, d.x1));
      if (b - a >= 1) {
        view.x0 = Math.max(0, a);
        view.x1 = Math.min(end, b);
      }
      redraw();
      return;
    }
    const mark = markAt(d.x0, local(e).y);
    ctx.onStep(mark ? mark.step : stepNear(ov.timesMs, msOf(d.x0), msOf(d.x0 + 3) - msOf(d.x0)));
  });
  canvas.addEventListener(
    "wheel",
    (e) => {
      if (e.ctrlKey || e.metaKey) {
        e.preventDefault();
        zoom(e.deltaY > 0 ? 1.25 : 0.8, msOf(local(e).x));
        return;
      }
      const t = Math.max(0, Math.min(maxTop(), view.top + e.deltaY));
      if (t !== view.top) {
        e.preventDefault();
        view.top = t;
        redraw();
      }
    },
    { passive: false },
  );
  for (const b of box.querySelectorAll("button[data-zoom]")) {
    b.addEventListener("click", () => {
      const z = b.dataset.zoom;
      if (z === "in") zoom(0.5);
      else if (z === "out") zoom(2);
      else if (z === "fit") {
        const fit = laneH === readableH && lanes.length * readableH > plotH;
        laneH = fit ? plotH / lanes.length : readableH;
        b.setAttribute("aria-pressed", String(fit));
        view.top = 0;
        redraw();
      } else {
        view.x0 = 0;
        view.x1 = end;
        view.top = 0;
        redraw();
      }
    });
  }
  draw();
  return {
    kind: "timeline",
    lanes: lanes.length,
    preemptions: (tl.preemptions || []).length,
    place,
    resize() {
      width = widthOf(el);
      redraw();
    },
    recolor() {
      col = colors();
      redraw();
    },
    view: () => ({ ...view, laneH }),
    // clientPoint is where time ms is on the page, on lane (default the
    // middle of the plot).
    clientPoint(ms, lane) {
      const r = canvas.getBoundingClientRect();
      const y = lane == null ? plotH / 2 : lane * laneH - view.top + laneH / 2;
      return { x: r.left + xOf(ms), y: r.top + y };
    },
    destroy: () => canvas.remove(),
  };
}

// The mounted overview, at most one.
let current = null;

// valueViews points every series' values at its part of
// ov.columns.values: the usage charts' series in order, then the pending
// chart's, each as many values as its chart has points.
function valueViews(ov) {
  const all = ov.columns.values;
  let at = 0;
  for (const c of [...ov.usage, ov.pending]) {
    const n = c.xMs ? c.xMs.length : 0;
    for (const s of c.series || []) {
      s.values = all.subarray(at, at + n);
      at += n;
    }
  }
  if (at !== all.length) throw new Error(`the Overview's values: ${all.length}, expected ${at}`);
}

function mount(rootEl, ov, { onStep }) {
  unmount();
  valueViews(ov);
  const ctx = { currentMs: null, onStep: (s) => onStep && onStep(s) };
  const charts = new Map();
  const byID = new Map([["pending", ov.pending]]);
  for (const c of ov.usage) byID.set(c.id, c);
  // reserved is the height of the first chart made of each kind (usage,
  // pending): the boxes of that kind not yet made take it, so that a
  // chart made later moves nothing around it.
  const reserved = new Map();
  const kindOf = (id) => (id.startsWith("usage-") ? "usage" : id);
  // The colours, read once for all the charts (getComputedStyle), again
  // after a theme change (retheme).
  let col = null;
  ctx.colors = () => (col ??= colors());
  // The chart boxes' widths, read together in one layout the first time
  // one is needed, and again after a resize (a box in a closed group has
  // none: read when its chart is made). Each chart read its own, a
  // layout of the page each, between the previous chart's drawing and its
  // own.
  let widths = null;
  const widthFor = (box, el) => {
    if (!widths) {
      widths = new Map();
      for (const b of boxes) {
        const w = b.querySelector(".chart")?.clientWidth;
        if (w) widths.set(b, Math.max(200, Math.floor(w)));
      }
    }
    return widths.get(box) ?? widthOf(el);
  };
  // register marks a chart made and drawn, and keeps the height of the
  // first of its kind for the others, as a ResizeObserver reports it
  // once laid out: read at once (getBoundingClientRect), it laid the page
  // out in the task that drew the chart (11 ms of a chart's task in a
  // Chromium trace).
  const sizers = new Set();
  const register = (id, chart, box, el) => {
    charts.set(id, { chart, box, el });
    box.dataset.drawn = "true";
    el.style.minHeight = "";
    const kind = kindOf(id);
    if (reserved.has(kind)) return;
    reserved.set(kind, 0);
    const sizer = new ResizeObserver((entries) => {
      const e = entries[entries.length - 1];
      const h = Math.ceil(e.borderBoxSize?.[0]?.blockSize ?? e.contentRect.height);
      if (!h) return;
      sizer.disconnect();
      sizers.delete(sizer);
      reserved.set(kind, h);
      for (const b of boxes) if (!charts.has(b.dataset.chart) && kindOf(b.dataset.chart) === kind) b.querySelector(".chart")?.style.setProperty("min-height", h + "px");
    });
    sizers.add(sizer);
    sizer.observe(el);
  };
  // begun is a uPlot chart made but not yet drawn: {id, chart, finish,
  // box, el}, drawn by the next task.
  let begun = null;
  const create = (box) => {
    const id = box.dataset.chart;
    if (charts.has(id)) return;
    const el = box.querySelector(".chart");
    if (!el) return;
    if (id === "timeline") register(id, timelineChart(el, box, ov.timeline, ov, ctx), box, el);
    else if (byID.has(id)) begun = { id, box, el, ...uPlotChart(el, byID.get(id), ov, ctx, widthFor(box, el)) };
  };
  // Charts are made when first seen, in the page's order, a uPlot chart
  // in two tasks (uPlotChart), the timeline in one (making and drawing a
  // uPlot chart's 1,000-2,000 points was 10-40 ms of the page's thread,
  // and a screenful of them in one task held it for 0.1-0.2 s). A chart
  // seen is made even if it has moved out of view since. A step move
  // moves every chart's line (place).
  const visible = new Set();
  const toMake = [];
  let making = 0;
  let closed = false;
  const makeNext = () => {
    making = 0;
    if (closed) return;
    if (begun) {
      const b = begun;
      begun = null;
      b.finish();
      register(b.id, b.chart, b.box, b.el);
    } else {
      const box = toMake.shift();
      if (box) create(box);
    }
    if (toMake.length || begun) making = setTimeout(makeNext, 0);
  };
  const make = (box) => {
    if (toMake.includes(box) || (begun && begun.box === box)) return;
    toMake.push(box);
    toMake.sort((a, b) => boxes.indexOf(a) - boxes.indexOf(b));
    if (!making) making = setTimeout(makeNext, 0);
  };
  const stepMoved = () => {
    for (const { chart } of charts.values()) chart.place();
  };
  const io = new IntersectionObserver(
    (entries) => {
      for (const e of entries) {
        const id = e.target.dataset.chart;
        if (!e.isIntersecting) {
          visible.delete(id);
          continue;
        }
        visible.add(id);
        if (!charts.has(id)) make(e.target);
      }
    },
    { rootMargin: "200px" },
  );
  const boxes = [...rootEl.querySelectorAll("[data-chart]")];
  for (const b of boxes) io.observe(b);
  // Resizes (the window, Compare mode) and theme changes redraw.
  let resizeFrame = 0;
  const ro = new ResizeObserver(() => {
    if (resizeFrame) return;
    resizeFrame = requestAnimationFrame(() => {
      resizeFrame = 0;
      widths = null;
      for (const { chart } of charts.values()) chart.resize();
    });
  });
  ro.observe(rootEl);
  // uPlot keeps its colours in its options: a theme change makes the
  // charts again (they are made when seen, so this is cheap).
  const retheme = () => {
    col = null;
    if (begun) {
      const b = begun;
      begun = null;
      b.chart.destroy();
      make(b.box);
    }
    for (const [id, { chart, box }] of [...charts]) {
      if (chart.kind === "timeline") {
        chart.recolor();
        continue;
      }
      chart.destroy();
      charts.delete(id);
      delete box.dataset.drawn;
      if (visible.has(id)) make(box);
    }
  };
  // uPlot forgets every chart's position on any scroll (its rect) and
  // reads it again (getBoundingClientRect) where it needs it: as the
  // synced cursor moves over each chart in turn, between the moves of
  // the ones before, a layout of the page per chart (a mouse move over
  // the 35 charts of the 15,000-workload run: 66 ms of CPU, half of it
  // in getBoundingClientRect). All are read first, in one layout.
  const readRects = () => {
    for (const { chart } of charts.values()) if (chart.kind === "uplot") void chart.u.rect;
  };
  for (const type of ["mouseenter", "mousemove", "mousedown"]) rootEl.addEventListener(type, readRects, true);
  const mo = new MutationObserver(retheme);
  mo.observe(root, { attributes: true, attributeFilter: ["data-theme"] });
  const mq = matchMedia("(prefers-color-scheme: dark)");
  mq.addEventListener("change", retheme);
  current = {
    root: rootEl,
    ov,
    charts,
    ctx,
    stepMoved,
    destroy() {
      clearTimeout(making);
      closed = true;
      for (const sizer of sizers) sizer.disconnect();
      if (begun) begun.chart.destroy();
      begun = null;
      for (const type of ["mouseenter", "mousemove", "mousedown"]) rootEl.removeEventListener(type, readRects, true);
      toMake.length = 0;
      io.disconnect();
      ro.disconnect();
      mo.disconnect();
      mq.removeEventListener("change", retheme);
      for (const { chart } of charts.values()) chart.destroy();
      charts.clear();
      for (const b of boxes) delete b.dataset.drawn;
    },
  };
  return current;
}

function unmount() {
  if (current) current.destroy();
  current = null;
}

// setStep marks the step shown on every chart (a vertical line at its
// time).
function setStep(step) {
  if (!current) return;
  const t = current.ov.timesMs;
  current.ctx.currentMs = t.length ? t[Math.max(0, Math.min(step, t.length - 1))] : null;
  current.stepMoved();
}

// inspect describes what is drawn, for the tests: per chart its id, kind,
// series labels (uPlot's own, without the x series), number of points,
// and for the timeline its lanes and preemptions.
function inspect() {
  if (!current) return null;
  const out = [];
  for (const [id, { chart }] of current.charts) {
    if (chart.kind === "uplot") {
      out.push({ id, kind: "uplot", series: chart.u.series.slice(1).map((s) => s.label), points: chart.u.data[0].length });
    } else {
      out.push({ id, kind: "timeline", lanes: chart.lanes, preemptions: chart.preemptions, view: chart.view() });
    }
  }
  return out;
}

// clientPoint(id, ms, lane) is where time ms of chart id is on the page.
function clientPoint(id, ms, lane) {
  const c = current && current.charts.get(id);
  return c ? c.chart.clientPoint(ms, lane) : null;
}

window.kueueplayCharts = { mount, unmount, setStep, inspect, clientPoint, fmtTime, stepAt };
