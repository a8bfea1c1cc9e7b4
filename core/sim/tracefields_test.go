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

func runFile(t *testing.T, name string) *trace.Trace {
	t.Helper()
	f := filepath.Join("..", "..", "testdata", "scenarios", name)
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Decode(f, data)
	if err != nil {
		t.Fatal(err)
	}
	return sim.Run(sc, sim.Options{})
}

// TestTraceFieldsForTheUI pins the trace fields the playground reads
// besides decisions: the terminating part of a ClusterQueue's usage, the
// preemptor on evict events, the skip reason code, the per-step changed
// flag and the scenario description.
func TestTraceFieldsForTheUI(t *testing.T) {
	// kep4378-claims-gate-off: cycle 2 evicts t/target (2 GPUs, 3s to
	// terminate) for a/p1 and skips b/p2 for overlapping targets; cycle 3
	// changes nothing.
	tr := runFile(t, "kep4378-claims-gate-off.yaml")
	if tr.Description == "" {
		t.Error("the trace has no description")
	}
	type got struct {
		Evicted, Preemptor, Skipped, SkipReason string
		Terminating                             int64
		Changed                                 bool
	}
	byCycle := map[int]got{}
	for i, st := range tr.Steps {
		if st.Kind != trace.StepCycle || st.Cycle > 3 {
			continue
		}
		g := got{Changed: st.Changed}
		for _, e := range st.Events {
			if e.Kind == trace.EventEvict {
				g.Evicted, g.Preemptor = e.Workload, e.Preemptor
			}
		}
		for _, d := range st.Decisions {
			if d.Outcome == trace.OutcomeSkipped {
				g.Skipped, g.SkipReason = d.Workload, d.SkipReason
			}
		}
		usage, _ := tr.StateAt(i)
		for _, r := range usage {
			if r.Node == "cq-t" {
				g.Terminating += r.Terminating
			}
		}
		byCycle[st.Cycle] = g
	}
	want := map[int]got{
		1: {Changed: true},
		2: {Evicted: "t/target", Preemptor: "a/p1", Skipped: "b/p2", SkipReason: "overlappingTargets", Terminating: 2, Changed: true},
		3: {Skipped: "b/p2", SkipReason: "overlappingTargets", Terminating: 2, Changed: false},
	}
	if d := cmp.Diff(want, byCycle); d != "" {
		t.Errorf("trace fields by cycle (-want +got):\n%s", d)
	}
}

// TestTraceWarnings checks that the trace carries the decoder's warnings,
// so that a saved JSON trace says what its input got wrong.
func TestTraceWarnings(t *testing.T) {
	sc, err := scenario.Decode("w.yaml", []byte(`apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: lq}
spec: {clusterQueue: missing}
`))
	if err != nil {
		t.Fatal(err)
	}
	tr := sim.Run(sc, sim.Options{})
	if diff := cmp.Diff(sc.Warnings, tr.Warnings); diff != "" || len(tr.Warnings) != 1 {
		t.Errorf("trace warnings (-scenario +trace), want 1:\n%s", diff)
	}
	if &tr.Warnings[0] == &sc.Warnings[0] {
		t.Error("the trace shares the scenario's warnings slice")
	}
}
