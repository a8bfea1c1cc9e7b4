// ab.mjs compares re-runs of the default scenario on two builds of the
// site, interleaved one for one in the same browser (A, B, A, B...), so
// that both meet the same load on a shared machine:
//
//   CHROMIUM=/usr/bin/chromium node e2e/ab.mjs SITE_A BIN_A SITE_B BIN_B [ROUNDS]
//
// Each side is `kueueplay serve` (BIN) on its built site (SITE, make
// site's build/site copied aside). It clicks #run ROUNDS times (20) on
// each page in turn and prints, per build, the median and max of the
// page's "kueueplay:run" measures and of the worker's decode, simulate
// and layout measures, then every run.
import { chromium } from "playwright-core";
import { startServer } from "./lib/harness.mjs";

const [aDir, aBin, bDir, bBin, roundsArg] = process.argv.slice(2);
if (!bBin) {
  console.error("usage: node e2e/ab.mjs SITE_A BIN_A SITE_B BIN_B [ROUNDS]");
  process.exit(2);
}
const rounds = Number(roundsArg || 20);
const servers = [await startServer(aBin, aDir), await startServer(bBin, bDir)];
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium" });
try {
  const open = async (url) => {
    const ctx = await browser.newContext({ viewport: { width: 1366, height: 800 } });
    const p = await ctx.newPage();
    await p.goto(url + "/");
    await p.waitForFunction(
      () => document.getElementById("app")?.dataset.ready === "true" && document.getElementById("editor")?.dataset.ready === "true",
      null,
      { timeout: 60000 },
    );
    return p;
  };
  const pages = [await open(servers[0].url), await open(servers[1].url)];
  const click = async (p) => {
    const n = await p.evaluate(() => performance.getEntriesByName("kueueplay:run", "measure").length);
    await p.click("#run");
    await p.waitForFunction(
      (n) => performance.getEntriesByName("kueueplay:run", "measure").length > n && document.getElementById("status").dataset.state !== "running",
      n,
      { timeout: 30000 },
    );
    await p.waitForTimeout(150);
  };
  for (let i = 0; i < rounds; i++) for (const p of pages) await click(p);
  const names = ["kueueplay:run", "kueueplay:engine-decode", "kueueplay:engine-simulate", "kueueplay:engine-layout"];
  const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  for (const [k, p] of pages.entries()) {
    const r = await p.evaluate(
      ({ names, rounds }) => Object.fromEntries(names.map((n) => [n, performance.getEntriesByName(n, "measure").slice(-rounds).map((m) => Math.round(m.duration * 10) / 10)])),
      { names, rounds },
    );
    const side = "AB"[k];
    console.log(side, Object.entries(r).map(([n, v]) => `${n.replace("kueueplay:", "")} median ${median(v)} max ${Math.max(...v)}`).join("; "));
    console.log(side, "runs", r["kueueplay:run"].join(" "));
  }
} finally {
  await browser.close();
  for (const s of servers) s.stop();
}
