package check_test

import (
	"strings"
	"testing"
	"time"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/check"
	"github.com/kueueplay/kueueplay/core/coretest"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
)

func smallScenario() *core.Scenario {
	return &core.Scenario{
		Name: "small", CycleDuration: time.Second, MaxCycles: 50,
		Flavors:       []core.ResourceFlavor{coretest.Flavor("default")},
		ClusterQueues: []core.ClusterQueue{coretest.MakeClusterQueue("cq").Group(core.ResourceCPU).Flavor("default", "2").Obj()},
		LocalQueues:   []core.LocalQueue{{Namespace: "ns", Name: "lq", ClusterQueue: "cq"}},
		Workloads: []core.Workload{
			coretest.MakeWorkload("ns", "a", "lq", 1).Request(core.ResourceCPU, "2").Runtime(3 * time.Second).Obj(),
			coretest.MakeWorkload("ns", "b", "lq", 1).Request(core.ResourceCPU, "2").Arrival(time.Second).Obj(),
		},
	}
}

// TestRerun feeds Rerun the trace of a real run and tampered copies of
// it: only the real one passes, and a difference names its step.
func TestRerun(t *testing.T) {
	for name, tc := range map[string]struct {
		tamper func(tr *trace.Trace)
		want   string // a substring of the report; "" for none
	}{
		"same trace":          {tamper: func(*trace.Trace) {}},
		"a changed message":   {tamper: func(tr *trace.Trace) { tr.Steps[2].TimeMs++ }, want: "differs at step 2"},
		"a missing last step": {tamper: func(tr *trace.Trace) { tr.Steps = tr.Steps[:len(tr.Steps)-1] }, want: "steps ending"},
		"another end":         {tamper: func(tr *trace.Trace) { tr.End = "maxCycles" }, want: "steps ending \"maxCycles\""},
	} {
		t.Run(name, func(t *testing.T) {
			sc := smallScenario()
			tr := sim.Run(sc, sim.Options{})
			if len(tr.Steps) < 4 {
				t.Fatalf("the scenario ran only %d steps", len(tr.Steps))
			}
			tc.tamper(tr)
			got := check.Rerun(sc, nil, tr)
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Errorf("Rerun = %q, want a report containing %q", got, tc.want)
			}
		})
	}
}
