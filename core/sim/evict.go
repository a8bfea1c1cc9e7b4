package sim

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/preempt"
	"github.com/kueueplay/kueueplay/core/trace"
)

// humanReasons mirrors preemption.HumanReadablePreemptionReasons.
var humanReasons = map[string]string{
	preempt.ReasonInClusterQueue:                "prioritization in the ClusterQueue",
	preempt.ReasonInCohortReclamation:           "reclamation within the cohort",
	preempt.ReasonInCohortReclaimWhileBorrowing: "reclamation within the cohort while borrowing",
}

// cqPath is preemption.buildCQPath: "/root/.../parent/cq".
func (s *State) cqPath(qi int) string {
	t := s.Tree
	parts := []string{}
	for n := s.Queues[qi].Node; n >= 0; n = t.Nodes[n].Parent {
		parts = append(parts, t.Nodes[n].Name)
	}
	slices.Reverse(parts)
	return "/" + strings.Join(parts, "/")
}

// preemptionMessage is the condition message Kueue writes on a target
// (preemption.preemptionMessage). The simulation has no UIDs, so both read
// UNKNOWN, as Kueue writes for a workload without one.
func (s *State) preemptionMessage(reason string, preemptorQ, targetQ int) string {
	return fmt.Sprintf("Preempted to accommodate a workload (UID: UNKNOWN, JobUID: UNKNOWN) due to %s; preemptor path: %s; preemptee path: %s",
		humanReasons[reason], s.cqPath(preemptorQ), s.cqPath(targetQ))
}

// issuePreemptions evicts the entry's targets (Preemptor.IssuePreemptions)
// and leaves the entry pending with Kueue's message. A target already
// evicted and still terminating is counted but not evicted again. It
// returns how many workloads it evicted.
func (s *State) issuePreemptions(e *entry, claims []map[core.FlavorResource]core.Amount, ts *trace.Step) int {
	evicted := 0
	e.preempting = true
	e.last = nil // scheduler.schedule: e.LastAssignment = nil
	e.reason = reasonPendingPreemption
	e.decision.Outcome = trace.OutcomePreempting
	preemptor := s.Workload(e.wl).Key
	tr := e.decision.Preemption
	for i, t := range e.targets {
		tq := s.QueueIndex(t.W.ClusterQueue)
		msg := s.preemptionMessage(t.Reason, e.queue, tq)
		w := s.Workload(t.W.Index)
		already := w.Status == Terminating
		if !already {
			s.evict(t.W.Index, t.Reason, msg, preemptor, ts)
			evicted++
		}
		if tr != nil && i < len(tr.Targets) {
			tt := &tr.Targets[i]
			tt.AlreadyEvicted = already
			if !already {
				// Kueue writes nothing on a target already evicted.
				tt.Message = msg
			}
			if claims != nil {
				tt.Claims = preempt.Quantities(claims[i])
			}
		}
	}
	e.msg += fmt.Sprintf(". Pending the preemption of %d workload(s)", len(e.targets))
	return evicted
}

// evict marks an admitted workload evicted by preemption: it keeps its
// quota until its termination delay is over (release).
func (s *State) evict(i int, reason, msg, by string, ts *trace.Step) {
	w := s.mutWorkload(i)
	w.Preemptions++
	w.Preempted = &Preemption{At: s.Now, Reason: reason, By: by}
	s.setShifted(i)
	w.Message = msg
	w.Explanation = fmt.Sprintf("evicted by %s (%s); it keeps its quota while it terminates", by, reason)
	delay := s.terminate(i)
	// Text: "evicted by <by> (<reason>); it releases its quota after its
	// termination delay of <delay>".
	ts.Events = append(ts.Events, trace.Event{Kind: trace.EventEvict, Workload: w.Key, ClusterQueue: w.Admission.ClusterQueue, Preemptor: by,
		Reason: reason, Delay: delay})
}

// terminate starts the termination of an evicted workload: it keeps its
// quota until its termination delay is over (release). It returns the
// delay.
func (s *State) terminate(i int) time.Duration {
	w := s.mutWorkload(i)
	w.Status = Terminating
	w.FinishAt = nil
	delay := s.Scenario.TerminationDelay
	if w.Spec.TerminationDelay != nil {
		delay = *w.Spec.TerminationDelay
	}
	w.ReleaseAt = s.duration(s.Now + delay)
	s.setRunning(i)
	s.setTerminating(i)
	// The Evicted=True patch reaches the cache as an update of a workload
	// it holds, which bumps the ClusterQueue's generation (see admit).
	if qi := w.Admission.queue; qi >= 0 {
		s.mutQueue(qi).Generation++
	}
	return delay
}

// Eviction reasons and messages of a stopped queue (workload.Evict's
// reason and message in WorkloadReconciler.reconcileOnLocalQueueActiveState
// and reconcileOnClusterQueueActiveState).
const (
	ReasonLocalQueueStopped   = "LocalQueueStopped"
	ReasonClusterQueueStopped = "ClusterQueueStopped"
	msgLocalQueueStopped      = "The LocalQueue is stopped"
	msgClusterQueueStopped    = "The ClusterQueue is stopped"
)

// drainStopped evicts, in document order, every admitted workload whose
// LocalQueue or ClusterQueue has stopPolicy HoldAndDrain, as the workload
// controller's Reconcile does for an admitted workload (Kueue reconciles
// every workload when it starts; the playground's stop policies never
// change during a run, so this happens once, at time 0).
// reconcileOnLocalQueueActiveState runs first: a workload of a draining
// LocalQueue is evicted with LocalQueueStopped. Otherwise
// reconcileOnClusterQueueActiveState looks at the ClusterQueue the queue
// manager maps the workload's LocalQueue to (Manager.ClusterQueueForWorkload),
// which it only knows for an existing LocalQueue that is not stopped: a
// workload of a missing or held LocalQueue is not evicted by its
// ClusterQueue's HoldAndDrain.
func (s *State) drainStopped(ts *trace.Step) {
	for i := range s.NumWorkloads() {
		w := s.Workload(i)
		if w.Status != Admitted {
			continue
		}
		lq := s.static.localQ[i]
		if lq == nil {
			continue
		}
		d := &Drain{At: s.Now}
		switch {
		case lq.StopPolicy == "HoldAndDrain":
			d.Reason, d.Message, d.LocalQueue = ReasonLocalQueueStopped, msgLocalQueueStopped, lq.Namespace+"/"+lq.Name
		case lq.StopPolicy != "" && lq.StopPolicy != "None":
			continue
		default:
			qi := s.QueueIndex(lq.ClusterQueue)
			if qi < 0 || s.Queues[qi].Spec.StopPolicy != "HoldAndDrain" {
				continue
			}
			d.Reason, d.Message, d.ClusterQueue = ReasonClusterQueueStopped, msgClusterQueueStopped, lq.ClusterQueue
		}
		s.drain(i, d, ts)
	}
}

// drain evicts workload i because its queue is stopped with HoldAndDrain.
func (s *State) drain(i int, d *Drain, ts *trace.Step) {
	w := s.mutWorkload(i)
	w.Drained = d
	w.Message = d.Message
	queue := "ClusterQueue " + d.ClusterQueue
	if d.LocalQueue != "" {
		queue = "LocalQueue " + d.LocalQueue
	}
	w.Explanation = fmt.Sprintf("evicted (%s) because %s has stopPolicy HoldAndDrain; it keeps its quota while it terminates", d.Reason, queue)
	delay := s.terminate(i)
	ts.Events = append(ts.Events, trace.Event{Kind: trace.EventEvict, Workload: w.Key, ClusterQueue: w.Admission.ClusterQueue, Reason: d.Reason,
		Message: fmt.Sprintf("evicted (%s: %s): %s has stopPolicy HoldAndDrain; it releases its quota after its termination delay of %v and is not queued again while the queue is stopped", d.Reason, d.Message, queue, delay)})
}

// release ends a terminating workload's termination: its quota is freed,
// its ClusterQueue's generation grows, it goes back to its queue as
// pending, and the parked workloads of its cohort tree are requeued (the
// job reconciler's UnsetQuotaReservationWithCondition with the eviction
// message, then the cache's deleteWorkload and
// QueueAssociatedInadmissibleWorkloadsAfter).
func (s *State) release(i int, ts *trace.Step) {
	if s.Workload(i).ScaledIn {
		s.remove(i, ts, Deleted, trace.Event{Kind: trace.EventDelete, Message: "its pod terminated and, its replacement having been deleted by a scale-in, it is not queued again; Kueue finishes its Workload"})
		return
	}
	w := s.mutWorkload(i)
	adm := w.Admission
	qi := adm.queue
	usage := adm.Usage
	w.Status = Pending
	w.Admission = nil
	w.ReleaseAt = nil
	w.Last = nil
	w.ResetReason = ""
	if p := w.Preempted; p != nil {
		w.Explanation = fmt.Sprintf("evicted by %s (%s) at %v; it terminated and is queued again", p.By, p.Reason, p.At)
	}
	requeue := w.Spec.Active
	if !requeue {
		// An inactive workload is not queued again (WorkloadReconciler).
		w.Explanation = "spec.active is false: it terminated and is not queued again"
	}
	s.setTerminating(i)
	// Text: "terminated: its quota is released (<quota>) and it is queued
	// again", unless a Message below says otherwise.
	ev := trace.Event{Kind: trace.EventRelease, Workload: w.Key, ClusterQueue: w.ClusterQueue, Quota: adm.quota}
	d := w.Drained
	switch {
	case !requeue:
		ev.Message = fmt.Sprintf("terminated: its quota is released (%s); it is inactive (spec.active: false), so it is not queued again", formatUsage(usage))
	case d != nil:
		// The job controller sets Requeued=False (reason d.Reason), so the
		// queue manager parks the workload in its ClusterQueue
		// (ClusterQueue.PushOrUpdate: backoffWaitingTimeExpired is false),
		// or, its LocalQueue being stopped, does not queue it at all; the
		// workload controller's Reconcile then writes the inactive queue's
		// message.
		if d.LocalQueue != "" {
			w.Message = fmt.Sprintf("LocalQueue %s is inactive", w.Spec.Queue)
			ev.Message = fmt.Sprintf("terminated: its quota is released (%s); it is not queued while LocalQueue %s is stopped", formatUsage(usage), d.LocalQueue)
		} else {
			w.Message = fmt.Sprintf("ClusterQueue %s is inactive", d.ClusterQueue)
			ev.Message = fmt.Sprintf("terminated: its quota is released (%s); it stays parked (Requeued=False) while ClusterQueue %s is stopped", formatUsage(usage), d.ClusterQueue)
		}
		w.Explanation = fmt.Sprintf("evicted (%s: %s) at %v; it terminated and waits for the queue to be restarted (stopPolicy None)", d.Reason, d.Message, d.At)
	}
	if w.Spec.ReplicaOf != "" && requeue && d == nil {
		// Kueue's pod controller stops an evicted pod by deleting it
		// (pod_controller.go Stop); its ReplicaSet creates a replacement,
		// whose new Workload is queued at once. The playground requeues
		// this workload in its place (see the README).
		if ev.Message == "" {
			ev.Message = fmt.Sprintf("terminated: its quota is released (%s) and it is queued again", formatUsage(usage))
		}
		ev.Message += fmt.Sprintf("; Kueue deletes its pod, and the replacement pod of %s is queued in its place (in Kueue as a new Workload; the playground keeps this one)", w.Spec.ReplicaOf)
	}
	if qi >= 0 {
		s.Tree.RemoveUsageMap(s.Queues[qi].Node, usage)
		s.mutQueue(qi).Generation++
		s.hold(qi, i, false)
	}
	ts.Events = append(ts.Events, ev)
	switch {
	case !requeue:
		w.ClusterQueue = ""
	case d == nil:
		if cq := s.QueueIndex(w.ClusterQueue); cq >= 0 {
			s.pushHeap(cq, i)
		}
	case d.LocalQueue == "":
		// Parked in the ClusterQueue of its LocalQueue (which a pasted
		// admission need not name).
		w.ClusterQueue = d.ClusterQueue
		s.park(s.QueueIndex(d.ClusterQueue), i)
	default:
		// In no queue, as a workload created in a stopped LocalQueue
		// (arrive).
		w.ClusterQueue = ""
	}
	if qi >= 0 {
		s.requeueAfter(qi, ts)
	}
}

// requeueAfter requeues the parked workloads of queue qi's cohort tree and
// records it.
func (s *State) requeueAfter(qi int, ts *trace.Step) {
	if moved := s.requeueTree(qi); len(moved) > 0 {
		// Text: "parked workloads of the cohort tree go back to their
		// queues: <moved>".
		ts.Events = append(ts.Events, trace.Event{Kind: trace.EventRequeue, ClusterQueue: s.Queues[qi].Spec.Name, Workloads: moved})
	}
}
