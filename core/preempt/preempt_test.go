package preempt_test

import (
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/coretest"
	"github.com/kueueplay/kueueplay/core/flavor"
	"github.com/kueueplay/kueueplay/core/preempt"
	"github.com/kueueplay/kueueplay/core/trace"
)

const (
	inCQ      = preempt.ReasonInClusterQueue
	reclaim   = preempt.ReasonInCohortReclamation
	whileBorr = preempt.ReasonInCohortReclaimWhileBorrowing
)

// targetsCase is one case of Kueue's TestPreemption or
// TestHierarchicalPreemptions: the workloads holding quota, the incoming
// workload and its flavor assignment, and the workloads Kueue evicts (the
// ones with a Preempted condition in wantWorkloads, plus already evicted
// ones counted in wantPreempted), with their reasons.
type targetsCase struct {
	// cqs defaults to Kueue's defaultClusterQueues.
	cqs      []core.ClusterQueue
	cohorts  []core.Cohort
	admitted []*wlWrapper
	incoming *incomingWrapper
	want     []target // sorted by key
	// candidates, when set, is the expected candidate order in the trace.
	candidates []string
}

func runTargets(t *testing.T, tc targetsCase) {
	t.Helper()
	cqs := tc.cqs
	if cqs == nil {
		cqs = kueueClusterQueues()
	}
	w := build(t, cqs, tc.cohorts, tc.admitted)
	p := w.preemptor(t, tc.incoming)
	before := usage(w.s.Tree)

	got, tr := preempt.Targets(w.s, p, true)
	if diff := cmp.Diff(tc.want, simplify(got)); diff != "" {
		t.Errorf("Targets (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(before, usage(w.s.Tree)); diff != "" {
		t.Errorf("Targets changed the tree's usage (-want +got):\n%s", diff)
	}
	for _, g := range got {
		if diff := cmp.Diff(g.W.Usage, g.Frees); diff != "" {
			t.Errorf("target %s frees (-want +got):\n%s", g.W.Key, diff)
		}
	}
	if tr == nil {
		t.Fatal("Targets with record returned no trace")
	}
	if tc.candidates != nil {
		var order []string
		for _, c := range tr.Candidates {
			order = append(order, c.Workload)
		}
		if diff := cmp.Diff(tc.candidates, order); diff != "" {
			t.Errorf("candidates (-want +got):\n%s", diff)
		}
	}
	var traced []string
	for _, tt := range tr.Targets {
		traced = append(traced, tt.Workload)
	}
	var keys []string
	for _, g := range got {
		keys = append(keys, g.W.Key)
	}
	if diff := cmp.Diff(keys, traced); diff != "" {
		t.Errorf("trace targets (-want +got):\n%s", diff)
	}

	// Described with remembered words, twice, the search is described
	// the same; a search without candidates for one flavor-resource
	// shares its description.
	w.s.Words = &flavor.Words{}
	_, trWords := preempt.Targets(w.s, p, true)
	_, trAgain := preempt.Targets(w.s, p, true)
	for _, got := range []*trace.Preemption{trWords, trAgain} {
		if diff := cmp.Diff(tr, got); diff != "" {
			t.Errorf("Targets with remembered words (-without +with):\n%s", diff)
		}
	}
	if shared := trAgain == trWords; shared != (len(tr.Candidates) == 0 && len(p.Need) == 1) {
		t.Errorf("described again: shared %t, for %d candidates and %d flavor-resources needing preemption", shared, len(tr.Candidates), len(p.Need))
	}
	w.s.Words = nil

	// Recording changes nothing.
	got2, tr2 := preempt.Targets(w.s, p, false)
	if tr2 != nil {
		t.Errorf("Targets without record returned a trace")
	}
	if diff := cmp.Diff(simplify(got), simplify(got2)); diff != "" {
		t.Errorf("Targets without record (-with +without):\n%s", diff)
	}
	if diff := cmp.Diff(before, usage(w.s.Tree)); diff != "" {
		t.Errorf("Targets without record changed the tree's usage (-want +got):\n%s", diff)
	}

	// A snapshot that gives its holders through HoldersOf finds the same
	// targets and describes the search the same way.
	lazy := *w.s
	lazy.Holders, lazy.HoldersOf = nil, func(node int) []*preempt.Workload { return w.s.Holders[node] }
	got3, tr3 := preempt.Targets(&lazy, p, true)
	if diff := cmp.Diff(simplify(got), simplify(got3)); diff != "" {
		t.Errorf("Targets with HoldersOf (-Holders +HoldersOf):\n%s", diff)
	}
	if diff := cmp.Diff(tr, tr3); diff != "" {
		t.Errorf("Targets with HoldersOf, described (-Holders +HoldersOf):\n%s", diff)
	}
}

// TestTargets ports the classical (non-fair-sharing) cases of Kueue
// v0.16.1's TestPreemption (pkg/scheduler/preemption/preemption_test.go).
// All workloads reserve quota at "now" unless stated.
func TestTargets(t *testing.T) {
	cases := map[string]targetsCase{
		// withinClusterQueue: LowerPriority.
		"preempt lowest priority": {
			admitted: []*wlWrapper{
				admitted("low", "standalone").Priority(-1).Use("default", cpu, "2"),
				admitted("mid", "standalone").Use("default", cpu, "2"),
				admitted("high", "standalone").Priority(1).Use("default", cpu, "2"),
			},
			incoming: incoming("standalone").Priority(1).Preempt("default", cpu, "2"),
			want:     []target{{"low", inCQ}},
		},
		"preempt multiple": {
			admitted: []*wlWrapper{
				admitted("low", "standalone").Priority(-1).Use("default", cpu, "2"),
				admitted("mid", "standalone").Use("default", cpu, "2"),
				admitted("high", "standalone").Priority(1).Use("default", cpu, "2"),
			},
			incoming: incoming("standalone").Priority(1).Preempt("default", cpu, "3"),
			want:     []target{{"low", inCQ}, {"mid", inCQ}},
		},
		"no preemption for low priority": {
			admitted: []*wlWrapper{
				admitted("low", "standalone").Priority(-1).Use("default", cpu, "3"),
				admitted("mid", "standalone").Use("default", cpu, "3"),
			},
			incoming: incoming("standalone").Priority(-1).Preempt("default", cpu, "1"),
		},
		"not enough low priority workloads": {
			admitted: []*wlWrapper{
				admitted("low", "standalone").Priority(-1).Use("default", cpu, "3"),
				admitted("mid", "standalone").Use("default", cpu, "3"),
			},
			incoming: incoming("standalone").Preempt("default", cpu, "4"),
		},
		"some free quota, preempt low priority": {
			admitted: []*wlWrapper{
				admitted("low", "standalone").Priority(-1).Use("default", cpu, "1"),
				admitted("mid", "standalone").Use("default", cpu, "1"),
				admitted("high", "standalone").Priority(1).Use("default", cpu, "3"),
			},
			incoming: incoming("standalone").Priority(1).Preempt("default", cpu, "2"),
			want:     []target{{"low", inCQ}},
		},
		// Fill-back: low is removed first, then mid; with low back the
		// incoming workload still fits, so only mid is evicted.
		"minimal set excludes low priority": {
			admitted: []*wlWrapper{
				admitted("low", "standalone").Priority(-1).Use("default", cpu, "1"),
				admitted("mid", "standalone").Use("default", cpu, "2"),
				admitted("high", "standalone").Priority(1).Use("default", cpu, "3"),
			},
			incoming: incoming("standalone").Priority(1).Preempt("default", cpu, "2"),
			want:     []target{{"mid", inCQ}},
		},
		// Several flavors: only memory in beta needs preemption.
		"only preempt workloads using the chosen flavor": {
			admitted: []*wlWrapper{
				admitted("low", "standalone").Priority(-1).Use("alpha", mem, "2Gi"),
				admitted("mid", "standalone").Use("beta", mem, "1Gi"),
				admitted("high", "standalone").Priority(1).Use("beta", mem, "1Gi"),
			},
			incoming: incoming("standalone").Priority(1).Fit("default", cpu, "1").Preempt("beta", mem, "2Gi"),
			want:     []target{{"mid", inCQ}},
		},
		// reclaimWithinCohort: LowerPriority.
		"reclaim quota from borrower": {
			admitted: []*wlWrapper{
				admitted("c1-low", "c1").Priority(-1).Use("default", cpu, "3"),
				admitted("c2-mid", "c2").Use("default", cpu, "3"),
				admitted("c2-high", "c2").Priority(1).Use("default", cpu, "6"),
			},
			incoming: incoming("c1").Priority(1).Preempt("default", cpu, "3"),
			want:     []target{{"c2-mid", reclaim}},
		},
		"reclaim quota if workload requests 0 resources for a resource at nominal quota": {
			admitted: []*wlWrapper{
				admitted("c1-low", "c1").Priority(-1).Use("default", cpu, "3").Use("default", mem, "3Gi"),
				admitted("c2-mid", "c2").Use("default", cpu, "3"),
				admitted("c2-high", "c2").Priority(1).Use("default", cpu, "6"),
			},
			incoming: incoming("c1").Priority(1).Preempt("default", cpu, "3").Fit("default", mem, "0"),
			want:     []target{{"c2-mid", reclaim}},
		},
		"no workloads borrowing": {
			admitted: []*wlWrapper{
				admitted("c1-high", "c1").Priority(1).Use("default", cpu, "4"),
				admitted("c2-low-1", "c2").Priority(-1).Use("default", cpu, "4"),
			},
			incoming: incoming("c1").Priority(1).Preempt("default", cpu, "4"),
		},
		"not enough workloads borrowing": {
			admitted: []*wlWrapper{
				admitted("c1-high", "c1").Priority(1).Use("default", cpu, "4"),
				admitted("c2-low-1", "c2").Priority(-1).Use("default", cpu, "4"),
				admitted("c2-low-2", "c2").Priority(-1).Use("default", cpu, "4"),
			},
			incoming: incoming("c1").Priority(1).Preempt("default", cpu, "4"),
		},
		"preempting locally and borrowing other resources in cohort, without cohort candidates": {
			admitted: []*wlWrapper{
				admitted("c1-low", "c1").Priority(-1).Use("default", cpu, "4"),
				admitted("c2-low-1", "c2").Priority(-1).Use("default", cpu, "4"),
				admitted("c2-high-2", "c2").Priority(1).Use("default", cpu, "4"),
			},
			incoming: incoming("c1").Priority(1).Preempt("default", cpu, "4").Preempt("default", mem, "5Gi"),
			want:     []target{{"c1-low", inCQ}},
		},
		"preempting locally and borrowing same resource in cohort": {
			admitted: []*wlWrapper{
				admitted("c1-med", "c1").Use("default", cpu, "4"),
				admitted("c1-low", "c1").Priority(-1).Use("default", cpu, "4"),
				admitted("c2-low-1", "c2").Priority(-1).Use("default", cpu, "4"),
			},
			incoming: incoming("c1").Priority(1).Preempt("default", cpu, "4"),
			want:     []target{{"c1-low", inCQ}},
		},
		"preempting locally and borrowing same resource in cohort; no borrowing limit in the cohort": {
			admitted: []*wlWrapper{
				admitted("d1-med", "d1").Use("default", cpu, "4"),
				admitted("d1-low", "d1").Priority(-1).Use("default", cpu, "4"),
				admitted("d2-low-1", "d2").Priority(-1).Use("default", cpu, "4"),
			},
			incoming: incoming("d1").Priority(1).Preempt("default", cpu, "4"),
			want:     []target{{"d1-low", inCQ}},
		},
		"preempting locally and borrowing other resources in cohort, with cohort candidates": {
			admitted: []*wlWrapper{
				admitted("c1-med", "c1").Use("default", cpu, "4"),
				admitted("c2-low-1", "c2").Priority(-1).Use("default", cpu, "5"),
				admitted("c2-low-2", "c2").Priority(-1).Use("default", cpu, "1"),
				admitted("c2-low-3", "c2").Priority(-1).Use("default", cpu, "1"),
			},
			incoming: incoming("c1").Priority(1).Preempt("default", cpu, "2").Preempt("default", mem, "5Gi"),
			want:     []target{{"c1-med", inCQ}},
		},
		// Fill-back: l1-low then l1-med are removed; l1-low is given back.
		"preempting locally and not borrowing same resource in 1-queue cohort": {
			admitted: []*wlWrapper{
				admitted("l1-med", "l1").Use("default", cpu, "4"),
				admitted("l1-low", "l1").Priority(-1).Use("default", cpu, "2"),
			},
			incoming: incoming("l1").Priority(1).Preempt("default", cpu, "4"),
			want:     []target{{"l1-med", inCQ}},
		},
		"do not reclaim borrowed quota from same priority for withinCohort=ReclaimFromLowerPriority": {
			admitted: []*wlWrapper{
				admitted("c1", "c1").Use("default", cpu, "2"),
				admitted("c2-1", "c2").Use("default", cpu, "4"),
				admitted("c2-2", "c2").Use("default", cpu, "4"),
			},
			incoming: incoming("c1").Preempt("default", cpu, "4"),
		},
		// reclaimWithinCohort: Any.
		"reclaim borrowed quota from same priority for withinCohort=ReclaimFromAny": {
			admitted: []*wlWrapper{
				admitted("c1-1", "c1").Use("default", cpu, "4"),
				admitted("c1-2", "c1").Priority(1).Use("default", cpu, "4"),
				admitted("c2", "c2").Use("default", cpu, "2"),
			},
			incoming: incoming("c2").Preempt("default", cpu, "4"),
			want:     []target{{"c1-1", reclaim}},
		},
		"preempt from all ClusterQueues in cohort": {
			admitted: []*wlWrapper{
				admitted("c1-low", "c1").Priority(-1).Use("default", cpu, "3"),
				admitted("c1-mid", "c1").Use("default", cpu, "2"),
				admitted("c2-low", "c2").Priority(-1).Use("default", cpu, "3"),
				admitted("c2-mid", "c2").Use("default", cpu, "4"),
			},
			incoming: incoming("c1").Preempt("default", cpu, "4"),
			want:     []target{{"c1-low", inCQ}, {"c2-low", reclaim}},
		},
		// withinClusterQueue: Never.
		"can't preempt workloads in ClusterQueue for withinClusterQueue=Never": {
			admitted: []*wlWrapper{
				admitted("c2-low", "c2").Priority(-1).Use("default", cpu, "3"),
			},
			incoming: incoming("c2").Priority(1).Preempt("default", cpu, "4"),
		},
		"each podset preempts a different flavor": {
			admitted: []*wlWrapper{
				admitted("low-alpha", "standalone").Priority(-1).Use("alpha", mem, "2Gi"),
				admitted("low-beta", "standalone").Priority(-1).Use("beta", mem, "2Gi"),
			},
			// launcher: 1 x 2Gi in alpha; workers: 2 x 1Gi in beta.
			incoming: incoming("standalone").Preempt("alpha", mem, "2Gi").Preempt("beta", mem, "2Gi"),
			want:     []target{{"low-alpha", inCQ}, {"low-beta", inCQ}},
		},
		// withinClusterQueue: LowerOrNewerEqualPriority; wl2 and wl3 are
		// both newer than the incoming workload, wl2 was admitted more
		// recently so it is tried first.
		"preempt newer workloads with the same priority": {
			admitted: []*wlWrapper{
				admitted("wl1", "preventStarvation").Priority(2).Use("default", cpu, "2"),
				admitted("wl2", "preventStarvation").Priority(1).Created(0).Use("default", cpu, "2").ReservedAt(time.Second),
				admitted("wl3", "preventStarvation").Priority(1).Created(0).Use("default", cpu, "2"),
			},
			incoming: incoming("preventStarvation").Priority(1).Created(-15*time.Second).Preempt("default", cpu, "2"),
			want:     []target{{"wl2", inCQ}},
		},
		// borrowWithinCohort: LowerPriority, maxPriorityThreshold 0.
		"use BorrowWithinCohort; allow preempting a lower-priority workload from another ClusterQueue while borrowing": {
			admitted: []*wlWrapper{
				admitted("a_best_effort_low", "a_best_effort").Priority(-1).Use("default", cpu, "10"),
				admitted("b_best_effort_low", "b_best_effort").Priority(-1).Use("default", cpu, "1"),
			},
			incoming: incoming("a_standard").Preempt("default", cpu, "10"),
			want:     []target{{"a_best_effort_low", whileBorr}},
		},
		"use BorrowWithinCohort; don't allow preempting a lower-priority workload with priority above MaxPriorityThreshold, if borrowing is required even after the preemption": {
			admitted: []*wlWrapper{
				admitted("b_standard", "b_standard").Priority(1).Use("default", cpu, "10"),
			},
			incoming: incoming("a_standard").Priority(2).Preempt("default", cpu, "10"),
		},
		"use BorrowWithinCohort; allow preempting a lower-priority workload with priority above MaxPriorityThreshold, if borrowing is not required after the preemption": {
			admitted: []*wlWrapper{
				admitted("b_standard", "b_standard").Priority(1).Use("default", cpu, "13"),
			},
			incoming: incoming("a_standard").Priority(2).Preempt("default", cpu, "1"),
			want:     []target{{"b_standard", reclaim}},
		},
		"use BorrowWithinCohort; don't allow for preemption of lower-priority workload from the same ClusterQueue": {
			admitted: []*wlWrapper{
				admitted("a_standard", "a_standard").Priority(1).Use("default", cpu, "13"),
			},
			incoming: incoming("a_standard").Priority(2).Preempt("default", cpu, "1"),
		},
		"use BorrowWithinCohort; only preempt from CQ if no workloads below threshold and already above nominal": {
			admitted: []*wlWrapper{
				admitted("a_standard_1", "a_standard").Priority(1).Use("default", cpu, "10"),
				admitted("a_standard_2", "a_standard").Priority(1).Use("default", cpu, "1"),
				admitted("b_standard_1", "b_standard").Priority(1).Use("default", cpu, "1"),
				admitted("b_standard_2", "b_standard").Priority(2).Use("default", cpu, "1"),
			},
			incoming: incoming("b_standard").Priority(3).Preempt("default", cpu, "1"),
			want:     []target{{"b_standard_1", inCQ}},
		},
		"use BorrowWithinCohort; preempt from CQ and from other CQs with workloads below threshold": {
			admitted: []*wlWrapper{
				admitted("b_standard_high", "b_standard").Priority(2).Use("default", cpu, "10"),
				admitted("b_standard_mid", "b_standard").Priority(1).Use("default", cpu, "1"),
				admitted("a_best_effort_low", "a_best_effort").Priority(-1).Use("default", cpu, "1"),
				admitted("a_best_effort_lower", "a_best_effort").Priority(-2).Use("default", cpu, "1"),
			},
			incoming: incoming("b_standard").Priority(2).Preempt("default", cpu, "2"),
			want:     []target{{"a_best_effort_lower", whileBorr}, {"b_standard_mid", inCQ}},
		},
		// Lending limits.
		"reclaim quota from lender": {
			admitted: []*wlWrapper{
				admitted("lend1-low", "lend1").Priority(-1).Use("default", cpu, "3"),
				admitted("lend2-mid", "lend2").Use("default", cpu, "3"),
				admitted("lend2-high", "lend2").Priority(1).Use("default", cpu, "4"),
			},
			incoming: incoming("lend1").Priority(1).Preempt("default", cpu, "3"),
			want:     []target{{"lend2-mid", reclaim}},
		},
		"preempt from all ClusterQueues in cohort-lend": {
			admitted: []*wlWrapper{
				admitted("lend1-low", "lend1").Priority(-1).Use("default", cpu, "3"),
				admitted("lend1-mid", "lend1").Use("default", cpu, "2"),
				admitted("lend2-low", "lend2").Priority(-1).Use("default", cpu, "3"),
				admitted("lend2-mid", "lend2").Use("default", cpu, "4"),
			},
			incoming: incoming("lend1").Preempt("default", cpu, "4"),
			want:     []target{{"lend1-low", inCQ}, {"lend2-low", reclaim}},
		},
		"cannot preempt from other ClusterQueues if exceeds requestable quota including lending limit": {
			admitted: []*wlWrapper{
				admitted("lend2-low", "lend2").Priority(-1).Use("default", cpu, "10"),
			},
			incoming: incoming("lend1").Preempt("default", cpu, "9"),
		},
		// The preemptor's queue is above nominal and borrowWithinCohort is
		// Never: only the pass that allows borrowing runs, so the other
		// queues' ReclaimWithoutBorrowing candidates are never valid.
		"preemptions from cq when target queue is exhausted for the single requested resource": {
			admitted: []*wlWrapper{
				admitted("a1", "a").Priority(-2).Use("default", cpu, "1"),
				admitted("a2", "a").Priority(-2).Use("default", cpu, "1"),
				admitted("a3", "a").Priority(-1).Use("default", cpu, "1"),
				admitted("b1", "b").Use("default", cpu, "1"),
				admitted("b2", "b").Use("default", cpu, "1"),
				admitted("b3", "b").Use("default", cpu, "1"),
			},
			incoming: incoming("a").Preempt("default", cpu, "2"),
			want:     []target{{"a1", inCQ}, {"a2", inCQ}},
		},
		"preemptions from cq when target queue is exhausted for two requested resources": {
			admitted: []*wlWrapper{
				admitted("a1", "a").Priority(-2).Use("default", cpu, "1").Use("default", mem, "1"),
				admitted("a2", "a").Priority(-2).Use("default", cpu, "1").Use("default", mem, "1"),
				admitted("a3", "a").Priority(-1).Use("default", cpu, "1").Use("default", mem, "1"),
				admitted("b1", "b").Use("default", cpu, "1").Use("default", mem, "1"),
				admitted("b2", "b").Use("default", cpu, "1").Use("default", mem, "1"),
				admitted("b3", "b").Use("default", cpu, "1").Use("default", mem, "1"),
			},
			incoming: incoming("a").Preempt("default", cpu, "2").Preempt("default", mem, "2"),
			want:     []target{{"a1", inCQ}, {"a2", inCQ}},
		},
		"preemptions from cq when target queue is exhausted for one requested resource, but not the other": {
			admitted: []*wlWrapper{
				admitted("a1", "a").Priority(-2).Use("default", cpu, "1"),
				admitted("a2", "a").Priority(-2).Use("default", cpu, "1"),
				admitted("a3", "a").Priority(-1).Use("default", cpu, "1"),
				admitted("b1", "b").Use("default", cpu, "1"),
				admitted("b2", "b").Use("default", cpu, "1"),
				admitted("b3", "b").Use("default", cpu, "1"),
			},
			incoming: incoming("a").Preempt("default", cpu, "2").Preempt("default", mem, "2"),
			want:     []target{{"a1", inCQ}, {"a2", inCQ}},
		},
		// Under nominal with borrowWithinCohort Never and no hierarchical
		// candidate: the pass without borrowing comes first. It removes
		// b5, b1, b2, a1; fill-back gives b2 and b1 back.
		"allow preemption from other cluster queues if target cq is not exhausted for the requested resource": {
			admitted: []*wlWrapper{
				admitted("a1", "a").Priority(-1).Use("default", cpu, "1"),
				admitted("b1", "b").Use("default", cpu, "1"),
				admitted("b2", "b").Use("default", cpu, "1"),
				admitted("b3", "b").Use("default", cpu, "1"),
				admitted("b4", "b").Use("default", cpu, "1"),
				admitted("b5", "b").Priority(-1).Use("default", cpu, "1"),
			},
			incoming: incoming("a").Preempt("default", cpu, "2"),
			want:     []target{{"a1", inCQ}, {"b5", reclaim}},
		},
		// Not a Kueue test case; expected from classicalPreemptions: with
		// borrowWithinCohort Never, c1 under nominal and no hierarchical
		// candidate, the pass without borrowing runs first. It removes
		// c2-low (c1 would still borrow), then c1-a (3+3 <= 6): fits, and
		// c2-low cannot be given back. The pass with borrowing, had it run
		// first, would have found c1-b alone.
		"borrowWithinCohort Never, under nominal: the pass without borrowing comes first": {
			admitted: []*wlWrapper{
				admitted("c1-a", "c1").Priority(-2).Use("default", cpu, "2"),
				admitted("c1-b", "c1").Priority(-1).Use("default", cpu, "3"),
				admitted("c2-low", "c2").Priority(-1).Use("default", cpu, "7"),
			},
			incoming:   incoming("c1").Preempt("default", cpu, "3"),
			want:       []target{{"c1-a", inCQ}, {"c2-low", reclaim}},
			candidates: []string{"c2-low", "c1-a", "c1-b"},
		},
		// Not a Kueue test case; expected from classicalPreemptions: a is
		// at its nominal quota (not under it) and borrowWithinCohort is
		// Never, so only the pass allowing borrowing runs: b1 is invalid
		// there, and removing a-x leaves room (the cohort has 1 free). The
		// pass without borrowing would have needed a-y.
		"borrowWithinCohort Never, at nominal: only the pass with borrowing": {
			admitted: []*wlWrapper{
				admitted("a-x", "a").Priority(-2).Use("default", cpu, "500m"),
				admitted("a-y", "a").Priority(-1).Use("default", cpu, "1500m"),
				admitted("b1", "b").Use("default", cpu, "3"),
			},
			incoming:   incoming("a").Preempt("default", cpu, "1500m"),
			want:       []target{{"a-x", inCQ}},
			candidates: []string{"b1", "a-x", "a-y"},
		},
		// Not a Kueue test case; expected from classifyPreemptionVariant /
		// isAboveBorrowingThreshold: a candidate of the same priority is
		// ReclaimWithoutBorrowing even with borrowWithinCohort
		// LowerPriority, and b_standard (nominal 1) would still borrow.
		"use BorrowWithinCohort; a same-priority workload is not reclaimed while borrowing": {
			admitted: []*wlWrapper{
				admitted("a_best_effort", "a_best_effort").Use("default", cpu, "13"),
			},
			incoming:   incoming("b_standard").Preempt("default", cpu, "2"),
			candidates: []string{"a_best_effort"},
		},
		"long range preemption": {
			cqs: []core.ClusterQueue{
				hierCQ("cq-left", "cohort-left", "10").
					Preemption(core.PreemptionNever, core.PreemptionAny, core.PreemptionNever, nil).Obj(),
				hierCQ("cq-right", "cohort-right", "0").
					Preemption(core.PreemptionNever, core.PreemptionNever, core.PreemptionNever, nil).Obj(),
			},
			cohorts: []core.Cohort{
				cpuCohort("cohort-left", "root", ""),
				cpuCohort("cohort-right", "root", ""),
			},
			admitted: []*wlWrapper{
				admitted("to-be-preempted", "cq-right").Use("default", cpu, "5"),
			},
			incoming: incoming("cq-left").Preempt("default", cpu, "8"),
			want:     []target{{"to-be-preempted", reclaim}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) { runTargets(t, tc) })
	}
}

// TestTargetsHierarchical ports Kueue v0.16.1's TestHierarchicalPreemptions
// (pkg/scheduler/preemption/preemption_hierarchical_test.go).
func TestTargetsHierarchical(t *testing.T) {
	lp, any := core.PreemptionLowerPriority, core.PreemptionAny
	r := cpuCohort("r", "", "")
	cohort := func(name, parent, nominal string) core.Cohort { return cpuCohort(name, parent, nominal) }
	cases := map[string]targetsCase{
		//            R
		//      /      |
		//   C(2) q_borrowing(0)
		//  /
		// q
		"preempt with hierarchical advantage": {
			cohorts: []core.Cohort{r, cohort("c", "r", "2")},
			cqs: []core.ClusterQueue{
				hierCQ("q", "c", "").Obj(),
				hierCQ("q_borrowing", "r", "").Obj(),
			},
			admitted: []*wlWrapper{
				admitted("admitted2", "q_borrowing").Use("default", cpu, "2"),
			},
			incoming: incoming("q").Preempt("default", cpu, "2"),
			want:     []target{{"admitted2", reclaim}},
		},
		"avoid queues within nominal quota": {
			cohorts: []core.Cohort{r, cohort("c", "r", "2")},
			cqs: []core.ClusterQueue{
				hierCQ("q_nominal", "r", "2").Obj(),
				hierCQ("q", "c", "").Obj(),
				hierCQ("q_borrowing", "r", "").Obj(),
			},
			admitted: []*wlWrapper{
				admitted("admitted1", "q_nominal").Priority(-10).Use("default", cpu, "2"),
				admitted("admitted2", "q_borrowing").Use("default", cpu, "2"),
			},
			incoming: incoming("q").Preempt("default", cpu, "2"),
			want:     []target{{"admitted2", reclaim}},
			// q_nominal is within its nominal quota: no candidates from it.
			candidates: []string{"admitted2"},
		},
		"preempt multiple with hierarchical advantage": {
			cohorts: []core.Cohort{r, cohort("c", "r", "2")},
			cqs: []core.ClusterQueue{
				hierCQ("q", "c", "").Obj(),
				hierCQ("q_borrowing", "r", "").Obj(),
			},
			admitted: []*wlWrapper{
				admitted("admitted1", "q_borrowing").Priority(1).Use("default", cpu, "1"),
				admitted("admitted2", "q_borrowing").Priority(2).Use("default", cpu, "1"),
			},
			incoming: incoming("q").Preempt("default", cpu, "2"),
			want:     []target{{"admitted1", reclaim}, {"admitted2", reclaim}},
		},
		"preempt in cohort and own CQ": {
			cohorts: []core.Cohort{r, cohort("c", "r", "3")},
			cqs: []core.ClusterQueue{
				hierCQ("q", "c", "").Preemption(lp, any, lp, ptr[int32](0)).Obj(),
				hierCQ("q_same_cohort", "c", "").Obj(),
			},
			admitted: []*wlWrapper{
				admitted("admitted_not_preemptible", "q_same_cohort").Priority(1).Use("default", cpu, "1"),
				// Requests 1 but was assigned 2.
				admitted("admitted_preemptible", "q_same_cohort").Use("default", cpu, "2"),
				admitted("admitted_own_queue", "q").Priority(-1).Use("default", cpu, "1"),
			},
			incoming: incoming("q").Priority(1).Preempt("default", cpu, "2"),
			want:     []target{{"admitted_own_queue", inCQ}, {"admitted_preemptible", whileBorr}},
		},
		// Other queues before the own one: the hierarchical candidate goes
		// first although the own queue's candidate has a lower priority.
		"prefer to preempt hierarchical candidate": {
			cohorts: []core.Cohort{r, cohort("c", "r", "2")},
			cqs: []core.ClusterQueue{
				hierCQ("q", "c", "").Obj(),
				hierCQ("q_borrowing", "r", "").Obj(),
			},
			admitted: []*wlWrapper{
				admitted("admitted_borrowing", "q_borrowing").Priority(1).Use("default", cpu, "1"),
				admitted("admitted_same_queue", "q").Priority(-2).Use("default", cpu, "1"),
			},
			incoming: incoming("q").Preempt("default", cpu, "1"),
			want:     []target{{"admitted_borrowing", reclaim}},
		},
		"forced to preempt priority candidate": {
			cohorts: []core.Cohort{r, cohort("c", "r", "2")},
			cqs: []core.ClusterQueue{
				hierCQ("q", "c", "").Preemption(lp, any, lp, ptr[int32](0)).Obj(),
				hierCQ("q_nominal", "r", "2").Obj(),
				hierCQ("q_same_cohort", "c", "").Obj(),
			},
			admitted: []*wlWrapper{
				admitted("admitted_nominal", "q_nominal").Priority(-10).Use("default", cpu, "2"),
				admitted("admitted_same_cohort", "q_same_cohort").Priority(-1).Use("default", cpu, "2"),
			},
			incoming: incoming("q").Preempt("default", cpu, "2"),
			want:     []target{{"admitted_same_cohort", whileBorr}},
		},
		"incoming workload fits in CQ nominal quota": {
			cohorts: []core.Cohort{r, cohort("c", "r", "2")},
			cqs: []core.ClusterQueue{
				hierCQ("q", "c", "4").Obj(),
				hierCQ("q_borrowing", "r", "").Obj(),
				hierCQ("q_same_cohort", "c", "").Obj(),
			},
			admitted: []*wlWrapper{
				admitted("admitted_borrowing", "q_borrowing").Priority(10).Use("default", cpu, "3"),
				admitted("admitted_same_cohort", "q_same_cohort").Priority(10).Use("default", cpu, "3"),
			},
			incoming: incoming("q").Preempt("default", cpu, "4"),
			want:     []target{{"admitted_borrowing", reclaim}, {"admitted_same_cohort", reclaim}},
		},
		"preempt hierarchical and priority candidates": {
			cohorts: []core.Cohort{cohort("r", "", "1"), cohort("c", "r", "4")},
			cqs: []core.ClusterQueue{
				hierCQ("q", "c", "").Preemption(lp, lp, lp, ptr[int32](0)).Obj(),
				hierCQ("q_borrowing", "r", "").Obj(),
				hierCQ("q_same_cohort", "c", "").Obj(),
			},
			admitted: []*wlWrapper{
				admitted("admitted_borrowing", "q_borrowing").Priority(-1).Use("default", cpu, "2"),
				admitted("admitted_same_cohort_preemptible", "q_same_cohort").Priority(-1).Use("default", cpu, "1"),
				admitted("admitted_borrowing_not_preemptible", "q_borrowing").Priority(1).Use("default", cpu, "2"),
			},
			incoming: incoming("q").Preempt("default", cpu, "3"),
			want:     []target{{"admitted_borrowing", reclaim}, {"admitted_same_cohort_preemptible", whileBorr}},
		},
		"preempt hierarchical candidates and inside CQ": {
			cohorts: []core.Cohort{cohort("r", "", "1"), cohort("c", "r", "4")},
			cqs: []core.ClusterQueue{
				hierCQ("q", "c", "").Preemption(lp, lp, lp, ptr[int32](0)).Obj(),
				hierCQ("q_borrowing", "r", "").Obj(),
				hierCQ("q_same_cohort", "c", "").Obj(),
			},
			admitted: []*wlWrapper{
				admitted("admitted_borrowing", "q_borrowing").Priority(-1).Use("default", cpu, "2"),
				admitted("admitted_same_queue_preemptible", "q").Priority(-1).Use("default", cpu, "1"),
				admitted("admitted_borrowing_not_preemptible", "q_borrowing").Priority(1).Use("default", cpu, "2"),
			},
			incoming: incoming("q").Preempt("default", cpu, "3"),
			want:     []target{{"admitted_borrowing", reclaim}, {"admitted_same_queue_preemptible", inCQ}},
		},
		"reclaim nominal quota from lowest priority workload, excluding non-borrowing": {
			cohorts: []core.Cohort{r, cohort("c", "r", "3")},
			cqs: []core.ClusterQueue{
				hierCQ("q", "c", "").Obj(),
				hierCQ("q_borrowing", "r", "").Obj(),
				hierCQ("q_nominal", "r", "2").Obj(),
			},
			admitted: []*wlWrapper{
				admitted("admitted_borrowing_prio_8", "q_borrowing").Priority(8).Use("default", cpu, "1"),
				admitted("admitted_borrowing_prio_9", "q_borrowing").Priority(9).Use("default", cpu, "1"),
				admitted("admitted_borrowing_prio_10", "q_borrowing").Priority(9).Use("default", cpu, "1"),
				admitted("admitted_nominal", "q_nominal").Priority(-2).Use("default", cpu, "2"),
			},
			incoming: incoming("q").Preempt("default", cpu, "1"),
			want:     []target{{"admitted_borrowing_prio_8", reclaim}},
		},
		"infeasible preemption all available workloads in pruned subtrees": {
			cohorts: []core.Cohort{r, cohort("c", "r", "2"), cohort("c_other", "r", "2")},
			cqs: []core.ClusterQueue{
				hierCQ("q_other", "c_other", "").Obj(),
				hierCQ("q", "c", "").Obj(),
				hierCQ("q_same_cohort", "c", "").Obj(),
			},
			admitted: []*wlWrapper{
				admitted("admitted_other_1", "q_other").Priority(-10).Use("default", cpu, "1"),
				admitted("admitted_other_2", "q_other").Priority(-10).Use("default", cpu, "1"),
				admitted("admitted_same_cohort", "q_same_cohort").Use("default", cpu, "2"),
			},
			incoming: incoming("q").Preempt("default", cpu, "2"),
			// c_other is within its quota: its subtree is not searched
			// (collectCandidatesInSubtree).
			candidates: []string{"admitted_same_cohort"},
		},
		"hiearchical preemption with multiple resources": {
			cohorts: []core.Cohort{
				cohort("r", "", "3"),
				makeCohort("c").Parent("r").Quota("default", []core.ResourceName{cpu, mem}, "4", "4Gi").Obj(),
			},
			cqs: []core.ClusterQueue{
				hierCQ("q", "c", "").Obj(),
				hierCQ("q_borrowing", "r", "").Obj(),
				hierCQ("q_same_cohort", "c", "").Obj(),
			},
			admitted: []*wlWrapper{
				admitted("admitted_borrowing", "q_borrowing").Use("default", cpu, "3").Use("default", mem, "1Gi"),
				admitted("admitted_same_cohort", "q_same_cohort").Priority(-2).Use("default", cpu, "1").Use("default", mem, "3Gi"),
			},
			incoming: incoming("q").Priority(-2).Preempt("default", cpu, "2").Preempt("default", mem, "1Gi"),
			want:     []target{{"admitted_borrowing", reclaim}},
		},
		// Kueue counts the evicted target in wantPreempted without a new
		// Preempted condition; its reason is the variant
		// classifyPreemptionVariant gives it (ReclaimWhileBorrowing).
		"prefer to preempt evicted workloads": {
			cohorts: []core.Cohort{r, cohort("c", "r", "2")},
			cqs: []core.ClusterQueue{
				hierCQ("q", "c", "").Preemption(lp, any, lp, ptr[int32](0)).Obj(),
				hierCQ("q_borrowing", "r", "").Obj(),
				hierCQ("q_same_cohort", "c", "").Obj(),
			},
			admitted: []*wlWrapper{
				admitted("admitted_borrowing", "q_borrowing").Priority(-10).Use("default", cpu, "1"),
				admitted("evicted_same_cohort", "q_same_cohort").Priority(-1).Use("default", cpu, "1").Evicted(),
			},
			incoming: incoming("q").Preempt("default", cpu, "1"),
			want:     []target{{"evicted_same_cohort", whileBorr}},
		},
		"respect lending limits": {
			cohorts: []core.Cohort{r, cohort("c", "r", "2")},
			cqs: []core.ClusterQueue{
				hierCQ("q", "c", "3").Limits(cpu, "", "2").Obj(),
				hierCQ("q_borrowing", "r", "").Obj(),
			},
			admitted: []*wlWrapper{
				admitted("admitted_borrowing", "q_borrowing").Use("default", cpu, "4"),
			},
			incoming: incoming("q").Priority(-2).Preempt("default", cpu, "5"),
			want:     []target{{"admitted_borrowing", reclaim}},
		},
		// Only one of q2's workloads is preempted: after the first, cohort
		// c23 is back within its quota.
		"reclaim in complex hierarchy": {
			cohorts: []core.Cohort{
				r,
				cohort("c11", "r", "4"), cohort("c12", "r", "4"),
				cohort("c21", "c11", "4"), cohort("c22", "c11", "4"), cohort("c23", "c11", "4"),
				cohort("c31", "c21", "4"), cohort("c32", "c21", "4"),
			},
			cqs: []core.ClusterQueue{
				hierCQ("q1", "c12", "").Obj(),
				hierCQ("q2", "c23", "").Obj(),
				hierCQ("q3", "c22", "").Obj(),
				hierCQ("q4", "c32", "").Obj(),
				hierCQ("q5", "c31", "").Obj(),
			},
			admitted: []*wlWrapper{
				admitted("admitted_borrowing_1", "q1").Priority(-6).Use("default", cpu, "4"),
				admitted("admitted_borrowing_2", "q1").Priority(-5).Use("default", cpu, "4"),
				admitted("admitted_borrowing_3", "q2").Priority(-9).Use("default", cpu, "4"),
				admitted("admitted_borrowing_4", "q2").Priority(-10).Use("default", cpu, "4"),
				admitted("admitted_borrowing_5", "q3").Priority(-4).Use("default", cpu, "4"),
				admitted("admitted_borrowing_6", "q3").Priority(-3).Use("default", cpu, "3"),
				admitted("admitted_borrowing_7", "q4").Priority(4).Use("default", cpu, "2"),
				admitted("admitted_borrowing_8", "q4").Priority(2).Use("default", cpu, "3"),
			},
			incoming: incoming("q5").Priority(-2).Preempt("default", cpu, "7"),
			want:     []target{{"admitted_borrowing_1", reclaim}, {"admitted_borrowing_4", reclaim}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) { runTargets(t, tc) })
	}
}

// TestCandidateOrder ports Kueue v0.16.1's TestCandidatesOrdering (without
// AdmissionFairSharing) through the order in which Targets tries the
// candidates (trace.Preemption.Candidates).
func TestCandidateOrder(t *testing.T) {
	any, never := core.PreemptionAny, core.PreemptionNever
	cqs := []core.ClusterQueue{
		coretest.MakeClusterQueue("preemptor").Cohort("all").Group(cpu).Flavor("default", "10").
			Preemption(any, any, never, nil).Obj(),
		coretest.MakeClusterQueue("other").Cohort("all").Group(cpu).Flavor("default", "0").Obj(),
	}
	cases := map[string]struct {
		admitted []*wlWrapper
		want     []string
	}{
		"workloads sorted by priority": {
			admitted: []*wlWrapper{
				admitted("high", "preemptor").Priority(10).Use("default", cpu, "1"),
				admitted("low", "preemptor").Priority(-10).Use("default", cpu, "1"),
			},
			want: []string{"low", "high"},
		},
		"evicted workload first": {
			admitted: []*wlWrapper{
				admitted("other", "preemptor").Priority(10).Use("default", cpu, "1"),
				admitted("evicted", "preemptor").Use("default", cpu, "1").Evicted(),
			},
			want: []string{"evicted", "other"},
		},
		"workload from different CQ first": {
			admitted: []*wlWrapper{
				admitted("preemptorCq", "preemptor").Priority(10).Use("default", cpu, "1"),
				admitted("other", "other").Priority(10).Use("default", cpu, "1"),
			},
			want: []string{"other", "preemptorCq"},
		},
		"old workloads last": {
			admitted: []*wlWrapper{
				admitted("older", "preemptor").ReservedAt(-time.Second).Use("default", cpu, "1"),
				admitted("younger", "preemptor").ReservedAt(time.Second).Use("default", cpu, "1"),
				admitted("current", "preemptor").Use("default", cpu, "1"),
			},
			want: []string{"younger", "current", "older"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			w := build(t, cqs, nil, tc.admitted)
			// More than the cohort holds: every candidate is tried.
			p := w.preemptor(t, incoming("preemptor").Preempt("default", cpu, "20"))
			before := usage(w.s.Tree)
			got, tr := preempt.Targets(w.s, p, true)
			if len(got) != 0 {
				t.Errorf("Targets = %v, want none", simplify(got))
			}
			var order []string
			for _, c := range tr.Candidates {
				order = append(order, c.Workload)
			}
			if diff := cmp.Diff(tc.want, order); diff != "" {
				t.Errorf("candidate order (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, usage(w.s.Tree)); diff != "" {
				t.Errorf("Targets changed the tree's usage (-want +got):\n%s", diff)
			}
		})
	}
}

// TestOracle checks SimulatePreemption against Kueue v0.16.1's
// preemption_oracle.go: NoCandidates when getTargets finds none (borrowing
// level of the current usage), else Preempt when a target is in the
// preemptor's ClusterQueue and Reclaim otherwise, with the borrowing level
// FindHeightOfLowestSubtreeThatFits gives after the targets' removal. The
// set-ups are those of the TestPreemption / TestHierarchicalPreemptions
// cases of the same name.
func TestOracle(t *testing.T) {
	complexHierarchy := []core.Cohort{
		cpuCohort("r", "", ""),
		cpuCohort("c11", "r", "4"), cpuCohort("c12", "r", "4"),
		cpuCohort("c21", "c11", "4"), cpuCohort("c22", "c11", "4"), cpuCohort("c23", "c11", "4"),
		cpuCohort("c31", "c21", "4"), cpuCohort("c32", "c21", "4"),
	}
	cases := map[string]struct {
		cqs      []core.ClusterQueue
		cohorts  []core.Cohort
		admitted []*wlWrapper
		incoming *incomingWrapper
		fr       core.FlavorResource
		quantity string
		want     flavor.OracleResult
	}{
		// Standalone: no parent, so the borrowing level is 0.
		"no candidates: not enough low priority workloads": {
			admitted: []*wlWrapper{
				admitted("low", "standalone").Priority(-1).Use("default", cpu, "3"),
				admitted("mid", "standalone").Use("default", cpu, "3"),
			},
			incoming: incoming("standalone"),
			fr:       fr("default", cpu), quantity: "4",
			want: flavor.OracleResult{Mode: flavor.ModeNoCandidates, Borrowing: 0},
		},
		// c1 would borrow; no subtree fits, so the root cohort's height.
		"no candidates: not enough workloads borrowing": {
			admitted: []*wlWrapper{
				admitted("c1-high", "c1").Priority(1).Use("default", cpu, "4"),
				admitted("c2-low-1", "c2").Priority(-1).Use("default", cpu, "4"),
				admitted("c2-low-2", "c2").Priority(-1).Use("default", cpu, "4"),
			},
			incoming: incoming("c1").Priority(1),
			fr:       fr("default", cpu), quantity: "4",
			want: flavor.OracleResult{Mode: flavor.ModeNoCandidates, Borrowing: 1},
		},
		"no candidates: infeasible preemption all available workloads in pruned subtrees": {
			cohorts: []core.Cohort{cpuCohort("r", "", ""), cpuCohort("c", "r", "2"), cpuCohort("c_other", "r", "2")},
			cqs: []core.ClusterQueue{
				hierCQ("q_other", "c_other", "").Obj(),
				hierCQ("q", "c", "").Obj(),
				hierCQ("q_same_cohort", "c", "").Obj(),
			},
			admitted: []*wlWrapper{
				admitted("admitted_other_1", "q_other").Priority(-10).Use("default", cpu, "1"),
				admitted("admitted_other_2", "q_other").Priority(-10).Use("default", cpu, "1"),
				admitted("admitted_same_cohort", "q_same_cohort").Use("default", cpu, "2"),
			},
			incoming: incoming("q"),
			fr:       fr("default", cpu), quantity: "2",
			want: flavor.OracleResult{Mode: flavor.ModeNoCandidates, Borrowing: 2},
		},
		"preempt: preempt lowest priority": {
			admitted: []*wlWrapper{
				admitted("low", "standalone").Priority(-1).Use("default", cpu, "2"),
				admitted("mid", "standalone").Use("default", cpu, "2"),
				admitted("high", "standalone").Priority(1).Use("default", cpu, "2"),
			},
			incoming: incoming("standalone").Priority(1),
			fr:       fr("default", cpu), quantity: "2",
			want: flavor.OracleResult{Mode: flavor.ModePreempt, Borrowing: 0, Targets: []string{"low"}},
		},
		"preempt: one target in the own queue, one in the cohort": {
			admitted: []*wlWrapper{
				admitted("c1-low", "c1").Priority(-1).Use("default", cpu, "3"),
				admitted("c1-mid", "c1").Use("default", cpu, "2"),
				admitted("c2-low", "c2").Priority(-1).Use("default", cpu, "3"),
				admitted("c2-mid", "c2").Use("default", cpu, "4"),
			},
			incoming: incoming("c1"),
			fr:       fr("default", cpu), quantity: "4",
			want: flavor.OracleResult{Mode: flavor.ModePreempt, Borrowing: 0, Targets: []string{"c1-low", "c2-low"}},
		},
		"reclaim: reclaim quota from borrower": {
			admitted: []*wlWrapper{
				admitted("c1-low", "c1").Priority(-1).Use("default", cpu, "3"),
				admitted("c2-mid", "c2").Use("default", cpu, "3"),
				admitted("c2-high", "c2").Priority(1).Use("default", cpu, "6"),
			},
			incoming: incoming("c1").Priority(1),
			fr:       fr("default", cpu), quantity: "3",
			want: flavor.OracleResult{Mode: flavor.ModeReclaim, Borrowing: 0, Targets: []string{"c2-mid"}},
		},
		// a_standard (nominal 1) still borrows 9 after the preemption; the
		// cohort with_shared_cq (height 1) covers it.
		"reclaim while borrowing: borrowing level 1": {
			admitted: []*wlWrapper{
				admitted("a_best_effort_low", "a_best_effort").Priority(-1).Use("default", cpu, "10"),
				admitted("b_best_effort_low", "b_best_effort").Priority(-1).Use("default", cpu, "1"),
			},
			incoming: incoming("a_standard"),
			fr:       fr("default", cpu), quantity: "10",
			want: flavor.OracleResult{Mode: flavor.ModeReclaim, Borrowing: 1, Targets: []string{"a_best_effort_low"}},
		},
		// After the two targets leave, q5's 7 cpu fit first in c21
		// (quota 12, usage 5), whose height is 2.
		"reclaim: reclaim in complex hierarchy, borrowing level 2": {
			cohorts: complexHierarchy,
			cqs: []core.ClusterQueue{
				hierCQ("q1", "c12", "").Obj(),
				hierCQ("q2", "c23", "").Obj(),
				hierCQ("q3", "c22", "").Obj(),
				hierCQ("q4", "c32", "").Obj(),
				hierCQ("q5", "c31", "").Obj(),
			},
			admitted: []*wlWrapper{
				admitted("admitted_borrowing_1", "q1").Priority(-6).Use("default", cpu, "4"),
				admitted("admitted_borrowing_2", "q1").Priority(-5).Use("default", cpu, "4"),
				admitted("admitted_borrowing_3", "q2").Priority(-9).Use("default", cpu, "4"),
				admitted("admitted_borrowing_4", "q2").Priority(-10).Use("default", cpu, "4"),
				admitted("admitted_borrowing_5", "q3").Priority(-4).Use("default", cpu, "4"),
				admitted("admitted_borrowing_6", "q3").Priority(-3).Use("default", cpu, "3"),
				admitted("admitted_borrowing_7", "q4").Priority(4).Use("default", cpu, "2"),
				admitted("admitted_borrowing_8", "q4").Priority(2).Use("default", cpu, "3"),
			},
			incoming: incoming("q5").Priority(-2),
			fr:       fr("default", cpu), quantity: "7",
			want: flavor.OracleResult{Mode: flavor.ModeReclaim, Borrowing: 2, Targets: []string{"admitted_borrowing_1", "admitted_borrowing_4"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cqs := tc.cqs
			if cqs == nil {
				cqs = kueueClusterQueues()
			}
			w := build(t, cqs, tc.cohorts, tc.admitted)
			o := preempt.Oracle{S: w.s, P: *w.preemptor(t, tc.incoming)}
			before := usage(w.s.Tree)
			got := o.SimulatePreemption(tc.fr, coretest.Amount(tc.fr.Resource, tc.quantity))
			slices.Sort(got.Targets)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("SimulatePreemption (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, usage(w.s.Tree)); diff != "" {
				t.Errorf("SimulatePreemption changed the tree's usage (-want +got):\n%s", diff)
			}
			// The same oracle asked about other flavor-resources (one
			// with quota, one without), then again, answers the same.
			o.SimulatePreemption(fr("default", mem), coretest.Amount(mem, "1Gi"))
			o.SimulatePreemption(fr("none", cpu), coretest.Amount(cpu, "1"))
			again := o.SimulatePreemption(tc.fr, coretest.Amount(tc.fr.Resource, tc.quantity))
			slices.Sort(again.Targets)
			if diff := cmp.Diff(tc.want, again); diff != "" {
				t.Errorf("SimulatePreemption asked again (-want +got):\n%s", diff)
			}
			// Asked for the targets of the same question, it answers what
			// a fresh search finds: from its own search while the tree is
			// as that search found it, afresh once the tree changed (the
			// preemptor's queue then uses the request more).
			q := coretest.Amount(tc.fr.Resource, tc.quantity)
			p := o.P
			p.Usage = map[core.FlavorResource]core.Amount{tc.fr: q}
			p.Need = map[core.FlavorResource]bool{tc.fr: true}
			for _, when := range []string{"on the tree it searched", "after the tree changed"} {
				if when == "after the tree changed" {
					w.s.Tree.AddUsage(p.Node, tc.fr, q)
				}
				want, wantTr := preempt.Targets(w.s, &p, true)
				one := o.P
				gotOne, gotOneTr := o.TargetsOne(w.s, &one, tc.fr, q, true)
				if diff := cmp.Diff(want, gotOne); diff != "" {
					t.Errorf("TargetsOne %s (-want +got):\n%s", when, diff)
				}
				if diff := cmp.Diff(wantTr, gotOneTr); diff != "" {
					t.Errorf("TargetsOne's description %s (-want +got):\n%s", when, diff)
				}
			}
		})
	}
}

// TestNoCandidatesPossible checks the policies that leave a search
// without candidates whatever the snapshot holds (Kueue v0.16.1's
// collectSameQueueCandidates and collectCandidatesForHierarchicalReclaim
// collect none), on a snapshot where every source a policy allows has
// one: a lower-priority workload in the preemptor's queue, and one in a
// queue of its cohort above its nominal quota. Where none is possible,
// a search finds no candidate and the oracle answers NoCandidates with
// the borrowing level of the tree as it is.
func TestNoCandidatesPossible(t *testing.T) {
	never, lower, anyP := core.PreemptionNever, core.PreemptionLowerPriority, core.PreemptionAny
	cases := map[string]struct {
		cohort                  string
		within, reclaim, borrow core.PreemptionPolicy
		want                    bool
	}{
		"standalone, withinClusterQueue Never":                 {within: never, reclaim: anyP, borrow: never, want: true},
		"standalone, withinClusterQueue LowerPriority":         {within: lower, reclaim: never, borrow: never},
		"cohort, both Never":                                   {cohort: "co", within: never, reclaim: never, borrow: never, want: true},
		"cohort, both Never, borrowWithinCohort LowerPriority": {cohort: "co", within: never, reclaim: never, borrow: lower, want: true},
		"cohort, reclaimWithinCohort Any":                      {cohort: "co", within: never, reclaim: anyP, borrow: never},
		"cohort, withinClusterQueue LowerPriority":             {cohort: "co", within: lower, reclaim: never, borrow: never},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cqs := []core.ClusterQueue{
				coretest.MakeClusterQueue("a").Cohort(tc.cohort).Group(cpu).Flavor("default", "4").
					Preemption(tc.within, tc.reclaim, tc.borrow, nil).Obj(),
				coretest.MakeClusterQueue("b").Cohort("co").Group(cpu).Flavor("default", "4").Obj(),
			}
			w := build(t, cqs, nil, []*wlWrapper{
				admitted("a-low", "a").Priority(-1).Use("default", cpu, "2"),
				admitted("b-low", "b").Priority(-1).Use("default", cpu, "6"),
			})
			p := w.preemptor(t, incoming("a").Preempt("default", cpu, "4"))
			got := preempt.NoCandidatesPossible(w.s.Tree, p.Node, p.Queue)
			if got != tc.want {
				t.Errorf("NoCandidatesPossible = %v, want %v", got, tc.want)
			}
			_, tr := preempt.Targets(w.s, p, true)
			if searched := len(tr.Candidates) == 0; searched != tc.want {
				t.Errorf("a search found %d candidates; want none: %v", len(tr.Candidates), tc.want)
			}
			if !tc.want {
				return
			}
			q := coretest.Amount(cpu, "4")
			b, _ := w.s.Tree.LowestSubtreeThatFits(p.Node, fr("default", cpu), q)
			want := flavor.OracleResult{Mode: flavor.ModeNoCandidates, Borrowing: b}
			o := preempt.Oracle{S: w.s, P: *p}
			if diff := cmp.Diff(want, o.SimulatePreemption(fr("default", cpu), q)); diff != "" {
				t.Errorf("SimulatePreemption (-want +got):\n%s", diff)
			}
		})
	}
}

// TestClaims checks the KEP-4378 claims (playground only, no Kueue
// counterpart): target by target, for each flavor-resource that does not
// fit yet, the least part of the target's remaining usage whose removal
// makes it fit, or all of it. Expected values are worked out by hand from
// the quota arithmetic.
func TestClaims(t *testing.T) {
	type claim = map[core.FlavorResource]core.Amount
	defCPU := fr("default", cpu)
	cases := map[string]struct {
		admitted []*wlWrapper
		incoming *incomingWrapper
		targets  []string
		want     []claim
	}{
		// standalone: 6 cpu all used; 1 is enough.
		"a preemptor needing part of a target claims only that part": {
			admitted: []*wlWrapper{
				admitted("low", "standalone").Priority(-1).Use("default", cpu, "4"),
				admitted("high", "standalone").Priority(1).Use("default", cpu, "2"),
			},
			incoming: incoming("standalone").Priority(1).Preempt("default", cpu, "1"),
			targets:  []string{"low"},
			want:     []claim{{defCPU: 1000}},
		},
		// 1 cpu is free, but the preemptor waits for low anyway: it claims
		// its whole request from low and leaves the free cpu to others.
		"a waiting preemptor covers its request from the target, not from free capacity": {
			admitted: []*wlWrapper{
				admitted("low", "standalone").Priority(-1).Use("default", cpu, "2"),
				admitted("high", "standalone").Priority(1).Use("default", cpu, "3"),
			},
			incoming: incoming("standalone").Priority(1).Preempt("default", cpu, "2"),
			targets:  []string{"low"},
			want:     []claim{{defCPU: 2000}},
		},
		// low1's 2 are not enough, all of it is claimed; then 2 of low2's 3.
		"two targets: the first claimed whole, the second in part": {
			admitted: []*wlWrapper{
				admitted("low1", "standalone").Priority(-2).Use("default", cpu, "2"),
				admitted("low2", "standalone").Priority(-1).Use("default", cpu, "3"),
				admitted("high", "standalone").Priority(1).Use("default", cpu, "1"),
			},
			incoming: incoming("standalone").Priority(1).Preempt("default", cpu, "4"),
			targets:  []string{"low1", "low2"},
			want:     []claim{{defCPU: 2000}, {defCPU: 2000}},
		},
		// 1Gi of alpha memory is still free, but the preemptor waits for
		// low anyway: it covers its memory from low's usage too, leaving
		// the free 1Gi to others.
		"a flavor-resource that already fits is covered from the target first": {
			admitted: []*wlWrapper{
				admitted("low", "standalone").Priority(-1).Use("default", cpu, "4").Use("alpha", mem, "2Gi"),
				admitted("high", "standalone").Priority(1).Use("default", cpu, "2"),
			},
			incoming: incoming("standalone").Priority(1).Preempt("default", cpu, "1").Fit("alpha", mem, "1Gi"),
			targets:  []string{"low"},
			want:     []claim{{defCPU: 1000, fr("alpha", mem): 1 << 30}},
		},
		// c2 borrows 3 from the cohort (12/12 used); what c2-mid frees
		// reaches c1 through the cohort: 2 of its 3.
		"a target in another queue frees capacity through the cohort": {
			admitted: []*wlWrapper{
				admitted("c1-low", "c1").Priority(-1).Use("default", cpu, "3"),
				admitted("c2-mid", "c2").Use("default", cpu, "3"),
				admitted("c2-high", "c2").Priority(1).Use("default", cpu, "6"),
			},
			incoming: incoming("c1").Priority(1).Preempt("default", cpu, "2"),
			targets:  []string{"c2-mid"},
			want:     []claim{{defCPU: 2000}},
		},
		// cohort-lend: lend1 keeps 2 of its 6 (lendingLimit 4), lend2 keeps
		// 4 (lendingLimit 2); the cohort holds 6, all used: lend1 uses 5
		// (3 in the cohort), lend2 uses 7 (3 in the cohort). Removing w
		// frees for lend1 only lend2's 3 stored in the cohort: 3 of w are
		// claimed (the other 2 would free only lend2's own quota), then 1
		// of lend1's own w1 makes 4.
		"lending limit: a target frees through the cohort only what its queue stored there": {
			admitted: []*wlWrapper{
				admitted("w1", "lend1").Use("default", cpu, "5"),
				admitted("v", "lend2").Use("default", cpu, "2"),
				admitted("w", "lend2").Use("default", cpu, "5"),
			},
			incoming: incoming("lend1").Preempt("default", cpu, "4"),
			targets:  []string{"w", "w1"},
			want:     []claim{{defCPU: 3000}, {defCPU: 1000}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			w := build(t, kueueClusterQueues(), nil, tc.admitted)
			p := w.preemptor(t, tc.incoming)
			before := usage(w.s.Tree)
			got := preempt.Claims(w.s, p, w.targets(t, tc.targets...))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Claims (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, usage(w.s.Tree)); diff != "" {
				t.Errorf("Claims changed the tree's usage (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTargetsWithClaims covers Snapshot.Claimed (KEP-4378, playground
// only): a candidate frees only what earlier preemptors left of it.
func TestTargetsWithClaims(t *testing.T) {
	type claim = map[core.FlavorResource]core.Amount
	defCPU := fr("default", cpu)
	holders := func() []*wlWrapper {
		return []*wlWrapper{
			admitted("low", "standalone").Priority(-1).Use("default", cpu, "4"),
			admitted("mid", "standalone").Use("default", cpu, "2"),
		}
	}
	cases := map[string]struct {
		claimed  claim // of low
		incoming *incomingWrapper
		want     []target
		frees    []claim
		cands    []string
	}{
		// The tree holds 1 of low and 2 of mid: 3 free; low's 1 makes 4.
		"a partly claimed candidate frees only what is left": {
			claimed:  claim{defCPU: 3000},
			incoming: incoming("standalone").Priority(1).Preempt("default", cpu, "4"),
			want:     []target{{"low", inCQ}},
			frees:    []claim{{defCPU: 1000}},
			cands:    []string{"low", "mid"},
		},
		// Nothing is left of low: it is no candidate, mid is taken.
		"a fully claimed candidate is not a candidate": {
			claimed:  claim{defCPU: 4000},
			incoming: incoming("standalone").Priority(1).Preempt("default", cpu, "5"),
			want:     []target{{"mid", inCQ}},
			frees:    []claim{{defCPU: 2000}},
			cands:    []string{"mid"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			w := build(t, kueueClusterQueues(), nil, holders())
			low := w.byKey["low"]
			w.s.Claimed = map[int]map[core.FlavorResource]core.Amount{low.Index: tc.claimed}
			w.s.Tree.RemoveUsageMap(low.Node, tc.claimed)
			p := w.preemptor(t, tc.incoming)
			before := usage(w.s.Tree)
			got, tr := preempt.Targets(w.s, p, true)
			if diff := cmp.Diff(tc.want, simplify(got)); diff != "" {
				t.Errorf("Targets (-want +got):\n%s", diff)
			}
			var cands []string
			for _, c := range tr.Candidates {
				cands = append(cands, c.Workload)
			}
			if diff := cmp.Diff(tc.cands, cands); diff != "" {
				t.Errorf("candidates (-want +got):\n%s", diff)
			}
			var frees []claim
			for _, g := range got {
				frees = append(frees, g.Frees)
			}
			if diff := cmp.Diff(tc.frees, frees); diff != "" {
				t.Errorf("Frees (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, usage(w.s.Tree)); diff != "" {
				t.Errorf("Targets changed the tree's usage (-want +got):\n%s", diff)
			}
		})
	}
}
