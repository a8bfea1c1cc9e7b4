package scenario

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// awPodSet is one pod set of an AppWrapper component: the path of its pod
// template inside the component (starting with "template") and its count.
type awPodSet struct {
	path     string
	replicas int32
	// node is where the pod set was declared or inferred from, for
	// positions.
	node *yaml.Node
}

// appWrapper decodes a workload.codeflare.dev/v1beta2 AppWrapper into the
// Workload Kueue's AppWrapper integration creates
// (pkg/controller/jobs/appwrapper/appwrapper_controller.go:
// AppWrapper.PodSets, which calls appwrapper v1.1 pkg/utils
// GetComponentPodSpecs): the pod sets of every component in order, each
// named "<appwrapper name>-<index>" (the index counts across components)
// with count replicas (1 when unset). A component's pod sets are its
// declared spec.components[].podSets, else those InferPodSets finds for
// the component's kind (batch/v1 Job, JobSet, PyTorchJob, RayCluster,
// RayJob, Pod, Deployment, StatefulSet); a component of another kind
// without declared pod sets has none. When both exist they must agree
// (ValidatePodSets, the AppWrapper webhook). A pod set's template is read
// like GetPodTemplateSpec copies it: sidecars count as plain init
// containers and pod-level resources are ignored (see
// podTemplate.appWrapperCopy). The priority is the priority-class label,
// else the first pod set's priorityClassName. The Workload is named
// appwrapper-<name>.
func (d *decoder) appWrapper(st *state, o *rawObject) {
	m, specNode, w := d.beginJob(o, jobGVK{"workload.codeflare.dev", "AppWrapper"}, nameSubdomain)
	if isNull(specNode) {
		d.required(o.node, "", "spec")
	}
	var componentsNode *yaml.Node
	for _, p := range d.pairs(specNode, "spec") {
		switch p.name {
		case "components":
			componentsNode = p.val
		case "suspend", "managedBy":
			// Real AppWrapperSpec fields the playground does not interpret.
		default:
			d.unknown(p, "spec")
		}
	}
	if !isNull(specNode) && isNull(componentsNode) {
		d.required(specNode, "spec", "components")
	}
	var pts []podTemplate
	for i, c := range d.items(componentsNode, "spec.components") {
		cp := index("spec.components", i)
		for _, ps := range d.awComponent(c, cp) {
			target, msg := d.awLookup(c, ps.path)
			if msg != "" {
				d.errorf(ps.node, cp, "pod set path %q: %s", ps.path, msg)
				continue
			}
			pt := d.awPodTemplate(target, join(cp, ps.path))
			name := podSetName(fmt.Sprintf("%s-%d", m.name, len(w.wl.PodSets)))
			w.wl.PodSets = append(w.wl.PodSets, pt.podSet(name, ps.replicas, ""))
			pts = append(pts, pt)
		}
	}
	if !isNull(componentsNode) && len(w.wl.PodSets) == 0 {
		d.errorf(componentsNode, "spec.components", "no component has a pod set: Kueue cannot create a Workload without pod sets")
	}
	w.pc = firstPriorityClass(pts...)
	d.addJob(st, o, m, w)
}

// awComponent decodes one AppWrapperComponent and returns its pod sets:
// the declared ones, else the inferred ones.
func (d *decoder) awComponent(n *yaml.Node, path string) []awPodSet {
	var templateNode, declaredNode *yaml.Node
	for _, p := range d.pairs(n, path) {
		switch p.name {
		case "template":
			templateNode = p.val
		case "podSets":
			declaredNode = p.val
		case "podSetInfos", "annotations":
			// Set by Kueue on admission / not interpreted.
		default:
			d.unknown(p, path)
		}
	}
	if isNull(n) {
		return nil
	}
	if isNull(templateNode) {
		d.required(n, path, "template")
		return nil
	}
	// The component's template is a whole Kubernetes object; only the pod
	// templates its pod sets name are decoded.
	tmpl := d.deref(templateNode)
	var apiVersion, kind string
	if tmpl != nil && tmpl.Kind == yaml.MappingNode {
		apiVersion, _ = awScalar(d.awChild(tmpl, "apiVersion"))
		kind, _ = awScalar(d.awChild(tmpl, "kind"))
	} else {
		d.errorf(templateNode, join(path, "template"), "expected a Kubernetes object, got %s", describe(tmpl))
		return nil
	}
	// The paths start with "template", the component's field: look them up
	// from the component.
	inferred := d.awInfer(n, apiVersion, kind, templateNode)
	declared := d.awDeclared(declaredNode, join(path, "podSets"))
	if len(declared) == 0 {
		return inferred
	}
	// ValidatePodSets.
	if len(inferred) > 0 {
		if len(inferred) != len(declared) {
			d.errorf(declaredNode, join(path, "podSets"), "DeclaredPodSet count %d differs from inferred count %d", len(declared), len(inferred))
			return nil
		}
		byPath := map[string]awPodSet{}
		for _, p := range declared {
			byPath[p.path] = p
		}
		for _, ip := range inferred {
			dp, ok := byPath[ip.path]
			if !ok {
				d.errorf(declaredNode, join(path, "podSets"), "PodSet with path '%s' is missing", ip.path)
				return nil
			}
			if dp.replicas != ip.replicas {
				d.errorf(dp.node, join(path, "podSets"), "replica count %d differs from inferred replica count %d for PodSet at path '%s'", dp.replicas, ip.replicas, ip.path)
				return nil
			}
		}
	}
	return declared
}

// awDeclared decodes spec.components[].podSets.
func (d *decoder) awDeclared(n *yaml.Node, path string) []awPodSet {
	var out []awPodSet
	seen := map[string]bool{}
	for i, item := range d.items(n, path) {
		ip := index(path, i)
		ps := awPodSet{replicas: 1, node: item}
		havePath := false
		for _, p := range d.pairs(item, ip) {
			fp := join(ip, p.name)
			switch p.name {
			case "path":
				if s, ok := d.str(p.val, fp); ok {
					ps.path, ps.node, havePath = s, p.val, true
				}
			case "replicas":
				if v, ok := d.int32v(p.val, fp, 0); ok {
					ps.replicas = v
				}
			case "annotations":
				// Topology hints: not simulated.
			default:
				d.unknown(p, ip)
			}
		}
		if isNull(item) {
			continue
		}
		if !havePath {
			d.required(item, ip, "path")
			continue
		}
		if seen[ps.path] {
			d.errorf(ps.node, join(ip, "path"), "multiple DeclaredPodSets with path '%s'", ps.path)
			continue
		}
		seen[ps.path] = true
		out = append(out, ps)
	}
	return out
}

// awInfer is appwrapper utils.InferPodSets: the pod sets of a component of
// a known kind. comp is the component (paths start at its "template").
func (d *decoder) awInfer(comp *yaml.Node, apiVersion, kind string, at *yaml.Node) []awPodSet {
	// found reports whether a path exists; count reads an integer at a
	// path (def when absent).
	found := func(path string) bool {
		_, msg := d.awLookup(comp, path)
		return msg == ""
	}
	count := func(path string, def int32) int32 {
		n, msg := d.awLookup(comp, path)
		if msg != "" || isNull(n) {
			return def
		}
		v, ok := d.int32v(n, path, 0)
		if !ok {
			return def
		}
		return v
	}
	jobPods := func(prefix string) int32 {
		c := count(prefix+"parallelism", 1)
		if comp := count(prefix+"completions", c); comp < c {
			c = comp
		}
		return c
	}
	var out []awPodSet
	add := func(path string, replicas int32) {
		out = append(out, awPodSet{path: path, replicas: replicas, node: at})
	}
	switch apiVersion + " " + kind {
	case "batch/v1 Job":
		add("template.spec.template", jobPods("template.spec."))
	case "jobset.x-k8s.io/v1alpha2 JobSet":
		for i := 0; ; i++ {
			prefix := fmt.Sprintf("template.spec.replicatedJobs[%d].", i)
			if !found(strings.TrimSuffix(prefix, ".")) {
				break
			}
			if !found(prefix + "template") {
				continue
			}
			r, over := mulCount(count(prefix+"replicas", 1), jobPods(prefix+"template.spec."))
			if over {
				d.errorf(at, "template", "replicas x pods per replica overflows int32")
				continue
			}
			add(prefix+"template.spec.template", r)
		}
	case "kubeflow.org/v1 PyTorchJob":
		for _, typ := range []string{"Master", "Worker"} {
			prefix := "template.spec.pytorchReplicaSpecs." + typ + "."
			if found(prefix + "template") {
				add(prefix+"template", count(prefix+"replicas", 1))
			}
		}
	case "ray.io/v1 RayCluster", "ray.io/v1 RayJob":
		prefix := "template.spec."
		if kind == "RayJob" {
			prefix += "rayClusterSpec."
		}
		add(prefix+"headGroupSpec.template", 1)
		for i := 0; ; i++ {
			wp := fmt.Sprintf("%sworkerGroupSpecs[%d]", prefix, i)
			if !found(wp) {
				break
			}
			if found(wp + ".template") {
				add(wp+".template", count(wp+".replicas", 1))
			}
		}
	case "v1 Pod":
		add("template", 1)
	case "apps/v1 Deployment", "apps/v1 StatefulSet":
		if found("template.spec.template") {
			add("template.spec.template", count("template.spec.replicas", 1))
		}
	}
	return out
}

// awLookup follows an AppWrapper pod set path ("template.spec.x[0].y")
// from the component node; it returns the node, or a message saying why
// the path does not resolve (appwrapper utils.getValueAtPath).
func (d *decoder) awLookup(comp *yaml.Node, path string) (*yaml.Node, string) {
	rest, ok := strings.CutPrefix(path, "template")
	if !ok {
		return nil, "first element of the path must be 'template'"
	}
	cur := d.awChild(d.deref(comp), "template")
	processed := "template"
	for rest != "" {
		cur = d.deref(cur)
		switch {
		case strings.HasPrefix(rest, "["):
			end := strings.Index(rest, "]")
			if end < 0 {
				return nil, fmt.Sprintf("at path position '%s' invalid array index '%s'", processed, rest)
			}
			i, err := strconv.Atoi(rest[1:end])
			if err != nil {
				return nil, fmt.Sprintf("at path position '%s' invalid index expression '%s'", processed, rest[1:end])
			}
			if cur == nil || cur.Kind != yaml.SequenceNode {
				return nil, fmt.Sprintf("at path position '%s' found non-array value", processed)
			}
			if i < 0 || i >= len(cur.Content) {
				return nil, fmt.Sprintf("at path position '%s' out of bounds index '%d'", processed, i)
			}
			cur = cur.Content[i]
			processed += rest[:end+1]
			rest = rest[end+1:]
		case strings.HasPrefix(rest, "."):
			rest = rest[1:]
			end := len(rest)
			if j := strings.IndexAny(rest, ".["); j >= 0 {
				end = j
			}
			field := rest[:end]
			if cur == nil || cur.Kind != yaml.MappingNode {
				return nil, fmt.Sprintf("at path position '%s' non-map value", processed)
			}
			next := d.awChild(cur, field)
			if next == nil {
				return nil, fmt.Sprintf("at path position '%s' missing field '%s'", processed, field)
			}
			cur = next
			processed += "." + field
			rest = rest[end:]
		default:
			return nil, fmt.Sprintf("at path position '%s' invalid path element '%s'", processed, rest)
		}
	}
	if cur == nil {
		return nil, "missing field 'template'"
	}
	return cur, ""
}

// awChild returns the value of key k of a mapping node, or nil.
func (d *decoder) awChild(n *yaml.Node, k string) *yaml.Node {
	n = d.deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == k {
			return n.Content[i+1]
		}
	}
	return nil
}

// awScalar returns a scalar node's value.
func awScalar(n *yaml.Node) (string, bool) {
	if n == nil || n.Kind != yaml.ScalarNode {
		return "", false
	}
	return n.Value, true
}

// awPodTemplate decodes the pod template (or Pod) an AppWrapper pod set
// path names: its metadata labels and its spec, a v1 PodSpec
// (GetPodTemplateSpec parses only these; a Pod's other fields are
// skipped).
func (d *decoder) awPodTemplate(n *yaml.Node, path string) podTemplate {
	pt := podTemplate{labelsNode: n, appWrapperCopy: true}
	haveSpec := false
	for _, p := range d.pairs(n, path) {
		fp := join(path, p.name)
		switch p.name {
		case "metadata":
			m := d.objectMeta(p.val, n, fp, true, nameSubdomain)
			pt.labels, pt.labelNodes = m.labels, m.labelNodes
			pt.labelsNode = orNode(m.labelsNode, m.node)
		case "spec":
			if !isNull(p.val) {
				haveSpec = true
				d.podSpec(p.val, fp, &pt)
			}
		default:
			// apiVersion, kind, status of an embedded Pod: not read.
		}
	}
	if !haveSpec {
		d.errorf(n, path, "content at %s does not contain a spec", path)
	}
	return pt
}
