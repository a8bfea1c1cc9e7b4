package sim_test

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/check"
	"github.com/kueueplay/kueueplay/core/coretest"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
)

// byteSource hands out small numbers from fuzz input, then zeros.
type byteSource struct{ b []byte }

func (s *byteSource) n(max int) int {
	if len(s.b) == 0 || max <= 0 {
		return 0
	}
	v := int(s.b[0]) % max
	s.b = s.b[1:]
	return v
}

// scenarioFromBytes derives a small valid scenario: 1-3 flavors, 1-4
// ClusterQueues in up to 2 cohorts (some nested), quotas with optional
// borrowing and lending limits, every fungibility setting, preemption
// policy combination and queueing strategy, and up to 12 workloads with
// counts, priorities, arrivals, runtimes and termination delays; the
// RefreshAssignmentsDuringSchedulingCycle gate on or off.
func scenarioFromBytes(data []byte) *core.Scenario {
	src := &byteSource{b: data}
	sc := &core.Scenario{Name: "fuzz", CycleDuration: time.Second, MaxCycles: 200, TerminationDelay: time.Duration(src.n(3)) * time.Second}
	sc.Gates = core.FeatureGates{core.GateRefreshAssignmentsDuringSchedulingCycle: src.n(2) == 1}
	nf := 1 + src.n(3)
	for f := range nf {
		sc.Flavors = append(sc.Flavors, coretest.Flavor(core.FlavorName(fmt.Sprintf("f%d", f))))
	}
	if src.n(2) == 1 {
		sc.Cohorts = append(sc.Cohorts, core.Cohort{Name: "c1", Parent: "root"}, core.Cohort{Name: "c0", Parent: "root"})
	}
	policies := []core.FlavorFungibilityPolicy{core.MayStopSearch, core.TryNextFlavor}
	nq := 1 + src.n(4)
	for q := range nq {
		name := fmt.Sprintf("cq%d", q)
		w := coretest.MakeClusterQueue(name).Group(core.ResourceCPU, core.ResourceMemory)
		if c := src.n(3); c > 0 {
			w.Cohort(fmt.Sprintf("c%d", c-1))
		}
		hasCohort := w.Obj().Cohort != ""
		for f := range nf {
			w.Flavor(core.FlavorName(fmt.Sprintf("f%d", f)), fmt.Sprint(src.n(9)), fmt.Sprintf("%dGi", src.n(9)))
			if hasCohort {
				bl, ll := "", ""
				if src.n(3) == 0 {
					bl = fmt.Sprint(src.n(5))
				}
				if src.n(3) == 0 {
					ll = "0"
				}
				w.Limits(core.ResourceCPU, bl, ll)
			}
		}
		w.Fungibility(policies[src.n(2)], policies[src.n(2)], "")
		within := []core.PreemptionPolicy{core.PreemptionNever, core.PreemptionLowerPriority, core.PreemptionLowerOrNewerEqualPriority}[src.n(3)]
		reclaim := []core.PreemptionPolicy{core.PreemptionNever, core.PreemptionLowerPriority, core.PreemptionAny}[src.n(3)]
		borrow := core.PreemptionNever
		var threshold *int32
		if reclaim != core.PreemptionNever && src.n(2) == 1 {
			borrow = core.PreemptionLowerPriority
			if src.n(2) == 1 {
				v := int32(src.n(3) * 10)
				threshold = &v
			}
		}
		w.Preemption(within, reclaim, borrow, threshold)
		if src.n(4) == 0 {
			w.Strategy(core.StrictFIFO)
		}
		sc.ClusterQueues = append(sc.ClusterQueues, w.Obj())
		sc.LocalQueues = append(sc.LocalQueues, core.LocalQueue{Namespace: "default", Name: name, ClusterQueue: name})
	}
	nw := 1 + src.n(12)
	for i := range nw {
		w := coretest.MakeWorkload("default", fmt.Sprintf("w%02d", i), fmt.Sprintf("cq%d", src.n(nq)), int32(1+src.n(3))).
			Request(core.ResourceCPU, fmt.Sprint(1+src.n(4))).
			Request(core.ResourceMemory, fmt.Sprintf("%dGi", src.n(3))).
			Priority(int32(src.n(3) * 10)).
			Arrival(time.Duration(src.n(5)) * time.Second)
		if src.n(2) == 0 {
			w.Runtime(time.Duration(1+src.n(6)) * time.Second)
		}
		if src.n(3) == 0 {
			w.TerminationDelay(time.Duration(src.n(8)) * time.Second)
		}
		sc.Workloads = append(sc.Workloads, w.Obj())
	}
	return sc
}

// FuzzEngine runs scenarios derived from the fuzz input and checks that
// every invariant holds after every step, that the run ends, that the
// compacted trace rebuilds every step's state, and that two runs give the
// same trace bytes.
func FuzzEngine(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{2, 1, 3, 1, 4, 4, 2, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	f.Add(bytes.Repeat([]byte{7, 3, 250, 1}, 30))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc := scenarioFromBytes(data)
		var full fullStates
		observe := func(s *sim.State, st *trace.Step) {
			for _, v := range sim.CheckInvariants(s) {
				t.Fatalf("step %d: %s", st.Index, v)
			}
			full.observe(s, st)
		}
		tr := sim.Run(sc, sim.Options{Observe: observe})
		full.check(t, tr)
		if tr.End == "" {
			t.Fatal("run ended without a reason")
		}
		if d := check.Rerun(sc, nil, tr); d != "" {
			t.Fatal(d)
		}
	})
}
