// Package quota is the cohort tree and its arithmetic: nominal quota,
// borrowing and lending limits, subtree quota, usage, available and
// potentially available capacity, and borrowing height.
//
// It mirrors sigs.k8s.io/kueue/pkg/cache/scheduler/resource_node.go (Kueue
// v0.16.1). Every ClusterQueue and every Cohort is a node. A node's
// SubtreeQuota is its own nominal quota plus what its children make
// visible to it; a child with a lending limit keeps
// localQuota = max(0, SubtreeQuota - lendingLimit) for itself, and that
// part never reaches the parent.
//
// Worked example (flat cohort, one flavor-resource):
//
//	cq-a: nominal 10, lendingLimit 4  -> localQuota(cq-a) = 6
//	cq-b: nominal 0                   -> localQuota(cq-b) = 0
//	cohort SubtreeQuota = (10-6) + (0-0) = 4
//
// If cq-a uses 9, 6 of it is covered locally and 3 is stored in the
// cohort (cohort Usage = 3), so cq-b has available = 4 - 3 = 1, and cq-a
// has available = LocalAvailable 0 + cohort available 1 = 1.
//
// The tree is indexed by integers so that cloning is cheap: Clone copies
// the usage maps and shares everything else, as Kueue's resourceNode.Clone
// does.
package quota

import (
	"cmp"
	"maps"
	"slices"

	"github.com/kueueplay/kueueplay/core"
)

// Limits of one flavor-resource on one node. BorrowingLimit and
// LendingLimit are nil when unset.
type Limits struct {
	Nominal        core.Amount
	BorrowingLimit *core.Amount
	LendingLimit   *core.Amount
}

// Node is a ClusterQueue or a Cohort in the tree.
type Node struct {
	Name string
	// IsClusterQueue tells a ClusterQueue (always a leaf) from a Cohort.
	IsClusterQueue bool
	// Inactive marks an inactive ClusterQueue: Kueue's snapshot leaves it
	// out of the hierarchy (its usage stays in its cohorts), so it does not
	// count towards a cohort's height.
	Inactive bool
	// Parent is the parent cohort's index, or -1 for a root.
	Parent int
	// ChildCohorts and ChildClusterQueues are indexes, each sorted by name.
	ChildCohorts       []int
	ChildClusterQueues []int

	// Quotas are the node's own quotas (shared between clones).
	Quotas map[core.FlavorResource]Limits
	// SubtreeQuota is the node's quota plus what its children lend it
	// (shared between clones; it changes only when the tree is rebuilt).
	SubtreeQuota map[core.FlavorResource]core.Amount
	// Usage is what counts against SubtreeQuota: for a ClusterQueue its
	// admitted usage, for a Cohort the sum of its children's usage beyond
	// their localQuota.
	Usage map[core.FlavorResource]core.Amount
}

// Tree is the forest of every ClusterQueue and Cohort.
type Tree struct {
	Nodes []Node
	// lending reports whether lending limits are honoured (gate LendingLimit).
	lending bool
	cqs     map[string]int
	cohorts map[string]int
}

// Build returns the tree for the given queues and cohorts. Cohorts named by
// a ClusterQueue or as a parent but not declared are created with no quota,
// as Kueue does. The caller must have rejected cohort cycles. With lending
// false, lending limits are ignored (Kueue's LendingLimit gate off:
// pkg/cache/scheduler/clusterqueue.go createResourceQuotas).
func Build(cqs []core.ClusterQueue, cohorts []core.Cohort, lending bool) *Tree {
	t := &Tree{lending: lending, cqs: map[string]int{}, cohorts: map[string]int{}}
	addCohort := func(name string) int {
		if i, ok := t.cohorts[name]; ok {
			return i
		}
		t.Nodes = append(t.Nodes, newNode(name, false))
		t.cohorts[name] = len(t.Nodes) - 1
		return len(t.Nodes) - 1
	}
	// Declared cohorts first, then implicit ones, in a sorted order so the
	// indexes do not depend on document order.
	sortedCohorts := slices.Clone(cohorts)
	slices.SortFunc(sortedCohorts, func(a, b core.Cohort) int { return cmp.Compare(a.Name, b.Name) })
	for _, c := range sortedCohorts {
		i := addCohort(c.Name)
		t.Nodes[i].Quotas = quotasOf(c.ResourceGroups, lending)
	}
	for _, c := range sortedCohorts {
		if c.Parent != "" {
			p := addCohort(c.Parent)
			t.Nodes[t.cohorts[c.Name]].Parent = p
		}
	}
	sortedCQs := slices.Clone(cqs)
	slices.SortFunc(sortedCQs, func(a, b core.ClusterQueue) int { return cmp.Compare(a.Name, b.Name) })
	for _, cq := range sortedCQs {
		n := newNode(cq.Name, true)
		n.Quotas = quotasOf(cq.ResourceGroups, lending)
		t.Nodes = append(t.Nodes, n)
		i := len(t.Nodes) - 1
		t.cqs[cq.Name] = i
		if cq.Cohort != "" {
			t.Nodes[i].Parent = addCohort(cq.Cohort)
		}
	}
	for i := range t.Nodes {
		if p := t.Nodes[i].Parent; p >= 0 {
			if t.Nodes[i].IsClusterQueue {
				t.Nodes[p].ChildClusterQueues = append(t.Nodes[p].ChildClusterQueues, i)
			} else {
				t.Nodes[p].ChildCohorts = append(t.Nodes[p].ChildCohorts, i)
			}
		}
	}
	for i := range t.Nodes {
		n := &t.Nodes[i]
		byName := func(a, b int) int { return cmp.Compare(t.Nodes[a].Name, t.Nodes[b].Name) }
		slices.SortFunc(n.ChildCohorts, byName)
		slices.SortFunc(n.ChildClusterQueues, byName)
	}
	for i := range t.Nodes {
		if t.Nodes[i].Parent < 0 {
			t.accumulate(i)
		}
	}
	return t
}

func newNode(name string, isCQ bool) Node {
	return Node{
		Name:           name,
		IsClusterQueue: isCQ,
		Parent:         -1,
		Quotas:         map[core.FlavorResource]Limits{},
		SubtreeQuota:   map[core.FlavorResource]core.Amount{},
		Usage:          map[core.FlavorResource]core.Amount{},
	}
}

func quotasOf(groups []core.ResourceGroup, lending bool) map[core.FlavorResource]Limits {
	q := map[core.FlavorResource]Limits{}
	for _, g := range groups {
		for _, f := range g.Flavors {
			for _, r := range f.Resources {
				l := Limits{Nominal: r.Nominal, BorrowingLimit: r.BorrowingLimit}
				if lending {
					l.LendingLimit = r.LendingLimit
				}
				q[core.FlavorResource{Flavor: f.Name, Resource: r.Name}] = l
			}
		}
	}
	return q
}

// accumulate computes SubtreeQuota bottom-up, like Kueue's
// updateCohortResourceNode and accumulateFromChild.
func (t *Tree) accumulate(i int) {
	n := &t.Nodes[i]
	for fr, q := range n.Quotas {
		n.SubtreeQuota[fr] = q.Nominal
	}
	children := append(slices.Clone(n.ChildCohorts), n.ChildClusterQueues...)
	for _, c := range children {
		t.accumulate(c)
		child := &t.Nodes[c]
		for fr, q := range child.SubtreeQuota {
			t.Nodes[i].SubtreeQuota[fr] += q - t.localQuota(c, fr)
		}
	}
}

// Clone returns a tree with its own usage maps; quotas are shared.
func (t *Tree) Clone() *Tree {
	c := &Tree{lending: t.lending, cqs: t.cqs, cohorts: t.cohorts, Nodes: slices.Clone(t.Nodes)}
	for i := range c.Nodes {
		c.Nodes[i].Usage = maps.Clone(t.Nodes[i].Usage)
	}
	return c
}

// ClusterQueue returns the node index of a ClusterQueue, or -1.
func (t *Tree) ClusterQueue(name string) int {
	if i, ok := t.cqs[name]; ok {
		return i
	}
	return -1
}

// Cohort returns the node index of a Cohort, or -1.
func (t *Tree) Cohort(name string) int {
	if i, ok := t.cohorts[name]; ok {
		return i
	}
	return -1
}

// Root returns the root of i's tree.
func (t *Tree) Root(i int) int {
	for t.Nodes[i].Parent >= 0 {
		i = t.Nodes[i].Parent
	}
	return i
}

// localQuota is the part of a node's subtree quota that a lending limit
// keeps from its parent (Kueue resourceNode.localQuota).
func (t *Tree) localQuota(i int, fr core.FlavorResource) core.Amount {
	n := &t.Nodes[i]
	if ll := n.Quotas[fr].LendingLimit; ll != nil {
		return max(0, n.SubtreeQuota[fr]-*ll)
	}
	return 0
}

// LocalQuota is exported for the trace: the guaranteed part of node i's
// quota that the parent never sees.
func (t *Tree) LocalQuota(i int, fr core.FlavorResource) core.Amount { return t.localQuota(i, fr) }

// LocalAvailable is how much of node i's guaranteed quota is unused
// (Kueue LocalAvailable).
func (t *Tree) LocalAvailable(i int, fr core.FlavorResource) core.Amount {
	return max(0, t.localQuota(i, fr)-t.Nodes[i].Usage[fr])
}

// available is Kueue's available(): capacity left for node i, counting
// what it may take from its ancestors within its borrowing limit. It may be
// negative when the node is over-admitted.
func (t *Tree) available(i int, fr core.FlavorResource) core.Amount {
	n := &t.Nodes[i]
	if n.Parent < 0 {
		return n.SubtreeQuota[fr] - n.Usage[fr]
	}
	parentAvailable := t.available(n.Parent, fr)
	if bl := n.Quotas[fr].BorrowingLimit; bl != nil {
		storedInParent := n.SubtreeQuota[fr] - t.localQuota(i, fr)
		usedInParent := max(0, n.Usage[fr]-t.localQuota(i, fr))
		withMaxFromParent := storedInParent - usedInParent + *bl
		parentAvailable = min(withMaxFromParent, parentAvailable)
	}
	return t.LocalAvailable(i, fr) + parentAvailable
}

// Available is the capacity node i can use now, clamped at 0
// (ClusterQueueSnapshot.Available).
func (t *Tree) Available(i int, fr core.FlavorResource) core.Amount {
	return max(0, t.available(i, fr))
}

// PotentialAvailable is the most node i could ever use if nothing else
// were used (Kueue potentialAvailable).
func (t *Tree) PotentialAvailable(i int, fr core.FlavorResource) core.Amount {
	n := &t.Nodes[i]
	if n.Parent < 0 {
		return n.SubtreeQuota[fr]
	}
	avail := t.localQuota(i, fr) + t.PotentialAvailable(n.Parent, fr)
	if bl := n.Quotas[fr].BorrowingLimit; bl != nil {
		avail = min(n.SubtreeQuota[fr]+*bl, avail)
	}
	return avail
}

// AddUsage adds val to node i and pushes the part beyond its local
// available quota up to the parent, recursively (Kueue addUsage).
func (t *Tree) AddUsage(i int, fr core.FlavorResource, val core.Amount) {
	localAvailable := t.LocalAvailable(i, fr)
	t.Nodes[i].Usage[fr] += val
	if p := t.Nodes[i].Parent; p >= 0 && val > localAvailable {
		t.AddUsage(p, fr, val-localAvailable)
	}
}

// RemoveUsage mirrors AddUsage (Kueue removeUsage).
func (t *Tree) RemoveUsage(i int, fr core.FlavorResource, val core.Amount) {
	storedInParent := t.Nodes[i].Usage[fr] - t.localQuota(i, fr)
	t.Nodes[i].Usage[fr] -= val
	if storedInParent <= 0 || t.Nodes[i].Parent < 0 {
		return
	}
	t.RemoveUsage(t.Nodes[i].Parent, fr, min(val, storedInParent))
}

// AddUsageMap and RemoveUsageMap apply a whole usage vector, in a sorted
// order so that the result never depends on map order.
func (t *Tree) AddUsageMap(i int, usage map[core.FlavorResource]core.Amount) {
	for _, fr := range SortedKeys(usage) {
		t.AddUsage(i, fr, usage[fr])
	}
}

// RemoveUsageMap removes a whole usage vector.
func (t *Tree) RemoveUsageMap(i int, usage map[core.FlavorResource]core.Amount) {
	for _, fr := range SortedKeys(usage) {
		t.RemoveUsage(i, fr, usage[fr])
	}
}

// Fits reports whether every flavor-resource of usage fits in what node i
// has available (ClusterQueueSnapshot.Fits).
func (t *Tree) Fits(i int, usage map[core.FlavorResource]core.Amount) bool {
	for fr, q := range usage {
		if t.Available(i, fr) < q {
			return false
		}
	}
	return true
}

// BorrowingWith reports whether node i would borrow if val more were used:
// for a ClusterQueue usage above nominal, for a Cohort usage above its
// subtree quota (ClusterQueueSnapshot/CohortSnapshot.BorrowingWith).
func (t *Tree) BorrowingWith(i int, fr core.FlavorResource, val core.Amount) bool {
	n := &t.Nodes[i]
	if n.IsClusterQueue {
		return n.Usage[fr]+val > n.Quotas[fr].Nominal
	}
	return n.Usage[fr]+val > n.SubtreeQuota[fr]
}

// Height is a cohort's height: 1 for a cohort with only ClusterQueue
// children, one more per cohort level below it, 0 for an empty cohort
// (Kueue classical.getNodeHeight); inactive ClusterQueues do not count.
func (t *Tree) Height(i int) int {
	n := &t.Nodes[i]
	children := len(n.ChildCohorts)
	for _, c := range n.ChildClusterQueues {
		if !t.Nodes[c].Inactive {
			children++
		}
	}
	h := min(children, 1)
	for _, c := range n.ChildCohorts {
		h = max(h, t.Height(c)+1)
	}
	return h
}

// LowestSubtreeThatFits returns the borrowing level of fitting val more of
// fr into ClusterQueue i: 0 when it fits in the queue's nominal quota,
// otherwise the height of the lowest ancestor cohort whose subtree quota
// covers it (the root's height if none does). The second result tells
// whether that subtree is smaller than the whole tree, i.e. reclaiming
// inside the hierarchy may help. Mirrors
// classical.FindHeightOfLowestSubtreeThatFits.
func (t *Tree) LowestSubtreeThatFits(i int, fr core.FlavorResource, val core.Amount) (int, bool) {
	hasParent := t.Nodes[i].Parent >= 0
	if !t.BorrowingWith(i, fr, val) || !hasParent {
		return 0, hasParent
	}
	remaining := val - t.LocalAvailable(i, fr)
	for a := t.Nodes[i].Parent; a >= 0; a = t.Nodes[a].Parent {
		if !t.BorrowingWith(a, fr, remaining) {
			return t.Height(a), t.Nodes[a].Parent >= 0
		}
		remaining -= t.LocalAvailable(a, fr)
	}
	return t.Height(t.Root(i)), false
}

// SortedKeys returns the keys of a usage map in (flavor, resource) order.
func SortedKeys[V any](m map[core.FlavorResource]V) []core.FlavorResource {
	keys := make([]core.FlavorResource, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, core.FlavorResource.Compare)
	return keys
}

// Headroom is node i's unclamped available capacity: negative means the
// node uses more than its quota, borrowing limit and ancestors allow.
func (t *Tree) Headroom(i int, fr core.FlavorResource) core.Amount { return t.available(i, fr) }
