package sim_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
)

// TestSearchMemo runs every scenario of testdata/scenarios (the gallery),
// fuzzed scenarios, the benchmark's shape and Kueue's scalability shape
// with the flavor search's memo on and off: the traces, JSON and text,
// must be byte for byte the same.
func TestSearchMemo(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(scenarioDir, "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no scenario in %s", scenarioDir)
	}
	type tc struct {
		name string
		sc   func(t *testing.T) *core.Scenario
	}
	var cases []tc
	for _, f := range files {
		cases = append(cases, tc{strings.TrimSuffix(filepath.Base(f), ".yaml"), func(t *testing.T) *core.Scenario { return decodeFile(t, f) }})
	}
	for seed := range 40 {
		cases = append(cases, tc{fmt.Sprintf("fuzz-%d", seed), func(*testing.T) *core.Scenario {
			data := make([]byte, 256)
			x := uint32(seed*2654435761 + 1)
			for i := range data {
				x ^= x << 13
				x ^= x >> 17
				x ^= x << 5
				data[i] = byte(x)
			}
			return scenarioFromBytes(data)
		}})
	}
	if !testing.Short() && runtime.GOARCH != "wasm" {
		// Natively only: two traces of 15,000 workloads and their
		// encodings outgrow what a WebAssembly test has.
		cases = append(cases, tc{"bench", func(*testing.T) *core.Scenario { return benchScenario() }},
			tc{"perf-baseline", func(*testing.T) *core.Scenario { return perfScenario() }})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sc := c.sc(t)
			sameTrace(t, sim.RunWithoutMemo(sc, sim.Options{}), sim.Run(sc, sim.Options{}))
		})
	}
}

// sameTrace fails t unless want and got are the same trace byte for
// byte: each step's JSON, the header's, and the text (compared by digest:
// a long run's text is hundreds of MB).
func sameTrace(t *testing.T, want, got *trace.Trace) {
	t.Helper()
	for i := range min(len(want.Steps), len(got.Steps)) {
		w, g := stepJSON(t, &want.Steps[i]), stepJSON(t, &got.Steps[i])
		if !bytes.Equal(w, g) {
			t.Fatalf("the memo changes step %d (-off +on):\n%s", i, cmp.Diff(string(w), string(g)))
		}
	}
	if len(want.Steps) != len(got.Steps) {
		t.Fatalf("the memo changes the trace: %d steps off, %d on", len(want.Steps), len(got.Steps))
	}
	ws, gs := want.Steps, got.Steps
	want.Steps, got.Steps = nil, nil
	w, g := stepJSON(t, want), stepJSON(t, got)
	want.Steps, got.Steps = ws, gs
	if !bytes.Equal(w, g) {
		t.Fatalf("the memo changes the trace's header (-off +on):\n%s", cmp.Diff(string(w), string(g)))
	}
	if w, g := textDigest(t, want), textDigest(t, got); w != g {
		t.Fatalf("the memo changes the text trace (digest %x off, %x on)", w, g)
	}
}

func stepJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func textDigest(t *testing.T, tr *trace.Trace) [sha256.Size]byte {
	t.Helper()
	h := sha256.New()
	if err := trace.Format(h, tr); err != nil {
		t.Fatal(err)
	}
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out
}
