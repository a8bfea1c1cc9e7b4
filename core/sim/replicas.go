package sim

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/kueueplay/kueueplay/core/trace"
)

// scaleQueued creates Deployment i or changes its replicas when Kueue
// queues its pods (Deployment.Queue is set). Kueue's pod integration makes
// each pod a single-pod Workload (pod_controller.go); the decoder made one
// for every pod the owner ever creates (Deployment.Workloads, in pod index
// order, replaying these same counts), so a new pod is the next workload
// not created yet, created now and queued (arrive). Surplus pods are
// deleted in the order the ReplicaSet controller ranks them
// (replicasToDelete); deleting a pod finishes its Workload, so an admitted
// one releases its quota at once (remove).
//
// A pod counts while its workload is pending, admitted or terminating: a
// terminating (evicted) workload is queued again on release, standing for
// the pod the ReplicaSet creates in place of the deleted one (see release).
func (s *State) scaleQueued(i int, replicas int32, ts *trace.Step, why string) {
	d := &s.Scenario.Deployments[i]
	ev := trace.Event{Kind: trace.EventScale, Workload: d.Key(), Message: why}
	if d.Arrival > s.Now {
		ev.Message = "ignored: the " + d.Kind + " is not created yet"
		ts.Events = append(ts.Events, ev)
		return
	}
	var live, next []int
	for _, wi := range d.Workloads {
		switch w := s.Workload(wi); {
		case w.Status == NotCreated:
			next = append(next, wi)
		case w.Status == Pending, w.Status == Admitted, w.Status == Terminating && !w.ScaledIn:
			live = append(live, wi)
		}
	}
	n := int(replicas)
	switch {
	case n > len(live):
		add := min(n-len(live), len(next))
		ev.Message += fmt.Sprintf("; Kueue's pod integration queues each new pod as a Workload in LocalQueue %s/%s", d.Namespace, d.Queue)
		if add < n-len(live) {
			// Only when workloads were left out at decoding or finished
			// (FailedToStart): the decoder counted exactly.
			ev.Message += fmt.Sprintf("; only %d of the %d new pods have a Workload in this scenario, the others are not simulated", add, n-len(live))
		}
		ts.Events = append(ts.Events, ev)
		for _, wi := range next[:add] {
			s.arrive(wi, ts)
		}
	case n < len(live):
		ts.Events = append(ts.Events, ev)
		s.deleteReplicas(i, live, len(live)-n, replicas, ts)
	default:
		ts.Events = append(ts.Events, ev)
	}
}

// replica is one live pod of a queued Deployment: its workload and, when
// the pod is bound to a node, its pod record.
type replica struct {
	wl  int
	rec *podRec
}

// deleteReplicas deletes n of the live pod workloads of Deployment i
// (scaled to replicas), first to go first as replicasToDelete ranks them.
func (s *State) deleteReplicas(i int, live []int, n int, replicas int32, ts *trace.Step) {
	d := &s.Scenario.Deployments[i]
	mine := map[int]bool{}
	for _, wi := range live {
		mine[wi] = true
	}
	reps := make([]replica, 0, len(live))
	bound := map[int]*podRec{}
	// perNode counts the owner's active pods per node: a terminating pod
	// (of an evicted workload) is not active (controller.FilterActivePods),
	// so it neither counts nor is ranked.
	perNode := map[int]int{}
	if s.place != nil {
		for k := range s.place.pods {
			if r := &s.place.pods[k]; r.wl >= 0 && mine[r.wl] && r.bound && !r.binding.Terminating {
				bound[r.wl] = r
				perNode[r.binding.Node]++
			}
		}
	}
	for _, wi := range live {
		r := replica{wl: wi}
		if s.Workload(wi).Status == Admitted {
			// A terminating workload's pod is deleted already; its
			// replacement is pending.
			r.rec = bound[wi]
		}
		reps = append(reps, r)
	}
	scaleEv := len(ts.Events) - 1 // the scale event, just written
	order := s.replicasToDelete(reps, perNode)
	sd := trace.ScaleDown{Owner: d.Key(), From: int32(len(live)), To: replicas}
	var kept *replica
	if n < len(order) {
		kept = &order[n]
	}
	for _, r := range order[:n] {
		w := s.Workload(r.wl)
		why := s.replicaRemovalReason(r, kept, perNode)
		rp := trace.RemovedPod{Pod: w.Spec.Namespace + "/" + w.Spec.PodName, Why: why}
		if r.rec != nil {
			rp.Node = s.place.cluster.Nodes[r.rec.binding.Node].Name
			if cost, ok := s.place.cluster.DeletionCost(r.rec.binding); ok {
				rp.DeletionCost = &cost
			}
		}
		sd.Removed = append(sd.Removed, rp)
		if w.Status == Terminating {
			// The pod that goes is the replacement of w's evicted pod
			// (see release); w keeps its quota until its pod has
			// terminated, and then finishes.
			s.mutWorkload(r.wl).ScaledIn = true
			ts.Events[scaleEv].Message += fmt.Sprintf("; the ReplicaSet deleted the replacement of evicted pod %s (%s): %s finishes once its pod has terminated, instead of being queued again", w.Spec.PodName, why, w.Key)
			continue
		}
		s.remove(r.wl, ts, Deleted, trace.Event{Kind: trace.EventDelete,
			Message: fmt.Sprintf("%s %s was scaled to %d replica(s) and the ReplicaSet deleted pod %s (%s); Kueue finishes its Workload", d.Kind, d.Key(), replicas, w.Spec.PodName, why)})
	}
	if s.place != nil {
		ts.ScaleDowns = append(ts.ScaleDowns, sd) // the cluster view's
	}
}

// replicasToDelete ranks the live pods of a queued Deployment for
// deletion as controller.ActivePodsWithRanks.Less does (see
// scaleDownOrder), first to go first. A pod whose workload is not admitted
// is gated by Kueue, so it is unassigned and pending and goes first; so
// does an admitted workload's pod that no node took. Bound pods follow in
// scaleDownOrder's order. Without Nodes no pod is placed: an admitted
// workload's pod then counts as running and ready since its admission.
// The last tie-break is the newer pod (the higher index), where
// kube-controller-manager compares random UIDs.
func (s *State) replicasToDelete(reps []replica, perNode map[int]int) []replica {
	out := slices.Clone(reps)
	assigned := func(r replica) bool {
		if s.place == nil {
			return s.Workload(r.wl).Status == Admitted
		}
		return r.rec != nil
	}
	slices.SortStableFunc(out, func(a, b replica) int {
		if aa, ab := assigned(a), assigned(b); aa != ab {
			if !aa {
				return -1
			}
			return 1
		}
		c := 0
		switch {
		case a.rec != nil && b.rec != nil:
			c = s.comparePodsToDelete(a.rec, b.rec, perNode)
		case s.place == nil && assigned(a):
			c = cmp.Compare(s.logAge(s.Workload(a.wl).AdmittedAt), s.logAge(s.Workload(b.wl).AdmittedAt))
		}
		return cmp.Or(c, cmp.Compare(b.wl, a.wl))
	})
	return out
}

// replicaRemovalReason says why pod r goes before kept, the best-ranked
// pod kept (nil when every pod goes).
func (s *State) replicaRemovalReason(r replica, kept *replica, perNode map[int]int) string {
	w := s.Workload(r.wl)
	switch {
	case kept == nil:
		return "every pod goes"
	case w.Status == Terminating:
		return "the replacement of an evicted pod is pending and unassigned, and unassigned pods go first"
	case w.Status != Admitted:
		return "its Workload is not admitted, so Kueue keeps the pod gated: unassigned pods go first"
	case s.place == nil:
		if s.logAge(w.AdmittedAt) != s.logAge(s.Workload(kept.wl).AdmittedAt) {
			return fmt.Sprintf("admitted at %v, more recently than %s, the first pod kept (the scenario has no Nodes: an admitted pod counts as running since its admission; compared on a log2 scale)", w.AdmittedAt, s.Workload(kept.wl).Spec.PodName)
		}
		return fmt.Sprintf("admitted at the same time (on a log2 scale) as %s, the first pod kept, and created after it (kube-controller-manager compares random UIDs here; the playground takes the newer pod)", s.Workload(kept.wl).Spec.PodName)
	case r.rec == nil:
		return "pending: unassigned pods go first"
	}
	return s.removalReason(r.rec, kept.rec, perNode)
}
