// Glue for the playground page until the Go/WASM UI replaces it: loads the
// engine (kueueplay.wasm through wasm_exec.js) and the scenarios, validates
// the editor's text as you type and runs the simulation. Everything the
// user or a scenario wrote reaches the page through textContent only.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  };

  const dark = matchMedia("(prefers-color-scheme: dark)");
  let engine = null; // globalThis.kueueplay once the module runs
  let ready = false; // the engine and the first scenario are loaded
  let timer = 0;
  let loaded = { file: "", text: null }; // the scenario as last loaded
  let index = [];
  let overrides = {}; // gate name -> bool, set from the gate checkboxes
  let trace = null;
  let traceText = ""; // trace.Format's text, from the engine

  // formatMs prints virtual milliseconds like Go's time.Duration.String.
  const formatMs = (ms) => {
    if (ms === 0) return "0s";
    if (ms < 1000) return `${ms}ms`;
    const h = Math.floor(ms / 3600000), m = Math.floor((ms % 3600000) / 60000), sec = (ms % 60000) / 1000;
    return (h ? `${h}h` : "") + (h || m ? `${m}m` : "") + `${sec}s`;
  };

  const editor = kueueplayEditor.create($("editor"), {
    doc: "",
    dark: dark.matches,
    label: "Scenario YAML",
    onChange() {
      clearTimeout(timer);
      timer = setTimeout(validate, 250);
    },
  });
  dark.addEventListener("change", (e) => editor.setTheme(e.matches));

  function status(text, kind = "") {
    $("status").textContent = text;
    $("status").className = "status " + kind;
  }

  // call runs kueueplay[fn] and parses its JSON answer.
  function call(fn, ...args) {
    try {
      return JSON.parse(engine[fn](...args));
    } catch (err) {
      return { error: String(err && err.message ? err.message : err) };
    }
  }

  function label(d) {
    return [d.object, d.field, d.message].filter(Boolean).join(": ");
  }

  // showProblems puts diagnostics in the editor and in the list under it;
  // error is a problem without a position.
  function showProblems(list, error) {
    list = Array.isArray(list) ? list : [];
    editor.setDiagnostics(
      list.map((d) => ({
        line: d.pos?.line || 1,
        col: d.pos?.col || 1,
        severity: d.severity,
        message: label(d),
      })),
    );
    const ul = $("problems");
    ul.replaceChildren();
    for (const d of list) {
      const li = el("li", d.severity === "warning" ? "warning" : "error");
      const b = el("button", "link");
      b.type = "button";
      b.append(el("span", "pos", `${d.pos?.line ?? "?"}:${d.pos?.col ?? "?"}`), " ", el("span", "sev", d.severity || "error"), " ", label(d));
      b.addEventListener("click", () => editor.gotoLine(d.pos?.line || 1, d.pos?.col || 1));
      li.append(b);
      ul.append(li);
    }
    if (error) ul.append(el("li", "error", error));
    const errs = list.filter((d) => d.severity !== "warning").length + (error ? 1 : 0);
    const warns = list.length - list.filter((d) => d.severity !== "warning").length;
    const parts = [];
    if (errs) parts.push(`${errs} error${errs > 1 ? "s" : ""}`);
    if (warns) parts.push(`${warns} warning${warns > 1 ? "s" : ""}`);
    $("problem-count").textContent = parts.join(", ") || "no problems";
    $("problem-count").className = "count " + (errs ? "error" : warns ? "warning" : "ok");
    return errs;
  }

  function validate() {
    if (!engine) return;
    const r = call("validate", editor.getText());
    showProblems(r.diagnostics, r.error);
  }

  function run() {
    if (!engine) return;
    clearTimeout(timer);
    status("Running…", "busy");
    const t0 = performance.now();
    const r = call("simulate", editor.getText(), overrides);
    const took = Math.round(performance.now() - t0);
    const errs = showProblems(r.diagnostics, r.error);
    if (!r.trace) {
      status(errs ? "Fix the errors to run." : "The run failed.", "error");
      $("summary").textContent = "";
      $("output").textContent = r.error || "The scenario has errors; they are listed under the editor.";
      return;
    }
    trace = r.trace;
    traceText = r.text || "";
    renderGates();
    render();
    const end = { quiescent: "nothing left to change", until: "spec.until reached", maxCycles: "spec.maxCycles reached: truncated" }[trace.end] || trace.end;
    status(`Ran ${trace.cycles} cycle${trace.cycles === 1 ? "" : "s"} in ${took} ms.`, trace.end === "maxCycles" ? "warning" : "ok");
    const counts = {};
    for (const w of trace.workloads || []) counts[w.status] = (counts[w.status] || 0) + 1;
    const shown = Object.entries(counts).map(([k, n]) => `${n} ${k}`);
    $("summary").textContent =
      `Ended at t=${formatMs(trace.endMs)} after ${trace.cycles} cycles (${end}). ` +
      `Workloads: ${shown.join(", ") || "none"}.`;
  }

  function render() {
    if (!trace) return;
    $("output").textContent =
      $("format").value === "json" ? JSON.stringify(trace, null, 2) : traceText;
  }

  function renderGates() {
    const box = $("gate-list");
    box.replaceChildren();
    for (const g of trace.gates || []) {
      const cb = el("input");
      cb.type = "checkbox";
      cb.checked = !!g.enabled;
      cb.addEventListener("change", () => {
        overrides[g.name] = cb.checked;
        run();
      });
      const l = el("label", g.name in overrides ? "gate overridden" : "gate");
      l.title = g.name in overrides ? "set here, overriding the scenario" : "the scenario's value";
      l.append(cb, " ", g.name);
      box.append(l);
    }
    $("gates").hidden = false;
    $("gate-reset").hidden = Object.keys(overrides).length === 0;
  }

  async function loadScenario(file) {
    const res = await fetch("scenarios/" + encodeURIComponent(file));
    if (!res.ok) throw new Error(`scenarios/${file}: ${res.status} ${res.statusText}`);
    const text = await res.text();
    loaded = { file, text };
    overrides = {};
    editor.setText(text);
    $("scenario").value = file;
    const entry = index.find((e) => e.file === file);
    $("description").textContent = entry?.description || "";
    const name = file.replace(/\.yaml$/, "");
    history.replaceState(null, "", name === "default" ? location.pathname : "#" + name);
    if (ready) {
      validate();
      run();
    }
  }

  async function loadIndex() {
    const res = await fetch("scenarios/index.json");
    if (!res.ok) throw new Error(`scenarios/index.json: ${res.status}`);
    index = await res.json();
    const sel = $("scenario");
    sel.replaceChildren();
    const groups = new Map();
    for (const e of index) {
      if (!groups.has(e.group)) {
        const og = el("optgroup");
        og.label = e.group;
        groups.set(e.group, og);
        sel.append(og);
      }
      const o = el("option", null, e.name === e.file.replace(/\.yaml$/, "") ? e.name : `${e.name} (${e.file})`);
      o.value = e.file;
      o.title = e.description || "";
      groups.get(e.group).append(o);
    }
    sel.value = loaded.file;
    sel.disabled = false;
    if (loaded.file) $("description").textContent = index.find((e) => e.file === loaded.file)?.description || "";
  }

  async function loadEngine() {
    const go = new Go();
    let result;
    try {
      result = await WebAssembly.instantiateStreaming(fetch("kueueplay.wasm"), go.importObject);
    } catch {
      // An older browser, or a server that does not send application/wasm.
      const res = await fetch("kueueplay.wasm");
      if (!res.ok) throw new Error(`kueueplay.wasm: ${res.status} ${res.statusText}`);
      result = await WebAssembly.instantiate(await res.arrayBuffer(), go.importObject);
    }
    go.run(result.instance); // main registers globalThis.kueueplay, then blocks
    if (!globalThis.kueueplay) throw new Error("the engine did not start");
    engine = globalThis.kueueplay;
  }

  $("run").addEventListener("click", run);
  $("format").addEventListener("change", render);
  $("gate-reset").addEventListener("click", () => {
    overrides = {};
    run();
  });
  $("scenario").addEventListener("change", (e) => {
    const file = e.target.value;
    if (loaded.text !== null && editor.getText() !== loaded.text && !confirm("Replace your edits with " + file + "?")) {
      e.target.value = loaded.file;
      return;
    }
    loadScenario(file).catch((err) => status(String(err.message || err), "error"));
  });
  // Ctrl/Cmd+Enter runs, also in the editor: the capture phase sees the key
  // before CodeMirror (whose own Mod-Enter inserts a blank line).
  document.addEventListener(
    "keydown",
    (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey) {
        e.preventDefault();
        e.stopPropagation();
        run();
      }
    },
    true,
  );

  const wanted = /^#[a-z0-9][a-z0-9-]*$/.test(location.hash) ? location.hash.slice(1) + ".yaml" : "default.yaml";
  const scenario = loadScenario(wanted).catch(() => loadScenario("default.yaml"));
  const engineReady = loadEngine();
  loadIndex().catch((err) => console.warn("scenario list:", err));
  Promise.all([engineReady, scenario])
    .then(() => {
      ready = true;
      $("run").disabled = false;
      status("Ready.", "ok");
      validate();
      run();
    })
    .catch((err) => {
      status("Could not start: " + String(err.message || err), "error");
      $("output").textContent = "The engine could not be loaded. Serve the folder over HTTP (make run), not from file://.";
    });
  status("Loading the engine…", "busy");
  editor.focus();
})();
