package sim_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/coretest"
	"github.com/kueueplay/kueueplay/core/sim"
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
