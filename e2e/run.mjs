#!/usr/bin/env node
// End-to-end tests of the kueueplay playground in headless Chromium, with
// playwright-core and the system's browser (no browser download).
//
//   make test-e2e                      # builds the site, then runs this
//   node e2e/run.mjs [options] [TEST...]
//
// Options:
//   --site DIR    the built site to serve (default build/site)
//   --bin PATH    the kueueplay binary that serves it (default
//                 build/e2e/kueueplay; built with go build when missing)
//   --url URL     test an already running server instead (the CLI is
//                 still used, when there, to pick the budget scenario)
//   --out DIR     screenshots/ and budgets.json go here (default build/e2e)
//   --list        print the test names and exit
// TEST names select tests (default: all, in order).
//
// Environment: CHROMIUM (the browser, default /usr/bin/chromium);
// REQUIRE_BROWSER=1 makes a missing or broken browser a failure instead of
// a skip (exit 0).
//
// Each test gets a fresh browser context (1366x800) and fails on its own
// checks, on any console error, uncaught page error, failed request or
// HTTP error. The runner prints PASS/FAIL per test, the measured budgets
// (also in budgets.json), and exits 1 on any failure. Screenshots:
// <out>/screenshots/*.png, plus FAIL-<test>.png for each failed test.

import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";

import {
  CHROMIUM_ARGS,
  Fail,
  TestEnv,
  VIEWPORT,
  findChromium,
  isExecutable,
  launchChromium,
  prepareOut,
  printBudgets,
  startServer,
  withTimeout,
  writeJSON,
} from "./lib/harness.mjs";
import { tests } from "./tests.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const t0 = Date.now();

const { values: opt, positionals } = parseArgs({
  options: {
    site: { type: "string", default: path.join(root, "build/site") },
    bin: { type: "string", default: path.join(root, "build/e2e/kueueplay") },
    url: { type: "string" },
    out: { type: "string", default: path.join(root, "build/e2e") },
    list: { type: "boolean", default: false },
  },
  allowPositionals: true,
});

if (opt.list) {
  for (const t of tests) console.log(t.name);
  process.exit(0);
}

const unknown = positionals.filter((n) => !tests.some((t) => t.name === n));
if (unknown.length) {
  console.error(`e2e: unknown test(s) ${unknown.join(", ")}; known: ${tests.map((t) => t.name).join(", ")}`);
  process.exit(2);
}
const selected = positionals.length ? tests.filter((t) => positionals.includes(t.name)) : tests;
const requireBrowser = process.env.REQUIRE_BROWSER === "1";

// --- cleanup on every exit path ---------------------------------------------

let server = null;
let browser = null;
let stopping = false;
function killServer() {
  server?.stop();
}
process.on("exit", killServer);
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(sig, async () => {
    if (stopping) return;
    stopping = true;
    console.error(`\ne2e: ${sig}, stopping`);
    await shutdown();
    process.exit(128 + ({ SIGINT: 2, SIGTERM: 15, SIGHUP: 1 }[sig] ?? 0));
  });
}
process.on("uncaughtException", async (e) => {
  console.error("e2e: uncaught:", e);
  await shutdown();
  process.exit(1);
});
process.on("unhandledRejection", (e) => {
  // Playwright rejects late promises when a context closes under a timed
  // out test; those are already reported as the test's failure.
  if (process.env.E2E_DEBUG) console.error("e2e: unhandled rejection:", e);
});

async function shutdown() {
  if (browser) {
    const b = browser;
    browser = null;
    await withTimeout(b.close(), 10000, "closing the browser").catch(() => {});
  }
  killServer();
}

function skipOrFail(why) {
  if (requireBrowser) {
    console.error(`e2e: FAIL: ${why} (REQUIRE_BROWSER=1)`);
    process.exit(1);
  }
  console.log(`e2e: SKIP: ${why}; the browser tests did not run (REQUIRE_BROWSER=1 makes this a failure)`);
  process.exit(0);
}

// --- the budget scenario: the example with the most steps -------------------

const run = promisify(execFile);
let mostStepsMemo = null;
function mostSteps() {
  mostStepsMemo ??= (async () => {
    const dir = path.join(opt.site, "scenarios");
    let index;
    try {
      index = JSON.parse(readFileSync(path.join(dir, "index.json"), "utf8"));
    } catch {
      index = [];
    }
    // Kueue's scalability test (15,000 workloads) is not a scenario to step
    // through: the scalability test opens it.
    const files = index.map((e) => e.file).filter((f) => f && !f.startsWith("scalability-"));
    if (isExecutable(opt.bin) && files.length) {
      const counts = [];
      for (let i = 0; i < files.length; i += 8) {
        const chunk = files.slice(i, i + 8);
        counts.push(
          ...(await Promise.all(
            chunk.map(async (f) => {
              try {
                const { stdout } = await run(opt.bin, ["run", path.join(dir, f)], { maxBuffer: 64 << 20 });
                return { file: f, steps: (stdout.match(/^#\d+ /gm) ?? []).length };
              } catch {
                return { file: f, steps: 0 };
              }
            }),
          )),
        );
      }
      counts.sort((a, b) => b.steps - a.steps || a.file.localeCompare(b.file));
      if (counts[0]?.steps > 0) return { name: counts[0].file.replace(/\.yaml$/, ""), steps: counts[0].steps, by: "most steps (kueueplay run)" };
    }
    return { name: "kep4378-horizontal-stall-gate-off", steps: null, by: "fallback (no kueueplay binary or index.json)" };
  })();
  return mostStepsMemo;
}

// --- main -----------------------------------------------------------------

async function main() {
  const chromium = findChromium();
  if (!chromium.path) skipOrFail(chromium.why);

  let pw;
  try {
    pw = await import("playwright-core");
  } catch (e) {
    console.error(
      `e2e: FAIL: cannot load playwright-core (${e.code ?? e.message}); run: (cd e2e && npm ci --ignore-scripts --no-audit --no-fund)`,
    );
    process.exit(1);
  }

  let baseURL = opt.url?.replace(/\/$/, "");
  if (!baseURL) {
    if (!existsSync(path.join(opt.site, "index.html"))) {
      console.error(`e2e: FAIL: ${opt.site}/index.html does not exist; run make site first`);
      process.exit(1);
    }
    if (!isExecutable(opt.bin)) {
      console.log(`e2e: building ${path.relative(process.cwd(), opt.bin)}`);
      mkdirSync(path.dirname(opt.bin), { recursive: true });
      execFileSync(process.env.GO || "go", ["build", "-o", opt.bin, "./cmd/kueueplay"], { cwd: root, stdio: "inherit" });
    }
    server = await startServer(opt.bin, opt.site);
    baseURL = server.url;
  }
  const shotsDir = prepareOut(opt.out);

  const tl = Date.now();
  try {
    const launched = await withTimeout(launchChromium(pw, chromium.path, CHROMIUM_ARGS), 80000, "launching Chromium");
    browser = launched.browser;
    if (launched.note) console.log(`e2e: note: ${launched.note}`);
  } catch (e) {
    killServer();
    skipOrFail(`Chromium at ${chromium.path} did not start: ${e.message.split("\n")[0]}`);
  }
  const launchMs = Date.now() - tl;
  console.log(
    `e2e: Chromium ${browser.version()} (${chromium.path}, launched in ${launchMs} ms), site ${baseURL}/, ` +
      `${selected.length} test(s), viewport ${VIEWPORT.width}x${VIEWPORT.height}`,
  );

  const budgets = {};
  const info = { bin: opt.bin, site: opt.site, mostSteps, budgetDetail: {} };
  const results = [];
  for (const test of selected) {
    if (stopping) break;
    const env = new TestEnv({ browser, baseURL, shotsDir, name: test.name, budgets, info });
    const start = Date.now();
    let error = null;
    try {
      await withTimeout(test.run(env), test.timeoutMs ?? 45000, `test ${test.name}`);
    } catch (e) {
      error = e;
    }
    if (error && env.page && !env.page.isClosed()) {
      await withTimeout(env.shot(env.page, `FAIL-${test.name}.png`), 5000, "the failure screenshot").catch(() => {});
    }
    if (stopping) break;
    const pageErrors = [...env.errors.list];
    if (pageErrors.some((e) => e.includes("Content Security Policy"))) {
      pageErrors.push(...(await withTimeout(env.cspDetails(), 5000, "reading CSP violations").catch(() => [])));
    }
    await env.close();
    const ms = Date.now() - start;
    const failed = error || pageErrors.length;
    const lines = [];
    if (error) lines.push(error instanceof Fail ? error.message : (error.stack ?? String(error)).split("\n").slice(0, 6).join("\n      "));
    for (const e of pageErrors.slice(0, 10)) lines.push(e);
    if (pageErrors.length > 10) lines.push(`… and ${pageErrors.length - 10} more page errors`);
    console.log(`${failed ? "FAIL" : "PASS"} ${test.name.padEnd(14)} ${(ms / 1000).toFixed(1).padStart(5)} s`);
    for (const l of lines) console.log(`    ${l}`);
    for (const n of env.notes) console.log(`    note: ${n}`);
    for (const s of env.shots) console.log(`    screenshot: ${s}`);
    results.push({ name: test.name, ok: !failed, ms, errors: lines, notes: env.notes, screenshots: env.shots });
  }

  if (stopping) return new Promise(() => {}); // the signal handler exits
  printBudgets(budgets);
  const budgetFile = path.join(opt.out, "budgets.json");
  writeJSON(budgetFile, {
    date: new Date().toISOString(),
    chromium: browser.version(),
    url: baseURL,
    viewport: VIEWPORT,
    metrics: budgets,
    detail: info.budgetDetail,
    tests: results.map(({ name, ok, ms }) => ({ name, ok, ms })),
  });

  const failed = results.filter((r) => !r.ok);
  const total = ((Date.now() - t0) / 1000).toFixed(1);
  console.log(`\nwrote ${path.relative(process.cwd(), budgetFile)}; screenshots in ${path.relative(process.cwd(), shotsDir)}/`);
  console.log(
    failed.length
      ? `e2e: FAIL: ${failed.length} of ${results.length} failed (${failed.map((r) => r.name).join(", ")}) in ${total} s`
      : `e2e: PASS: ${results.length} tests in ${total} s`,
  );
  await shutdown();
  return failed.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  async (e) => {
    console.error(`e2e: FAIL: ${e instanceof Fail ? e.message : (e.stack ?? e)}`);
    await shutdown();
    process.exit(1);
  },
);
