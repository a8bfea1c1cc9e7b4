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
// kueueplay.simulate on the scenario and prints the JSON it returns.
const driver = `
const fs = require("fs");
require(process.argv[2]);
const go = new Go();
WebAssembly.instantiate(fs.readFileSync(process.argv[3]), go.importObject).then((r) => {
  go.run(r.instance);
  const out = globalThis.kueueplay.simulate(fs.readFileSync(process.argv[4], "utf8"));
  process.stdout.write(out);
  process.exit(0);
});
`

// TestWASMMatchesNative builds the browser module, runs the default
// scenario in it under Node and checks that the trace JSON is identical to
// the native one.
func TestWASMMatchesNative(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("REQUIRE_BROWSER") != "" {
			t.Fatalf("node is required (REQUIRE_BROWSER is set): %v", err)
		}
		t.Skip("node not found")
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
	file := filepath.Join("..", "testdata", "scenarios", "default.yaml")
	out, err := exec.Command(node, js, execJS, wasm, file).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var resp struct {
		Trace json.RawMessage `json:"trace"`
		Text  string          `json:"text"`
		Error string          `json:"error"`
	}
	if err := json.Unmarshal(out, &resp); err != nil {
		t.Fatalf("decoding %q: %v", strings.TrimSpace(string(out[:min(len(out), 200)])), err)
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
	if d := cmp.Diff(string(native), string(resp.Trace)); d != "" {
		t.Errorf("WASM trace differs from the native one (-native +wasm):\n%s", d)
	}
	var text strings.Builder
	if err := trace.Format(&text, tr); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(text.String(), resp.Text); d != "" {
		t.Errorf("WASM text trace differs from the native one (-native +wasm):\n%s", d)
	}
}
