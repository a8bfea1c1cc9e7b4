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
// The tree is indexed by integers so that cloning is cheap, and so is the
// arithmetic: every flavor-resource the quotas name gets a small integer
// (ID) when the tree is built, and usage, limits and subtree quotas are
// slices indexed by node and that integer. Clone copies the usage slice and
// shares everything else, as Kueue's resourceNode.Clone does. The hot
// loops (the flavor search, preemption) take an ID once and call the *ID
// variants; the FlavorResource variants look the ID up.
package quota

import (
	"cmp"
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
}

// Tree is the forest of every ClusterQueue and Cohort.
type Tree struct {
	// Nodes are shared between clones (sim.New marks the inactive
	// ClusterQueues before the first one); nothing changes them after.
	Nodes []Node
	// lending reports whether lending limits are honoured (gate LendingLimit).
	lending bool
	cqs     map[string]int
	cohorts map[string]int

	// ids numbers the flavor-resources; width is how many it had when the
	// dense slices below were laid out (cell node*width + id).
	ids   *idTable
	width int
	// limits and subtree are Quotas and SubtreeQuota, dense (shared
	// between clones).
	limits  []Limits
	subtree []core.Amount
	// usage is what counts against the subtree quota: for a ClusterQueue
	// its admitted usage, for a Cohort the sum of its children's usage
	// beyond their localQuota. entry marks the cells usage was ever added
	// to or removed from (a usage entry stays, at 0, once made: the trace
	// reports it). Both are the tree's own.
	usage []core.Amount
	entry []bool
	// version counts the changes to usage (Version).
	version uint64
	// quoted marks the cells SubtreeQuota has an entry for (shared).
	quoted []bool
}

// idTable numbers flavor-resources. A tree shares it with its clones;
// a tree that meets a new flavor-resource (usage outside every quota)
// makes its own larger copy, so a table never changes once shared.
type idTable struct {
	id  map[core.FlavorResource]int
	frs []core.FlavorResource
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
	// Number the flavor-resources in (flavor, resource) order.
	set := map[core.FlavorResource]bool{}
	for i := range t.Nodes {
		for fr := range t.Nodes[i].SubtreeQuota {
			set[fr] = true
		}
		for fr := range t.Nodes[i].Quotas {
			set[fr] = true
		}
	}
	t.ids = &idTable{id: map[core.FlavorResource]int{}}
	for _, fr := range SortedKeys(set) {
		t.ids.id[fr] = len(t.ids.frs)
		t.ids.frs = append(t.ids.frs, fr)
	}
	t.layout(len(t.ids.frs))
	return t
}

// layout (re)builds the dense slices with width w, keeping their values.
func (t *Tree) layout(w int) {
	n := len(t.Nodes)
	limits, subtree := make([]Limits, n*w), make([]core.Amount, n*w)
	usage, entry, quoted := make([]core.Amount, n*w), make([]bool, n*w), make([]bool, n*w)
	for i := range t.Nodes {
		for fr, l := range t.Nodes[i].Quotas {
			limits[i*w+t.ids.id[fr]] = l
		}
		for fr, q := range t.Nodes[i].SubtreeQuota {
			subtree[i*w+t.ids.id[fr]] = q
			quoted[i*w+t.ids.id[fr]] = true
		}
		for id := range t.width {
			usage[i*w+id], entry[i*w+id] = t.usage[i*t.width+id], t.entry[i*t.width+id]
		}
	}
	t.width, t.limits, t.subtree, t.usage, t.entry, t.quoted = w, limits, subtree, usage, entry, quoted
}

// ID returns the number of a flavor-resource, or -1 when the tree has
// never seen it (no quota names it and no usage was added for it): every
// quantity of such a flavor-resource is 0. A tree of a few
// flavor-resources (the usual size) finds it by comparing names, which
// costs less than hashing them: the names are mostly the very strings the
// specs hold, which compare equal at their first byte's address.
// Not inlined: one copy of its code serves its callers (the size of
// the page's WebAssembly).
//
//go:noinline
func (t *Tree) ID(fr core.FlavorResource) int {
	if frs := t.ids.frs[:t.width]; len(frs) <= scanIDs {
		for id := range frs {
			if frs[id] == fr {
				return id
			}
		}
		return -1
	}
	if id, ok := t.ids.id[fr]; ok && id < t.width {
		return id
	}
	return -1
}

// scanIDs is the most flavor-resources ID compares one by one.
const scanIDs = 8

// Width is one more than the largest number the tree has given.
func (t *Tree) Width() int { return t.width }

// idFor returns fr's number, numbering it first if it is new.
func (t *Tree) idFor(fr core.FlavorResource) int {
	if id := t.ID(fr); id >= 0 {
		return id
	}
	ids := &idTable{id: make(map[core.FlavorResource]int, len(t.ids.frs)+1), frs: append(slices.Clone(t.ids.frs[:t.width]), fr)}
	for i, f := range ids.frs {
		ids.id[f] = i
	}
	t.ids = ids
	t.layout(len(ids.frs))
	return len(ids.frs) - 1
}

func (t *Tree) lim(i, id int) Limits {
	if id < 0 {
		return Limits{}
	}
	return t.limits[i*t.width+id]
}

func (t *Tree) sub(i, id int) core.Amount {
	if id < 0 {
		return 0
	}
	return t.subtree[i*t.width+id]
}

// UsedID is node i's usage of flavor-resource id (see Tree.usage).
func (t *Tree) UsedID(i, id int) core.Amount {
	if id < 0 {
		return 0
	}
	return t.usage[i*t.width+id]
}

// Used is node i's usage of fr: for a ClusterQueue its admitted usage,
// for a Cohort the sum of its children's usage beyond their localQuota.
func (t *Tree) Used(i int, fr core.FlavorResource) core.Amount { return t.UsedID(i, t.ID(fr)) }

// UsedOutside reports whether node i has a usage entry for a
// flavor-resource without quota in its subtree.
func (t *Tree) UsedOutside(i int) bool {
	for c := i * t.width; c < (i+1)*t.width; c++ {
		if t.entry[c] && !t.quoted[c] {
			return true
		}
	}
	return false
}

// UsageKeys returns the flavor-resources node i has a usage entry for
// (usage was ever added to or removed from it), sorted.
func (t *Tree) UsageKeys(i int) []core.FlavorResource {
	var out []core.FlavorResource
	for id := range t.width {
		if t.entry[i*t.width+id] {
			out = append(out, t.ids.frs[id])
		}
	}
	slices.SortFunc(out, core.FlavorResource.Compare)
	return out
}

func newNode(name string, isCQ bool) Node {
	return Node{
		Name:           name,
		IsClusterQueue: isCQ,
		Parent:         -1,
		Quotas:         map[core.FlavorResource]Limits{},
		SubtreeQuota:   map[core.FlavorResource]core.Amount{},
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
			t.Nodes[i].SubtreeQuota[fr] += q - buildLocalQuota(child, fr)
		}
	}
}

// buildLocalQuota is localQuota from the maps, while the tree is built.
func buildLocalQuota(n *Node, fr core.FlavorResource) core.Amount {
	if ll := n.Quotas[fr].LendingLimit; ll != nil {
		return max(0, n.SubtreeQuota[fr]-*ll)
	}
	return 0
}

// Clone returns a tree with its own usage; everything else is shared.
func (t *Tree) Clone() *Tree {
	c := *t
	c.usage, c.entry = slices.Clone(t.usage), slices.Clone(t.entry)
	return &c
}

// CloneInto makes dst a clone of t (Clone) and returns it, reusing
// dst's usage arrays: a caller that clones once per cycle and keeps
// nothing of the previous clone allocates nothing.
func (t *Tree) CloneInto(dst *Tree) *Tree {
	usage, entry := dst.usage, dst.entry
	*dst = *t
	dst.usage, dst.entry = append(usage[:0], t.usage...), append(entry[:0], t.entry...)
	return dst
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
func (t *Tree) localQuota(i, id int) core.Amount {
	if ll := t.lim(i, id).LendingLimit; ll != nil {
		return max(0, t.sub(i, id)-*ll)
	}
	return 0
}

// LocalQuotaID is LocalQuota by ID.
func (t *Tree) LocalQuotaID(i, id int) core.Amount { return t.localQuota(i, id) }

// LimitsID is node i's own limits of flavor-resource id (Node.Quotas).
func (t *Tree) LimitsID(i, id int) Limits { return t.lim(i, id) }

// LocalQuota is exported for the trace: the guaranteed part of node i's
// quota that the parent never sees.
func (t *Tree) LocalQuota(i int, fr core.FlavorResource) core.Amount {
	return t.localQuota(i, t.ID(fr))
}

// LocalAvailable is how much of node i's guaranteed quota is unused
// (Kueue LocalAvailable).
func (t *Tree) LocalAvailable(i int, fr core.FlavorResource) core.Amount {
	return t.LocalAvailableID(i, t.ID(fr))
}

// LocalAvailableID is LocalAvailable by ID.
func (t *Tree) LocalAvailableID(i, id int) core.Amount {
	return max(0, t.localQuota(i, id)-t.UsedID(i, id))
}

// available is Kueue's available(): capacity left for node i, counting
// what it may take from its ancestors within its borrowing limit. It may be
// negative when the node is over-admitted.
func (t *Tree) available(i, id int) core.Amount {
	n := &t.Nodes[i]
	if n.Parent < 0 {
		return t.sub(i, id) - t.UsedID(i, id)
	}
	parentAvailable := t.available(n.Parent, id)
	if bl := t.lim(i, id).BorrowingLimit; bl != nil {
		storedInParent := t.sub(i, id) - t.localQuota(i, id)
		usedInParent := max(0, t.UsedID(i, id)-t.localQuota(i, id))
		withMaxFromParent := storedInParent - usedInParent + *bl
		parentAvailable = min(withMaxFromParent, parentAvailable)
	}
	return t.LocalAvailableID(i, id) + parentAvailable
}

// Available is the capacity node i can use now, clamped at 0
// (ClusterQueueSnapshot.Available).
func (t *Tree) Available(i int, fr core.FlavorResource) core.Amount {
	return t.AvailableID(i, t.ID(fr))
}

// AvailableID is Available by ID.
func (t *Tree) AvailableID(i, id int) core.Amount { return max(0, t.available(i, id)) }

// PotentialAvailable is the most node i could ever use if nothing else
// were used (Kueue potentialAvailable).
func (t *Tree) PotentialAvailable(i int, fr core.FlavorResource) core.Amount {
	return t.PotentialAvailableID(i, t.ID(fr))
}

// PotentialAvailableID is PotentialAvailable by ID.
func (t *Tree) PotentialAvailableID(i, id int) core.Amount {
	n := &t.Nodes[i]
	if n.Parent < 0 {
		return t.sub(i, id)
	}
	avail := t.localQuota(i, id) + t.PotentialAvailableID(n.Parent, id)
	if bl := t.lim(i, id).BorrowingLimit; bl != nil {
		avail = min(t.sub(i, id)+*bl, avail)
	}
	return avail
}

// AddUsage adds val to node i and pushes the part beyond its local
// available quota up to the parent, recursively (Kueue addUsage).
func (t *Tree) AddUsage(i int, fr core.FlavorResource, val core.Amount) {
	t.AddUsageID(i, t.idFor(fr), val)
}

// AddUsageID is AddUsage by ID; id must be a number the tree gave.
func (t *Tree) AddUsageID(i, id int, val core.Amount) {
	for {
		localAvailable := t.LocalAvailableID(i, id)
		c := i*t.width + id
		t.usage[c] += val
		t.entry[c] = true
		t.version++
		p := t.Nodes[i].Parent
		if p < 0 || val <= localAvailable {
			return
		}
		i, val = p, val-localAvailable
	}
}

// RemoveUsage mirrors AddUsage (Kueue removeUsage).
func (t *Tree) RemoveUsage(i int, fr core.FlavorResource, val core.Amount) {
	t.RemoveUsageID(i, t.idFor(fr), val)
}

// RemoveUsageID is RemoveUsage by ID; id must be a number the tree gave.
func (t *Tree) RemoveUsageID(i, id int, val core.Amount) {
	for {
		c := i*t.width + id
		storedInParent := t.usage[c] - t.localQuota(i, id)
		t.usage[c] -= val
		t.entry[c] = true
		t.version++
		p := t.Nodes[i].Parent
		if storedInParent <= 0 || p < 0 {
			return
		}
		i, val = p, min(val, storedInParent)
	}
}

// AddUsageMap and RemoveUsageMap apply a whole usage vector. Each
// flavor-resource's arithmetic is separate, so map order does not matter.
// Not inlined: one copy of its code serves its callers (the size of
// the page's WebAssembly).
//
//go:noinline
func (t *Tree) AddUsageMap(i int, usage map[core.FlavorResource]core.Amount) {
	for fr, v := range usage {
		t.AddUsage(i, fr, v)
	}
}

// RemoveUsageMap removes a whole usage vector.
// Not inlined: one copy of its code serves its callers (the size of
// the page's WebAssembly).
//
//go:noinline
func (t *Tree) RemoveUsageMap(i int, usage map[core.FlavorResource]core.Amount) {
	for fr, v := range usage {
		t.RemoveUsage(i, fr, v)
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
	return t.BorrowingWithID(i, t.ID(fr), val)
}

// BorrowingWithID is BorrowingWith by ID.
func (t *Tree) BorrowingWithID(i, id int, val core.Amount) bool {
	if t.Nodes[i].IsClusterQueue {
		return t.UsedID(i, id)+val > t.lim(i, id).Nominal
	}
	return t.UsedID(i, id)+val > t.sub(i, id)
}

// Version is a number that changes with every change to the tree's
// usage: what was computed from the tree at one version holds as long as
// Version returns it. A clone starts at its original's version (it is
// another tree: who keeps results keeps the tree they came from too).
func (t *Tree) Version() uint64 { return t.version }

// Restored says that the caller has undone every change to usage it made
// since Version returned v (as a preemption search does, which removes
// candidates and adds them back): the tree's version is v again, and
// what was computed at v still holds.
func (t *Tree) Restored(v uint64) { t.version = v }

// Nominal is node i's own nominal quota of flavor-resource id.
func (t *Tree) Nominal(i, id int) core.Amount { return t.lim(i, id).Nominal }

// SubtreeQuotaID is node i's subtree quota of flavor-resource id.
func (t *Tree) SubtreeQuotaID(i, id int) core.Amount { return t.sub(i, id) }

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
	return t.LowestSubtreeThatFitsID(i, t.ID(fr), val)
}

// LowestSubtreeThatFitsID is LowestSubtreeThatFits by ID.
func (t *Tree) LowestSubtreeThatFitsID(i, id int, val core.Amount) (int, bool) {
	hasParent := t.Nodes[i].Parent >= 0
	if !t.BorrowingWithID(i, id, val) || !hasParent {
		return 0, hasParent
	}
	remaining := val - t.LocalAvailableID(i, id)
	for a := t.Nodes[i].Parent; a >= 0; a = t.Nodes[a].Parent {
		if !t.BorrowingWithID(a, id, remaining) {
			return t.Height(a), t.Nodes[a].Parent >= 0
		}
		remaining -= t.LocalAvailableID(a, id)
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
func (t *Tree) Headroom(i int, fr core.FlavorResource) core.Amount { return t.available(i, t.ID(fr)) }
