package trace_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kueueplay/kueueplay/core/trace"
)

// TestRangeSink: a RangeSink fed a run's steps one at a time keeps what
// Trace.Slice gives for the same range, for every gallery scenario and
// ranges at the start, the middle and the end.
func TestRangeSink(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(scenarioDir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenario in %s (%v)", scenarioDir, err)
	}
	for _, f := range files {
		tr := runScenario(t, f)
		last := len(tr.Steps) - 1
		mid := last / 2
		for name, r := range map[string][2]int{
			"whole": {0, last}, "first": {0, 0}, "from 1": {1, last}, "middle": {mid, mid},
			"middle on": {mid, last}, "last": {last, last}, "to past the end": {mid, last + 5},
		} {
			t.Run(strings.TrimSuffix(filepath.Base(f), ".yaml")+"/"+name, func(t *testing.T) {
				if r[0] > last {
					t.Skip("too few steps")
				}
				var got []trace.Step
				s := trace.RangeSink{From: r[0], To: r[1], Write: func(_ *trace.Trace, st *trace.Step) { got = append(got, *st) }}
				for i := range tr.Steps {
					s.Step(tr, &tr.Steps[i])
				}
				if s.Steps != len(tr.Steps) {
					t.Errorf("Steps = %d, want %d", s.Steps, len(tr.Steps))
				}
				want := tr.Slice(r[0], min(r[1], last)).Steps
				if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
					t.Errorf("RangeSink differs from Slice (-Slice +RangeSink):\n%s", d)
				}
			})
		}
	}
}
