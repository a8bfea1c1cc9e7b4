package scenario

import (
	"math"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kueueplay/kueueplay/core"
)

// podTemplate is what the playground reads of a pod template.
type podTemplate struct {
	labels map[string]string
	// labelNodes hold the label value nodes; labelsNode is the labels
	// mapping, else the metadata mapping, else the template (for
	// positions).
	labelNodes map[string]*yaml.Node
	labelsNode *yaml.Node
	// requests is the per-pod request computed like Kueue (see podRequests).
	requests map[core.ResourceName]core.Amount
	// nonZero is the per-pod cpu and memory kube-scheduler scores with.
	nonZero           map[core.ResourceName]core.Amount
	nodeSelector      map[string]string
	required          []core.NodeSelectorTerm
	preferred         []core.PreferredSchedulingTerm
	tolerations       []core.Toleration
	priorityClassName ref
	restartPolicy     ref
	// appWrapperCopy, set before podSpec, computes the requests of the
	// copy of the pod spec an AppWrapper's pod set holds
	// (appwrapper utils.GetPodTemplateSpec): container restartPolicy and
	// pod-level resources are not copied, so sidecars count as plain init
	// containers and pod-level requests are ignored.
	appWrapperCopy bool
	// override, set before podSpec, replaces the resources of the
	// (regular) container it names: a TrainJob's trainer.resourcesPerNode.
	override *containerOverride
}

// containerOverride replaces the effective request of one container;
// applied records that the pod had it.
type containerOverride struct {
	name    string
	req     rlist
	applied bool
}

// rlist is a resource list in Amount units.
type rlist map[core.ResourceName]core.Amount

// containerReqs is one container's effective request: its requests, with
// limits standing in for absent requests (Kueue's
// UseLimitsAsMissingRequestsInPod, as the API server defaults a Pod).
type containerReqs struct {
	name    string
	req     rlist
	sidecar bool // an init container with restartPolicy: Always
}

// Defaults kube-scheduler uses when scoring a container that requests no
// cpu or memory (pkg/scheduler/util: DefaultMilliCPURequest,
// DefaultMemoryRequest).
const (
	defaultMilliCPURequest = 100               // 100m
	defaultMemoryRequest   = 200 * 1024 * 1024 // 200Mi
)

// podTemplate decodes a v1 PodTemplateSpec. Real PodSpec and Container
// fields the playground does not use are accepted and skipped.
func (d *decoder) podTemplate(n *yaml.Node, path string) podTemplate {
	return d.podTemplateInto(n, path, podTemplate{})
}

// podTemplateInto decodes a v1 PodTemplateSpec into pt, whose
// appWrapperCopy and override options are kept.
func (d *decoder) podTemplateInto(n *yaml.Node, path string, pt podTemplate) podTemplate {
	pt.labelsNode = n
	haveSpec := false
	for _, p := range d.pairs(n, path) {
		fp := d.join(path, p.name)
		switch p.name {
		case "metadata":
			m := d.objectMeta(p.val, n, fp, false, nameSubdomain)
			d.tasAnnotations(m.ann, m.annNodes, d.join(fp, "annotations"))
			pt.labels, pt.labelNodes = m.labels, m.labelNodes
			pt.labelsNode = orNode(m.labelsNode, m.node)
		case "spec":
			if !isNull(p.val) {
				haveSpec = true
				d.podSpec(p.val, fp, &pt)
			}
		default:
			d.unknown(p, path)
		}
	}
	if !haveSpec && !isNull(n) {
		d.required(n, path, "spec")
	}
	return pt
}

func (d *decoder) podSpec(n *yaml.Node, path string, pt *podTemplate) {
	var containers, inits []containerReqs
	var podLevel, overhead rlist
	nContainers := 0
	names := map[string]bool{}
	for _, p := range d.pairs(n, path) {
		fp := d.join(path, p.name)
		switch p.name {
		case "containers":
			list := d.items(p.val, fp)
			nContainers = len(list)
			for i, c := range list {
				if cr, ok := d.container(c, d.index(fp, i), false, names); ok {
					if o := pt.override; o != nil && cr.name == o.name {
						cr.req = o.req
						o.applied = true
					}
					containers = append(containers, cr)
				}
			}
		case "initContainers":
			for i, c := range d.items(p.val, fp) {
				if cr, ok := d.container(c, d.index(fp, i), true, names); ok {
					inits = append(inits, cr)
				}
			}
		case "overhead":
			overhead = d.resourceList(p.val, fp)
		case "resources":
			// Pod-level resources (PodLevelResources): only the requests
			// enter PodRequests.
			for _, q := range d.pairs(p.val, fp) {
				qp := d.join(fp, q.name)
				switch q.name {
				case "requests":
					podLevel = d.resourceList(q.val, qp)
				case "limits":
					d.resourceList(q.val, qp)
				case "claims":
				default:
					d.unknown(q, fp)
				}
			}
		case "nodeSelector":
			var keys, vals map[string]*yaml.Node
			pt.nodeSelector, keys, vals = d.stringMap(p.val, fp)
			d.checkLabels(pt.nodeSelector, keys, vals, fp)
		case "affinity":
			d.affinity(p.val, fp, pt)
		case "tolerations":
			pt.tolerations, _ = d.tolerations(p.val, fp)
		case "priorityClassName":
			if s, ok := d.str(p.val, fp); ok && s != "" {
				if msg := checkDNSSubdomain(s, MaxNameLength); msg != "" {
					d.errorf(p.val, fp, "invalid PriorityClass name: %s", msg)
				}
				pt.priorityClassName = ref{name: s, node: p.val, path: fp}
			}
		case "restartPolicy":
			if s, ok := d.strEnum(p.val, fp, "Always", "OnFailure", "Never"); ok {
				pt.restartPolicy = ref{name: s, node: p.val, path: fp}
			}
		case "activeDeadlineSeconds", "automountServiceAccountToken", "dnsConfig", "dnsPolicy",
			"enableServiceLinks", "ephemeralContainers", "hostAliases", "hostIPC", "hostNetwork",
			"hostPID", "hostUsers", "hostname", "hostnameOverride", "imagePullSecrets", "nodeName",
			"os", "preemptionPolicy", "priority", "readinessGates", "resourceClaims",
			"runtimeClassName", "schedulerName", "schedulingGates", "securityContext",
			"serviceAccount", "serviceAccountName", "setHostnameAsFQDN", "shareProcessNamespace",
			"subdomain", "terminationGracePeriodSeconds", "topologySpreadConstraints", "volumes",
			"workloadRef":
			// Real PodSpec fields the playground does not interpret.
		default:
			d.unknown(p, path)
		}
	}
	if nContainers == 0 {
		d.errorf(n, d.join(path, "containers"), "must have at least 1 container")
	}
	if pt.appWrapperCopy {
		for i := range inits {
			inits[i].sidecar = false
		}
		podLevel = nil
	}
	var over bool
	pt.requests, over = podRequests(containers, inits, podLevel, overhead, nil)
	if over {
		d.errorf(n, path, "the pod's total resource requests overflow")
		pt.requests = nil
	}
	nonMissing := rlist{core.ResourceCPU: defaultMilliCPURequest, core.ResourceMemory: defaultMemoryRequest}
	nz, _ := podRequests(containers, inits, podLevel, overhead, nonMissing)
	pt.nonZero = rlist{core.ResourceCPU: nz[core.ResourceCPU], core.ResourceMemory: nz[core.ResourceMemory]}
}

// container decodes one v1 Container. It returns the container's effective
// request and whether the container is valid.
func (d *decoder) container(n *yaml.Node, path string, init bool, names map[string]bool) (containerReqs, bool) {
	var cr containerReqs
	var nameNode *yaml.Node
	var name string
	var requests, limits rlist
	var reqNodes map[core.ResourceName]*yaml.Node
	ok := true
	for _, p := range d.pairs(n, path) {
		fp := d.join(path, p.name)
		switch p.name {
		case "name":
			if s, good := d.str(p.val, fp); good {
				name, nameNode = s, p.val
			}
		case "resources":
			for _, q := range d.pairs(p.val, fp) {
				qp := d.join(fp, q.name)
				switch q.name {
				case "requests":
					requests, reqNodes = d.resourceListNodes(q.val, qp)
					for r, rn := range reqNodes {
						if r == core.ResourcePods {
							// Kueue's workload webhook (validateContainer).
							d.errorf(rn, key(qp, string(r)), "the key is reserved for internal kueue use")
							ok = false
						}
					}
				case "limits":
					limits = d.resourceList(q.val, qp)
				case "claims":
				default:
					d.unknown(q, fp)
				}
			}
		case "restartPolicy":
			if s, good := d.strEnum(p.val, fp, "Always", "OnFailure", "Never"); good {
				cr.sidecar = init && s == "Always"
			}
		case "args", "command", "env", "envFrom", "image", "imagePullPolicy", "lifecycle",
			"livenessProbe", "ports", "readinessProbe", "resizePolicy", "restartPolicyRules",
			"securityContext", "startupProbe", "stdin", "stdinOnce", "terminationMessagePath",
			"terminationMessagePolicy", "tty", "volumeDevices", "volumeMounts", "workingDir":
			// Real Container fields the playground does not interpret.
		default:
			d.unknown(p, path)
		}
	}
	if isNull(n) {
		return cr, false
	}
	cr.name = name
	if nameNode == nil {
		d.required(n, path, "name")
	} else if names[name] {
		d.errorf(nameNode, d.join(path, "name"), "duplicate container name %q", name)
	} else {
		names[name] = true
	}
	// Requests may not exceed limits: the API server rejects such a Job, and
	// Kueue keeps such a Workload inadmissible (workload.ValidateResources).
	for r, v := range requests {
		if l, has := limits[r]; has && v > l {
			d.errorf(reqNodes[r], key(d.join(path, "resources.requests"), string(r)), "requests must not exceed its limits: request %s is above limit %s", core.FormatAmount(r, v), core.FormatAmount(r, l))
			ok = false
		}
	}
	cr.req = rlist{}
	for r, v := range limits {
		cr.req[r] = v
	}
	for r, v := range requests {
		cr.req[r] = v
	}
	return cr, ok
}

// resourceList decodes a v1 ResourceList (resource name -> quantity); every
// quantity must be non-negative.
func (d *decoder) resourceList(n *yaml.Node, path string) rlist {
	l, _ := d.resourceListNodes(n, path)
	return l
}

func (d *decoder) resourceListNodes(n *yaml.Node, path string) (rlist, map[core.ResourceName]*yaml.Node) {
	out := rlist{}
	nodes := map[core.ResourceName]*yaml.Node{}
	for _, p := range d.pairs(n, path) {
		fp := d.key(path, p.name)
		if msg := checkQualifiedName(p.name); msg != "" {
			d.errorf(p.key, fp, "invalid resource name: %s", msg)
			continue
		}
		name := core.ResourceName(p.name)
		if v, ok := d.nonNegQuantity(p.val, fp, name); ok {
			out[name] = v
			nodes[name] = p.val
		}
	}
	return out, nodes
}

// podRequests computes the per-pod request of a pod template like
// k8s.io/component-helpers/resource.PodRequests (which Kueue's
// totalRequestsFromPodSets calls): the sum of the containers and the
// restartable init containers (sidecars), at least the largest need of any
// init container while it runs (itself plus the sidecars started before
// it), then pod-level requests for cpu, memory and hugepages replace the
// aggregate, and the pod overhead is added. nonMissing, when set, stands in
// for cpu/memory a container does not request (kube-scheduler's scoring
// view, PodResourcesOptions.NonMissingContainerRequests).
//
// Quantities are converted to Amounts per container before summing, so
// fractional bytes or sub-millicore cpu round up per container rather than
// once per pod. over reports an int64 overflow.
func podRequests(containers, inits []containerReqs, podLevel, overhead, nonMissing rlist) (reqs rlist, over bool) {
	withDefaults := func(r rlist) rlist {
		if len(nonMissing) == 0 {
			return r
		}
		out := make(rlist, len(r)+len(nonMissing))
		for k, v := range r {
			out[k] = v
		}
		for k, v := range nonMissing {
			if _, found := r[k]; !found {
				out[k] = v
			}
		}
		return out
	}
	add := func(dst, src rlist) {
		for k, v := range src {
			s, ok := addAmounts(dst[k], v)
			if !ok {
				over = true
			}
			dst[k] = s
		}
	}
	maxInto := func(dst, src rlist) {
		for k, v := range src {
			if cur, found := dst[k]; !found || v > cur {
				dst[k] = v
			}
		}
	}
	reqs = rlist{}
	for _, c := range containers {
		add(reqs, withDefaults(c.req))
	}
	restartable := rlist{}
	initMax := rlist{}
	for _, c := range inits {
		r := withDefaults(c.req)
		if c.sidecar {
			add(reqs, r)
			add(restartable, r)
			maxInto(initMax, restartable)
			continue
		}
		running := rlist{}
		add(running, r)
		add(running, restartable)
		maxInto(initMax, running)
	}
	maxInto(reqs, initMax)
	for k, v := range podLevel {
		if k == core.ResourceCPU || k == core.ResourceMemory || strings.HasPrefix(string(k), "hugepages-") {
			reqs[k] = v
		}
	}
	add(reqs, overhead)
	return reqs, over
}

// addAmounts adds two non-negative amounts, reporting overflow.
func addAmounts(a, b core.Amount) (core.Amount, bool) {
	if b > 0 && a > math.MaxInt64-b {
		return math.MaxInt64, false
	}
	return a + b, true
}

// affinity decodes spec.affinity. Only nodeAffinity is read; podAffinity
// and podAntiAffinity are accepted and skipped.
func (d *decoder) affinity(n *yaml.Node, path string, pt *podTemplate) {
	for _, p := range d.pairs(n, path) {
		fp := d.join(path, p.name)
		switch p.name {
		case "nodeAffinity":
			for _, q := range d.pairs(p.val, fp) {
				qp := d.join(fp, q.name)
				switch q.name {
				case "requiredDuringSchedulingIgnoredDuringExecution":
					pt.required = d.requiredNodeAffinity(q.val, qp)
				case "preferredDuringSchedulingIgnoredDuringExecution":
					pt.preferred = d.preferredNodeAffinity(q.val, qp)
				default:
					d.unknown(q, fp)
				}
			}
		case "podAffinity", "podAntiAffinity":
			// Not simulated.
		default:
			d.unknown(p, path)
		}
	}
}

// requiredNodeAffinity decodes a v1 NodeSelector; Kubernetes requires at
// least one term.
func (d *decoder) requiredNodeAffinity(n *yaml.Node, path string) []core.NodeSelectorTerm {
	var terms []core.NodeSelectorTerm
	have := false
	for _, p := range d.pairs(n, path) {
		fp := d.join(path, p.name)
		switch p.name {
		case "nodeSelectorTerms":
			for i, t := range d.items(p.val, fp) {
				have = true
				terms = append(terms, d.nodeSelectorTerm(t, d.index(fp, i)))
			}
		default:
			d.unknown(p, path)
		}
	}
	if !isNull(n) && !have {
		d.errorf(n, d.join(path, "nodeSelectorTerms"), "must have at least one node selector term")
	}
	return terms
}

// preferredNodeAffinity decodes preferredDuringSchedulingIgnoredDuringExecution;
// each weight must be in [1, 100].
func (d *decoder) preferredNodeAffinity(n *yaml.Node, path string) []core.PreferredSchedulingTerm {
	var out []core.PreferredSchedulingTerm
	for i, item := range d.items(n, path) {
		ip := d.index(path, i)
		var t core.PreferredSchedulingTerm
		haveWeight, havePref := false, false
		for _, p := range d.pairs(item, ip) {
			fp := d.join(ip, p.name)
			switch p.name {
			case "weight":
				if v, ok := d.integer(p.val, fp, 1, 100); ok {
					t.Weight, haveWeight = int32(v), true
				} else if p.val == nil || isNull(p.val) {
					continue
				} else {
					haveWeight = true // reported
				}
			case "preference":
				havePref = true
				t.Preference = d.nodeSelectorTerm(p.val, fp)
			default:
				d.unknown(p, ip)
			}
		}
		if isNull(item) {
			continue
		}
		if !haveWeight {
			d.required(item, ip, "weight")
		}
		if !havePref {
			d.required(item, ip, "preference")
		}
		if haveWeight && havePref && t.Weight > 0 {
			out = append(out, t)
		}
	}
	return out
}
