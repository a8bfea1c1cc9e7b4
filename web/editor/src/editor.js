// The playground's code editor: CodeMirror 6 with YAML highlighting and lint
// markers, bundled by esbuild into one IIFE that defines a single global,
// window.kueueplayEditor. The page (and later the Go/WASM UI) talks to it
// only through the small API below, never through CodeMirror itself.
//
//   const ed = kueueplayEditor.create(parent, {doc, onChange, dark, label,
//                                              maxBytes, onTooLarge,
//                                              editBytes, onLarge});
//   ed.getText() / ed.setText(s)
//   ed.setDiagnostics([{line, col, endLine?, endCol?, severity, message}])
//   ed.gotoLine(line, col) / ed.focus() / ed.setTheme(dark) / ed.destroy()
//
// Lines and columns are 1-based, columns counted in characters (Unicode
// code points), as the Go validator reports them.
//
// With editBytes and onLarge set, a paste or drop that would make the text
// longer than editBytes (but within maxBytes) does not reach CodeMirror
// either: onLarge gets the text the paste makes, or the dropped text or
// File (which replace the text), and the page keeps it outside the editor
// (site/boot.js), since CodeMirror takes seconds over megabytes.
//
// With maxBytes set, a paste or drop that would make the text longer than
// maxBytes bytes of UTF-8 is refused before CodeMirror sees it: the text
// stays as it was and onTooLarge(what, bytes, exact) is called, what naming
// the text ("the pasted text", "the dropped file \"big.yaml\"", ...) and
// bytes its size, exact or (exact false) a lower bound: a text far over
// the limit is not counted byte by byte, and a file's size is read from
// the file, never its content. Inserting tens of megabytes would hold the
// page for seconds.
//
// The editor lives in a shadow root attached to parent: CodeMirror injects
// its styles with style-mod, which uses constructable stylesheets (allowed
// by a Content-Security-Policy without 'unsafe-inline') only inside shadow
// roots and falls back to a <style> element, which such a policy blocks,
// in the document itself. Page CSS therefore does not reach inside; give
// parent a size (display: grid works well) and the editor fills it.

import { EditorState, Compartment } from "@codemirror/state";
import {
  EditorView,
  keymap,
  lineNumbers,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  drawSelection,
  dropCursor,
} from "@codemirror/view";
import {
  defaultKeymap,
  history,
  historyKeymap,
  indentWithTab,
} from "@codemirror/commands";
import {
  bracketMatching,
  defaultHighlightStyle,
  foldGutter,
  foldKeymap,
  HighlightStyle,
  indentOnInput,
  indentUnit,
  syntaxHighlighting,
} from "@codemirror/language";
import { highlightSelectionMatches, searchKeymap } from "@codemirror/search";
import { lintGutter, lintKeymap, setDiagnostics } from "@codemirror/lint";
import { yaml } from "@codemirror/lang-yaml";
import { tags as t } from "@lezer/highlight";

const mono =
  'ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace';

const base = EditorView.theme({
  "&": { height: "100%", minHeight: "0", fontSize: "13px" },
  ".cm-scroller": { fontFamily: mono, lineHeight: "1.45", overflow: "auto" },
  ".cm-content": { paddingBottom: "4em" },
});

const lightTheme = EditorView.theme(
  {
    "&": { backgroundColor: "#ffffff", color: "#1f2328" },
    ".cm-gutters": { backgroundColor: "#f6f8fa", color: "#6e7781", borderRight: "1px solid #d8dee4" },
    ".cm-activeLine": { backgroundColor: "#f3f6fa" },
    ".cm-activeLineGutter": { backgroundColor: "#e8edf3", color: "#1f2328" },
    "&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection":
      { backgroundColor: "#b6d7ff" },
    "&.cm-focused .cm-matchingBracket": { backgroundColor: "#c8e6c9", outline: "none" },
    ".cm-tooltip": { backgroundColor: "#ffffff", border: "1px solid #d0d7de" },
  },
  { dark: false },
);

const darkTheme = EditorView.theme(
  {
    "&": { backgroundColor: "#16191d", color: "#d7dae0" },
    ".cm-content": { caretColor: "#f0f0f0" },
    ".cm-cursor, .cm-dropCursor": { borderLeftColor: "#f0f0f0" },
    ".cm-gutters": { backgroundColor: "#1c2025", color: "#7d8590", borderRight: "1px solid #2d333b" },
    ".cm-activeLine": { backgroundColor: "#1f242b" },
    ".cm-activeLineGutter": { backgroundColor: "#262c34", color: "#d7dae0" },
    "&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection":
      { backgroundColor: "#264f78" },
    "&.cm-focused .cm-matchingBracket": { backgroundColor: "#2f4a35", outline: "none" },
    ".cm-searchMatch": { backgroundColor: "#5c4a12" },
    ".cm-panels": { backgroundColor: "#1c2025", color: "#d7dae0" },
    ".cm-tooltip": { backgroundColor: "#22272e", color: "#d7dae0", border: "1px solid #444c56" },
    ".cm-diagnostic-error": { borderLeftColor: "#f85149" },
    ".cm-diagnostic-warning": { borderLeftColor: "#d29922" },
  },
  { dark: true },
);

const darkHighlight = HighlightStyle.define([
  { tag: [t.keyword, t.definitionKeyword, t.modifier], color: "#ff7b72" },
  { tag: [t.propertyName, t.definition(t.propertyName)], color: "#79c0ff" },
  { tag: [t.string, t.special(t.string), t.content], color: "#a5d6ff" },
  { tag: [t.number, t.bool, t.null, t.atom], color: "#ffa657" },
  { tag: [t.comment, t.lineComment, t.blockComment], color: "#8b949e", fontStyle: "italic" },
  { tag: [t.meta, t.processingInstruction, t.labelName], color: "#d2a8ff" },
  { tag: [t.typeName, t.tagName, t.attributeName], color: "#7ee787" },
  { tag: [t.punctuation, t.separator, t.bracket, t.squareBracket, t.brace], color: "#b1bac4" },
  { tag: t.invalid, color: "#f85149" },
]);

function themeFor(dark) {
  return dark
    ? [darkTheme, syntaxHighlighting(darkHighlight)]
    : [lightTheme, syntaxHighlighting(defaultHighlightStyle)];
}

// offsetOfCol returns the UTF-16 offset inside text of the 1-based
// code-point column col, clamped to [0, text.length].
function offsetOfCol(text, col) {
  let off = 0;
  for (let n = 1; n < col && off < text.length; n++) {
    const c = text.charCodeAt(off);
    off += c >= 0xd800 && c <= 0xdbff && off + 1 < text.length ? 2 : 1;
  }
  return off;
}

function toInt(v, dflt) {
  const n = Math.floor(Number(v));
  return Number.isFinite(n) ? n : dflt;
}

// clampLine returns the CodeMirror line for a 1-based line number, clamped
// to the document.
function clampLine(doc, line) {
  return doc.line(Math.min(Math.max(toInt(line, 1), 1), doc.lines));
}

// tokenEnd returns the offset (inside the line's text) where the YAML token
// starting at off ends: the closing quote of a quoted scalar, else the
// first blank, flow indicator, comment or mapping colon.
function tokenEnd(text, off) {
  const q = text[off];
  if (q === '"' || q === "'") {
    for (let i = off + 1; i < text.length; i++) {
      if (text[i] === "\\" && q === '"') {
        i++;
      } else if (text[i] === q) {
        if (q === "'" && text[i + 1] === "'") {
          i++;
        } else {
          return i + 1;
        }
      }
    }
    return text.length;
  }
  let i = off;
  while (i < text.length) {
    const c = text[i];
    if (c === " " || c === "\t" || c === "," || c === "[" || c === "]" || c === "{" || c === "}") break;
    if (c === "#" && i > off && /\s/.test(text[i - 1])) break;
    if (c === ":" && i > off && (i + 1 === text.length || /[\s,\]}]/.test(text[i + 1]))) break;
    i++;
  }
  return i;
}

// toRange maps one validator diagnostic to document offsets.
function toRange(doc, d) {
  const line = clampLine(doc, d.line);
  const from = line.from + offsetOfCol(line.text, Math.max(toInt(d.col, 1), 1));
  if (d.endLine != null || d.endCol != null) {
    const el = d.endLine != null ? clampLine(doc, d.endLine) : line;
    const to = d.endCol != null ? el.from + offsetOfCol(el.text, Math.max(toInt(d.endCol, 1), 1)) : el.to;
    if (to > from) return { from, to };
  }
  const rel = from - line.from;
  let end = tokenEnd(line.text, rel);
  if (end === rel) {
    // Nothing token-like here (a blank, a flow indicator): underline the
    // rest of the line, or the line's text when the column is past it.
    end = line.text.trimEnd().length;
    if (end <= rel) {
      const start = line.text.length - line.text.trimStart().length;
      return end > start ? { from: line.from + start, to: line.from + end } : { from, to: from };
    }
  }
  return { from, to: line.from + end };
}

function toDiagnostics(doc, list) {
  const out = [];
  for (const d of Array.isArray(list) ? list : []) {
    if (!d) continue;
    const { from, to } = toRange(doc, d);
    out.push({
      from,
      to,
      severity: d.severity === "warning" ? "warning" : d.severity === "info" ? "info" : "error",
      message: String(d.message ?? ""),
      source: d.source ? String(d.source) : undefined,
    });
  }
  return out.sort((a, b) => a.from - b.from || a.to - b.to);
}

// utf8Length returns the UTF-8 size of s in bytes (a lone surrogate counts
// 3, as TextEncoder writes U+FFFD for it).
function utf8Length(s) {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2; // a pair: 2 units, 4 bytes
      i++;
    } else n += 2;
  }
  return n;
}

// docBytes returns the UTF-8 size of the document between from and to.
function docBytes(doc, from = 0, to = doc.length) {
  let n = 0;
  for (const it = doc.iterRange(from, to); !it.next().done; ) n += utf8Length(it.value);
  return n;
}

// shortName cuts a file name for a message.
function shortName(name) {
  const s = String(name ?? "");
  return s.length > 60 ? s.slice(0, 57) + "..." : s;
}

// sizeGuard returns the DOM event handlers that refuse a paste or drop
// over maxBytes (see the top of this file); null without a limit.
function sizeGuard(maxBytes, onTooLarge, editBytes, onLarge) {
  if (!(maxBytes > 0)) return null;
  // large hands a text (or a dropped file) of more than editBytes, within
  // maxBytes, to onLarge instead of CodeMirror: true when it did.
  const large = (e, payload) => {
    const size = typeof payload === "string" ? payload.length : payload.size;
    if (!onLarge || !(editBytes > 0) || size <= editBytes || size > maxBytes) return false;
    e.preventDefault();
    e.stopPropagation();
    onLarge(payload);
    return true;
  };
  // check decides for an insertion of added bytes (a lower bound unless
  // exact) that replaces the selection (a paste) or not (a drop): true
  // when it is refused.
  const check = (view, what, [added, exact], replaces) => {
    let total = added;
    if (added <= maxBytes) {
      // UTF-8 takes at most 3 bytes a UTF-16 unit: a short document needs
      // no counting.
      const doc = view.state.doc;
      if (3 * doc.length + added <= maxBytes) return false;
      let kept = docBytes(doc);
      if (replaces) for (const r of view.state.selection.ranges) kept -= docBytes(doc, r.from, r.to);
      total = kept + added;
      what = replaces ? "the text after this paste" : "the text after this drop";
    }
    if (total <= maxBytes) return false;
    if (onTooLarge) onTooLarge(what, total, exact);
    return true;
  };
  const refuse = (e) => {
    e.preventDefault();
    e.stopPropagation();
    return true;
  };
  // textSize is the size of a text/plain payload and whether it is exact:
  // UTF-8 takes at least a byte a UTF-16 unit, so a string longer than
  // the limit is over it without counting (50 MB would take 100 ms).
  const textSize = (t) => (t.length > maxBytes ? [t.length, false] : [utf8Length(t), true]);
  return EditorView.domEventHandlers({
    paste(e, view) {
      const t = e.clipboardData?.getData("text/plain") ?? "";
      if (check(view, "the pasted text", textSize(t), true)) return refuse(e);
      // A large paste: the text it makes (the paste in place of the
      // selection) goes to onLarge.
      if (t.length <= editBytes) return false;
      const doc = view.state.doc;
      const r = view.state.selection.main;
      return large(e, doc.sliceString(0, r.from) + t + doc.sliceString(r.to));
    },
    drop(e, view) {
      const dt = e.dataTransfer;
      if (!dt) return false;
      const files = [...(dt.files ?? [])];
      if (files.length) {
        const size = files.reduce((a, f) => a + f.size, 0);
        const what = files.length === 1 ? `the dropped file "${shortName(files[0].name)}"` : `the ${files.length} dropped files`;
        if (check(view, what, [size, true], false)) return refuse(e);
        // A large file replaces the text (it is read by the page, not by
        // CodeMirror).
        return files.length === 1 && large(e, files[0]);
      }
      const t = dt.getData("text/plain") || dt.getData("Text") || "";
      if (check(view, "the dropped text", textSize(t), false)) return refuse(e);
      return large(e, t); // a large dropped text replaces the text
    },
  });
}

function create(parent, opts = {}) {
  if (!(parent instanceof Element)) throw new TypeError("kueueplayEditor.create: parent must be an element");
  const root = parent.shadowRoot ?? parent.attachShadow({ mode: "open" });
  root.replaceChildren();
  const onChange = typeof opts.onChange === "function" ? opts.onChange : null;
  const guard = sizeGuard(
    Number(opts.maxBytes),
    typeof opts.onTooLarge === "function" ? opts.onTooLarge : null,
    Number(opts.editBytes),
    typeof opts.onLarge === "function" ? opts.onLarge : null,
  );
  const theme = new Compartment();
  const view = new EditorView({
    parent: root,
    root,
    state: EditorState.create({
      doc: String(opts.doc ?? ""),
      extensions: [
        guard ?? [],
        lineNumbers(),
        highlightActiveLineGutter(),
        foldGutter(),
        lintGutter(),
        highlightSpecialChars(),
        history(),
        drawSelection(),
        dropCursor(),
        EditorState.allowMultipleSelections.of(true),
        indentOnInput(),
        indentUnit.of("  "),
        EditorState.tabSize.of(2),
        bracketMatching(),
        highlightActiveLine(),
        highlightSelectionMatches(),
        yaml(),
        keymap.of([
          ...defaultKeymap,
          ...historyKeymap,
          ...foldKeymap,
          ...searchKeymap,
          ...lintKeymap,
          indentWithTab,
        ]),
        base,
        theme.of(themeFor(!!opts.dark)),
        EditorView.contentAttributes.of({
          "aria-label": String(opts.label ?? "Scenario YAML"),
          spellcheck: "false",
          autocapitalize: "off",
          autocorrect: "off",
        }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged && onChange) onChange(u.state.doc.toString());
        }),
      ],
    }),
  });

  return {
    getText() {
      return view.state.doc.toString();
    },
    setText(s) {
      s = String(s ?? "");
      if (s === view.state.doc.toString()) return;
      view.dispatch({
        changes: { from: 0, to: view.state.doc.length, insert: s },
        selection: { anchor: 0 },
        scrollIntoView: true,
      });
    },
    setDiagnostics(list) {
      view.dispatch(setDiagnostics(view.state, toDiagnostics(view.state.doc, list)));
    },
    gotoLine(line, col = 1) {
      const l = clampLine(view.state.doc, line);
      const pos = l.from + offsetOfCol(l.text, Math.max(toInt(col, 1), 1));
      view.dispatch({
        selection: { anchor: pos },
        effects: EditorView.scrollIntoView(pos, { y: "center" }),
      });
      view.focus();
    },
    focus() {
      view.focus();
    },
    setTheme(dark) {
      view.dispatch({ effects: theme.reconfigure(themeFor(!!dark)) });
    },
    destroy() {
      view.destroy();
    },
  };
}

window.kueueplayEditor = Object.freeze({ create });
