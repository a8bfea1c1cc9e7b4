package scenario

import (
	"go.yaml.in/yaml/v3"

	"github.com/kueueplay/kueueplay/core"
)

// namespace decodes a v1 Namespace. Its labels matter for ClusterQueue
// namespaceSelectors; like the API server, the playground adds
// kubernetes.io/metadata.name: <name>.
func (d *decoder) namespace(st *state, o *rawObject) {
	m, rest := d.begin(o, false, nameLabel)
	d.annotations(m, annNone, o.kind)
	for _, p := range rest {
		switch p.name {
		case "spec":
			for _, q := range d.pairs(p.val, "spec") {
				if q.name != "finalizers" {
					d.unknown(q, "spec")
				}
			}
		case "status":
		default:
			d.unknown(p, "")
		}
	}
	if m.name == "" || !d.register(st, "Namespace", "", m.name, m.nameNode, "") {
		return
	}
	st.namespaces = append(st.namespaces, core.Namespace{
		Name:   m.name,
		Labels: nsLabels(m.name, m.labels),
		Pos:    d.pos(o.node),
	})
}

// node decodes a v1 Node: labels, spec.taints, spec.unschedulable and
// status.allocatable (status.capacity when allocatable is absent).
func (d *decoder) node(st *state, o *rawObject) {
	m, rest := d.begin(o, false, nameSubdomain)
	d.annotations(m, annNone, o.kind)
	nd := core.Node{Name: m.name, Labels: m.labels, Pos: d.pos(o.node)}
	var allocatable, capacity rlist
	haveAlloc, haveCap := false, false
	for _, p := range rest {
		switch p.name {
		case "spec":
			for _, q := range d.pairs(p.val, "spec") {
				fp := join("spec", q.name)
				switch q.name {
				case "taints":
					nd.Taints, _ = d.taints(q.val, fp)
				case "unschedulable":
					nd.Unschedulable, _ = d.boolean(q.val, fp)
				case "podCIDR", "podCIDRs", "providerID", "configSource", "externalID":
					// Real NodeSpec fields the playground does not interpret.
				default:
					d.unknown(q, "spec")
				}
			}
		case "status":
			for _, q := range d.pairs(p.val, "status") {
				fp := join("status", q.name)
				switch q.name {
				case "allocatable":
					allocatable, haveAlloc = d.resourceList(q.val, fp), !isNull(q.val)
				case "capacity":
					capacity, haveCap = d.resourceList(q.val, fp), !isNull(q.val)
				default:
					// Other observed state (conditions, addresses, nodeInfo, ...).
				}
			}
		default:
			d.unknown(p, "")
		}
	}
	switch {
	case haveAlloc:
		nd.Allocatable = allocatable
	case haveCap:
		nd.Allocatable = capacity
	default:
		nd.Allocatable = map[core.ResourceName]core.Amount{}
		d.warnf(o.node, "status.allocatable", "Node has neither status.allocatable nor status.capacity: no pod fits on it")
	}
	if m.name == "" || !d.register(st, "Node", "", m.name, m.nameNode, "") {
		return
	}
	st.nodes = append(st.nodes, nd)
}

// resourcePolicy decodes a ResourcePolicy in the shape of KEP #594
// (scheduler-plugins PR #594): podSelector, matchLabelKeys,
// matchPolicy.ignoreTerminatingPod, strategy and units. No upstream
// validation exists; the playground requires strategy, at least one unit,
// non-negative priority and maxCount, and unique unit names.
func (d *decoder) resourcePolicy(st *state, o *rawObject) {
	m, rest := d.begin(o, true, nameSubdomain)
	d.annotations(m, annNone, o.kind)
	rp := core.ResourcePolicy{Namespace: m.namespace, Name: m.name, Pos: d.pos(o.node)}
	var specNode *yaml.Node
	specNode, _ = d.specAndStatus(rest)
	haveStrategy, haveUnits := false, false
	for _, p := range d.pairs(specNode, "spec") {
		fp := join("spec", p.name)
		switch p.name {
		case "podSelector":
			if sel := d.labelSelector(p.val, fp, ""); sel != nil {
				rp.PodSelector = *sel
			}
		case "matchLabelKeys":
			keys, nodes := d.stringList(p.val, fp)
			seen := map[string]bool{}
			for i, k := range keys {
				if msg := checkQualifiedName(k); msg != "" {
					d.errorf(nodes[i], index(fp, i), "invalid label key: %s", msg)
					continue
				}
				if seen[k] {
					d.errorf(nodes[i], index(fp, i), "duplicate label key %q", k)
					continue
				}
				seen[k] = true
				rp.MatchLabelKeys = append(rp.MatchLabelKeys, k)
			}
		case "matchPolicy":
			for _, q := range d.pairs(p.val, fp) {
				if q.name == "ignoreTerminatingPod" {
					rp.IgnoreTerminatingPod, _ = d.boolean(q.val, join(fp, q.name))
				} else {
					d.unknown(q, fp)
				}
			}
		case "strategy":
			if s, ok := d.strEnum(p.val, fp, string(core.ResourcePolicyRequired), string(core.ResourcePolicyPrefer)); ok {
				rp.Strategy = core.ResourcePolicyStrategy(s)
			}
			haveStrategy = !isNull(p.val)
		case "units":
			haveUnits = true
			if rp.Units = d.units(p.val, fp); len(rp.Units) == 0 {
				d.errorf(orNode(p.val, p.key), fp, "must have at least 1 unit")
			}
		default:
			d.unknown(p, "spec")
		}
	}
	if isNull(specNode) {
		d.required(o.node, "", "spec")
	} else {
		if !haveStrategy {
			d.errorf(specNode, "spec.strategy", "missing required field \"strategy\": set required or prefer (the KEP gives no default, so scenario files must choose)")
		}
		if !haveUnits {
			d.required(specNode, "spec", "units")
		}
	}
	if m.name == "" || !d.register(st, "ResourcePolicy", m.namespace, m.name, m.nameNode, "") {
		return
	}
	st.policies = append(st.policies, rp)
}

// units decodes spec.units of a ResourcePolicy.
func (d *decoder) units(n *yaml.Node, path string) []core.ResourcePolicyUnit {
	var out []core.ResourcePolicyUnit
	names := map[string]bool{}
	for i, item := range d.items(n, path) {
		ip := index(path, i)
		u := core.ResourcePolicyUnit{Pos: d.pos(item)}
		for _, p := range d.pairs(item, ip) {
			fp := join(ip, p.name)
			switch p.name {
			case "name":
				if s, ok := d.str(p.val, fp); ok && s != "" {
					if len(s) > MaxNameLength {
						d.errorf(p.val, fp, "must be no more than %d characters, got %d", MaxNameLength, len(s))
					} else if names[s] {
						d.errorf(p.val, fp, "duplicate unit name %q", s)
					}
					names[s] = true
					u.Name = s
				}
			case "priority":
				if v, ok := d.int32v(p.val, fp, 0); ok {
					u.Priority = v
				}
			case "maxCount":
				if v, ok := d.int32v(p.val, fp, 0); ok {
					u.MaxCount = &v
				}
			case "nodeSelector":
				if sel := d.labelSelector(p.val, fp, "nodeSelector is a label selector (matchLabels, matchExpressions), as in KEP #594"); sel != nil {
					u.NodeSelector = *sel
				}
			default:
				d.unknown(p, ip)
			}
		}
		if !isNull(item) {
			out = append(out, u)
		}
	}
	return out
}
