// The hostile-input suite in the browser (internal/hostile, written to
// build/e2e/hostile by `go run ./internal/hostile/dump`, which make
// test-e2e does). Each case is pasted into the editor as a user's paste
// (replacing the text): a case over the page's 32 MiB limit must be refused
// by the editor before it takes the text in (the limit's error at 1:1, the
// editor's text unchanged, no run); any other must show the stated error
// at its position, or run (one over a million characters is kept out of the
// editor, summarized, and decoded and run by the engine's worker like any
// other). None may run its markup, and the page must stay
// responsive throughout: its main thread must run a 20 ms timer at least
// every RESPONSIVE_MS from the paste to the end of the run.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { check, clickRun, editorText, fail, open, pasteStaged, stageText, TIMEOUT, until, waitReady } from "./lib/page.mjs";

const DIR = process.env.HOSTILE_DIR || "build/e2e/hostile";

// PAGE_LIMIT is ui/app's maxPageBytes: larger text is refused unparsed.
const PAGE_LIMIT = 32 << 20;

// The page thread may be busy this long at most (the engine's worker
// decodes and simulates; the page reads the trace in pieces, then lays
// out the run); generous for a loaded 2-core CI machine.
const RESPONSIVE_MS = 1500;

// startProbe starts measuring, in the page, the longest the main thread
// goes without running a 20 ms interval timer (so a handler that blocks
// the thread shows however Playwright waits); stopProbe ends it and
// returns that gap in ms.
async function startProbe(page) {
  await page.evaluate(() => {
    const g = (window.__gap = { max: 0, last: performance.now() });
    g.id = setInterval(() => {
      const t = performance.now();
      g.max = Math.max(g.max, t - g.last);
      g.last = t;
    }, 20);
  });
}

async function stopProbe(page) {
  await new Promise((r) => setTimeout(r, 100)); // a last tick after the end
  return page.evaluate(() => {
    const g = window.__gap;
    clearInterval(g.id);
    return Math.round(Math.max(g.max, performance.now() - g.last));
  });
}

// pageState is what the status line and the problems list say.
const pageState = (page) =>
  page.evaluate(() => ({
    state: document.getElementById("status")?.dataset.state ?? "",
    text: document.getElementById("status")?.textContent ?? "",
    runs: performance.getEntriesByName("kueueplay:run").length,
    errors: document.querySelectorAll("#problems li[data-severity=error]").length,
  }));

// runToEnd starts a run and waits for it to end (a run mark, or errors).
async function runToEnd(page, what) {
  const before = (await pageState(page)).runs;
  await clickRun(page).catch(() => {}); // clickRun waits for a run mark; errors have none
  const deadline = Date.now() + TIMEOUT.run * 6;
  for (;;) {
    const s = await pageState(page);
    if (s.state !== "running" && (s.runs > before || s.errors > 0 || s.state === "error")) return s;
    if (Date.now() > deadline) fail(`${what}: still running after ${TIMEOUT.run * 6} ms: ${s.text}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const hostile = {
  name: "hostile",
  // 18 cases, about 45 s on a 2-core machine.
  timeoutMs: 120000,
  async run(t) {
    const manifest = join(DIR, "manifest.json");
    if (!existsSync(manifest)) fail(`${manifest} is missing: run \`go run ./internal/hostile/dump -out ${DIR}\` (make test-e2e does)`);
    const cases = JSON.parse(readFileSync(manifest, "utf8"));
    check(cases.length >= 15, `the manifest lists ${cases.length} cases`);
    check(cases.some((c) => c.bytes > PAGE_LIMIT), "no case is over the page's limit");
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
      const over = c.bytes > PAGE_LIMIT;
      const textBefore = over ? await editorText(page) : null;
      const runsBefore = (await pageState(page)).runs;
      await stageText(page, data);
      const started = Date.now();
      await startProbe(page);
      await pasteStaged(page);
      let s;
      if (over) {
        await until(
          page,
          () => [...document.querySelectorAll("#problems li[data-severity=error]")].some((li) => li.textContent.includes("at most 33554432 bytes")),
          null,
          { timeout: TIMEOUT.run, message: async () => `${c.name}: the paste of ${data.length} bytes was not refused: ${(await pageState(page)).text}` },
        );
        s = await pageState(page);
      } else {
        s = await runToEnd(page, c.name);
      }
      const worst = await stopProbe(page);
      const problems = await page.evaluate(() =>
        [...document.querySelectorAll("#problems li[data-severity=error]")].slice(0, 50).map((li) => li.textContent),
      );
      const xss = await page.evaluate(() => ({
        alerts: window.__alerts,
        markup: document.querySelectorAll("img, svg[onload], script:not([src])").length,
      }));
      console.log(`    ${c.name}: ${data.length} bytes, ${Date.now() - started} ms, longest main-thread block ${worst} ms, ${s.state}: ${s.text.slice(0, 100)}`);
      check(worst <= RESPONSIVE_MS, `${c.name}: the page did not answer for ${worst} ms (bound ${RESPONSIVE_MS} ms)`);
      check(xss.alerts === 0 && xss.markup === 0, `${c.name}: markup from the scenario ran (${xss.alerts} alert calls) or was inserted (${xss.markup} elements)`);
      if (over) {
        const hit = problems.some((p) => p.startsWith("1:1") && p.includes("the pasted text is at least") && p.includes("run larger files with the CLI"));
        check(hit, `${c.name}: no error at 1:1 saying the pasted text is over 33554432 bytes in #problems: ${JSON.stringify(problems.slice(0, 3)).slice(0, 600)}`);
        const after = await editorText(page);
        check(after === textBefore, `${c.name}: the editor's text changed on a refused paste (${textBefore.length} characters before, ${after.length} after)`);
        check(s.runs === runsBefore, `${c.name}: a refused paste ran the scenario`);
      } else if (c.error) {
        const hit = problems.some((p) => p.startsWith(c.at) && p.includes(c.error));
        check(hit, `${c.name}: no error at ${c.at} containing "${c.error}" in #problems: ${JSON.stringify(problems.slice(0, 3)).slice(0, 600)}`);
      } else {
        check(problems.length === 0, `${c.name}: errors in #problems: ${problems.slice(0, 3).join(" | ").slice(0, 400)}`);
        check(s.runs > runsBefore && s.state !== "running", `${c.name}: the run did not finish: ${s.state}: ${s.text}`);
      }
    }
  },
};
