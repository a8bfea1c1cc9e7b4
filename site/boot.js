// The page's bootstrap, the only script besides the editor and chart
// bundles and Go's wasm_exec.js: it shows the scenario's text at once (the editor itself
// comes after the first result), applies the saved theme,
// offers Go a way to register the service worker (offline use), and starts the WebAssembly
// module (kueueplay.wasm), whose Go code (ui/app) runs the rest of the
// page. It hands the editor to Go as kueueplayBoot.editor and forwards its
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
  const make = (spec, svg) => {
    let [tag, attrs, text, kids] = spec;
    if (badTag.has(tag.toLowerCase())) tag = "span";
    svg = svg || tag === "svg";
    const el = svg ? document.createElementNS(SVG, tag) : document.createElement(tag);
    for (let i = 0; i + 1 < attrs.length; i += 2) {
      if (!badAttr.test(attrs[i])) el.setAttribute(attrs[i], attrs[i + 1]);
    }
    if (text) el.append(text);
    if (kids) for (const k of kids) el.append(make(k, svg));
    return el;
  };

  const boot = {
    editor: null,
    onChange: null, // set by Go
    // The most text the page runs, in bytes (ui/app's maxPageBytes, which
    // checks that they agree). The editor refuses a paste or drop that
    // would pass it before taking the text in, and tells onTooLarge, which
    // Go sets once the first result is on screen; until then the refusal
    // waits in refused.
    maxBytes: 1 << 20,
    onTooLarge: null,
    refused: null,
    dark,
    error: null,
    render(parent, json) {
      if (!json) return parent.replaceChildren();
      const spec = JSON.parse(json);
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
  const host = document.getElementById("editor");
  const lazyEditor = () => {
    let cm = null;
    let text = "";
    let diags = [];
    let loading = null;
    const pre = document.createElement("pre");
    pre.className = "editor-text";
    pre.tabIndex = 0;
    pre.setAttribute("aria-label", "Scenario YAML (the editor is loading)");
    host.append(pre);
    const load = () =>
      (loading ??= new Promise((resolve, reject) => {
        const s = document.createElement("script");
        s.src = "editor.js";
        s.onload = () => {
          cm = kueueplayEditor.create(host, {
            doc: text,
            dark: dark(),
            label: "Scenario YAML",
            onChange() {
              if (boot.onChange) boot.onChange();
            },
            maxBytes: boot.maxBytes,
            onTooLarge(what, bytes, exact) {
              if (boot.onTooLarge) boot.onTooLarge(what, bytes, exact);
              else boot.refused = { what, bytes, exact };
            },
          });
          if (diags.length) cm.setDiagnostics(diags);
          host.dataset.ready = "true";
          performance.mark("kueueplay:editor-ready");
          resolve(cm);
        };
        s.onerror = () => reject(new Error("editor.js did not load"));
        document.head.append(s);
      }).catch((err) => fail("Could not load the editor: " + err.message)));
    const loadAndFocus = () => load().then(() => cm && cm.focus());
    pre.addEventListener("pointerdown", loadAndFocus);
    pre.addEventListener("focus", loadAndFocus);
    boot.loadEditor = load;
    return {
      getText: () => (cm ? cm.getText() : text),
      setText(s) {
        s = String(s ?? "");
        if (cm) cm.setText(s);
        else pre.textContent = text = s;
      },
      setDiagnostics(list) {
        if (cm) cm.setDiagnostics(list);
        else diags = list;
      },
      gotoLine(line, col) {
        load().then(() => cm && cm.gotoLine(line, col));
      },
      focus: loadAndFocus,
      setTheme(d) {
        if (cm) cm.setTheme(d);
      },
    };
  };
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
  // cost the first load nothing. Go calls overview(parent, json, step)
  // with the run's series (view.Overview as JSON) once per run, and
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
  // series, so that the bundle arrives meanwhile.
  boot.loadCharts = () => {
    loadCharts().catch(() => {}); // overview() reports a failure
  };
  let overviewGen = 0;
  let overviewAt = 0;
  boot.gotoStep = null; // set by Go
  boot.overview = (parent, json, step) => {
    const gen = ++overviewGen;
    const ov = JSON.parse(json);
    overviewAt = step;
    loadCharts().then(
      (charts) => {
        if (gen !== overviewGen) return; // a newer run's overview came
        charts.mount(parent, ov, { onStep: (n) => boot.gotoStep && boot.gotoStep(n) });
        charts.setStep(overviewAt);
        parent.dataset.ready = "true";
      },
      (err) => fail("Could not load the charts: " + err.message),
    );
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
  // first load.
  boot.registerOffline = () => {
    if ("serviceWorker" in navigator && location.protocol !== "file:") {
      navigator.serviceWorker.register("sw.js").catch((err) => console.warn("offline cache unavailable:", err));
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
      boot.initial = fetch(`scenarios/${name}.yaml`).then((res) => {
        if (!res.ok) throw new Error(`scenarios/${name}.yaml: ${res.status} ${res.statusText}`);
        return res.text();
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
  const go = new Go();
  const start = async () => {
    let result;
    try {
      result = await WebAssembly.instantiateStreaming(fetch("kueueplay.wasm"), go.importObject);
    } catch {
      // A server that does not send application/wasm.
      const res = await fetch("kueueplay.wasm");
      if (!res.ok) throw new Error(`kueueplay.wasm: ${res.status} ${res.statusText}`);
      result = await WebAssembly.instantiate(await res.arrayBuffer(), go.importObject);
    }
    go.run(result.instance).then(() => fail("The engine stopped; reload the page."));
  };
  start().catch((err) => fail("Could not load the engine: " + String((err && err.message) || err)));
})();
