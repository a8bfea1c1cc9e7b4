package sim_test

import (
	"bytes"
	"encoding/json"
	"fmt"
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

// fullStates records the full usage and queues of every step as the
// engine produced them (Observe sees each step before the trace compacts
// it).
type fullStates struct {
	usage  [][]trace.UsageRow
	queues [][]trace.QueueState
}

func (f *fullStates) observe(_ *sim.State, st *trace.Step) {
	f.usage = append(f.usage, slices.Clone(st.Usage))
	f.queues = append(f.queues, slices.Clone(st.Queues))
}

// check compares the state Replay, StateAt and a JSON round trip rebuild
// for every step of tr with what the engine produced, and checks that
// full steps are at most trace.KeyframeInterval apart.
func (f *fullStates) check(t testing.TB, tr *trace.Trace) {
	t.Helper()
	if len(f.usage) != len(tr.Steps) {
		t.Fatalf("observed %d steps, the trace has %d", len(f.usage), len(tr.Steps))
	}
	data, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	// The streaming writer the CLI uses gives the same bytes.
	var streamed bytes.Buffer
	if err := trace.WriteJSON(&streamed, tr); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(streamed.Bytes(), append(slices.Clip(data), '\n')) {
		t.Fatalf("trace.WriteJSON differs from encoding/json:\n%s", cmp.Diff(string(data)+"\n", streamed.String()))
	}
	var back trace.Trace
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	opts := cmpopts.EquateEmpty()
	last := 0
	for _, tt := range []*trace.Trace{tr, &back} {
		r := trace.NewReplay(tt)
		for r.Next() {
			i := r.Index()
			if tt.Steps[i].Full {
				if i-last > trace.KeyframeInterval {
					t.Fatalf("steps %d to %d: no full step in between (at most %d apart)", last, i, trace.KeyframeInterval)
				}
				last = i
			}
			if !slices.EqualFunc(f.usage[i], r.Usage(), sameRow) {
				t.Fatalf("step %d: replayed usage (-engine +replay):\n%s", i, cmp.Diff(f.usage[i], r.Usage(), opts))
			}
			if !slices.EqualFunc(f.queues[i], r.Queues(), sameQueueState) {
				t.Fatalf("step %d: replayed queues (-engine +replay):\n%s", i, cmp.Diff(f.queues[i], r.Queues(), opts))
			}
		}
		if r.Broken() {
			t.Fatal("the replay met a change it could not apply")
		}
		if i := len(tt.Steps) - 1; i-last >= trace.KeyframeInterval {
			t.Fatalf("steps %d to %d: no full step in between", last, i)
		}
		// StateAt on a sample of steps (every step would be quadratic in
		// the interval).
		for i := 0; i < len(tt.Steps); i += 7 {
			u, q := tt.StateAt(i)
			if !slices.EqualFunc(f.usage[i], u, sameRow) || !slices.EqualFunc(f.queues[i], q, sameQueueState) {
				t.Fatalf("step %d: StateAt differs from the engine's state", i)
			}
		}
	}
}

// TestCompactedTrace runs scenarios long enough to span many full steps
// (queues whose lists are capped, workloads that arrive, borrow, get
// preempted and finish) and checks that every step's state rebuilds
// exactly, from the trace and from its JSON.
func TestCompactedTrace(t *testing.T) {
	for _, tc := range []struct {
		name string
		sc   *core.Scenario
	}{
		{"nine queues in three cohorts", compactScenario(3, 3, 60)},
		{"one queue, lists over the cap", compactScenario(1, 1, 400)},
		{"scalability shape, preemption", trimmed(perfScenario(), 1200)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var f fullStates
			tr := sim.Run(tc.sc, sim.Options{Observe: f.observe})
			if len(tr.Steps) < 3*trace.KeyframeInterval {
				t.Fatalf("only %d steps: the scenario no longer spans several full steps", len(tr.Steps))
			}
			f.check(t, tr)
			// Without Observe, Run changes one State in place, reusing
			// its reports' space and reporting the same usage rows again
			// while no usage changed (usageRows): the trace must not
			// tell.
			f.check(t, sim.Run(tc.sc, sim.Options{}))
			// What the compaction saves: at most one step in
			// KeyframeInterval, plus layout changes, carries the state.
			full := 0
			for i := range tr.Steps {
				if tr.Steps[i].Full {
					full++
				}
			}
			if want := len(tr.Steps)/trace.KeyframeInterval + 1; full > want {
				t.Errorf("%d full steps out of %d, want at most %d", full, len(tr.Steps), want)
			}
		})
	}
}

// compactScenario is cohorts x queues ClusterQueues (two flavors, a
// borrowing limit, preemption within the ClusterQueue) with perQueue
// workloads each, arriving every 100 ms with priorities and runtimes
// that vary.
func compactScenario(cohorts, queues, perQueue int) *core.Scenario {
	sc := &core.Scenario{
		Name:          "compact",
		CycleDuration: 100 * time.Millisecond,
		MaxCycles:     core.MaxCyclesLimit,
		Flavors:       []core.ResourceFlavor{coretest.Flavor("on-demand"), coretest.Flavor("spot")},
	}
	sizes := []string{"1", "1", "3", "5"}
	for c := range cohorts {
		for q := range queues {
			name := fmt.Sprintf("cq-%d-%d", c, q)
			sc.ClusterQueues = append(sc.ClusterQueues, coretest.MakeClusterQueue(name).
				Cohort(fmt.Sprintf("cohort-%d", c)).Group(core.ResourceCPU).
				Flavor("on-demand", "6").Limits(core.ResourceCPU, "4", "").
				Flavor("spot", "2").
				Preemption(core.PreemptionLowerPriority, core.PreemptionAny, core.PreemptionNever, nil).Obj())
			sc.LocalQueues = append(sc.LocalQueues, core.LocalQueue{Namespace: "default", Name: name, ClusterQueue: name})
			for i := range perQueue {
				sc.Workloads = append(sc.Workloads, coretest.MakeWorkload("default", fmt.Sprintf("%s-w%03d", name, i), name, 1).
					Request(core.ResourceCPU, sizes[(i+q)%len(sizes)]).
					Priority(int32((i*7)%3*50)).
					Arrival(time.Duration(i)*100*time.Millisecond).
					Runtime(time.Duration(1+(i*13)%9)*time.Second).Obj())
			}
		}
	}
	return sc
}

// trimmed keeps the first n workloads of sc.
func trimmed(sc *core.Scenario, n int) *core.Scenario {
	sc.Workloads = sc.Workloads[:min(n, len(sc.Workloads))]
	return sc
}

// sameRow and sameQueueState compare every field (cmp is too slow for
// thousands of steps; it only writes the difference).
func sameRow(a, b trace.UsageRow) bool {
	pa, pb := a, b
	pa.BorrowingLimit, pa.LendingLimit, pb.BorrowingLimit, pb.LendingLimit = nil, nil, nil, nil
	return pa == pb && equalPtr(a.BorrowingLimit, b.BorrowingLimit) && equalPtr(a.LendingLimit, b.LendingLimit)
}

func equalPtr(a, b *int64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func sameQueueState(a, b trace.QueueState) bool {
	return a.ClusterQueue == b.ClusterQueue && a.Active == b.Active && a.InactiveReason == b.InactiveReason &&
		a.PendingCount == b.PendingCount && a.ParkedCount == b.ParkedCount && a.AdmittedCount == b.AdmittedCount &&
		a.TerminatingCount == b.TerminatingCount && slices.Equal(a.Pending, b.Pending) && slices.Equal(a.Parked, b.Parked) &&
		slices.Equal(a.Admitted, b.Admitted) && slices.Equal(a.Terminating, b.Terminating)
}
