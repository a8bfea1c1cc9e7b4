package sim

import (
	"cmp"
	"slices"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/quota"
	"github.com/kueueplay/kueueplay/core/trace"
)

// QueueListCap bounds each list in a trace.QueueState so that a step's
// size does not grow with the number of workloads; the counts are exact.
const QueueListCap = 50

// usageLayout is the order of the usage rows, fixed for a run: the tree's
// nodes (ClusterQueues, then Cohorts, each by name) and each node's
// flavor-resources with quota in its subtree, sorted. The quota tree's
// shape and quotas do not change during a run (it is built once, in New).
type usageLayout struct {
	nodes []int
	frs   [][]core.FlavorResource
	ids   [][]int // the numbers of frs (quota.Tree.ID)
	rows  int     // the number of rows without usage outside the quotas
}

func newUsageLayout(t *quota.Tree) *usageLayout {
	l := &usageLayout{nodes: make([]int, len(t.Nodes)), frs: make([][]core.FlavorResource, len(t.Nodes)), ids: make([][]int, len(t.Nodes))}
	for i := range t.Nodes {
		l.nodes[i] = i
		l.frs[i] = quota.SortedKeys(t.Nodes[i].SubtreeQuota)
		l.ids[i] = make([]int, len(l.frs[i]))
		for k, fr := range l.frs[i] {
			l.ids[i][k] = t.ID(fr)
		}
		l.rows += len(l.frs[i])
	}
	slices.SortFunc(l.nodes, func(a, b int) int {
		na, nb := &t.Nodes[a], &t.Nodes[b]
		if na.IsClusterQueue != nb.IsClusterQueue {
			if na.IsClusterQueue {
				return -1
			}
			return 1
		}
		return cmp.Compare(na.Name, nb.Name)
	})
	return l
}

// usageRows reports every flavor-resource of every ClusterQueue and
// Cohort, ClusterQueues and Cohorts each by name: those with quota in the
// node's subtree and those it has ever used (a usage entry stays, at 0,
// once made).
func (s *State) usageRows() []trace.UsageRow {
	t := s.Tree
	w := t.Width()
	layout := s.static.usage
	lent := s.lentAmounts()
	// Usage of terminating workloads, by node and flavor-resource number.
	var terminating []core.Amount
	for _, i := range s.terminating {
		wl := s.Workload(i)
		if qi := s.QueueIndex(wl.Admission.ClusterQueue); qi >= 0 {
			n := s.Queues[qi].Node
			if terminating == nil {
				terminating = make([]core.Amount, len(t.Nodes)*w)
			}
			for fr, v := range wl.Admission.Usage {
				if id := t.ID(fr); id >= 0 {
					terminating[n*w+id] += v
				}
			}
		}
	}
	rows := s.rec.usageRows(layout.rows)
	for _, i := range layout.nodes {
		n := &t.Nodes[i]
		frs, ids := layout.frs[i], layout.ids[i]
		if t.UsedOutside(i) {
			ids = nil
			set := map[core.FlavorResource]bool{}
			for fr := range n.SubtreeQuota {
				set[fr] = true
			}
			for _, fr := range t.UsageKeys(i) {
				set[fr] = true
			}
			frs = quota.SortedKeys(set)
		}
		kind, parent := "ClusterQueue", ""
		if !n.IsClusterQueue {
			kind = "Cohort"
		}
		if n.Parent >= 0 {
			parent = t.Nodes[n.Parent].Name
		}
		for k, fr := range frs {
			var id int
			if ids != nil {
				id = ids[k]
			} else {
				id = t.ID(fr)
			}
			lim := t.LimitsID(i, id)
			row := trace.UsageRow{
				Node: n.Name, Kind: kind, Parent: parent, Flavor: string(fr.Flavor), Resource: string(fr.Resource),
				Used: t.UsedID(i, id), Nominal: lim.Nominal, SubtreeQuota: t.SubtreeQuotaID(i, id),
				HeldBack: t.LocalQuotaID(i, id), BorrowingLimit: lim.BorrowingLimit, LendingLimit: lim.LendingLimit,
				Available: t.AvailableID(i, id),
			}
			if id >= 0 {
				row.Lent = lent[i*w+id]
				if terminating != nil {
					row.Terminating = terminating[i*w+id]
				}
			}
			row.Borrowed = max(0, row.Used-row.SubtreeQuota)
			rows = append(rows, row)
		}
	}
	s.rec.retire(piece{born: s.reportedAt, rows: s.reportedRows})
	s.reportedRows = rows
	return rows
}

// lentAmounts attributes, in every cohort, what its children borrow to the
// quota that covers it: first the cohort's own nominal quota, then its
// children's unused lendable quota in name order (cohorts, then
// ClusterQueues). Kueue pools unused quota and does not say who lends
// (KEP-1224, Note); this fixed attribution makes Lent sum to Borrowed.
// The result is indexed by node and flavor-resource number (node ×
// Tree.Width() + number).
func (s *State) lentAmounts() []core.Amount {
	t := s.Tree
	w := t.Width()
	out := make([]core.Amount, len(t.Nodes)*w)
	for p := range t.Nodes {
		n := &t.Nodes[p]
		if n.IsClusterQueue {
			continue
		}
		// A cohort's subtree quota has an entry for every flavor-resource
		// of its children (quota.Tree.accumulate).
		for _, id := range s.static.usage.ids[p] {
			var borrowed core.Amount
			kids := [2][]int{n.ChildCohorts, n.ChildClusterQueues}
			for _, cs := range kids {
				for _, c := range cs {
					contributed := t.SubtreeQuotaID(c, id) - t.LocalQuotaID(c, id)
					inParent := max(0, t.UsedID(c, id)-t.LocalQuotaID(c, id))
					borrowed += max(0, inParent-contributed)
				}
			}
			// The cohort's own quota lends first (it is not attributed to
			// a child).
			borrowed -= min(borrowed, t.Nominal(p, id))
			// Child cohorts lend before ClusterQueues, each by name.
			for _, cs := range kids {
				for _, c := range cs {
					if borrowed <= 0 {
						break
					}
					contributed := t.SubtreeQuotaID(c, id) - t.LocalQuotaID(c, id)
					inParent := max(0, t.UsedID(c, id)-t.LocalQuotaID(c, id))
					unused := max(0, contributed-inParent)
					l := min(unused, borrowed)
					if l > 0 {
						out[c*w+id] = l
					}
					borrowed -= l
				}
			}
		}
	}
	return out
}

// queueStates reports every ClusterQueue's queue, by name.
func (s *State) queueStates() []trace.QueueState {
	rec := s.rec
	out := rec.queueStates(len(s.Queues))
	parts := s.reportedParts
	if rec == nil || len(parts) != len(s.Queues) {
		// Without a recycler a report's parts are replaced, never
		// modified (a copy of the State may hold them).
		parts = make([]queueParts, len(s.Queues))
	}
	for qi, q := range s.Queues {
		// A queue's state is a function of its *ClusterQueue (heap,
		// parked list, holders, sticky head, activity; every change
		// goes through mutQueue, which moves its version) and of its
		// holders' statuses (a holder becomes Terminating only with its
		// queue's generation bumped, terminate): the same version as at
		// the last report means the same state. CheckInvariants checks
		// it.
		if qi < len(s.reportedParts) && s.reportedParts[qi].ver == q.ver {
			out[qi], parts[qi] = s.reportedStates[qi], s.reportedParts[qi]
			continue
		}
		var prev *trace.QueueState
		var pp *queueParts
		if qi < len(s.reportedParts) {
			prev, pp = &s.reportedStates[qi], &s.reportedParts[qi]
		}
		out[qi], parts[qi] = s.queueStateAfter(qi, prev, pp, rec)
	}
	rec.retire(piece{born: s.reportedAt, queues: s.reportedStates})
	s.reportedStates, s.reportedParts, s.reportedAt = out, parts, s.Steps
	return out
}

// queueParts is what the parts of a queue's state are computed from: the
// pending list from the heap and the sticky head, the parked list from
// the parked set, the admitted and terminating lists from the holders and
// their statuses (a holder becomes Terminating only with its queue's
// generation bumped, terminate); ver is the queue's version. The born
// steps are the steps that first reported each part's lists (recycler).
type queueParts struct {
	ver, heap, parked, holding           uint64
	sticky                               int
	generation                           int64
	pendingBorn, parkedBorn, holdingBorn int
}

func partsOf(q *ClusterQueue) queueParts {
	return queueParts{ver: q.ver, heap: q.Heap.ver, parked: q.Parked.ver, holding: q.Holding.ver, sticky: q.Sticky, generation: q.Generation}
}

// queueState computes ClusterQueue qi's state from scratch.
func (s *State) queueState(qi int) trace.QueueState {
	qs, _ := s.queueStateAfter(qi, nil, nil, nil)
	return qs
}

// queueStateAfter computes ClusterQueue qi's state and its parts, reusing
// the parts of prev (the last report, computed from pp) whose sources did
// not change. With a recycler, the lists it replaces are retired and the
// new ones made in recycled space.
func (s *State) queueStateAfter(qi int, prev *trace.QueueState, pp *queueParts, rec *recycler) (trace.QueueState, queueParts) {
	q := s.Queues[qi]
	now := partsOf(q)
	now.pendingBorn, now.parkedBorn, now.holdingBorn = s.Steps, s.Steps, s.Steps
	qs := trace.QueueState{ClusterQueue: q.Spec.Name, Active: q.Active, InactiveReason: q.InactiveReason}
	if prev != nil && pp.heap == now.heap && pp.sticky == now.sticky {
		qs.PendingCount, qs.Pending = prev.PendingCount, prev.Pending
		now.pendingBorn = pp.pendingBorn
	} else {
		if prev != nil {
			rec.retire(piece{born: pp.pendingBorn, list: prev.Pending})
		}
		qs.PendingCount, qs.Pending = q.Heap.Len(), s.pendingKeys(qi, rec)
	}
	if prev != nil && pp.parked == now.parked {
		qs.ParkedCount, qs.Parked = prev.ParkedCount, prev.Parked
		now.parkedBorn = pp.parkedBorn
	} else {
		if prev != nil {
			rec.retire(piece{born: pp.parkedBorn, list: prev.Parked})
		}
		qs.ParkedCount, qs.Parked = s.listKeys(&q.Parked, rec)
	}
	if prev != nil && pp.holding == now.holding && pp.generation == now.generation {
		qs.AdmittedCount, qs.Admitted = prev.AdmittedCount, prev.Admitted
		qs.TerminatingCount, qs.Terminating = prev.TerminatingCount, prev.Terminating
		now.holdingBorn = pp.holdingBorn
		return qs, now
	}
	if prev != nil {
		rec.retire(piece{born: pp.holdingBorn, list: prev.Admitted})
		rec.retire(piece{born: pp.holdingBorn, list: prev.Terminating})
	}
	var admitted, terminating []int
	for i := range q.Holding.All {
		if s.Workload(i).Status == Admitted {
			admitted = append(admitted, i)
		} else {
			terminating = append(terminating, i)
		}
	}
	slices.SortFunc(admitted, s.byKey)
	slices.SortFunc(terminating, s.byKey)
	qs.AdmittedCount, qs.Admitted = s.keys(admitted, rec)
	qs.TerminatingCount, qs.Terminating = s.keys(terminating, rec)
	return qs, now
}

// pendingKeys lists at most QueueListCap workloads of queue qi's heap in
// queue order, the head (the sticky workload, if any) first.
func (s *State) pendingKeys(qi int, rec *recycler) []string {
	q := s.Queues[qi]
	h := s.head(qi)
	if h < 0 {
		return nil
	}
	out := rec.list(min(q.Heap.Len(), QueueListCap))
	keys := s.static.keys
	out = append(out, keys[h])
	for _, c := range q.Heap.chunks {
		for _, w := range c.v {
			if len(out) == cap(out) {
				return out
			}
			if w != h {
				out = append(out, keys[w])
			}
		}
	}
	return out
}

// listKeys is keys for an idxList: its length and the keys of its first
// QueueListCap workloads.
func (s *State) listKeys(l *idxList, rec *recycler) (int, []string) {
	n := min(l.Len(), QueueListCap)
	if n == 0 {
		return l.Len(), []string{}
	}
	out := rec.list(n)
	for _, c := range l.chunks {
		for _, w := range c.v {
			if len(out) == cap(out) {
				return l.Len(), out
			}
			out = append(out, s.static.keys[w])
		}
	}
	return l.Len(), out
}

func (s *State) keys(idx []int, rec *recycler) (int, []string) {
	n := min(len(idx), QueueListCap)
	if n == 0 {
		return len(idx), []string{}
	}
	out := rec.list(n)[:n]
	for i := range n {
		out[i] = s.static.keys[idx[i]]
	}
	return len(idx), out
}
