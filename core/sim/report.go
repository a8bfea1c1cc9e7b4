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
//
// The rows are a function of the tree's usage (its entries and amounts:
// quota.Tree.Version moves with every change to them) and of the
// terminating workloads (setTerminating moves termVer); the quotas and
// the layout are fixed for a run. When neither moved since the last
// report, Run's State (with reportSpace: no one else holds its reports)
// reports the same rows again, not a copy: most steps of a long run
// change no usage (arrivals, cycles that admit nothing), and the
// Compactor sees the same rows at once (Compactor.compact).
func (s *State) usageRows() []trace.UsageRow {
	t := s.Tree
	at := [2]uint64{t.Version(), s.termVer}
	if s.space != nil && s.reportedRows != nil && s.rowsAt == at {
		return s.reportedRows
	}
	s.rowsAt = at
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
	var rows []trace.UsageRow
	if sp := s.space; sp != nil && cap(sp.rows) >= layout.rows {
		rows = sp.rows[:0]
	} else {
		rows = make([]trace.UsageRow, 0, layout.rows)
	}
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
	if s.space != nil {
		s.space.rows = s.reportedRows
	}
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

// reportSpace is the space of the report before the last one, which Run
// writes the next report into when it changes its one State in place
// (without Observe, State.advance): no one holds that report any more.
// The trace keeps none of a report (the Compactor copies what a Full
// step keeps, CompactLists), the Compactor holds the last one until it
// has compared the next with it, and Stop must not keep what it is
// given. Without it (nil: Step, Observe) every report is new and
// replaces the last, never modifying it (a copy of the State may hold
// it).
type reportSpace struct {
	rows   []trace.UsageRow
	states []trace.QueueState
	lists  []trace.QueueLists
	parts  []queueParts
	// bufs are each queue's lists' two arrays: one holds the list last
	// reported, the other is written when the list changes.
	bufs []listBufs
	// noQueues reports no queue at all (Options.NoQueues).
	noQueues bool
}

// listBufs are the two arrays of each of a queue's four lists, and which
// one holds the list last reported.
type listBufs struct {
	arr [4][2][]int32
	cur [4]uint8
}

// The lists of a queue, as listBufs numbers them.
const (
	listPending = iota
	listParked
	listAdmitted
	listTerminating
)

// next returns room for list k of at most QueueListCap numbers: the
// array that does not hold the list last reported, or a new one. Not
// inlined: one copy serves queueStateAfter's four lists (the size of the
// page's WebAssembly).
//
//go:noinline
func (b *listBufs) next(k int) []int32 {
	if b == nil {
		return nil
	}
	b.cur[k] ^= 1
	a := &b.arr[k][b.cur[k]]
	if *a == nil {
		*a = make([]int32, 0, QueueListCap)
	}
	return (*a)[:0]
}

// queueStates reports every ClusterQueue's queue, by name, and sets
// s.reportedLists to their lists as workload numbers (QueueLists). The
// states carry the names of their lists only without reportSpace
// (Observe, Step): Run's Compactor names what the trace keeps.
func (s *State) queueStates() []trace.QueueState {
	sp := s.space
	if sp != nil && sp.noQueues {
		return nil
	}
	n := len(s.Queues)
	var out []trace.QueueState
	var lists []trace.QueueLists
	var parts []queueParts
	if sp != nil && len(sp.states) == n {
		out, lists, parts = sp.states, sp.lists, sp.parts
	} else {
		out, lists, parts = make([]trace.QueueState, n), make([]trace.QueueLists, n), make([]queueParts, n)
	}
	if sp != nil && len(sp.bufs) != n {
		sp.bufs = make([]listBufs, n)
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
			out[qi], lists[qi], parts[qi] = s.reportedStates[qi], s.reportedLists[qi], s.reportedParts[qi]
			continue
		}
		var prev *trace.QueueState
		var prevL *trace.QueueLists
		var pp *queueParts
		if qi < len(s.reportedParts) {
			prev, prevL, pp = &s.reportedStates[qi], &s.reportedLists[qi], &s.reportedParts[qi]
		}
		var bufs *listBufs
		if sp != nil {
			bufs = &sp.bufs[qi]
		}
		out[qi], lists[qi], parts[qi] = s.queueStateAfter(qi, prev, prevL, pp, bufs)
	}
	if sp != nil {
		sp.states, sp.lists, sp.parts = s.reportedStates, s.reportedLists, s.reportedParts
	}
	s.reportedStates, s.reportedLists, s.reportedParts = out, lists, parts
	return out
}

// queueParts is what the parts of a queue's state are computed from: the
// pending list from the heap and the sticky head, the parked list from
// the parked set, the admitted and terminating lists from the holders and
// their statuses (a holder becomes Terminating only with its queue's
// generation bumped, terminate); ver is the queue's version.
type queueParts struct {
	ver, heap, parked, holding uint64
	sticky                     int
	generation                 int64
}

func partsOf(q *ClusterQueue) queueParts {
	return queueParts{ver: q.ver, heap: q.Heap.ver, parked: q.Parked.ver, holding: q.Holding.ver, sticky: q.Sticky, generation: q.Generation}
}

// queueState computes ClusterQueue qi's state, with the names of its
// lists, and its lists from scratch.
func (s *State) queueState(qi int) (trace.QueueState, trace.QueueLists) {
	qs, l, _ := s.queueStateAfter(qi, nil, nil, nil, nil)
	return qs, l
}

// queueStateAfter computes ClusterQueue qi's state, its lists and its
// parts, reusing the parts of prev and prevL (the last report, computed
// from pp) whose sources did not change. The lists that changed are
// written in bufs' free arrays; without bufs they are new, and the state
// names them too.
func (s *State) queueStateAfter(qi int, prev *trace.QueueState, prevL *trace.QueueLists, pp *queueParts, bufs *listBufs) (trace.QueueState, trace.QueueLists, queueParts) {
	q := s.Queues[qi]
	now := partsOf(q)
	named := bufs == nil
	qs := trace.QueueState{ClusterQueue: q.Spec.Name, Active: q.Active, InactiveReason: q.InactiveReason}
	var l trace.QueueLists
	if prev != nil && pp.heap == now.heap && pp.sticky == now.sticky {
		qs.PendingCount, qs.Pending, l.Pending = prev.PendingCount, prev.Pending, prevL.Pending
	} else {
		qs.PendingCount, l.Pending = q.Heap.Len(), s.pendingList(qi, bufs.next(listPending))
		if named {
			qs.Pending = s.names(l.Pending)
		}
	}
	if prev != nil && pp.parked == now.parked {
		qs.ParkedCount, qs.Parked, l.Parked = prev.ParkedCount, prev.Parked, prevL.Parked
	} else {
		qs.ParkedCount, l.Parked = q.Parked.Len(), s.firstOf(&q.Parked, bufs.next(listParked))
		if named {
			qs.Parked = s.names(l.Parked)
		}
	}
	if prev != nil && pp.holding == now.holding && pp.generation == now.generation {
		qs.AdmittedCount, qs.Admitted, l.Admitted = prev.AdmittedCount, prev.Admitted, prevL.Admitted
		qs.TerminatingCount, qs.Terminating, l.Terminating = prev.TerminatingCount, prev.Terminating, prevL.Terminating
		return qs, l, now
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
	qs.AdmittedCount, l.Admitted = len(admitted), appendFirst(bufs.next(listAdmitted), admitted)
	qs.TerminatingCount, l.Terminating = len(terminating), appendFirst(bufs.next(listTerminating), terminating)
	if named {
		qs.Admitted, qs.Terminating = s.names(l.Admitted), s.names(l.Terminating)
	}
	return qs, l, now
}

// pendingList appends to out at most QueueListCap workloads of queue
// qi's heap in queue order, the head (the sticky workload, if any)
// first.
func (s *State) pendingList(qi int, out []int32) []int32 {
	q := s.Queues[qi]
	h := s.head(qi)
	if h < 0 {
		return out
	}
	n := min(q.Heap.Len(), QueueListCap)
	if cap(out)-len(out) < n {
		out = slices.Grow(out, n)
	}
	if h == q.Heap.First() {
		// The usual head, the heap's first: the list is the heap's first
		// n, copied chunk by chunk without a test per workload (this
		// runs for every changed queue of every step).
		end := len(out) + n
		for _, c := range q.Heap.chunks {
			src := c.v[:min(len(c.v), end-len(out))]
			k := len(out)
			out = out[:k+len(src)]
			dst := out[k:]
			for i := range src {
				dst[i] = int32(src[i])
			}
			if len(out) == end {
				break
			}
		}
		return out
	}
	out = append(out, int32(h))
	for _, c := range q.Heap.chunks {
		for _, w := range c.v {
			if len(out) == n {
				return out
			}
			if w != h {
				out = append(out, int32(w))
			}
		}
	}
	return out
}

// firstOf appends to out the first QueueListCap workloads of l.
func (s *State) firstOf(l *idxList, out []int32) []int32 {
	n := min(l.Len(), QueueListCap)
	if out == nil && n > 0 {
		out = make([]int32, 0, n)
	}
	for _, c := range l.chunks {
		for _, w := range c.v {
			if len(out) == n {
				return out
			}
			out = append(out, int32(w))
		}
	}
	return out
}

// appendFirst appends to out the first QueueListCap of idx.
func appendFirst(out []int32, idx []int) []int32 {
	idx = idx[:min(len(idx), QueueListCap)]
	if out == nil && len(idx) > 0 {
		out = make([]int32, 0, len(idx))
	}
	for _, i := range idx {
		out = append(out, int32(i))
	}
	return out
}

// names are the keys of a list of workloads; nil for an empty list.
func (s *State) names(l []int32) []string {
	if len(l) == 0 {
		return nil
	}
	out := make([]string, len(l))
	for i, w := range l {
		out[i] = s.static.keys[w]
	}
	return out
}
