package sim_test

import (
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/coretest"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
)

// TestUsageRowsOutsideQuota: a workload pasted admitted on a flavor its
// ClusterQueue has no quota for still shows its usage, in a row of its
// own in flavor order (the rows' layout is otherwise fixed for the run).
func TestUsageRowsOutsideQuota(t *testing.T) {
	wl := coretest.MakeWorkload("default", "pasted", "lq", 2).Request(core.ResourceCPU, "1").Obj()
	wl.Admission = &core.Admission{ClusterQueue: "cq", PodSets: []core.PodSetAdmission{{
		Name: "main", Count: 2, Flavors: map[core.ResourceName]core.FlavorName{core.ResourceCPU: "b-unlisted"},
	}}}
	sc := &core.Scenario{
		Name:          "outside",
		Flavors:       []core.ResourceFlavor{coretest.Flavor("a"), coretest.Flavor("c")},
		ClusterQueues: []core.ClusterQueue{coretest.MakeClusterQueue("cq").Group(core.ResourceCPU).Flavor("a", "4").Flavor("c", "1").Obj()},
		LocalQueues:   []core.LocalQueue{{Namespace: "default", Name: "lq", ClusterQueue: "cq"}},
		Workloads:     []core.Workload{wl},
	}
	tr := sim.Run(sc, sim.Options{})
	type row struct {
		Flavor      string
		Used, Quota int64
	}
	var got []row
	for _, r := range tr.Steps[0].Usage {
		got = append(got, row{r.Flavor, r.Used, r.Nominal})
	}
	want := []row{{"a", 0, 4000}, {"b-unlisted", 2000, 0}, {"c", 0, 1000}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("usage rows (-want +got):\n%s", d)
	}
}

// TestReportsStay: without Observe, Run reuses the space of the full
// usage and queues the trace does not keep (recycler), and a queue's
// lists can also shrink and grow again; the trace must still replay to
// every step's usage and queues as they were reported, with the lists
// kept in whole steps unchanged by the later steps that write recycled
// space.
func TestReportsStay(t *testing.T) {
	sc := perfScenario()
	until := 12 * time.Second
	sc.Until = &until
	type seen struct {
		usage  []trace.UsageRow
		queues []trace.QueueState
	}
	var steps []seen
	full := 0
	tr := sim.Run(sc, sim.Options{Stop: func(st *trace.Step) bool {
		qs := slices.Clone(st.Queues)
		for i := range qs {
			q := &qs[i]
			q.Pending, q.Parked, q.Admitted, q.Terminating = slices.Clone(q.Pending), slices.Clone(q.Parked), slices.Clone(q.Admitted), slices.Clone(q.Terminating)
			if len(q.Pending) == sim.QueueListCap {
				full++
			}
		}
		steps = append(steps, seen{slices.Clone(st.Usage), qs})
		return false
	}})
	if tr.Cycles < 500 || full == 0 || len(steps) < 3*trace.KeyframeInterval {
		t.Fatalf("%d cycles, %d steps and %d full pending lists: too short a run to reuse the reports' space", tr.Cycles, len(steps), full)
	}
	r := trace.NewReplay(tr)
	for i := 0; r.Next(); i++ {
		if i >= len(steps) {
			t.Fatalf("the trace has more steps than the %d reported", len(steps))
		}
		if d := cmp.Diff(steps[i].usage, r.Usage()); d != "" {
			t.Fatalf("step %d's usage as the trace replays it (-reported +replayed):\n%s", i, d)
		}
		if d := cmp.Diff(steps[i].queues, r.Queues(), cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("step %d's queues as the trace replays it (-reported +replayed):\n%s", i, d)
		}
	}
	if r.Broken() || r.Index() != len(steps)-1 {
		t.Fatalf("the replay ended at step %d (broken %t) of %d", r.Index(), r.Broken(), len(steps))
	}
}
