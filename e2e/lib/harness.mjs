// The runner's machinery: the site server, the browser, one fresh context
// per test with its errors collected, screenshots, budgets and the report.
// Nothing here knows the page; the tests and lib/page.mjs do.

import { spawn } from "node:child_process";
import { accessSync, constants, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

// The flags measured in /work/shared/reference/runtimes-and-browser.md §3.
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

// The Chromium features the tests turn off on top of Playwright's own
// list. Chromium 151 and later build the omnibox's popup as a WebUI page
// and preload it, in a renderer of its own, for every new window: every
// test's fresh context. Headless it is never shown, yet it takes most of
// a core for about a second at the very moment the page under test loads,
// which on a 2-core machine made the first result 0.5 to 0.8 s slower.
// Puppeteer turns the same two features off by default.
export const DISABLED_FEATURES = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup"];

// PLAYWRIGHT_DISABLED_FEATURES is Playwright 1.65.1's own
// --disable-features list (chromiumSwitches.ts). Chromium reads only the
// last --disable-features switch, so ours repeats it; launchChromium
// checks the browser's command line and, should a newer Playwright pass
// more, relaunches with the union.
const PLAYWRIGHT_DISABLED_FEATURES = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "TcpPortRandomizationWin",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
  "msForceBrowserSignIn",
  "msEdgeUpdateLaunchServicesPreferredVersion",
];

// browserCommandLines returns the command lines of this process's child
// browsers (Playwright starts Chromium with --remote-debugging-pipe), read
// from /proc; null where /proc cannot tell.
function browserCommandLines() {
  let out = [];
  try {
    for (const pid of readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      let stat;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      } catch {
        continue;
      }
      // pid (comm) state ppid ...: comm may hold spaces and parentheses.
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid !== process.pid) continue;
      const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      if (args.includes("--remote-debugging-pipe")) out.push(args);
    }
  } catch {
    return null;
  }
  return out;
}

// launchChromium launches the browser with args and the disabled
// features (ours and Playwright's in one switch). It returns {browser,
// note}, note saying when it had to relaunch to keep a feature Playwright
// disables that our copy of its list lacks.
export async function launchChromium(pw, executablePath, args, { timeout = 30000 } = {}) {
  const launch = (features) =>
    pw.chromium.launch({ executablePath, headless: true, args: [...args, `--disable-features=${features.join(",")}`], timeout });
  let features = [...new Set([...PLAYWRIGHT_DISABLED_FEATURES, ...DISABLED_FEATURES])];
  let browser = await launch(features);
  const lines = browserCommandLines();
  if (!lines || lines.length !== 1) return { browser, note: "could not read the browser's command line to check its disabled features" };
  const switches = lines[0].filter((a) => a.startsWith("--disable-features=")).map((a) => a.slice("--disable-features=".length).split(","));
  const missing = switches.slice(0, -1).flat().filter((f) => f && !features.includes(f));
  if (missing.length === 0) return { browser, note: null };
  await browser.close();
  features = [...features, ...new Set(missing)];
  browser = await launch(features);
  return { browser, note: `Playwright also disables ${missing.join(", ")}: add them to PLAYWRIGHT_DISABLED_FEATURES in e2e/lib/harness.mjs (relaunched with them)` };
}

// A laptop.
export const VIEWPORT = { width: 1366, height: 800 };

// Fail is a test failure with a message meant for a person (no stack).
export class Fail extends Error {}

export function isExecutable(p) {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

// findChromium returns $CHROMIUM or /usr/bin/chromium when executable, with
// the reason when not.
export function findChromium(env = process.env) {
  if (env.CHROMIUM) {
    return isExecutable(env.CHROMIUM)
      ? { path: env.CHROMIUM }
      : { why: `CHROMIUM=${env.CHROMIUM} is not an executable file` };
  }
  const p = "/usr/bin/chromium";
  return isExecutable(p) ? { path: p } : { why: `${p} not found (scripts/install-browser.sh installs it; or set CHROMIUM)` };
}

// startServer runs `kueueplay serve` on a free loopback port and resolves
// to {url, stop}. stop is idempotent and synchronous (it only signals).
export function startServer(bin, siteDir, { timeoutMs = 15000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ["serve", "-addr", "127.0.0.1:0", "-dir", siteDir], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    let done = false;
    const stop = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    };
    const finish = (e, v) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (e) {
        stop();
        reject(e);
      } else resolve(v);
    };
    const timer = setTimeout(
      () => finish(new Error(`kueueplay serve did not start within ${timeoutMs} ms\n${out}${err}`)),
      timeoutMs,
    );
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (d) => {
      out += d;
      const m = /serving (http:\/\/\S+?)\/? /.exec(out);
      if (m) finish(null, { url: m[1], stop, child });
    });
    child.stderr.on("data", (d) => {
      err += d;
    });
    child.on("error", (e) => finish(new Error(`cannot run ${bin}: ${e.message}`)));
    child.on("exit", (code, sig) =>
      finish(new Error(`kueueplay serve exited (${sig ?? code}) before serving:\n${out}${err}`)),
    );
  });
}

export function prepareOut(outDir) {
  const shots = path.join(outDir, "screenshots");
  mkdirSync(shots, { recursive: true });
  for (const f of readdirSync(shots)) if (f.endsWith(".png")) rmSync(path.join(shots, f));
  rmSync(path.join(outDir, "budgets.json"), { force: true });
  return shots;
}

// ErrorLog collects what makes a test fail besides its own checks: console
// errors, uncaught page errors, failed requests and HTTP errors, from every
// page of the test's contexts.
export class ErrorLog {
  constructor() {
    this.list = [];
    this.open = true;
    // allowed holds RegExps of errors a test provokes on purpose.
    this.allowed = [];
    this.ignored = 0;
  }
  add(s) {
    if (this.allowed.some((re) => re.test(s))) {
      this.ignored++;
      return;
    }
    if (this.open && !this.list.includes(s)) this.list.push(s);
  }
  watchContext(context) {
    context.on("page", (page) => this.watchPage(page));
    context.on("requestfailed", (req) => {
      const why = req.failure()?.errorText ?? "failed";
      // Navigations and context teardown abort requests in flight; that is
      // not the page's fault.
      if (why.includes("ERR_ABORTED")) return;
      // A network-first service worker tries the network before its
      // cache; offline, that try fails by design. If the cache cannot
      // answer either, the page's own request fails and is reported.
      if (req.serviceWorker() && why.includes("ERR_INTERNET_DISCONNECTED")) return;
      this.add(`request failed: ${req.method()} ${req.url()}: ${why}`);
    });
    context.on("response", (res) => {
      if (res.status() >= 400) this.add(`HTTP ${res.status()} for ${res.request().method()} ${res.url()}`);
    });
  }
  watchPage(page) {
    page.on("console", (msg) => {
      if (msg.type() !== "error") return;
      const loc = msg.location();
      const where = loc?.url ? ` (${loc.url}${loc.lineNumber ? ":" + loc.lineNumber : ""})` : "";
      this.add(`console error: ${msg.text()}${where}`);
    });
    page.on("pageerror", (e) => this.add(`page error: ${e.message}`));
  }
}

// An init script for every page: records #status data-state changes (with
// their previous values, so a synchronous running → ready is seen too) and
// CSP violations in window.__e2e.
//
// It is idempotent. A browser may run init scripts more than once in one
// window: an iframe's initial about:blank document and the document that
// replaces it share their window (Chromium 156 runs the script for both),
// and nothing promises it runs once per document either. So the log is
// made once per window (a second run finds window.__e2e instead of
// defining it again, which throws) and the listeners are attached once per
// document.
export const INIT_SCRIPT = `(() => {
  let log = window.__e2e;
  if (!log || typeof log !== "object" || !Array.isArray(log.status)) {
    log = { status: [], csp: [], docs: new WeakSet() };
    Object.defineProperty(window, "__e2e", { value: log, configurable: true });
  }
  if (log.docs.has(document)) return;
  log.docs.add(document);
  document.addEventListener("securitypolicyviolation", (e) => {
    const t = e.target;
    const where = t && t.nodeType === 1 ? t.outerHTML.slice(0, 120) : String(t);
    log.csp.push(e.effectiveDirective + " blocked " + (e.blockedURI || "inline") + (e.sample ? " (" + e.sample + ")" : "") + " on " + where);
  });
  new MutationObserver((recs) => {
    for (const r of recs) {
      if (r.target.id === "status" && r.attributeName === "data-state") {
        log.status.push({ from: r.oldValue, to: r.target.getAttribute("data-state"), t: performance.now() });
      }
    }
  }).observe(document, { subtree: true, attributes: true, attributeOldValue: true, attributeFilter: ["data-state"] });
})();`;

// TestEnv is what a test gets: a fresh context and page, more contexts on
// request, screenshots and budgets. Everything it opens is closed by
// close().
export class TestEnv {
  constructor({ browser, baseURL, shotsDir, name, budgets, info }) {
    this.browser = browser;
    this.baseURL = baseURL;
    this.shotsDir = shotsDir;
    this.name = name;
    this.budgets = budgets;
    this.info = info;
    this.errors = new ErrorLog();
    this.contexts = [];
    this.notes = [];
    this.shots = [];
  }

  async newContext(opts = {}) {
    const context = await this.browser.newContext({
      viewport: VIEWPORT,
      baseURL: this.baseURL,
      colorScheme: "light",
      // The share test reads what #share copied; editorText may copy.
      permissions: ["clipboard-read", "clipboard-write"],
      ...opts,
    });
    context.setDefaultTimeout(5000);
    context.setDefaultNavigationTimeout(15000);
    await context.addInitScript(INIT_SCRIPT);
    this.errors.watchContext(context);
    this.contexts.push(context);
    return context;
  }

  async newPage(opts) {
    const context = await this.newContext(opts);
    return context.newPage();
  }

  // page is the test's first page, in its own fresh context.
  async start(opts) {
    this.page = await this.newPage(opts);
    return this.page;
  }

  async shot(page, file) {
    const p = path.join(this.shotsDir, file);
    await page.screenshot({ path: p });
    this.shots.push(path.relative(process.cwd(), p));
  }

  note(s) {
    this.notes.push(s);
  }

  // allowErrors makes the errors matching re (a console error, a failed
  // request or an HTTP error status, as ErrorLog words them) not fail the
  // test: for a test that provokes them on purpose.
  allowErrors(re) {
    this.errors.allowed.push(re);
  }

  // budget records one measured number: budget is the real target
  // (reported), bound the generous limit a test asserts (optional).
  budget(key, value, { unit = "", budget, bound, label } = {}) {
    this.budgets[key] = { label: label ?? key, value, unit, budget, bound };
  }

  // cspDetails returns the CSP violations the pages saw (their console
  // errors do not say which element).
  async cspDetails() {
    const out = [];
    for (const c of this.contexts) {
      for (const p of c.pages()) {
        const v = await p.evaluate(() => window.__e2e?.csp ?? []).catch(() => []);
        out.push(...v.map((s) => `CSP violation: ${s}`));
      }
    }
    return [...new Set(out)];
  }

  async close() {
    this.errors.open = false;
    await Promise.allSettled(this.contexts.map((c) => c.close()));
    this.contexts = [];
  }
}

// withTimeout rejects with a Fail after ms.
export function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Fail(`${what} took more than ${ms / 1000} s`)), ms);
    }),
  ]);
}

export function fmtNumber(v, unit) {
  if (v == null || Number.isNaN(v)) return "-";
  if (unit === "bytes") {
    if (v >= 1e6) return `${(v / 1e6).toFixed(2)} MB`;
    if (v >= 1e3) return `${(v / 1e3).toFixed(1)} kB`;
    return `${v} B`;
  }
  if (unit === "ms") return `${v < 10 ? v.toFixed(2) : v.toFixed(0)} ms`;
  return `${v}${unit ? " " + unit : ""}`;
}

export function printBudgets(budgets, out = process.stdout) {
  const rows = Object.entries(budgets);
  if (rows.length === 0) return;
  const table = [["metric", "measured", "budget", "asserted <", "status"]];
  for (const [, b] of rows) {
    const over = b.budget != null && b.value != null && b.value > b.budget;
    const broken = b.bound != null && b.value != null && b.value >= b.bound;
    table.push([
      b.label,
      fmtNumber(b.value, b.unit),
      b.budget != null ? fmtNumber(b.budget, b.unit) : "",
      b.bound != null ? fmtNumber(b.bound, b.unit) : "",
      b.value == null ? "not measured" : broken ? "FAIL" : over ? "over budget" : b.budget != null ? "ok" : "",
    ]);
  }
  const w = table[0].map((_, i) => Math.max(...table.map((r) => r[i].length)));
  out.write("\nbudgets (first load, run, step):\n");
  for (const [k, r] of table.entries()) {
    out.write("  " + r.map((c, i) => (i === 0 ? c.padEnd(w[i]) : c.padStart(w[i]))).join("  ") + "\n");
    if (k === 0) out.write("  " + w.map((n) => "-".repeat(n)).join("  ") + "\n");
  }
}

export function writeJSON(file, value) {
  writeFileSync(file, JSON.stringify(value, null, 2) + "\n");
}
