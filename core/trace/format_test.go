package trace_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core/trace"
)

// TestFormatPlacement checks the placement layer's lines of Format: the
// policies in the header, the scale-downs and placements of a step, and
// the node, unit and pending rows, which are printed only when they
// changed since the previous step. Only those lines and the step headers
// are compared.
func TestFormatPlacement(t *testing.T) {
	cases := map[string]struct {
		trace *trace.Trace
		want  []string
	}{
		"no placement layer prints no placement line": {
			trace: makeTrace().Step(makeStep()).Obj(),
			want:  []string{"#000 t=0s cycle=0 initial"},
		},
		"policies and their units in the header": {
			trace: makeTrace().
				Policy(makePolicy("shop/web", "required").PodSelector("app=web").MatchLabelKeys("a", "b").IgnoreTerminating().
					Unit("static", 100, ptr(4), "pool=static").
					Unit("#1", 1, nil, "").Obj()).
				Policy(makePolicy("team/rp", "prefer").Obj()).
				Obj(),
			want: []string{
				`# policy shop/web strategy=required podSelector="app=web" matchLabelKeys=a,b ignoreTerminatingPod=true`,
				`#   unit static priority=100 maxCount=4 nodeSelector="pool=static"`,
				`#   unit #1 priority=1 maxCount=unlimited nodeSelector=""`,
				`# policy team/rp strategy=prefer podSelector=""`,
			},
		},
		"bound pod: scores, skipped plugin, chosen node, rejected nodes, omitted nodes": {
			trace: makeTrace().Step(makeStep().Place(
				makePlacement("shop/web-0", "shop/web").Policy("shop/web").Bound("static-1", "static", ptr(100)).
					Weight("NodeAffinity", 2).Weight("ResourcePolicy", 5).Feasible(2).Omitted(3).
					Message("bound to static-1: total score 600").
					Scored("static-1", "static", 600, skipped("NodeAffinity"), score("ResourcePolicy", 100, 100, 500)).
					Scored("static-2", "static", 500, skipped("NodeAffinity"), score("ResourcePolicy", 80, 100, 500)).
					Rejected("spot-1", "NodeResourcesFit", "Insufficient cpu", "Insufficient memory").Obj())).Obj(),
			want: []string{
				"#000 t=0s cycle=0 initial",
				"  place     shop/web-0 -> static-1 owner=shop/web policy=shop/web unit=static cost=100 feasible=2/6: bound to static-1: total score 600",
				"    verdict static-1 unit=static total=600 [chosen]: NodeAffinity=skipped ResourcePolicy=100/100*5=500",
				"    verdict static-2 unit=static total=500: NodeAffinity=skipped ResourcePolicy=80/100*5=500",
				"    verdict spot-1 rejected NodeResourcesFit: Insufficient cpu; Insufficient memory",
				"    (+3 more nodes)",
			},
		},
		"one feasible node is not scored": {
			trace: makeTrace().Step(makeStep().Place(
				makePlacement("team/a-main-0", "team/a").Bound("a1", "", nil).Feasible(1).Message("bound to a1, the only node").
					Unscored("a1", "").Rejected("b1", "NodeAffinity", "node(s) didn't match").Obj())).Obj(),
			want: []string{
				"#000 t=0s cycle=0 initial",
				"  place     team/a-main-0 -> a1 owner=team/a feasible=1/2: bound to a1, the only node",
				"    verdict a1 feasible, not scored [chosen]",
				"    verdict b1 rejected NodeAffinity: node(s) didn't match",
			},
		},
		"pending pod with its policy group": {
			trace: makeTrace().Step(makeStep().Place(
				makePlacement("team/a-main-2", "team/a").Policy("team/rp").Group("job=a").
					Message("0/1 nodes are available: 1 node(s) were in units that reached maxCount.").
					Rejected("od-1", "ResourcePolicy", "node(s) were in units that reached maxCount").Obj())).Obj(),
			want: []string{
				"#000 t=0s cycle=0 initial",
				`  place     team/a-main-2 pending owner=team/a policy=team/rp group="job=a" feasible=0/1: 0/1 nodes are available: 1 node(s) were in units that reached maxCount.`,
				"    verdict od-1 rejected ResourcePolicy: node(s) were in units that reached maxCount",
			},
		},
		"scale-down before the step's placements": {
			trace: makeTrace().Step(makeStep().
				Place(makePlacement("shop/web-6", "shop/web").Bound("spot-1", "", nil).Feasible(1).Message("bound").Unscored("spot-1", "").Obj()).
				ScaleDown(trace.ScaleDown{Owner: "shop/web", From: 6, To: 3, Removed: []trace.RemovedPod{
					{Pod: "shop/web-5", Why: "pending: unassigned pods go first"},
					{Pod: "shop/web-4", Node: "spot-2", DeletionCost: ptr(1), Why: "pod-deletion-cost 1"},
					{Pod: "shop/web-3", Node: "other", Why: "same deletion cost"},
				}})).Obj(),
			want: []string{
				"#000 t=0s cycle=0 initial",
				"  scaledown shop/web 6->3",
				"    remove  shop/web-5 pending: pending: unassigned pods go first",
				"    remove  shop/web-4 on spot-2 cost=1: pod-deletion-cost 1",
				"    remove  shop/web-3 on other: same deletion cost",
				"  place     shop/web-6 -> spot-1 owner=shop/web feasible=1/1: bound",
				"    verdict spot-1 feasible, not scored [chosen]",
			},
		},
		"every node at step 0, then only the nodes that changed; a step lists changed nodes only": {
			trace: makeTrace().
				Step(makeStep().Node(makeNode("a1").Res("cpu", "0", "4").Res("pods", "0", "110").Units("team/rp/high").Obj()).
					Node(makeNode("b1").Res("cpu", "0", "4").Obj())).
				Step(makeStep().Node(makeNode("a1").Res("cpu", "0", "4").Res("pods", "0", "110").Units("team/rp/high").Obj()).
					Node(makeNode("b1").Res("cpu", "1", "4").Pod("team/b-0", "", nil, false).Obj())).
				Step(makeStep().Node(makeNode("a1").Res("cpu", "0", "4").Res("pods", "0", "110").Units("team/rp/high").Obj()).
					Node(makeNode("b1").Res("cpu", "1", "4").Pod("team/b-0", "", nil, false).Obj())).
				Step(makeStep().Node(makeNode("a1").Res("cpu", "3", "4").Res("pods", "2", "110").Units("team/rp/high").
					Pod("shop/web-0", "team/rp/high", ptr(5), true).Pod("shop/web-1", "team/rp/high", ptr(5), false).More(1).Obj()).
					Node(makeNode("b1").Res("cpu", "1", "4").Pod("team/b-0", "", nil, false).Obj())).
				Step(makeStep().Node(makeNode("b1").Res("cpu", "1", "4").Pod("team/b-0", "", nil, false).Obj())).
				// a1 has no row: unchanged, nothing printed. b1's row repeats
				// its last line: nothing printed either.
				Step(makeStep()).
				Step(makeStep().Node(makeNode("a1").Res("cpu", "0", "4").Res("pods", "0", "110").Units("team/rp/high").Obj())).
				Obj(),
			want: []string{
				"#000 t=0s cycle=0 initial",
				"  node      a1 pods=0/110 cpu=0/4 units=team/rp/high",
				"  node      b1 pods=0 cpu=0/4",
				"#001 t=0s cycle=1 cycle",
				"  node      b1 pods=1 cpu=1/4 [team/b-0]",
				"#002 t=0s cycle=2 cycle",
				"#003 t=0s cycle=3 cycle",
				// The pods resource counts 2 pods but PodCount says 3: both are shown.
				"  node      a1 pods=3 cpu=3/4 pods=2/110 units=team/rp/high [shop/web-0 unit=team/rp/high cost=5 terminating, shop/web-1 unit=team/rp/high cost=5, +1 more]",
				"#004 t=0s cycle=4 cycle",
				"#005 t=0s cycle=5 cycle",
				"#006 t=0s cycle=6 cycle",
				"  node      a1 pods=0/110 cpu=0/4 units=team/rp/high",
			},
		},
		"unit counts that changed, and one that disappeared with count 0": {
			trace: makeTrace().
				Step(makeStep()).
				Step(makeStep().Unit("shop/web", "static", "", 2, 2, ptr(4)).Unit("team/rp", "fast", "job=a", 1, 1, nil)).
				Step(makeStep().Unit("shop/web", "static", "", 2, 2, ptr(4)).Unit("team/rp", "fast", "job=a", 1, 1, nil)).
				Step(makeStep().Unit("shop/web", "static", "", 2, 1, ptr(4)).Unit("team/rp", "fast", "job=b", 1, 1, nil)).
				Obj(),
			want: []string{
				"#000 t=0s cycle=0 initial",
				"#001 t=0s cycle=1 cycle",
				"  unit      shop/web/static count=2 live=2 maxCount=4",
				`  unit      team/rp/fast group="job=a" count=1 live=1 maxCount=unlimited`,
				"#002 t=0s cycle=2 cycle",
				"#003 t=0s cycle=3 cycle",
				"  unit      shop/web/static count=2 live=1 maxCount=4",
				`  unit      team/rp/fast group="job=b" count=1 live=1 maxCount=unlimited`,
				`  unit      team/rp/fast group="job=a" count=0 live=0 maxCount=unlimited`,
			},
		},
		"pending pods when the set or a message changed, none when it empties": {
			trace: makeTrace().
				Step(makeStep().Pending("team/a-0", "team/a", "0/2 nodes are available: 2 Insufficient cpu.")).
				Step(makeStep().Pending("team/a-0", "team/a", "0/2 nodes are available: 2 Insufficient cpu.")).
				Step(makeStep().Pending("team/a-0", "team/a", "0/2 nodes are available: 2 Insufficient cpu.").
					Pending("team/b-0", "team/b", "0/2 nodes are available: 2 Insufficient memory.")).
				// Same set in another order: unchanged.
				Step(makeStep().Pending("team/b-0", "team/b", "0/2 nodes are available: 2 Insufficient memory.").
					Pending("team/a-0", "team/a", "0/2 nodes are available: 2 Insufficient cpu.")).
				Step(makeStep().Pending("team/b-0", "team/b", "0/2 nodes are available: 1 Insufficient memory, 1 Insufficient cpu.")).
				Step(makeStep()).
				Step(makeStep()).
				Obj(),
			want: []string{
				"#000 t=0s cycle=0 initial",
				"  pending   team/a-0 (team/a): 0/2 nodes are available: 2 Insufficient cpu.",
				"#001 t=0s cycle=1 cycle",
				"#002 t=0s cycle=2 cycle",
				"  pending   team/a-0 (team/a): 0/2 nodes are available: 2 Insufficient cpu.",
				"  pending   team/b-0 (team/b): 0/2 nodes are available: 2 Insufficient memory.",
				"#003 t=0s cycle=3 cycle",
				"#004 t=0s cycle=4 cycle",
				"  pending   team/b-0 (team/b): 0/2 nodes are available: 1 Insufficient memory, 1 Insufficient cpu.",
				"#005 t=0s cycle=5 cycle",
				"  pending   none",
				"#006 t=0s cycle=6 cycle",
			},
		},
		"a capped pending list says how many more, and a change in the count alone prints": {
			trace: makeTrace().
				Step(makeStep().Pending("team/a-0", "team/a", "full").PendingMore(3)).
				Step(makeStep().Pending("team/a-0", "team/a", "full").PendingMore(2)).
				Obj(),
			want: []string{
				"#000 t=0s cycle=0 initial",
				"  pending   team/a-0 (team/a): full",
				"  pending   (+3 more)",
				"#001 t=0s cycle=1 cycle",
				"  pending   team/a-0 (team/a): full",
				"  pending   (+2 more)",
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var b strings.Builder
			if err := trace.Format(&b, tc.trace); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, placementLines(b.String())); diff != "" {
				t.Errorf("Format placement lines (-want +got):\n%s", diff)
			}
		})
	}
}

// placementLines keeps the step headers and the placement layer's lines.
func placementLines(text string) []string {
	prefixes := []string{"#0", "# policy ", "#   unit ", "  place ", "    verdict ", "    (+", "  scaledown ", "    remove ", "  node ", "  unit ", "  pending "}
	var out []string
	for _, l := range strings.Split(text, "\n") {
		for _, p := range prefixes {
			if strings.HasPrefix(l, p) {
				out = append(out, l)
				break
			}
		}
	}
	return out
}

func ptr(v int32) *int32 { return &v }

type traceWrapper struct{ trace.Trace }

func makeTrace() *traceWrapper {
	return &traceWrapper{trace.Trace{Version: trace.Version, End: "quiescent"}}
}

func (w *traceWrapper) Policy(p trace.Policy) *traceWrapper {
	w.Policies = append(w.Policies, p)
	return w
}

// Step appends a step, numbered after the ones before it: step 0 is the
// initial step, the others cycles.
func (w *traceWrapper) Step(s *stepWrapper) *traceWrapper {
	st := s.Step
	st.Index, st.Kind, st.Cycle = len(w.Steps), trace.StepInitial, len(w.Steps)
	if st.Index > 0 {
		st.Kind = trace.StepCycle
	}
	w.Steps = append(w.Steps, st)
	return w
}

func (w *traceWrapper) Obj() *trace.Trace { return &w.Trace }

type policyWrapper struct{ trace.Policy }

func makePolicy(name, strategy string) *policyWrapper {
	return &policyWrapper{trace.Policy{Policy: name, Strategy: strategy}}
}

func (w *policyWrapper) PodSelector(s string) *policyWrapper {
	w.Policy.PodSelector = s
	return w
}

func (w *policyWrapper) MatchLabelKeys(keys ...string) *policyWrapper {
	w.Policy.MatchLabelKeys = keys
	return w
}

func (w *policyWrapper) IgnoreTerminating() *policyWrapper {
	w.Policy.IgnoreTerminatingPod = true
	return w
}

func (w *policyWrapper) Unit(name string, priority int32, maxCount *int32, nodeSelector string) *policyWrapper {
	w.Units = append(w.Units, trace.PolicyUnit{Unit: name, Priority: priority, MaxCount: maxCount, NodeSelector: nodeSelector})
	return w
}

func (w *policyWrapper) Obj() trace.Policy { return w.Policy }

type stepWrapper struct{ trace.Step }

func makeStep() *stepWrapper { return &stepWrapper{} }

func (w *stepWrapper) Place(p trace.Placement) *stepWrapper {
	w.Placements = append(w.Placements, p)
	return w
}

func (w *stepWrapper) ScaleDown(sd trace.ScaleDown) *stepWrapper {
	w.ScaleDowns = append(w.ScaleDowns, sd)
	return w
}

func (w *stepWrapper) Node(n trace.NodeState) *stepWrapper {
	w.Nodes = append(w.Nodes, n)
	return w
}

func (w *stepWrapper) Unit(policy, unit, group string, count, live int, maxCount *int32) *stepWrapper {
	w.UnitCounts = append(w.UnitCounts, trace.UnitCount{Policy: policy, Unit: unit, Group: group, Count: count, Live: live, MaxCount: maxCount})
	return w
}

func (w *stepWrapper) Pending(pod, owner, msg string) *stepWrapper {
	w.PendingPods = append(w.PendingPods, trace.PendingPod{Pod: pod, Owner: owner, Message: msg})
	w.PendingCount = len(w.PendingPods)
	return w
}

// PendingMore says n more pods are pending than the list holds.
func (w *stepWrapper) PendingMore(n int) *stepWrapper {
	w.PendingCount = len(w.PendingPods) + n
	return w
}

type placementWrapper struct{ trace.Placement }

func makePlacement(pod, owner string) *placementWrapper {
	return &placementWrapper{trace.Placement{Pod: pod, Owner: owner}}
}

func (w *placementWrapper) Policy(p string) *placementWrapper {
	w.Placement.Policy = p
	return w
}

func (w *placementWrapper) Group(g string) *placementWrapper {
	w.Placement.Group = g
	return w
}

func (w *placementWrapper) Bound(node, unit string, cost *int32) *placementWrapper {
	w.Node, w.Unit, w.DeletionCost = node, unit, cost
	return w
}

func (w *placementWrapper) Message(m string) *placementWrapper {
	w.Placement.Message = m
	return w
}

func (w *placementWrapper) Weight(plugin string, weight int) *placementWrapper {
	w.Weights = append(w.Weights, trace.PluginWeight{Plugin: plugin, Weight: weight})
	return w
}

func (w *placementWrapper) Feasible(n int) *placementWrapper {
	w.Placement.Feasible = n
	return w
}

func (w *placementWrapper) Omitted(n int) *placementWrapper {
	w.NodesOmitted = n
	return w
}

func (w *placementWrapper) Scored(node, unit string, total int64, scores ...trace.PluginScore) *placementWrapper {
	w.Placement.Scored = true
	w.Nodes = append(w.Nodes, trace.NodeVerdict{Node: node, Unit: unit, Scores: scores, Total: total})
	return w
}

func (w *placementWrapper) Unscored(node, unit string) *placementWrapper {
	w.Nodes = append(w.Nodes, trace.NodeVerdict{Node: node, Unit: unit})
	return w
}

func (w *placementWrapper) Rejected(node, filter string, reasons ...string) *placementWrapper {
	w.Nodes = append(w.Nodes, trace.NodeVerdict{Node: node, Filter: filter, Reasons: reasons})
	return w
}

func (w *placementWrapper) Obj() trace.Placement { return w.Placement }

func score(plugin string, raw, normalized, weighted int64) trace.PluginScore {
	return trace.PluginScore{Plugin: plugin, Raw: raw, Normalized: normalized, Weighted: weighted}
}

func skipped(plugin string) trace.PluginScore {
	return trace.PluginScore{Plugin: plugin, Skipped: true}
}

type nodeWrapper struct{ trace.NodeState }

func makeNode(name string) *nodeWrapper { return &nodeWrapper{trace.NodeState{Node: name}} }

// Res adds a resource with its requested and allocatable amounts as text;
// the pods resource's amount is its text.
func (w *nodeWrapper) Res(name, requested, allocatable string) *nodeWrapper {
	q := func(text string) trace.Quantity {
		var n int64
		if name == "pods" {
			n, _ = strconv.ParseInt(text, 10, 64)
		}
		return trace.Quantity{Resource: name, Amount: n, Text: text}
	}
	w.Resources = append(w.Resources, trace.NodeResource{Resource: name, Requested: q(requested), Allocatable: q(allocatable)})
	return w
}

func (w *nodeWrapper) Units(units ...string) *nodeWrapper {
	w.NodeState.Units = units
	return w
}

func (w *nodeWrapper) Pod(pod, unit string, cost *int32, terminating bool) *nodeWrapper {
	w.Pods = append(w.Pods, trace.NodePod{Pod: pod, Unit: unit, DeletionCost: cost, Terminating: terminating})
	w.PodCount++
	return w
}

// More counts pods on the node beyond the listed ones.
func (w *nodeWrapper) More(n int) *nodeWrapper {
	w.PodCount += n
	return w
}

func (w *nodeWrapper) Obj() trace.NodeState { return w.NodeState }
