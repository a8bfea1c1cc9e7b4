package layout

import (
	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/ui/view"
)

// Bar geometry: the bars are drawn on a 1000×14 viewBox stretched to the
// pane's width (preserveAspectRatio="none"); the segments take the middle
// 12 units, the markers the full height.
const (
	barWidth  = 1000
	barHeight = 14
)

// legendEntry is one segment kind of the legend.
type legendEntry struct {
	kind view.SegmentKind
	text string
}

// segmentLegend lists the bar's parts in the order they are drawn, with
// the words of the legend. (A function rather than a variable: the
// package has no package-level variables.)
func segmentLegend() [6]legendEntry {
	return [6]legendEntry{
		{view.SegUsed, "used"},
		{view.SegHeldBack, "held back (lending limit)"},
		{view.SegLent, "lent to the cohort"},
		{view.SegFree, "free"},
		{view.SegBorrowed, "borrowed beyond the quota"},
		{view.SegOverCommitted, "over-committed (more than it can hold)"},
	}
}

// Quota lays out the step's cohort forest as a tree:
//
//	div.quota
//	  div.legend                      the segment colours and the markers
//	  ul.tree[role=tree]
//	    li.qnode[role=treeitem][data-name][data-kind][data-depth] (.changed)
//	      div.qnode-head              kind badge, name, "changed" tag
//	      div.qbar[data-flavor][data-resource] (.changed), one per Bar:
//	        div.qbar-head             span.qbar-label, span.qbar-figures (Bar.Text)
//	        svg.bar                   rect.track, rect.seg.seg-KIND[data-kind]
//	                                  with a <title>, line.marker-quota at
//	                                  QuotaAt, line.marker-limit at
//	                                  BorrowingLimitAt (when ≥ 0)
//	      ul[role=group]              the children, nested the same way
//
// The tree's indentation and connector lines come from site/panels.css.
func Quota(st view.Step) *view.Node {
	root := el("div", "class", "quota")
	if len(st.Quota) == 0 {
		return root.Add(txt("p", "No quota: the scenario has no ClusterQueue.", "class", "empty"))
	}
	root.Add(quotaLegend(view.OverCommitted(st.Quota)))
	tree := el("ul", "class", "tree", "role", "tree", "aria-label", "Cohorts and ClusterQueues")
	for _, n := range st.Quota {
		tree.Add(quotaNode(n))
	}
	return root.Add(tree)
}

// quotaLegend explains the colours of the segments and the two markers.
// The over-committed entry is there only when a bar of the step has that
// segment (only pasted admissions over-commit a queue).
func quotaLegend(overCommitted bool) *view.Node {
	ul := el("ul", "class", "legend", "aria-label", "Legend")
	for _, s := range segmentLegend() {
		if s.kind == view.SegOverCommitted && !overCommitted {
			continue
		}
		k := string(s.kind)
		ul.Add(el("li", "data-kind", k).Add(
			el("span", "class", "swatch swatch-"+k, "aria-hidden", "true"),
			span("", s.text)))
	}
	ul.Add(el("li", "data-kind", "quota").Add(
		el("span", "class", "swatch swatch-quota", "aria-hidden", "true"),
		span("", "nominal quota")))
	ul.Add(el("li", "data-kind", "limit").Add(
		el("span", "class", "swatch swatch-limit", "aria-hidden", "true"),
		span("", "borrowing limit")))
	return ul
}

func quotaNode(n *view.QuotaNode) *view.Node {
	kind := "cq"
	if n.Kind == "Cohort" {
		kind = "cohort"
	}
	changed := ""
	if n.Changed {
		changed = "changed"
	}
	li := el("li", "class", cls("qnode", "qnode-"+kind, changed), "role", "treeitem",
		"aria-level", itoa(n.Depth+1), "data-name", n.Name, "data-kind", n.Kind, "data-depth", itoa(n.Depth))
	if len(n.Children) > 0 {
		li.Attrs = append(li.Attrs, view.Attr{Name: "aria-expanded", Value: "true"})
	}
	head := el("div", "class", "qnode-head").Add(
		span("qkind qkind-"+kind, n.Kind),
		span("name", n.Name))
	if n.Changed {
		head.Add(txt("span", "changed", "class", "tag tag-changed", "title", "changed in this step"))
	}
	li.Add(head)
	if len(n.Bars) == 0 {
		li.Add(txt("p", "no quota", "class", "no-quota"))
	}
	for i := range n.Bars {
		li.Add(quotaBar(n, &n.Bars[i]))
	}
	if len(n.Children) > 0 {
		group := el("ul", "role", "group")
		for _, c := range n.Children {
			group.Add(quotaNode(c))
		}
		li.Add(group)
	}
	return li
}

func quotaBar(n *view.QuotaNode, b *view.Bar) *view.Node {
	changed := ""
	if b.Changed {
		changed = "changed"
	}
	row := el("div", "class", cls("qbar", changed), "data-flavor", b.Flavor, "data-resource", b.Resource)
	row.Add(el("div", "class", "qbar-head").Add(
		span("qbar-label", b.Label),
		span("qbar-figures", b.Text)))
	svg := el("svg", "class", "bar", "viewBox", "0 0 1000 14", "preserveAspectRatio", "none",
		"role", "img", "aria-label", b.Label+": "+b.Text)
	svg.Add(el("rect", "class", "track", "x", "0", "y", "1", "width", itoa(barWidth), "height", itoa(barHeight-2)))
	for _, s := range b.Segments {
		x0 := b.Frac(s.Start) * barWidth
		x1 := b.Frac(s.Start+s.Size) * barWidth
		k := string(s.Kind)
		svg.Add(el("rect", "class", "seg seg-"+k, "data-kind", k,
			"x", num(x0), "y", "1", "width", num(x1-x0), "height", itoa(barHeight-2)).Add(txt("title", s.Title)))
	}
	amount := func(v int64) string { return core.FormatAmount(core.ResourceName(b.Resource), v) }
	quotaTitle := "nominal quota: " + amount(b.QuotaAt)
	if n.Kind == "Cohort" {
		quotaTitle = "quota of the cohort (its own and what its members lend): " + amount(b.QuotaAt)
	}
	svg.Add(marker("marker marker-quota", "quota", b.Frac(b.QuotaAt), quotaTitle))
	if b.BorrowingLimitAt >= 0 {
		svg.Add(marker("marker marker-limit", "limit", b.Frac(b.BorrowingLimitAt),
			"borrowing limit: "+amount(b.BorrowingLimitAt-b.QuotaAt)+" beyond the quota, up to "+amount(b.BorrowingLimitAt)))
	}
	return row.Add(svg)
}

// marker is a vertical line across the bar at fraction f of its width.
func marker(class, kind string, f float64, title string) *view.Node {
	x := num(f * barWidth)
	return el("line", "class", class, "data-kind", kind,
		"x1", x, "x2", x, "y1", "0", "y2", itoa(barHeight)).Add(txt("title", title))
}
