package scenario

import (
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
		d.errorf(o.kindNode, "kind", "a file may hold at most one Scenario object")
		return
	}
	st.scenarioSeen = true
	si := &st.scenario
	si.label = d.obj
	si.sc.Name = m.name
	d.annotations(m, false, "Scenario")
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
			for _, q := range d.pairs(p.val, fp) {
				qp := key(fp, q.name)
				if err := core.ValidateGateName(q.name); err != nil {
					d.errorf(q.key, qp, "%v", err)
					continue
				}
				if v, ok := d.boolean(q.val, qp); ok {
					if sc.Gates == nil {
						sc.Gates = core.FeatureGates{}
					}
					sc.Gates[q.name] = v
				}
			}
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

// workloadRef normalises a workload name written in an event or
// expectation: "namespace/name", or a bare name in namespace default. The
// workload's existence is checked in link.
func (d *decoder) workloadRef(si *scenarioInfo, s string, n *yaml.Node, path string) (string, bool) {
	ns, name, found := strings.Cut(s, "/")
	if !found {
		ns, name = defaultNamespace, s
	}
	if ns == "" || name == "" || strings.Contains(name, "/") {
		d.errorf(n, path, "invalid workload reference %q: write namespace/name (or a bare name for namespace default)", clip(s))
		return "", false
	}
	k := ns + "/" + name
	si.refs = append(si.refs, wlRef{name: k, node: n, path: path})
	return k, true
}

// event decodes one spec.events entry: {at: <duration>, finish|delete: <workload>}.
func (d *decoder) event(n *yaml.Node, path string, si *scenarioInfo) (core.Event, bool) {
	ev := core.Event{Pos: d.pos(n)}
	haveAt, actions := false, 0
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
		case string(core.EventFinish), string(core.EventDelete):
			actions++
			s, good := d.str(p.val, fp)
			if !good {
				ok = false
				continue
			}
			k, good := d.workloadRef(si, s, p.val, fp)
			ev.Kind, ev.Workload, ok = core.EventKind(p.name), k, ok && good
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
		d.errorf(n, path, "an event needs exactly one of finish or delete, got %d", actions)
		ok = false
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
		case "preempted":
			ex.Preempted = list(p, fp)
		case "messages":
			msgs, keys, _ := d.stringMap(p.val, fp)
			if msgs != nil {
				ex.Messages = map[string]string{}
			}
			for raw, msg := range msgs {
				k, good := d.workloadRef(si, raw, keys[raw], key(fp, raw))
				if !good {
					ok = false
					continue
				}
				if _, dup := ex.Messages[k]; dup {
					d.errorf(keys[raw], key(fp, raw), "workload %q is listed twice", k)
					ok = false
					continue
				}
				ex.Messages[k] = msg
			}
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
