// The page's bootstrap, the only script besides the editor and chart
// bundles and Go's wasm_exec.js: it shows the scenario's text at once (the editor itself
// comes after the first result), applies the saved theme,
// offers Go a way to register the service worker (offline use), and starts the WebAssembly
// module (kueueplay.wasm), whose Go code (ui/app) runs the rest of the
// page, and the engine's Web Worker (engine.js), a second instance of the
// same module that decodes and simulates for it. It hands the editor to Go as kueueplayBoot.editor and forwards its
// changes to kueueplayBoot.onChange, which Go sets.
//
// Embed mode (?embed=1, for an iframe; site/embed.js makes such iframes):
// marks html and #app with data-embed="true" (and data-editable="true" for
// &editable=1) as soon as the page is parsed, so that the CSS shows the
// compact view from the start; points #open-playground at the full
// playground; uses &theme=light|dark when given (without saving it);
// keeps the text in a plain object instead of CodeMirror unless editable;
// and, inside a frame, tells the parent the page's height whenever it
// changes: parent.postMessage({type: "kueueplay:size", height}, "*").
"use strict";
(() => {
  const root = document.documentElement;
  const params = new URLSearchParams(location.search);
  const embed = params.get("embed") === "1";
  const editable = embed && params.get("editable") === "1";
  const app = document.getElementById("app");
  if (embed) {
    root.dataset.embed = app.dataset.embed = "true";
    if (editable) root.dataset.editable = app.dataset.editable = "true";
    // The full playground at the state the URL names; Go keeps the link
    // up to date from the first result on.
    const full = new URLSearchParams(location.search);
    for (const k of ["embed", "editable", "theme"]) full.delete(k);
    const q = full.toString();
    document.getElementById("open-playground").href = location.pathname + (q ? "?" + q : "") + location.hash;
  }
  const theme = (() => {
    const asked = embed ? params.get("theme") : null;
    if (asked === "light" || asked === "dark") return asked;
    try {
      return localStorage.getItem("kueueplay-theme");
    } catch {
      return null;
    }
  })();
  if (theme === "light" || theme === "dark") root.dataset.theme = theme;
  const dark = () =>
    root.dataset.theme ? root.dataset.theme === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;

  // render(parent, json) replaces parent's children with the element tree
  // json describes (or with its children, when its tag is ""):
  // [tag, [name, value, ...], text, [child, ...]], as
  // ui/app encodes a view.Node. Go builds the trees; this only creates
  // them, in one call instead of thousands of Go-to-JS calls. Elements are
  // made with createElement (createElementNS inside svg), attributes with
  // setAttribute, text as text nodes: nothing is parsed as HTML, and
  // script-bearing tags and attributes are refused whatever the tree says.
  const SVG = "http://www.w3.org/2000/svg";
  const badTag = new Set(["script", "style", "iframe", "object", "embed", "link", "meta", "base", "foreignobject", "form", "a", "img", "image", "use"]);
  const badAttr = /^(on.*|style|href|src|srcdoc|formaction|action|xlink:href|xmlns)$/i;
  // shell makes spec's element with its attributes and text, without
  // its children.
  const shell = (spec, svg) => {
    let [tag, attrs, text] = spec;
    if (badTag.has(tag.toLowerCase())) tag = "span";
    const el = svg ? document.createElementNS(SVG, tag) : document.createElement(tag);
    for (let i = 0; i + 1 < attrs.length; i += 2) {
      if (!badAttr.test(attrs[i])) el.setAttribute(attrs[i], attrs[i + 1]);
    }
    if (text) el.append(text);
    return el;
  };
  // inSVG says whether spec's element is in the SVG namespace, given its
  // parent's.
  const inSVG = (spec, svg) => svg || spec[0] === "svg";
  const make = (spec, svg) => {
    svg = inSVG(spec, svg);
    const el = shell(spec, svg);
    const kids = spec[3];
    if (kids && el.localName === "details" && !el.open && el.dataset.lazy === "true") lazy(el, kids, svg);
    else if (kids) for (const k of kids) el.append(make(k, svg));
    return el;
  };
  // lazy makes a closed details[data-lazy=true]'s first child (its
  // summary), and the others the first time it opens: on the click that
  // opens it (before it is shown open) or its toggle event (opened
  // otherwise). The Overview's long summary tables (ui/layout's
  // closeIfLong), 1,300 cells at 15,000 workloads, were a third of its
  // opening's task even closed.
  const lazy = (el, kids, svg) => {
    if (kids.length) el.append(make(kids[0], svg));
    let rest = kids.slice(1);
    const fill = () => {
      if (!rest) return;
      const r = rest;
      rest = null;
      el.removeEventListener("click", fill);
      el.removeEventListener("toggle", fill);
      el.append(...r.map((k) => make(k, svg)));
    };
    el.addEventListener("click", fill);
    el.addEventListener("toggle", fill);
  };

  // patch makes el (made by make, or patched before) what spec
  // describes, changing only what differs: attributes set or removed,
  // its text, its children patched in place, the extra removed, the
  // missing made. Stepping redraws the same panels with a few rows
  // changed; made again whole, every element was styled and laid out
  // again (most of a step's time). An element of another tag is made
  // anew. The same refusals as make's.
  //
  // patch is a generator: it yields after each element it makes (1) or
  // patches (0), so that views.draw can stop between two and go on after
  // a frame: the style and layout of a frame follow the elements made in
  // it (a large run's first step was 740 new elements, 110 ms of style
  // and layout in one frame). Elements changed in place are not counted:
  // a step that changes a few hundred (the rows of a long run) would
  // wait for a frame at every move.
  function* patch(el, spec, svg) {
    svg = inSVG(spec, svg);
    let [tag, attrs, text, kids] = spec;
    if (badTag.has(tag.toLowerCase())) tag = "span";
    if (el.localName !== tag || (el.namespaceURI === SVG) !== svg) {
      const made = shell(spec, svg);
      el.replaceWith(made);
      yield 1;
      yield* patchKids(made, null, kids || [], svg);
      return;
    }
    // Attributes: those spec names, in its order, then the rest removed.
    // el has no others when it has as many as spec sets, all different
    // (the usual case: el.attributes and a set of names for each of the
    // thousands of elements a step patches were a quarter of patch's own
    // time).
    let kept = 0;
    for (let i = 0; i + 1 < attrs.length; i += 2) {
      const name = attrs[i];
      if (badAttr.test(name)) continue;
      kept++;
      if (el.getAttribute(name) !== attrs[i + 1]) el.setAttribute(name, attrs[i + 1]);
    }
    if (el.attributes.length !== kept || repeats(attrs)) {
      const keep = new Set();
      for (let i = 0; i + 1 < attrs.length; i += 2) if (!badAttr.test(attrs[i])) keep.add(attrs[i].toLowerCase());
      for (let i = el.attributes.length - 1; i >= 0; i--) {
        const a = el.attributes[i];
        if (!keep.has(a.name.toLowerCase())) el.removeAttribute(a.name);
      }
    }
    // make appends the text first, then the children.
    let first = el.firstChild;
    if (text) {
      if (first && first.nodeType === 3) {
        if (first.data !== text) first.data = text;
        first = first.nextSibling;
      } else el.insertBefore(document.createTextNode(text), first);
    } else if (first && first.nodeType === 3) {
      const t = first;
      first = first.nextSibling;
      t.remove();
    }
    yield 0;
    yield* patchKids(el, first, kids || [], svg);
  }
  // repeats says whether a name comes twice in attrs ([name, value, ...],
  // a few names: no set made).
  const repeats = (attrs) => {
    for (let i = 2; i + 1 < attrs.length; i += 2) {
      const a = attrs[i].toLowerCase();
      for (let j = 0; j < i; j += 2) if (attrs[j].toLowerCase() === a) return true;
    }
    return false;
  };
  // patchKids patches el's children from node on to kids (a generator,
  // as patch). A missing child is made empty, then filled as its
  // children are patched: a long list made whole is drawn in parts too.
  function* patchKids(el, node, kids, svg) {
    for (const k of kids) {
      if (node && node.nodeType === 1) {
        const next = node.nextSibling;
        yield* patch(node, k, svg);
        node = next;
      } else {
        const ksvg = inSVG(k, svg);
        const made = shell(k, ksvg);
        el.insertBefore(made, node);
        yield 1;
        yield* patchKids(made, null, k[3] || [], ksvg);
      }
    }
    while (node) {
      const next = node.nextSibling;
      node.remove();
      node = next;
    }
  }
  // updating is update as a generator (patch's): views.draw draws a
  // step's panels with it, in parts.
  function* updating(parent, json) {
    if (!json) return parent.replaceChildren();
    const spec = typeof json === "string" ? JSON.parse(json) : json;
    yield* patchKids(parent, parent.firstChild, spec[0] === "" ? spec[3] || [] : [spec], parent.namespaceURI === SVG);
  }

  const boot = {
    editor: null,
    onChange: null, // set by Go
    // The most text the page runs, in bytes (ui/app's maxPageBytes, which
    // checks that they agree). The editor refuses a paste or drop that
    // would pass it before taking the text in, and tells onTooLarge, which
    // Go sets once the first result is on screen; until then the refusal
    // waits in refused.
    maxBytes: 32 << 20,
    onTooLarge: null,
    refused: null,
    dark,
    error: null,
    // deflate(bytes) and inflate(bytes, limit) are raw DEFLATE (RFC 1951)
    // by the browser, for share links (ui/app's fragment codec): Go's
    // compress/flate was 34 KB of the page's first load. inflate rejects
    // with "too large" past limit bytes.
    async deflate(bytes) {
      const s = new Blob([bytes]).stream().pipeThrough(new CompressionStream("deflate-raw"));
      return new Uint8Array(await new Response(s).arrayBuffer());
    },
    async inflate(bytes, limit) {
      const r = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw")).getReader();
      const parts = [];
      for (let n = 0; ; ) {
        const { done, value } = await r.read();
        if (done) break;
        n += value.length;
        if (n > limit) {
          r.cancel().catch(() => {});
          throw new Error("too large");
        }
        parts.push(value);
      }
      return new Uint8Array(await new Blob(parts).arrayBuffer());
    },
    // update is render by patching what parent holds (patch): for the
    // panels redrawn at every step.
    update(parent, json) {
      for (const _ of updating(parent, json));
    },
    render(parent, json) {
      if (!json) return parent.replaceChildren();
      // A string (from the page's Go) or a tree the engine's worker sent,
      // already parsed with its message.
      const spec = typeof json === "string" ? JSON.parse(json) : json;
      // A root without a tag is a fragment: its children fill parent.
      if (spec[0] === "") parent.replaceChildren(...(spec[3] || []).map((k) => make(k, false)));
      else parent.replaceChildren(make(spec, false));
    },
  };
  window.kueueplayBoot = boot;

  const fail = (msg) => {
    boot.error = msg;
    const s = document.getElementById("status");
    s.textContent = msg;
    s.dataset.state = "error";
    s.className = "status error";
  };

  // The editor. CodeMirror (editor.js, 400 KB of script) takes a few
  // hundred milliseconds of the page's only thread to load and set up, on
  // the path to the first result, so it is loaded after it: Go calls
  // loadEditor once the first result is on screen, and a click on, or the
  // focus of, the text loads it at once. Until then the text is shown in
  // a plain <pre> in #editor's light DOM, which CodeMirror's shadow root
  // hides when it attaches. boot.editor is the same facade either way: it
  // keeps the text and the diagnostics until CodeMirror takes them over.
  // #editor[data-ready=true] says CodeMirror is there. A read-only embed
  // never loads it.
  //
  // A text over editBytes characters (UTF-16 units, as CodeMirror counts;
  // a dropped, pasted or opened file, or a large
  // example such as Kueue's scalability test) is not put into CodeMirror,
  // where it would hold the page for seconds: the facade keeps it and
  // #large-text shows its size and first lines read-only, with "Edit
  // anyway" to put it into the editor. It runs as any text does.
  const host = document.getElementById("editor");
  const largeBox = document.getElementById("large-text");
  const editBytes = 1 << 20;
  const lazyEditor = () => {
    let cm = null;
    let text = "";
    let large = null; // the text, while it is too large to edit
    let diags = [];
    let loading = null;
    const pre = document.createElement("pre");
    pre.className = "editor-text";
    pre.tabIndex = 0;
    pre.setAttribute("aria-label", "Scenario YAML (the editor is loading)");
    host.append(pre);
    const put = (s) => {
      if (cm) cm.setText(s);
      else pre.textContent = text = s;
    };
    // counting is the count of a large text's bytes and lines in
    // progress, a few milliseconds of it a task (countMs, in parts of
    // countPart characters), since the whole of a 6 MB text was 0.1 s of
    // the page's thread, at the moment the engine starts. The bytes are
    // UTF-8's, as TextEncoder writes them (a lone surrogate as U+FFFD's
    // 3 bytes, as a Blob of the text has it), into one reused buffer: a
    // Blob of each part (256 Ki characters a task) made it a task of
    // 40-60 ms. The summary says them when counted (a few tasks later),
    // #large-text[data-bytes] too.
    let counting = 0;
    const countPart = 1 << 16;
    const countMs = 5;
    let countBuf = null;
    const utf8 = new TextEncoder();
    // grouped writes n (a count) with commas between groups of three
    // digits, as n.toLocaleString("en") does: its first call sets up the
    // locale's number formats, 20-30 ms of the count's last task.
    const grouped = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    const showLarge = (s) => {
      // CodeMirror keeps its older text, hidden: replacing it costs a
      // reparse (and a deeply nested one has overflowed Lezer's stack).
      large = s;
      let head = 0;
      for (let n = 0; n < 60 && head >= 0; n++) head = s.indexOf("\n", head + 1);
      const summary = largeBox.querySelector(".large-summary");
      summary.textContent = "Too large to edit comfortably, so it runs as it is. Its first lines:";
      delete largeBox.dataset.bytes;
      const gen = ++counting;
      let lines = 0;
      let bytes = 0;
      countBuf ??= new Uint8Array(3 * countPart + 3);
      const count = (from) => {
        if (gen !== counting) return;
        for (const t0 = performance.now(); from < s.length && performance.now() - t0 < countMs; ) {
          let to = Math.min(s.length, from + countPart);
          // A part ends after a whole surrogate pair (UTF-8's 4 bytes).
          if (to < s.length && (s.charCodeAt(to - 1) & 0xfc00) === 0xd800) to++;
          for (let i = s.indexOf("\n", from); i >= 0 && i < to; i = s.indexOf("\n", i + 1)) lines++;
          bytes += utf8.encodeInto(s.slice(from, to), countBuf).written;
          from = to;
        }
        if (from < s.length) return setTimeout(count, 0, from);
        if (s.length && !s.endsWith("\n")) lines++;
        summary.textContent = `${(bytes / 1048576).toFixed(1)} MiB, ${grouped(lines)} lines: too large to edit comfortably, so it runs as it is. Its first lines:`;
        largeBox.dataset.bytes = String(bytes);
      };
      count(0);
      largeBox.querySelector(".large-head").textContent = head < 0 ? s : s.slice(0, head) + "\n…";
      largeBox.hidden = false;
      host.hidden = true;
    };
    // wanted: the editor was asked for (loadEditor) while a large text
    // was shown; it loads when the text leaves (below).
    let wanted = false;
    const hideLarge = () => {
      if (large === null) return;
      large = null;
      counting++;
      largeBox.hidden = true;
      host.hidden = false;
      if (wanted) {
        wanted = false;
        load();
      }
    };
    largeBox.querySelector(".edit-anyway").addEventListener("click", () => {
      const s = large;
      hideLarge();
      load().then(() => {
        put(s ?? "");
        if (cm) cm.focus();
      });
    });
    const load = () =>
      (loading ??= new Promise((resolve, reject) => {
        const s = document.createElement("script");
        s.src = "editor.js";
        // The editor is made in a task after the one that evaluated its
        // script (40 ms of CPU in a Chromium trace): together with the
        // making (90 ms with the long-run-cancel test's 240 KB text) they
        // were one task of 130 ms.
        s.onload = () => setTimeout(() => {
          cm = kueueplayEditor.create(host, {
            doc: text,
            dark: dark(),
            label: "Scenario YAML",
            onChange() {
              // An edit in the editor (a paste into it while the large
              // text is shown, say) makes the editor's text the text.
              hideLarge();
              if (boot.onChange) boot.onChange();
            },
            maxBytes: boot.maxBytes,
            onTooLarge(what, bytes, exact) {
              if (boot.onTooLarge) boot.onTooLarge(what, bytes, exact);
              else boot.refused = { what, bytes, exact };
            },
            editBytes,
            onLarge: (payload) => boot.takeText(payload),
          });
          if (diags.length) cm.setDiagnostics(diags);
          host.dataset.ready = "true";
          performance.mark("kueueplay:editor-ready");
          resolve(cm);
        }, 0);
        s.onerror = () => reject(new Error("editor.js did not load"));
        document.head.append(s);
      }).catch((err) => fail("Could not load the editor: " + err.message)));
    const loadAndFocus = () => load().then(() => cm && cm.focus());
    pre.addEventListener("pointerdown", loadAndFocus);
    pre.addEventListener("focus", loadAndFocus);
    // Go asks for the editor once the first result is on screen. While a
    // large text is shown instead, CodeMirror (a 0.2-0.3 s task of the
    // page's thread to load and set up) would be hidden: it loads when
    // the text leaves, or at "Edit anyway".
    boot.loadEditor = () => {
      if (large === null) return load();
      wanted = true;
      return Promise.resolve();
    };
    return {
      getText: () => large ?? (cm ? cm.getText() : text),
      setText(s) {
        s = String(s ?? "");
        if (s.length > editBytes) return showLarge(s);
        hideLarge();
        put(s);
      },
      setDiagnostics(list) {
        if (cm) cm.setDiagnostics(list);
        else diags = list;
      },
      gotoLine(line, col) {
        if (large === null) load().then(() => cm && cm.gotoLine(line, col));
      },
      focus: () => (large === null ? loadAndFocus() : largeBox.querySelector(".large-head").focus()),
      setTheme(d) {
        if (cm) cm.setTheme(d);
      },
    };
  };
  // takeText puts a text or a file (dropped, pasted, opened) in place of
  // the scenario and runs it: a file is read only once its size is known
  // to be within maxBytes; anything over it is refused, as the editor
  // refuses a paste (onTooLarge).
  boot.takeText = async (payload) => {
    let t = payload;
    if (typeof payload !== "string") {
      const what = `the file "${payload.name.length > 60 ? payload.name.slice(0, 57) + "..." : payload.name}"`;
      if (payload.size > boot.maxBytes) {
        if (boot.onTooLarge) boot.onTooLarge(what, payload.size, true);
        else boot.refused = { what, bytes: payload.size, exact: true };
        return;
      }
      t = await payload.text();
    }
    boot.editor.setText(t);
    if (boot.onChange) boot.onChange();
  };
  const fileInput = document.getElementById("file-input");
  document.getElementById("open-file").addEventListener("click", () => fileInput.click());
  fileInput.addEventListener("change", () => {
    const f = fileInput.files && fileInput.files[0];
    fileInput.value = "";
    if (f) boot.takeText(f);
  });
  // A paste into the large text's summary replaces it, as a paste of
  // everything in the editor does.
  largeBox.addEventListener("paste", (e) => {
    const t = e.clipboardData && e.clipboardData.getData("text/plain");
    if (!t) return;
    e.preventDefault();
    if (t.length > boot.maxBytes) {
      // As the editor refuses it: a lower bound, not counted.
      if (boot.onTooLarge) boot.onTooLarge("the pasted text", t.length, false);
      return;
    }
    boot.takeText(t);
  });
  // A file dropped on the large text's summary replaces it, as a drop on
  // the editor does.
  largeBox.addEventListener("dragover", (e) => e.preventDefault());
  largeBox.addEventListener("drop", (e) => {
    const f = e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files[0];
    if (!f) return;
    e.preventDefault();
    boot.takeText(f);
  });
  // A read-only embed keeps the text in a plain object with the same
  // methods.
  const textOnly = () => {
    let text = "";
    const nothing = () => {};
    boot.loadEditor = () => Promise.resolve();
    return { getText: () => text, setText: (s) => (text = String(s)), setDiagnostics: nothing, gotoLine: nothing, focus: nothing, setTheme: nothing };
  };
  boot.editor = embed && !editable ? textOnly() : lazyEditor();
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => boot.editor.setTheme(dark()));

  // The Overview's charts. uPlot and the workload timeline (charts.js and
  // charts.css, about 60 KB of script) are loaded the first time the
  // Overview is opened, which can only be after the first result: they
  // cost the first load nothing. Go calls overview(parent, json, step,
  // columns) with the run's series (view.Overview as JSON, without the
  // timeline's spans and the charts' values) and those as typed arrays
  // (engine.Columns) once per run, and
  // overviewStep(step) on every step move while it is open; a click on a
  // chart calls boot.gotoStep(step), which Go sets. parent gets
  // data-ready="true" once the charts are mounted (the mark
  // "kueueplay:charts-ready" the first time).
  let chartsLoading = null;
  const loadCharts = () =>
    (chartsLoading ??= new Promise((resolve, reject) => {
      const css = document.createElement("link");
      css.rel = "stylesheet";
      css.href = "charts.css";
      document.head.append(css);
      const s = document.createElement("script");
      s.src = "charts.js";
      s.onload = () => {
        performance.mark("kueueplay:charts-ready");
        resolve(window.kueueplayCharts);
      };
      s.onerror = () => reject(new Error("charts.js did not load"));
      document.head.append(s);
    }));
  // Go calls loadCharts as the Overview opens, before it computes the
  // series, so that the bundle arrives meanwhile; and prefetchCharts
  // (once; again does nothing) as soon as a run is known to be too long
  // to step through (its progress, or its first result), whose Overview
  // is the likely next look (the worker computes it then: the bundle
  // would otherwise be what its opening waits for), when the page is
  // idle.
  boot.loadCharts = () => {
    loadCharts().catch(() => {}); // overview() reports a failure
  };
  // whenIdle runs f when the page is idle (at the latest 2 s on), or soon
  // where there is no requestIdleCallback.
  const whenIdle = (f) => {
    if ("requestIdleCallback" in window) requestIdleCallback(f, { timeout: 2000 });
    else setTimeout(f, 50);
  };
  let chartsWanted = false;
  boot.prefetchCharts = () => {
    if (chartsWanted) return;
    chartsWanted = true;
    whenIdle(() => loadCharts().catch(() => {}));
  };
  let overviewGen = 0;
  let overviewAt = 0;
  boot.gotoStep = null; // set by Go
  // The series are parsed (1.9 MB of JSON for the 15,000-workload
  // example, 20-40 ms) and the charts mounted in tasks of their own,
  // after the task in which Go drew the panel: a task the user is waiting
  // for (scheduler.postTask's "user-blocking", where there is one), which
  // goes before the event log's parts still coming from the worker, a
  // task each.
  const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
  const urgentTask = () =>
    globalThis.scheduler && scheduler.postTask ? scheduler.postTask(() => {}, { priority: "user-blocking" }) : nextTask();
  // The series are parsed in two parts, each in a task of its own: the
  // charts' (the times, usage and pending series: about 0.2 MB at 15,000
  // workloads) and the timeline's (its 15,000 lanes' names: the rest of
  // the 1.9 MB). In one, the parse and the collection after it were a
  // task of 56 ms in a CI run. The timeline is the JSON's last key
  // (ui/engine's appendOverviewJSON), and a JSON string cannot hold
  // ',"timeline":' unescaped: its last occurrence is the key. Should that
  // change, the head does not parse and the whole is parsed at once.
  const parseHead = (p) => {
    const cut = p.json.lastIndexOf(',"timeline":');
    try {
      if (cut < 0) throw new Error("no timeline");
      p.ov = JSON.parse(p.json.slice(0, cut) + "}");
      p.tail = p.json.slice(cut + ',"timeline":'.length, -1);
    } catch {
      p.ov = JSON.parse(p.json);
      p.tail = null;
    }
  };
  const parseTail = (p) => {
    if (p.tail != null) p.ov.timeline = JSON.parse(p.tail);
    p.tail = null;
  };
  // parsedSeries is the series of a long run's Overview, which the worker
  // sends unasked after its result, parsed when the page is idle
  // ({json, ov, tail}: ov null until the head is parsed, tail the
  // timeline's JSON until it is; null when none): an opening after that
  // parses nothing. Only the newest is kept, and used once (mount writes
  // into it); an opening before it parses what is left itself, and the
  // idle parses do not happen.
  let parsedSeries = null;
  const preparse = (json) => {
    const p = (parsedSeries = { json, ov: null, tail: null });
    whenIdle(() => {
      if (parsedSeries !== p) return;
      parseHead(p);
      whenIdle(() => parsedSeries === p && parseTail(p));
    });
  };
  // takeSeries is the parse state of json for an opening: the idle one's
  // when it is json's, else a new one (parsed already when Go handed an
  // object).
  const takeSeries = (json) => {
    if (typeof json !== "string") return { json, ov: json, tail: null };
    const p = parsedSeries;
    parsedSeries = null;
    return p && p.json === json ? p : { json, ov: null, tail: null };
  };
  boot.overview = (parent, json, step, columns) => {
    const gen = ++overviewGen;
    overviewAt = step;
    let p = null;
    urgentTask()
      .then(() => {
        if (gen !== overviewGen) return;
        p = takeSeries(json);
        if (!p.ov) parseHead(p);
        if (p.tail != null) return urgentTask().then(() => gen === overviewGen && parseTail(p));
      })
      .then(() => {
        if (gen !== overviewGen) return;
        // The series' numbers as typed arrays (engine.Columns).
        p.ov.columns = columns;
        return loadCharts();
      })
      .then(
        (charts) => {
          if (!charts || gen !== overviewGen) return; // a newer run's overview came
          charts.mount(parent, p.ov, { onStep: (n) => boot.gotoStep && boot.gotoStep(n) });
          charts.setStep(overviewAt);
          parent.dataset.ready = "true";
        },
        (err) => fail("Could not load the charts: " + err.message),
      );
  };
  // urgent(f) calls f (Go's) in a task of its own that goes before the
  // event log's parts still waiting: the Overview's panel after the
  // click that opens it.
  boot.urgent = (f) => {
    urgentTask().then(() => f());
  };
  boot.overviewStep = (step) => {
    overviewAt = step;
    if (window.kueueplayCharts) window.kueueplayCharts.setStep(step);
  };
  boot.overviewClose = () => {
    overviewGen++;
    if (window.kueueplayCharts) window.kueueplayCharts.unmount();
  };

  if (embed && window.parent !== window && "ResizeObserver" in window) {
    let last = -1;
    new ResizeObserver(() => {
      const height = Math.ceil(app.getBoundingClientRect().height);
      if (height !== last) {
        last = height;
        window.parent.postMessage({ type: "kueueplay:size", height }, "*");
      }
    }).observe(app);
  }

  // Go calls this once the first result is on screen, so that the service
  // worker's precaching (mostly revalidations) does not compete with the
  // first load; the registration itself (a few ms of the page's thread)
  // waits until the page is idle.
  boot.registerOffline = () => {
    if ("serviceWorker" in navigator && location.protocol !== "file:") {
      whenIdle(() => navigator.serviceWorker.register("sw.js").catch((err) => console.warn("offline cache unavailable:", err)));
    }
  };

  // The scenario the URL names (?example=, or the default without a share
  // fragment) is fetched now and shown at once, while the engine loads;
  // Go takes the same promise (kueueplayBoot.initial) instead of fetching
  // again. Names are checked like view.ValidExampleName.
  if (!location.hash.startsWith("#v") && location.protocol !== "file:") {
    const q = new URLSearchParams(location.search).get("example");
    const name = (q === null ? "default" : q).replace(/\.yaml$/, "");
    if (/^[a-z0-9][a-z0-9.-]{0,99}$/.test(name) && !name.includes("..")) {
      boot.initialName = name;
      boot.initial = fetch(`scenarios/${name}.yaml`).then(async (res) => {
        if (!res.ok) throw new Error(`scenarios/${name}.yaml: ${res.status} ${res.statusText}`);
        // Decoded as it comes, a task at least every 10 ms: res.text()
        // of the 6 MB example was one task of 60-130 ms.
        if (!res.body || !("TextDecoderStream" in window)) return res.text();
        const r = res.body.pipeThrough(new TextDecoderStream()).getReader();
        const parts = [];
        for (let t = performance.now(); ; ) {
          const { done, value } = await r.read();
          if (done) break;
          parts.push(value);
          if (performance.now() - t > 10) {
            await new Promise((resolve) => setTimeout(resolve, 0));
            t = performance.now();
          }
        }
        return parts.join("");
      });
      boot.initial.then(
        (text) => {
          if (boot.editor.getText() === "") boot.editor.setText(text);
          performance.mark("kueueplay:editor-text");
        },
        () => {},
      );
    }
  }

  if (location.protocol === "file:") {
    fail("Serve this folder over HTTP (make run), not from file://.");
    return;
  }

  // The fonts the panels use (weight and size, S: the page's sans-serif,
  // M: --mono), looked up while the engine works, one a task when the
  // page is idle. The first layout of a result otherwise looked each up
  // (a font and a size are 7-100 ms each, through the browser process on
  // Linux): 0.15-0.3 s of the page's thread in one task. The scalability
  // test checks that its panels use no other (boot.fontStrikes).
  boot.fontStrikes = [
    "700 15.4px S", "400 14px S", "600 14px S", "italic 400 14px S", "400 13px S", "600 13px S", "700 13.3px S",
    "600 12.6px S", "400 12px S", "600 12px S", "400 11.9px S", "600 11.2px S", "700 11.2px S", "400 11px S",
    "600 11px S", "400 10.92px S", "400 10.5px S", "600 14px M", "400 13px M", "400 12px M", "600 12px M",
    "400 11.9px M", "600 11.5px M", "400 11px M", "600 11px M", "400 10.92px M",
  ];
  boot.fontFor = (spec) => {
    const sans = getComputedStyle(document.body).fontFamily;
    const mono = getComputedStyle(root).getPropertyValue("--mono").trim();
    return spec.replace(/ S$/, " " + sans).replace(/ M$/, " " + mono);
  };
  {
    const idle = (f) => ("requestIdleCallback" in window ? requestIdleCallback(f, { timeout: 1000 }) : setTimeout(f, 20));
    const specs = boot.fontStrikes.slice();
    let box = null;
    const next = () => {
      const spec = specs.shift();
      if (!spec) return box && box.remove();
      if (!box) {
        box = document.createElement("div");
        box.setAttribute("aria-hidden", "true");
        Object.assign(box.style, { position: "absolute", left: "-10000px", top: "0", visibility: "hidden", whiteSpace: "nowrap" });
        document.body.append(box);
      }
      const el = document.createElement("span");
      el.style.font = boot.fontFor(spec);
      // Letters, digits and the panels' symbols (some from a fallback font).
      el.textContent = "Aa0 ▸▾●…–×→";
      box.append(el);
      void el.offsetWidth;
      idle(next);
    };
    idle(next);
  }
  // The engine's worker (engine.js) decodes and simulates; this page's
  // instance of the same module only renders. The module is compiled once,
  // as it streams, and posted to the worker, which instantiates it too.
  // Go sets engine.onMessage; post(msg) sends to the worker.
  const worker = new Worker("engine.js");
  boot.engine = {
    onMessage: null,
    post: (msg) => worker.postMessage(msg),
  };
  // The views' steps. Go (ui/app) says which run is on screen and how to
  // label it (views.set), and asks for steps (views.step); the worker lays
  // them out and this draws them, without a trip through Go: Go's
  // WebAssembly for the same drawing was 19 KB of the page's first load.
  // While the worker lays out a step, a newer move replaces any other
  // still waiting, so a held key never queues up work. views.onStep (Go)
  // hears of each step drawn.
  const $ = (id) => document.getElementById(id);
  const all = (el, sel) => el.querySelectorAll(sel);
  // marksPart is how many of the scrubber's marks are drawn in a part
  // (a mark is two elements).
  const marksPart = 75;
  // partMs is how long a step's drawing goes on in one task (views.draw),
  // counted from the task's start (the worker's message parsed, for a
  // step drawn as it comes): under the 50 ms of a long task, and over
  // what an ordinary step takes on a loaded machine
  // (splitting those made the budgets test's step max 0.2-0.3 s at a
  // load of 10-14).
  const partMs = 40;
  // soonMs: a run's first step is drawn in the task of the worker's
  // answer when Go has handled the answer within soonMs of it
  // (views.drawSoon), else in a task of its own.
  const soonMs = 20;
  // partElements is how many elements a step's first part makes at
  // most: the style, layout and paint of the frame after it follow them
  // (0.06 ms of CPU an element of the quota panel here, about 0.15 ms on
  // the CI's machine: 740 elements were 110 ms there). The next parts
  // make as many as the frame after the one before says fit in
  // partRenderMs (rows out of view, content-visibility: auto, cost far
  // less: a 2,000-workload queue drawn 150 elements a frame took seconds).
  const partElements = 150;
  const partRenderMs = 25;
  // afterFrame calls f in a task after the next frame has been rendered
  // (the style, layout and paint of what was drawn so far go with that
  // frame, not with the next part's task), or after 200 ms when no frame
  // comes (a hidden page; a loaded machine's frames can be 100 ms apart).
  // f gets the time from the frame's start (its animation callbacks) to
  // the task after it: about what its style, layout and paint took (or
  // null without a frame).
  const afterFrame = (f) => {
    let called = false;
    const once = (ms) => {
      if (!called) {
        called = true;
        f(ms);
      }
    };
    requestAnimationFrame(() => {
      const t = performance.now();
      setTimeout(() => once(performance.now() - t), 0);
    });
    setTimeout(once, 200, null);
  };
  // size is the number of elements of a tree.
  const size = (spec) => {
    let n = 1;
    for (const k of spec[3] || []) n += size(k);
    return n;
  };
  // pace queues f, a later part of a run's whole-run panels (the
  // scrubber's marks, the event log's parts): the queue is run after
  // each frame, up to partElements elements a frame (f returns how many
  // it made). The 1,883 marks and 5,000 log entries of Kueue's
  // scalability test, 13,000 elements, were drawn in tasks one after
  // the other, a frame's style and layout taking up to 1,200 of them.
  const paced = [];
  // logChunk is how many event log entries share one content-visibility
  // box (li.log-chunk, appendLog). Each entry its own box (the 2,000 of
  // Kueue's scalability test), every frame checked each one's visibility
  // (11-19 ms of CPU) and carried its paint chunks, 60-80 ms frames while
  // a step of that run was drawn in parts; 18-22 ms in chunks.
  const logChunk = 100;
  // appendLog appends event log entries (li elements, from
  // layout.EventLog's ol.log) to ol, an ol.log: each entry with a step
  // into the last li.log-chunk (a new one when it holds logChunk), any
  // other (li.more, li.empty) to ol itself. A chunk and its ol are
  // role=none, its entries role=listitem: the log stays one flat list to
  // assistive technology (of the entries of the chunks drawn: Chromium
  // leaves a skipped chunk's out, where it had each skipped entry as an
  // empty item).
  const appendLog = (ol, lis) => {
    let chunk = ol.lastElementChild;
    for (const li of lis) {
      if (li.dataset.step == null) {
        ol.append(li);
        continue;
      }
      if (!chunk?.classList.contains("log-chunk") || chunk.firstChild.childElementCount >= logChunk) {
        chunk = document.createElement("li");
        chunk.className = "log-chunk";
        chunk.setAttribute("role", "none");
        const inner = document.createElement("ol");
        inner.setAttribute("role", "none");
        chunk.append(inner);
        ol.append(chunk);
      }
      li.setAttribute("role", "listitem");
      chunk.firstChild.append(li);
    }
  };
  const pace = (f) => {
    if (paced.push(f) === 1) afterFrame(drainPaced);
  };
  // A step drawn in parts goes first (views.inParts): its parts and the
  // log's, a frame each in turn, made a cancelled long run's first step,
  // and the status line after it, wait for twice as many frames.
  const drainPaced = () => {
    if (!views.inParts) for (let n = 0; paced.length && n < partElements; ) n += paced.shift()();
    if (paced.length) afterFrame(drainPaced);
  };
  const views = {
    // run: the id of the run on screen (the worker's answers about an
    // older one are dropped); cmp: Compare mode, with the right-hand run
    // shown (right); diff: the first difference (wasm/worker.go's);
    // labels: the variants' labels for the views' heads.
    info: { run: 0, cmp: false, right: false, diff: null, labels: [] },
    // received: when the task of the worker's last message began.
    received: null,
    want: null,
    busy: false,
    seq: 0,
    onStep: null,
    set(info) {
      views.info = info;
      views.want = null;
      views.shown = { left: null, right: null };
    },
    step(left, right) {
      views.want = { left, right, start: performance.now() };
      if (!views.busy) views.ask();
    },
    ask() {
      const r = views.want;
      views.want = null;
      views.busy = true;
      worker.postMessage({ type: "step", seq: ++views.seq, left: r.left, right: r.right, start: r.start });
    },
    // A step is asked for only once the one before is drawn. received:
    // when its message came (the drawing's first part counts from it).
    answer(m, received) {
      const next = () => {
        views.busy = false;
        if (views.want) views.ask();
      };
      if (m.run === views.info.run && !m.error) return views.draw(m.view, m.start, next, received);
      if (m.run === views.info.run) boot.onStepError && boot.onStepError(m.error);
      next();
    },
    // drawing counts draws: a draw still in parts stops when a newer one
    // starts (which draws every panel). inParts: the newest draw waits
    // between two of its parts.
    drawing: 0,
    inParts: false,
    // draw draws a step laid out by the worker, then calls done. Its
    // panels are patched in one task while that takes under partMs and
    // makes under partElements elements, the rest in parts:
    // each in a later task, and after the frame that shows the elements
    // drawn before once partElements of them wait for one (afterFrame):
    // a step of a large run (5,000 new
    // elements of decisions and queues) held the page 80-200 ms, and its
    // parts drawn in tasks one after the other were all laid out in the
    // frame after the last (the first step of the 15,000-workload
    // example: 56 ms of drawing, then 110 ms of style and layout). The
    // step's number and title, #app[data-step] and the "kueueplay:step"
    // measure follow the last panel.
    draw(v, start, done, taskStart) {
      const gen = ++views.drawing;
      const l = v.left;
      const i = l.index;
      const n = l.total;
      const jobs = views.side($("view-left"), l, 0);
      if (views.info.cmp && views.info.right && v.right) jobs.push(...views.side($("view-right"), v.right, 1));
      // job: the panel being drawn (updating's iterator); made: the
      // elements made since the last frame, most at most.
      let job = null;
      let made = 0;
      let most = partElements;
      const run = (t0) => {
        // looked: the elements patched in this task (the clock is read
        // every 16).
        for (let looked = 0; ; ) {
          if (gen !== views.drawing) return done && done();
          if (!job) {
            if (!jobs.length) break;
            // A job draws at once, or returns the iterator that draws.
            job = jobs.shift()() || null;
            continue;
          }
          const r = job.next();
          if (r.done) {
            job = null;
            continue;
          }
          made += r.value;
          // Past partElements, the rest after a frame; past partMs, in
          // the next task (waiting for a frame there made the steps of a
          // loaded machine, whose frames came 50-100 ms apart, slower).
          if (made >= most) {
            views.inParts = true;
            return void afterFrame((ms) => {
              // At most twice the last, and partElements × 16: a frame's
              // rendering also grows with what was drawn before it. (× 4
              // made a cancelled long run's first step, 6,000 elements
              // mostly out of view, wait for 10-13 frames, 1.3-1.4 s on
              // a loaded machine.)
              if (ms != null) most = Math.min(2 * most, 16 * partElements, Math.max(partElements, Math.floor((partRenderMs * made) / Math.max(ms, 1))));
              made = 0;
              run(performance.now());
            });
          }
          if (++looked % 16 === 0 && performance.now() - t0 > partMs) {
            views.inParts = true;
            return void setTimeout(() => run(performance.now()), 0);
          }
        }
        views.inParts = false;
        views.drawn(l, i, n, start);
        if (done) done();
      };
      run(taskStart ?? performance.now());
    },
    // drawSoon draws run id's first step (draw) in a task of its own,
    // after the one in which Go handled the result (60-170 ms together
    // in the 15,000-workload example), unless a newer run or step has
    // been drawn meanwhile; the promise it returns settles either way.
    // The run's whole-run panels may come in between (views.panels):
    // the step marks its entries in them when it is drawn.
    //
    // A run's answer that Go handled quickly (within soonMs of the
    // worker's message: a run of a few steps) has its step drawn in the
    // same task, still bounded by partMs from the message: a re-run of
    // the default scenario waited for one more task (behind the run's
    // whole-run panels, which the worker posts right after), on a loaded
    // machine a wait for the core as long as the drawing itself.
    drawSoon(id, v, start) {
      const gen = views.drawing;
      const received = views.received;
      if (received != null && performance.now() - received < soonMs) return new Promise((done) => views.draw(v, start, done, received));
      return new Promise((done) => setTimeout(() => {
        if (id !== views.info.run || gen !== views.drawing) return done();
        views.draw(v, start, done);
      }, 0));
    },
    drawn(l, i, n, start) {
      $("step-label").textContent = `Step ${i + 1} of ${n}`;
      $("step-title").textContent = l.title;
      const sc = $("scrubber");
      sc.value = String(i);
      sc.setAttribute("aria-valuetext", `Step ${i + 1} of ${n}: ${l.title}`);
      const app = $("app");
      app.dataset.step = String(i);
      app.dataset.steps = String(n);
      views.markMarks(i);
      if (views.onStep) views.onStep(i);
      performance.measure("kueueplay:step", { start, end: performance.now() });
    },
    // markMarks marks step i (and, in Compare mode, the first
    // difference) among the scrubber's marks.
    markMarks(i) {
      const marks = $("marks");
      for (const m of all(marks, ".current, .differs")) m.classList.remove("current", "differs");
      const d = views.info.diff;
      if (views.info.cmp && d) marks.querySelector(`[data-goto-step="${d.leftStep}"]`)?.classList.add("differs");
      marks.querySelector(`[data-goto-step="${i}"]`)?.classList.add("current");
    },
    // panels draws a run's whole-run panels, which the worker sends after
    // the result whose first step is already on screen (Go has set
    // views.info from that result in an earlier task): each side's event
    // log with its first entries, and the scrubber's marks (null past
    // layout.MaxMarks: the scrubber alone). The steps shown are marked
    // in them.
    panels(m) {
      if (m.id !== views.info.run) return;
      const start = performance.now();
      const logs = m.logs || [];
      for (let k = 0; k < logs.length; k++) {
        const root = $(k ? "view-right" : "view-left");
        const log = root.querySelector('[data-panel="events"] .panel-body');
        boot.render(log, logs[k]);
        const ol = log.querySelector("ol.log");
        if (ol) appendLog(ol, [...ol.children]);
        const v = k ? views.shown.right : views.shown.left;
        if (v != null) views.markLog(log, v);
      }
      views.marks(m.id, m.marks);
      views.markMarks(views.shown.left ?? 0);
      performance.measure("kueueplay:set-run", { start, end: performance.now() });
    },
    // shown is the step on screen on each side.
    shown: { left: null, right: null },
    // markLog marks the entries of step index in a side's event log and
    // scrolls the log itself to them, never the page (scrollIntoView
    // would move every scrolling ancestor). The scroll waits for the next
    // frame (scrollLogs): read right after a step's panels were patched,
    // the entry's position forced the page's whole style and layout in
    // the step's task (half of its CPU), and the frame did them again.
    markLog(log, index) {
      for (const li of all(log, "li.current")) {
        li.classList.remove("current");
        li.removeAttribute("aria-current");
      }
      const cur = all(log, `li[data-step="${index}"]`);
      for (const li of cur) {
        li.classList.add("current");
        li.setAttribute("aria-current", "step");
      }
      if (!views.logScrolls.size) requestAnimationFrame(views.scrollLogs);
      views.logScrolls.set(log, cur[0] ?? null);
    },
    // logScrolls: the event logs to scroll in the next frame, each to its
    // first entry marked last.
    logScrolls: new Map(),
    // scrollLogs scrolls each log of logScrolls to its entry when the
    // entry is out of view, in an animation frame's callback: the
    // positions it reads are the frame's own style and layout, done once.
    scrollLogs() {
      const want = [...views.logScrolls];
      views.logScrolls.clear();
      for (const [log, li] of want) {
        if (!li || !log.contains(li)) continue;
        // The entry's offsetTop is in its li.log-chunk, whose own is in
        // the log (.panel-body, positioned).
        let top = 0;
        for (let el = li; el && el !== log; el = el.offsetParent) top += el.offsetTop;
        if (top < log.scrollTop || top + li.offsetHeight > log.scrollTop + log.clientHeight) {
          log.scrollTop = Math.max(0, top - Math.floor(log.clientHeight / 3));
        }
      }
    },
    // marks draws the scrubber's marks (tree, an svg of one rect a step)
    // for run id: the svg with its first marksPart marks at once, the
    // rest marksPart a part (pace; the 1,883 marks of Kueue's scalability
    // test are 366 KB of tree, 0.1-0.3 s of the page's thread in one
    // task), unless a newer run has come meanwhile. The step shown is
    // marked in each part.
    marks(id, tree) {
      if (!tree) return $("marks").replaceChildren();
      const kids = tree[3] || [];
      boot.render($("marks"), [tree[0], tree[1], tree[2], kids.slice(0, marksPart)]);
      const svg = $("marks").firstElementChild;
      for (let from = marksPart; from < kids.length; from += marksPart) {
        pace(() => {
          if (id !== views.info.run || svg.parentNode !== $("marks")) return 0;
          let n = 0;
          for (const k of kids.slice(from, from + marksPart)) {
            svg.append(make(k, true));
            n += size(k);
          }
          views.markMarks(views.shown.left ?? 0);
          return n;
        });
      }
    },
    // log appends a part of a side's event log (wasm/worker.go sends a
    // long log in parts), partElements elements a part (pace), marking
    // the shown step's entries in it.
    log(m) {
      if (m.id !== views.info.run) return;
      const items = m.items;
      for (let from = 0; from < items.length; ) {
        let to = from;
        let count = 0;
        while (to < items.length && count < partElements) count += size(items[to++]);
        const part = items.slice(from, to);
        from = to;
        pace(() => {
          if (m.id !== views.info.run) return 0;
          const root = $(m.variant ? "view-right" : "view-left");
          const ol = root.querySelector('[data-panel="events"] .panel-body ol.log');
          if (!ol) return 0;
          const step = root === $("view-left") ? $("app").dataset.step : null;
          const lis = part.map((item) => make(item, false));
          for (const li of lis) {
            if (step != null && li.dataset.step === step) {
              li.classList.add("current");
              li.setAttribute("aria-current", "step");
            }
          }
          appendLog(ol, lis);
          return count;
        });
      }
    },
    // side returns the jobs that draw one side's laid-out step (k 0:
    // left, 1: right): a panel a job, then the marks.
    side(root, v, k) {
      const panel = (name) => root.querySelector(`[data-panel="${name}"] .panel-body`);
      const jobs = [
        () => updating(panel("decision"), v.decisions),
        () => updating(panel("quota"), v.quota),
        () => updating(panel("queues"), v.queues),
      ];
      // The placement panels exist only for scenarios with Nodes.
      for (const name of ["placement", "nodes"]) {
        jobs.push(() => {
          root.querySelector(`[data-panel="${name}"]`).hidden = !v.cluster;
          if (v.cluster) return updating(panel(name), v[name]);
        });
      }
      jobs.push(() => views.marked(root, v, k, panel));
      return jobs;
    },
    marked(root, v, k, panel) {
      views.shown[k ? "right" : "left"] = v.index;
      views.markLog(panel("events"), v.index);
      // Compare mode: at the first difference, outline what differs.
      const d = views.info.diff;
      if (views.info.cmp && d && d.workload && v.index === (k ? d.rightStep : d.leftStep)) {
        for (const el of all(panel("decision"), `.decision[data-workload="${CSS.escape(d.workload)}"]`)) {
          el.classList.add("differs");
          el.title = "The first difference between the two runs: " + d.text;
        }
      }
      const head = root.querySelector(".view-head");
      head.hidden = !views.info.cmp;
      if (views.info.cmp) {
        head.querySelector(".variant-label").textContent = views.info.labels[k] || "";
        head.querySelector(".side-step").textContent = `step ${v.index + 1} of ${v.total}, ${v.time}`;
      }
    },
  };
  boot.views = views;
  // The worker's answers are JSON strings (wasm/worker.go): parsed here,
  // once, laid-out trees included. Steps are drawn here; the rest goes
  // to Go.
  worker.onmessage = (e) => {
    const received = performance.now();
    const m = typeof e.data === "string" ? JSON.parse(e.data) : e.data;
    // When this task began, for drawSoon (Go draws a run's first step from
    // its answer, in the same task).
    views.received = received;
    if (m.type === "overview" && m.seq === 0 && typeof m.series === "string") preparse(m.series);
    if (m.type === "step") views.answer(m, received);
    else if (m.type === "panels") views.panels(m);
    else if (m.type === "log") views.log(m);
    else if (boot.engine.onMessage) boot.engine.onMessage(m);
  };
  worker.onerror = (e) => fail("The engine's worker failed: " + (e.message || "it did not load"));
  // The example the page opens with goes to the worker as soon as it is
  // here, which decodes it while this page's module starts (the page's Go
  // asks for its first run of the same text later: wasm/worker.go's
  // "text"). Registered before Go can await the same promise, so that it
  // is posted before the run.
  if (boot.initial) {
    const file = `${boot.initialName}.yaml`;
    boot.initial.then(
      (text) => worker.postMessage({ type: "text", file, text }),
      () => {},
    );
  }
  const go = new Go();
  // The module's compiling done and posted to the worker, its instancing
  // and Go's start each in a task of their own (they were one task of
  // 150-240 ms on a loaded machine, all in promise reactions). The module
  // is posted at once: the worker's start is on the way to the first
  // result (it decodes the example while this page's Go starts), and a
  // task boundary before it waited 30-70 ms behind the example's text.
  const start = async () => {
    let module;
    try {
      module = await WebAssembly.compileStreaming(fetch("kueueplay.wasm"));
    } catch {
      // A server that does not send application/wasm.
      const res = await fetch("kueueplay.wasm");
      if (!res.ok) throw new Error(`kueueplay.wasm: ${res.status} ${res.statusText}`);
      module = await WebAssembly.compile(await res.arrayBuffer());
    }
    worker.postMessage({ type: "module", module });
    await nextTask();
    const instance = await WebAssembly.instantiate(module, go.importObject);
    await nextTask();
    go.run(instance).then(() => fail("The engine stopped; reload the page."));
  };
  start().catch((err) => fail("Could not load the engine: " + String((err && err.message) || err)));
})();
