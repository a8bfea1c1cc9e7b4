package view

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/trace"
)

// TestReplayMatchesFinalStates replays every scenario's trace and checks
// that the workload states it reconstructs (which FirstDifference
// compares) are the trace's final states.
func TestReplayMatchesFinalStates(t *testing.T) {
	for _, name := range allScenarios(t) {
		t.Run(name, func(t *testing.T) {
			tr := run(t, name, nil)
			r := newReplay(tr)
			r.apply(0, len(tr.Steps)-1)
			got, want := map[string]string{}, map[string]string{}
			for _, ws := range tr.Workloads {
				s := wstate{status: ws.Status}
				if st, ok := r.state[ws.Workload]; ok && st.admission != nil {
					s.admission = ws.Admission
				}
				want[ws.Workload] = s.words()
				got[ws.Workload] = r.state[ws.Workload].words()
			}
			for w := range r.state {
				if _, ok := want[w]; !ok {
					t.Errorf("replay knows %s, the trace does not", w)
				}
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("replayed final states (-want +got):\n%s", d)
			}
		})
	}
}

func TestFirstDifferenceScenarios(t *testing.T) {
	const refresh = "RefreshAssignmentsDuringSchedulingCycle"
	tests := []struct {
		name        string
		left, right string
		lg, rg      core.FeatureGates
		want        *Difference
	}{
		{
			name: "identical runs", left: "default", right: "default",
		},
		{
			name: "identical with the gate set to its default", left: "default", right: "default",
			rg: core.FeatureGates{refresh: false},
		},
		{
			name: "KEP-4378 gate off then on", left: "kep4378-horizontal-stall-gate-off", right: "kep4378-horizontal-stall-gate-off",
			lg: core.FeatureGates{refresh: false}, rg: core.FeatureGates{refresh: true},
			want: &Difference{Cycle: 3, LeftStep: 6, RightStep: 6, Workload: "b/p2", Left: "Skipped", Right: "Preempting",
				Text: "cycle 3 (at 2s): b/p2 is Skipped on the left, Preempting on the right"},
		},
		{
			name: "only the requeue differs", left: "default", right: "default",
			lg: core.FeatureGates{"FlavorFungibility": false},
			want: &Difference{Cycle: 4, LeftStep: 8, RightStep: 8, Workload: "team-a/train-4",
				Left: "NeedsPreemption (requeued at once)", Right: "NeedsPreemption (parked)",
				Text: "cycle 4 (at 3s): team-a/train-4 is NeedsPreemption (requeued at once) on the left, NeedsPreemption (parked) on the right"},
		},
		{
			name: "lending limit admits or not", left: "lending-two-queues", right: "lending-two-queues",
			lg: core.FeatureGates{"LendingLimit": false},
			want: &Difference{Cycle: 1, LeftStep: 2, RightStep: 2, Workload: "two-a/over",
				Left: "Admitted on main{cpu:rf}", Right: "NoFit",
				Text: "cycle 1 (at 0s): two-a/over is Admitted on main{cpu:rf} on the left, NoFit on the right"},
		},
		{
			name: "a target evicted on one side only", left: "preemption-reclaim-over-preempt", right: "preemption-reclaim-over-preempt",
			lg: core.FeatureGates{"FlavorFungibility": false},
			want: &Difference{Cycle: 1, LeftStep: 2, RightStep: 2, Workload: "maystop-other/borrower",
				Left: "terminating", Right: "admitted",
				Text: "after cycle 1 (at 0s): maystop-other/borrower is terminating on the left, admitted on the right"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := FirstDifference(run(t, tt.left, tt.lg), run(t, tt.right, tt.rg))
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// Helpers for hand-made traces.
func cycleStep(cycle int, ms int64, ds ...trace.Decision) trace.Step {
	return trace.Step{Kind: trace.StepCycle, Cycle: cycle, TimeMs: ms, Decisions: ds}
}

func eventStep(cycle int, ms int64, es ...trace.Event) trace.Step {
	return trace.Step{Kind: trace.StepEvents, Cycle: cycle, TimeMs: ms, Events: es}
}

func admit(w, flavor string) trace.Decision {
	return trace.Decision{Workload: w, Outcome: trace.OutcomeAdmitted,
		Admission: []trace.PodSetFlavors{{PodSet: "main", Flavors: []trace.ResourceFlavor{{Resource: "cpu", Flavor: flavor}}}}}
}

func mkTrace(steps ...trace.Step) *trace.Trace {
	tr := &trace.Trace{End: "quiescent", Steps: append([]trace.Step{{Kind: trace.StepInitial}}, steps...)}
	for i := range tr.Steps {
		tr.Steps[i].Index = i
		tr.EndMs = tr.Steps[i].TimeMs
	}
	return tr
}

func TestFirstDifferenceHandMade(t *testing.T) {
	arrive := func(w string) trace.Event { return trace.Event{Kind: trace.EventArrival, Workload: w} }
	finish := func(w string) trace.Event { return trace.Event{Kind: trace.EventFinish, Workload: w} }
	base := func() []trace.Step {
		return []trace.Step{eventStep(0, 0, arrive("a/x"), arrive("a/y")), cycleStep(1, 0, admit("a/x", "on-demand"), trace.Decision{Workload: "a/y", Outcome: trace.OutcomeNoFit, Requeue: "parked"})}
	}
	tests := []struct {
		name        string
		left, right *trace.Trace
		want        *Difference
	}{
		{
			name: "same", left: mkTrace(base()...), right: mkTrace(base()...),
		},
		{
			name:  "the next cycle runs later on the right",
			left:  mkTrace(append(base(), eventStep(1, 1000, finish("a/x")), cycleStep(2, 1000, admit("a/y", "spot")))...),
			right: mkTrace(append(base(), eventStep(1, 1000, finish("a/x")), cycleStep(2, 5000, admit("a/y", "spot")))...),
			want: &Difference{Cycle: 2, LeftStep: 4, RightStep: 4, Left: "at 1s", Right: "at 5s",
				Text: "cycle 2 runs at 1s on the left, at 5s on the right"},
		},
		{
			name:  "the left run ends first",
			left:  mkTrace(base()...),
			right: mkTrace(append(base(), cycleStep(2, 1000, trace.Decision{Workload: "a/y", Outcome: trace.OutcomeNoFit}))...),
			want: &Difference{Cycle: 2, LeftStep: 2, RightStep: 3, Left: "ended (quiescent at 0s)", Right: "at 1s",
				Text: "after cycle 1 (at 0s): the left run ended (quiescent at 0s), the right run at 1s"},
		},
		{
			name:  "an event on one side before the same next cycle",
			left:  mkTrace(append(base(), eventStep(1, 3000, finish("a/x")), cycleStep(2, 3000, admit("a/y", "spot")))...),
			right: mkTrace(append(base(), eventStep(1, 3000, arrive("a/z")), cycleStep(2, 3000, admit("a/y", "spot")))...),
			want: &Difference{Cycle: 1, LeftStep: 3, RightStep: 3, Workload: "a/x", Left: "finished", Right: "admitted on main{cpu:on-demand}",
				Text: "by 3s, before cycle 2: a/x is finished on the left, admitted on main{cpu:on-demand} on the right"},
		},
		{
			name:  "an event after the earlier next cycle is not compared yet",
			left:  mkTrace(append(base(), cycleStep(2, 1000, trace.Decision{Workload: "a/y", Outcome: trace.OutcomeNoFit}))...),
			right: mkTrace(append(base(), eventStep(1, 4000, finish("a/x")), cycleStep(2, 4000, admit("a/y", "spot")))...),
			want: &Difference{Cycle: 2, LeftStep: 3, RightStep: 4, Left: "at 1s", Right: "at 4s",
				Text: "cycle 2 runs at 1s on the left, at 4s on the right"},
		},
		{
			name:  "a head on one side only",
			left:  mkTrace(eventStep(0, 0, arrive("a/x")), cycleStep(1, 0, admit("a/x", "spot"))),
			right: mkTrace(eventStep(0, 0, arrive("a/x")), cycleStep(1, 0, admit("a/x", "spot"), admit("b/w", "spot"))),
			want: &Difference{Cycle: 1, LeftStep: 2, RightStep: 2, Workload: "b/w", Left: "not a head", Right: "Admitted on main{cpu:spot}",
				Text: "cycle 1 (at 0s): b/w is not a head on the left, Admitted on main{cpu:spot} on the right"},
		},
		{
			name:  "processing order alone is not a difference",
			left:  mkTrace(eventStep(0, 0, arrive("a/x"), arrive("b/w")), cycleStep(1, 0, admit("a/x", "spot"), admit("b/w", "spot"))),
			right: mkTrace(eventStep(0, 0, arrive("a/x"), arrive("b/w")), cycleStep(1, 0, admit("b/w", "spot"), admit("a/x", "spot"))),
		},
		{
			name:  "before the first cycle",
			left:  mkTrace(eventStep(0, 0, arrive("a/x"))),
			right: mkTrace(eventStep(0, 0)),
			want: &Difference{LeftStep: 1, RightStep: 1, Workload: "a/x", Left: "pending", Right: "not created yet",
				Text: "at the end of both runs: a/x is pending on the left, not created yet on the right"},
		},
		{
			name:  "an empty trace",
			left:  &trace.Trace{},
			right: mkTrace(),
			want:  &Difference{LeftStep: -1, RightStep: 0, Left: "0 steps", Right: "1 steps", Text: "one trace has no steps"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, FirstDifference(tt.left, tt.right)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}
