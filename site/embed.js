// <kueue-playground>: the kueueplay playground embedded in any page, in
// an iframe showing its compact embed mode (index.html?embed=1).
//
//   <script src="https://PLAYGROUND/embed.js" defer></script>
//   <kueue-playground src="scenario.yaml" step="4"
//       gates="RefreshAssignmentsDuringSchedulingCycle=true"
//       height="480" editable></kueue-playground>
//
// or with the scenario inline instead of src (any other content of the
// element, a link or a picture for readers without JavaScript, is replaced
// by the playground):
//
//   <kueue-playground step="2">
//     <script type="text/yaml">
//     apiVersion: kueueplay/v1alpha1
//     ...
//     </script>
//   </kueue-playground>
//
// Attributes:
//   src        the scenario's YAML, fetched relative to the embedding page
//              (same origin, or a host that allows it with CORS)
//   step       the step shown first (0, 1, 2, ...; default 0)
//   gates      feature gates: Name=true,Name=false (as the playground's
//              ?gates= and the CLI's -gate)
//   settings   every ClusterQueue's policy overrides: key=value,... with
//              key one of whenCanBorrow, whenCanPreempt, preference,
//              withinClusterQueue, reclaimWithinCohort, borrowWithinCohort
//   height     the frame's height in px until the playground reports its
//              own (default 480)
//   editable   shows the editor too (&editable=1)
//   theme      light or dark (default: the reader's system)
//   label      the frame's title, for screen readers
//   playground the playground's base URL (default: the folder this script
//              was loaded from)
//
// The frame's URL is <playground>?embed=1[&editable=1]#v1.<fragment>, the
// playground's share-link format (ui/view/share.go): "v1." +
// base64url-without-padding(raw DEFLATE(JSON)) with the keys scenario,
// step, gates and settings. The playground reports its height with
// postMessage({type: "kueueplay:size", height}); each element follows its
// own frame's messages only. Plain JavaScript, no build step, no inline
// styles (pages with a strict Content-Security-Policy can use it).
"use strict";
(() => {
  if (!window.customElements || customElements.get("kueue-playground")) return;

  const script =
    document.currentScript || [...document.querySelectorAll("script[src]")].find((s) => /(^|\/)embed\.js([?#]|$)/.test(s.src));
  const defaultBase = new URL(".", script ? script.src : document.baseURI).href;

  const DEFAULT_HEIGHT = 480;
  const MIN_HEIGHT = 80;
  const MAX_HEIGHT = 4000;
  const SETTINGS = ["whenCanBorrow", "whenCanPreempt", "preference", "withinClusterQueue", "reclaimWithinCohort", "borrowWithinCohort"];

  const clamp = (h) => Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, Math.round(h)));

  // pairs reads "key=value,key=value" (spaces around the pairs allowed).
  const pairs = (attr, text, check) => {
    const out = {};
    for (const part of text.split(",")) {
      const p = part.trim();
      if (p === "") continue;
      const i = p.indexOf("=");
      if (i <= 0) throw new Error(`${attr}: "${p}": want Name=value`);
      const [k, v] = [p.slice(0, i), p.slice(i + 1)];
      out[k] = check(k, v);
    }
    return out;
  };
  const parseGates = (text) =>
    pairs("gates", text, (k, v) => {
      if (!/^[A-Za-z][A-Za-z0-9]*$/.test(k)) throw new Error(`gates: "${k}" is not a feature gate name`);
      if (v !== "true" && v !== "false") throw new Error(`gates: ${k}="${v}": want true or false`);
      return v === "true";
    });
  const parseSettings = (text) =>
    pairs("settings", text, (k, v) => {
      if (!SETTINGS.includes(k)) throw new Error(`settings: unknown key "${k}" (want one of ${SETTINGS.join(", ")})`);
      if (!/^[A-Za-z]+$/.test(v)) throw new Error(`settings: ${k}="${v}": not a policy value`);
      return v;
    });

  // dedent removes the indentation every line of an inline scenario shares
  // (YAML's "---" must start its line) and the blank lines around it.
  const dedent = (text) => {
    const lines = text.replace(/\r\n?/g, "\n").split("\n");
    while (lines.length && lines[0].trim() === "") lines.shift();
    while (lines.length && lines[lines.length - 1].trim() === "") lines.pop();
    if (lines.length === 0) throw new Error("the inline scenario is empty");
    const indent = Math.min(...lines.filter((l) => l.trim() !== "").map((l) => /^[ \t]*/.exec(l)[0].length));
    return lines.map((l) => l.slice(Math.min(indent, /^[ \t]*/.exec(l)[0].length))).join("\n") + "\n";
  };

  // deflateRaw compresses with the browser's CompressionStream; browsers
  // without "deflate-raw" get stored (uncompressed) DEFLATE blocks, which
  // any inflater reads too.
  const deflateRaw = async (bytes) => {
    try {
      const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("deflate-raw"));
      return new Uint8Array(await new Response(stream).arrayBuffer());
    } catch {
      const max = 65535;
      const blocks = Math.max(1, Math.ceil(bytes.length / max));
      const out = new Uint8Array(bytes.length + 5 * blocks);
      let o = 0;
      for (let b = 0; b < blocks; b++) {
        const chunk = bytes.subarray(b * max, (b + 1) * max);
        const n = chunk.length;
        out.set([b === blocks - 1 ? 1 : 0, n & 255, n >> 8, ~n & 255, (~n >> 8) & 255], o);
        out.set(chunk, o + 5);
        o += 5 + n;
      }
      return out;
    }
  };

  const base64url = (bytes) => {
    let s = "";
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  };

  // fragment encodes the state as the playground's share fragment (v1).
  const fragment = async (state) => "v1." + base64url(await deflateRaw(new TextEncoder().encode(JSON.stringify(state))));

  class KueuePlayground extends HTMLElement {
    connectedCallback() {
      if (this._started) return;
      this._started = true;
      this.style.display = "block";
      // A script loaded without defer meets the element before its inline
      // scenario has been parsed.
      if (document.readyState === "loading" && !this.hasAttribute("src")) {
        document.addEventListener("DOMContentLoaded", () => this._start(), { once: true });
      } else {
        this._start();
      }
    }

    async _start() {
      const src = this.getAttribute("src");
      let url;
      try {
        let text;
        if (src) {
          let res;
          try {
            res = await fetch(new URL(src, document.baseURI));
          } catch (err) {
            throw new Error(`could not load ${src}: ${err.message || err}`);
          }
          if (!res.ok) throw new Error(`could not load ${src}: HTTP ${res.status} ${res.statusText}`.trim());
          text = await res.text();
        } else {
          const inline = this.querySelector('script[type="text/yaml"]');
          if (!inline) throw new Error('give the scenario as src="FILE.yaml" or in a <script type="text/yaml"> child');
          text = dedent(inline.textContent);
        }
        const state = { scenario: text };
        const step = (this.getAttribute("step") ?? "").trim();
        if (step !== "") {
          if (!/^\d{1,6}$/.test(step)) throw new Error(`step="${step}": want a step number (0, 1, 2, ...)`);
          if (Number(step) > 0) state.step = Number(step);
        }
        const gates = parseGates(this.getAttribute("gates") ?? "");
        if (Object.keys(gates).length) state.gates = gates;
        const settings = parseSettings(this.getAttribute("settings") ?? "");
        if (Object.keys(settings).length) state.settings = settings;

        // playground="https://host/play" names a folder too.
        const base = new URL(this.getAttribute("playground") || defaultBase, document.baseURI);
        if (!/(\/|\.[A-Za-z0-9]+)$/.test(base.pathname)) base.pathname += "/";
        url = new URL("./", base);
        url.search = "embed=1";
        if (this.hasAttribute("editable")) url.search += "&editable=1";
        const theme = this.getAttribute("theme");
        if (theme === "light" || theme === "dark") url.search += "&theme=" + theme;
        url.hash = await fragment(state);
      } catch (err) {
        this._fail(err.message || String(err));
        return;
      }
      const frame = document.createElement("iframe");
      frame.title = this.getAttribute("label") || `Kueue scheduling playground: ${src || "inline scenario"}`;
      frame.loading = "lazy";
      frame.src = url.href;
      frame.style.display = "block";
      frame.style.border = "0";
      frame.style.width = "100%";
      frame.style.height = clamp(Number(this.getAttribute("height")) || DEFAULT_HEIGHT) + "px";
      this._origin = url.origin;
      this._frame = frame;
      this._show(frame);
    }

    // _show replaces the element's content (fallback content for readers
    // without JavaScript, say a link or a picture) with node; an inline
    // scenario stays, unseen.
    _show(node) {
      for (const c of [...this.childNodes]) {
        if (!(c instanceof HTMLScriptElement && c.type === "text/yaml")) c.remove();
      }
      this.append(node);
    }

    _fail(message) {
      const box = document.createElement("div");
      box.setAttribute("role", "alert");
      box.className = "kueue-playground-error";
      box.style.border = "1px solid #cf222e";
      box.style.borderRadius = "6px";
      box.style.padding = "0.6em 0.8em";
      box.style.color = "#cf222e";
      box.style.font = "0.9em/1.4 system-ui, sans-serif";
      box.textContent = `kueue-playground: ${message}`;
      this._show(box);
    }

    // _resize follows a height the frame reported.
    _resize(height) {
      this._frame.style.height = clamp(height) + "px";
    }
  }

  window.addEventListener("message", (event) => {
    const d = event.data;
    if (!d || d.type !== "kueueplay:size" || !Number.isFinite(d.height)) return;
    for (const el of document.querySelectorAll("kueue-playground")) {
      if (el._frame && event.source === el._frame.contentWindow && event.origin === el._origin) {
        el._resize(d.height);
        return;
      }
    }
  });

  customElements.define("kueue-playground", KueuePlayground);
})();
