package layout

import (
	"github.com/kueueplay/kueueplay/ui/view"
)

// Nodes lays out the placement layer's nodes at a step (the "nodes"
// panel), grouped by ResourcePolicy unit:
//
//	div.cluster
//	  p.cluster-summary               Cluster.Text
//	  p.proposal-note                 the plugin is a proposal (KEP #594)
//	  section.policy[data-policy], per ResourcePolicy:
//	    h4                            the policy's name and span.policy-text
//	    div.unit[data-unit][data-priority][data-full], per unit by priority:
//	      div.unit-head               span.unit-name, span.unit-text
//	      ul.unit-counts              per matchLabelKeys group (li.full when
//	                                  it reached maxCount)
//	      ul.nodes                    its nodes (see below)
//	  section.outside                 the nodes in no unit: h4, p, ul.nodes
//
// A node is li.node[data-node] (.changed when its pods changed in the
// step) holding div.node-head (the name, span.node-units when several
// units select it), div.node-resources (per resource
// div.res[data-resource]: span.res-text and an svg.res-bar whose
// rect.res-used has the requested fraction of the width) and ul.pods:
// li.pod[data-pod][data-owner] (data-unit, data-cost when set; classes
// terminating, placed, elsewhere for a pod that counts in another unit than
// the group's) with span.pod-name and span.pod-cost.
//
// A nil Cluster (a scenario without Nodes) gives p.empty.
func Nodes(st view.Step) *view.Node {
	c := st.Cluster
	root := el("div", "class", "cluster")
	if c == nil {
		return root.Add(txt("p", "No nodes: add v1 Nodes to the scenario to see where the admitted workloads' pods land.", "class", "empty"))
	}
	root.Add(txt("p", c.Text, "class", "cluster-summary"))
	if len(c.Policies) > 0 {
		root.Add(txt("p", "ResourcePolicy is a proposed kube-scheduler plugin (KEP #594, not merged upstream); the playground follows its design.", "class", "proposal-note"))
	}
	for i := range c.Policies {
		p := &c.Policies[i]
		sec := el("section", "class", "policy", "data-policy", p.Policy)
		sec.Add(el("h4").Add(span("kind", "ResourcePolicy "), span("name", p.Policy), span("policy-text", p.Text)))
		for k := range p.Units {
			sec.Add(unitGroup(&p.Units[k]))
		}
		root.Add(sec)
	}
	if len(c.Outside) > 0 {
		sec := el("section", "class", "outside")
		title := "Nodes"
		if len(c.Policies) > 0 {
			title = "Nodes outside every unit"
		}
		sec.Add(txt("h4", title))
		if c.OutsideText != "" {
			sec.Add(txt("p", c.OutsideText, "class", "outside-text"))
		}
		sec.Add(nodeList(c.Outside, ""))
		root.Add(sec)
	}
	return root
}

func unitGroup(u *view.UnitGroup) *view.Node {
	div := el("div", "class", cls("unit", when(u.Full, "full")),
		"data-unit", u.Key, "data-priority", itoa(int(u.Priority)), "data-full", yesNo(u.Full))
	div.Add(el("div", "class", "unit-head").Add(span("unit-name", u.Unit), span("unit-text", u.Text)))
	if len(u.Counts) > 1 || len(u.Counts) == 1 && u.Counts[0].Group != "" {
		ul := el("ul", "class", "unit-counts", "aria-label", "Pod counts per group")
		for _, c := range u.Counts {
			ul.Add(attr(txt("li", c.Text, "class", cls("unit-count", when(c.Full, "full"))), "data-group", c.Group))
		}
		div.Add(ul)
	}
	if len(u.Nodes) == 0 {
		return div.Add(txt("p", "No node matches the unit's node selector.", "class", "empty"))
	}
	return div.Add(nodeList(u.Nodes, u.Key))
}

// nodeList lists nodes; unit is the group's unit key ("" outside every
// unit), against which a pod counting elsewhere is marked.
func nodeList(nodes []view.NodeView, unit string) *view.Node {
	ul := el("ul", "class", "nodes")
	for i := range nodes {
		ul.Add(nodeItem(&nodes[i], unit))
	}
	return ul
}

// resBarWidth is the viewBox width of a node's resource bars.
const resBarWidth = 100

func nodeItem(n *view.NodeView, unit string) *view.Node {
	li := el("li", "class", cls("node", when(n.Changed, "changed")), "data-node", n.Node)
	head := el("div", "class", "node-head").Add(span("node-name", n.Node))
	if len(n.Units) > 1 {
		others := ""
		for _, u := range n.Units {
			if u == unit {
				continue
			}
			if others != "" {
				others += ", "
			}
			others += u
		}
		head.Add(txt("span", "also in "+others, "class", "node-units",
			"title", "a node in several units belongs, for each pod, to the highest-priority unit that still has room"))
	}
	if n.Changed {
		head.Add(txt("span", "changed", "class", "tag tag-changed", "title", "its pods changed in this step"))
	}
	li.Add(head)
	res := el("div", "class", "node-resources")
	for _, r := range n.Resources {
		d := el("div", "class", "res", "data-resource", r.Resource)
		d.Add(span("res-text", r.Text))
		svg := el("svg", "class", "res-bar", "viewBox", "0 0 100 6", "preserveAspectRatio", "none",
			"role", "img", "aria-label", r.Text)
		svg.Add(el("rect", "class", "res-track", "x", "0", "y", "0", "width", itoa(resBarWidth), "height", "6"))
		svg.Add(el("rect", "class", "res-used", "x", "0", "y", "0", "width", num(r.Frac*resBarWidth), "height", "6").
			Add(txt("title", r.Requested+" of "+r.Allocatable+" requested")))
		res.Add(d.Add(svg))
	}
	li.Add(res)
	if n.PodCount == 0 {
		return li.Add(txt("p", "no pods", "class", "no-pods"))
	}
	pods := el("ul", "class", "pods", "aria-label", "Pods on "+n.Node)
	for i := range n.Pods {
		p := &n.Pods[i]
		elsewhere := p.Unit != unit && unit != ""
		item := el("li", "class", cls("pod",
			when(p.Terminating, "terminating"),
			when(p.Placed, "placed"),
			when(elsewhere, "elsewhere")),
			"data-pod", p.Pod, "data-owner", p.Owner, "title", p.Text)
		attr(item, "data-unit", p.Unit)
		attr(item, "data-cost", p.Cost)
		item.Add(span("pod-name", p.Pod))
		if p.Cost != "" {
			item.Add(txt("span", "cost "+p.Cost, "class", "pod-cost", "title", "controller.kubernetes.io/pod-deletion-cost"))
		}
		if p.Terminating {
			item.Add(txt("span", "terminating", "class", "tag tag-terminating"))
		}
		if p.Placed {
			item.Add(txt("span", "new", "class", "tag tag-placed", "title", "placed in this step"))
		}
		pods.Add(item)
	}
	if n.More > 0 {
		pods.Add(txt("li", "and "+itoa(n.More)+" more", "class", "more"))
	}
	return li.Add(pods)
}

// Placement lays out the step's placements (the "placement" panel):
//
//	div.placements
//	  div.placement[data-pod][data-outcome=placed|pending][data-node], per
//	  placement in the step (the last one open):
//	    details
//	      summary                     the pod, → node or a pending badge
//	      p.sentence                  PlacementView.Sentence
//	      p.weights                   the score plugins' weights
//	      table.verdicts (in div.table-scroll): one tbody per node,
//	        tbody[data-node].chosen|feasible|rejected: a row with the node,
//	        its unit (td.unit-cell), the verdict, and per plugin
//	        td.score[data-plugin]
//	        (weighted, with raw → normalized below) and td.total; a rejected
//	        node's reason in a full-width td.detail row
//	  p.more-placements               when the step has more than the cap
//	  div.last-placement              a step without placements: the
//	                                  latest earlier one, with a button to
//	                                  its step
//	  div.scaledowns                  per scale-down: p.scaledown-text and
//	                                  ol li.removed[data-pod] with the
//	                                  node, the cost and why
//	  div.pending                     h4 and ul li.pending-pod[data-pod]
//	                                  with the owner and the reason
func Placement(st view.Step) *view.Node {
	c := st.Cluster
	root := el("div", "class", "placements")
	if c == nil {
		return root.Add(txt("p", "No nodes: the scenario has no placement layer.", "class", "empty"))
	}
	for i := range c.Placements {
		root.Add(placement(&c.Placements[i], i == len(c.Placements)-1))
	}
	if c.PlacementsOmitted > 0 {
		root.Add(txt("p", "and "+itoa(c.PlacementsOmitted)+" more placements in this step (the trace JSON and the CLI's text trace list them all, without node tables)", "class", "more-placements"))
	}
	if len(c.Placements) == 0 {
		if c.Last == nil {
			root.Add(txt("p", "No pod has been placed yet.", "class", "no-placements"))
		} else {
			div := el("div", "class", "last-placement")
			p := el("p", "class", "no-placements").Add(span("", "No placement in this step. The last one was at "))
			p.Add(txt("button", "step "+itoa(c.LastStep+1), "type", "button", "class", "link goto", "data-goto-step", itoa(c.LastStep)))
			p.Add(span("", ":"))
			div.Add(p, placement(c.Last, false))
			root.Add(div)
		}
	}
	if len(c.ScaleDowns) > 0 {
		div := el("div", "class", "scaledowns")
		for i := range c.ScaleDowns {
			sd := &c.ScaleDowns[i]
			div.Add(txt("p", sd.Text, "class", "scaledown-text"))
			ol := el("ol", "class", "removed-pods", "data-owner", sd.Owner)
			for k, r := range sd.Removed {
				li := el("li", "class", "removed", "data-pod", r.Pod)
				attr(li, "data-cost", sd.Costs[k])
				li.Add(span("pod-name", r.Pod))
				if r.Node != "" {
					li.Add(span("on", "on "+r.Node))
				}
				if sd.Costs[k] != "" {
					li.Add(span("pod-cost", "cost "+sd.Costs[k]))
				}
				li.Add(span("why", r.Why))
				ol.Add(li)
			}
			div.Add(ol)
		}
		root.Add(div)
	}
	pend := el("div", "class", "pending")
	pend.Add(txt("h4", "Pending pods ("+itoa(c.PendingCount)+")"))
	if len(c.Pending) == 0 {
		pend.Add(txt("p", "Every pod has a node.", "class", "empty"))
	} else {
		ul := el("ul", "class", "pending-pods")
		for _, p := range c.Pending {
			ul.Add(el("li", "class", "pending-pod", "data-pod", p.Pod, "data-owner", p.Owner).Add(
				span("pod-name", p.Pod), span("owner", "of "+p.Owner), span("reason", p.Message)))
		}
		if more := c.PendingCount - len(c.Pending); more > 0 {
			ul.Add(txt("li", "and "+itoa(more)+" more", "class", "more"))
		}
		pend.Add(ul)
	}
	return root.Add(pend)
}

func placement(p *view.PlacementView, open bool) *view.Node {
	outcome := "placed"
	if p.Node == "" {
		outcome = "pending"
	}
	div := el("div", "class", "placement", "data-pod", p.Pod, "data-outcome", outcome)
	attr(div, "data-node", p.Node)
	d := el("details")
	if open {
		d.Attrs = append(d.Attrs, view.Attr{Name: "open", Value: ""})
	}
	sum := el("summary").Add(span("pod-name", p.Pod))
	if p.Node != "" {
		sum.Add(span("arrow", "→"), span("node-name", p.Node))
		if p.Unit != "" {
			sum.Add(span("unit-name", p.Unit))
		}
		sum.Add(span("badge outcome outcome-Admitted", "placed"))
	} else {
		sum.Add(span("badge outcome outcome-NoFit", "pending"))
	}
	d.Add(sum, txt("p", p.Sentence, "class", "sentence"))
	facts := "feasible " + itoa(p.Feasible) + " of " + itoa(p.Considered) + " nodes"
	if p.Policy != "" {
		facts += "; ResourcePolicy " + p.Policy
		if p.Group != "" {
			facts += ", group " + p.Group
		}
	}
	if !p.Scored && p.Feasible == 1 {
		facts += "; scoring skipped (one feasible node)"
	}
	d.Add(txt("p", facts, "class", "facts"))
	if p.Scored {
		d.Add(txt("p", "Weights: "+p.Weights+". Each cell is the weighted score, then raw → normalized.", "class", "weights"))
	}
	t := el("table", "class", "verdicts")
	head := headRow("Node", "Unit", "Verdict")
	ncols := 3
	if p.Scored {
		tr := head.Children[0]
		for _, w := range p.Plugins {
			tr.Add(txt("th", pluginLabel(w.Plugin)+" ×"+itoa(w.Weight), "scope", "col", "class", "num",
				"data-plugin", w.Plugin, "title", w.Plugin+", weight "+itoa(w.Weight)))
		}
		tr.Add(txt("th", "Total", "scope", "col", "class", "num"))
		ncols += len(p.Plugins) + 1
	}
	t.Add(head)
	for i := range p.Rows {
		t.Add(verdictRow(&p.Rows[i], ncols))
	}
	d.Add(tableScroll(t))
	if p.Omitted > 0 {
		if len(p.Rows) == 0 {
			d.Add(txt("p", "The trace keeps every node's verdict for the first placements of a step only; this one's "+itoa(p.Omitted)+" nodes are summed up in the message.", "class", "more"))
		} else {
			d.Add(txt("p", "and "+itoa(p.Omitted)+" more nodes (the trace keeps the best feasible nodes and the first rejected ones by name)", "class", "more"))
		}
	}
	return div.Add(d)
}

func verdictRow(r *view.VerdictRow, ncols int) *view.Node {
	state := "rejected"
	switch {
	case r.Chosen:
		state = "chosen"
	case r.Feasible:
		state = "feasible"
	}
	body := el("tbody", "class", state, "data-node", r.Node)
	tr := el("tr")
	name := el("td", "class", "node").Add(span("node-name", r.Node))
	if r.Chosen {
		name.Add(txt("span", "chosen", "class", "tag tag-chosen"))
	}
	tr.Add(name, txt("td", r.Unit, "class", "unit-cell"))
	if r.Feasible {
		tr.Add(txt("td", "passes every filter", "class", "verdict"))
	} else {
		tr.Add(txt("td", "rejected by "+r.Filter, "class", "verdict", "data-filter", r.Filter))
	}
	for _, s := range r.Scores {
		cell := el("td", "class", "score num", "data-plugin", s.Plugin)
		if s.Skipped {
			cell.Add(span("weighted", "0"), span("raw", "skipped"))
			cell.Attrs = append(cell.Attrs, view.Attr{Name: "title", Value: s.Plugin + " skipped for this pod: adds 0"})
		} else {
			cell.Add(span("weighted", itoa(int(s.Weighted))), span("raw", itoa(int(s.Raw))+" → "+itoa(int(s.Normalized))))
			cell.Attrs = append(cell.Attrs, view.Attr{Name: "title",
				Value: s.Plugin + ": raw " + itoa(int(s.Raw)) + ", normalized " + itoa(int(s.Normalized)) + ", weighted " + itoa(int(s.Weighted))})
		}
		tr.Add(cell)
	}
	if len(r.Scores) > 0 {
		tr.Add(txt("td", itoa(int(r.Total)), "class", "total num"))
	} else if ncols > 3 {
		tr.Add(txt("td", "", "class", "no-score", "colspan", itoa(ncols-3)))
	}
	body.Add(tr)
	if r.Reason != "" {
		body.Add(el("tr").Add(txt("td", r.Reason, "class", "detail", "colspan", itoa(ncols))))
	}
	return body
}

// pluginLabel is a score plugin's column header: a short name (the full
// one is the header's title).
func pluginLabel(plugin string) string {
	switch plugin {
	case "NodeAffinity":
		return "Affinity"
	case "NodeResourcesBalancedAllocation":
		return "Balanced"
	case "NodeResourcesFit":
		return "Fit"
	case "ResourcePolicy":
		return "Policy"
	case "TaintToleration":
		return "Taints"
	}
	return plugin
}
