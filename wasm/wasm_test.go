//go:build !js

package main_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
	"github.com/kueueplay/kueueplay/internal/scalability"
)

// driver loads the module the way a page does (wasm_exec.js), calls
// kueueplay.simulate on each scenario file named after the module and
// prints the JSON each call returns, one per line.
const driver = `
const fs = require("fs");
require(process.argv[2]);
const go = new Go();
WebAssembly.instantiate(fs.readFileSync(process.argv[3]), go.importObject).then((r) => {
  go.run(r.instance);
  for (const file of process.argv.slice(4)) {
    fs.writeSync(1, globalThis.kueueplay.simulate(fs.readFileSync(file, "utf8")) + "\n");
  }
  process.exit(0);
});
`

// TestWASMMatchesNative builds the browser module, runs every scenario
// under testdata/scenarios in it under Node, and checks that each trace
// JSON is byte-identical to the native one (and, read back, writes the
// same text).
func TestWASMMatchesNative(t *testing.T) {
	node := needNode(t)
	files, err := filepath.Glob(filepath.Join("..", "testdata", "scenarios", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios under testdata/scenarios (%v)", err)
	}
	dir := t.TempDir()
	wasm := buildModule(t, dir)
	js := filepath.Join(dir, "driver.js")
	if err := os.WriteFile(js, []byte(driver), 0o644); err != nil {
		t.Fatal(err)
	}
	execJS := filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js")
	out, err := exec.Command(node, append([]string{js, execJS, wasm}, files...)...).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(files) {
		t.Fatalf("node printed %d results for %d scenarios", len(lines), len(files))
	}
	for i, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".yaml"), func(t *testing.T) {
			var resp struct {
				Trace json.RawMessage `json:"trace"`
				Error string          `json:"error"`
			}
			if err := json.Unmarshal([]byte(lines[i]), &resp); err != nil {
				t.Fatalf("decoding %q: %v", lines[i][:min(len(lines[i]), 200)], err)
			}
			if resp.Error != "" {
				t.Fatalf("simulate: %s", resp.Error)
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sc, err := scenario.Decode("scenario.yaml", data)
			if err != nil {
				t.Fatal(err)
			}
			tr := sim.Run(sc, sim.Options{})
			native, err := json.Marshal(tr)
			if err != nil {
				t.Fatal(err)
			}
			if string(native) != string(resp.Trace) {
				t.Errorf("WASM trace differs from the native one (-native +wasm):\n%s", cmp.Diff(string(native), string(resp.Trace)))
			}
			// The text form is not in the module; it is a function of
			// the trace (core/trace's tests run under WebAssembly too), so
			// the WASM's JSON, read back natively, must write the native
			// text.
			var back trace.Trace
			if err := json.Unmarshal(resp.Trace, &back); err != nil {
				t.Fatal(err)
			}
			var want, got strings.Builder
			if err := trace.Format(&want, tr); err != nil {
				t.Fatal(err)
			}
			if err := trace.Format(&got, &back); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want.String(), got.String()); d != "" {
				t.Errorf("the WASM trace, read back, writes a different text trace (-native +wasm):\n%s", d)
			}
		})
	}
}

// workerDriver starts the module as site/engine.js starts it in the
// engine's Web Worker (wasm/worker.go), under Node: a worker's globals,
// postMessage recording its results and panels as lines ({type, id,
// end}: the other answers depend on how fast it runs), and
// the page's messages posted by a script: "run" (a long run of the text
// in argv[4], id 1), then, at the first progress line, "cancel" (its id)
// or "run" again (id 2, the text in argv[5]). It exits at the last run's
// "panels".
const workerDriver = `
const fs = require("fs");
require(process.argv[2]);
globalThis.WorkerGlobalScope = function () {};
globalThis.self = globalThis;
const [mode, long, short] = process.argv.slice(4);
const request = JSON.stringify({ file: "s.yaml", variants: [{}], maxSteps: 100000, overview: true });
let last = 1, acted = false;
globalThis.postMessage = (m) => {
  const o = typeof m === "string" ? JSON.parse(m) : m;
  const line = { type: o.type, id: o.id ?? 0 };
  if (o.type === "result" && o.summary) line.end = JSON.parse(o.summary).sides.map((s) => s.end).join(",");
  if (o.type === "result" && o.error) line.error = o.error;
  if (o.type === "result" || o.type === "panels") fs.writeSync(1, JSON.stringify(line) + "\n");
  if (o.type === "progress" && !acted) {
    acted = true;
    if (mode === "newer") last = 2;
    // A task of its own, as the page's messages come: it runs only once
    // the worker has returned to its event loop.
    setTimeout(() => {
      if (mode === "cancel") self.kueueplayWorker({ type: "cancel", id: 1 });
      if (mode === "newer") self.kueueplayWorker({ type: "run", id: 2, request, text: fs.readFileSync(short, "utf8"), left: 0, right: -1 });
    }, 0);
  }
  if (o.type === "panels" && o.id === last) process.exit(0);
};
setTimeout(() => { fs.writeSync(1, "timeout\n"); process.exit(1); }, 120000);
const go = new Go();
WebAssembly.instantiate(fs.readFileSync(process.argv[3]), go.importObject).then((r) => {
  go.run(r.instance);
  self.kueueplayWorker({ type: "run", id: 1, request, text: fs.readFileSync(long, "utf8"), left: 0, right: -1 });
});
`

// TestWorker runs the engine's worker under Node on a long run (Kueue's
// scalability shape at 1,500 workloads) and checks its answers: a run
// that goes to its end, one cancelled at its first pause, and one that a
// newer run supersedes there (the pause must let the page's message in
// before the run goes on: worker.go's yield).
func TestWorker(t *testing.T) {
	node := needNode(t)
	dir := t.TempDir()
	wasm := buildModule(t, dir)
	var buf bytes.Buffer
	if _, err := scalability.Write(&buf, 1500, 100*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	long := filepath.Join(dir, "long.yaml")
	if err := os.WriteFile(long, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	short := filepath.Join("..", "testdata", "scenarios", "default.yaml")
	js := filepath.Join(dir, "driver.js")
	if err := os.WriteFile(js, []byte(workerDriver), 0o644); err != nil {
		t.Fatal(err)
	}
	execJS := filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js")
	type line struct {
		Type  string `json:"type"`
		ID    int    `json:"id"`
		End   string `json:"end,omitempty"`
		Error string `json:"error,omitempty"`
	}
	for _, tc := range []struct {
		name string
		want []line
	}{
		{"whole", []line{{Type: "result", ID: 1, End: "quiescent"}, {Type: "panels", ID: 1}}},
		{"cancel", []line{{Type: "result", ID: 1, End: "stopped"}, {Type: "panels", ID: 1}}},
		{"newer", []line{{Type: "result", ID: 2, End: "quiescent"}, {Type: "panels", ID: 2}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := exec.Command(node, js, execJS, wasm, tc.name, long, short).Output()
			if err != nil {
				t.Fatalf("node: %v\n%s", err, out)
			}
			var got []line
			for _, s := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
				var l line
				if err := json.Unmarshal([]byte(s), &l); err != nil {
					t.Fatalf("%q: %v", s, err)
				}
				got = append(got, l)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("the worker's answers (-want +got):\n%s", d)
			}
		})
	}
}

// needNode returns the path of node, or skips the test without it
// (fails it when REQUIRE_BROWSER is set, as in CI).
func needNode(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("REQUIRE_BROWSER") != "" {
			t.Fatalf("node is required (REQUIRE_BROWSER is set): %v", err)
		}
		t.Skip("node not found")
	}
	return node
}

// buildModule builds this package's WebAssembly module into dir and
// returns its path.
func buildModule(t *testing.T, dir string) string {
	t.Helper()
	wasm := filepath.Join(dir, "kueueplay.wasm")
	build := exec.Command("go", "build", "-o", wasm, ".")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the WASM module: %v\n%s", err, out)
	}
	return wasm
}
