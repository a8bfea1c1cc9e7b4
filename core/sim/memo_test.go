package sim_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
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
	if !testing.Short() {
		cases = append(cases, tc{"bench", func(*testing.T) *core.Scenario { return benchScenario() }},
			tc{"perf-baseline", func(*testing.T) *core.Scenario { return perfScenario() }})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sc := c.sc(t)
			want := encodeTrace(t, sim.RunWithoutMemo(sc, sim.Options{}))
			got := encodeTrace(t, sim.Run(sc, sim.Options{}))
			if want == got {
				return
			}
			// The first line that differs (a whole long trace's diff
			// takes minutes).
			wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
			for i := range min(len(wl), len(gl)) {
				if wl[i] != gl[i] {
					t.Fatalf("the memo changes the trace at line %d (-off +on):\n%s", i+1, cmp.Diff(wl[i], gl[i]))
				}
			}
			t.Fatalf("the memo changes the trace: %d lines off, %d on", len(wl), len(gl))
		})
	}
}

// encodeTrace is tr as JSON then text (each step's JSON on a line of its
// own, for a short diff).
func encodeTrace(t *testing.T, tr *trace.Trace) string {
	t.Helper()
	var b strings.Builder
	for _, st := range tr.Steps {
		j, err := json.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	steps := tr.Steps
	tr.Steps = nil
	head, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	tr.Steps = steps
	b.Write(head)
	b.WriteByte('\n')
	var text bytes.Buffer
	if err := trace.Format(&text, tr); err != nil {
		t.Fatal(err)
	}
	b.Write(text.Bytes())
	return b.String()
}
