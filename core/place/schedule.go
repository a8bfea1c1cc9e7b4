package place

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/trace"
)

// Filter plugin names, in the order kube-scheduler's default profile runs
// them (pkg/scheduler/apis/config/v1/default_plugins.go), with
// ResourcePolicy last (added through multiPoint).
const (
	filterNodeUnschedulable = "NodeUnschedulable"
	filterTaintToleration   = "TaintToleration"
	filterNodeAffinity      = "NodeAffinity"
	filterNodeResourcesFit  = "NodeResourcesFit"
	filterResourcePolicy    = "ResourcePolicy"
)

// Filter reasons, as kube-scheduler words them (v1.32), and the
// playground's for ResourcePolicy (the KEP gives none).
const (
	reasonUnschedulable = "node(s) were unschedulable"                        // nodeunschedulable.ErrReasonUnschedulable
	reasonAffinity      = "node(s) didn't match Pod's node affinity/selector" // nodeaffinity.ErrReasonPod
	reasonTooManyPods   = "Too many pods"                                     // noderesources: fitsRequest
)

// unschedulableTaint is the taint kube-scheduler's NodeUnschedulable
// filter lets a pod past when the pod tolerates it.
func unschedulableTaint() core.Taint {
	return core.Taint{Key: "node.kubernetes.io/unschedulable", Effect: "NoSchedule"}
}

// DefaultMaxPods is the pod capacity of a node whose allocatable does not
// say (the kubelet's default --max-pods, which a real node reports).
const DefaultMaxPods = 110

func podCapacity(n *core.Node) core.Amount {
	if v, ok := n.Allocatable[core.ResourcePods]; ok {
		return v
	}
	return DefaultMaxPods
}

// Decision is the outcome of Schedule: the trace entry, and, when the pod
// fits, the binding to apply.
type Decision struct {
	Placement trace.Placement
	// Fits reports whether a node was chosen; Binding is then the binding.
	Fits    bool
	Binding Binding
}

// governing returns the index of the one ResourcePolicy that governs the
// pod (same namespace, podSelector matches), -1 for none, or an error
// naming every match when more than one does (the KEP's PreFilter
// rejection).
func (c *Cluster) governing(p *Pod) (int, error) {
	found := -1
	var names []string
	for pi := range c.policies {
		rp := &c.policies[pi]
		if rp.Namespace != p.Namespace || !rp.PodSelector.Matches(p.Template.Labels) {
			continue
		}
		if found < 0 {
			found = pi
		}
		names = append(names, rp.Namespace+"/"+rp.Name)
	}
	if len(names) > 1 {
		return -1, fmt.Errorf("pod is matched by more than one ResourcePolicy (%s)", strings.Join(names, ", "))
	}
	return found, nil
}

// verdict is one node's filter result and scores for the pod.
type verdict struct {
	node    int
	filter  string
	reasons []string
	unit    int
	raw     [numPlugins]int64
	skipped [numPlugins]bool
	norm    [numPlugins]int64
	total   int64
}

// The score plugins, in name order (the order of trace.NodeVerdict.Scores).
const (
	pNodeAffinity = iota
	pBalanced
	pFit
	pResourcePolicy
	pTaint
	numPlugins
)

func pluginName(pl int) core.ScorePlugin {
	return [numPlugins]core.ScorePlugin{
		core.PluginNodeAffinity,
		core.PluginNodeResourcesBalancedAllocation,
		core.PluginNodeResourcesFit,
		core.PluginResourcePolicy,
		core.PluginTaintToleration,
	}[pl]
}

// Schedule runs one kube-scheduler scheduling cycle for the pod: PreFilter
// (the ResourcePolicy match), the filters on every node, and, with more
// than one feasible node, the scores; the highest total wins, ties by node
// name. It does not change the cluster; apply Decision.Binding with Bind.
// The placement lists each node's verdict (at most trace.MaxNodeRows).
func (c *Cluster) Schedule(p *Pod) Decision { return c.schedule(p, true) }

// ScheduleBrief is Schedule without the node verdicts: the placement keeps
// its outcome, message and counts, every node counted in NodesOmitted,
// and no weights. It saves ranking and copying the nodes for placements
// whose verdicts the trace does not keep (trace.MaxDetailedPlacements).
func (c *Cluster) ScheduleBrief(p *Pod) Decision { return c.schedule(p, false) }

func (c *Cluster) schedule(p *Pod, detail bool) Decision {
	pl := trace.Placement{Pod: p.Key(), Owner: p.Owner}
	if detail {
		for i := range numPlugins {
			pl.Weights = append(pl.Weights, trace.PluginWeight{Plugin: string(pluginName(i)), Weight: c.weights.Weight(pluginName(i))})
		}
	}
	rows := func(vs []verdict, feasible []int, rp *core.ResourcePolicy) {
		if detail {
			pl.Nodes, pl.NodesOmitted = c.rows(p, vs, feasible, rp)
		} else {
			pl.NodesOmitted = len(c.Nodes)
		}
	}
	pi, err := c.governing(p)
	if err != nil {
		// PreFilter rejected the pod: kube-scheduler records the status
		// for every node, so every node is rejected by ResourcePolicy.
		pl.Message = fmt.Sprintf("0/%d nodes are available: %s.", len(c.Nodes), err.Error())
		vs := make([]verdict, len(c.Nodes))
		for ni := range vs {
			vs[ni] = verdict{node: ni, unit: -1, filter: string(core.PluginResourcePolicy), reasons: []string{err.Error()}}
		}
		rows(vs, nil, nil)
		return Decision{Placement: pl}
	}
	var q group
	var rp *core.ResourcePolicy
	full := []bool(nil)
	if pi >= 0 {
		rp = &c.policies[pi]
		q = makeGroup(rp.MatchLabelKeys, p.Template.Labels)
		pl.Policy = rp.Namespace + "/" + rp.Name
		pl.Group = describeGroup(rp.MatchLabelKeys, q)
		full = make([]bool, len(rp.Units))
		for ui := range rp.Units {
			u := &rp.Units[ui]
			full[ui] = u.MaxCount != nil && int32(c.count(pi, ui, q)) >= *u.MaxCount
		}
	}

	vs := make([]verdict, len(c.Nodes))
	var feasible []int
	resources := slices.Sorted(maps.Keys(p.Template.Requests))
	for ni := range c.Nodes {
		v := &vs[ni]
		v.node, v.unit = ni, -1
		v.filter, v.reasons = c.filter(p, resources, ni)
		if v.filter == "" && rp != nil {
			v.unit = c.unitFor(pi, ni, full)
			if v.unit < 0 {
				v.filter, v.reasons = c.policyReject(pi, ni, rp)
			}
		}
		if v.filter == "" {
			feasible = append(feasible, ni)
		}
	}
	pl.Feasible = len(feasible)
	if len(feasible) == 0 {
		pl.Message = fitError(len(c.Nodes), vs)
		rows(vs, nil, rp)
		return Decision{Placement: pl}
	}
	best := feasible[0]
	if len(feasible) > 1 {
		pl.Scored = true
		c.score(p, pi, vs, feasible)
		for _, ni := range feasible[1:] {
			if vs[ni].total > vs[best].total {
				best = ni // feasible is in name order, so ties keep the first name
			}
		}
	}
	pl.Node = c.Nodes[best].Name
	b := Binding{Node: best, Policy: pi, Unit: vs[best].unit, Group: q}
	if rp != nil && b.Unit >= 0 {
		pl.Unit = unitLabel(rp, b.Unit)
	}
	if cost, ok := c.DeletionCost(b); ok {
		pl.DeletionCost = &cost
	}
	pl.Message = c.explain(vs, feasible, best)
	rows(vs, feasible, rp)
	return Decision{Placement: pl, Fits: true, Binding: b}
}

// filter runs the filters kube-scheduler runs before ResourcePolicy, in
// order, stopping at the first that rejects the node (as
// framework.RunFilterPlugins does).
func (c *Cluster) filter(p *Pod, resources []core.ResourceName, ni int) (string, []string) {
	n := &c.Nodes[ni]
	t := p.Template
	// NodeUnschedulable (nodeunschedulable.Filter).
	if n.Unschedulable && !tolerates(t.Tolerations, unschedulableTaint()) {
		return filterNodeUnschedulable, []string{reasonUnschedulable}
	}
	// TaintToleration (tainttoleration.Filter): NoSchedule and NoExecute.
	if taint, ok := core.FirstUntoleratedTaint(n.Taints, t.Tolerations, filterableTaint); ok {
		return filterTaintToleration, []string{fmt.Sprintf("node(s) had untolerated taint {%s: %s}", taint.Key, taint.Value)}
	}
	// NodeAffinity (nodeaffinity.Filter): spec.nodeSelector and the
	// required terms.
	if ok, _ := core.MatchesNodeSelector(t.NodeSelector, t.RequiredAffinity, n.Labels); !ok {
		return filterNodeAffinity, []string{reasonAffinity}
	}
	// NodeResourcesFit (noderesources.fitsRequest): the pod count, then
	// every requested resource.
	var reasons []string
	st := &c.nodes[ni]
	if st.pods+1 > podCapacity(n) {
		reasons = append(reasons, reasonTooManyPods)
	}
	for _, r := range resources {
		q := t.Requests[r]
		if q == 0 || r == core.ResourcePods {
			continue
		}
		if q > n.Allocatable[r]-st.requested[r] {
			reasons = append(reasons, "Insufficient "+string(r))
		}
	}
	if len(reasons) > 0 {
		return filterNodeResourcesFit, reasons
	}
	return "", nil
}

func filterableTaint(t core.Taint) bool { return t.Effect == "NoSchedule" || t.Effect == "NoExecute" }

func tolerates(tols []core.Toleration, t core.Taint) bool {
	for _, tol := range tols {
		if tol.Tolerates(t) {
			return true
		}
	}
	return false
}

// unitFor is the unit the pod counts in on node ni: the highest-priority
// unit selecting the node that is not full (ties by spec order); -1 if the
// node is in no such unit.
func (c *Cluster) unitFor(pi, ni int, full []bool) int {
	units := c.policies[pi].Units
	best := -1
	for ui := range units {
		if !c.unitNodes[pi][ui][ni] || full[ui] {
			continue
		}
		if best < 0 || units[ui].Priority > units[best].Priority {
			best = ui
		}
	}
	return best
}

// policyReject is the ResourcePolicy filter for a node with no available
// unit: pass (nil filter) for a node in no unit under prefer; reject a
// node in no unit under required, and a node whose units are all full.
func (c *Cluster) policyReject(pi, ni int, rp *core.ResourcePolicy) (string, []string) {
	var fullUnits []string
	for ui := range rp.Units {
		if c.unitNodes[pi][ui][ni] {
			fullUnits = append(fullUnits, unitLabel(rp, ui))
		}
	}
	name := rp.Namespace + "/" + rp.Name
	if len(fullUnits) > 0 {
		return filterResourcePolicy, []string{fmt.Sprintf("node(s) were in units of ResourcePolicy %s that reached maxCount (%s)", name, strings.Join(fullUnits, ", "))}
	}
	if rp.Strategy == core.ResourcePolicyRequired {
		return filterResourcePolicy, []string{fmt.Sprintf("node(s) matched no unit of ResourcePolicy %s (strategy required)", name)}
	}
	return "", nil
}

// fitError is kube-scheduler's FitError.Error for a pod no node passes:
// "0/N nodes are available: " and a histogram of the reasons, each
// "count reason", sorted as strings, then ".".
func fitError(n int, vs []verdict) string {
	counts := map[string]int{}
	for _, v := range vs {
		for _, r := range v.reasons {
			counts[r]++
		}
	}
	var parts []string
	for r, k := range counts {
		parts = append(parts, fmt.Sprintf("%d %s", k, r))
	}
	slices.Sort(parts)
	if len(parts) == 0 {
		return fmt.Sprintf("0/%d nodes are available.", n)
	}
	return fmt.Sprintf("0/%d nodes are available: %s.", n, strings.Join(parts, ", "))
}

// score runs every score plugin over the feasible nodes, normalizes and
// weights them (framework.RunScorePlugins).
func (c *Cluster) score(p *Pod, pi int, vs []verdict, feasible []int) {
	t := p.Template
	// PreScore skips: BalancedAllocation for a best-effort pod,
	// NodeAffinity without preferred terms, ResourcePolicy for an
	// ungoverned pod.
	skip := [numPlugins]bool{
		pNodeAffinity:   len(t.PreferredAffinity) == 0,
		pBalanced:       t.Requests[core.ResourceCPU] == 0 && t.Requests[core.ResourceMemory] == 0,
		pResourcePolicy: pi < 0,
	}
	for _, ni := range feasible {
		v := &vs[ni]
		v.skipped = skip
		if !skip[pFit] {
			v.raw[pFit] = c.leastAllocated(t, ni)
		}
		if !skip[pBalanced] {
			v.raw[pBalanced] = c.balanced(t, ni)
		}
		v.raw[pTaint] = preferNoScheduleCount(c.Nodes[ni].Taints, t.Tolerations)
		if !skip[pNodeAffinity] {
			v.raw[pNodeAffinity] = preferredWeight(t.PreferredAffinity, c.Nodes[ni].Labels)
		}
		if !skip[pResourcePolicy] && v.unit >= 0 {
			v.raw[pResourcePolicy] = int64(c.policies[pi].Units[v.unit].Priority) * 20
		}
	}
	// NormalizeScore: TaintToleration reversed, NodeAffinity and
	// ResourcePolicy with DefaultNormalizeScore; the resource scores are
	// already in [0, 100].
	for pl := range numPlugins {
		raw := make([]int64, len(feasible))
		for i, ni := range feasible {
			raw[i] = vs[ni].raw[pl]
		}
		switch pl {
		case pTaint:
			defaultNormalize(raw, true)
		case pNodeAffinity, pResourcePolicy:
			if !skip[pl] {
				defaultNormalize(raw, false)
			}
		}
		w := int64(c.weights.Weight(pluginName(pl)))
		for i, ni := range feasible {
			vs[ni].norm[pl] = raw[i]
			vs[ni].total += raw[i] * w
		}
	}
}

// defaultNormalize is kube-scheduler's helper.DefaultNormalizeScore with
// MaxNodeScore: scale so the largest score is 100 (reversed: 100 minus
// that); all zero stays zero (reversed: all 100).
func defaultNormalize(scores []int64, reverse bool) {
	var maxCount int64
	for _, s := range scores {
		maxCount = max(maxCount, s)
	}
	for i, s := range scores {
		switch {
		case maxCount == 0 && reverse:
			scores[i] = MaxNodeScore
		case maxCount == 0:
		default:
			s = MaxNodeScore * s / maxCount
			if reverse {
				s = MaxNodeScore - s
			}
			scores[i] = s
		}
	}
}

// leastAllocated is NodeResourcesFit's LeastAllocated score with its
// default resources (cpu and memory, weight 1 each)
// (noderesources.leastResourceScorer): per resource
// (allocatable - requested) * 100 / allocatable, 0 when over, where
// requested is the node's non-zero requests plus the pod's; resources the
// node has none of are left out; integer average.
func (c *Cluster) leastAllocated(t *Template, ni int) int64 {
	n, st := &c.Nodes[ni], &c.nodes[ni]
	var sum, weights int64
	for _, r := range [...]struct {
		alloc, req core.Amount
	}{
		{n.Allocatable[core.ResourceCPU], st.nonZeroCPU + t.NonZeroRequests[core.ResourceCPU]},
		{n.Allocatable[core.ResourceMemory], st.nonZeroMem + t.NonZeroRequests[core.ResourceMemory]},
	} {
		if r.alloc == 0 {
			continue
		}
		if r.req <= r.alloc {
			sum += (r.alloc - r.req) * MaxNodeScore / r.alloc
		}
		weights++
	}
	if weights == 0 {
		return 0
	}
	return sum / weights
}

// balanced is NodeResourcesBalancedAllocation's score
// (noderesources.balancedResourceScorer) over cpu and memory with actual
// requests: with both fractions f = min(1, requested/allocatable),
// int((1 - |f1 - f2| / 2) * 100); with one, 100.
func (c *Cluster) balanced(t *Template, ni int) int64 {
	n, st := &c.Nodes[ni], &c.nodes[ni]
	var fractions [2]float64
	k := 0
	for _, r := range [...]core.ResourceName{core.ResourceCPU, core.ResourceMemory} {
		alloc := n.Allocatable[r]
		if alloc == 0 {
			continue
		}
		f := float64(st.requested[r]+t.Requests[r]) / float64(alloc)
		fractions[k] = min(f, 1)
		k++
	}
	std := 0.0
	if k == 2 {
		std = math.Abs((fractions[0] - fractions[1]) / 2)
	}
	return int64((1 - std) * MaxNodeScore)
}

// preferNoScheduleCount is TaintToleration's raw score: the node's
// PreferNoSchedule taints the pod does not tolerate (tolerations with an
// empty or PreferNoSchedule effect count).
func preferNoScheduleCount(taints []core.Taint, tols []core.Toleration) int64 {
	var relevant []core.Toleration
	for _, t := range tols {
		if t.Effect == "" || t.Effect == "PreferNoSchedule" {
			relevant = append(relevant, t)
		}
	}
	var n int64
	for _, t := range taints {
		if t.Effect == "PreferNoSchedule" && !tolerates(relevant, t) {
			n++
		}
	}
	return n
}

// preferredWeight is NodeAffinity's raw score: the weights of the
// preferred terms the node matches.
func preferredWeight(terms []core.PreferredSchedulingTerm, labels map[string]string) int64 {
	var sum int64
	for _, t := range terms {
		if ok, _ := t.Preference.Matches(labels); ok {
			sum += int64(t.Weight)
		}
	}
	return sum
}

// explain says why the chosen node won.
func (c *Cluster) explain(vs []verdict, feasible []int, best int) string {
	name := c.Nodes[best].Name
	if len(feasible) == 1 {
		return fmt.Sprintf("bound to %s, the only node that passes every filter (scoring skipped, as kube-scheduler does)", name)
	}
	ties := 0
	runnerUp := -1
	for _, ni := range feasible {
		if ni == best {
			continue
		}
		if vs[ni].total == vs[best].total {
			ties++
		}
		if runnerUp < 0 || vs[ni].total > vs[runnerUp].total {
			runnerUp = ni
		}
	}
	if ties > 0 {
		return fmt.Sprintf("bound to %s: total score %d, tied with %d other node(s); the tie goes to the first node name (kube-scheduler would pick one at random)", name, vs[best].total, ties)
	}
	return fmt.Sprintf("bound to %s: total score %d, ahead of %s (%d) among %d feasible nodes", name, vs[best].total, c.Nodes[runnerUp].Name, vs[runnerUp].total, len(feasible))
}

// rows turns the verdicts into trace rows: feasible nodes by total (best
// first, ties by name), then rejected nodes by name; at most MaxNodeRows.
func (c *Cluster) rows(p *Pod, vs []verdict, feasible []int, rp *core.ResourcePolicy) ([]trace.NodeVerdict, int) {
	order := slices.Clone(feasible)
	slices.SortStableFunc(order, func(a, b int) int {
		if vs[a].total != vs[b].total {
			if vs[a].total > vs[b].total {
				return -1
			}
			return 1
		}
		return a - b
	})
	for ni := range vs {
		if vs[ni].filter != "" {
			order = append(order, ni)
		}
	}
	omitted := 0
	if len(order) > trace.MaxNodeRows {
		omitted = len(order) - trace.MaxNodeRows
		order = order[:trace.MaxNodeRows]
	}
	out := make([]trace.NodeVerdict, 0, len(order))
	scored := len(feasible) > 1
	for _, ni := range order {
		v := &vs[ni]
		row := trace.NodeVerdict{Node: c.Nodes[ni].Name, Filter: v.filter, Reasons: v.reasons, Total: v.total}
		if rp != nil && v.unit >= 0 {
			row.Unit = unitLabel(rp, v.unit)
		}
		if v.filter == "" && scored {
			for pl := range numPlugins {
				w := int64(c.weights.Weight(pluginName(pl)))
				row.Scores = append(row.Scores, trace.PluginScore{
					Plugin: string(pluginName(pl)), Raw: v.raw[pl], Normalized: v.norm[pl], Weighted: v.norm[pl] * w, Skipped: v.skipped[pl],
				})
			}
		}
		out = append(out, row)
	}
	return out, omitted
}
