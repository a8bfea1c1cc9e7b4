// Helpers that drive the playground the way a person does, written against
// the page contract in ui/app/doc.go only. Every failure says which
// element or state of the contract was missing.

import { Fail } from "./harness.mjs";

export { Fail };

export const TIMEOUT = {
  ready: 15000, // first load to #app[data-ready=true]
  ui: 5000, // a click's visible effect
  run: 10000, // one run of the engine
};

// CONTRACT names the static elements the tests use, for messages.
export const CONTRACT = {
  "#app": "the root element: data-ready, data-step, data-steps, data-compare",
  "#status": "the status line: data-state = loading | ready | running | error",
  "#open-gallery": "the button that opens dialog#gallery",
  "#scenario-name": "the loaded example's name",
  "#description": "the scenario's spec.description",
  "#run": "the Run button",
  "#compare": "the Compare toggle",
  "#share": "the Share button",
  "#share-url": "the shared link (data-kind = short | full)",
  "#share-full": "shown next to a short link: copies the full link",
  "#open-playground": "embed mode: the link to the full playground",
  "#help": "the help button",
  "#editor": "the CodeMirror editor host (open shadow root)",
  "#problem-count": "the problem summary",
  "#problems": "the list of diagnostics",
  "#gates": "the feature-gate fieldset",
  "#first": "the first-step button",
  "#prev": "the previous-step button",
  "#play": "the play button (aria-pressed)",
  "#next": "the next-step button",
  "#last": "the last-step button",
  "#scrubber": "the step slider",
  "#overview": "the Overview toggle (aria-pressed)",
  "#overview-panel": "the Overview panel: charts of the whole run",
  "#view-left": "the main view with its four panels",
  "#view-right": "Compare mode's right-hand view",
  "dialog#gallery": "the examples gallery",
  "dialog#help-dialog": "the keyboard shortcuts dialog",
};

export function fail(msg) {
  throw new Fail(msg);
}

export function check(cond, msg) {
  if (!cond) fail(msg);
}

const describe = (sel) => (CONTRACT[sel] ? `${sel} (${CONTRACT[sel]})` : sel);

// need checks that the page has every selector now (static elements) and
// names all the missing ones at once.
export async function need(page, ...selectors) {
  const missing = await page.evaluate(
    (sels) => sels.filter((s) => !document.querySelector(s)),
    selectors,
  );
  if (missing.length) fail(`the page has no ${missing.map(describe).join(", ")} (ui/app/doc.go)`);
}

// until waits for fn(arg) in the page to be truthy; on timeout it fails
// with message (a string, or an async function for the state at the time).
export async function until(page, fn, arg, { timeout = TIMEOUT.ui, message }) {
  try {
    return await page.waitForFunction(fn, arg, { timeout, polling: 50 });
  } catch (e) {
    if (!/timeout/i.test(String(e?.message))) throw e;
    let msg = message;
    if (typeof message === "function") {
      try {
        msg = await message();
      } catch (e2) {
        msg = `(and describing the state failed: ${e2.message})`;
      }
    }
    fail(`${msg} [waited ${timeout / 1000} s]`);
  }
}

// reveal opens the closed <details> that hide selector, by clicking their
// summaries as a person would.
export async function reveal(page, selector) {
  for (let i = 0; i < 5; i++) {
    const summary = page.locator(`details:not([open]):has(${selector}) > summary`);
    if ((await summary.count()) === 0) return;
    await summary.first().click();
  }
}

// click reveals selector, then clicks it.
export async function click(page, selector) {
  await reveal(page, selector);
  await page.locator(selector).first().click();
}

// setChecked reveals the checkbox selector and clicks it when its state is
// not on; it returns whether it clicked.
export async function setChecked(page, selector, on) {
  await reveal(page, selector);
  const box = page.locator(selector).first();
  if ((await box.isChecked()) === on) return false;
  await box.click();
  return true;
}

// visible waits for selector to be visible.
export async function visible(page, selector, what) {
  try {
    await page.locator(selector).first().waitFor({ state: "visible", timeout: TIMEOUT.ui });
  } catch {
    const n = await page.locator(selector).count();
    fail(`${what}: ${describe(selector)} ${n ? "is not visible" : "is missing"}`);
  }
}

// --- page state ---------------------------------------------------------

export async function appState(page) {
  return page.evaluate(() => {
    const a = document.getElementById("app");
    const s = document.getElementById("status");
    return {
      ready: a?.dataset.ready ?? null,
      step: a?.dataset.step != null ? Number(a.dataset.step) : null,
      steps: a?.dataset.steps != null ? Number(a.dataset.steps) : null,
      compare: a?.dataset.compare ?? null,
      status: s?.dataset.state ?? null,
      statusText: (s?.textContent ?? "").trim().slice(0, 200),
    };
  });
}

const stateWords = (s) =>
  `#app[data-ready]=${s.ready}, data-step=${s.step}, data-steps=${s.steps}; ` +
  `#status[data-state]=${s.status} "${s.statusText}"`;

// open navigates and checks the static elements every test needs.
export async function open(page, url = "/") {
  await page.goto(url, { waitUntil: "domcontentloaded" });
  await need(page, "#app", "#status", "#editor");
}

// readyTimeouts counts waitReady timeouts in this run: once the page has
// hung, later tests wait less for it, so a broken build fails the whole run
// in about a minute instead of many.
let readyTimeouts = 0;

// untilLoaded is until for waits on the first load: it shares waitReady's
// shrinking timeout.
export async function untilLoaded(page, fn, arg, message) {
  try {
    return await until(page, fn, arg, { timeout: readyTimeouts ? 5000 : TIMEOUT.ready, message });
  } catch (e) {
    readyTimeouts++;
    throw e;
  }
}

// waitReady waits for the first result: #app[data-ready=true] and #status
// ready. #status error fails at once.
export async function waitReady(page) {
  await need(page, "#app", "#status");
  await untilLoaded(
    page,
    () => {
      const a = document.getElementById("app");
      const s = document.getElementById("status")?.dataset.state;
      return (a?.dataset.ready === "true" && s === "ready") || s === "error";
    },
    null,
    async () => `the page did not become ready: ${stateWords(await appState(page))}`,
  );
  const s = await appState(page);
  if (s.status === "error") fail(`the page shows an error instead of becoming ready: ${stateWords(s)}`);
  await waitEditor(page);
}

// waitEditor waits for CodeMirror, which the page loads after the first
// result (#editor[data-ready=true]); a read-only embed has none.
export async function waitEditor(page) {
  await untilLoaded(
    page,
    () => {
      const a = document.getElementById("app");
      const readOnly = a?.dataset.embed === "true" && a?.dataset.editable !== "true";
      return readOnly || (document.getElementById("editor")?.dataset.ready === "true" && !!document.getElementById("editor").shadowRoot?.querySelector(".cm-content"));
    },
    null,
    async () => `the editor did not load after the first result (#editor[data-ready] is ${await page.evaluate(() => document.getElementById("editor")?.dataset.ready ?? "absent")})`,
  );
}

// --- runs -----------------------------------------------------------------

// runMark counts finished runs two ways: "kueueplay:run" measures and
// #status leaving "running" (recorded by the init script).
export async function runMark(page) {
  return page.evaluate(() => ({
    measures: performance.getEntriesByName("kueueplay:run", "measure").length,
    leftRunning: (window.__e2e?.status ?? []).filter((r) => r.from === "running").length,
    changes: (window.__e2e?.status ?? []).length,
  }));
}

// waitRun waits for a run after the mark before to finish.
export async function waitRun(page, before, what) {
  await until(
    page,
    (b) => {
      const m = performance.getEntriesByName("kueueplay:run", "measure").length;
      const left = (window.__e2e?.status ?? []).filter((r) => r.from === "running").length;
      const s = document.getElementById("status")?.dataset.state;
      return (m > b.measures || left > b.leftRunning) && s !== "running" && s !== "loading";
    },
    before,
    {
      timeout: TIMEOUT.run,
      message: async () =>
        `${what}: no run finished (no new "kueueplay:run" measure, #status never left "running"); ` +
        stateWords(await appState(page)),
    },
  );
}

// clickRun presses #run and waits for the run.
export async function clickRun(page) {
  await need(page, "#run");
  const before = await runMark(page);
  await page.locator("#run").click();
  await waitRun(page, before, "after clicking #run");
}

// settle waits until the page has been quiet for quietMs: no run, no
// #status change, the problems unchanged, #status not running or loading.
// Used after typing, so a debounced validation or run has happened before
// the test goes on.
export async function settle(page, { quietMs = 800, timeout = TIMEOUT.run } = {}) {
  const snap = () =>
    page.evaluate(() => {
      const s = document.getElementById("status")?.dataset.state;
      return {
        key: JSON.stringify([
          performance.getEntriesByName("kueueplay:run", "measure").length,
          (window.__e2e?.status ?? []).length,
          document.getElementById("problems")?.textContent ?? "",
          document.getElementById("problem-count")?.textContent ?? "",
          document.getElementById("app")?.dataset.step,
        ]),
        busy: s === "running" || s === "loading",
      };
    });
  const end = Date.now() + timeout;
  let last = await snap();
  let since = Date.now();
  for (;;) {
    await page.waitForTimeout(100);
    const now = await snap();
    if (now.key !== last.key || now.busy) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) {
      return;
    }
    if (Date.now() > end) fail(`the page did not settle after an edit: ${stateWords(await appState(page))}`);
  }
}

// --- the editor -------------------------------------------------------------

export const EDITOR = "#editor .cm-content";

// editorText returns the editor's whole text: CodeMirror's document, read
// through its DOM (the content element is virtualised, so its text is only
// the visible lines), else through the clipboard (select all, copy).
export async function editorText(page) {
  await need(page, "#editor");
  const t = await page.evaluate(() => {
    const host = document.getElementById("editor");
    const c = host?.shadowRoot?.querySelector(".cm-content") ?? host?.querySelector(".cm-content");
    const tile = c?.cmTile ?? c?.cmView;
    const view = tile?.root?.view ?? tile?.view ?? null;
    return typeof view?.state?.doc?.toString === "function" ? view.state.doc.toString() : null;
  });
  if (t != null) return t;
  const content = page.locator(EDITOR);
  if ((await content.count()) === 0) fail("the editor has no .cm-content in #editor's shadow root");
  await content.focus();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.press("ControlOrMeta+C");
  return page.evaluate(() => navigator.clipboard.readText());
}

// setEditorText replaces the editor's text by typing: select all, delete,
// then one insertText (as an IME commit would). Deleting first matters:
// typing over a selection that starts with a highlighted token makes
// Chromium's editing keep its style as an inline style attribute, which
// the page's CSP blocks (a console error).
export async function setEditorText(page, text) {
  const content = page.locator(EDITOR);
  if ((await content.count()) === 0) fail("the editor has no .cm-content in #editor's shadow root");
  await content.focus();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.press("Backspace");
  await page.keyboard.insertText(text);
  const got = await editorText(page);
  check(got === text, `the editor did not take the typed text (got ${got.length} characters, typed ${text.length})`);
}

// stageText hands text to the page (window.__staged) without touching
// the editor, so that a test can measure the page's own handling of a
// paste or drop apart from the test's transfer of a large string.
export async function stageText(page, text) {
  await page.evaluate((t) => {
    window.__staged = t;
  }, text);
}

// pasteStaged pastes the staged text into the editor as a user's paste
// does: the editor focused, everything selected (the paste replaces it)
// unless selectAll is false, then one paste event with the text on its
// clipboard.
//
// While a large text is summarized in place of the editor
// (section#large-text), the paste goes to the summary's text, which
// replaces the whole text with it.
export async function pasteStaged(page, { selectAll = true } = {}) {
  if (await page.locator("#large-text").isVisible()) {
    await page.locator("#large-text .large-head").focus();
    await page.evaluate(() => {
      const dt = new DataTransfer();
      dt.setData("text/plain", window.__staged);
      window.__staged = null;
      document.querySelector("#large-text .large-head").dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
    });
    return;
  }
  const content = page.locator(EDITOR);
  if ((await content.count()) === 0) fail("the editor has no .cm-content in #editor's shadow root");
  await content.focus();
  if (selectAll) await page.keyboard.press("ControlOrMeta+A");
  await page.evaluate(() => {
    const dt = new DataTransfer();
    dt.setData("text/plain", window.__staged);
    window.__staged = null;
    const target = document.getElementById("editor").shadowRoot.querySelector(".cm-content");
    target.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
  });
}

// paste stages text and pastes it (pasteStaged).
export async function paste(page, text, opts) {
  await stageText(page, text);
  return pasteStaged(page, opts);
}

// drop drops files ([{name, text}]) or, with files null, the staged text
// on the editor's last line, as dragging them from another program does.
export async function drop(page, files) {
  await need(page, "#editor");
  await page.evaluate((files) => {
    const dt = new DataTransfer();
    if (files) for (const f of files) dt.items.add(new File([f.text], f.name, { type: "application/x-yaml" }));
    else dt.setData("text/plain", window.__staged);
    window.__staged = null;
    const content = document.getElementById("editor").shadowRoot.querySelector(".cm-content");
    const lines = content.querySelectorAll(".cm-line");
    const r = (lines[lines.length - 1] ?? content).getBoundingClientRect();
    const at = { clientX: r.left + 2, clientY: r.top + r.height / 2 };
    for (const type of ["dragenter", "dragover", "drop"]) {
      content.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true, ...at }));
    }
  }, files);
}

// editAndRun types text, lets the page settle, runs it and waits.
export async function editAndRun(page, text) {
  await setEditorText(page, text);
  await settle(page);
  await clickRun(page);
  await settle(page, { quietMs: 300 });
}

// --- steps ----------------------------------------------------------------

// blur moves the focus out of the editor and every control, so key
// presses go to the page's shortcuts.
export async function blur(page) {
  await page.evaluate(() => {
    const a = document.activeElement;
    if (a && a !== document.body && typeof a.blur === "function") a.blur();
    // Focus inside the editor's shadow root shows as the host.
    document.getElementById("editor")?.shadowRoot?.activeElement?.blur?.();
  });
}

export async function waitStep(page, n, what) {
  await until(page, (n) => Number(document.getElementById("app")?.dataset.step) === n, n, {
    message: async () => `${what}: #app[data-step] did not become ${n}; ${stateWords(await appState(page))}`,
  });
}

// next moves one step on, by clicking #next or (key) pressing ArrowRight
// with the focus outside the editor.
export async function next(page, { key = false } = {}) {
  const s = await appState(page);
  check(s.step != null, `#app has no data-step; ${stateWords(s)}`);
  if (key) {
    await blur(page);
    await page.keyboard.press("ArrowRight");
  } else {
    await need(page, "#next");
    await page.locator("#next").click();
  }
  await waitStep(page, s.step + 1, key ? `after ArrowRight at step ${s.step}` : `after clicking #next at step ${s.step}`);
}

// gotoStep moves to step n with the scrubber.
export async function gotoStep(page, n) {
  await need(page, "#scrubber");
  const s = await appState(page);
  if (s.step === n) return;
  await page.locator("#scrubber").fill(String(n));
  await waitStep(page, n, `after moving #scrubber to ${n}`);
}

// stepUntil steps on (alternating #next and ArrowRight when mixKeys) until
// pred(arg) holds in the page; returns the step index.
export async function stepUntil(page, pred, arg, { what, mixKeys = false, max = 200 } = {}) {
  for (let i = 0; ; i++) {
    if (await page.evaluate(pred, arg)) return (await appState(page)).step;
    const s = await appState(page);
    if (s.step != null && s.steps != null && s.step >= s.steps - 1) {
      fail(`stepped to the last step (${s.step} of ${s.steps}) without seeing ${what}`);
    }
    if (i >= max) fail(`${max} steps without seeing ${what}`);
    await next(page, { key: mixKeys && i % 2 === 1 });
  }
}

// waitParam waits for the URL's query parameter name to satisfy want: a
// string (equal), or a RegExp. The page updates the URL with
// history.replaceState a little after the state changes.
export async function waitParam(page, name, want, what) {
  const src = want instanceof RegExp ? { re: want.source, flags: want.flags } : { eq: String(want) };
  await until(
    page,
    ({ name, src }) => {
      const v = new URL(location.href).searchParams.get(name);
      return src.re != null ? v != null && new RegExp(src.re, src.flags).test(v) : v === src.eq;
    },
    { name, src },
    { message: async () => `${what}: the URL's ${name} is not ${want}: ${page.url()}` },
  );
}

// --- panels ---------------------------------------------------------------

export const panel = (view, name) => `#view-${view} section.panel[data-panel=${name}]`;

// decisions lists the decision panel's .decision elements of a view:
// outcome, text and their targets.
export async function decisions(page, view = "left") {
  return page.evaluate((sel) => {
    const p = document.querySelector(sel);
    if (!p) return null;
    return [...p.querySelectorAll(".decision")].map((d) => ({
      outcome: d.dataset.outcome ?? null,
      workload: d.dataset.workload ?? null,
      text: d.textContent.replace(/\s+/g, " ").trim(),
      targets: [...d.querySelectorAll("ul.targets li[data-workload]")].map((li) => li.dataset.workload),
    }));
  }, panel(view, "decision"));
}

// logEntries lists the events panel's buttons: kind, outcome, text.
export async function logEntries(page, view = "left") {
  return page.evaluate((sel) => {
    const p = document.querySelector(sel);
    if (!p) return null;
    return [...p.querySelectorAll("button[data-kind]")].map((b) => ({
      kind: b.dataset.kind,
      outcome: b.dataset.outcome ?? null,
      workload: b.dataset.workload ?? null,
      step: b.dataset.gotoStep ?? null,
      text: b.textContent.replace(/\s+/g, " ").trim(),
    }));
  }, panel(view, "events"));
}

// names reports whether a decision or log entry is about workload w.
export const about = (e, w) => e.workload === w || e.text.includes(w);

export async function gateStates(page, root = "#gates") {
  return page.evaluate(
    (root) =>
      Object.fromEntries(
        [...document.querySelectorAll(`${root} input[type=checkbox][data-gate]`)].map((i) => [i.dataset.gate, i.checked]),
      ),
    root,
  );
}

// noHorizontalScroll checks the page does not scroll sideways.
export async function noHorizontalScroll(page, where) {
  const w = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  check(
    w.scroll <= w.inner,
    `${where}: the page scrolls sideways at ${w.inner} px wide (document.documentElement.scrollWidth = ${w.scroll})`,
  );
}

export async function text(page, selector) {
  return page.evaluate((s) => document.querySelector(s)?.textContent.replace(/\s+/g, " ").trim() ?? null, selector);
}

// fetchText reads a file of the site (a scenario, the gallery index).
export async function fetchText(page, url) {
  const res = await page.request.get(url);
  check(res.ok(), `GET ${url}: HTTP ${res.status()}`);
  return res.text();
}

export function median(xs) {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
