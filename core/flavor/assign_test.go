package flavor

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/coretest"
	"github.com/kueueplay/kueueplay/core/quota"
)

// TestAssignKeptRequests checks that Assign given a pod set's sorted
// requests (Input.Requests, PodRequests) assigns what it assigns reading
// the pod set's map: with and without pods covered, requests in and out
// of the queue's groups, fitting or not.
func TestAssignKeptRequests(t *testing.T) {
	flavors := map[core.FlavorName]*core.ResourceFlavor{}
	for _, name := range []core.FlavorName{"a", "b"} {
		f := coretest.Flavor(name)
		flavors[name] = &f
	}
	cpuOnly := coretest.MakeClusterQueue("cq").Group(core.ResourceCPU, core.ResourceMemory).
		Flavor("a", "2", "1Gi").Flavor("b", "10", "10Gi").Obj()
	withPods := coretest.MakeClusterQueue("cq").Group(core.ResourceCPU, core.ResourceMemory, core.ResourcePods).
		Flavor("a", "2", "1Gi", "3").Flavor("b", "10", "10Gi", "10").Obj()
	cases := map[string]struct {
		cq core.ClusterQueue
		wl core.Workload
	}{
		"one resource, fits the first flavor": {cpuOnly, coretest.MakeWorkload("ns", "w", "lq", 1).Request(core.ResourceCPU, "1").Obj()},
		"two resources, the second flavor":    {cpuOnly, coretest.MakeWorkload("ns", "w", "lq", 2).Request(core.ResourceMemory, "1Gi").Request(core.ResourceCPU, "2").Obj()},
		"a resource no group covers":          {cpuOnly, coretest.MakeWorkload("ns", "w", "lq", 1).Request("example.com/gpu", "1").Request(core.ResourceCPU, "1").Obj()},
		"fits nowhere":                        {cpuOnly, coretest.MakeWorkload("ns", "w", "lq", 1).Request(core.ResourceCPU, "20").Obj()},
		"pods covered":                        {withPods, coretest.MakeWorkload("ns", "w", "lq", 4).Request(core.ResourceCPU, "1").Obj()},
		"pods covered and requested":          {withPods, coretest.MakeWorkload("ns", "w", "lq", 2).Request(core.ResourcePods, "5").Request(core.ResourceCPU, "1").Obj()},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			tree := quota.Build([]core.ClusterQueue{tc.cq}, nil, true)
			in := Input{
				ClusterQueue: &tc.cq, Node: tree.ClusterQueue(tc.cq.Name), Tree: tree, Flavors: flavors,
				PodSets: tc.wl.PodSets, Gates: core.FeatureGates{}, Oracle: noOracle{},
			}
			want := Assign(in)
			in.Requests = PodRequests(&tc.wl.PodSets[0])
			got := Assign(in)
			if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(PodSetAssignment{})); diff != "" {
				t.Errorf("Assign with kept requests (-map +kept):\n%s", diff)
			}
		})
	}
}

// noOracle finds no preemption candidates.
type noOracle struct{}

func (noOracle) SimulatePreemption(core.FlavorResource, core.Amount) OracleResult {
	return OracleResult{Mode: ModeNoCandidates}
}
