package scenario

import (
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Simulation-only settings ride on Workloads and job objects as
// annotations, so the manifests stay valid Kubernetes objects.
const (
	annotationPrefix           = "kueueplay/"
	annotationArrival          = "kueueplay/arrival"
	annotationRuntime          = "kueueplay/runtime"
	annotationTerminationDelay = "kueueplay/termination-delay"
)

// Labels Kueue and Kubernetes read.
const (
	labelQueueName         = "kueue.x-k8s.io/queue-name"
	labelPriorityClass     = "kueue.x-k8s.io/priority-class"
	labelMaxExecTime       = "kueue.x-k8s.io/max-exec-time-seconds"
	labelJobName           = "batch.kubernetes.io/job-name"
	labelLegacyJobName     = "job-name"
	labelNamespaceMetaName = "kubernetes.io/metadata.name"
	defaultNamespace       = "default"
	defaultLocalQueueName  = "default"
)

// nameRule says how metadata.name is validated.
type nameRule int

const (
	// nameSubdomain: an RFC 1123 subdomain of at most MaxNameLength
	// characters (most objects).
	nameSubdomain nameRule = iota
	// nameLabel: an RFC 1123 label of at most MaxDNSLabelLength characters
	// (Namespaces).
	nameLabel
	// nameJob: a subdomain of at most MaxDNSLabelLength characters. The Job
	// controller copies the name into the pod label
	// batch.kubernetes.io/job-name, so the API server rejects longer names.
	nameJob
)

func checkName(name string, rule nameRule) string {
	switch rule {
	case nameLabel:
		return checkDNSLabel(name)
	case nameJob:
		return checkDNSSubdomain(name, MaxDNSLabelLength)
	}
	return checkDNSSubdomain(name, MaxNameLength)
}

// objMeta is the part of ObjectMeta the playground reads.
type objMeta struct {
	name, namespace string
	// node is the metadata mapping, or the object when metadata is absent.
	node     *yaml.Node
	nameNode *yaml.Node
	labels   map[string]string
	// labelsNode is the labels mapping (nil when absent); labelNodes and
	// annNodes hold the value nodes, for positions.
	labelsNode *yaml.Node
	labelNodes map[string]*yaml.Node
	ann        map[string]string
	annNodes   map[string]*yaml.Node
	// label is "Kind/name" or "Kind/namespace/name".
	label string
	// uid is metadata.uid ("" when absent).
	uid string
	// owner is the controller ownerReference (nil when there is none).
	owner *ownerRef
	// generateName is metadata.generateName, used when name is absent.
	generateName     string
	generateNameNode *yaml.Node
}

// begin decodes an object's metadata, makes it the current object for
// diagnostics, and returns the object's other top-level entries.
func (d *decoder) begin(o *rawObject, namespaced bool, rule nameRule) (objMeta, []pair) {
	m := objMeta{node: o.node, nameNode: o.node}
	var rest []pair
	var metaNode *yaml.Node
	found := false
	for _, p := range o.pairs {
		switch p.name {
		case "apiVersion", "kind":
		case "metadata":
			found, metaNode = true, p.val
		default:
			rest = append(rest, p)
		}
	}
	// Name the object before decoding its metadata, so that problems inside
	// metadata carry the object too.
	name, namespace := peekName(metaNode)
	d.obj = objectLabel(o.kind, name, namespace, namespaced)
	if found {
		m = d.objectMeta(metaNode, o.node, "metadata", namespaced, rule)
	}
	if namespaced && m.namespace == "" {
		m.namespace = defaultNamespace
	}
	if m.name == "" && m.generateName != "" {
		m.name, m.nameNode = d.generatedName(o.kind, m.namespace, m.generateName), m.generateNameNode
		if msg := checkName(m.name, rule); msg != "" {
			d.errorf(m.nameNode, "metadata.generateName", "invalid generateName: the generated name %q is invalid: %s", m.name, msg)
		}
	}
	if name != m.name || namespace != m.namespace && namespaced {
		d.obj = objectLabel(o.kind, m.name, m.namespace, namespaced)
	}
	m.label = d.obj
	if !found {
		d.required(o.node, "", "metadata")
	} else if m.name == "" {
		d.errorf(m.node, "metadata.name", "missing required field \"name\": set metadata.name (or metadata.generateName, as kubectl create accepts)")
	}
	return m, rest
}

// objectLabel builds Diagnostic.Object: "Kind/name" or "Kind/namespace/name".
func objectLabel(kind, name, namespace string, namespaced bool) string {
	if name == "" {
		name = "(unnamed)"
	}
	if !namespaced {
		return kind + "/" + name
	}
	if namespace == "" {
		namespace = defaultNamespace
	}
	return kind + "/" + namespace + "/" + name
}

// peekName reads metadata.name and metadata.namespace without reporting
// anything (objectMeta validates them).
func peekName(n *yaml.Node) (name, namespace string) {
	if n == nil || n.Kind != yaml.MappingNode {
		return "", ""
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if v.Kind != yaml.ScalarNode || v.Tag != tagStr {
			continue
		}
		switch {
		case k.Value == "name" && name == "":
			name = v.Value
		case k.Value == "namespace" && namespace == "":
			namespace = v.Value
		}
	}
	return name, namespace
}

// objectMeta decodes metav1.ObjectMeta. Only name, namespace, labels and
// annotations are read; the other real fields are accepted and skipped.
func (d *decoder) objectMeta(n, obj *yaml.Node, path string, namespaced bool, rule nameRule) objMeta {
	m := objMeta{node: obj, nameNode: obj}
	if dn := d.deref(n); !isNull(dn) {
		m.node, m.nameNode = dn, dn
	}
	var nsNode *yaml.Node
	for _, p := range d.pairs(n, path) {
		fp := d.join(path, p.name)
		switch p.name {
		case "name":
			if s, ok := d.str(p.val, fp); ok {
				m.name, m.nameNode = s, d.deref(p.val)
			}
		case "namespace":
			if s, ok := d.str(p.val, fp); ok {
				m.namespace, nsNode = s, d.deref(p.val)
			}
		case "labels":
			var keys map[string]*yaml.Node
			m.labelsNode = p.val
			m.labels, keys, m.labelNodes = d.stringMap(p.val, fp)
			d.checkLabels(m.labels, keys, m.labelNodes, fp)
		case "annotations":
			var keys map[string]*yaml.Node
			m.ann, keys, m.annNodes = d.stringMap(p.val, fp)
			for k := range m.ann {
				if msg := checkQualifiedName(k); msg != "" {
					d.errorf(keys[k], d.key(fp, k), "invalid annotation key: %s", msg)
				}
			}
		case "generateName":
			if s, ok := d.str(p.val, fp); ok {
				m.generateName, m.generateNameNode = s, d.deref(p.val)
			}
		case "uid":
			m.uid, _ = d.str(p.val, fp)
		case "ownerReferences":
			m.owner = d.ownerReferences(p.val, fp)
		case "selfLink", "resourceVersion", "generation",
			"creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds",
			"finalizers", "managedFields":
			// Real ObjectMeta fields the playground does not interpret.
		default:
			d.unknown(p, path)
		}
	}
	if m.name != "" {
		if msg := checkName(m.name, rule); msg != "" {
			d.errorf(m.nameNode, d.join(path, "name"), "invalid name: %s", msg)
		}
	}
	if namespaced && m.namespace != "" {
		if msg := checkDNSLabel(m.namespace); msg != "" {
			d.errorf(nsNode, d.join(path, "namespace"), "invalid namespace: %s", msg)
		}
	}
	// For cluster-scoped kinds the API server clears metadata.namespace.
	if !namespaced {
		m.namespace = ""
	}
	return m
}

// checkLabels mirrors metav1validation.ValidateLabels.
func (d *decoder) checkLabels(labels map[string]string, keys, vals map[string]*yaml.Node, path string) {
	for k, v := range labels {
		if msg := checkQualifiedName(k); msg != "" {
			d.errorf(keys[k], d.key(path, k), "invalid label key: %s", msg)
		}
		if msg := checkLabelValue(v); msg != "" {
			d.errorf(vals[k], d.key(path, k), "invalid label value: %s", msg)
		}
	}
}

// simAnnotations are the kueueplay/ annotations of a Workload, Job,
// Deployment or ReplicaSet.
type simAnnotations struct {
	arrival          time.Duration
	runtime          *time.Duration
	terminationDelay *time.Duration
}

// annotationUse says which kueueplay/ annotations a kind reads.
type annotationUse int

const (
	// annNone: none (a warning for each).
	annNone annotationUse = iota
	// annWorkload: all three (Workloads and job objects).
	annWorkload
	// annArrival: only kueueplay/arrival (Deployments and ReplicaSets, which
	// run until they are scaled down and have no quota to release).
	annArrival
)

// annotations validates the kueueplay/ annotations; those that use says
// kind does not read are a warning.
func (d *decoder) annotations(m objMeta, use annotationUse, kind string) simAnnotations {
	var sa simAnnotations
	for k, v := range m.ann {
		if !strings.HasPrefix(k, annotationPrefix) {
			continue
		}
		n := m.annNodes[k]
		fp := d.key("metadata.annotations", k)
		readOn := "Workloads and job objects (Job, JobSet, RayJob, Pod, ...)"
		switch k {
		case annotationArrival:
			readOn = "Workloads, job objects, Deployments and ReplicaSets"
		case annotationRuntime, annotationTerminationDelay:
		default:
			d.errorf(n, fp, "unknown kueueplay annotation %q (known: %s, %s, %s)", k, annotationArrival, annotationRuntime, annotationTerminationDelay)
			continue
		}
		if use == annNone || use == annArrival && k != annotationArrival {
			d.warnf(n, fp, "annotation %q is only read on %s; it has no effect on a %s", k, readOn, kind)
			continue
		}
		dur, ok := d.parseDuration(n, fp, v)
		if !ok {
			continue
		}
		switch k {
		case annotationArrival:
			sa.arrival = dur
		case annotationRuntime:
			sa.runtime = &dur
		case annotationTerminationDelay:
			sa.terminationDelay = &dur
		}
	}
	return sa
}

// register records an object's key (kind, namespace, name) and reports a
// duplicate. A job object registers both itself and the Workload it
// becomes (byJob then names the job object: `Job "x"`, `JobSet "y"`), so
// that a Job x and a Workload job-x in one namespace collide.
func (d *decoder) register(st *state, kind, namespace, name string, n *yaml.Node, byJob string) bool {
	if name == "" {
		return false
	}
	// The key is most often the current object's label (objectLabel),
	// already built.
	k := d.obj
	if !isObjectKey(k, kind, namespace, name) {
		k = kind + "/" + name
		if namespace != "" {
			k = kind + "/" + namespace + "/" + name
		}
	}
	first, dup := st.keys[k]
	if kind == "Workload" && namespace != "" {
		if i := st.fastKeys.find(st.fastWorkloads, namespace, name); i >= 0 {
			first, dup = keyInfo{line: int(st.fastAt[i].nameLine)}, true
		}
	}
	if !dup {
		st.keys[k] = keyInfo{line: n.Line, byJob: byJob}
		if kind == "Workload" {
			st.workloadKeys++
		}
		return true
	}
	shown := name
	if namespace != "" {
		shown = namespace + "/" + name
	}
	switch {
	case first.byJob != "":
		d.errorf(n, "metadata.name", "duplicate %s %q: %s (%s) already becomes this Workload", kind, shown, first.byJob, d.where(first.line, n))
	case byJob != "":
		d.errorf(n, "metadata.name", "duplicate %s %q: %s becomes this Workload, which is already defined at %s", kind, shown, byJob, d.where(first.line, n))
	default:
		d.errorf(n, "metadata.name", "duplicate %s %q (first defined at %s)", kind, shown, d.where(first.line, n))
	}
	return false
}

// isObjectKey reports whether k is "kind/name", or "kind/namespace/name"
// when namespace is set.
func isObjectKey(k, kind, namespace, name string) bool {
	rest, ok := strings.CutPrefix(k, kind)
	if !ok || rest == "" || rest[0] != '/' {
		return false
	}
	rest = rest[1:]
	if namespace != "" {
		if rest, ok = strings.CutPrefix(rest, namespace); !ok || rest == "" || rest[0] != '/' {
			return false
		}
		rest = rest[1:]
	}
	return rest == name
}

// keyInfo is where an object key was first registered.
type keyInfo struct {
	line  int // in the shared line space of all the inputs (see where)
	byJob string
}

// nsLabels returns the labels of a declared Namespace, including the
// kubernetes.io/metadata.name label the API server always sets
// (NamespaceDefaultLabelName), which namespaceSelectors often use.
func nsLabels(name string, labels map[string]string) map[string]string {
	out := make(map[string]string, len(labels)+1)
	for k, v := range labels {
		out[k] = v
	}
	out[labelNamespaceMetaName] = name
	return out
}

// podSetLabelsFor adds the labels the Job controller puts on the pods of
// a Job: batch.kubernetes.io/job-name and job-name. (Kueue's own
// kueue.x-k8s.io/podset label is added when the workload starts, by the
// simulation, because a template that already sets it differently makes
// the start fail.) A nil template stays nil when there is nothing to add.
func podSetLabelsFor(template map[string]string, jobName string) map[string]string {
	if jobName == "" {
		return template
	}
	out := make(map[string]string, len(template)+2)
	for k, v := range template {
		out[k] = v
	}
	out[labelJobName] = jobName
	out[labelLegacyJobName] = jobName
	return out
}

// specAndStatus picks spec and status out of an object's fields after
// begin (apiVersion, kind and metadata already taken) and reports any other
// field as unknown. status is observed state: the kinds that start from it
// (Workloads) read it, the others ignore it.
func (d *decoder) specAndStatus(rest []pair) (spec, status *yaml.Node) {
	for _, p := range rest {
		switch p.name {
		case "spec":
			spec = p.val
		case "status":
			status = p.val
		default:
			d.unknown(p, "")
		}
	}
	return spec, status
}

// generatedName is the name the API server would make from generateName
// (names.SimpleNameGenerator: the prefix cut to 58 characters, then 5
// random characters from "bcdfghjklmnpqrstvwxz2456789"). The playground
// must be deterministic, so the 5 characters come from a hash of the
// kind, namespace, prefix and how many objects of that kind and namespace
// used the same prefix before this one: the same input always gives the
// same names, and editing one object does not rename the others.
func (d *decoder) generatedName(kind, namespace, prefix string) string {
	const alphabet = "bcdfghjklmnpqrstvwxz2456789"
	const maxPrefix = 58
	if len(prefix) > maxPrefix {
		prefix = prefix[:maxPrefix]
	}
	k := kind + "/" + namespace + "/" + prefix
	if d.generated == nil {
		d.generated = map[string]int{}
	}
	n := d.generated[k]
	d.generated[k] = n + 1
	h := fnv.New64a()
	fmt.Fprintf(h, "%s#%d", k, n)
	sum := h.Sum64()
	b := []byte(prefix)
	for range 5 {
		b = append(b, alphabet[sum%uint64(len(alphabet))])
		sum /= uint64(len(alphabet))
	}
	return string(b)
}

// ownerRef is a controller ownerReference: the object that manages this one
// (the Job that owns its Workload, the ReplicaSet that owns its Pods).
type ownerRef struct {
	group, kind, name, uid string
	// node is the ownerReference, for positions.
	node *yaml.Node
}

// ownerReferences decodes metadata.ownerReferences (metav1.OwnerReference)
// and returns the one with controller: true. The API server requires
// apiVersion, kind and name (and uid, which hand-written files often leave
// out, so the playground does not) and allows at most one controller
// (ValidateOwnerReferences).
func (d *decoder) ownerReferences(n *yaml.Node, path string) *ownerRef {
	var controller *ownerRef
	for i, item := range d.items(n, path) {
		ip := d.index(path, i)
		var r ownerRef
		var apiVersion string
		isController := false
		ps := d.pairs(item, ip)
		for _, p := range ps {
			fp := d.join(ip, p.name)
			switch p.name {
			case "apiVersion":
				apiVersion, _ = d.str(p.val, fp)
			case "kind":
				r.kind, _ = d.str(p.val, fp)
			case "name":
				r.name, _ = d.str(p.val, fp)
			case "uid":
				r.uid, _ = d.str(p.val, fp)
			case "controller":
				isController, _ = d.boolean(p.val, fp)
			case "blockOwnerDeletion":
				d.boolean(p.val, fp)
			default:
				d.unknown(p, ip)
			}
		}
		if isNull(item) {
			continue
		}
		for _, f := range []string{"apiVersion", "kind", "name"} {
			if !hasKey(ps, f) {
				d.required(item, ip, f)
			}
		}
		if !isController {
			continue
		}
		if controller != nil {
			d.errorf(item, d.join(ip, "controller"), "only one reference can have controller set to true (the first is at %s)", d.where(controller.node.Line, item))
			continue
		}
		r.group, r.node = groupOf(apiVersion), item
		controller = &r
	}
	return controller
}
