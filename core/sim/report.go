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
	rows  int // the number of rows without usage outside the quotas
}

func newUsageLayout(t *quota.Tree) *usageLayout {
	l := &usageLayout{nodes: make([]int, len(t.Nodes)), frs: make([][]core.FlavorResource, len(t.Nodes))}
	for i := range t.Nodes {
		l.nodes[i] = i
		l.frs[i] = quota.SortedKeys(t.Nodes[i].SubtreeQuota)
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
	layout := s.static.usage
	lent := s.lentAmounts()
	// Usage of terminating workloads, by node.
	var terminating map[int]map[core.FlavorResource]core.Amount
	for _, i := range s.terminating {
		w := s.Workload(i)
		if qi := s.QueueIndex(w.Admission.ClusterQueue); qi >= 0 {
			n := s.Queues[qi].Node
			if terminating == nil {
				terminating = map[int]map[core.FlavorResource]core.Amount{}
			}
			if terminating[n] == nil {
				terminating[n] = map[core.FlavorResource]core.Amount{}
			}
			for fr, v := range w.Admission.Usage {
				terminating[n][fr] += v
			}
		}
	}
	rows := make([]trace.UsageRow, 0, layout.rows)
	for _, i := range layout.nodes {
		n := &t.Nodes[i]
		frs := layout.frs[i]
		if t.UsedOutside(i) {
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
		for _, fr := range frs {
			lim := n.Quotas[fr]
			row := trace.UsageRow{
				Node: n.Name, Kind: kind, Parent: parent, Flavor: string(fr.Flavor), Resource: string(fr.Resource),
				Used: t.Used(i, fr), Nominal: lim.Nominal, SubtreeQuota: n.SubtreeQuota[fr],
				HeldBack: t.LocalQuota(i, fr), BorrowingLimit: lim.BorrowingLimit, LendingLimit: lim.LendingLimit,
				Available: t.Available(i, fr), Lent: lent[i][fr], Terminating: terminating[i][fr],
			}
			row.Borrowed = max(0, row.Used-row.SubtreeQuota)
			rows = append(rows, row)
		}
	}
	return rows
}

// lentAmounts attributes, in every cohort, what its children borrow to the
// quota that covers it: first the cohort's own nominal quota, then its
// children's unused lendable quota in name order (cohorts, then
// ClusterQueues). Kueue pools unused quota and does not say who lends
// (KEP-1224, Note); this fixed attribution makes Lent sum to Borrowed.
// A node that lends nothing has no map.
func (s *State) lentAmounts() []map[core.FlavorResource]core.Amount {
	t := s.Tree
	out := make([]map[core.FlavorResource]core.Amount, len(t.Nodes))
	for p := range t.Nodes {
		n := &t.Nodes[p]
		if n.IsClusterQueue {
			continue
		}
		// A cohort's subtree quota has an entry for every flavor-resource
		// of its children (quota.Tree.accumulate).
		for _, fr := range s.static.usage.frs[p] {
			var borrowed core.Amount
			kids := [2][]int{n.ChildCohorts, n.ChildClusterQueues}
			for _, cs := range kids {
				for _, c := range cs {
					contributed := t.Nodes[c].SubtreeQuota[fr] - t.LocalQuota(c, fr)
					inParent := max(0, t.Used(c, fr)-t.LocalQuota(c, fr))
					borrowed += max(0, inParent-contributed)
				}
			}
			// The cohort's own quota lends first (it is not attributed to
			// a child).
			borrowed -= min(borrowed, n.Quotas[fr].Nominal)
			// Child cohorts lend before ClusterQueues, each by name.
			for _, cs := range kids {
				for _, c := range cs {
					if borrowed <= 0 {
						break
					}
					contributed := t.Nodes[c].SubtreeQuota[fr] - t.LocalQuota(c, fr)
					inParent := max(0, t.Used(c, fr)-t.LocalQuota(c, fr))
					unused := max(0, contributed-inParent)
					l := min(unused, borrowed)
					if l > 0 {
						if out[c] == nil {
							out[c] = map[core.FlavorResource]core.Amount{}
						}
						out[c][fr] = l
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
	out := make([]trace.QueueState, len(s.Queues))
	for qi, q := range s.Queues {
		// A queue's state is a function of its *ClusterQueue (heap,
		// parked list, holders, sticky head, activity; every change
		// goes through mutQueue, which moves its version) and of its
		// holders' statuses (a holder becomes Terminating only with its
		// queue's generation bumped, terminate): the same version as at
		// the last report means the same state. CheckInvariants checks
		// it.
		if qi < len(s.reported) && s.reported[qi] == q.ver {
			out[qi] = s.reportedStates[qi]
			continue
		}
		out[qi] = s.queueState(qi)
	}
	ver := make([]uint64, len(s.Queues))
	for qi, q := range s.Queues {
		ver[qi] = q.ver
	}
	s.reported, s.reportedStates = ver, out
	return out
}

// queueState computes ClusterQueue qi's state from scratch.
func (s *State) queueState(qi int) trace.QueueState {
	q := s.Queues[qi]
	var admitted, terminating []int
	for i := range q.Holding.All {
		if s.Workload(i).Status == Admitted {
			admitted = append(admitted, i)
		} else {
			terminating = append(terminating, i)
		}
	}
	qs := trace.QueueState{ClusterQueue: q.Spec.Name, Active: q.Active, InactiveReason: q.InactiveReason}
	qs.PendingCount, qs.Pending = q.Heap.Len(), s.pendingKeys(qi)
	qs.ParkedCount, qs.Parked = s.listKeys(&q.Parked)
	slices.SortFunc(admitted, s.byKey)
	slices.SortFunc(terminating, s.byKey)
	qs.AdmittedCount, qs.Admitted = s.keys(admitted)
	qs.TerminatingCount, qs.Terminating = s.keys(terminating)
	return qs
}

// pendingKeys lists at most QueueListCap workloads of queue qi's heap in
// queue order, the head (the sticky workload, if any) first.
func (s *State) pendingKeys(qi int) []string {
	q := s.Queues[qi]
	h := s.head(qi)
	if h < 0 {
		return nil
	}
	out := make([]string, 0, min(q.Heap.Len(), QueueListCap))
	out = append(out, s.Workload(h).Key)
	for w := range q.Heap.All {
		if len(out) == cap(out) {
			break
		}
		if w != h {
			out = append(out, s.Workload(w).Key)
		}
	}
	return out
}

// listKeys is keys for an idxList: its length and the keys of its first
// QueueListCap workloads.
func (s *State) listKeys(l *idxList) (int, []string) {
	out := make([]string, 0, min(l.Len(), QueueListCap))
	for w := range l.All {
		if len(out) == cap(out) {
			break
		}
		out = append(out, s.Workload(w).Key)
	}
	return l.Len(), out
}

func (s *State) keys(idx []int) (int, []string) {
	n := min(len(idx), QueueListCap)
	out := make([]string, n)
	for i := range n {
		out[i] = s.Workload(idx[i]).Key
	}
	return len(idx), out
}
