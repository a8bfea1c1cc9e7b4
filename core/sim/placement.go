package sim

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/place"
	"github.com/kueueplay/kueueplay/core/trace"
)

// The placement layer (scenarios with Nodes): after every step, the pods
// of admitted workloads are created, placed by core/place, and removed
// again when their workload finishes, is deleted or releases its quota
// after an eviction. See package place for the scheduler itself.
//
// Pod lifecycle, as the playground models it:
//   - A workload's pods are created in the step that admits it (Kueue's
//     job reconciler unsuspends the Job at once), count per pod set, named
//     <workload>-<podset>-<index>, each pod set's template with the
//     assigned flavors' nodeLabels merged into its nodeSelector and their
//     tolerations appended (podset.FromAssignment and podset.Merge).
//   - Pods are placed one at a time in creation order: workloads in
//     admission order, pod sets in spec order, index ascending.
//   - A pod no node can take stays pending with kube-scheduler's reason,
//     and is tried again after anything frees room (a pod leaving a node or
//     starting to terminate): placing a pod only ever takes room, so
//     nothing else can make a pending pod fit.
//   - An evicted workload's pods terminate: they keep their node (and
//     count in their unit unless the policy has ignoreTerminatingPod) until
//     the workload releases its quota. Pending pods of an evicted workload
//     are deleted at once. A finished workload's pods complete and leave
//     their nodes in the same step (kube-scheduler stops seeing terminal
//     pods); a deleted workload's pods are removed in the same step.

// placeState is the placement layer's part of a State, copied on write.
type placeState struct {
	gen     int
	cluster *place.Cluster
	// pods are the live pods, in creation order.
	pods []podRec
	// admitted maps a workload index to the AdmitSeq its pods were created
	// for.
	admitted map[int]int
	// freed counts the times room was freed; a pending pod is retried
	// when it grew since the pod's last attempt.
	freed int
	// replicas is the spec.replicas of each created Deployment (by index),
	// nextIndex the index its next pod is named with.
	replicas  map[int]int32
	nextIndex map[int]int
}

type podRec struct {
	pod place.Pod
	// wl is the workload index, or -1 for a Deployment's pod; dep is the
	// Deployment index, or -1.
	wl, dep int
	seq     int // creation sequence
	bound   bool
	binding place.Binding
	// message is the pending reason (kube-scheduler's FitError text).
	message string
	// triedAt is the freed count at the pod's last attempt (-1: never).
	triedAt int
	// readyAt is when the pod was bound (it is ready at once).
	readyAt time.Duration
}

func newPlaceState(sc *core.Scenario, gen int) *placeState {
	if len(sc.Nodes) == 0 {
		return nil
	}
	return &placeState{
		gen:       gen,
		cluster:   place.New(sc.Nodes, sc.ResourcePolicies, sc.Placement),
		admitted:  map[int]int{},
		replicas:  map[int]int32{},
		nextIndex: map[int]int{},
	}
}

// mutPlace returns the placement state for writing in this step.
func (s *State) mutPlace() *placeState {
	p := s.place
	if p.gen == s.gen {
		return p
	}
	n := &placeState{
		gen:       s.gen,
		cluster:   p.cluster.Clone(),
		pods:      slices.Clone(p.pods),
		admitted:  maps.Clone(p.admitted),
		freed:     p.freed,
		replicas:  maps.Clone(p.replicas),
		nextIndex: maps.Clone(p.nextIndex),
	}
	s.place = n
	return n
}

// placePods brings the pods in line with the workloads and places the
// pending ones; it reports whether anything changed.
func (s *State) placePods(ts *trace.Step) bool {
	if s.place == nil {
		return false
	}
	changed := false
	// Pods of workloads that no longer run: an evicted workload's bound
	// pods start terminating (its pending ones go), every pod of a
	// workload that is no longer admitted goes.
	stale := func(r *podRec) bool {
		if r.dep >= 0 {
			return false
		}
		w := s.Workload(r.wl)
		if w.Status == Admitted && s.place.admitted[r.wl] == w.AdmitSeq {
			return false
		}
		return !(w.Status == Terminating && r.bound && r.binding.Terminating)
	}
	if slices.ContainsFunc(s.place.pods, func(r podRec) bool { return stale(&r) }) {
		p := s.mutPlace()
		changed = true
		kept := p.pods[:0]
		for _, r := range p.pods {
			if stale(&r) {
				if r.bound {
					p.freed++
					if s.Workload(r.wl).Status == Terminating {
						p.cluster.Terminate(&r.binding)
						kept = append(kept, r)
						continue
					}
					p.cluster.Unbind(&r.pod, r.binding)
				}
				continue
			}
			kept = append(kept, r)
		}
		p.pods = kept
	}
	if changed {
		p := s.mutPlace()
		for wl := range p.admitted {
			if st := s.Workload(wl).Status; st != Admitted && st != Terminating {
				delete(p.admitted, wl)
			}
		}
	}
	// Pods of newly admitted workloads, in admission order.
	var fresh []int
	for i, w := range s.All() {
		if w.Status != Admitted || w.Admission == nil {
			continue
		}
		if seq, ok := s.place.admitted[i]; ok && seq == w.AdmitSeq {
			continue
		}
		fresh = append(fresh, i)
	}
	slices.SortFunc(fresh, func(a, b int) int {
		wa, wb := s.Workload(a), s.Workload(b)
		return cmp.Or(cmp.Compare(wa.AdmittedAt, wb.AdmittedAt), cmp.Compare(wa.AdmitSeq, wb.AdmitSeq), strings.Compare(wa.Key, wb.Key))
	})
	for _, i := range fresh {
		s.createPods(i, ts)
		changed = true
	}
	// Place the pending pods that are new or may fit now, in creation
	// order: workloads' pods first, then Deployments'.
	for _, deployments := range []bool{false, true} {
		for k := range s.place.pods {
			r := &s.place.pods[k]
			if r.bound || r.triedAt == s.place.freed || (r.dep >= 0) != deployments {
				continue
			}
			p := s.mutPlace()
			r = &p.pods[k]
			var d place.Decision
			if len(ts.Placements) < trace.MaxDetailedPlacements {
				d = p.cluster.Schedule(&r.pod)
			} else {
				d = p.cluster.ScheduleBrief(&r.pod)
			}
			r.triedAt = p.freed
			ts.Placements = append(ts.Placements, d.Placement)
			if d.Fits {
				p.cluster.Bind(&r.pod, d.Binding)
				r.bound, r.binding, r.message, r.readyAt = true, d.Binding, "", s.Now
			} else {
				r.message = d.Placement.Message
			}
			changed = true
		}
	}
	return changed
}

// FailedToStartPrefix starts the message of the finish event of a
// workload whose job could not start (see createPods).
const FailedToStartPrefix = "failed to start: "

// createPods creates the pods of admitted workload i. When Kueue could
// not start the job (podTemplate's merge conflict), the workload finishes
// instead, as the job reconciler finishes it with reason FailedToStart
// (jobframework JobReconciler.ReconcileGenericJob: podset.IsPermanent),
// and its quota is released.
func (s *State) createPods(i int, ts *trace.Step) {
	w := s.Workload(i)
	type podSet struct {
		name     string
		count    int32
		template *place.Template
	}
	var sets []podSet
	for _, ps := range w.Spec.PodSets {
		var adm *AdmittedPodSet
		for k := range w.Admission.PodSets {
			if w.Admission.PodSets[k].Name == ps.Name {
				adm = &w.Admission.PodSets[k]
			}
		}
		count := ps.Count
		if adm != nil && adm.Count > 0 {
			count = adm.Count
		}
		t, err := s.podTemplate(&ps, adm)
		if err != nil {
			s.finish(i, ts, trace.Event{Message: fmt.Sprintf("%s%v; Kueue finishes the workload (reason FailedToStart)", FailedToStartPrefix, err)})
			s.mutWorkload(i).Message = err.Error()
			return
		}
		sets = append(sets, podSet{ps.Name, count, t})
	}
	p := s.mutPlace()
	p.admitted[i] = w.AdmitSeq
	seq := 0
	if n := len(p.pods); n > 0 {
		seq = p.pods[n-1].seq + 1
	}
	for _, ps := range sets {
		count, t := ps.count, ps.template
		for idx := range count {
			name, owner := fmt.Sprintf("%s-%s-%d", w.Spec.Name, ps.name, idx), w.Key
			if w.Spec.ReplicaOf != "" {
				// The one pod of a queued Deployment's pod workload.
				name, owner = w.Spec.PodName, w.Spec.ReplicaOf
			}
			p.pods = append(p.pods, podRec{
				pod: place.Pod{Namespace: w.Spec.Namespace, Name: name, Owner: owner, Template: t},
				wl:  i, dep: -1, seq: seq, triedAt: -1,
			})
			seq++
		}
	}
}

// podTemplate is a pod set's template as Kueue starts the job
// (jobframework getPodSetsInfoFromStatus, then podset.Merge in
// RunWithPodSetsInfo): Kueue's kueue.x-k8s.io/podset label added to the
// labels, the assigned flavors' nodeLabels to the nodeSelector
// (podset.FromAssignment), and their tolerations appended without
// duplicates.
//
// Merge fails when the template already has one of those keys with
// another value (utilmaps.HaveConflict); Kueue then finishes the workload
// with reason FailedToStart and the error as the message, and so does the
// playground (see createPods). Labels are checked before the nodeSelector,
// as Merge does. Two differences from Kueue, both about map order: Kueue
// visits the flavors in map order, so when two flavors set one label key
// differently the last one wins at random, and it names a random key when
// several conflict; the playground visits the flavors by resource name and
// names the first key by name. (A flavor whose nodeLabels contradict the
// template's nodeSelector is in practice never assigned: the flavor
// assigner already rejects it as not matching the pod's node affinity. A
// template label kueue.x-k8s.io/podset naming another pod set is the
// conflict users meet.)
func (s *State) podTemplate(ps *core.PodSet, adm *AdmittedPodSet) (*place.Template, error) {
	const podSetLabel = "kueue.x-k8s.io/podset"
	infoLabels := map[string]string{podSetLabel: ps.Name}
	infoSelector := map[string]string{}
	var infoTolerations []core.Toleration
	if adm != nil {
		seen := map[core.FlavorName]bool{}
		for _, r := range slices.Sorted(maps.Keys(adm.Flavors)) {
			name := adm.Flavors[r]
			f := s.static.flavors[name]
			if f == nil || seen[name] {
				continue
			}
			seen[name] = true
			maps.Copy(infoSelector, f.NodeLabels)
			infoTolerations = append(infoTolerations, f.Tolerations...)
		}
	}
	if err := mapConflict(ps.Labels, infoLabels); err != nil {
		return nil, fmt.Errorf("invalid admission check PodSetUpdate: conflict for labels: %w", err)
	}
	if err := mapConflict(ps.NodeSelector, infoSelector); err != nil {
		return nil, fmt.Errorf("invalid admission check PodSetUpdate: conflict for nodeSelector: %w", err)
	}
	t := &place.Template{
		Labels:            maps.Clone(ps.Labels),
		Requests:          podRequests(ps),
		NonZeroRequests:   ps.NonZeroRequests,
		NodeSelector:      maps.Clone(ps.NodeSelector),
		RequiredAffinity:  ps.RequiredAffinity,
		PreferredAffinity: ps.PreferredAffinity,
		Tolerations:       slices.Clone(ps.Tolerations),
	}
	if t.Labels == nil {
		t.Labels = map[string]string{}
	}
	maps.Copy(t.Labels, infoLabels)
	if len(infoSelector) > 0 {
		if t.NodeSelector == nil {
			t.NodeSelector = map[string]string{}
		}
		maps.Copy(t.NodeSelector, infoSelector)
	}
	for _, tol := range infoTolerations {
		if !slices.Contains(t.Tolerations, tol) {
			t.Tolerations = append(t.Tolerations, tol)
		}
	}
	return t, nil
}

// mapConflict is utilmaps.HaveConflict: an error naming a key that a and b
// both have with different values (value1 from a). Kueue ranges over a
// map; the playground takes the first such key by name.
func mapConflict(a, b map[string]string) error {
	for _, k := range slices.Sorted(maps.Keys(a)) {
		if bv, ok := b[k]; ok && a[k] != bv {
			return fmt.Errorf("conflict for key=%s, value1=%s, value2=%s", k, a[k], bv)
		}
	}
	return nil
}

// placementRows reports the placement layer after a step: the nodes whose
// pods changed since the last report (every node the first time), with
// their units, requests and pods; the unit counts; the pending pods (the
// first QueueListCap of them, and their exact number).
func (s *State) placementRows(ts *trace.Step) {
	if s.place == nil {
		return
	}
	c := s.place.cluster
	changed := make([]bool, len(c.Nodes))
	anyChanged := false
	for ni := range c.Nodes {
		changed[ni] = s.nodeVer == nil || s.nodeVer[ni] != c.Version(ni)
		anyChanged = anyChanged || changed[ni]
	}
	onNode := make([][]trace.NodePod, len(c.Nodes))
	for _, r := range s.place.pods {
		if r.bound {
			if !changed[r.binding.Node] {
				continue
			}
			np := trace.NodePod{Pod: r.pod.Key(), Owner: r.pod.Owner, Unit: c.UnitKey(r.binding), Terminating: r.binding.Terminating}
			if cost, ok := c.DeletionCost(r.binding); ok {
				np.DeletionCost = &cost
			}
			onNode[r.binding.Node] = append(onNode[r.binding.Node], np)
		} else {
			ts.PendingCount++
			if len(ts.PendingPods) < QueueListCap {
				ts.PendingPods = append(ts.PendingPods, trace.PendingPod{Pod: r.pod.Key(), Owner: r.pod.Owner, Message: r.message})
			}
		}
	}
	if anyChanged {
		ver := make([]uint64, len(c.Nodes))
		for ni := range c.Nodes {
			ver[ni] = c.Version(ni)
		}
		s.nodeVer = ver
	}
	for ni := range c.Nodes {
		if !changed[ni] {
			continue
		}
		n := &c.Nodes[ni]
		row := trace.NodeState{Node: n.Name, Units: c.UnitsOf(ni), PodCount: len(onNode[ni])}
		req := c.Requested(ni)
		var names []core.ResourceName
		for r := range n.Allocatable {
			names = append(names, r)
		}
		for r := range req {
			if _, ok := n.Allocatable[r]; !ok {
				names = append(names, r)
			}
		}
		slices.Sort(names)
		for _, r := range names {
			used := req[r]
			if r == core.ResourcePods {
				used = c.PodsOn(ni)
			}
			row.Resources = append(row.Resources, trace.NodeResource{
				Resource:    string(r),
				Allocatable: trace.Quantity{Resource: string(r), Amount: n.Allocatable[r], Text: core.FormatAmount(r, n.Allocatable[r])},
				Requested:   trace.Quantity{Resource: string(r), Amount: used, Text: core.FormatAmount(r, used)},
			})
		}
		pods := onNode[ni]
		slices.SortFunc(pods, func(a, b trace.NodePod) int { return strings.Compare(a.Pod, b.Pod) })
		if len(pods) > QueueListCap {
			pods = pods[:QueueListCap]
		}
		row.Pods = pods
		ts.Nodes = append(ts.Nodes, row)
	}
	ts.UnitCounts = c.UnitCounts()
}

// PlacedPods returns, for the owner ("namespace/name"), how many of its
// pods sit on each node, and the pending reason of its first pending pod
// ("" when none is pending).
func (s *State) PlacedPods(owner string) (map[string]int, string) {
	out := map[string]int{}
	if s.place == nil {
		return out, ""
	}
	msg := ""
	for _, r := range s.place.pods {
		if r.pod.Owner != owner {
			continue
		}
		if r.bound {
			out[s.place.cluster.Nodes[r.binding.Node].Name]++
		} else if msg == "" {
			msg = r.message
		}
	}
	return out, msg
}

// scaleDeployment creates Deployment i (the first call) or changes its
// replicas: new pods are created (named <name>-<index>, index counting up
// from 0 over the Deployment's life) and placed at the end of the step;
// surplus pods are removed in the order the ReplicaSet controller ranks
// them (see scaleDownOrder).
func (s *State) scaleDeployment(i int, replicas int32, ts *trace.Step, why string) {
	d := &s.Scenario.Deployments[i]
	if d.Queue != "" {
		s.scaleQueued(i, replicas, ts, why)
		return
	}
	ev := trace.Event{Kind: trace.EventScale, Workload: d.Key(), Message: why}
	if s.place == nil {
		ev.Message += "; the scenario has no Nodes, so its pods are not simulated"
		ts.Events = append(ts.Events, ev)
		return
	}
	cur, created := s.place.replicas[i]
	if !created && d.Arrival > s.Now {
		ev.Message = "ignored: the " + d.Kind + " is not created yet"
		ts.Events = append(ts.Events, ev)
		return
	}
	ts.Events = append(ts.Events, ev)
	p := s.mutPlace()
	p.replicas[i] = replicas
	if replicas > cur {
		seq := 0
		if n := len(p.pods); n > 0 {
			seq = p.pods[n-1].seq + 1
		}
		t := &place.Template{
			Labels: d.Pod.Labels, Requests: d.Pod.Requests, NonZeroRequests: d.Pod.NonZeroRequests,
			NodeSelector: d.Pod.NodeSelector, RequiredAffinity: d.Pod.RequiredAffinity,
			PreferredAffinity: d.Pod.PreferredAffinity, Tolerations: d.Pod.Tolerations,
		}
		for range replicas - cur {
			idx := p.nextIndex[i]
			p.nextIndex[i] = idx + 1
			p.pods = append(p.pods, podRec{
				pod: place.Pod{Namespace: d.Namespace, Name: fmt.Sprintf("%s-%d", d.Name, idx), Owner: d.Key(), Template: t},
				wl:  -1, dep: i, seq: seq, triedAt: -1,
			})
			seq++
		}
		return
	}
	if replicas == cur {
		return
	}
	var mine []int
	for k := range p.pods {
		if p.pods[k].dep == i {
			mine = append(mine, k)
		}
	}
	perNode := map[int]int{} // the owner's pods per node
	for _, k := range mine {
		if r := &p.pods[k]; r.bound {
			perNode[r.binding.Node]++
		}
	}
	order := s.scaleDownOrder(mine, perNode)
	n := int(cur - replicas)
	sd := trace.ScaleDown{Owner: d.Key(), From: cur, To: replicas}
	var keptBest *podRec
	if n < len(order) {
		keptBest = &p.pods[order[n]]
	}
	gone := map[int]bool{}
	for _, k := range order[:n] {
		r := &p.pods[k]
		rp := trace.RemovedPod{Pod: r.pod.Key(), Why: s.removalReason(r, keptBest, perNode)}
		if r.bound {
			rp.Node = p.cluster.Nodes[r.binding.Node].Name
			if cost, ok := p.cluster.DeletionCost(r.binding); ok {
				rp.DeletionCost = &cost
			}
			p.cluster.Unbind(&r.pod, r.binding)
			p.freed++
		}
		gone[k] = true
		sd.Removed = append(sd.Removed, rp)
	}
	kept := p.pods[:0:0]
	for k, r := range p.pods {
		if !gone[k] {
			kept = append(kept, r)
		}
	}
	p.pods = kept
	ts.ScaleDowns = append(ts.ScaleDowns, sd)
}

// scaleDownOrder ranks a ReplicaSet's pods for deletion as
// controller.ActivePodsWithRanks.Less does (k8s v1.32), first to go first:
//  1. pending (unassigned) before bound;
//  2. (phase and readiness: every bound pod is Running and Ready here);
//  3. lower pod-deletion-cost first (no annotation is 0);
//  4. more pods of the same owner on the pod's node first;
//  5. more recently ready first, compared on a log2 scale of the time
//     since (LogarithmicScaleDown);
//  6. then the more recently created pod (kube-controller-manager compares
//     random UIDs here; the playground uses creation order so the result
//     is the same every time).
func (s *State) scaleDownOrder(idx []int, perNode map[int]int) []int {
	p := s.place
	out := slices.Clone(idx)
	slices.SortStableFunc(out, func(a, b int) int {
		ra, rb := &p.pods[a], &p.pods[b]
		return cmp.Or(s.comparePodsToDelete(ra, rb, perNode), cmp.Compare(rb.seq, ra.seq))
	})
	return out
}

// comparePodsToDelete is rules 1-5 of scaleDownOrder; 0 when they tie.
func (s *State) comparePodsToDelete(ra, rb *podRec, perNode map[int]int) int {
	cost := s.deletionCost
	if ra.bound != rb.bound {
		if !ra.bound {
			return -1
		}
		return 1
	}
	if !ra.bound {
		return 0
	}
	return cmp.Or(
		cmp.Compare(cost(ra), cost(rb)),
		cmp.Compare(perNode[rb.binding.Node], perNode[ra.binding.Node]),
		cmp.Compare(s.logAge(ra.readyAt), s.logAge(rb.readyAt)))
}

// deletionCost is a pod's pod-deletion-cost: 0 without the annotation
// (pending or ungoverned pods).
func (s *State) deletionCost(r *podRec) int32 {
	if !r.bound {
		return 0
	}
	c, _ := s.place.cluster.DeletionCost(r.binding)
	return c
}

// logAge is LogarithmicScaleDown's rank of a ready time: int(log2) of the
// nanoseconds since, -1 for none.
func (s *State) logAge(t time.Duration) int {
	d := s.Now - t
	if d <= 0 {
		return -1
	}
	return int(math.Log2(float64(d)))
}

// removalReason says which rule of scaleDownOrder put a removed pod before
// the best-ranked pod kept: the first rule on which the two differ.
// perNode counts the owner's pods per node before the scale-down.
func (s *State) removalReason(r, kept *podRec, perNode map[int]int) string {
	cost := s.deletionCost
	switch {
	case kept == nil:
		return "every pod goes"
	case !r.bound:
		return "pending: unassigned pods go first"
	case cost(r) < cost(kept):
		return fmt.Sprintf("pod-deletion-cost %d, lower than the pods kept (%d and up)", cost(r), cost(kept))
	}
	nodes := s.place.cluster.Nodes
	first := fmt.Sprintf("the first pod kept, %s", kept.pod.Name)
	if a, b := perNode[r.binding.Node], perNode[kept.binding.Node]; a != b {
		return fmt.Sprintf("same deletion cost (%d) as %s; %d pods of its owner on its node %s, more than the %d on %s",
			cost(r), first, a, nodes[r.binding.Node].Name, b, nodes[kept.binding.Node].Name)
	}
	if a, b := s.logAge(r.readyAt), s.logAge(kept.readyAt); a != b {
		return fmt.Sprintf("same deletion cost (%d) and pods per node (%d) as %s; ready %s ago, more recently than it (ready %s ago; compared on a log2 scale)",
			cost(r), perNode[r.binding.Node], first, s.Now-r.readyAt, s.Now-kept.readyAt)
	}
	return fmt.Sprintf("same deletion cost (%d), pods per node (%d) and ready time (on a log2 scale) as %s; created after it (kube-controller-manager compares random UIDs here; the playground takes the newer pod)",
		cost(r), perNode[r.binding.Node], first)
}

// podRequests is what a pod of ps requests from a node: its own requests,
// not the quota view a Configuration's excluded prefixes and
// transformations give PodSet.Requests.
func podRequests(ps *core.PodSet) map[core.ResourceName]core.Amount {
	if ps.PodRequests != nil {
		return ps.PodRequests
	}
	return ps.Requests
}
