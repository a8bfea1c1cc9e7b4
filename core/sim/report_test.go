package sim_test

import (
	"reflect"
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

// TestReportsStay: without Observe, Run writes each report into the
// space of the report before the last (reportSpace) and names only the
// lists of the steps the trace keeps whole (trace.Compactor.CompactLists),
// and a queue's lists can also shrink and grow again; the trace must
// still be the one a run with Observe (every report new, every list
// named) writes, and replay to every step's usage and queues as Observe
// saw them.
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
	observed := sim.Run(sc, sim.Options{Observe: func(_ *sim.State, st *trace.Step) {
		for _, q := range st.Queues {
			if len(q.Pending) == sim.QueueListCap {
				full++
			}
		}
		steps = append(steps, seen{st.Usage, st.Queues})
	}})
	stops := 0
	tr := sim.Run(sc, sim.Options{Stop: func(st *trace.Step) bool {
		if len(st.Usage) != len(steps[stops].usage) || len(st.Queues) != len(steps[stops].queues) {
			t.Fatalf("step %d: Stop sees %d usage rows and %d queues, Observe %d and %d", stops, len(st.Usage), len(st.Queues), len(steps[stops].usage), len(steps[stops].queues))
		}
		stops++
		return false
	}})
	if tr.Cycles < 500 || full == 0 || len(steps) < 3*trace.KeyframeInterval {
		t.Fatalf("%d cycles, %d steps and %d full pending lists: too short a run to reuse the reports' space", tr.Cycles, len(steps), full)
	}
	if len(observed.Steps) != len(tr.Steps) {
		t.Fatalf("the trace without Observe has %d steps, with Observe %d", len(tr.Steps), len(observed.Steps))
	}
	for i := range tr.Steps {
		if !reflect.DeepEqual(observed.Steps[i], tr.Steps[i]) { // cmp.Diff only to say how: it is slow
			t.Fatalf("step %d without Observe (-with Observe +without):\n%s", i, cmp.Diff(observed.Steps[i], tr.Steps[i]))
		}
	}
	if d := cmp.Diff(observed, tr, cmpopts.IgnoreFields(trace.Trace{}, "Steps")); d != "" {
		t.Fatalf("the trace without Observe (-with Observe +without):\n%s", d)
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
