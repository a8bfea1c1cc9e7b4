package scenario

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kueueplay/kueueplay/core"
)

// Topology-aware scheduling (TAS) is not simulated. Everything in the input
// that asks for it gets the same warning (tasNotSimulated), at the place it
// is written: a Topology object, a ResourceFlavor's topologyName, a pod
// set's topologyRequest and the TAS annotations of a pod template. What the
// playground does model is Kueue's inactive state: a ClusterQueue using a
// flavor whose Topology does not exist cannot admit (TopologyNotFound, see
// core/sim's inactiveReason).

// maxTopologyLevels is TopologySpec.levels' MaxItems.
const maxTopologyLevels = 16

// labelHostname is the only level allowed below the others.
const labelHostname = "kubernetes.io/hostname"

// flavorTopology is a ResourceFlavor's topologyName reference.
type flavorTopology struct {
	ref
	// flavor is the flavor's "ResourceFlavor/name".
	flavor string
}

// tasAnnotation reports whether a pod template annotation is one of Kueue
// v0.16.1's TAS requests (apis/kueue/v1beta2/topology_types.go).
func tasAnnotation(key string) bool {
	switch key {
	case "kueue.x-k8s.io/podset-required-topology",
		"kueue.x-k8s.io/podset-preferred-topology",
		"kueue.x-k8s.io/podset-unconstrained-topology",
		"kueue.x-k8s.io/podset-slice-required-topology",
		"kueue.x-k8s.io/podset-slice-size",
		"kueue.x-k8s.io/podset-group-name":
		return true
	}
	return false
}

// tasNotSimulated is the one warning text for everything TAS; what says
// what is ignored at this place.
func tasNotSimulated(what string) string {
	return "topology-aware scheduling is not simulated: " + what +
		"; Kueue would also require the pods to fit the free capacity of the topology's Nodes, which the playground does not check"
}

// topology decodes a Kueue Topology: spec.levels, 1 to 16 unique node
// labels with kubernetes.io/hostname only as the last level (the CRD's
// schema and CEL rules).
func (d *decoder) topology(st *state, o *rawObject) {
	m, rest := d.begin(o, false, nameSubdomain)
	d.annotations(m, annNone, o.kind)
	specNode, _ := d.specAndStatus(rest)
	haveLevels := false
	for _, p := range d.pairs(specNode, "spec") {
		fp := join("spec", p.name)
		if p.name != "levels" {
			d.unknown(p, "spec")
			continue
		}
		haveLevels = true
		list := d.items(p.val, fp)
		switch {
		case len(list) == 0:
			d.errorf(orNode(p.val, p.key), fp, "must have at least 1 level")
		case len(list) > maxTopologyLevels:
			d.errorf(p.val, fp, "must have at most %d levels, got %d", maxTopologyLevels, len(list))
		}
		var labels []string
		for i, item := range list {
			ip := index(fp, i)
			label := ""
			var labelNode *yaml.Node
			for _, q := range d.pairs(item, ip) {
				if q.name != "nodeLabel" {
					d.unknown(q, ip)
					continue
				}
				if s, ok := d.str(q.val, join(ip, "nodeLabel")); ok {
					if msg := checkQualifiedName(s); msg != "" {
						d.errorf(q.val, join(ip, "nodeLabel"), "invalid node label: %s", msg)
					}
					label, labelNode = s, d.deref(q.val)
				}
			}
			if isNull(item) {
				continue
			}
			if label == "" {
				d.required(item, ip, "nodeLabel")
				continue
			}
			if slices.Contains(labels, label) {
				d.errorf(item, ip, "must be unique: node label %q is used by an earlier level", label)
			}
			if label == labelHostname && i != len(list)-1 {
				d.errorf(labelNode, join(ip, "nodeLabel"), "the kubernetes.io/hostname label can only be used at the lowest level of topology")
			}
			labels = append(labels, label)
		}
	}
	if isNull(specNode) {
		d.required(o.node, "", "spec")
	} else if !haveLevels {
		d.required(specNode, "spec", "levels")
	}
	d.warnf(o.kindNode, "kind", "%s", tasNotSimulated(fmt.Sprintf("Topology %q only makes the ClusterQueues whose flavors name it active", m.name)))
	if m.name == "" || !d.register(st, "Topology", "", m.name, m.nameNode, "") {
		return
	}
	st.topologies = append(st.topologies, core.Topology{Name: m.name, Pos: d.pos(o.node)})
}

// tasAnnotations warns about the TAS annotations of a pod template.
func (d *decoder) tasAnnotations(ann map[string]string, nodes map[string]*yaml.Node, path string) {
	for _, k := range slices.Sorted(maps.Keys(ann)) {
		if tasAnnotation(k) {
			d.warnf(nodes[k], key(path, k), "%s", tasNotSimulated(fmt.Sprintf("the annotation %s is ignored, and the pod set is admitted on quota alone", k)))
		}
	}
}

// linkTopologies gives each flavor's topologyName its one warning: TAS is
// not simulated, or, when the Topology is not in the input, that Kueue
// keeps every ClusterQueue using the flavor inactive
// (clusterQueue.inactiveReason, reason TopologyNotFound), as the
// playground does.
func (d *decoder) linkTopologies(st *state) {
	have := map[string]bool{}
	for _, t := range st.topologies {
		have[t.Name] = true
	}
	for _, r := range st.flavorTopologies {
		flavor := strings.TrimPrefix(r.flavor, "ResourceFlavor/")
		if have[r.name] {
			d.warnObj(r.flavor, r.node, r.path, "%s", tasNotSimulated("flavor "+flavor+" is used like any other flavor"))
			continue
		}
		d.warnObj(r.flavor, r.node, r.path, "Topology %q does not exist: Kueue keeps every ClusterQueue that uses flavor %s inactive (TopologyNotFound), and so does the playground (topology-aware scheduling itself is not simulated)", r.name, flavor)
	}
}
