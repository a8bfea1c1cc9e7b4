// The hostile-input suite in the browser (internal/hostile, written to
// build/e2e/hostile by `go run ./internal/hostile/dump`, which make
// test-e2e does). Each case is pasted into the editor and run: the page
// must show the stated error at its position (or, for a file over the
// page's 1 MiB limit, the limit's error at 1:1), or run it; run none of
// the markup; and stay responsive throughout: a probe from the test must
// get an answer from the page's main thread within RESPONSIVE_MS at every
// try while the case decodes and runs.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { check, clickRun, fail, open, TIMEOUT, waitReady, EDITOR } from "./lib/page.mjs";

const DIR = process.env.HOSTILE_DIR || "build/e2e/hostile";

// PAGE_LIMIT is ui/app's maxPageBytes: larger text is refused unparsed.
const PAGE_LIMIT = 1 << 20;

// The page thread may be busy this long at most (a decode of a file just
// under the page's limit is the longest uninterrupted piece of work);
// generous for a loaded 2-core CI machine.
const RESPONSIVE_MS = 1500;

// paste puts text into the editor as a user's paste does (one clipboard
// event), which also works for text too large to type.
async function paste(page, text) {
  const content = page.locator(EDITOR);
  if ((await content.count()) === 0) fail("the editor has no .cm-content in #editor's shadow root");
  await content.focus();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.press("Backspace");
  await page.evaluate((t) => {
    const dt = new DataTransfer();
    dt.setData("text/plain", t);
    const target = document.getElementById("editor").shadowRoot.querySelector(".cm-content");
    target.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
  }, text);
}

// runAndProbe starts a run and waits for it to end, returning the
// longest the page's main thread went without running a 20 ms interval
// timer meanwhile (measured in the page, so a handler that blocks the
// thread shows however Playwright waits) and the final status.
async function runAndProbe(page, what) {
  const before = await page.evaluate(() => {
    const g = (window.__gap = { max: 0, last: performance.now() });
    g.id = setInterval(() => {
      const t = performance.now();
      g.max = Math.max(g.max, t - g.last);
      g.last = t;
    }, 20);
    return performance.getEntriesByName("kueueplay:run").length;
  });
  await clickRun(page).catch(() => {}); // clickRun waits for a run mark; errors have none
  const deadline = Date.now() + TIMEOUT.run * 6;
  for (;;) {
    const s = await page.evaluate(() => ({
      state: document.getElementById("status")?.dataset.state ?? "",
      text: document.getElementById("status")?.textContent ?? "",
      runs: performance.getEntriesByName("kueueplay:run").length,
      errors: document.querySelectorAll("#problems li[data-severity=error]").length,
    }));
    if (s.state !== "running" && (s.runs > before || s.errors > 0 || s.state === "error")) {
      await new Promise((r) => setTimeout(r, 100)); // a last tick after the end
      const worst = await page.evaluate(() => {
        const g = window.__gap;
        clearInterval(g.id);
        return Math.round(Math.max(g.max, performance.now() - g.last));
      });
      return { worst, ...s };
    }
    if (Date.now() > deadline) fail(`${what}: still running after ${TIMEOUT.run * 6} ms: ${s.text}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const hostile = {
  name: "hostile",
  async run(t) {
    const manifest = join(DIR, "manifest.json");
    if (!existsSync(manifest)) fail(`${manifest} is missing: run \`go run ./internal/hostile/dump -out ${DIR}\` (make test-e2e does)`);
    const cases = JSON.parse(readFileSync(manifest, "utf8"));
    check(cases.length >= 15, `the manifest lists ${cases.length} cases`);
    const page = await t.start();
    await open(page, "/");
    await waitReady(page);
    // The payloads call alert(); count the calls instead of opening dialogs.
    await page.evaluate(() => {
      window.__alerts = 0;
      window.alert = () => window.__alerts++;
    });
    for (const c of cases) {
      const data = readFileSync(join(DIR, c.file), "utf8");
      const started = Date.now();
      await paste(page, data);
      const r = await runAndProbe(page, c.name);
      const problems = await page.evaluate(() =>
        [...document.querySelectorAll("#problems li[data-severity=error]")].slice(0, 50).map((li) => li.textContent),
      );
      const xss = await page.evaluate(() => ({
        alerts: window.__alerts,
        markup: document.querySelectorAll("img, svg[onload], script:not([src])").length,
      }));
      console.log(`    ${c.name}: ${data.length} bytes, ${Date.now() - started} ms, longest main-thread block ${r.worst} ms, ${r.state}: ${r.text.slice(0, 100)}`);
      check(r.worst <= RESPONSIVE_MS, `${c.name}: the page did not answer for ${r.worst} ms (bound ${RESPONSIVE_MS} ms)`);
      check(xss.alerts === 0 && xss.markup === 0, `${c.name}: markup from the scenario ran (${xss.alerts} alert calls) or was inserted (${xss.markup} elements)`);
      let want = c.error ? { error: c.error, at: c.at } : null;
      if (c.bytes > PAGE_LIMIT) want = { error: "at most 1048576 bytes", at: "1:1" };
      if (want) {
        const hit = problems.some((p) => p.startsWith(want.at) && p.includes(want.error));
        check(hit, `${c.name}: no error at ${want.at} containing "${want.error}" in #problems: ${JSON.stringify(problems.slice(0, 3)).slice(0, 600)}`);
      } else {
        check(problems.length === 0, `${c.name}: errors in #problems: ${problems.slice(0, 3).join(" | ").slice(0, 400)}`);
        check(r.runs > 0 && r.state !== "running", `${c.name}: the run did not finish: ${r.state}: ${r.text}`);
      }
    }
  },
};
