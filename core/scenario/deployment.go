package scenario

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strconv"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/kueueplay/kueueplay/core"
)

// labelPodTemplateHash is the label the Deployment controller puts on the
// pods of each ReplicaSet it creates (apps/v1 DefaultDeploymentUniqueLabelKey).
const labelPodTemplateHash = "pod-template-hash"

// podTemplateHash is the playground's stand-in for the pod-template-hash
// value: the first 10 lowercase hex digits of the 64-bit FNV-1a hash of
// "namespace/name". Kubernetes hashes the pod template instead
// (controller.ComputeHash), so a real value differs; the stand-in only has
// to be stable and distinct per Deployment, which is what matchLabelKeys
// grouping needs.
func podTemplateHash(namespace, name string) string {
	h := fnv.New64a()
	h.Write([]byte(namespace + "/" + name))
	return fmt.Sprintf("%016x", h.Sum64())[:10]
}

// deployment decodes an apps/v1 Deployment or ReplicaSet (kind says which).
// When Kueue queues its pods (see podWorkload and linkQueuedDeployments),
// each pod is a single-pod Workload; otherwise its pods go straight to the
// placement layer. It validates like the API server (ValidateDeploymentSpec,
// ValidateReplicaSetSpec): spec.selector and spec.template are required,
// the selector must not be empty and must match the template's labels, and
// the template's restartPolicy must be Always. spec.replicas defaults to 1
// and is bounded by core.MaxReplicas (the playground's bound).
func (d *decoder) deployment(st *state, o *rawObject) {
	m, rest := d.begin(o, true, nameSubdomain)
	sa := d.annotations(m, annArrival, o.kind)
	di := &depInfo{label: m.label, node: o.node, nameNode: m.nameNode, owner: m.owner}
	dep := core.Deployment{
		Kind:      o.kind,
		Namespace: m.namespace,
		Name:      m.name,
		Replicas:  1,
		Arrival:   sa.arrival,
		Pos:       d.pos(o.node),
	}
	isDeployment := o.kind == "Deployment"
	specNode, _ := d.specAndStatus(rest)
	var selector *core.LabelSelector
	var selectorNode, templateNode *yaml.Node
	for _, p := range d.pairs(specNode, "spec") {
		fp := join("spec", p.name)
		switch p.name {
		case "replicas":
			if v, ok := d.replicaCount(p.val, fp); ok {
				dep.Replicas = v
				di.replicas = ref{node: p.val, path: fp}
			}
		case "selector":
			selectorNode = p.val
			selector = d.labelSelector(p.val, fp, "")
		case "template":
			templateNode = p.val
		case "minReadySeconds":
			// A real field of both kinds that the playground does not
			// interpret.
		case "paused":
			if !isDeployment {
				d.unknown(p, "spec")
				continue
			}
			if v, ok := d.boolean(p.val, fp); ok && v {
				d.warnf(p.val, fp, "paused is not simulated: the playground creates the Deployment's pods as if it were not paused")
			}
		case "strategy", "revisionHistoryLimit", "progressDeadlineSeconds":
			// Real DeploymentSpec fields the playground does not interpret
			// (it creates one ReplicaSet and never rolls out).
			if !isDeployment {
				d.unknown(p, "spec")
			}
		default:
			d.unknown(p, "spec")
		}
	}
	if pt, ok := d.appsTemplate(o, specNode, selectorNode, templateNode, selector); ok {
		labels := make(map[string]string, len(pt.labels)+1)
		for k, v := range pt.labels {
			labels[k] = v
		}
		if isDeployment {
			labels[labelPodTemplateHash] = podTemplateHash(m.namespace, m.name)
		}
		di.proto = d.podWorkload(o, m, pt, labels, isDeployment)
		dep.Pod = pt.pods(dep.Replicas, labels)
	}
	if _, ok := m.labels[labelQueueName]; ok && !isDeployment && (di.proto == nil || di.proto.queue.name == "") {
		d.warnf(m.labelNodes[labelQueueName], key("metadata.labels", labelQueueName), "Kueue has no ReplicaSet integration: its pod integration reads the queue-name label of the pods, so this label is ignored; put it on spec.template.metadata.labels")
	}
	di.dep = dep
	if m.name == "" || !d.register(st, o.kind, m.namespace, m.name, m.nameNode, "") {
		return
	}
	k := dep.Key()
	if first, taken := st.podOwners[k]; taken {
		d.errorf(m.nameNode, "metadata.name", "%s %q has the same namespace and name as %s %q (%s): their pods would be indistinguishable (both named %s-<index>), so the playground requires distinct names", o.kind, k, first.dep.Kind, k, d.where(first.nameNode.Line, m.nameNode), m.name)
		return
	}
	st.podOwners[k] = di
	st.deployments = append(st.deployments, di)
}

// replicaCount decodes a replica count: an integer in [0, core.MaxReplicas].
func (d *decoder) replicaCount(n *yaml.Node, path string) (int32, bool) {
	v, ok := d.integer(n, path, math.MinInt64, math.MaxInt64)
	if !ok {
		return 0, false
	}
	if v < 0 || v > core.MaxReplicas {
		d.errorf(n, path, "must be between 0 and %d (MaxReplicas, the playground's bound), got %d", core.MaxReplicas, v)
		return 0, false
	}
	return int32(v), true
}

// linkDeployments runs the checks on Deployments and ReplicaSets that need
// the whole file: a workload with the same namespace/name (events and
// expectations could not tell them apart), and the MaxDeploymentPods bound
// on the pods they may ask for together.
func (d *decoder) linkDeployments(st *state) {
	// Without Deployments or ReplicaSets, no name can clash (and a
	// 15,000-workload file need not build 15,000 keys to find it out).
	if len(st.podOwners) > 0 {
		for _, w := range st.workloads {
			if !w.dropped {
				d.deploymentClash(st, w.wl, w.nameAt.line, w)
			}
		}
		for i := range st.fastWorkloads {
			d.deploymentClash(st, &st.fastWorkloads[i], int(st.fastAt[i].nameLine), nil)
		}
	}

	// Each Deployment counts with the largest replica count it can reach:
	// spec.replicas or a scale event's replicas.
	peak := map[string]*scaleRef{}
	for i := range st.scenario.scales {
		s := &st.scenario.scales[i]
		if p, ok := peak[s.target]; !ok || s.replicas > p.replicas {
			peak[s.target] = s
		}
	}
	total := 0
	for _, dp := range st.deployments {
		if dp.ownedBy != nil {
			continue
		}
		n := int(dp.dep.Replicas)
		obj, node, path := dp.label, orNode(dp.replicas.node, dp.node), "spec.replicas"
		if s, ok := peak[dp.dep.Key()]; ok && int(s.replicas) > n {
			n = int(s.replicas)
			obj, node, path = st.scenario.label, s.node, s.path
		}
		total += n
		if total > core.MaxDeploymentPods {
			d.errorObj(obj, node, path, "the Deployments and ReplicaSets of the file ask for %d pods up to %s %q (each counted at the largest of its spec.replicas and its scale events); at most %d pods in total are accepted (MaxDeploymentPods)", total, dp.dep.Kind, dp.dep.Key(), core.MaxDeploymentPods)
			return
		}
	}
}

// podWorkload builds the Workload Kueue's pod integration would make of one
// pod of the Deployment or ReplicaSet o (pod_controller.go
// constructPodSets: one pod set "main" of count 1), less what
// linkQueuedDeployments fills in per pod (name, creation time) or once the
// whole input is known (the default LocalQueue, the priority value).
// labels are the pods' labels; the queue-name and priority-class labels a
// Deployment webhook copies into the template are added to them.
//
// The queue is a Deployment's queue-name label, which the Deployment
// webhook copies into the pod template (deployment_webhook.go Default),
// else the template's own; a ReplicaSet has no integration, so only its
// template's label counts. The priority class label likewise; without one,
// the template's priorityClassName (jobframework.ExtractPriority on the
// Pod).
func (d *decoder) podWorkload(o *rawObject, m objMeta, pt podTemplate, labels map[string]string, isDeployment bool) *wlInfo {
	w := &wlInfo{
		label: m.label, objAt: atOf(o.node), nameAt: atOf(m.nameNode),
		job:    true,
		wlMore: wlMore{jobKind: o.kind, jobName: m.name, pc: pt.priorityClassName},
		wl:     &core.Workload{Namespace: m.namespace, Active: true, Pos: d.pos(o.node)},
	}
	type source struct {
		labels map[string]string
		nodes  map[string]*yaml.Node
		path   string
	}
	sources := []source{{pt.labels, pt.labelNodes, "spec.template.metadata.labels"}}
	if isDeployment {
		sources = append([]source{{m.labels, m.labelNodes, "metadata.labels"}}, sources...)
	}
	w.noQueueLabel = true
	for _, src := range sources {
		v, ok := src.labels[labelQueueName]
		if !ok || !w.noQueueLabel {
			continue
		}
		fp := key(src.path, labelQueueName)
		// jobframework.ValidateQueueName.
		if msg := checkDNSSubdomain(v, MaxNameLength); msg != "" {
			d.errorf(src.nodes[labelQueueName], fp, "invalid queue name: %s", msg)
		}
		w.noQueueLabel = false
		w.wl.Queue = v
		w.queue = wref{name: v, at: atOf(src.nodes[labelQueueName]), path: fp}
		labels[labelQueueName] = v
	}
	for _, src := range sources {
		if c, ok := src.labels[labelPriorityClass]; ok && c != "" && w.wpc.name == "" {
			w.wpc = ref{name: c, node: src.nodes[labelPriorityClass], path: key(src.path, labelPriorityClass)}
			labels[labelPriorityClass] = c
		}
	}
	ps := pt.pods(1, labels)
	ps.Name = defaultPodSetName
	w.wl.PodSets = []core.PodSet{ps}
	return w
}

// linkQueuedDeployments makes the Workloads of the pods Kueue queues: the
// pods of a Deployment or ReplicaSet with a queue (see podWorkload), or,
// without one, in a namespace with a LocalQueue "default"
// (LocalQueueDefaulting, Beta and on by default:
// jobframework.ApplyDefaultLocalQueue in the Deployment and pod webhooks).
// Each pod is one Workload named pod-<pod name>, pod index order, one for
// every pod the owner ever creates (podCreations). Kueue names it after
// the Pod and a hash of its UID (GetWorkloadNameForOwnerWithGVK); the
// playground's pods have no UID, so the name is the pod's alone.
//
// The checks that would repeat for each pod (the priority class, the
// LocalQueue) run once, on the owner.
func (d *decoder) linkQueuedDeployments(st *state) {
	lqs := map[string]bool{}
	for _, q := range st.localQueues {
		lqs[q.lq.Namespace+"/"+q.lq.Name] = true
	}
	d.adoptPodWorkloads(st)
	total := 0
	for _, dp := range st.deployments {
		w := dp.proto
		if w == nil || dp.dep.Name == "" || dp.ownedBy != nil {
			continue
		}
		ns := dp.dep.Namespace
		if w.noQueueLabel && !lqs[ns+"/"+defaultLocalQueueName] {
			continue
		}
		if ci := st.config; ci != nil && ci.noPods {
			where, path := dp.node, key("metadata.labels", labelQueueName)
			if w.queue.at != (at{}) {
				where, path = w.queue.at.node(), w.queue.path
			}
			d.warnObj(w.label, where, path, "the Configuration's integrations.frameworks (%s) enables no pod integration: Kueue does not queue the pods of this %s, so they are placed without quota", d.where(ci.noPodsAt.node.Line, dp.node), dp.dep.Kind)
			continue
		}
		if w.noQueueLabel {
			w.wl.Queue = defaultLocalQueueName
			w.queue = wref{name: defaultLocalQueueName, at: atOf(dp.node), path: key("metadata.labels", labelQueueName)}
			for i := range w.wl.PodSets {
				w.wl.PodSets[i].Labels[labelQueueName] = defaultLocalQueueName
			}
		}
		dp.dep.Queue = w.wl.Queue
		d.jobPriority(st, w)
		if w.dropped {
			continue
		}
		if !lqs[ns+"/"+w.wl.Queue] {
			d.warnObj(w.label, w.queue.at.node(), w.queue.path, "LocalQueue %q does not exist in namespace %q: the Workloads of this %s's pods stay pending and its pods stay gated; paste the LocalQueue (kubectl get localqueues -A -o yaml) or fix the queue name", w.wl.Queue, ns, dp.dep.Kind)
		}
		for _, a := range dp.adopted {
			a.w.wl.ReplicaOf, a.w.wl.PodName = dp.dep.Key(), a.pod
			dp.workloads = append(dp.workloads, a.w)
		}
		switch {
		case len(dp.adopted) > 0 && dp.dep.Arrival != 0:
			d.warnObj(dp.label, dp.node, key("metadata.annotations", annotationArrival), "the Workloads of %d pods of this %s are in the input, so it exists from the start: %s is ignored", len(dp.adopted), dp.dep.Kind, annotationArrival)
			dp.dep.Arrival = 0
		case len(dp.adopted) == 0 && dp.podsInInput > 0:
			d.warnObj(dp.label, dp.node, "", "%d pods of this %s are in the input but not their Workloads, so the playground does not know which hold quota: it starts the %s with new pods, all pending; paste the Workloads too (kubectl get workloads -o yaml)", dp.podsInInput, dp.dep.Kind, dp.dep.Kind)
		}
		times := podCreations(&st.scenario.sc, &dp.dep, len(dp.adopted))
		total += len(times) + len(dp.adopted)
		if total > MaxObjects {
			d.errorObj(dp.label, orNode(dp.replicas.node, dp.node), "spec.replicas", "the Deployments and ReplicaSets whose pods Kueue queues make more than %d Workloads together (one per pod ever created; MaxObjects)", MaxObjects)
			return
		}
		prefix := jobWorkloadName("Pod", dp.dep.Name)
		for k, at := range times {
			suffix := "-" + strconv.Itoa(k)
			name := prefix[:min(len(prefix), MaxNameLength-len(suffix))] + suffix
			wl := *w.wl
			pw := &wlInfo{
				label: w.label, objAt: w.objAt, nameAt: w.nameAt, queue: w.queue,
				job: true, wlMore: wlMore{jobKind: "Pod", jobName: dp.dep.Name + suffix},
				wl: &wl,
			}
			pw.wl.Name, pw.wl.PodName, pw.wl.Arrival, pw.wl.ReplicaOf = name, pw.jobName, at, dp.dep.Key()
			if !d.registerJobWorkload(st, pw) {
				continue
			}
			st.addWorkload(pw)
			dp.workloads = append(dp.workloads, pw)
		}
	}
}

// deploymentClash reports the Deployments and ReplicaSets with the
// namespace and name of wl, a kept workload whose metadata.name is on
// nameLine, or with the names of its pods: a workload's are
// <workload>-<podset>-<i>, a Deployment's <deployment>-<i>, and the two
// must never meet. w is wl's wlInfo, nil on the fast path.
func (d *decoder) deploymentClash(st *state, wl *core.Workload, nameLine int, w *wlInfo) {
	k := wl.Namespace + "/" + wl.Name
	if dp, clash := st.podOwners[k]; clash {
		at := d.where(nameLine, dp.nameNode)
		what := fmt.Sprintf("Workload %q (%s)", k, at)
		if w != nil && w.job {
			what = fmt.Sprintf("the Workload of %s %q (%s)", w.jobKind, wl.Namespace+"/"+w.jobName, at)
		}
		d.errorObj(dp.label, dp.nameNode, "metadata.name", "%s %q has the same namespace and name as %s: events and expectations name both by namespace/name, so the playground requires distinct names", dp.dep.Kind, k, what)
	}
	for _, ps := range wl.PodSets {
		k := wl.Namespace + "/" + wl.Name + "-" + ps.Name
		dp, clash := st.podOwners[k]
		if !clash {
			continue
		}
		d.errorObj(dp.label, dp.nameNode, "metadata.name", "%s %q would name its pods %s-0, %s-1, ..., the names the pods of pod set %q of Workload %q (%s) get: rename one", dp.dep.Kind, k, dp.dep.Name, dp.dep.Name, ps.Name, wl.Namespace+"/"+wl.Name, d.where(nameLine, dp.nameNode))
	}
}

// podCreations returns when each new pod of dep is created, in pod index
// order, as the engine creates them (sim.scaleDeployment): when the object
// is created, the pods that raise existing (its pods the input holds) to
// spec.replicas, then, for each scale event at or after that (by time,
// then document order), the pods that raise the replica count to the
// event's. A scale-down deletes pods; a later scale-up creates new ones
// with new indexes.
func podCreations(sc *core.Scenario, dep *core.Deployment, existing int) []time.Duration {
	var evs []*core.Event
	for i := range sc.Events {
		e := &sc.Events[i]
		if e.Kind == core.EventScale && e.Target == dep.Key() && e.At >= dep.Arrival {
			evs = append(evs, e)
		}
	}
	slices.SortStableFunc(evs, func(a, b *core.Event) int { return cmp.Compare(a.At, b.At) })
	out := make([]time.Duration, 0, dep.Replicas)
	for cur := int32(existing); cur < dep.Replicas; cur++ {
		out = append(out, dep.Arrival)
	}
	cur := dep.Replicas
	for _, e := range evs {
		for ; cur < e.Replicas; cur++ {
			out = append(out, e.At)
		}
		cur = e.Replicas
	}
	return out
}

// linkDeploymentOwners leaves out a ReplicaSet whose controller
// ownerReference names a Deployment of the input, as `kubectl get
// deployments,replicasets` prints them together: the Deployment makes the
// ReplicaSet and its pods, so the playground simulates the Deployment and
// the ReplicaSet would count every pod twice. A ReplicaSet whose Deployment
// is not in the input stands on its own.
func (d *decoder) linkDeploymentOwners(st *state) {
	for _, dp := range st.deployments {
		o := dp.owner
		if dp.dep.Kind != "ReplicaSet" || o == nil || o.group != "apps" || o.kind != "Deployment" {
			continue
		}
		if owner, ok := st.podOwners[dp.dep.Namespace+"/"+o.name]; ok && owner.dep.Kind == "Deployment" {
			dp.ownedBy = owner
		}
	}
}

// adoptPodWorkloads finds the pasted Workloads of a Deployment's or
// ReplicaSet's pods: Kueue's pod integration makes a Workload owned by
// each pod (controller ownerReference kind Pod), and the pod is owned by
// its ReplicaSet, owned in turn by its Deployment. A Workload whose Pod
// is in the input and belongs to an owner of the input is that owner's
// pod workload, with the state the input gives it (linkQueuedDeployments
// counts it among the owner's pods).
func (d *decoder) adoptPodWorkloads(st *state) {
	ownerOf := map[string]*depInfo{} // "namespace/pod"
	for _, p := range st.ownedPods {
		if p.owner.kind != "Deployment" && p.owner.kind != "ReplicaSet" {
			continue
		}
		dp, ok := st.podOwners[p.namespace+"/"+p.owner.name]
		if !ok || dp.dep.Kind != p.owner.kind {
			continue
		}
		if dp.ownedBy != nil {
			dp = dp.ownedBy
		}
		ownerOf[p.namespace+"/"+p.name] = dp
		dp.podsInInput++
	}
	for _, w := range st.workloads {
		o := w.owner
		if w.dropped || w.job || o == nil || o.group != "" || o.kind != "Pod" {
			continue
		}
		if dp := ownerOf[w.wl.Namespace+"/"+o.name]; dp != nil {
			dp.adopted = append(dp.adopted, adoptedPod{w: w, pod: o.name})
		}
	}
}

// appsTemplate applies the API server's rules shared by apps/v1
// Deployments, ReplicaSets and StatefulSets (ValidateDeploymentSpec,
// ValidateReplicaSetSpec, ValidateStatefulSetSpec) and decodes the pod
// template: spec.selector and spec.template are required, the selector
// must not be empty and must match the template's labels, and the
// template's restartPolicy must be Always. ok is false without a template.
func (d *decoder) appsTemplate(o *rawObject, specNode, selectorNode, templateNode *yaml.Node, selector *core.LabelSelector) (pt podTemplate, ok bool) {
	if isNull(specNode) {
		d.required(o.node, "", "spec")
	} else {
		if selector == nil {
			d.required(specNode, "spec", "selector")
		} else if len(selector.MatchLabels) == 0 && len(selector.MatchExpressions) == 0 {
			d.errorf(selectorNode, "spec.selector", "empty selector is invalid for a %s: it must select the pods of its template", o.kind)
			selector = nil
		}
		if isNull(templateNode) {
			d.required(specNode, "spec", "template")
		}
	}
	if isNull(templateNode) {
		return podTemplate{}, false
	}
	pt = d.podTemplate(templateNode, "spec.template")
	if selector != nil && !selector.Matches(pt.labels) {
		d.errorf(pt.labelsNode, "spec.template.metadata.labels", "spec.selector does not match the template's labels: a %s must select the pods it creates (the API server rejects it)", o.kind)
	}
	if rp := pt.restartPolicy; rp.node != nil && rp.name != "Always" {
		d.errorf(rp.node, rp.path, "unsupported value %q: supported values: \"Always\" (a %s's pods always restart)", rp.name, o.kind)
	}
	return pt, true
}
