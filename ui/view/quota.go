package view

import (
	"cmp"
	"slices"
	"strings"

	"github.com/kueueplay/kueueplay/core/trace"
)

// QuotaNode is a Cohort or a ClusterQueue in the cohort forest.
type QuotaNode struct {
	Name string `json:"name"`
	// Kind is "Cohort" or "ClusterQueue".
	Kind string `json:"kind"`
	// Depth is 0 for a root, 1 for its children, and so on.
	Depth int `json:"depth"`
	// Bars are one per flavor and resource, by flavor then resource.
	Bars []Bar `json:"bars,omitempty"`
	// Changed is true when any bar changed since the previous step.
	Changed bool `json:"changed,omitempty"`
	// Children are the child Cohorts by name, then the child ClusterQueues
	// by name.
	Children []*QuotaNode `json:"children,omitempty"`
}

// SegmentKind names a part of a quota bar.
type SegmentKind string

const (
	// SegUsed is usage within the node's quota.
	SegUsed SegmentKind = "used"
	// SegHeldBack is unused quota that a lending limit keeps from the
	// cohort: only the node itself can use it.
	SegHeldBack SegmentKind = "heldBack"
	// SegLent is unused quota that others in the cohort use.
	SegLent SegmentKind = "lent"
	// SegFree is unused quota nobody uses.
	SegFree SegmentKind = "free"
	// SegBorrowed is usage beyond the node's quota.
	SegBorrowed SegmentKind = "borrowed"
	// SegOverCommitted is usage beyond what the node can hold at all (a
	// root's quota, or quota plus borrowing limit): only pasted admissions
	// get there, and the decoder warns about it.
	SegOverCommitted SegmentKind = "overCommitted"
)

// Bar is one flavor-resource of one node, laid out on [0, Scale] in the
// resource's internal unit (milli-cpu, bytes, counts). Segments follow each
// other from 0 in this order: used, heldBack, lent, free (together exactly
// the node's quota, QuotaAt), then borrowed, then over-committed; empty
// segments are left out.
type Bar struct {
	Flavor   string `json:"flavor"`
	Resource string `json:"resource"`
	// Label is "flavor/resource".
	Label string `json:"label"`
	// Scale is the bar's full length: the largest of used, quota and
	// quota + borrowing limit over the whole trace (at least 1), so that a
	// bar does not rescale while the user scrubs.
	Scale    int64     `json:"scale"`
	Segments []Segment `json:"segments,omitempty"`
	// QuotaAt is where the node's quota ends: its nominal quota for a
	// ClusterQueue, its subtree quota (own nominal quota plus what the
	// children lend) for a Cohort.
	QuotaAt int64 `json:"quotaAt"`
	// BorrowingLimitAt is where the borrowing limit ends (QuotaAt +
	// borrowingLimit), or -1 when the node has none.
	BorrowingLimitAt int64 `json:"borrowingLimitAt"`
	// The trace's figures for the row.
	Used      int64 `json:"used"`
	Nominal   int64 `json:"nominal"`
	Borrowed  int64 `json:"borrowed"`
	Lent      int64 `json:"lent"`
	HeldBack  int64 `json:"heldBack"`
	Available int64 `json:"available"`
	// Text is the figures in words: "used 4 of 6, borrowing limit 2; 2
	// available".
	Text string `json:"text"`
	// Changed is true when used, borrowed, lent, held back or available
	// differ from the previous step (never on step 0).
	Changed bool `json:"changed,omitempty"`
}

// Segment is one part of a bar: [Start, Start+Size).
type Segment struct {
	Kind  SegmentKind `json:"kind"`
	Start int64       `json:"start"`
	Size  int64       `json:"size"`
	// Amount is Size formatted; Title says what it is ("borrowed beyond
	// the quota: 3"), for a tooltip.
	Amount string `json:"amount"`
	Title  string `json:"title"`
}

// Frac returns x as a fraction of the bar's scale, in [0, 1].
func (b *Bar) Frac(x int64) float64 {
	if b.Scale <= 0 {
		return 0
	}
	return max(0, min(1, float64(x)/float64(b.Scale)))
}

type nodeKey struct{ kind, name string }

type rowKey struct {
	node     nodeKey
	flavor   string
	resource string
}

type fr struct{ flavor, resource string }

// forest is the static shape of the cohort forest and the scale of every
// bar, computed once per trace.
type forest struct {
	nodes []fnode
	roots []int
	scale map[rowKey]int64
}

type fnode struct {
	key      nodeKey
	parent   int
	depth    int
	children []int
	bars     []fr
}

func buildForest(tr *trace.Trace) forest {
	f := forest{scale: map[rowKey]int64{}}
	index := map[nodeKey]int{}
	parents := map[int]string{}
	barSeen := map[rowKey]bool{}
	node := func(k nodeKey) int {
		if i, ok := index[k]; ok {
			return i
		}
		index[k] = len(f.nodes)
		f.nodes = append(f.nodes, fnode{key: k, parent: -1})
		return len(f.nodes) - 1
	}
	// Steps almost always list the same rows in the same order: the
	// running maxima are kept per row position and folded into the map
	// only when the layout changes, which keeps this pass cheap for
	// traces of thousands of steps.
	var layout []*trace.UsageRow // the rows of the last layout seen
	var maxima []int64
	flush := func() {
		for r, row := range layout {
			k := rowKey{nodeKey{row.Kind, row.Node}, row.Flavor, row.Resource}
			f.scale[k] = max(f.scale[k], maxima[r])
		}
	}
	for s := range tr.Steps {
		st := &tr.Steps[s]
		if !st.IsFull() {
			// The changing values of the last full step's rows.
			for _, c := range st.UsageChanges {
				if c.Row >= 0 && c.Row < len(maxima) {
					maxima[c.Row] = max(maxima[c.Row], c.Used)
				}
			}
			continue
		}
		if !sameLayout(layout, st.Usage) {
			flush()
			layout, maxima = layout[:0], maxima[:0]
			for r := range st.Usage {
				row := &st.Usage[r]
				nk := nodeKey{row.Kind, row.Node}
				i := node(nk)
				if row.Parent != "" {
					parents[i] = row.Parent
				}
				k := rowKey{nk, row.Flavor, row.Resource}
				if !barSeen[k] {
					barSeen[k] = true
					f.nodes[i].bars = append(f.nodes[i].bars, fr{row.Flavor, row.Resource})
				}
				layout = append(layout, row)
				maxima = append(maxima, 0)
			}
		}
		for r := range st.Usage {
			row := &st.Usage[r]
			sc := max(maxima[r], row.Used, row.SubtreeQuota, row.Nominal)
			if row.BorrowingLimit != nil {
				sc = max(sc, row.SubtreeQuota+*row.BorrowingLimit)
			}
			maxima[r] = sc
		}
		// ClusterQueues without any quota row still have a queue.
		for _, q := range st.Queues {
			node(nodeKey{"ClusterQueue", q.ClusterQueue})
		}
	}
	flush()
	for i, p := range parents {
		pi := node(nodeKey{"Cohort", p})
		if pi != i {
			f.nodes[i].parent = pi
		}
	}
	// A cycle cannot come from the engine; break one anyway rather than
	// recurse forever on a hand-made trace.
	for i := range f.nodes {
		seen := map[int]bool{i: true}
		for p := f.nodes[i].parent; p >= 0; p = f.nodes[p].parent {
			if seen[p] {
				f.nodes[i].parent = -1
				break
			}
			seen[p] = true
		}
	}
	for i := range f.nodes {
		n := &f.nodes[i]
		// Insertion sort: a node has a handful of bars, and a generic sort
		// instantiated for fr would cost WebAssembly size for nothing.
		for j := 1; j < len(n.bars); j++ {
			for k := j; k > 0 && frLess(n.bars[k], n.bars[k-1]); k-- {
				n.bars[k], n.bars[k-1] = n.bars[k-1], n.bars[k]
			}
		}
		if n.parent >= 0 {
			f.nodes[n.parent].children = append(f.nodes[n.parent].children, i)
		} else {
			f.roots = append(f.roots, i)
		}
	}
	byKind := func(a, b int) int {
		ka, kb := f.nodes[a].key, f.nodes[b].key
		if ka.kind != kb.kind {
			if ka.kind == "Cohort" {
				return -1
			}
			if kb.kind == "Cohort" {
				return 1
			}
		}
		return cmp.Or(strings.Compare(ka.name, kb.name), strings.Compare(ka.kind, kb.kind))
	}
	slices.SortFunc(f.roots, byKind)
	for i := range f.nodes {
		slices.SortFunc(f.nodes[i].children, byKind)
	}
	var depth func(i, d int)
	depth = func(i, d int) {
		f.nodes[i].depth = d
		for _, c := range f.nodes[i].children {
			depth(c, d+1)
		}
	}
	for _, r := range f.roots {
		depth(r, 0)
	}
	return f
}

func frLess(a, b fr) bool {
	if a.flavor != b.flavor {
		return a.flavor < b.flavor
	}
	return a.resource < b.resource
}

// sameLayout reports whether rows has the same nodes, flavors and
// resources in the same order as layout, with the same parents.
func sameLayout(layout []*trace.UsageRow, rows []trace.UsageRow) bool {
	if len(layout) != len(rows) {
		return false
	}
	for i, l := range layout {
		r := &rows[i]
		if l.Node != r.Node || l.Kind != r.Kind || l.Flavor != r.Flavor || l.Resource != r.Resource || l.Parent != r.Parent {
			return false
		}
	}
	return true
}

func indexRows(rows []trace.UsageRow) map[rowKey]*trace.UsageRow {
	m := make(map[rowKey]*trace.UsageRow, len(rows))
	for i := range rows {
		r := &rows[i]
		m[rowKey{nodeKey{r.Kind, r.Node}, r.Flavor, r.Resource}] = r
	}
	return m
}

// view builds the forest's nodes from the usage rows after a step (prev
// are those after the step before it, nil for step 0).
func (f *forest) view(rows, prev []trace.UsageRow) []*QuotaNode {
	cur, old := indexRows(rows), indexRows(prev)
	var build func(i int) *QuotaNode
	build = func(i int) *QuotaNode {
		n := &f.nodes[i]
		q := &QuotaNode{Name: n.key.name, Kind: n.key.kind, Depth: n.depth}
		for _, b := range n.bars {
			k := rowKey{n.key, b.flavor, b.resource}
			r := cur[k]
			if r == nil {
				continue
			}
			bar := makeBar(r, f.scale[k], n.parent < 0)
			if p := old[k]; p != nil {
				bar.Changed = p.Used != r.Used || p.Borrowed != r.Borrowed || p.Lent != r.Lent ||
					p.HeldBack != r.HeldBack || p.Available != r.Available
			} else if prev != nil {
				bar.Changed = r.Used != 0 || r.Lent != 0
			}
			q.Changed = q.Changed || bar.Changed
			q.Bars = append(q.Bars, bar)
		}
		for _, c := range n.children {
			q.Children = append(q.Children, build(c))
		}
		return q
	}
	out := make([]*QuotaNode, 0, len(f.roots))
	for _, r := range f.roots {
		out = append(out, build(r))
	}
	return out
}

// makeBar lays out one usage row. The quota [0, Q) is split into what is
// used, what a lending limit holds back (unused but not lendable), what is
// lent and what is free; usage beyond Q is borrowed, up to what the node
// can hold (Q for a root, Q plus the borrowing limit where there is one),
// and over-committed beyond that. Usage fills the held-back part first, as
// Kueue's addUsage does.
func makeBar(r *trace.UsageRow, scale int64, root bool) Bar {
	q := max(0, r.SubtreeQuota)
	u := max(0, r.Used)
	used := min(u, q)
	held := max(0, min(r.HeldBack-used, q-used))
	lent := max(0, min(r.Lent, q-used-held))
	free := q - used - held - lent
	borrowed := u - used
	over := int64(0)
	switch {
	case root:
		over, borrowed = borrowed, 0
	case r.BorrowingLimit != nil:
		over = max(0, borrowed-*r.BorrowingLimit)
		borrowed -= over
	}
	b := Bar{
		Flavor: r.Flavor, Resource: r.Resource, Label: r.Flavor + "/" + r.Resource,
		Scale: max(1, scale, u, q), QuotaAt: q, BorrowingLimitAt: -1,
		Used: r.Used, Nominal: r.Nominal, Borrowed: r.Borrowed, Lent: r.Lent, HeldBack: r.HeldBack, Available: r.Available,
	}
	if r.BorrowingLimit != nil {
		b.BorrowingLimitAt = q + *r.BorrowingLimit
		b.Scale = max(b.Scale, b.BorrowingLimitAt)
	}
	at := int64(0)
	add := func(k SegmentKind, size int64, what string) {
		if size <= 0 {
			return
		}
		a := amount(r.Resource, size)
		b.Segments = append(b.Segments, Segment{Kind: k, Start: at, Size: size, Amount: a, Title: what + ": " + a})
		at += size
	}
	add(SegUsed, used, "used within the quota")
	add(SegHeldBack, held, "held back by the lending limit")
	add(SegLent, lent, "lent to the cohort")
	add(SegFree, free, "free")
	add(SegBorrowed, borrowed, "borrowed beyond the quota")
	add(SegOverCommitted, over, "over-committed, more than it can hold")
	b.Text = barText(r, over)
	return b
}

func barText(r *trace.UsageRow, over int64) string {
	a := func(v int64) string { return amount(r.Resource, v) }
	var s strings.Builder
	s.WriteString("used " + a(r.Used) + " of " + a(r.SubtreeQuota))
	if r.Kind == "Cohort" && r.Nominal > 0 && r.Nominal != r.SubtreeQuota {
		s.WriteString(" (own " + a(r.Nominal) + ")")
	}
	if r.Borrowed > 0 {
		s.WriteString(", borrowed " + a(r.Borrowed))
	}
	if r.Lent > 0 {
		s.WriteString(", lent " + a(r.Lent))
	}
	if r.HeldBack > 0 {
		s.WriteString(", held back " + a(r.HeldBack))
	}
	if r.BorrowingLimit != nil {
		s.WriteString(", borrowing limit " + a(*r.BorrowingLimit))
	}
	if r.LendingLimit != nil {
		s.WriteString(", lending limit " + a(*r.LendingLimit))
	}
	if over > 0 {
		s.WriteString(", over-committed by " + a(over))
	}
	s.WriteString("; " + a(r.Available) + " available")
	return s.String()
}

// OverCommitted reports whether any bar of the forest has an
// over-committed segment (legends show that entry only then).
func OverCommitted(roots []*QuotaNode) bool {
	over := false
	Walk(roots, func(n *QuotaNode) {
		for _, b := range n.Bars {
			for _, sg := range b.Segments {
				over = over || sg.Kind == SegOverCommitted
			}
		}
	})
	return over
}

// Walk calls fn for every node of the forest, depth first, parents before
// children.
func Walk(roots []*QuotaNode, fn func(*QuotaNode)) {
	for _, n := range roots {
		fn(n)
		Walk(n.Children, fn)
	}
}
