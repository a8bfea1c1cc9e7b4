package sim_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/check"
	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
)

// update rewrites the golden traces: go test ./core/sim -run TestGolden -update
// (or make golden). Never set it in CI.
var update = flag.Bool("update", false, "rewrite testdata/golden/*.trace from the current engine")

const (
	scenarioDir = "../../testdata/scenarios"
	goldenDir   = "../../testdata/golden"
)

// TestGolden runs every scenario under testdata/scenarios and compares its
// text trace with testdata/golden/NAME.trace. The same test runs natively
// and compiled to WebAssembly under Node, so both must produce these exact
// bytes.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(scenarioDir, "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no scenario in %s", scenarioDir)
	}
	seen := map[string]bool{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		seen[name+".trace"] = true
		t.Run(name, func(t *testing.T) {
			sc := decodeFile(t, f)
			var got bytes.Buffer
			var full fullStates
			observe := func(s *sim.State, st *trace.Step) {
				for _, v := range sim.CheckInvariants(s) {
					t.Errorf("step %d: invariant broken: %s", st.Index, v)
				}
				full.observe(s, st)
			}
			tr := sim.Run(sc, sim.Options{Observe: observe})
			full.check(t, tr)
			// Without Observe, Run steps one State in place instead of
			// copying it: the trace must not tell.
			if d := check.Rerun(sc, nil, tr); d != "" {
				t.Error(d)
			}
			if err := trace.Format(&got, tr); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join(goldenDir, name+".trace")
			if *update {
				if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run `make golden` to create it)", err)
			}
			if d := cmp.Diff(string(want), got.String()); d != "" {
				t.Errorf("trace differs from %s (-want +got):\n%s", golden, d)
			}
		})
	}
	if *update {
		return
	}
	stale, _ := filepath.Glob(filepath.Join(goldenDir, "*.trace"))
	for _, g := range stale {
		if !seen[filepath.Base(g)] {
			t.Errorf("%s has no scenario; delete it", g)
		}
	}
}

// TestSink: a run whose steps go to a sink (what the CLI does) writes the
// same text and JSON as the whole trace, for every golden scenario.
func TestSink(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(scenarioDir, "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".yaml"), func(t *testing.T) {
			sc := decodeFile(t, f)
			whole := sim.Run(sc, sim.Options{})
			var wantText, wantJSON, gotText, gotJSON bytes.Buffer
			if err := trace.Format(&wantText, whole); err != nil {
				t.Fatal(err)
			}
			if err := trace.WriteJSON(&wantJSON, whole); err != nil {
				t.Fatal(err)
			}
			fm, jw := trace.NewFormatter(&gotText), trace.NewJSONWriter(&gotJSON)
			streamed := sim.Run(sc, sim.Options{Sink: func(tr *trace.Trace, st *trace.Step) {
				fm.Step(tr, st)
				jw.Step(tr, st)
			}})
			if len(streamed.Steps) != 0 {
				t.Errorf("a run with a sink kept %d steps", len(streamed.Steps))
			}
			if err := fm.Close(streamed); err != nil {
				t.Fatal(err)
			}
			if err := jw.Close(streamed); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(wantText.String(), gotText.String()); d != "" {
				t.Errorf("text through the sink (-whole +sink):\n%s", d)
			}
			if d := cmp.Diff(wantJSON.String(), gotJSON.String()); d != "" {
				t.Errorf("JSON through the sink (-whole +sink):\n%s", d)
			}
		})
	}
}

// decodeFile reads and decodes one scenario file.
func decodeFile(t *testing.T, f string) *core.Scenario {
	t.Helper()
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Decode(f, data)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	return sc
}
