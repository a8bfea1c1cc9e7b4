package sim

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/flavor"
	"github.com/kueueplay/kueueplay/core/quota"
	"github.com/kueueplay/kueueplay/core/trace"
)

// requeueReason mirrors qcache.RequeueReason.
type requeueReason string

const (
	reasonGeneric               requeueReason = "Generic"
	reasonNamespaceMismatch     requeueReason = "NamespaceMismatch"
	reasonFailedAfterNomination requeueReason = "FailedAfterNomination"
	reasonPendingPreemption     requeueReason = "PendingPreemption"
)

// entryStatus mirrors the scheduler's entryStatus.
type entryStatus int

const (
	notNominated entryStatus = iota
	skipped
	assumed
)

// entry is one head being scheduled in a cycle (scheduler.entry).
type entry struct {
	wl, queue  int
	assignment flavor.Assignment
	nominated  bool
	status     entryStatus
	msg        string
	reason     requeueReason
	last       *flavor.LastState
	decision   trace.Decision
}

// noPreemptionOracle answers the flavor assigner's question "could
// preemption make room?" for a ClusterQueue whose preemption finds no
// candidates: NoCandidates, with the borrowing level the request would
// need (preemption.PreemptionOracle.SimulatePreemption when getTargets
// returns nothing). The preemption engine replaces it.
type noPreemptionOracle struct {
	tree *quota.Tree
	node int
}

func (o noPreemptionOracle) SimulatePreemption(fr core.FlavorResource, q core.Amount) (flavor.PreemptionMode, int) {
	borrow, _ := o.tree.LowestSubtreeThatFits(o.node, fr, q)
	return flavor.ModeNoCandidates, borrow
}

// cycle runs one scheduling cycle on s (scheduler.schedule), numbered as
// in Kueue:
//
//  1. Pop the head of every active ClusterQueue, in name order.
//  2. Take a snapshot of quota usage.
//  3. Nominate: check the namespace selector, then assign flavors against
//     the snapshot.
//  4. Order the entries: lower borrowing level, higher priority (gate
//     PrioritySortingWithinCohort), earlier creation, then name.
//  5. Process each entry against the snapshot, which earlier entries
//     change: admit what still fits, reserve capacity for entries that need
//     preemption, skip entries that no longer fit.
//  6. Requeue every entry that was not admitted, immediately or parked.
//
// It returns whether anything changed, for the quiescence check.
func (s *State) cycle(ts *trace.Step) bool {
	s.Cycles++
	changed := false

	// 1. Heads.
	var entries []*entry
	for qi, q := range s.Queues {
		if !q.Active {
			continue
		}
		if w := s.pop(qi); w >= 0 {
			entries = append(entries, &entry{wl: w, queue: qi})
			ts.Heads = append(ts.Heads, trace.Head{ClusterQueue: q.Spec.Name, Workload: s.Workload(w).Key})
		}
	}

	// 2. Snapshot: a private copy of usage that reservations may change.
	snap := s.Tree.Clone()

	// 3. Nominate.
	for _, e := range entries {
		s.nominate(e, snap)
	}

	// 4. Order.
	nominated := make([]*entry, 0, len(entries))
	for _, e := range entries {
		if e.nominated {
			nominated = append(nominated, e)
		}
	}
	prioritySort := s.Gates.Enabled(core.GatePrioritySortingWithinCohort)
	slices.SortStableFunc(nominated, func(a, b *entry) int {
		if c := cmp.Compare(a.assignment.Borrowing, b.assignment.Borrowing); c != 0 {
			return c
		}
		wa, wb := s.Workload(a.wl), s.Workload(b.wl)
		if prioritySort {
			if c := cmp.Compare(wb.Spec.Priority, wa.Spec.Priority); c != 0 {
				return c
			}
		}
		return creationOrder(wa, wb)
	})

	// 5. Process.
	for order, e := range nominated {
		e.decision.Order = order + 1
		s.process(e, snap)
	}

	// 6. Requeue.
	for _, e := range entries {
		if e.status == assumed {
			changed = true
			continue
		}
		if s.requeue(e) {
			changed = true
		}
	}
	// Decisions in processing order, then the entries that were not
	// nominated, in ClusterQueue order.
	for _, e := range nominated {
		ts.Decisions = append(ts.Decisions, e.decision)
	}
	for _, e := range entries {
		if !e.nominated {
			ts.Decisions = append(ts.Decisions, e.decision)
		}
	}
	return changed
}

// nominate fills e's assignment (scheduler.nominate), or marks it
// inadmissible.
func (s *State) nominate(e *entry, snap *quota.Tree) {
	w := s.Workload(e.wl)
	q := s.Queues[e.queue]
	e.last = w.Last
	e.decision = trace.Decision{Workload: w.Key, ClusterQueue: q.Spec.Name, Priority: w.Spec.Priority}
	labels := s.namespaceLabels(w.Spec.Namespace)
	if !q.Spec.NamespaceSelector.Matches(labels) {
		e.msg = "Workload namespace doesn't match ClusterQueue selector"
		e.reason = reasonNamespaceMismatch
		e.decision.Outcome = trace.OutcomeInadmissible
		if q.Spec.NamespaceSelector == nil {
			e.decision.Explanation = fmt.Sprintf("ClusterQueue %s has no namespaceSelector, which admits no namespace; set namespaceSelector: {} to admit every namespace", q.Spec.Name)
		} else {
			e.decision.Explanation = fmt.Sprintf("namespace %s (labels %s) does not match the namespaceSelector of ClusterQueue %s", w.Spec.Namespace, formatLabels(labels), q.Spec.Name)
		}
		return
	}
	e.nominated = true
	a := flavor.Assign(flavor.Input{
		ClusterQueue: q.Spec,
		Node:         q.Node,
		Tree:         snap,
		Flavors:      s.static.flavors,
		PodSets:      w.Spec.PodSets,
		Last:         w.Last,
		ResetReason:  w.ResetReason,
		Generation:   q.Generation,
		Gates:        s.Gates,
		Oracle:       noPreemptionOracle{tree: snap, node: q.Node},
	})
	e.assignment = a
	e.msg = a.Message()
	ls := a.LastState
	e.last = &ls
	e.decision.Mode = a.Mode().String()
	e.decision.Borrowing = a.Borrowing
	for i := range a.PodSets {
		e.decision.PodSets = append(e.decision.PodSets, podSetDecision(&a.PodSets[i]))
	}
}

func podSetDecision(p *flavor.PodSetAssignment) trace.PodSetDecision {
	d := trace.PodSetDecision{PodSet: p.Name, Count: p.Count, Groups: p.Groups, Mode: p.Mode().String()}
	for _, r := range sortedKeys(p.Requests) {
		d.Requests = append(d.Requests, trace.Quantity{Resource: string(r), Amount: p.Requests[r], Text: core.FormatAmount(r, p.Requests[r])})
	}
	if p.Mode() != flavor.Fit {
		d.Message = p.Message()
	}
	return d
}

// process handles one nominated entry against the mutating snapshot
// (step 5 of scheduler.schedule).
func (s *State) process(e *entry, snap *quota.Tree) {
	q := s.Queues[e.queue]
	switch e.assignment.Mode() {
	case flavor.NoFit:
		e.decision.Outcome = trace.OutcomeNoFit
		return
	case flavor.Preempt:
		// No preemption targets: reserve capacity unless the queue can
		// always reclaim (preemption.CanAlwaysReclaim).
		e.decision.Outcome = trace.OutcomeNeedsPreemption
		if q.Spec.Preemption.ReclaimWithinCohort != core.PreemptionAny {
			res := resourcesToReserve(e, q, snap)
			snap.AddUsageMap(q.Node, res)
			for _, fr := range quota.SortedKeys(res) {
				e.decision.Reserved = append(e.decision.Reserved, trace.Quantity{
					Flavor: string(fr.Flavor), Resource: string(fr.Resource), Amount: res[fr], Text: core.FormatAmount(fr.Resource, res[fr]),
				})
			}
			e.decision.Explanation = "needs preemption but found no candidates; the capacity it needs is reserved for the rest of this cycle so that lower entries cannot take it"
		} else {
			e.decision.Explanation = "needs preemption but found no candidates; nothing is reserved because reclaimWithinCohort is Any"
		}
		return
	}
	usage := e.assignment.Usage
	if !snap.Fits(q.Node, usage) {
		e.status = skipped
		e.msg = "Workload no longer fits after processing another workload"
		e.last = nil
		e.decision.Outcome = trace.OutcomeSkipped
		return
	}
	snap.AddUsageMap(q.Node, usage)
	s.admit(e)
}

// resourcesToReserve is what an entry that needs preemption but has no
// targets holds in the snapshot (scheduler.quotaResourcesToReserve): up to
// its nominal quota, or up to its borrowing limit when it borrows.
func resourcesToReserve(e *entry, q *ClusterQueue, snap *quota.Tree) map[core.FlavorResource]core.Amount {
	out := map[core.FlavorResource]core.Amount{}
	node := snap.Nodes[q.Node]
	for fr, u := range e.assignment.Usage {
		lim := node.Quotas[fr]
		used := node.Usage[fr]
		if e.assignment.Borrowing > 0 {
			if lim.BorrowingLimit == nil {
				out[fr] = u
			} else {
				out[fr] = min(u, lim.Nominal+*lim.BorrowingLimit-used)
			}
		} else {
			out[fr] = max(0, min(u, lim.Nominal-used))
		}
	}
	return out
}

// admit reserves quota for the entry (scheduler.admit + cache assume).
func (s *State) admit(e *entry) {
	e.status = assumed
	q := s.Queues[e.queue]
	w := s.mutWorkload(e.wl)
	a := &Admission{ClusterQueue: q.Spec.Name, Usage: e.assignment.Usage}
	for i := range e.assignment.PodSets {
		p := &e.assignment.PodSets[i]
		aps := AdmittedPodSet{Name: p.Name, Count: p.Count, Flavors: map[core.ResourceName]core.FlavorName{}}
		for r, f := range p.Flavors {
			aps.Flavors[r] = f.Flavor
		}
		a.PodSets = append(a.PodSets, aps)
	}
	w.Admission = a
	w.Status = Admitted
	w.Message, w.Explanation = "", ""
	w.Last = nil
	w.AdmittedAt = s.Now
	s.admitSeq++
	w.AdmitSeq = s.admitSeq
	if w.Spec.Runtime != nil {
		t := s.Now + *w.Spec.Runtime
		w.FinishAt = &t
	}
	s.setRunning(e.wl)
	s.Tree.AddUsageMap(q.Node, a.Usage)
	// The workload leaves its queue (sticky head included).
	s.removeFromQueue(e.queue, e.wl)
	e.decision.Outcome = trace.OutcomeAdmitted
	e.decision.Admission = admissionFlavors(a)
}

// requeue puts a non-admitted entry back (requeueAndUpdate,
// ClusterQueue.RequeueIfNotPresent) and records its message. It returns
// whether the workload's observable state changed.
func (s *State) requeue(e *entry) bool {
	q := s.Queues[e.queue]
	before := *s.Workload(e.wl)
	// requeueAndUpdate: a skipped entry with the generic reason failed
	// after nomination.
	reason := cmp.Or(e.reason, reasonGeneric)
	if e.status == skipped && reason == reasonGeneric {
		reason = reasonFailedAfterNomination
	}
	var immediate bool
	if q.Spec.QueueingStrategy == core.StrictFIFO {
		immediate = reason != reasonNamespaceMismatch
	} else {
		immediate = reason == reasonFailedAfterNomination || reason == reasonPendingPreemption
	}
	if e.nominated || e.status == skipped {
		// scheduler.nominate sets LastAssignment for nominated entries;
		// setSkipped clears it.
		m := s.mutWorkload(e.wl)
		m.Last = e.last
		m.ResetReason = ""
		if e.status == skipped {
			m.ResetReason = "the entry was skipped in the previous attempt (setSkipped clears the resume state)"
		}
	}
	immediate = immediate || s.Workload(e.wl).Last.PendingFlavors()
	w := s.mutWorkload(e.wl)
	w.Message = e.msg
	w.Explanation = e.decision.Explanation
	if immediate {
		s.pushHeap(e.queue, e.wl)
		e.decision.Requeue = "immediate"
	} else {
		s.park(e.queue, e.wl)
		e.decision.Requeue = "parked"
	}
	e.decision.RequeueReason = string(reason)
	e.decision.Message = e.msg
	after := s.Workload(e.wl)
	return before.Message != after.Message || before.Parked != after.Parked || !sameLast(before.Last, after.Last)
}

func sameLast(a, b *flavor.LastState) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Generation != b.Generation || len(a.TriedFlavorIdx) != len(b.TriedFlavorIdx) {
		return false
	}
	for i := range a.TriedFlavorIdx {
		if len(a.TriedFlavorIdx[i]) != len(b.TriedFlavorIdx[i]) {
			return false
		}
		for k, v := range a.TriedFlavorIdx[i] {
			if w, ok := b.TriedFlavorIdx[i][k]; !ok || w != v {
				return false
			}
		}
	}
	return true
}
