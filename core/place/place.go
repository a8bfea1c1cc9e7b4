// Package place is the placement layer: a small kube-scheduler that puts
// the pods of admitted workloads and of Deployments on Nodes, with the
// proposed ResourcePolicy plugin (KEP #594, scheduler-plugins PR #594, not
// merged upstream).
//
// It models kube-scheduler v1.32's default profile where it matters for
// batch pods: the filters NodeUnschedulable, TaintToleration, NodeAffinity
// and NodeResourcesFit, then ResourcePolicy; the scores NodeResourcesFit
// (LeastAllocated over cpu and memory), NodeResourcesBalancedAllocation,
// TaintToleration, NodeAffinity and ResourcePolicy, each normalized as
// upstream does and multiplied by its weight. Everything else of the
// default profile (volumes, ports, inter-pod affinity, topology spread,
// image locality, preemption) is left out.
//
// Differences from kube-scheduler, all deliberate:
//   - equal totals are broken by node name (kube-scheduler picks one of
//     them at random), so the same input always gives the same node;
//   - a weight of 0 turns a score plugin off (kube-scheduler would use 1).
//
// Cluster holds the state the filters and scores read (what each node has
// allocated, and how many pods each ResourcePolicy unit counts) and is
// updated incrementally by Bind, Terminate and Unbind, so a placement costs
// O(nodes × units) and never rescans the pods. It holds no pointers into
// the scenario that it mutates; Clone gives an independent copy.
package place

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/trace"
)

// MaxNodeScore is kube-scheduler's framework.MaxNodeScore.
const MaxNodeScore = 100

// Template is what the placement layer reads of a pod: the pod template of
// its pod set (with the admitted flavors' node labels and tolerations
// merged in) or of its Deployment.
type Template struct {
	Labels            map[string]string
	Requests          map[core.ResourceName]core.Amount
	NonZeroRequests   map[core.ResourceName]core.Amount
	NodeSelector      map[string]string
	RequiredAffinity  []core.NodeSelectorTerm
	PreferredAffinity []core.PreferredSchedulingTerm
	Tolerations       []core.Toleration
}

// Pod is one pod. Templates are shared between the pods of one pod set.
type Pod struct {
	Namespace string
	Name      string
	// Owner is the "namespace/name" of the workload or Deployment.
	Owner    string
	Template *Template
}

// Key is "namespace/name".
func (p *Pod) Key() string { return p.Namespace + "/" + p.Name }

// Binding is where a bound pod sits and how it counts.
type Binding struct {
	Node int // index into Cluster.Nodes
	// Policy and Unit are the ResourcePolicy (index) that governs the pod
	// and the unit it was placed through; Unit is -1 for a node outside
	// every unit, Policy -1 for an ungoverned pod.
	Policy, Unit int
	// Group is the pod's values of the policy's matchLabelKeys (a key the
	// pod lacks is left out): the key its unit count is kept under.
	Group group
	// Terminating is set once the pod is being deleted; it keeps its node
	// until it is gone.
	Terminating bool
}

// DeletionCost is the pod-deletion-cost a governed pod gets: its unit's
// priority, or -1 outside every unit (the playground's reading of the
// KEP's controller, which gives no values).
func (c *Cluster) DeletionCost(b Binding) (int32, bool) {
	if b.Policy < 0 {
		return 0, false
	}
	if b.Unit < 0 {
		return -1, true
	}
	return c.policies[b.Policy].Units[b.Unit].Priority, true
}

// nodeState is what is allocated on a node.
type nodeState struct {
	requested map[core.ResourceName]core.Amount
	// nonZero is cpu and memory with kube-scheduler's defaults for
	// containers that request none (scoring only).
	nonZeroCPU, nonZeroMem core.Amount
	pods                   int64
	// version grows at every change to the node's pods (bind, unbind,
	// terminate), so a reader can tell which nodes changed.
	version uint64
}

// group is a pod's values of a policy's matchLabelKeys, one entry per key:
// "" for a key the pod lacks, else "=" + value.
type group string

func makeGroup(keys []string, labels map[string]string) group {
	if len(keys) == 0 {
		return ""
	}
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(0)
		}
		if v, ok := labels[k]; ok {
			b.WriteString("=" + v)
		}
	}
	return group(b.String())
}

// covers reports whether a counted pod of group g is in the incoming pod's
// group q: every key present on the incoming pod must have the same value
// (PodTopologySpread's matchLabelKeys, which ignore keys the incoming pod
// lacks).
func (q group) covers(g group) bool {
	if q == g {
		return true
	}
	qs, gs := strings.Split(string(q), "\x00"), strings.Split(string(g), "\x00")
	if len(qs) != len(gs) {
		return false
	}
	for i := range qs {
		if qs[i] != "" && qs[i] != gs[i] {
			return false
		}
	}
	return true
}

// describe is the group for a person: "k=v, k2=v2" (keys the pod lacks
// are left out).
func describeGroup(keys []string, g group) string {
	if g == "" {
		return ""
	}
	var parts []string
	for i, v := range strings.Split(string(g), "\x00") {
		if v != "" && i < len(keys) {
			parts = append(parts, keys[i]+v)
		}
	}
	return strings.Join(parts, ", ")
}

// Cluster is the placement state.
type Cluster struct {
	Nodes    []core.Node
	policies []core.ResourcePolicy
	weights  *core.PlacementSpec
	nodes    []nodeState
	// units[policy][unit] counts pods per group; the ignoreTerminatingPod
	// count leaves terminating pods out.
	units [][]unitCount
	// unitNodes[policy][unit] is the set of node indexes the unit selects.
	unitNodes [][][]bool
}

type unitCount struct {
	all, live map[group]int
}

// New builds an empty cluster: nodes sorted by name.
func New(nodes []core.Node, policies []core.ResourcePolicy, weights *core.PlacementSpec) *Cluster {
	c := &Cluster{
		Nodes:    slices.Clone(nodes),
		policies: policies,
		weights:  weights,
	}
	slices.SortFunc(c.Nodes, func(a, b core.Node) int { return strings.Compare(a.Name, b.Name) })
	c.nodes = make([]nodeState, len(c.Nodes))
	for i := range c.nodes {
		c.nodes[i].requested = map[core.ResourceName]core.Amount{}
	}
	c.units = make([][]unitCount, len(policies))
	c.unitNodes = make([][][]bool, len(policies))
	for pi, p := range policies {
		c.units[pi] = make([]unitCount, len(p.Units))
		c.unitNodes[pi] = make([][]bool, len(p.Units))
		for ui := range p.Units {
			c.units[pi][ui] = unitCount{all: map[group]int{}, live: map[group]int{}}
			sel := make([]bool, len(c.Nodes))
			for ni := range c.Nodes {
				sel[ni] = p.Units[ui].NodeSelector.Matches(c.Nodes[ni].Labels)
			}
			c.unitNodes[pi][ui] = sel
		}
	}
	return c
}

// Clone returns an independent copy (the node and policy definitions are
// shared: they never change).
func (c *Cluster) Clone() *Cluster {
	d := *c
	d.nodes = make([]nodeState, len(c.nodes))
	for i, n := range c.nodes {
		n.requested = maps.Clone(n.requested)
		d.nodes[i] = n
	}
	d.units = make([][]unitCount, len(c.units))
	for pi := range c.units {
		d.units[pi] = make([]unitCount, len(c.units[pi]))
		for ui, u := range c.units[pi] {
			d.units[pi][ui] = unitCount{all: maps.Clone(u.all), live: maps.Clone(u.live)}
		}
	}
	return &d
}

// NodeIndex returns the index of the named node, or -1.
func (c *Cluster) NodeIndex(name string) int {
	i, ok := slices.BinarySearchFunc(c.Nodes, name, func(n core.Node, name string) int { return strings.Compare(n.Name, name) })
	if !ok {
		return -1
	}
	return i
}

// Bind puts the pod on the node it was scheduled to.
func (c *Cluster) Bind(p *Pod, b Binding) {
	c.account(p, b, 1)
	if b.Policy >= 0 && b.Unit >= 0 {
		u := &c.units[b.Policy][b.Unit]
		u.all[b.Group]++
		u.live[b.Group]++
	}
}

// Terminate marks a bound pod as being deleted: it keeps its node, and
// stops counting for policies with ignoreTerminatingPod.
func (c *Cluster) Terminate(b *Binding) {
	if b.Terminating {
		return
	}
	b.Terminating = true
	c.nodes[b.Node].version++
	if b.Policy >= 0 && b.Unit >= 0 {
		dec(c.units[b.Policy][b.Unit].live, b.Group)
	}
}

// Unbind removes a bound pod from its node.
func (c *Cluster) Unbind(p *Pod, b Binding) {
	c.account(p, b, -1)
	if b.Policy >= 0 && b.Unit >= 0 {
		u := &c.units[b.Policy][b.Unit]
		dec(u.all, b.Group)
		if !b.Terminating {
			dec(u.live, b.Group)
		}
	}
}

func dec(m map[group]int, g group) {
	if m[g] <= 1 {
		delete(m, g)
		return
	}
	m[g]--
}

func (c *Cluster) account(p *Pod, b Binding, sign core.Amount) {
	n := &c.nodes[b.Node]
	for r, q := range p.Template.Requests {
		n.requested[r] += sign * q
		if n.requested[r] == 0 {
			delete(n.requested, r)
		}
	}
	n.nonZeroCPU += sign * p.Template.NonZeroRequests[core.ResourceCPU]
	n.nonZeroMem += sign * p.Template.NonZeroRequests[core.ResourceMemory]
	n.pods += int64(sign)
	n.version++
}

// Version is node i's change count: it differs from an earlier value
// exactly when the node's pods changed since (a pod bound, unbound or
// terminating).
func (c *Cluster) Version(i int) uint64 { return c.nodes[i].version }

// Requested returns what the pods on node i request, by resource.
func (c *Cluster) Requested(i int) map[core.ResourceName]core.Amount {
	return maps.Clone(c.nodes[i].requested)
}

// PodsOn returns how many pods node i holds.
func (c *Cluster) PodsOn(i int) int64 { return c.nodes[i].pods }

// UnitCounts lists every non-empty (policy, unit, group) count, by policy
// (in scenario order), unit (spec order) and group.
func (c *Cluster) UnitCounts() []trace.UnitCount {
	var out []trace.UnitCount
	for pi, p := range c.policies {
		for ui, u := range p.Units {
			cnt := c.units[pi][ui]
			gs := make([]group, 0, len(cnt.all))
			for g := range cnt.all {
				gs = append(gs, g)
			}
			slices.Sort(gs)
			for _, g := range gs {
				out = append(out, trace.UnitCount{
					Policy: p.Namespace + "/" + p.Name, Unit: unitLabel(&p, ui),
					Group: describeGroup(p.MatchLabelKeys, g), Count: cnt.all[g], Live: cnt.live[g], MaxCount: u.MaxCount,
				})
			}
		}
	}
	return out
}

// unitLabel is how a unit is named in messages: its name, or its index.
func unitLabel(p *core.ResourcePolicy, ui int) string {
	if n := p.Units[ui].Name; n != "" {
		return n
	}
	return fmt.Sprintf("#%d", ui)
}

// count is the incoming pod's view of a unit's count: the pods of groups
// it covers, without terminating ones under ignoreTerminatingPod.
func (c *Cluster) count(pi, ui int, q group) int {
	cnt := c.units[pi][ui]
	m := cnt.all
	if c.policies[pi].IgnoreTerminatingPod {
		m = cnt.live
	}
	if len(c.policies[pi].MatchLabelKeys) == 0 {
		return m[""]
	}
	n := 0
	for g, k := range m {
		if q.covers(g) {
			n += k
		}
	}
	return n
}

// UnitsOf lists the ResourcePolicy units that select node i, as
// "namespace/policy/unit".
func (c *Cluster) UnitsOf(i int) []string {
	var out []string
	for pi := range c.policies {
		p := &c.policies[pi]
		for ui := range p.Units {
			if c.unitNodes[pi][ui][i] {
				out = append(out, unitKey(p, ui))
			}
		}
	}
	return out
}

// UnitKey names the unit a binding counts in, in the form of UnitsOf
// ("namespace/policy/unit"); "" for an ungoverned pod or a node outside
// every unit.
func (c *Cluster) UnitKey(b Binding) string {
	if b.Policy < 0 || b.Unit < 0 {
		return ""
	}
	return unitKey(&c.policies[b.Policy], b.Unit)
}

// unitKey is "namespace/policy/unit", the form UnitsOf and UnitKey use.
func unitKey(p *core.ResourcePolicy, ui int) string {
	return p.Namespace + "/" + p.Name + "/" + unitLabel(p, ui)
}

// Policies describes the cluster's ResourcePolicies for the trace, in
// scenario order.
func (c *Cluster) Policies() []trace.Policy {
	var out []trace.Policy
	for pi := range c.policies {
		p := &c.policies[pi]
		tp := trace.Policy{
			Policy: p.Namespace + "/" + p.Name, Strategy: string(p.Strategy),
			PodSelector: p.PodSelector.String(), MatchLabelKeys: slices.Clone(p.MatchLabelKeys),
			IgnoreTerminatingPod: p.IgnoreTerminatingPod,
		}
		for ui := range p.Units {
			u := &p.Units[ui]
			tp.Units = append(tp.Units, trace.PolicyUnit{
				Unit: unitLabel(p, ui), Priority: u.Priority, MaxCount: u.MaxCount, NodeSelector: u.NodeSelector.String(),
			})
		}
		out = append(out, tp)
	}
	return out
}
