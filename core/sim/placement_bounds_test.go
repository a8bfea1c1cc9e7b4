package sim_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
)

// boundsScenario has nodes n-00.. and a Deployment of replicas pods of
// 1 cpu, scaled to scaleTo at 1m and again (no change) at 2m; each node
// takes 2 pods.
func boundsScenario(t *testing.T, nodes, replicas, scaleTo int) *trace.Trace {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: kueueplay/v1alpha1\nkind: Scenario\nmetadata: {name: bounds}\nspec:\n  events:\n  - {at: 1m, scale: shop/web, replicas: %d}\n  - {at: 2m, scale: shop/web, replicas: %d}\n", scaleTo, scaleTo)
	for i := range nodes {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Node\nmetadata: {name: n-%02d}\nstatus: {allocatable: {cpu: \"2\", memory: 8Gi, pods: \"110\"}}\n", i)
	}
	fmt.Fprintf(&b, "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec:\n  replicas: %d\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c, resources: {requests: {cpu: \"1\"}}}]}\n", replicas)
	sc, err := scenario.Decode("bounds.yaml", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return sim.Run(sc, sim.Options{})
}

// TestPlacementTraceBounds checks the bounds that keep a trace's size in
// the number of steps: node verdicts for the first MaxDetailedPlacements
// placements of a step and MaxNodeRows nodes each, node rows only for the
// nodes that changed, and at most QueueListCap pending pods with their
// exact count.
func TestPlacementTraceBounds(t *testing.T) {
	const nodes = 30
	tr := boundsScenario(t, nodes, 25, 130) // 60 places: 70 pending after the scale-up
	type summary struct {
		Placements, Detailed, MaxRows, Rows, Pending, PendingCount int
	}
	sum := func(st *trace.Step) summary {
		s := summary{Placements: len(st.Placements), Rows: len(st.Nodes), Pending: len(st.PendingPods), PendingCount: st.PendingCount}
		for i, p := range st.Placements {
			if len(p.Nodes) > 0 {
				s.Detailed++
				s.MaxRows = max(s.MaxRows, len(p.Nodes))
			}
			if got := len(p.Nodes) + p.NodesOmitted; got != nodes {
				t.Errorf("step %d placement %d: %d rows + %d omitted, want every node (%d)", st.Index, i, len(p.Nodes), p.NodesOmitted, nodes)
			}
			if len(p.Nodes) == 0 && p.Weights != nil {
				t.Errorf("step %d placement %d: weights kept without node rows", st.Index, i)
			}
		}
		return s
	}
	var got []summary
	for i := range tr.Steps {
		got = append(got, sum(&tr.Steps[i]))
	}
	want := []summary{
		{Rows: nodes}, // initial: every node, nothing placed
		// 1: the Deployment's 25 pods spread one per node (LeastAllocated):
		// 25 nodes change.
		{Placements: 25, Detailed: trace.MaxDetailedPlacements, MaxRows: trace.MaxNodeRows, Rows: 25},
		// 2: scaled to 130: 35 of the 105 new pods fit, every node changes,
		// 70 stay pending (QueueListCap listed).
		{Placements: 105, Detailed: trace.MaxDetailedPlacements, MaxRows: trace.MaxNodeRows, Rows: nodes, Pending: sim.QueueListCap, PendingCount: 70},
		// 3: scaled to 130 again: nothing changes, no node row, no retry.
		{Pending: sim.QueueListCap, PendingCount: 70},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("per step (-want +got):\n%s", d)
	}
}
