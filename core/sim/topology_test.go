package sim_test

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/core/sim"
)

// TestMissingTopology checks Kueue's TopologyNotFound inactive state
// (clusterQueue.inactiveReason): with the TopologyAwareScheduling gate on
// (its v0.16.1 default), a ClusterQueue using a flavor whose Topology does
// not exist cannot admit; with the gate off, Kueue ignores topologyName.
func TestMissingTopology(t *testing.T) {
	data, err := os.ReadFile("../../testdata/scenarios/inactive-missing-topology.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Decode("inactive-missing-topology.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		gates core.FeatureGates
		want  map[string]string
	}{
		"gate on by default": {
			want: map[string]string{"team-b": `Can't admit new workloads; clusterQueue there is no Topology "missing" for TAS flavor "tas-b"`},
		},
		"gate off": {
			gates: core.FeatureGates{core.GateTopologyAwareScheduling: false},
			want:  map[string]string{},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := sim.New(sc, tc.gates)
			got := map[string]string{}
			for _, q := range s.Queues {
				if !q.Active {
					got[q.Spec.Name] = q.InactiveReason
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("inactive ClusterQueues (-want +got):\n%s", diff)
			}
		})
	}
}
