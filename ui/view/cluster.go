package view

import (
	"slices"
	"strconv"
	"strings"

	"github.com/kueueplay/kueueplay/core/trace"
)

// Cluster is the placement layer at one step (scenarios with Nodes only):
// the nodes grouped by ResourcePolicy unit with their pods, the step's
// placements with each node's filter verdict and scores, the pods no node
// could take, and the step's scale-downs.
//
// Grouping: one PolicyGroup per ResourcePolicy in scenario order; in it,
// one UnitGroup per unit, by priority (highest first) then spec order —
// the order in which a node in several units is given to a unit. A node
// is listed under every unit that selects it (its Units say which), so a
// unit's list is exactly its node set; nodes that no unit of any policy
// selects are listed once, in Outside. Nodes are in the trace's order
// (the scenario's).
type Cluster struct {
	// Text sums the cluster up: "4 nodes, 6 pods placed, 1 pending".
	Text     string        `json:"text"`
	Policies []PolicyGroup `json:"policies,omitempty"`
	// Outside are the nodes in no unit; OutsideText says what that means
	// for governed pods ("only pods of a prefer policy or of no policy can
	// use them").
	Outside     []NodeView `json:"outside,omitempty"`
	OutsideText string     `json:"outsideText,omitempty"`
	// Placements are the step's placement attempts in the trace's order,
	// at most PlacementCap of them (PlacementsOmitted more); Last, when the
	// step has none, is the latest earlier one (at step LastStep, else -1).
	Placements        []PlacementView `json:"placements,omitempty"`
	PlacementsOmitted int             `json:"placementsOmitted,omitempty"`
	Last              *PlacementView  `json:"last,omitempty"`
	LastStep          int             `json:"lastStep"`
	// Pending are the pods no node could take after the step (the
	// trace's first ones; PendingCount is exact).
	Pending      []PendingPod    `json:"pending,omitempty"`
	PendingCount int             `json:"pendingCount"`
	ScaleDowns   []ScaleDownView `json:"scaleDowns,omitempty"`
}

// PlacementCap bounds Cluster.Placements: a step that creates thousands of
// pods shows the first PlacementCap with their tables (the trace and the
// CLI's text trace have them all).
const PlacementCap = 30

// PolicyGroup is one ResourcePolicy and its units.
type PolicyGroup struct {
	Policy string `json:"policy"`
	// Text describes the policy in one line: "required; pods app=web;
	// counted per pod-template-hash; terminating pods not counted".
	Text  string      `json:"text"`
	Units []UnitGroup `json:"units"`
}

// UnitGroup is one unit of a ResourcePolicy with its nodes.
type UnitGroup struct {
	// Unit is the unit's name (or "#index"); Key is "policy/unit", the
	// form NodeView.Units and PodView.Unit use.
	Unit     string `json:"unit"`
	Key      string `json:"key"`
	Priority int32  `json:"priority"`
	// MaxCount is "unlimited", or the limit.
	MaxCount     string `json:"maxCount"`
	NodeSelector string `json:"nodeSelector"`
	// Counts are the unit's pod counts per matchLabelKeys group (one entry,
	// Group "", without matchLabelKeys); Full is set when some group has
	// reached maxCount.
	Counts []UnitCountView `json:"counts,omitempty"`
	Full   bool            `json:"full"`
	// Text is "priority 100, 2 of at most 4 pods, nodes pool=static".
	Text  string     `json:"text"`
	Nodes []NodeView `json:"nodes"`
}

// UnitCountView is a unit's count for one group.
type UnitCountView struct {
	Group string `json:"group,omitempty"`
	Count int    `json:"count"`
	Live  int    `json:"live"`
	Full  bool   `json:"full"`
	// Text is "2 of 4 pods" or "3 pods (1 terminating)", after "group: "
	// for a matchLabelKeys group.
	Text string `json:"text"`
}

// NodeView is one node after the step.
type NodeView struct {
	Node  string   `json:"node"`
	Units []string `json:"units,omitempty"`
	// Resources are requested over allocatable, per resource by name.
	Resources []NodeResourceView `json:"resources"`
	// Pods are the pods on the node, by name (at most the trace's cap;
	// More more).
	Pods     []PodView `json:"pods,omitempty"`
	PodCount int       `json:"podCount"`
	More     int       `json:"more"`
	// Changed is set when the node's pods changed in this step (at step
	// 0: when it has pods).
	Changed bool `json:"changed"`
}

// NodeResourceView is one resource of a node.
type NodeResourceView struct {
	Resource string `json:"resource"`
	// Requested and Allocatable formatted; Frac is requested/allocatable
	// in [0, 1] (1 for a resource the node lacks but pods request).
	Requested   string  `json:"requested"`
	Allocatable string  `json:"allocatable"`
	Frac        float64 `json:"frac"`
	// Text is "cpu 3/4".
	Text string `json:"text"`
}

// PodView is one pod on a node.
type PodView struct {
	Pod   string `json:"pod"`
	Owner string `json:"owner"`
	Unit  string `json:"unit,omitempty"`
	// Cost is the pod-deletion-cost, "" for an ungoverned pod.
	Cost        string `json:"cost,omitempty"`
	Terminating bool   `json:"terminating"`
	// Placed is set for a pod placed in this step.
	Placed bool `json:"placed"`
	// Text says it in words: "shop/web-0 (shop/web), unit static, deletion
	// cost 100".
	Text string `json:"text"`
}

// PlacementView is one placement attempt: a kube-scheduler scheduling
// cycle for one pod.
type PlacementView struct {
	Pod    string `json:"pod"`
	Owner  string `json:"owner"`
	Policy string `json:"policy,omitempty"`
	Group  string `json:"group,omitempty"`
	// Node is the chosen node, "" when the pod stays pending.
	Node    string `json:"node,omitempty"`
	Unit    string `json:"unit,omitempty"`
	Cost    string `json:"cost,omitempty"`
	Message string `json:"message"`
	// Sentence is the outcome in words: "shop/web-0 was placed on static-1
	// (unit static, deletion cost 100): ..." or "... stays pending: ...".
	Sentence string `json:"sentence"`
	// Feasible of Considered nodes passed every filter.
	Feasible   int  `json:"feasible"`
	Considered int  `json:"considered"`
	Scored     bool `json:"scored"`
	// Plugins are the score columns (the trace's plugin order) with their
	// weights; Weights says them in words.
	Plugins []trace.PluginWeight `json:"plugins"`
	Weights string               `json:"weights"`
	Rows    []VerdictRow         `json:"rows"`
	// Omitted is how many nodes the trace left out of Rows.
	Omitted int `json:"omitted"`
}

// VerdictRow is one node's result for one pod.
type VerdictRow struct {
	Node     string `json:"node"`
	Chosen   bool   `json:"chosen"`
	Feasible bool   `json:"feasible"`
	// Filter is the plugin that rejected the node, Reason its reasons.
	Filter string `json:"filter,omitempty"`
	Reason string `json:"reason,omitempty"`
	Unit   string `json:"unit,omitempty"`
	// Scores are in the order of PlacementView.Plugins (empty when the
	// placement was not scored).
	Scores []trace.PluginScore `json:"scores,omitempty"`
	Total  int64               `json:"total"`
}

// PendingPod is a pod no node could take.
type PendingPod struct {
	Pod     string `json:"pod"`
	Owner   string `json:"owner"`
	Message string `json:"message"`
}

// ScaleDownView is a Deployment or ReplicaSet losing pods.
type ScaleDownView struct {
	Owner   string             `json:"owner"`
	Text    string             `json:"text"`
	Removed []trace.RemovedPod `json:"removed"`
	// Costs formats each removed pod's deletion cost ("" when it has none),
	// in the order of Removed.
	Costs []string `json:"costs"`
}

// placementSteps lists the indexes of the steps with placements, in order.
func placementSteps(tr *trace.Trace) []int {
	var out []int
	for i := range tr.Steps {
		if len(tr.Steps[i].Placements) > 0 {
			out = append(out, i)
		}
	}
	return out
}

// nodeIndex locates every node's rows in a trace whose steps list only
// the nodes that changed (trace.Step.Nodes).
type nodeIndex struct {
	// names are the nodes in the trace's order (the first step's rows,
	// then any node first seen later); steps[k] are the indexes of the
	// steps with a row for names[k], ascending, and rows[k] the row's
	// position in that step's Nodes.
	names []string
	steps [][]int
	rows  [][]int
}

func buildNodeIndex(tr *trace.Trace) nodeIndex {
	var ix nodeIndex
	pos := map[string]int{}
	for i := range tr.Steps {
		for r := range tr.Steps[i].Nodes {
			name := tr.Steps[i].Nodes[r].Node
			k, ok := pos[name]
			if !ok {
				k = len(ix.names)
				pos[name] = k
				ix.names = append(ix.names, name)
				ix.steps = append(ix.steps, nil)
				ix.rows = append(ix.rows, nil)
			}
			ix.steps[k] = append(ix.steps[k], i)
			ix.rows[k] = append(ix.rows[k], r)
		}
	}
	return ix
}

// at returns node k's state at step i (its row in the last step <= i
// that has one, nil before its first) and whether that row is step i's.
func (m *Model) nodeAt(k, i int) (*trace.NodeState, bool) {
	steps := m.nodes.steps[k]
	j, found := slices.BinarySearch(steps, i)
	if !found {
		j--
	}
	if j < 0 {
		return nil, false
	}
	return &m.tr.Steps[steps[j]].Nodes[m.nodes.rows[k][j]], found
}

// cluster builds the Cluster view of step i; nil for a trace without
// nodes. It costs O(nodes × log steps) plus the size of what it shows.
func (m *Model) cluster(i int, st *trace.Step) *Cluster {
	if len(m.nodes.names) == 0 {
		return nil
	}
	placed := map[string]bool{}
	for k := range st.Placements {
		if p := &st.Placements[k]; p.Node != "" {
			placed[p.Pod] = true
		}
	}
	nodes := make([]NodeView, 0, len(m.nodes.names))
	pods := 0
	for k := range m.nodes.names {
		n, changed := m.nodeAt(k, i)
		if n == nil {
			continue
		}
		nodes = append(nodes, nodeView(n, changed && (i > 0 || n.PodCount > 0), placed))
		pods += n.PodCount
	}
	c := &Cluster{LastStep: -1}
	inUnit := make([]bool, len(nodes))
	counts := map[string][]trace.UnitCount{}
	for _, u := range st.UnitCounts {
		k := u.Policy + "/" + u.Unit
		counts[k] = append(counts[k], u)
	}
	for pi := range m.tr.Policies {
		p := &m.tr.Policies[pi]
		g := PolicyGroup{Policy: p.Policy, Text: policyText(p)}
		order := make([]int, len(p.Units))
		for k := range order {
			order[k] = k
		}
		// Highest priority first, then spec order (a stable sort).
		slices.SortStableFunc(order, func(a, b int) int { return int(p.Units[b].Priority) - int(p.Units[a].Priority) })
		for _, ui := range order {
			u := &p.Units[ui]
			ug := UnitGroup{Unit: u.Unit, Key: p.Policy + "/" + u.Unit, Priority: u.Priority, MaxCount: "unlimited", NodeSelector: u.NodeSelector}
			if u.MaxCount != nil {
				ug.MaxCount = strconv.Itoa(int(*u.MaxCount))
			}
			for _, uc := range counts[ug.Key] {
				cv := unitCountView(p, uc)
				ug.Full = ug.Full || cv.Full
				ug.Counts = append(ug.Counts, cv)
			}
			for k := range nodes {
				if slices.Contains(nodes[k].Units, ug.Key) {
					ug.Nodes = append(ug.Nodes, nodes[k])
					inUnit[k] = true
				}
			}
			ug.Text = unitText(&ug, u)
			g.Units = append(g.Units, ug)
		}
		c.Policies = append(c.Policies, g)
	}
	for k := range nodes {
		if !inUnit[k] {
			c.Outside = append(c.Outside, nodes[k])
		}
	}
	if len(c.Policies) > 0 && len(c.Outside) > 0 {
		c.OutsideText = "In no unit of any ResourcePolicy: pods of a required policy never go here; pods of a prefer policy may (ResourcePolicy score 0), pods no policy governs may."
	}
	for k := range st.Placements {
		if len(c.Placements) == PlacementCap {
			c.PlacementsOmitted = len(st.Placements) - PlacementCap
			break
		}
		c.Placements = append(c.Placements, placementView(&st.Placements[k]))
	}
	if len(st.Placements) == 0 {
		// The latest earlier step with placements: placeSteps is sorted.
		j, _ := slices.BinarySearch(m.placeSteps, i)
		if j > 0 {
			c.LastStep = m.placeSteps[j-1]
			ps := m.tr.Steps[c.LastStep].Placements
			v := placementView(&ps[len(ps)-1])
			c.Last = &v
		}
	}
	for _, p := range st.PendingPods {
		c.Pending = append(c.Pending, PendingPod{Pod: p.Pod, Owner: p.Owner, Message: p.Message})
	}
	c.PendingCount = max(st.PendingCount, len(st.PendingPods))
	for k := range st.ScaleDowns {
		c.ScaleDowns = append(c.ScaleDowns, scaleDownView(&st.ScaleDowns[k]))
	}
	c.Text = count(len(nodes), plural(len(nodes), "node", "nodes")) + ", " +
		count(pods, plural(pods, "pod", "pods")) + " placed, " + count(c.PendingCount, "pending")
	return c
}

func nodeView(n *trace.NodeState, changed bool, placed map[string]bool) NodeView {
	v := NodeView{Node: n.Node, Units: n.Units, PodCount: n.PodCount, More: max(0, n.PodCount-len(n.Pods))}
	for _, r := range n.Resources {
		rv := NodeResourceView{Resource: r.Resource, Requested: r.Requested.Text, Allocatable: r.Allocatable.Text}
		switch {
		case r.Allocatable.Amount > 0:
			rv.Frac = min(1, float64(r.Requested.Amount)/float64(r.Allocatable.Amount))
		case r.Requested.Amount > 0:
			rv.Frac = 1
		}
		rv.Text = r.Resource + " " + r.Requested.Text + "/" + r.Allocatable.Text
		v.Resources = append(v.Resources, rv)
	}
	for _, p := range n.Pods {
		pv := PodView{Pod: p.Pod, Owner: p.Owner, Unit: p.Unit, Terminating: p.Terminating, Placed: placed[p.Pod]}
		if p.DeletionCost != nil {
			pv.Cost = strconv.Itoa(int(*p.DeletionCost))
		}
		pv.Text = podText(&pv)
		v.Pods = append(v.Pods, pv)
	}
	v.Changed = changed
	return v
}

func podText(p *PodView) string {
	var parts []string
	if p.Owner != "" {
		parts = append(parts, "of "+p.Owner)
	}
	if p.Unit != "" {
		parts = append(parts, "unit "+unitName(p.Unit))
	}
	if p.Cost != "" {
		parts = append(parts, "deletion cost "+p.Cost)
	}
	if p.Terminating {
		parts = append(parts, "terminating")
	}
	if p.Placed {
		parts = append(parts, "placed in this step")
	}
	if len(parts) == 0 {
		return p.Pod
	}
	return p.Pod + " (" + strings.Join(parts, ", ") + ")"
}

// unitName is the unit's own name in a "namespace/policy/unit" key.
func unitName(key string) string {
	if parts := strings.SplitN(key, "/", 3); len(parts) == 3 {
		return parts[2]
	}
	return key
}

func policyText(p *trace.Policy) string {
	parts := []string{p.Strategy}
	if p.PodSelector == "" {
		parts = append(parts, "every pod of the namespace")
	} else {
		parts = append(parts, "pods "+p.PodSelector)
	}
	if len(p.MatchLabelKeys) > 0 {
		parts = append(parts, "counted per "+strings.Join(p.MatchLabelKeys, ", "))
	}
	if p.IgnoreTerminatingPod {
		parts = append(parts, "terminating pods not counted")
	}
	return strings.Join(parts, "; ")
}

func unitCountView(p *trace.Policy, uc trace.UnitCount) UnitCountView {
	n := uc.Count
	if p.IgnoreTerminatingPod {
		n = uc.Live
	}
	v := UnitCountView{Group: uc.Group, Count: uc.Count, Live: uc.Live}
	if uc.MaxCount != nil {
		v.Full = n >= int(*uc.MaxCount)
		v.Text = itoa(n) + " of " + itoa(int(*uc.MaxCount)) + " pods"
	} else {
		v.Text = count(n, plural(n, "pod", "pods"))
	}
	if t := uc.Count - uc.Live; t > 0 {
		if p.IgnoreTerminatingPod {
			v.Text += " (+" + itoa(t) + " terminating, not counted)"
		} else {
			v.Text += " (" + itoa(t) + " terminating)"
		}
	}
	if uc.Group != "" {
		v.Text = uc.Group + ": " + v.Text
	}
	return v
}

func unitText(ug *UnitGroup, u *trace.PolicyUnit) string {
	s := "priority " + strconv.Itoa(int(u.Priority))
	switch {
	case len(ug.Counts) == 0 && u.MaxCount != nil:
		s += ", 0 of at most " + ug.MaxCount + " pods"
	case len(ug.Counts) == 0:
		s += ", no pods"
	case len(ug.Counts) == 1 && ug.Counts[0].Group == "":
		s += ", " + ug.Counts[0].Text
		if u.MaxCount == nil {
			s += " (no limit)"
		}
	default:
		s += ", " + count(len(ug.Counts), plural(len(ug.Counts), "group", "groups"))
		if u.MaxCount != nil {
			m := int(*u.MaxCount)
			s += ", at most " + count(m, plural(m, "pod", "pods")) + " each"
		} else {
			s += " (no limit)"
		}
	}
	if u.NodeSelector == "" {
		s += ", every node"
	} else {
		s += ", nodes " + u.NodeSelector
	}
	if ug.Full {
		s += "; full"
	}
	return s
}

func placementView(p *trace.Placement) PlacementView {
	v := PlacementView{
		Pod: p.Pod, Owner: p.Owner, Policy: p.Policy, Group: p.Group, Node: p.Node, Unit: p.Unit,
		Message: p.Message, Feasible: p.Feasible, Considered: len(p.Nodes) + p.NodesOmitted,
		Scored: p.Scored, Plugins: p.Weights, Omitted: p.NodesOmitted,
	}
	if p.DeletionCost != nil {
		v.Cost = strconv.Itoa(int(*p.DeletionCost))
	}
	var ws []string
	for _, w := range p.Weights {
		ws = append(ws, w.Plugin+" ×"+itoa(w.Weight))
	}
	v.Weights = strings.Join(ws, ", ")
	for k := range p.Nodes {
		nv := &p.Nodes[k]
		r := VerdictRow{Node: nv.Node, Chosen: nv.Node == p.Node && p.Node != "", Feasible: nv.Filter == "",
			Filter: nv.Filter, Reason: strings.Join(nv.Reasons, "; "), Unit: nv.Unit, Total: nv.Total}
		if p.Scored && r.Feasible {
			r.Scores = columns(p.Weights, nv.Scores)
		}
		v.Rows = append(v.Rows, r)
	}
	if p.Node != "" {
		var at []string
		if p.Unit != "" {
			at = append(at, "unit "+p.Unit)
		}
		if v.Cost != "" {
			at = append(at, "deletion cost "+v.Cost)
		}
		v.Sentence = p.Pod + " was placed on " + p.Node
		if len(at) > 0 {
			v.Sentence += " (" + strings.Join(at, ", ") + ")"
		}
		// The trace's message starts "bound to <node>" followed by ": why"
		// or ", why": the sentence already names the node.
		if rest, ok := strings.CutPrefix(p.Message, "bound to "+p.Node); ok && rest != "" {
			v.Sentence += rest
		} else {
			v.Sentence += ": " + p.Message
		}
	} else {
		v.Sentence = p.Pod + " stays pending: " + p.Message
	}
	return v
}

// columns orders a node's scores by the placement's plugin columns; a
// plugin the node has no score for gets a zero cell marked skipped.
func columns(ws []trace.PluginWeight, scores []trace.PluginScore) []trace.PluginScore {
	out := make([]trace.PluginScore, len(ws))
	for k, w := range ws {
		out[k] = trace.PluginScore{Plugin: w.Plugin, Skipped: true}
		for _, s := range scores {
			if s.Plugin == w.Plugin {
				out[k] = s
			}
		}
	}
	return out
}

func scaleDownView(sd *trace.ScaleDown) ScaleDownView {
	v := ScaleDownView{Owner: sd.Owner, Removed: sd.Removed,
		Text: sd.Owner + " scaled down from " + strconv.Itoa(int(sd.From)) + " to " + strconv.Itoa(int(sd.To)) + " replicas: " +
			count(len(sd.Removed), plural(len(sd.Removed), "pod", "pods")) + " removed"}
	for _, r := range sd.Removed {
		c := ""
		if r.DeletionCost != nil {
			c = strconv.Itoa(int(*r.DeletionCost))
		}
		v.Costs = append(v.Costs, c)
	}
	return v
}
