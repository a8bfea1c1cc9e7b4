package flavor

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/coretest"
)

// TestNewPlan checks what a Plan resolves of a ClusterQueue: the
// FlavorFungibility gate, the preference order, the group covering pods,
// canPreemptWhileBorrowing and each group's ResourceFlavors (nil for one
// that does not exist).
func TestNewPlan(t *testing.T) {
	a, b := coretest.Flavor("a"), coretest.Flavor("b")
	flavors := map[core.FlavorName]*core.ResourceFlavor{"a": &a, "b": &b}
	cases := map[string]struct {
		cq    core.ClusterQueue
		gates core.FeatureGates
		want  Plan
	}{
		"one group, defaults": {
			cq:   coretest.MakeClusterQueue("cq").Group(core.ResourceCPU).Flavor("a", "1").Flavor("b", "1").Obj(),
			want: Plan{fungible: true, order: modeFirst, podsGroup: -1, flavors: [][]*core.ResourceFlavor{{&a, &b}}},
		},
		"pods in the second group, a flavor that does not exist": {
			cq: coretest.MakeClusterQueue("cq").Group(core.ResourceCPU).Flavor("a", "1").
				Group(core.ResourcePods).Flavor("missing", "3").Flavor("b", "3").Obj(),
			want: Plan{fungible: true, order: modeFirst, podsGroup: 1, flavors: [][]*core.ResourceFlavor{{&a}, {nil, &b}}},
		},
		"borrowWithinCohort LowerPriority": {
			cq: coretest.MakeClusterQueue("cq").Group(core.ResourceCPU).Flavor("a", "1").
				Preemption(core.PreemptionNever, core.PreemptionAny, core.PreemptionLowerPriority, nil).Obj(),
			want: Plan{fungible: true, order: modeFirst, podsGroup: -1, preemptWhileBorrowing: true, flavors: [][]*core.ResourceFlavor{{&a}}},
		},
		"FlavorFungibility off, preference BorrowingOverPreemption": {
			cq: coretest.MakeClusterQueue("cq").Group(core.ResourceCPU).Flavor("a", "1").
				Fungibility(core.TryNextFlavor, core.TryNextFlavor, core.BorrowingOverPreemption).Obj(),
			gates: core.FeatureGates{core.GateFlavorFungibility: false},
			want:  Plan{order: borrowingFirst, podsGroup: -1, flavors: [][]*core.ResourceFlavor{{&a}}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := NewPlan(&tc.cq, flavors, tc.gates)
			if !got.For(&tc.cq) {
				t.Errorf("For(its own ClusterQueue) = false")
			}
			other := tc.cq
			if got.For(&other) {
				t.Errorf("For(a copy of the ClusterQueue) = true")
			}
			tc.want.cq = &tc.cq
			if diff := cmp.Diff(&tc.want, got, cmp.AllowUnexported(Plan{})); diff != "" {
				t.Errorf("NewPlan (-want +got):\n%s", diff)
			}
		})
	}
}
