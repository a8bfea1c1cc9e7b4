//go:build !js

package main_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
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
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("REQUIRE_BROWSER") != "" {
			t.Fatalf("node is required (REQUIRE_BROWSER is set): %v", err)
		}
		t.Skip("node not found")
	}
	files, err := filepath.Glob(filepath.Join("..", "testdata", "scenarios", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios under testdata/scenarios (%v)", err)
	}
	dir := t.TempDir()
	wasm := filepath.Join(dir, "kueueplay.wasm")
	build := exec.Command("go", "build", "-o", wasm, ".")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the WASM module: %v\n%s", err, out)
	}
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
