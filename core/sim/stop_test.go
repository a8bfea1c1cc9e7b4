package sim_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
)

// TestStop checks Options.Stop: the run ends right after the step for
// which Stop first returns true, with End "stopped", and the steps up to
// there are the same as in the full run.
func TestStop(t *testing.T) {
	f := filepath.Join(scenarioDir, "preemption-within-cluster-queue.yaml")
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Decode(f, data)
	if err != nil {
		t.Fatal(err)
	}
	full := sim.Run(sc, sim.Options{})
	if len(full.Steps) < 4 {
		t.Fatalf("the scenario has %d steps; the test needs at least 4", len(full.Steps))
	}
	for _, tc := range []struct {
		name   string
		stopAt int // Stop returns true from this step index on
	}{
		{"initial step", 0},
		{"second step", 1},
		{"last but one", len(full.Steps) - 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			got := sim.Run(sc, sim.Options{Stop: func(st *trace.Step) bool {
				calls++
				return st.Index >= tc.stopAt
			}})
			if got.End != "stopped" {
				t.Errorf("End = %q, want stopped", got.End)
			}
			if len(got.Steps) != tc.stopAt+1 {
				t.Errorf("%d steps, want %d", len(got.Steps), tc.stopAt+1)
			}
			if calls != len(got.Steps) {
				t.Errorf("Stop called %d times for %d steps", calls, len(got.Steps))
			}
			if diff := cmp.Diff(full.Steps[:len(got.Steps)], got.Steps); diff != "" {
				t.Errorf("steps differ from the full run (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("never", func(t *testing.T) {
		got := sim.Run(sc, sim.Options{Stop: func(*trace.Step) bool { return false }})
		if diff := cmp.Diff(full, got); diff != "" {
			t.Errorf("a Stop that never fires changed the run (-want +got):\n%s", diff)
		}
	})
}
