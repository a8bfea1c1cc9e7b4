package scenario

import (
	"maps"
	"math"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kueueplay/kueueplay/core"
)

// scenarioObject decodes the kueueplay/v1alpha1 Scenario object (at most one
// per file): the simulation settings, events and expectations.
func (d *decoder) scenarioObject(st *state, o *rawObject) {
	d.obj = "Scenario"
	var m objMeta
	var rest []pair
	for _, p := range o.pairs {
		switch p.name {
		case "apiVersion", "kind":
		case "metadata":
			m = d.objectMeta(p.val, o.node, "metadata", false, nameSubdomain)
		default:
			rest = append(rest, p)
		}
	}
	if m.name != "" {
		d.obj = "Scenario/" + m.name
	}
	if st.scenarioSeen {
		if len(d.files) > 1 {
			d.errorf(o.kindNode, "kind", "the inputs of a scenario may hold at most one Scenario object between them (the first is at %s)", d.where(st.scenarioLine, o.kindNode))
		} else {
			d.errorf(o.kindNode, "kind", "a file may hold at most one Scenario object")
		}
		return
	}
	st.scenarioSeen, st.scenarioLine = true, o.kindNode.Line
	si := &st.scenario
	si.label = d.obj
	si.sc.Name = m.name
	d.annotations(m, annNone, "Scenario")
	for _, p := range rest {
		switch p.name {
		case "spec":
			d.scenarioSpec(p.val, "spec", si)
		default:
			d.unknown(p, "")
		}
	}
}

func (d *decoder) scenarioSpec(n *yaml.Node, path string, si *scenarioInfo) {
	sc := &si.sc
	for _, p := range d.pairs(n, path) {
		fp := join(path, p.name)
		switch p.name {
		case "description":
			sc.Description, _ = d.str(p.val, fp)
		case "featureGates":
			sc.Gates = d.featureGates(p.val, fp)
		case "cycleDuration":
			if v, ok := d.duration(p.val, fp); ok {
				if v <= 0 {
					d.errorf(p.val, fp, "cycleDuration must be greater than 0")
				} else {
					sc.CycleDuration = v
				}
			}
		case "terminationDelay":
			if v, ok := d.duration(p.val, fp); ok {
				sc.TerminationDelay = v
			}
		case "until":
			if v, ok := d.duration(p.val, fp); ok {
				sc.Until = &v
			}
		case "maxCycles":
			if v, ok := d.integer(p.val, fp, 1, core.MaxCyclesLimit); ok {
				sc.MaxCycles = int(v)
			}
		case "events":
			for i, item := range d.items(p.val, fp) {
				if ev, ok := d.event(item, index(fp, i), si); ok {
					sc.Events = append(sc.Events, ev)
				}
			}
		case "expect":
			for i, item := range d.items(p.val, fp) {
				if ex, ok := d.expectation(item, index(fp, i), si); ok {
					sc.Expect = append(sc.Expect, ex)
				}
			}
		case "placement":
			sc.Placement = d.placement(p.val, fp)
		default:
			d.unknown(p, path)
		}
	}
}

// maxGateSuggestions is how many unknown gate names of one file get a
// "did you mean" suggestion (an edit distance to every gate each).
const maxGateSuggestions = 20

// featureGates decodes a featureGates mapping (name -> bool) of the
// Scenario object or of a Kueue Configuration. Every gate Kueue v0.16.1
// knows is accepted; setting one to a value the engine does not simulate
// is a warning at the entry (core.GateNote). It returns nil when no gate
// is set.
func (d *decoder) featureGates(n *yaml.Node, path string) core.FeatureGates {
	var out core.FeatureGates
	for _, q := range d.pairs(n, path) {
		qp := key(path, q.name)
		validate := core.ValidateGateName
		if d.unknownGates >= maxGateSuggestions {
			validate = core.ValidateGateNameNoSuggestion
		}
		if err := validate(q.name); err != nil {
			d.unknownGates++
			d.errorf(q.key, qp, "%v", err)
			continue
		}
		v, ok := d.boolean(q.val, qp)
		if !ok {
			continue
		}
		if out == nil {
			out = core.FeatureGates{}
		}
		out[q.name] = v
		if note := core.GateNote(q.name, v); note != "" {
			d.warnf(q.key, qp, "%s", note)
		}
	}
	return out
}

// workloadRef normalises a workload name written in an event or
// expectation: "namespace/name", or a bare name in namespace default. The
// workload's existence is checked in link.
func (d *decoder) workloadRef(si *scenarioInfo, s string, n *yaml.Node, path string) (string, bool) {
	return d.objectRef(si, s, n, path, refWorkload)
}

// objectRef normalises a reference like workloadRef; kind says what it may
// name (a workload, a pod owner, or a Deployment or ReplicaSet).
func (d *decoder) objectRef(si *scenarioInfo, s string, n *yaml.Node, path string, kind refKind) (string, bool) {
	ns, name, found := strings.Cut(s, "/")
	if !found {
		ns, name = defaultNamespace, s
	}
	if ns == "" || name == "" || strings.Contains(name, "/") {
		what := "workload"
		switch kind {
		case refOwner:
			what = "workload, Deployment or ReplicaSet"
		case refScalable:
			what = "Deployment or ReplicaSet"
		}
		d.errorf(n, path, "invalid %s reference %q: write namespace/name (or a bare name for namespace default)", what, clip(s))
		return "", false
	}
	k := ns + "/" + name
	si.refs = append(si.refs, wlRef{name: k, kind: kind, node: n, path: path})
	return k, true
}

// event decodes one spec.events entry: {at: <duration>, finish|delete:
// <workload>} or {at: <duration>, scale: <Deployment or ReplicaSet>,
// replicas: <n>}.
func (d *decoder) event(n *yaml.Node, path string, si *scenarioInfo) (core.Event, bool) {
	ev := core.Event{Pos: d.pos(n)}
	haveAt, actions, haveScale := false, 0, false
	var replicasKey, replicasNode *yaml.Node
	ok := true
	for _, p := range d.pairs(n, path) {
		fp := join(path, p.name)
		switch p.name {
		case "at":
			if v, good := d.duration(p.val, fp); good {
				ev.At, haveAt = v, true
			} else {
				haveAt, ok = true, false
			}
		case string(core.EventFinish), string(core.EventDelete), string(core.EventScale):
			actions++
			scale := p.name == string(core.EventScale)
			haveScale = haveScale || scale
			s, good := d.str(p.val, fp)
			if !good {
				if isNull(p.val) {
					d.errorf(orNode(p.val, p.key), fp, "expected a namespace/name, got null")
				}
				ok = false
				continue
			}
			kind := refWorkload
			if scale {
				kind = refScalable
			}
			k, good := d.objectRef(si, s, p.val, fp, kind)
			ev.Kind, ok = core.EventKind(p.name), ok && good
			if scale {
				ev.Target = k
			} else {
				ev.Workload = k
			}
		case "replicas":
			replicasKey = p.key
			if isNull(p.val) {
				continue
			}
			replicasNode = p.val
			if v, good := d.replicaCount(p.val, fp); good {
				ev.Replicas = v
			} else {
				ok = false
			}
		default:
			d.unknown(p, path)
		}
	}
	if isNull(n) {
		return ev, false
	}
	if !haveAt {
		d.required(n, path, "at")
		ok = false
	}
	if actions != 1 {
		d.errorf(n, path, "an event needs exactly one of finish, delete or scale, got %d", actions)
		ok = false
	}
	switch {
	case haveScale && replicasNode == nil:
		d.errorf(orNode(replicasKey, n), join(path, "replicas"), "missing required field \"replicas\": a scale event sets the new spec.replicas")
		ok = false
	case !haveScale && replicasKey != nil:
		d.errorf(replicasKey, join(path, "replicas"), "replicas belongs to a scale event; finish and delete take none")
		ok = false
	}
	if ok && ev.Kind == core.EventScale {
		si.scales = append(si.scales, scaleRef{target: ev.Target, replicas: ev.Replicas, node: replicasNode, path: join(path, "replicas")})
	}
	return ev, ok
}

// expectation decodes one spec.expect entry.
func (d *decoder) expectation(n *yaml.Node, path string, si *scenarioInfo) (core.Expectation, bool) {
	ex := core.Expectation{Pos: d.pos(n)}
	points := 0
	ok := true
	list := func(p pair, fp string) []string {
		var out []string
		names, nodes := d.stringList(p.val, fp)
		for i, s := range names {
			k, good := d.workloadRef(si, s, nodes[i], index(fp, i))
			if !good {
				ok = false
				continue
			}
			out = append(out, k)
		}
		if out == nil && !isNull(p.val) {
			out = []string{}
		}
		return out
	}
	for _, p := range d.pairs(n, path) {
		fp := join(path, p.name)
		switch p.name {
		case "at":
			points++
			s, good := d.scalarText(p.val, fp, "end or a duration")
			if !good {
				ok = false
				continue
			}
			if s == "end" {
				ex.When.End = true
				continue
			}
			if v, good := d.parseDuration(p.val, fp, s); good {
				ex.When.At = &v
			} else {
				ok = false
			}
		case "cycle":
			points++
			if v, good := d.integer(p.val, fp, 1, core.MaxCyclesLimit); good {
				c := int(v)
				ex.When.Cycle = &c
			} else {
				ok = false
			}
		case "admitted":
			ex.Admitted = d.admittedExpectation(p.val, fp, si, &ok)
		case "pending":
			ex.Pending = list(p, fp)
		case "terminating":
			ex.Terminating = list(p, fp)
		case "finished":
			ex.Finished = list(p, fp)
		case "deleted":
			ex.Deleted = list(p, fp)
		case "preempted":
			ex.Preempted = list(p, fp)
		case "messages":
			// A key may name a Deployment or ReplicaSet too: its message
			// is the reason of its first pending pod.
			msgs, keys, _ := d.stringMap(p.val, fp)
			if msgs != nil {
				ex.Messages = map[string]string{}
			}
			// In key order, so that which of two spellings of one key is
			// reported does not depend on map order.
			for _, raw := range slices.Sorted(maps.Keys(msgs)) {
				k, good := d.objectRef(si, raw, keys[raw], key(fp, raw), refOwner)
				if !good {
					ok = false
					continue
				}
				if _, dup := ex.Messages[k]; dup {
					d.errorf(keys[raw], key(fp, raw), "%q is listed twice", k)
					ok = false
					continue
				}
				ex.Messages[k] = msgs[raw]
			}
		case "pods":
			ex.Pods = d.podsExpectation(p.val, fp, si, &ok)
		default:
			d.unknown(p, path)
		}
	}
	if isNull(n) {
		return ex, false
	}
	if points != 1 {
		d.errorf(n, path, "an expectation needs exactly one of at (end or a duration) or cycle, got %d", points)
		ok = false
	}
	return ex, ok
}

// admittedExpectation decodes expect[].admitted: workload -> pod set ->
// resource -> flavor; an empty or null value means "admitted, flavors not
// checked".
func (d *decoder) admittedExpectation(n *yaml.Node, path string, si *scenarioInfo, ok *bool) map[string]map[string]map[core.ResourceName]core.FlavorName {
	if isNull(n) {
		return nil
	}
	out := map[string]map[string]map[core.ResourceName]core.FlavorName{}
	for _, p := range d.pairs(n, path) {
		fp := key(path, p.name)
		k, good := d.workloadRef(si, p.name, p.key, fp)
		if !good {
			*ok = false
			continue
		}
		if _, dup := out[k]; dup {
			d.errorf(p.key, fp, "workload %q is listed twice", k)
			*ok = false
			continue
		}
		podSets := map[string]map[core.ResourceName]core.FlavorName{}
		for _, q := range d.pairs(p.val, fp) {
			qp := join(fp, q.name)
			flavors := map[core.ResourceName]core.FlavorName{}
			m, _, _ := d.stringMap(q.val, qp)
			for r, f := range m {
				flavors[core.ResourceName(r)] = core.FlavorName(f)
			}
			podSets[q.name] = flavors
		}
		out[k] = podSets
	}
	return out
}

// podsExpectation decodes expect[].pods: owner (a workload, Deployment or
// ReplicaSet) -> node name -> the exact number of its placed pods there. An
// empty or null inner value means none of the owner's pods is placed. The
// owners and nodes are checked in link.
func (d *decoder) podsExpectation(n *yaml.Node, path string, si *scenarioInfo, ok *bool) map[string]map[string]int {
	if isNull(n) {
		return nil
	}
	out := map[string]map[string]int{}
	for _, p := range d.pairs(n, path) {
		fp := key(path, p.name)
		k, good := d.objectRef(si, p.name, p.key, fp, refOwner)
		if !good {
			*ok = false
			continue
		}
		if _, dup := out[k]; dup {
			d.errorf(p.key, fp, "%q is listed twice", k)
			*ok = false
			continue
		}
		nodes := map[string]int{}
		for _, q := range d.pairs(p.val, fp) {
			qp := key(fp, q.name)
			si.nodeRefs = append(si.nodeRefs, ref{name: q.name, node: q.key, path: qp})
			if isNull(q.val) {
				d.errorf(orNode(q.val, q.key), qp, "expected a pod count (an integer from 0), got null")
				*ok = false
				continue
			}
			v, good := d.integer(q.val, qp, 0, math.MaxInt32)
			if !good {
				*ok = false
				continue
			}
			nodes[q.name] = int(v)
		}
		out[k] = nodes
	}
	return out
}

// placement decodes spec.placement: weights of the score plugins.
func (d *decoder) placement(n *yaml.Node, path string) *core.PlacementSpec {
	if isNull(n) {
		return nil
	}
	ps := &core.PlacementSpec{}
	for _, p := range d.pairs(n, path) {
		fp := join(path, p.name)
		switch p.name {
		case "weights":
			for _, q := range d.pairs(p.val, fp) {
				qp := key(fp, q.name)
				plugin := core.ScorePlugin(q.name)
				if _, known := core.DefaultPluginWeight(plugin); !known {
					names := make([]string, 0, len(core.ScorePlugins()))
					for _, sp := range core.ScorePlugins() {
						names = append(names, string(sp))
					}
					d.errorf(q.key, qp, "unknown score plugin %q (known: %s)", q.name, strings.Join(names, ", "))
					continue
				}
				if v, ok := d.integer(q.val, qp, 0, core.MaxPluginWeight); ok {
					if ps.Weights == nil {
						ps.Weights = map[core.ScorePlugin]int{}
					}
					ps.Weights[plugin] = int(v)
				}
			}
		default:
			d.unknown(p, path)
		}
	}
	return ps
}
