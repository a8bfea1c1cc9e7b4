package view

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core/trace"
)

// Builders for placement traces.

func i32(v int32) *int32 { return &v }

func node(name string, units ...string) trace.NodeState {
	return trace.NodeState{Node: name, Units: units, Resources: []trace.NodeResource{{
		Resource:    "cpu",
		Allocatable: trace.Quantity{Resource: "cpu", Amount: 4000, Text: "4"},
		Requested:   trace.Quantity{Resource: "cpu", Amount: 0, Text: "0"},
	}}}
}

func withPods(n trace.NodeState, pods ...trace.NodePod) trace.NodeState {
	n.Pods, n.PodCount = pods, len(pods)
	return n
}

func pod(name, unit string, cost int32) trace.NodePod {
	return trace.NodePod{Pod: "ns/" + name, Owner: "ns/web", Unit: unit, DeletionCost: i32(cost)}
}

func placed(pod, node string) trace.Placement {
	return trace.Placement{Pod: "ns/" + pod, Owner: "ns/web", Node: node, Message: "bound to " + node + ": total score 5, ahead of b (3) among 2 feasible nodes"}
}

func pstep(nodes []trace.NodeState, placements ...trace.Placement) trace.Step {
	return trace.Step{Nodes: nodes, Placements: placements}
}

// policy is ns/rp with units (name, priority, maxCount or -1 for none).
func policy(units ...trace.PolicyUnit) trace.Policy {
	return trace.Policy{Policy: "ns/rp", Strategy: "required", PodSelector: "app=web", Units: units}
}

func unit(name string, prio int32, maxCount int32) trace.PolicyUnit {
	u := trace.PolicyUnit{Unit: name, Priority: prio, NodeSelector: "tier=" + name}
	if maxCount >= 0 {
		u.MaxCount = i32(maxCount)
	}
	return u
}

func clusterAt(tr *trace.Trace, i int) *Cluster { return New(tr).Step(i).Cluster }

// groupNodes is each unit's key with its node names, then "outside".
func groupNodes(c *Cluster) map[string][]string {
	out := map[string][]string{}
	for _, p := range c.Policies {
		for _, u := range p.Units {
			out[u.Key] = []string{}
			for _, n := range u.Nodes {
				out[u.Key] = append(out[u.Key], n.Node)
			}
		}
	}
	for _, n := range c.Outside {
		out["outside"] = append(out["outside"], n.Node)
	}
	return out
}

func TestClusterGrouping(t *testing.T) {
	tests := []struct {
		name      string
		policies  []trace.Policy
		nodes     []trace.NodeState
		wantOrder []string // unit keys in display order
		want      map[string][]string
	}{
		{
			name:      "no policy: every node outside",
			nodes:     []trace.NodeState{node("b"), node("a")},
			wantOrder: nil,
			want:      map[string][]string{"outside": {"b", "a"}},
		},
		{
			name:      "units by priority, highest first, ties in spec order",
			policies:  []trace.Policy{policy(unit("low", 1, -1), unit("high", 5, 2), unit("mid-a", 3, -1), unit("mid-b", 3, -1))},
			nodes:     []trace.NodeState{node("n1", "ns/rp/low"), node("n2", "ns/rp/high"), node("n3", "ns/rp/mid-a"), node("n4", "ns/rp/mid-b")},
			wantOrder: []string{"ns/rp/high", "ns/rp/mid-a", "ns/rp/mid-b", "ns/rp/low"},
			want:      map[string][]string{"ns/rp/high": {"n2"}, "ns/rp/mid-a": {"n3"}, "ns/rp/mid-b": {"n4"}, "ns/rp/low": {"n1"}},
		},
		{
			name:      "a node in two units is listed under both, a node in none once outside",
			policies:  []trace.Policy{policy(unit("static", 5, 2), unit("spot", 1, -1))},
			nodes:     []trace.NodeState{node("both", "ns/rp/static", "ns/rp/spot"), node("spot-1", "ns/rp/spot"), node("free")},
			wantOrder: []string{"ns/rp/static", "ns/rp/spot"},
			want:      map[string][]string{"ns/rp/static": {"both"}, "ns/rp/spot": {"both", "spot-1"}, "outside": {"free"}},
		},
		{
			name:      "a unit no node matches is shown empty",
			policies:  []trace.Policy{policy(unit("gpu", 9, -1), unit("cpu", 1, -1))},
			nodes:     []trace.NodeState{node("c1", "ns/rp/cpu")},
			wantOrder: []string{"ns/rp/gpu", "ns/rp/cpu"},
			want:      map[string][]string{"ns/rp/gpu": {}, "ns/rp/cpu": {"c1"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := &trace.Trace{Policies: tc.policies, Steps: []trace.Step{pstep(tc.nodes)}}
			c := clusterAt(tr, 0)
			var order []string
			for _, p := range c.Policies {
				for _, u := range p.Units {
					order = append(order, u.Key)
				}
			}
			if d := cmp.Diff(tc.wantOrder, order); d != "" {
				t.Errorf("unit order (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.want, groupNodes(c)); d != "" {
				t.Errorf("nodes per group (-want +got):\n%s", d)
			}
		})
	}
}

func TestClusterNil(t *testing.T) {
	tr := &trace.Trace{Steps: []trace.Step{{}}}
	if c := clusterAt(tr, 0); c != nil {
		t.Errorf("a trace without nodes: Cluster = %+v, want nil", c)
	}
}

func TestClusterUnitCounts(t *testing.T) {
	tests := []struct {
		name     string
		ignore   bool
		maxCount int32
		counts   []trace.UnitCount
		wantText string
		wantFull bool
	}{
		{"below maxCount", false, 4, []trace.UnitCount{{Count: 2, Live: 2}}, "priority 5, 2 of 4 pods, nodes tier=static", false},
		{"at maxCount", false, 2, []trace.UnitCount{{Count: 2, Live: 2}}, "priority 5, 2 of 2 pods, nodes tier=static; full", true},
		{"terminating pods count without ignoreTerminatingPod", false, 2, []trace.UnitCount{{Count: 2, Live: 1}}, "priority 5, 2 of 2 pods (1 terminating), nodes tier=static; full", true},
		{"terminating pods do not count with ignoreTerminatingPod", true, 2, []trace.UnitCount{{Count: 2, Live: 1}}, "priority 5, 1 of 2 pods (+1 terminating, not counted), nodes tier=static", false},
		{"no pods yet", false, 3, nil, "priority 5, 0 of at most 3 pods, nodes tier=static", false},
		{"unlimited", false, -1, []trace.UnitCount{{Count: 7, Live: 7}}, "priority 5, 7 pods (no limit), nodes tier=static", false},
		{"groups: one full", false, 1, []trace.UnitCount{{Group: "job=a", Count: 1, Live: 1}, {Group: "job=b", Count: 0, Live: 0}},
			"priority 5, 2 groups, at most 1 pod each, nodes tier=static; full", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := policy(unit("static", 5, tc.maxCount))
			p.IgnoreTerminatingPod = tc.ignore
			var counts []trace.UnitCount
			for _, c := range tc.counts {
				c.Policy, c.Unit, c.MaxCount = "ns/rp", "static", p.Units[0].MaxCount
				counts = append(counts, c)
			}
			st := pstep([]trace.NodeState{node("s1", "ns/rp/static")})
			st.UnitCounts = counts
			c := clusterAt(&trace.Trace{Policies: []trace.Policy{p}, Steps: []trace.Step{st}}, 0)
			u := c.Policies[0].Units[0]
			if u.Text != tc.wantText || u.Full != tc.wantFull {
				t.Errorf("unit = %q full=%t, want %q full=%t", u.Text, u.Full, tc.wantText, tc.wantFull)
			}
		})
	}
}

func TestClusterPlacements(t *testing.T) {
	empty := []trace.NodeState{node("a"), node("b")}
	tests := []struct {
		name         string
		steps        []trace.Step
		at           int
		wantPods     []string
		wantLast     string
		wantLastStep int
		wantOmitted  int
	}{
		{
			name:         "before any placement there is no last one",
			steps:        []trace.Step{pstep(empty)},
			wantLastStep: -1,
		},
		{
			name:         "a step's own placements, in order",
			steps:        []trace.Step{pstep(empty), pstep(empty, placed("p-0", "a"), placed("p-1", "b"))},
			at:           1,
			wantPods:     []string{"ns/p-0", "ns/p-1"},
			wantLastStep: -1,
		},
		{
			name:         "a step without placements shows the latest earlier one",
			steps:        []trace.Step{pstep(empty, placed("p-0", "a")), pstep(empty, placed("p-1", "a"), placed("p-2", "b")), pstep(empty), pstep(empty)},
			at:           3,
			wantLast:     "ns/p-2",
			wantLastStep: 1,
		},
		{
			name: "more than the cap",
			steps: func() []trace.Step {
				var ps []trace.Placement
				for i := range PlacementCap + 3 {
					ps = append(ps, placed("p-"+itoa(i), "a"))
				}
				return []trace.Step{pstep(empty, ps...)}
			}(),
			wantPods: func() []string {
				var out []string
				for i := range PlacementCap {
					out = append(out, "ns/p-"+itoa(i))
				}
				return out
			}(),
			wantLastStep: -1,
			wantOmitted:  3,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := clusterAt(&trace.Trace{Steps: tc.steps}, tc.at)
			var pods []string
			for _, p := range c.Placements {
				pods = append(pods, p.Pod)
			}
			if d := cmp.Diff(tc.wantPods, pods); d != "" {
				t.Errorf("placements (-want +got):\n%s", d)
			}
			last := ""
			if c.Last != nil {
				last = c.Last.Pod
			}
			if last != tc.wantLast || c.LastStep != tc.wantLastStep || c.PlacementsOmitted != tc.wantOmitted {
				t.Errorf("last = %q at %d, omitted %d; want %q at %d, omitted %d", last, c.LastStep, c.PlacementsOmitted, tc.wantLast, tc.wantLastStep, tc.wantOmitted)
			}
		})
	}
}

func TestPlacementView(t *testing.T) {
	ws := []trace.PluginWeight{{Plugin: "NodeAffinity", Weight: 2}, {Plugin: "ResourcePolicy", Weight: 1}}
	tests := []struct {
		name         string
		p            trace.Placement
		wantSentence string
		wantRows     []VerdictRow
	}{
		{
			name: "placed: the sentence names the node once, scores in column order, a plugin without a score is skipped",
			p: trace.Placement{Pod: "ns/w-0", Node: "a", Unit: "static", DeletionCost: i32(5), Scored: true, Weights: ws, Feasible: 2,
				Message: "bound to a: total score 200, ahead of b (0) among 2 feasible nodes",
				Nodes: []trace.NodeVerdict{
					{Node: "a", Unit: "static", Total: 200, Scores: []trace.PluginScore{{Plugin: "ResourcePolicy", Raw: 100, Normalized: 100, Weighted: 100}, {Plugin: "NodeAffinity", Raw: 1, Normalized: 50, Weighted: 100}}},
					{Node: "b", Total: 0, Scores: []trace.PluginScore{{Plugin: "ResourcePolicy", Raw: 0, Normalized: 0, Weighted: 0}}},
					{Node: "c", Filter: "TaintToleration", Reasons: []string{"node(s) had untolerated taint {spot: true}", "second"}},
				}},
			wantSentence: "ns/w-0 was placed on a (unit static, deletion cost 5): total score 200, ahead of b (0) among 2 feasible nodes",
			wantRows: []VerdictRow{
				{Node: "a", Chosen: true, Feasible: true, Unit: "static", Total: 200, Scores: []trace.PluginScore{
					{Plugin: "NodeAffinity", Raw: 1, Normalized: 50, Weighted: 100}, {Plugin: "ResourcePolicy", Raw: 100, Normalized: 100, Weighted: 100}}},
				{Node: "b", Feasible: true, Scores: []trace.PluginScore{{Plugin: "NodeAffinity", Skipped: true}, {Plugin: "ResourcePolicy"}}},
				{Node: "c", Filter: "TaintToleration", Reason: "node(s) had untolerated taint {spot: true}; second"},
			},
		},
		{
			name: "pending: the FitError text",
			p: trace.Placement{Pod: "ns/w-1", Weights: ws, Message: "0/1 nodes are available: 1 Insufficient cpu.",
				Nodes: []trace.NodeVerdict{{Node: "a", Filter: "NodeResourcesFit", Reasons: []string{"Insufficient cpu"}}}},
			wantSentence: "ns/w-1 stays pending: 0/1 nodes are available: 1 Insufficient cpu.",
			wantRows:     []VerdictRow{{Node: "a", Filter: "NodeResourcesFit", Reason: "Insufficient cpu"}},
		},
		{
			name: "one feasible node: not scored, no score cells",
			p: trace.Placement{Pod: "ns/w-2", Node: "a", Weights: ws, Feasible: 1,
				Message: "bound to a, the only node that passes every filter (scoring skipped, as kube-scheduler does)",
				Nodes:   []trace.NodeVerdict{{Node: "a"}}},
			wantSentence: "ns/w-2 was placed on a, the only node that passes every filter (scoring skipped, as kube-scheduler does)",
			wantRows:     []VerdictRow{{Node: "a", Chosen: true, Feasible: true}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := placementView(&tc.p)
			if v.Sentence != tc.wantSentence {
				t.Errorf("sentence:\n got %q\nwant %q", v.Sentence, tc.wantSentence)
			}
			if d := cmp.Diff(tc.wantRows, v.Rows); d != "" {
				t.Errorf("rows (-want +got):\n%s", d)
			}
		})
	}
}

// TestClusterNodeDeltas checks that a node's state at a step is its row
// in the last step that has one, and that it is marked changed exactly at
// the steps with a row (step 0: when it has pods).
func TestClusterNodeDeltas(t *testing.T) {
	a0 := withPods(node("a"), pod("w-0", "ns/rp/s", 5))
	a1 := withPods(node("a"), pod("w-0", "ns/rp/s", 5), pod("w-1", "ns/rp/s", 5))
	steps := []trace.Step{
		pstep([]trace.NodeState{a0, node("b")}), // 0: every node
		pstep(nil),                              // 1: nothing changed
		pstep([]trace.NodeState{a1}),            // 2: a changed
		pstep(nil),                              // 3
	}
	tests := []struct {
		name        string
		at          int
		wantPods    map[string][]string
		wantChanged map[string]bool
	}{
		{"step 0: a has pods, b none", 0, map[string][]string{"a": {"ns/w-0"}, "b": nil}, map[string]bool{"a": true, "b": false}},
		{"a step without rows keeps every node's state", 1, map[string][]string{"a": {"ns/w-0"}, "b": nil}, map[string]bool{"a": false, "b": false}},
		{"a row replaces the node's state", 2, map[string][]string{"a": {"ns/w-0", "ns/w-1"}, "b": nil}, map[string]bool{"a": true, "b": false}},
		{"and holds after", 3, map[string][]string{"a": {"ns/w-0", "ns/w-1"}, "b": nil}, map[string]bool{"a": false, "b": false}},
	}
	m := New(&trace.Trace{Steps: steps})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := m.Step(tc.at).Cluster
			pods, changed := map[string][]string{}, map[string]bool{}
			for _, n := range c.Outside {
				var ps []string
				for _, p := range n.Pods {
					ps = append(ps, p.Pod)
				}
				pods[n.Node], changed[n.Node] = ps, n.Changed
			}
			if d := cmp.Diff(tc.wantPods, pods); d != "" {
				t.Errorf("pods per node (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.wantChanged, changed); d != "" {
				t.Errorf("changed (-want +got):\n%s", d)
			}
		})
	}
}

// TestClusterEveryScenario checks the view of every step of every
// scenario with Nodes against its trace: every node shown, every pod on
// its node, the pending pods and the unit counts.
func TestClusterEveryScenario(t *testing.T) {
	for _, name := range allScenarios(t) {
		if !strings.HasPrefix(name, "placement-") {
			continue
		}
		t.Run(name, func(t *testing.T) {
			tr := run(t, name, nil)
			m := New(tr)
			for i := range m.Len() {
				c := m.Step(i).Cluster
				st := &tr.Steps[i]
				if c == nil {
					t.Fatalf("step %d: no cluster view for a scenario with nodes", i)
				}
				seen := map[string]int{}
				visit := func(n NodeView) {
					seen[n.Node]++
					if len(n.Pods)+n.More != n.PodCount {
						t.Errorf("step %d node %s: %d pods + %d more != %d", i, n.Node, len(n.Pods), n.More, n.PodCount)
					}
				}
				for _, p := range c.Policies {
					for _, u := range p.Units {
						for _, n := range u.Nodes {
							visit(n)
						}
					}
				}
				for _, n := range c.Outside {
					if len(n.Units) > 0 {
						t.Errorf("step %d: node %s is outside but in units %v", i, n.Node, n.Units)
					}
					visit(n)
				}
				for _, n := range tr.Steps[0].Nodes { // step 0 lists every node
					if want := max(1, len(n.Units)); seen[n.Node] != want {
						t.Errorf("step %d: node %s shown %d times, want %d", i, n.Node, seen[n.Node], want)
					}
				}
				if len(c.Pending) != len(st.PendingPods) || c.PendingCount != st.PendingCount {
					t.Errorf("step %d: %d pending (count %d), trace has %d (count %d)", i, len(c.Pending), c.PendingCount, len(st.PendingPods), st.PendingCount)
				}
			}
		})
	}
}
