package sim

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/place"
	"github.com/kueueplay/kueueplay/core/preempt"
	"github.com/kueueplay/kueueplay/core/quota"
	"github.com/kueueplay/kueueplay/core/trace"
)

// CheckInvariants returns every safety property that does not hold in s
// (empty when all hold):
//
//  1. No ClusterQueue or Cohort uses more than its quota, its borrowing
//     limit and its ancestors allow, and no lending limit is lent past
//     (every node's unclamped headroom is >= 0).
//  2. Each ClusterQueue's usage equals the sum of its admitted and
//     terminating workloads' usage, and each cohort's usage is what its
//     children place in it.
//  3. Each workload is in exactly one state, and a pending workload of an
//     existing ClusterQueue is either in its heap or parked, never both;
//     no other workload is queued.
//  4. In the last cycle, no preemption target was claimed beyond its usage
//     (RefreshAssignmentsDuringSchedulingCycle), and every target holds
//     quota.
//  5. Placement (scenarios with Nodes): no node holds more than its
//     allocatable of any resource or pods, recomputed from the bound pods;
//     no ResourcePolicy unit counts more pods than its maxCount in any
//     group (the count the policy uses: without terminating pods under
//     ignoreTerminatingPod); every pod belongs to an admitted or
//     terminating workload or to a created Deployment, and a Deployment
//     has no more pods than its replicas.
//  6. A Deployment whose pods Kueue queues has as many pod workloads
//     pending, admitted or terminating as its replica count at this time
//     (replayed from spec.replicas and the scale events), or all of its
//     pod workloads when it has fewer.
func CheckInvariants(s *State) []string {
	var bad []string
	t := s.Tree
	// 2. Usage equals the sum of holders, recomputed from scratch.
	want := quota.Build(s.Scenario.ClusterQueues, s.Scenario.Cohorts, s.Gates.Enabled(core.GateLendingLimit))
	for _, w := range s.All() {
		if (w.Status == Admitted || w.Status == Terminating) && w.Admission != nil {
			if qi := s.QueueIndex(w.Admission.ClusterQueue); qi >= 0 {
				want.AddUsageMap(s.Queues[qi].Node, w.Admission.Usage)
			}
		}
	}
	for i := range t.Nodes {
		n := &t.Nodes[i]
		frs := map[core.FlavorResource]bool{}
		for _, fr := range t.UsageKeys(i) {
			frs[fr] = true
		}
		for _, fr := range want.UsageKeys(i) {
			frs[fr] = true
		}
		for _, fr := range quota.SortedKeys(frs) {
			if got, w := t.Used(i, fr), want.Used(i, fr); got != w {
				bad = append(bad, fmt.Sprintf("%s %s/%s: usage %d, but its workloads hold %d", n.Name, fr.Flavor, fr.Resource, got, w))
			}
			// 1. Quota, borrowing and lending limits.
			if h := t.Headroom(i, fr); h < 0 {
				bad = append(bad, fmt.Sprintf("%s %s/%s: %d over what its quota and limits allow", n.Name, fr.Flavor, fr.Resource, -h))
			}
		}
	}
	// 3. Queue membership.
	where := map[int][]string{}
	for _, q := range s.Queues {
		for w := range q.Heap.All {
			where[w] = append(where[w], q.Spec.Name+" heap")
		}
		for w := range q.Parked.All {
			where[w] = append(where[w], q.Spec.Name+" parked")
		}
	}
	for _, q := range s.Queues {
		// pushHeap, park and requeueTree insert by these orders.
		// The order from each Workload, not from static.created.
		order := func(a, b int) int {
			wa, wb := s.Workload(a), s.Workload(b)
			if c := cmp.Compare(wb.Spec.Priority, wa.Spec.Priority); c != 0 {
				return c
			}
			return s.queueOrder(wa, wb)
		}
		if h := q.Heap.Slice(); !slices.IsSortedFunc(h, order) {
			bad = append(bad, fmt.Sprintf("ClusterQueue %s: the heap is not in queue order", q.Spec.Name))
		}
		if p := q.Parked.Slice(); !slices.IsSortedFunc(p, func(a, b int) int { return cmp.Compare(s.static.keys[a], s.static.keys[b]) }) {
			bad = append(bad, fmt.Sprintf("ClusterQueue %s: the parked set is not by key", q.Spec.Name))
		}
	}
	numShifted := 0
	for i, w := range s.All() {
		// queueLess reads static.created unless the bit is set.
		shifted := s.shifted[i>>6]&(1<<(i&63)) != 0
		if shifted != (s.queueTime(w) != preempt.Stamp{At: w.Spec.Arrival, Seq: w.Seq}) {
			bad = append(bad, fmt.Sprintf("%s: shifted=%t, but its queue-order timestamp is %v", w.Key, shifted, s.queueTime(w)))
		}
		if shifted {
			numShifted++
		}
		places := where[i]
		queued := w.Status == Pending && s.QueueIndex(w.ClusterQueue) >= 0
		switch {
		case queued && len(places) != 1:
			bad = append(bad, fmt.Sprintf("%s is pending in ClusterQueue %s but queued in %v", w.Key, w.ClusterQueue, places))
		case !queued && len(places) > 0:
			bad = append(bad, fmt.Sprintf("%s is %s but queued in %v", w.Key, w.Status, places))
		case queued && w.InHeap == w.Parked:
			bad = append(bad, fmt.Sprintf("%s: InHeap=%t Parked=%t", w.Key, w.InHeap, w.Parked))
		}
		// pushHeap, park and removeFromQueue read the flags instead of
		// searching the lists.
		inHeap := len(places) == 1 && strings.HasSuffix(places[0], " heap")
		parked := len(places) == 1 && strings.HasSuffix(places[0], " parked")
		if w.InHeap != inHeap || w.Parked != parked {
			bad = append(bad, fmt.Sprintf("%s: InHeap=%t Parked=%t, but queued in %v", w.Key, w.InHeap, w.Parked, places))
		}
		if (w.Status == Admitted || w.Status == Terminating) != (w.Admission != nil && w.Status != Pending) && w.Status != Finished && w.Status != Deleted {
			bad = append(bad, fmt.Sprintf("%s is %s with admission %v", w.Key, w.Status, w.Admission != nil))
		}
		// An admission's index (shared by equal admissions) is its
		// ClusterQueue's.
		if a := w.Admission; a != nil && a.queue != s.QueueIndex(a.ClusterQueue) {
			bad = append(bad, fmt.Sprintf("%s: the admission's queue %d is not ClusterQueue %s", w.Key, a.queue, a.ClusterQueue))
		}
	}
	if numShifted != s.numShifted {
		bad = append(bad, fmt.Sprintf("%d workloads have a shifted queue-order timestamp, the State counts %d", numShifted, s.numShifted))
	}
	// 7. The queues' last report, reused whole or in parts, is what a
	// report from scratch gives.
	for qi := range s.reportedStates {
		if qi < len(s.Queues) {
			want, wantL := s.queueState(qi)
			got, gotL := s.reportedStates[qi], s.reportedLists[qi]
			if s.space != nil {
				// Run names only what the trace keeps (CompactLists).
				want.Pending, want.Parked, want.Admitted, want.Terminating = nil, nil, nil, nil
			}
			if !equalQueueState(want, got) || !equalQueueLists(wantL, gotL) {
				bad = append(bad, fmt.Sprintf("ClusterQueue %s: the reused report %+v %v is stale; from scratch it is %+v %v", want.ClusterQueue, got, gotL, want, wantL))
			}
		}
	}
	// 8. The holders preemption sees, cached or not, are what a
	// description from scratch gives.
	for qi, h := range s.holders {
		q := s.Queues[qi]
		if !h.built || h.ver != q.Holding.ver || h.gen != q.Generation {
			continue
		}
		want := s.describeHolders(qi)
		if len(want) != len(h.ws) {
			bad = append(bad, fmt.Sprintf("ClusterQueue %s: %d cached holders, %d from scratch", q.Spec.Name, len(h.ws), len(want)))
			continue
		}
		for k := range want {
			w, got := want[k], h.ws[k]
			same := w.Index == got.Index && w.Key == got.Key && w.Node == got.Node && w.ClusterQueue == got.ClusterQueue &&
				w.Priority == got.Priority && w.QueueTime == got.QueueTime && w.Reserved == got.Reserved &&
				w.Evicted == got.Evicted && maps.Equal(w.Usage, got.Usage)
			if !same {
				bad = append(bad, fmt.Sprintf("ClusterQueue %s: the cached holder %+v is stale; from scratch it is %+v", q.Spec.Name, *h.ws[k], *want[k]))
			}
		}
	}
	// 4. Claims.
	for _, c := range s.lastClaims {
		orig := map[string]int64{}
		for _, q := range c.Original {
			orig[q.Flavor+"/"+q.Resource] = q.Amount
		}
		sum := map[string]int64{}
		for _, by := range c.By {
			for _, q := range by.Claimed {
				k := q.Flavor + "/" + q.Resource
				sum[k] += q.Amount
				if q.Amount < 0 {
					bad = append(bad, fmt.Sprintf("%s claims a negative amount of %s of %s", by.Preemptor, k, c.Target))
				}
			}
		}
		for k, v := range sum {
			if v > orig[k] {
				bad = append(bad, fmt.Sprintf("claims on %s total %d of %s, above its usage %d", c.Target, v, k, orig[k]))
			}
		}
		if i := s.WorkloadIndex(c.Target); i < 0 || (s.Workload(i).Status != Terminating && s.Workload(i).Status != Admitted) {
			bad = append(bad, fmt.Sprintf("claimed target %s holds no quota", c.Target))
		}
	}
	slices.Sort(bad)
	bad = append(bad, s.placementInvariants()...)
	bad = append(bad, s.replicaInvariants()...)
	return bad
}

func (s *State) placementInvariants() []string {
	if s.place == nil {
		return nil
	}
	var bad []string
	c := s.place.cluster
	used := make([]map[core.ResourceName]core.Amount, len(c.Nodes))
	for _, r := range s.place.pods {
		if r.dep >= 0 {
			if _, ok := s.place.replicas[r.dep]; !ok {
				bad = append(bad, fmt.Sprintf("pod %s exists but its %s is not created", r.pod.Key(), s.Scenario.Deployments[r.dep].Kind))
			}
		} else if st := s.Workload(r.wl).Status; st != Admitted && st != Terminating {
			bad = append(bad, fmt.Sprintf("pod %s exists but its workload is %s", r.pod.Key(), st))
		}
		if !r.bound {
			continue
		}
		if used[r.binding.Node] == nil {
			used[r.binding.Node] = map[core.ResourceName]core.Amount{}
		}
		for res, q := range r.pod.Template.Requests {
			used[r.binding.Node][res] += q
		}
		used[r.binding.Node][core.ResourcePods]++
	}
	for ni, u := range used {
		n := &c.Nodes[ni]
		for _, res := range slices.Sorted(maps.Keys(u)) {
			alloc, ok := n.Allocatable[res]
			if res == core.ResourcePods && !ok {
				alloc = place.DefaultMaxPods
			}
			if u[res] > alloc {
				bad = append(bad, fmt.Sprintf("node %s holds %s of %s, above its allocatable %s", n.Name, core.FormatAmount(res, u[res]), res, core.FormatAmount(res, alloc)))
			}
		}
	}
	perDep := map[int]int32{}
	for _, r := range s.place.pods {
		if r.dep >= 0 {
			perDep[r.dep]++
		}
	}
	for _, d := range slices.Sorted(maps.Keys(perDep)) {
		if perDep[d] > s.place.replicas[d] {
			bad = append(bad, fmt.Sprintf("%s has %d pods for %d replicas", s.Scenario.Deployments[d].Key(), perDep[d], s.place.replicas[d]))
		}
	}
	policies := map[string]*core.ResourcePolicy{}
	for i := range s.Scenario.ResourcePolicies {
		p := &s.Scenario.ResourcePolicies[i]
		policies[p.Namespace+"/"+p.Name] = p
	}
	for _, u := range c.UnitCounts() {
		n := u.Count
		if policies[u.Policy].IgnoreTerminatingPod {
			n = u.Live
		}
		if u.MaxCount != nil && n > int(*u.MaxCount) {
			bad = append(bad, fmt.Sprintf("ResourcePolicy %s unit %s counts %d pods in group %q, above its maxCount %d", u.Policy, u.Unit, n, u.Group, *u.MaxCount))
		}
	}
	return bad
}

// replicaInvariants is invariant 6. The replica counts are replayed from
// the scheduled events applied so far.
func (s *State) replicaInvariants() []string {
	byKey := map[string]int{}
	for i := range s.Scenario.Deployments {
		byKey[s.Scenario.Deployments[i].Key()] = i
	}
	want := map[int]int32{} // created Deployments only
	for _, ev := range s.static.events[:s.nextEvent] {
		switch ev.kind {
		case kindDeployment:
			want[ev.wl] = s.Scenario.Deployments[ev.wl].Replicas
		case kindScale:
			if i, ok := byKey[ev.event.Target]; ok {
				if _, created := want[i]; created {
					want[i] = ev.event.Replicas
				}
			}
		}
	}
	var bad []string
	for i := range s.Scenario.Deployments {
		d := &s.Scenario.Deployments[i]
		if _, created := want[i]; d.Queue == "" || !created {
			continue // before it is created, only pasted pods can be live
		}
		live, notCreated := 0, 0
		for _, wi := range d.Workloads {
			switch w := s.Workload(wi); {
			case w.Status == Pending, w.Status == Admitted, w.Status == Terminating && !w.ScaledIn:
				live++
			case w.Status == NotCreated:
				notCreated++
			}
		}
		if exp := min(int(want[i]), live+notCreated); live != exp {
			bad = append(bad, fmt.Sprintf("%s %s has %d live pod workloads for %d replicas", d.Kind, d.Key(), live, want[i]))
		}
	}
	return bad
}

func equalQueueLists(a, b trace.QueueLists) bool {
	return slices.Equal(a.Pending, b.Pending) && slices.Equal(a.Parked, b.Parked) && slices.Equal(a.Admitted, b.Admitted) && slices.Equal(a.Terminating, b.Terminating)
}

func equalQueueState(a, b trace.QueueState) bool {
	return a.ClusterQueue == b.ClusterQueue && a.Active == b.Active && a.InactiveReason == b.InactiveReason &&
		a.PendingCount == b.PendingCount && a.ParkedCount == b.ParkedCount && a.AdmittedCount == b.AdmittedCount && a.TerminatingCount == b.TerminatingCount &&
		slices.Equal(a.Pending, b.Pending) && slices.Equal(a.Parked, b.Parked) && slices.Equal(a.Admitted, b.Admitted) && slices.Equal(a.Terminating, b.Terminating)
}
