package sim

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/quota"
	"github.com/kueueplay/kueueplay/core/trace"
)

// New builds the initial State of a scenario: every ClusterQueue with its
// active status, the cohort tree, workloads that start admitted (pasted
// from a live cluster) holding their quota, and the schedule of arrivals
// and scenario events. gates overrides the scenario's own gate settings
// (nil for none).
func New(sc *core.Scenario, gates core.FeatureGates) *State {
	g := core.FeatureGates{}.With(sc.Gates).With(gates)
	st := &static{
		cqIndex:    map[string]int{},
		wlIndex:    map[string]int{},
		flavors:    map[core.FlavorName]*core.ResourceFlavor{},
		namespaces: map[string]map[string]string{},
	}
	for i := range sc.Flavors {
		st.flavors[sc.Flavors[i].Name] = &sc.Flavors[i]
	}
	for i := range sc.Namespaces {
		st.namespaces[sc.Namespaces[i].Name] = sc.Namespaces[i].Labels
	}
	// The workloads' namespaces that the scenario does not declare, with
	// the labels namespaceLabels gives them, made once.
	for i := range sc.Workloads {
		if ns := sc.Workloads[i].Namespace; st.namespaces[ns] == nil {
			if _, declared := st.namespaces[ns]; !declared {
				st.namespaces[ns] = implicitNamespaceLabels(ns)
			}
		}
	}
	// Each workload's LocalQueue, by namespace and name: looked up once
	// for a run of workloads in the same one (a generated or dumped
	// cluster lists a queue's workloads together), and without joining
	// the two into a key of one string for every workload.
	type lqKey struct{ namespace, name string }
	localQs := make(map[lqKey]*core.LocalQueue, len(sc.LocalQueues))
	for i := range sc.LocalQueues {
		lq := &sc.LocalQueues[i]
		localQs[lqKey{lq.Namespace, lq.Name}] = lq
	}
	st.localQ = make([]*core.LocalQueue, len(sc.Workloads))
	for i := range sc.Workloads {
		w := &sc.Workloads[i]
		if i > 0 && w.Namespace == sc.Workloads[i-1].Namespace && w.Queue == sc.Workloads[i-1].Queue {
			st.localQ[i] = st.localQ[i-1]
			continue
		}
		st.localQ[i] = localQs[lqKey{w.Namespace, w.Queue}]
	}
	s := &State{Scenario: sc, Gates: g, static: st, gen: 1}
	s.Tree = quota.Build(sc.ClusterQueues, sc.Cohorts, g.Enabled(core.GateLendingLimit))
	st.usage = newUsageLayout(s.Tree)

	cqs := make([]*core.ClusterQueue, len(sc.ClusterQueues))
	for i := range sc.ClusterQueues {
		cqs[i] = &sc.ClusterQueues[i]
	}
	slices.SortFunc(cqs, func(a, b *core.ClusterQueue) int { return cmp.Compare(a.Name, b.Name) })
	for i, cq := range cqs {
		q := &ClusterQueue{Spec: cq, Node: s.Tree.ClusterQueue(cq.Name), Active: true, Sticky: -1, gen: s.gen}
		if reason := inactiveReason(cq, st.flavors, sc.Topologies, g.Enabled(core.GateTopologyAwareScheduling)); reason != "" {
			q.Active, q.InactiveReason = false, reason
			s.Tree.Nodes[q.Node].Inactive = true
		}
		st.cqIndex[cq.Name] = i
		s.Queues = append(s.Queues, q)
	}
	st.treeQueues = make([][]int, len(s.Queues))
	st.selectsAll = make([]bool, len(s.Queues))
	for qi, q := range s.Queues {
		st.treeQueues[qi] = s.cohortTreeQueues(qi)
		sel := q.Spec.NamespaceSelector
		st.selectsAll[qi] = sel != nil && len(sel.MatchLabels) == 0 && len(sel.MatchExpressions) == 0
	}

	// Creation order: arrival time, then document order.
	order := make([]int, len(sc.Workloads))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		if c := cmp.Compare(sc.Workloads[a].Arrival, sc.Workloads[b].Arrival); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	seqOf := make([]int, len(sc.Workloads))
	for seq, i := range order {
		seqOf[i] = seq
	}
	// The workloads, their keys ("namespace/name", Workload.Key) cut
	// from one string, and the index by key, each made in one piece.
	n := 0
	for i := range sc.Workloads {
		n += len(sc.Workloads[i].Namespace) + 1 + len(sc.Workloads[i].Name)
	}
	buf := make([]byte, 0, n)
	for i := range sc.Workloads {
		buf = append(append(append(buf, sc.Workloads[i].Namespace...), '/'), sc.Workloads[i].Name...)
	}
	all := string(buf)
	st.wlIndex = make(map[string]int, len(sc.Workloads))
	st.keys = make([]string, 0, len(sc.Workloads))
	st.prio, st.created = make([]int32, len(sc.Workloads)), make([]int64, len(sc.Workloads))
	st.labels = make([]map[string]string, len(sc.Workloads))
	s.shifted = make([]uint64, (len(sc.Workloads)+63)/64)
	slab := make([]Workload, len(sc.Workloads))
	for i := range sc.Workloads {
		spec := &sc.Workloads[i]
		k := len(spec.Namespace) + 1 + len(spec.Name)
		key := all[:k]
		all = all[k:]
		w := &slab[i]
		*w = Workload{Spec: spec, Key: key, Seq: seqOf[i], gen: s.gen}
		st.wlIndex[w.Key] = i
		st.prio[i], st.created[i] = spec.Priority, -int64(spec.Priority)<<32+int64(seqOf[i])
		if i > 0 && spec.Namespace == sc.Workloads[i-1].Namespace {
			st.labels[i] = st.labels[i-1] // one lookup for a run of workloads in one namespace
		} else {
			st.labels[i] = s.namespaceLabels(spec.Namespace)
		}
		s.appendWorkload(w)
	}

	// Each workload's place in key order, equal keys in one place.
	byKey := slices.Clone(order)
	// strings.Compare compares once where cmp.Compare compares twice
	// (x < y, then x > y) for different keys.
	slices.SortFunc(byKey, func(a, b int) int { return strings.Compare(st.keys[a], st.keys[b]) })
	st.keyRank = make([]int64, len(sc.Workloads))
	for k, i := range byKey {
		st.keyRank[i] = int64(k)
		if k > 0 && st.keys[i] == st.keys[byKey[k-1]] {
			st.keyRank[i] = st.keyRank[byKey[k-1]]
		}
	}

	// Workloads that start admitted hold their quota from the start, in
	// the order of their admission time, then document order.
	var admitted []int
	for i, w := range s.All() {
		if w.Spec.Admission != nil {
			admitted = append(admitted, i)
		}
	}
	slices.SortStableFunc(admitted, func(a, b int) int {
		return cmp.Compare(admittedAt(s.Workload(a).Spec), admittedAt(s.Workload(b).Spec))
	})
	for _, i := range admitted {
		s.startAdmitted(i)
	}
	// Every later AdmitSeq is an admission the simulation made.
	st.pastedSeqs = s.admitSeq
	for _, i := range admitted {
		if s.Workload(i).Spec.Eviction != nil {
			s.startEvicted(i)
		}
	}

	st.events = scheduledEvents(sc)
	s.place = newPlaceState(sc, s.gen)
	// The pods of workloads that start admitted are placed before the
	// first step (and a workload whose pods cannot start finishes);
	// initialStep reports it.
	var ts trace.Step
	for _, w := range s.All() {
		if w.Status == Terminating {
			ev := w.Spec.Eviction
			msg := fmt.Sprintf("starts evicted (Evicted=True, reason %s) in ClusterQueue %s, holding %s until it releases its quota at %v", ev.Reason, w.ClusterQueue, formatUsage(w.Admission.Usage), *w.ReleaseAt)
			if !w.Spec.Active {
				msg = fmt.Sprintf("starts admitted in ClusterQueue %s but inactive (spec.active: false): Kueue evicts it at once (reason %s); it holds %s until it releases its quota at %v", w.ClusterQueue, ev.Reason, formatUsage(w.Admission.Usage), *w.ReleaseAt)
			}
			ts.Events = append(ts.Events, trace.Event{Kind: trace.EventArrival, Workload: w.Key, ClusterQueue: w.ClusterQueue, Message: msg})
		}
		if w.Status == Admitted {
			msg := fmt.Sprintf("starts admitted in ClusterQueue %s (status.admission), holding %s", w.ClusterQueue, formatUsage(w.Admission.Usage))
			if s.QueueIndex(w.ClusterQueue) < 0 {
				msg = fmt.Sprintf("starts admitted in ClusterQueue %s (status.admission), which is not in the input: its usage (%s) counts against no quota", w.ClusterQueue, formatUsage(w.Admission.Usage))
			}
			ts.Events = append(ts.Events, trace.Event{Kind: trace.EventArrival, Workload: w.Key, ClusterQueue: w.ClusterQueue, Message: msg})
		}
	}
	s.placePods(&ts)
	s.drainStopped(&ts)
	s.initialEvents, s.initialPlacements = ts.Events, ts.Placements
	return s
}

func admittedAt(w *core.Workload) time.Duration {
	if w.AdmittedAt != nil {
		return *w.AdmittedAt
	}
	return 0
}

// startEvicted makes an admitted workload pasted with an Evicted=True
// condition (or inactive) terminating: it keeps its quota until its
// termination delay, counted from the eviction, is over (but not before
// the simulation starts), as Kueue keeps it until the job's pods are gone
// (jobframework's reconciler, then UnsetQuotaReservationWithCondition). An
// inactive one's quota is free at once.
func (s *State) startEvicted(i int) {
	w := s.mutWorkload(i)
	ev := w.Spec.Eviction
	w.Status = Terminating
	w.FinishAt = nil
	w.Message = ev.Message
	delay := s.Scenario.TerminationDelay
	if w.Spec.TerminationDelay != nil {
		delay = *w.Spec.TerminationDelay
	}
	at := max(0, ev.At+delay)
	if !w.Spec.Active {
		// Kueue's cache drops an inactive workload's usage on the first
		// update it sees (WorkloadReconciler.Update: !active →
		// cache.DeleteWorkload), while its pods still terminate: the
		// quota is free for the scheduler at once.
		at = max(0, ev.At)
	}
	w.ReleaseAt = &at
	w.Explanation = fmt.Sprintf("pasted evicted (Evicted=True, reason %s); it keeps its quota while it terminates, until %v", ev.Reason, at)
	s.setRunning(i)
	s.setTerminating(i)
}

// startAdmitted installs a workload pasted with status.admission.
func (s *State) startAdmitted(i int) {
	w := s.mutWorkload(i)
	adm := w.Spec.Admission
	w.ClusterQueue = adm.ClusterQueue
	w.Status = Admitted
	w.AdmittedAt = admittedAt(w.Spec)
	if w.Spec.AdmittedAt == nil {
		// No lastTransitionTime: time 0, each strictly after the one before
		// in document order. With one, equal times fall through to the
		// name.
		s.admitSeq++
		w.AdmitSeq = s.admitSeq
	}
	var podSets []AdmittedPodSet
	for _, ps := range adm.PodSets {
		aps := AdmittedPodSet{Name: ps.Name, Count: ps.Count, Flavors: map[core.ResourceName]core.FlavorName{}}
		for r, f := range ps.Flavors {
			aps.Flavors[r] = f
		}
		podSets = append(podSets, aps)
	}
	a := s.newAdmission(adm.ClusterQueue, podSets, w.Spec.AdmissionUsage())
	w.Admission = a
	if w.Spec.Runtime != nil {
		t := w.AdmittedAt + *w.Spec.Runtime
		w.FinishAt = &t
	}
	s.setRunning(i)
	if qi := a.queue; qi >= 0 {
		s.Tree.AddUsageMap(s.Queues[qi].Node, a.Usage)
		s.hold(qi, i, true)
	}
}

// inactiveReason mirrors clusterQueue.inactiveReason
// (pkg/cache/scheduler/clusterqueue.go) for the conditions the playground
// models, in Kueue's order: a stop policy, missing ResourceFlavors, and,
// with the TopologyAwareScheduling gate on, flavors whose Topology does not
// exist (TopologyNotFound; Kueue visits its TAS flavors in map order, the
// playground in name order).
func inactiveReason(cq *core.ClusterQueue, flavors map[core.FlavorName]*core.ResourceFlavor, topologies []core.Topology, tas bool) string {
	var msgs []string
	if cq.StopPolicy != "" && cq.StopPolicy != "None" {
		msgs = append(msgs, "is stopped")
	}
	var missing []string
	for _, g := range cq.ResourceGroups {
		for _, f := range g.Flavors {
			if _, ok := flavors[f.Name]; !ok && !slices.Contains(missing, string(f.Name)) {
				missing = append(missing, string(f.Name))
			}
		}
	}
	if len(missing) > 0 {
		msgs = append(msgs, fmt.Sprintf("references missing ResourceFlavor(s): %s", strings.Join(missing, ",")))
	}
	var tasFlavors []core.FlavorName
	for _, g := range cq.ResourceGroups {
		for _, f := range g.Flavors {
			if rf, ok := flavors[f.Name]; ok && tas && rf.TopologyName != "" && !slices.Contains(tasFlavors, f.Name) {
				tasFlavors = append(tasFlavors, f.Name)
			}
		}
	}
	slices.Sort(tasFlavors)
	for _, f := range tasFlavors {
		topology := flavors[f].TopologyName
		if !slices.ContainsFunc(topologies, func(t core.Topology) bool { return t.Name == topology }) {
			msgs = append(msgs, fmt.Sprintf("there is no Topology %q for TAS flavor %q", topology, f))
		}
	}
	if len(msgs) == 0 {
		return ""
	}
	return "Can't admit new workloads; clusterQueue " + strings.Join(msgs, ", ")
}

// scheduledEvents lists the scenario's events and the workloads' arrivals
// in application order: by time; at one time, finishes, deletions and
// releases before arrivals; within a kind, document order.
func scheduledEvents(sc *core.Scenario) []scheduled {
	evs := make([]scheduled, 0, len(sc.Events)+len(sc.Workloads)+len(sc.Deployments))
	for i := range sc.Events {
		kind := kindRemoval
		if sc.Events[i].Kind == core.EventScale {
			kind = kindScale
		}
		evs = append(evs, scheduled{at: sc.Events[i].At, kind: kind, event: &sc.Events[i], doc: i})
	}
	for i := range sc.Workloads {
		w := &sc.Workloads[i]
		if w.Admission != nil || w.ReplicaOf != "" {
			// A pod's workload is created by its Deployment or ReplicaSet
			// (State.scaleQueued).
			continue
		}
		evs = append(evs, scheduled{at: w.Arrival, kind: kindArrival, wl: i, doc: i})
		if w.RequeueAt != nil && *w.RequeueAt > w.Arrival {
			// WorkloadReconciler: not queued before the backoff ends.
			evs = append(evs, scheduled{at: *w.RequeueAt, kind: kindBackoff, wl: i, doc: i})
		}
	}
	for i := range sc.Deployments {
		evs = append(evs, scheduled{at: sc.Deployments[i].Arrival, kind: kindDeployment, wl: i, doc: i})
	}
	// (at, kind, doc) tells any two apart (doc is unique within a kind),
	// so an unstable sort gives the one order. The positions are sorted,
	// not the events: the sort of ints is the one the rest of the
	// program uses (a sort of scheduled values would cost the page's
	// WebAssembly a pdqsort instantiation of its own).
	idx := make([]int, len(evs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(i, j int) int {
		a, b := &evs[i], &evs[j]
		if c := cmp.Compare(a.at, b.at); c != 0 {
			return c
		}
		if c := cmp.Compare(a.kind, b.kind); c != 0 {
			return c
		}
		return cmp.Compare(a.doc, b.doc)
	})
	out := make([]scheduled, len(evs))
	for k, i := range idx {
		out[k] = evs[i]
	}
	return out
}
