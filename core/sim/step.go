package sim

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/quota"
	"github.com/kueueplay/kueueplay/core/trace"
)

// EventKind is what a Step does.
type EventKind int

const (
	// ApplyEvents applies every scheduled event due at or before At.
	ApplyEvents EventKind = iota
	// RunCycle runs one scheduling cycle at At.
	RunCycle
)

// Event drives one Step.
type Event struct {
	Kind EventKind
	At   time.Duration
}

// Step applies ev to prev and returns the next State and the trace of the
// decisions taken, in the order they were taken. It never modifies prev
// (everything it changes is copied first), reads no clock and depends only
// on (prev, ev). It also reports whether anything observable changed.
func Step(prev *State, ev Event) (*State, trace.Step, bool) {
	s := prev.clone()
	ts, changed := s.advance(ev)
	return s, ts, changed
}

// advance applies ev to s itself; Step runs it on a copy of the previous
// State, Run on the only State there is when no one keeps the earlier
// ones (Options.Observe unset): then nothing is copied at all, since every
// value s holds was made or already copied by its own generation
// (mutWorkload, mutQueue, idxList.mutChunk and mutPlace write in place).
func (s *State) advance(ev Event) (trace.Step, bool) {
	if ev.At < s.Now {
		panic(fmt.Sprintf("sim.Step: event at %v is before the current time %v", ev.At, s.Now))
	}
	s.Now = ev.At
	s.Steps++
	// The step's events are gathered in the State's scratch space and
	// carved from its slab at the end: one allocation for many steps'
	// events, not one per append.
	sl := s.slabs()
	ts := trace.Step{Index: s.Steps, TimeMs: ev.At.Milliseconds(), Events: sl.stepEvents[:0]}
	var changed bool
	switch ev.Kind {
	case ApplyEvents:
		ts.Kind = trace.StepEvents
		changed = s.applyEvents(&ts)
	case RunCycle:
		ts.Kind = trace.StepCycle
		changed = s.cycle(&ts)
	default:
		panic(fmt.Sprintf("sim.Step: unknown event kind %d", ev.Kind))
	}
	if s.placePods(&ts) {
		changed = true
	}
	ts.Cycle = s.Cycles
	ts.Changed = changed
	ts.Usage = s.usageRows()
	ts.Queues = s.queueStates()
	s.placementRows(&ts)
	if sl.size > 1 {
		sl.stepEvents = ts.Events
		ts.Events = sl.events.copyOf(ts.Events, sl.size)
	}
	return ts, changed
}

// nextEventTime returns the time of the next event after the ones
// applied, and whether there is one: a scheduled event or the runtime end
// of an admitted workload.
func (s *State) nextEventTime() (time.Duration, bool) {
	var next time.Duration
	found := false
	if s.nextEvent < len(s.static.events) {
		next, found = s.static.events[s.nextEvent].at, true
	}
	if len(s.running) > 0 {
		if t := *s.Workload(s.running[0]).FinishAt; !found || t < next {
			next, found = t, true
		}
	}
	if len(s.terminating) > 0 {
		if t := *s.Workload(s.terminating[0]).ReleaseAt; !found || t < next {
			next, found = t, true
		}
	}
	return next, found
}

// applyEvents applies, in this order, runtime ends and scenario finishes,
// deletions, quota releases of evicted workloads, then arrivals due at or
// before s.Now; within each kind in document order.
func (s *State) applyEvents(ts *trace.Step) bool {
	first := s.nextEvent
	for s.nextEvent < len(s.static.events) && s.static.events[s.nextEvent].at <= s.Now {
		s.nextEvent++
	}
	due := s.static.events[first:s.nextEvent]
	sl := s.slabs()
	// Runtime ends.
	ends := sl.due[:0]
	for _, i := range s.running {
		if *s.Workload(i).FinishAt > s.Now {
			break
		}
		ends = append(ends, i)
	}
	slices.Sort(ends) // document order
	for _, i := range ends {
		s.finish(i, ts, trace.Event{Runtime: s.duration(*s.Workload(i).Spec.Runtime)})
	}
	sl.due = ends
	for _, kind := range []core.EventKind{core.EventFinish, core.EventDelete} {
		for _, ev := range due {
			if ev.kind != kindRemoval || ev.event.Kind != kind {
				continue
			}
			i := s.WorkloadIndex(ev.event.Workload)
			if kind == core.EventFinish {
				s.finish(i, ts, trace.Event{}) // "finished (scenario event)"
			} else {
				s.remove(i, ts, Deleted, trace.Event{Kind: trace.EventDelete}) // "deleted (scenario event)"
			}
		}
	}
	releases := sl.due[:0]
	for _, i := range s.terminating {
		if *s.Workload(i).ReleaseAt > s.Now {
			break
		}
		releases = append(releases, i)
	}
	slices.Sort(releases) // document order
	for _, i := range releases {
		s.release(i, ts)
	}
	sl.due = releases
	for _, ev := range due {
		switch ev.kind {
		case kindArrival:
			s.arrive(ev.wl, ts)
		case kindBackoff:
			if w := s.Workload(ev.wl); w.Status == Pending && w.ClusterQueue == "" {
				s.enqueue(ev.wl, ts, "its backoff (status.requeueState.requeueAt) ended")
			}
		}
	}
	for _, ev := range due {
		switch ev.kind {
		case kindDeployment:
			d := &s.Scenario.Deployments[ev.wl]
			s.scaleDeployment(ev.wl, d.Replicas, ts, fmt.Sprintf("%s created with %d replica(s)", d.Kind, d.Replicas))
		case kindScale:
			i := slices.IndexFunc(s.Scenario.Deployments, func(d core.Deployment) bool { return d.Key() == ev.event.Target })
			if i >= 0 {
				s.scaleDeployment(i, ev.event.Replicas, ts, fmt.Sprintf("scaled to %d replica(s) (scenario event)", ev.event.Replicas))
			}
		}
	}
	return len(ts.Events) > 0
}

// finish ends a workload: an admitted one frees its quota. ev says why:
// its Runtime, or words in its Message (neither: a scenario event).
func (s *State) finish(i int, ts *trace.Step, ev trace.Event) {
	ev.Kind = trace.EventFinish
	s.remove(i, ts, Finished, ev)
}

// remove takes a workload out of the simulation (finished or deleted). An
// admitted workload's quota is freed and its ClusterQueue's generation
// grows (clusterQueue.deleteWorkload); either way the parked workloads of
// its cohort tree are requeued (WorkloadReconciler Update/Delete →
// QueueAssociatedInadmissibleWorkloadsAfter). ev is the event to record,
// with its kind and why (its Runtime or Message; neither: a scenario
// event); remove adds the workload, its queue and the quota released.
func (s *State) remove(i int, ts *trace.Step, to Status, ev trace.Event) {
	w := s.Workload(i)
	switch w.Status {
	case NotCreated, Finished, Deleted:
		ts.Events = append(ts.Events, trace.Event{Kind: ev.Kind, Workload: w.Key, Message: fmt.Sprintf("ignored: the workload is %s", w.Status)})
		return
	}
	wasAdmitted := w.Status == Admitted || w.Status == Terminating
	cqName := w.ClusterQueue
	qi := s.QueueIndex(cqName)
	m := s.mutWorkload(i)
	m.Status = to
	m.FinishAt = nil
	m.ReleaseAt = nil
	s.setRunning(i)
	s.setTerminating(i)
	ev.Workload, ev.ClusterQueue = w.Key, cqName
	if wasAdmitted && m.Admission != nil {
		if aq := m.Admission.queue; aq >= 0 {
			s.Tree.RemoveUsageMap(s.Queues[aq].Node, m.Admission.Usage)
			s.mutQueue(aq).Generation++
			s.hold(aq, i, false)
			ev.Quota = m.Admission.quota
			if ev.Message != "" {
				ev.Message += fmt.Sprintf("; its quota is released (%s)", formatUsage(m.Admission.Usage))
			}
			qi = aq
		}
	}
	ts.Events = append(ts.Events, ev)
	if qi >= 0 {
		s.removeFromQueue(qi, i)
		s.requeueAfter(qi, ts)
	}
}

// arrive creates a workload and queues it, or records why it cannot be
// queued (WorkloadReconciler: missing or stopped LocalQueue or
// ClusterQueue, or a requeueState backoff that has not ended).
func (s *State) arrive(i int, ts *trace.Step) {
	spec := s.Workload(i).Spec
	if spec.Active && spec.RequeueAt != nil && *spec.RequeueAt > s.Now {
		w := s.mutWorkload(i)
		w.Status = Pending
		w.Explanation = fmt.Sprintf("waiting for its backoff to end at %v (status.requeueState.requeueAt) before it is queued", *spec.RequeueAt)
		ts.Events = append(ts.Events, trace.Event{Kind: trace.EventArrival, Workload: w.Key,
			Message: fmt.Sprintf("created; not queued before its backoff ends at %v (status.requeueState.requeueAt)", *spec.RequeueAt)})
		return
	}
	s.enqueue(i, ts, "created")
}

// enqueue makes workload i pending and queues it; what ("created") starts
// the event's message.
func (s *State) enqueue(i int, ts *trace.Step, what string) {
	w := s.mutWorkload(i)
	w.Status = Pending
	w.Explanation = ""
	ev := trace.Event{Kind: trace.EventArrival, Workload: w.Key}
	spec := w.Spec
	lq := s.static.localQ[i]
	switch {
	case !spec.Active:
		w.Explanation = "spec.active is false: the workload is not queued"
		ev.Message = what + " inactive (spec.active: false); it is not queued"
	case lq == nil:
		w.Message = fmt.Sprintf("LocalQueue %s doesn't exist", spec.Queue)
		ev.Message = what + "; " + w.Message
	case lq.StopPolicy != "" && lq.StopPolicy != "None":
		// WorkloadReconciler.Reconcile, case !lqActive.
		w.Message = fmt.Sprintf("LocalQueue %s is inactive", spec.Queue)
		w.Explanation = fmt.Sprintf("LocalQueue %s has stopPolicy %s", spec.Queue, lq.StopPolicy)
		ev.Message = what + "; " + w.Message
	default:
		qi := s.QueueIndex(lq.ClusterQueue)
		if qi < 0 {
			w.Message = fmt.Sprintf("ClusterQueue %s doesn't exist", lq.ClusterQueue)
			ev.Message = what + "; " + w.Message
			break
		}
		w.ClusterQueue = lq.ClusterQueue
		ev.ClusterQueue = lq.ClusterQueue
		q := s.Queues[qi]
		if !q.Active {
			// WorkloadReconciler.Reconcile, case !ClusterQueueActive: a
			// pending workload reads "is inactive" whatever the cause.
			w.Message = fmt.Sprintf("ClusterQueue %s is inactive", q.Spec.Name)
			w.Explanation = q.InactiveReason
		}
		s.pushHeap(qi, i)
		ev.LocalQueue = spec.Queue
		switch {
		case what != "created":
			ev.Message = fmt.Sprintf("%s: in LocalQueue %s/%s, queued in ClusterQueue %s", what, spec.Namespace, spec.Queue, q.Spec.Name)
		case w.Message != "":
			ev.Message = fmt.Sprintf("created in LocalQueue %s/%s, queued in ClusterQueue %s", spec.Namespace, spec.Queue, q.Spec.Name)
		}
		// else Text says "created in LocalQueue ..., queued in
		// ClusterQueue ..." from the event's fields.
		if w.Message != "" {
			ev.Message += "; " + w.Message
		}
	}
	ts.Events = append(ts.Events, ev)
}

// HasHead reports whether some active ClusterQueue has a workload in its
// heap.
func (s *State) HasHead() bool {
	for _, q := range s.Queues {
		if q.Active && q.Heap.Len() > 0 {
			return true
		}
	}
	return false
}

// usageQuantities is u as quantities, by flavor then resource; empty but
// not nil when u is empty (an event's Quota: quota was released). The
// amounts' words are the State's (wordsFor): a run releases the same few
// amounts thousands of times.
func (s *State) usageQuantities(u map[core.FlavorResource]core.Amount) []trace.Quantity {
	var buf [4]core.FlavorResource
	frs := buf[:0]
	for fr := range u {
		frs = append(frs, fr)
	}
	slices.SortFunc(frs, core.FlavorResource.Compare)
	out := make([]trace.Quantity, 0, len(u))
	w := s.wordsFor()
	for _, fr := range frs {
		out = append(out, trace.Quantity{Flavor: string(fr.Flavor), Resource: string(fr.Resource), Amount: u[fr], Text: w.Amount(fr.Resource, u[fr])})
	}
	return out
}

func formatUsage(u map[core.FlavorResource]core.Amount) string {
	out := ""
	for i, fr := range quota.SortedKeys(u) {
		if i > 0 {
			out += ", "
		}
		out += fmt.Sprintf("%s/%s %s", fr.Flavor, fr.Resource, core.FormatAmount(fr.Resource, u[fr]))
	}
	return out
}

func formatLabels(l map[string]string) string {
	if len(l) == 0 {
		return "{}"
	}
	keys := make([]string, 0, len(l))
	for k := range l {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := "{"
	for i, k := range keys {
		if i > 0 {
			out += ", "
		}
		out += k + "=" + l[k]
	}
	return out + "}"
}

// admissionFlavors is what the trace says of an admission's flavors (made
// with it, newAdmission).
func admissionFlavors(a *Admission) []trace.PodSetFlavors { return a.flavors }

func buildAdmissionFlavors(podSets []AdmittedPodSet) []trace.PodSetFlavors {
	var out []trace.PodSetFlavors
	for _, ps := range podSets {
		pf := trace.PodSetFlavors{PodSet: ps.Name}
		if len(ps.Flavors) > 0 {
			pf.Flavors = make([]trace.ResourceFlavor, 0, len(ps.Flavors))
		}
		for r, f := range ps.Flavors {
			// By resource: an insertion sort (a pod set has a few
			// resources, and a sort of its own would cost the page's
			// WebAssembly a pdqsort instantiation).
			pf.Flavors = append(pf.Flavors, trace.ResourceFlavor{Resource: string(r), Flavor: string(f)})
			for k := len(pf.Flavors) - 1; k > 0 && pf.Flavors[k].Resource < pf.Flavors[k-1].Resource; k-- {
				pf.Flavors[k], pf.Flavors[k-1] = pf.Flavors[k-1], pf.Flavors[k]
			}
		}
		out = append(out, pf)
	}
	return out
}

// byKey orders workload indexes by key.
func (s *State) byKey(a, b int) int { return cmp.Compare(s.static.keyRank[a], s.static.keyRank[b]) }
