package scenario

import (
	"fmt"
	"hash/fnv"
	"math"

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
// Kueue does not manage it; its pods go straight to the placement layer. It
// validates like the API server (ValidateDeploymentSpec,
// ValidateReplicaSetSpec): spec.selector and spec.template are required,
// the selector must not be empty and must match the template's labels, and
// the template's restartPolicy must be Always. spec.replicas defaults to 1
// and is bounded by core.MaxReplicas (the playground's bound).
func (d *decoder) deployment(st *state, o *rawObject) {
	m, rest := d.begin(o, true, nameSubdomain)
	sa := d.annotations(m, annArrival, o.kind)
	di := &depInfo{label: m.label, node: o.node, nameNode: m.nameNode}
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
	if !isNull(templateNode) {
		pt := d.podTemplate(templateNode, "spec.template")
		if selector != nil && !selector.Matches(pt.labels) {
			d.errorf(pt.labelsNode, "spec.template.metadata.labels", "spec.selector does not match the template's labels: a %s must select the pods it creates (the API server rejects it)", o.kind)
		}
		if rp := pt.restartPolicy; rp.node != nil && rp.name != "Always" {
			d.errorf(rp.node, rp.path, "unsupported value %q: supported values: \"Always\" (a %s's pods always restart)", rp.name, o.kind)
		}
		labels := make(map[string]string, len(pt.labels)+1)
		for k, v := range pt.labels {
			labels[k] = v
		}
		if isDeployment {
			labels[labelPodTemplateHash] = podTemplateHash(m.namespace, m.name)
		}
		dep.Pod = pt.pods(dep.Replicas, labels)
		if _, ok := pt.labels[labelQueueName]; ok {
			di.queueLabeled = true
			d.warnf(pt.labelNodes[labelQueueName], key("spec.template.metadata.labels", labelQueueName), "Kueue's pod integration is not simulated: the pods of this %s are placed without quota", o.kind)
		}
	}
	if _, ok := m.labels[labelQueueName]; ok && isDeployment {
		di.queueLabeled = true
		d.warnf(m.labelNodes[labelQueueName], key("metadata.labels", labelQueueName), "Kueue's Deployment integration is not simulated: the pods of this Deployment are placed without quota")
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
	for _, w := range st.workloads {
		if w.dropped {
			continue
		}
		k := w.wl.Namespace + "/" + w.wl.Name
		dp, clash := st.podOwners[k]
		if !clash {
			continue
		}
		at := d.where(w.nameNode.Line, dp.nameNode)
		what := fmt.Sprintf("Workload %q (%s)", k, at)
		if w.job {
			what = fmt.Sprintf("the Workload of %s %q (%s)", w.jobKind, w.wl.Namespace+"/"+w.jobName, at)
		}
		d.errorObj(dp.label, dp.nameNode, "metadata.name", "%s %q has the same namespace and name as %s: events and expectations name both by namespace/name, so the playground requires distinct names", dp.dep.Kind, k, what)
	}
	// Pod names: a workload's are <workload>-<podset>-<i>, a Deployment's
	// <deployment>-<i>; the two must never meet.
	for _, w := range st.workloads {
		if w.dropped {
			continue
		}
		for _, ps := range w.wl.PodSets {
			k := w.wl.Namespace + "/" + w.wl.Name + "-" + ps.Name
			dp, clash := st.podOwners[k]
			if !clash {
				continue
			}
			d.errorObj(dp.label, dp.nameNode, "metadata.name", "%s %q would name its pods %s-0, %s-1, ..., the names the pods of pod set %q of Workload %q (%s) get: rename one", dp.dep.Kind, k, dp.dep.Name, dp.dep.Name, ps.Name, w.wl.Namespace+"/"+w.wl.Name, d.where(w.nameNode.Line, dp.nameNode))
		}
	}

	// LocalQueueDefaulting (Beta, on by default) also reaches the pods of
	// Deployments and ReplicaSets without the queue-name label in a
	// namespace with a LocalQueue "default" (jobframework.ApplyDefaultLocalQueue
	// in the Deployment and pod webhooks).
	lqs := map[string]bool{}
	for _, q := range st.localQueues {
		lqs[q.lq.Namespace+"/"+q.lq.Name] = true
	}
	for _, dp := range st.deployments {
		if dp.queueLabeled || !lqs[dp.dep.Namespace+"/"+defaultLocalQueueName] {
			continue
		}
		d.warnObj(dp.label, dp.node, key("metadata.labels", labelQueueName), "namespace %q has a LocalQueue named %q: with LocalQueueDefaulting (on by default) Kueue would queue each pod of this %s as a single-pod Workload; the pod integration is not simulated for them, so the pods are placed without quota", dp.dep.Namespace, defaultLocalQueueName, dp.dep.Kind)
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
