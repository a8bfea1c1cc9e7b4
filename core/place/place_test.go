package place

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core"
)

const gi = 1 << 30

// node builds a node with cpu (whole CPUs), memory (GiB) and labels
// "k=v" pairs.
func node(name string, cpu, memGi int64, labels ...string) core.Node {
	n := core.Node{Name: name, Labels: map[string]string{}, Allocatable: map[core.ResourceName]core.Amount{
		core.ResourceCPU: cpu * 1000, core.ResourceMemory: memGi * gi,
	}}
	for i := 0; i+1 < len(labels); i += 2 {
		n.Labels[labels[i]] = labels[i+1]
	}
	return n
}

func withTaint(n core.Node, key, value, effect string) core.Node {
	n.Taints = append(n.Taints, core.Taint{Key: key, Value: value, Effect: effect})
	return n
}

// pod builds a pod of namespace ns requesting milliCPU and memGi, with
// labels "k=v" pairs.
func pod(ns, name string, milliCPU, memGi int64, labels ...string) *Pod {
	t := &Template{
		Labels:          map[string]string{},
		Requests:        map[core.ResourceName]core.Amount{core.ResourceCPU: milliCPU, core.ResourceMemory: memGi * gi},
		NonZeroRequests: map[core.ResourceName]core.Amount{core.ResourceCPU: milliCPU, core.ResourceMemory: memGi * gi},
	}
	for i := 0; i+1 < len(labels); i += 2 {
		t.Labels[labels[i]] = labels[i+1]
	}
	return &Pod{Namespace: ns, Name: name, Owner: ns + "/" + name, Template: t}
}

func unit(name string, priority int32, maxCount *int32, labels ...string) core.ResourcePolicyUnit {
	sel := core.LabelSelector{MatchLabels: map[string]string{}}
	for i := 0; i+1 < len(labels); i += 2 {
		sel.MatchLabels[labels[i]] = labels[i+1]
	}
	return core.ResourcePolicyUnit{Name: name, Priority: priority, MaxCount: maxCount, NodeSelector: sel}
}

func policy(ns, name string, strategy core.ResourcePolicyStrategy, units ...core.ResourcePolicyUnit) core.ResourcePolicy {
	return core.ResourcePolicy{Namespace: ns, Name: name, Strategy: strategy, PodSelector: core.LabelSelector{}, Units: units}
}

func ptr32(v int32) *int32 { return &v }

// rpOnly gives every plugin but ResourcePolicy weight 0.
func rpOnly() *core.PlacementSpec {
	return &core.PlacementSpec{Weights: map[core.ScorePlugin]int{
		core.PluginNodeResourcesFit: 0, core.PluginNodeResourcesBalancedAllocation: 0, core.PluginTaintToleration: 0, core.PluginNodeAffinity: 0,
	}}
}

// placed schedules and binds pods one after another and returns where each
// went ("" when pending) and the last decision.
func placed(c *Cluster, pods ...*Pod) ([]string, Decision) {
	var out []string
	var d Decision
	for _, p := range pods {
		d = c.Schedule(p)
		if d.Fits {
			c.Bind(p, d.Binding)
		}
		out = append(out, d.Placement.Node)
	}
	return out, d
}

func TestFilters(t *testing.T) {
	tests := []struct {
		name        string
		nodes       []core.Node
		pod         func() *Pod
		wantNode    string
		wantMessage string
	}{
		{
			name:     "fits the only node: scoring skipped",
			nodes:    []core.Node{node("n1", 4, 16)},
			pod:      func() *Pod { return pod("ns", "p", 1000, 1) },
			wantNode: "n1", wantMessage: "bound to n1, the only node that passes every filter (scoring skipped, as kube-scheduler does)",
		},
		{
			name: "every filter's reason, histogram sorted as kube-scheduler's FitError",
			nodes: []core.Node{
				func() core.Node { n := node("a-cordoned", 8, 32); n.Unschedulable = true; return n }(),
				withTaint(node("b-spot", 8, 32), "spot", "true", "NoSchedule"),
				node("c-gpu", 8, 32, "pool", "gpu"),
				node("d-small", 1, 1, "pool", "cpu"),
				node("e-small", 1, 64, "pool", "cpu"),
			},
			pod: func() *Pod {
				p := pod("ns", "p", 2000, 2)
				p.Template.NodeSelector = map[string]string{"pool": "cpu"}
				return p
			},
			wantMessage: "0/5 nodes are available: 1 Insufficient memory, 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint {spot: true}, 1 node(s) were unschedulable, 2 Insufficient cpu.",
		},
		{
			name:  "PreferNoSchedule does not filter; a tolerated taint passes",
			nodes: []core.Node{withTaint(node("n1", 4, 16), "spot", "true", "PreferNoSchedule"), withTaint(node("n2", 4, 16), "gpu", "", "NoSchedule")},
			pod: func() *Pod {
				p := pod("ns", "p", 1000, 1)
				p.Template.Tolerations = []core.Toleration{{Key: "gpu", Operator: "Exists"}}
				return p
			},
			// Both feasible. Fit (75+93)/2 = 84, Balanced 1-|0.25-0.0625|/2
			// -> 90 on both; n1's untolerated PreferNoSchedule taint costs
			// it the TaintToleration score (100 x weight 3).
			wantNode: "n2", wantMessage: "bound to n2: total score 474, ahead of n1 (174) among 2 feasible nodes",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := New(tc.nodes, nil, nil)
			d := c.Schedule(tc.pod())
			if diff := cmp.Diff(tc.wantNode+"|"+tc.wantMessage, d.Placement.Node+"|"+d.Placement.Message); diff != "" {
				t.Errorf("node|message (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTooManyPods(t *testing.T) {
	n := node("n1", 64, 64)
	n.Allocatable[core.ResourcePods] = 2
	c := New([]core.Node{n}, nil, nil)
	got, d := placed(c, pod("ns", "a", 100, 1), pod("ns", "b", 100, 1), pod("ns", "c", 100, 1))
	if diff := cmp.Diff([]string{"n1", "n1", ""}, got); diff != "" {
		t.Errorf("placements (-want +got):\n%s", diff)
	}
	if want := "0/1 nodes are available: 1 Too many pods."; d.Placement.Message != want {
		t.Errorf("message = %q, want %q", d.Placement.Message, want)
	}
}

// TestDefaultWeights is resourcepolicy.md §4.4: with kube-scheduler's
// default weights the emptier low-priority node wins; ResourcePolicy weight
// 3 reverses it.
func TestDefaultWeights(t *testing.T) {
	for _, tc := range []struct {
		name      string
		rpWeight  *int
		wantNode  string
		wantTotal map[string]int64
	}{
		{name: "default weights: resource fit outweighs the unit", wantNode: "b1", wantTotal: map[string]int64{"a1": 525, "b1": 555}},
		{name: "ResourcePolicy weight 3", rpWeight: new(3), wantNode: "a1", wantTotal: map[string]int64{"a1": 725, "b1": 715}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var w *core.PlacementSpec
			if tc.rpWeight != nil {
				w = &core.PlacementSpec{Weights: map[core.ScorePlugin]int{core.PluginResourcePolicy: *tc.rpWeight}}
			}
			rp := policy("ns", "rp", core.ResourcePolicyRequired, unit("high", 5, nil, "pool", "a"), unit("low", 4, nil, "pool", "b"))
			c := New([]core.Node{node("a1", 4, 16, "pool", "a"), node("b1", 4, 16, "pool", "b")}, []core.ResourcePolicy{rp}, w)
			filler := pod("ns", "filler", 2000, 8)
			c.Bind(filler, Binding{Node: c.NodeIndex("a1"), Policy: 0, Unit: 0})
			d := c.Schedule(pod("ns", "p", 1000, 4))
			got := map[string]int64{}
			for _, row := range d.Placement.Nodes {
				got[row.Node] = row.Total
			}
			if diff := cmp.Diff(tc.wantTotal, got); diff != "" {
				t.Errorf("totals (-want +got):\n%s", diff)
			}
			if d.Placement.Node != tc.wantNode {
				t.Errorf("node = %s, want %s", d.Placement.Node, tc.wantNode)
			}
		})
	}
}

// TestResourcePolicy is resourcepolicy.md §3.4 (P1-P7) and the issue's
// rules: nodes od1 (priority 5), sp1 (priority 2), x1 (in no unit).
func TestResourcePolicy(t *testing.T) {
	nodes := func() []core.Node {
		return []core.Node{node("od1", 8, 32, "tier", "ondemand"), node("sp1", 8, 32, "tier", "spot"), node("x1", 8, 32, "tier", "other")}
	}
	units := func(odMax *int32) []core.ResourcePolicyUnit {
		return []core.ResourcePolicyUnit{unit("od", 5, odMax, "tier", "ondemand"), unit("spot", 2, nil, "tier", "spot")}
	}
	tests := []struct {
		name     string
		policies []core.ResourcePolicy
		setup    func(c *Cluster)
		pod      *Pod
		wantNode string
		wantRP   map[string][2]int64 // node -> raw, normalized ResourcePolicy score
		// wantRejected, when set, is every rejected node with its filter.
		wantRejected map[string]string
		wantMsg      string
		wantCost     *int32
	}{
		{
			name:     "P1 prefer: raw priority*20, outside nodes 0",
			policies: []core.ResourcePolicy{policy("ns", "rp", core.ResourcePolicyPrefer, units(nil)...)},
			pod:      pod("ns", "p", 1000, 1),
			wantNode: "od1", wantCost: ptr32(5),
			wantRP: map[string][2]int64{"od1": {100, 100}, "sp1": {40, 40}, "x1": {0, 0}},
		},
		{
			name:     "P2 required: the node in no unit is rejected",
			policies: []core.ResourcePolicy{policy("ns", "rp", core.ResourcePolicyRequired, units(nil)...)},
			pod:      pod("ns", "p", 1000, 1),
			wantNode: "od1", wantCost: ptr32(5),
			wantRP: map[string][2]int64{"od1": {100, 100}, "sp1": {40, 40}},
		},
		{
			name:     "P3 maxCount reached: od1 rejected, normalized over the feasible nodes",
			policies: []core.ResourcePolicy{policy("ns", "rp", core.ResourcePolicyPrefer, units(ptr32(1))...)},
			setup: func(c *Cluster) {
				c.Bind(pod("ns", "old", 100, 1), Binding{Node: c.NodeIndex("od1"), Policy: 0, Unit: 0})
			},
			pod:      pod("ns", "p", 1000, 1),
			wantNode: "sp1", wantCost: ptr32(2),
			wantRP: map[string][2]int64{"sp1": {40, 100}, "x1": {0, 0}},
		},
		{
			name: "P4a ignoreTerminatingPod: a terminating pod does not fill the unit",
			policies: func() []core.ResourcePolicy {
				rp := policy("ns", "rp", core.ResourcePolicyPrefer, units(ptr32(1))...)
				rp.IgnoreTerminatingPod = true
				return []core.ResourcePolicy{rp}
			}(),
			setup: func(c *Cluster) {
				b := Binding{Node: c.NodeIndex("od1"), Policy: 0, Unit: 0}
				c.Bind(pod("ns", "old", 100, 1), b)
				c.Terminate(&b)
			},
			pod:      pod("ns", "p", 1000, 1),
			wantNode: "od1", wantCost: ptr32(5),
			wantRP: map[string][2]int64{"od1": {100, 100}, "sp1": {40, 40}, "x1": {0, 0}},
		},
		{
			name:     "P4b without ignoreTerminatingPod a terminating pod still counts",
			policies: []core.ResourcePolicy{policy("ns", "rp", core.ResourcePolicyPrefer, units(ptr32(1))...)},
			setup: func(c *Cluster) {
				b := Binding{Node: c.NodeIndex("od1"), Policy: 0, Unit: 0}
				c.Bind(pod("ns", "old", 100, 1), b)
				c.Terminate(&b)
			},
			pod:      pod("ns", "p", 1000, 1),
			wantNode: "sp1", wantCost: ptr32(2),
			wantRP: map[string][2]int64{"sp1": {40, 100}, "x1": {0, 0}},
		},
		{
			name:     "maxCount 0: the unit is never usable",
			policies: []core.ResourcePolicy{policy("ns", "rp", core.ResourcePolicyRequired, units(ptr32(0))...)},
			pod:      pod("ns", "p", 1000, 1),
			wantNode: "sp1", wantCost: ptr32(2),
		},
		{
			name:     "P6 priority 10: raw 200 normalized to 100",
			policies: []core.ResourcePolicy{policy("ns", "rp", core.ResourcePolicyPrefer, unit("od", 10, nil, "tier", "ondemand"), unit("spot", 2, nil, "tier", "spot"))},
			pod:      pod("ns", "p", 1000, 1),
			wantNode: "od1", wantCost: ptr32(10),
			wantRP: map[string][2]int64{"od1": {200, 100}, "sp1": {40, 20}, "x1": {0, 0}},
		},
		{
			name: "P7 two policies match: unschedulable",
			policies: []core.ResourcePolicy{
				policy("ns", "a", core.ResourcePolicyPrefer, units(nil)...),
				policy("ns", "b", core.ResourcePolicyPrefer, units(nil)...),
			},
			pod:     pod("ns", "p", 1000, 1),
			wantMsg: "0/3 nodes are available: pod is matched by more than one ResourcePolicy (ns/a, ns/b).",
			// PreFilter's rejection is every node's verdict.
			wantRejected: map[string]string{"od1": "ResourcePolicy", "sp1": "ResourcePolicy", "x1": "ResourcePolicy"},
		},
		{
			name:     "a policy of another namespace does not govern the pod",
			policies: []core.ResourcePolicy{policy("other", "rp", core.ResourcePolicyRequired, units(nil)...)},
			pod:      pod("ns", "p", 1000, 1),
			wantNode: "od1", // all equal: the first name wins
		},
		{
			name: "a node in two units belongs to the highest-priority one with room",
			policies: []core.ResourcePolicy{policy("ns", "rp", core.ResourcePolicyRequired,
				unit("any", 1, nil, "tier", "ondemand"), unit("od", 5, ptr32(1), "tier", "ondemand"))},
			setup: func(c *Cluster) {
				c.Bind(pod("ns", "old", 100, 1), Binding{Node: c.NodeIndex("od1"), Policy: 0, Unit: 1})
			},
			pod:      pod("ns", "p", 1000, 1),
			wantNode: "od1", wantCost: ptr32(1),
		},
		{
			name:     "required, every unit full: the reason names the units",
			policies: []core.ResourcePolicy{policy("ns", "rp", core.ResourcePolicyRequired, unit("od", 5, ptr32(0), "tier", "ondemand"))},
			pod:      pod("ns", "p", 1000, 1),
			wantMsg:  "0/3 nodes are available: 1 node(s) were in units of ResourcePolicy ns/rp that reached maxCount (od), 2 node(s) matched no unit of ResourcePolicy ns/rp (strategy required).",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := New(nodes(), tc.policies, rpOnly())
			if tc.setup != nil {
				tc.setup(c)
			}
			d := c.Schedule(tc.pod)
			if d.Placement.Node != tc.wantNode {
				t.Errorf("node = %q, want %q (%s)", d.Placement.Node, tc.wantNode, d.Placement.Message)
			}
			if tc.wantMsg != "" && d.Placement.Message != tc.wantMsg {
				t.Errorf("message = %q\nwant      %q", d.Placement.Message, tc.wantMsg)
			}
			if diff := cmp.Diff(tc.wantCost, d.Placement.DeletionCost); diff != "" {
				t.Errorf("deletion cost (-want +got):\n%s", diff)
			}
			// The brief form decides the same, without the node rows.
			brief := c.ScheduleBrief(tc.pod)
			wantBrief := d
			wantBrief.Placement.Nodes, wantBrief.Placement.Weights, wantBrief.Placement.NodesOmitted = nil, nil, len(c.Nodes)
			if diff := cmp.Diff(wantBrief, brief, cmp.AllowUnexported(Binding{})); diff != "" {
				t.Errorf("ScheduleBrief (-want +got):\n%s", diff)
			}
			if tc.wantRejected != nil {
				got := map[string]string{}
				for _, row := range d.Placement.Nodes {
					if row.Filter != "" {
						got[row.Node] = row.Filter
					}
				}
				if diff := cmp.Diff(tc.wantRejected, got); diff != "" {
					t.Errorf("rejected nodes, node -> filter (-want +got):\n%s", diff)
				}
			}
			if tc.wantRP != nil {
				got := map[string][2]int64{}
				for _, row := range d.Placement.Nodes {
					for _, s := range row.Scores {
						if s.Plugin == string(core.PluginResourcePolicy) {
							got[row.Node] = [2]int64{s.Raw, s.Normalized}
						}
					}
				}
				if diff := cmp.Diff(tc.wantRP, got); diff != "" {
					t.Errorf("ResourcePolicy scores, node -> {raw, normalized} (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// TestMatchLabelKeys: groups are counted separately; a key the incoming
// pod lacks is ignored (it counts every group), as PodTopologySpread does.
func TestMatchLabelKeys(t *testing.T) {
	rp := policy("ns", "rp", core.ResourcePolicyRequired, unit("a", 5, ptr32(1), "pool", "a"), unit("b", 1, nil, "pool", "b"))
	rp.MatchLabelKeys = []string{"job"}
	c := New([]core.Node{node("a1", 8, 32, "pool", "a"), node("b1", 8, 32, "pool", "b")}, []core.ResourcePolicy{rp}, rpOnly())
	got, _ := placed(c,
		pod("ns", "x-0", 100, 1, "job", "x"),
		pod("ns", "y-0", 100, 1, "job", "y"), // its own group: unit a has room
		pod("ns", "x-1", 100, 1, "job", "x"), // group x is full in a
		pod("ns", "none", 100, 1),            // no key: counts x and y, a is full
	)
	if diff := cmp.Diff([]string{"a1", "a1", "b1", "b1"}, got); diff != "" {
		t.Errorf("placements (-want +got):\n%s", diff)
	}
	var counts []string
	for _, u := range c.UnitCounts() {
		counts = append(counts, u.Unit+" "+u.Group+" "+string(rune('0'+u.Count)))
	}
	want := []string{"a job=x 1", "a job=y 1", "b  1", "b job=x 1"}
	if diff := cmp.Diff(want, counts); diff != "" {
		t.Errorf("unit counts (-want +got):\n%s", diff)
	}
}

// TestDefaultNormalize is kube-scheduler's TestDefaultNormalizeScore.
func TestDefaultNormalize(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      []int64
		reverse bool
		want    []int64
	}{
		{"scaled", []int64{1, 2, 3, 4}, false, []int64{25, 50, 75, 100}},
		{"one large", []int64{1000, 10, 20, 30}, false, []int64{100, 1, 2, 3}},
		{"equal", []int64{1, 1, 1, 1}, false, []int64{100, 100, 100, 100}},
		{"all zero", []int64{0, 0, 0, 0}, false, []int64{0, 0, 0, 0}},
		{"reversed", []int64{1, 2, 3, 4}, true, []int64{75, 50, 25, 0}},
		{"reversed one large", []int64{1000, 10, 20, 30}, true, []int64{0, 99, 98, 97}},
		{"reversed all zero", []int64{0, 0, 0, 0}, true, []int64{100, 100, 100, 100}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := append([]int64(nil), tc.in...)
			defaultNormalize(got, tc.reverse)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestUnbindRestores(t *testing.T) {
	rp := policy("ns", "rp", core.ResourcePolicyRequired, unit("a", 5, ptr32(1), "pool", "a"))
	c := New([]core.Node{node("a1", 8, 32, "pool", "a")}, []core.ResourcePolicy{rp}, nil)
	p := pod("ns", "p", 1000, 1)
	d := c.Schedule(p)
	c.Bind(p, d.Binding)
	before := c.Clone()
	c.Unbind(p, d.Binding)
	if got := c.Schedule(pod("ns", "q", 1000, 1)); got.Placement.Node != "a1" {
		t.Errorf("after unbind: %s", got.Placement.Message)
	}
	if got := before.Schedule(pod("ns", "q", 1000, 1)); got.Placement.Node != "" {
		t.Errorf("the clone changed with the original: %s", got.Placement.Message)
	}
	if len(c.UnitCounts()) != 0 || len(c.Requested(0)) != 0 || c.PodsOn(0) != 0 {
		t.Errorf("state left after unbind: %v %v %d", c.UnitCounts(), c.Requested(0), c.PodsOn(0))
	}
}
