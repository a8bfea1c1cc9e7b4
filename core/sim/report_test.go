package sim_test

import (
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

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

// TestPendingListsStay: a queue's pending list is often the next window
// of the array the list before it is in (pendingKeysAfter), and a list
// can also shrink and grow again; every list a step reported must stay as
// it was while later steps write that array. Run steps one State in place,
// as the windows' owner.
func TestPendingListsStay(t *testing.T) {
	sc := perfScenario()
	until := 12 * time.Second
	sc.Until = &until
	type kept struct {
		step      int
		got, want []string
	}
	var lists []kept
	full := 0
	tr := sim.Run(sc, sim.Options{Stop: func(st *trace.Step) bool {
		for _, q := range st.Queues {
			lists = append(lists, kept{st.Index, q.Pending, slices.Clone(q.Pending)})
			if len(q.Pending) == sim.QueueListCap {
				full++
			}
		}
		return false
	}})
	if tr.Cycles < 500 || full == 0 {
		t.Fatalf("%d cycles and %d full pending lists: too short a run to move the lists", tr.Cycles, full)
	}
	for _, l := range lists {
		if d := cmp.Diff(l.want, l.got); d != "" {
			t.Fatalf("step %d's pending list changed after it was reported (-want +got):\n%s", l.step, d)
		}
	}
}
