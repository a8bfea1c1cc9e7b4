package sim_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/coretest"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
)

// spotScenario: two flavors; the first has room for one workload.
func spotScenario(ff core.FlavorFungibility) *core.Scenario {
	q := coretest.MakeClusterQueue("team").Cohort("org").Group(core.ResourceCPU).
		Flavor("on-demand", "4").Flavor("spot", "8")
	q.Fungibility(ff.WhenCanBorrow, ff.WhenCanPreempt, ff.Preference)
	other := coretest.MakeClusterQueue("other").Cohort("org").Group(core.ResourceCPU).Flavor("on-demand", "4").Flavor("spot", "0")
	return &core.Scenario{
		Name:          "spot",
		CycleDuration: time.Second,
		MaxCycles:     100,
		Flavors:       []core.ResourceFlavor{coretest.Flavor("on-demand"), coretest.Flavor("spot")},
		ClusterQueues: []core.ClusterQueue{q.Obj(), other.Obj()},
		LocalQueues:   []core.LocalQueue{{Namespace: "default", Name: "team", ClusterQueue: "team"}},
		Workloads: []core.Workload{
			coretest.MakeWorkload("default", "a", "team", 1).Request(core.ResourceCPU, "4").Obj(),
			coretest.MakeWorkload("default", "b", "team", 1).Request(core.ResourceCPU, "4").Obj(),
		},
	}
}

func finalFlavors(tr *trace.Trace) map[string]string {
	out := map[string]string{}
	for _, w := range tr.Workloads {
		f := string(w.Status)
		for _, ps := range w.Admission {
			for _, rf := range ps.Flavors {
				f += ":" + rf.Flavor
			}
		}
		out[w.Workload] = f
	}
	return out
}

func TestFungibility(t *testing.T) {
	cases := map[string]struct {
		ff   core.FlavorFungibility
		want map[string]string
	}{
		"whenCanBorrow MayStopSearch borrows on-demand": {
			ff:   core.FlavorFungibility{WhenCanBorrow: core.MayStopSearch, WhenCanPreempt: core.TryNextFlavor},
			want: map[string]string{"default/a": "admitted:on-demand", "default/b": "admitted:on-demand"},
		},
		"whenCanBorrow TryNextFlavor moves to spot": {
			ff:   core.FlavorFungibility{WhenCanBorrow: core.TryNextFlavor, WhenCanPreempt: core.TryNextFlavor},
			want: map[string]string{"default/a": "admitted:on-demand", "default/b": "admitted:spot"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			tr := sim.Run(spotScenario(tc.ff), sim.Options{})
			if d := cmp.Diff(tc.want, finalFlavors(tr)); d != "" {
				t.Errorf("final states (-want +got):\n%s", d)
			}
		})
	}
}

// TestStepPurity checks that Step never modifies its input and that the
// same input gives the same trace bytes.
func TestStepPurity(t *testing.T) {
	sc := spotScenario(core.FlavorFungibility{WhenCanBorrow: core.TryNextFlavor, WhenCanPreempt: core.TryNextFlavor})
	var states []*sim.State
	var before []string
	tr1 := sim.Run(sc, sim.Options{Observe: func(s *sim.State, _ *trace.Step) {
		states = append(states, s)
		before = append(before, dump(t, s))
	}})
	for i, s := range states {
		if got := dump(t, s); got != before[i] {
			t.Errorf("state %d changed after later steps:\n%s", i, cmp.Diff(before[i], got))
		}
	}
	tr2 := sim.Run(sc, sim.Options{})
	var b1, b2 bytes.Buffer
	if err := trace.Format(&b1, tr1); err != nil {
		t.Fatal(err)
	}
	if err := trace.Format(&b2, tr2); err != nil {
		t.Fatal(err)
	}
	if b1.String() != b2.String() {
		t.Errorf("two runs differ:\n%s", cmp.Diff(b1.String(), b2.String()))
	}
}

func dump(t *testing.T, s *sim.State) string {
	t.Helper()
	type wl struct {
		Key, Status, Message, CQ string
		InHeap, Parked           bool
		Last                     any
	}
	var out []wl
	for _, w := range s.All() {
		out = append(out, wl{w.Key, w.Status.String(), w.Message, w.ClusterQueue, w.InHeap, w.Parked, w.Last})
	}
	var usage []any
	for i, n := range s.Tree.Nodes {
		for _, fr := range s.Tree.UsageKeys(i) {
			usage = append(usage, fmt.Sprintf("%s/%s/%s=%d", n.Name, fr.Flavor, fr.Resource, s.Tree.Used(i, fr)))
		}
	}
	slices.SortFunc(usage, func(a, b any) int { return strings.Compare(a.(string), b.(string)) })
	var queues []any
	for _, q := range s.Queues {
		queues = append(queues, []any{q.Heap.Slice(), q.Parked.Slice(), q.Generation, q.Sticky})
	}
	b, err := json.Marshal([]any{s.Now, s.Cycles, out, usage, queues})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
