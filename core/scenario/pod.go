package scenario

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/kueueplay/kueueplay/core"
)

// Labels and annotations of Kueue's pod integration
// (pkg/controller/jobs/pod/constants).
const (
	labelPodGroupName            = "kueue.x-k8s.io/pod-group-name"
	annotationPodGroupTotalCount = "kueue.x-k8s.io/pod-group-total-count"
	annotationPodGroupFastAdmit  = "kueue.x-k8s.io/pod-group-fast-admission"
	annotationPodGroupRoleHash   = "kueue.x-k8s.io/role-hash"
)

// podGroup collects the Pods of one pod group (same namespace and
// kueue.x-k8s.io/pod-group-name) across the file; link turns them into one
// Workload.
type podGroup struct {
	w    *wlInfo
	pods []groupPod
}

// groupPod is one Pod of a pod group.
type groupPod struct {
	name     string
	label    string
	nameNode *yaml.Node
	pt       podTemplate
	queue    string
	hasQueue bool
	// queueNode is the queue-name label value, else the name.
	queueNode *yaml.Node
	// total is the pod-group-total-count annotation (0 when invalid);
	// totalNode its value.
	total     int
	totalNode *yaml.Node
	fast      bool
	roleHash  string
}

// pod decodes a v1 Pod. Kueue's pod integration
// (pkg/controller/jobs/pod/pod_controller.go) makes a Workload of a Pod
// with the queue-name label: a single Pod becomes a Workload with one pod
// set "main" of count 1 (constructPodSets), named pod-<name> (Kueue:
// GetWorkloadNameForPod, with a hash of the UID); the Pods sharing a
// kueue.x-k8s.io/pod-group-name label become one Workload named after the
// group (see linkPodGroups). The priority is the priority-class label, else
// the pod's priorityClassName (jobframework.ExtractPriority).
//
// The pod webhook (pod_webhook.go: validatePodGroupMetadata) requires the
// group-name label and the pod-group-total-count annotation together, the
// group name to be a valid object name, and the count to be an integer
// of at least 1.
//
// A Pod whose controller ownerReference names a job kind Kueue integrates,
// a Deployment or a ReplicaSet belongs to that owner: Kueue's pod webhook
// leaves the pods of its other integrations alone
// (jobframework.IsOwnerManagedByKueueForObject), and the playground makes
// a Deployment's or ReplicaSet's pods itself. Such a Pod is not decoded
// further; linkOwners says what happens to it.
func (d *decoder) pod(st *state, o *rawObject) {
	m, rest := d.begin(o, true, nameSubdomain)
	if m.owner != nil && podOwnerKind(m.owner.group, m.owner.kind) {
		st.ownedPods = append(st.ownedPods, ownedPod{label: m.label, namespace: m.namespace, name: m.name, owner: m.owner})
		return
	}
	sa := d.annotations(m, annWorkload, o.kind)
	specNode, statusNode := d.specAndStatus(rest)
	// status.phase: a Failed Pod is not runnable (isPodRunnableOrSucceeded)
	// and a terminated single Pod's Workload is finished (Pod.Finished).
	var phase string
	var phaseNode *yaml.Node
	if pn := d.awChild(statusNode, "phase"); !isNull(pn) {
		phase, _ = d.strEnum(pn, "status.phase", "Pending", "Running", "Succeeded", "Failed", "Unknown")
		phaseNode = pn
	}
	pt := podTemplate{labels: m.labels, labelNodes: m.labelNodes, labelsNode: orNode(m.labelsNode, m.node)}
	if isNull(specNode) {
		d.required(o.node, "", "spec")
	} else {
		d.podSpec(specNode, "spec", &pt)
	}
	group, inGroup := m.labels[labelPodGroupName]
	totalStr, hasTotal := m.ann[annotationPodGroupTotalCount]
	groupPath := key("metadata.labels", labelPodGroupName)
	totalPath := key("metadata.annotations", annotationPodGroupTotalCount)
	switch {
	case inGroup && !hasTotal:
		d.errorf(m.labelNodes[labelPodGroupName], totalPath, "both the %q annotation and the %q label should be set", annotationPodGroupTotalCount, labelPodGroupName)
		return
	case !inGroup && hasTotal:
		d.errorf(m.annNodes[annotationPodGroupTotalCount], groupPath, "both the %q annotation and the %q label should be set", annotationPodGroupTotalCount, labelPodGroupName)
		return
	}
	if !inGroup {
		w := d.jobWorkload(o, m, jobGVK{"", "Pod"}, sa, jobWorkloadName("Pod", m.name))
		w.wl.PodSets = []core.PodSet{pt.podSet(defaultPodSetName, 1, "")}
		w.pc = pt.priorityClassName
		if phase == "Succeeded" || phase == "Failed" {
			d.warnf(phaseNode, "status.phase", "the Pod has terminated (phase %s): its Workload is finished and Kueue no longer counts it, so the playground leaves it out", phase)
			w.dropped = true
		}
		d.addJob(st, o, m, w)
		return
	}
	// jobframework.ValidateLabelAsCRDName.
	if msg := checkDNSSubdomain(group, MaxNameLength); msg != "" {
		d.errorf(m.labelNodes[labelPodGroupName], groupPath, "invalid pod group name: %s", msg)
		return
	}
	total, err := strconv.Atoi(totalStr)
	if err != nil || total < 1 {
		d.errorf(m.annNodes[annotationPodGroupTotalCount], totalPath, "incorrect annotation value '%s=%s': group total count should be an integer greater than zero", annotationPodGroupTotalCount, clip(totalStr))
		return
	}
	if m.name == "" || !d.register(st, o.kind, m.namespace, m.name, m.nameNode, "") {
		return
	}
	if phase == "Failed" {
		d.warnf(phaseNode, "status.phase", "the Pod has failed: Kueue does not count it in pod group %q (it is not runnable), so the playground leaves it out of the group", group)
		return
	}
	gp := groupPod{
		name: m.name, label: m.label, nameNode: m.nameNode, pt: pt,
		total: total, totalNode: m.annNodes[annotationPodGroupTotalCount],
		roleHash: m.ann[annotationPodGroupRoleHash],
	}
	gp.queue, gp.hasQueue = m.labels[labelQueueName]
	gp.queueNode = orNode(m.labelNodes[labelQueueName], m.nameNode)
	_, gp.fast = m.ann[annotationPodGroupFastAdmit]
	k := m.namespace + "/" + group
	g, seen := st.podGroups[k]
	if !seen {
		// The first Pod of the group in the file carries the group's
		// Workload (its position, queue and priority labels, kueueplay
		// annotations).
		w := d.jobWorkload(o, m, jobGVK{"", "Pod"}, sa, group)
		w.jobName, w.podGroup = group, true
		g = &podGroup{w: w}
		st.podGroups[k] = g
		st.podGroupOrder = append(st.podGroupOrder, g)
		if !w.noQueueLabel && !d.register(st, "Workload", m.namespace, group, m.labelNodes[labelPodGroupName], w.jobRef()) {
			w.dropped = true
		}
		st.addWorkload(w)
	} else if len(sa.nonZero()) > 0 {
		d.warnf(m.node, "metadata.annotations", "the kueueplay annotations of pod group %q are read from its first Pod %q (%s); they are ignored on this one", group, g.pods[0].name, d.where(g.pods[0].nameNode.Line, m.node))
	}
	g.pods = append(g.pods, gp)
}

// ownedPod is a Pod that belongs to its controller owner.
type ownedPod struct {
	label, namespace, name string
	owner                  *ownerRef
}

// podOwnerKind reports whether a Pod owned by an object of this group and
// kind belongs to it: the job kinds of Kueue v0.16.1's integrations
// (pkg/controller/jobs; their pods are not managed by the pod
// integration), and Deployments and ReplicaSets, whose pods the playground
// makes itself.
func podOwnerKind(group, kind string) bool {
	switch group + "/" + kind {
	case "batch/Job", "jobset.x-k8s.io/JobSet", "ray.io/RayJob", "ray.io/RayCluster",
		"kubeflow.org/PyTorchJob", "kubeflow.org/TFJob", "kubeflow.org/XGBoostJob",
		"kubeflow.org/PaddleJob", "kubeflow.org/JAXJob", "kubeflow.org/MPIJob",
		"trainer.kubeflow.org/TrainJob", "workload.codeflare.dev/AppWrapper",
		"leaderworkerset.x-k8s.io/LeaderWorkerSet", "apps/StatefulSet",
		"apps/Deployment", "apps/ReplicaSet":
		return true
	}
	return false
}

// nonZero lists the kueueplay annotations that are set.
func (sa simAnnotations) nonZero() []string {
	var out []string
	if sa.arrival != 0 {
		out = append(out, annotationArrival)
	}
	if sa.runtime != nil {
		out = append(out, annotationRuntime)
	}
	if sa.terminationDelay != nil {
		out = append(out, annotationTerminationDelay)
	}
	return out
}

// linkPodGroups builds the Workload of each pod group, as
// Pod.ConstructComposableWorkload and constructGroupPodSets do
// (pkg/controller/jobs/pod/pod_controller.go):
//
//   - the Pods are taken in name order (the order a List returns them);
//   - every Pod must have the same queue-name label and total count
//     (validatePodGroupMetadata), else Kueue does not create the Workload;
//   - without the pod-group-fast-admission annotation, Kueue waits until
//     all total-count Pods exist; with fewer, no Workload is created (the
//     playground leaves the group out with a warning); Pods beyond the total
//     count are deleted (the playground keeps the first by name);
//   - Pods of the same role (equal scheduling shape, getRoleHash) form one
//     pod set named after the role hash; with fast admission, the first
//     Pod's role makes the only pod set, of count total.
//
// Kueue's role hash is the SHA-256 of the JSON of the pod spec's shape
// (utilpod.GenerateRoleHash), which the playground does not reproduce: it
// uses the kueue.x-k8s.io/role-hash annotation when a Pod has it, else a
// stand-in (roleHash): the first 8 hex digits of the FNV-1a hash of the
// per-pod requests, node selector, required affinity, tolerations and
// priority class, so Pods with the same scheduling needs share a role.
func (d *decoder) linkPodGroups(st *state) {
	for _, g := range st.podGroupOrder {
		w := g.w
		obj := d.obj
		d.obj = w.label
		d.buildPodGroup(g)
		d.obj = obj
	}
}

func (d *decoder) buildPodGroup(g *podGroup) {
	w := g.w
	group := w.wl.Name
	pods := slices.Clone(g.pods)
	slices.SortFunc(pods, func(a, b groupPod) int { return cmp.Compare(a.name, b.name) })
	for _, p := range pods {
		w.groupPods = append(w.groupPods, p.name)
	}
	first := pods[0]
	for _, p := range pods[1:] {
		if p.hasQueue != first.hasQueue || p.queue != first.queue {
			d.errorObj(p.label, p.queueNode, key("metadata.labels", labelQueueName), "pods %q and %q of pod group %q have different queue names (%q, %q): Kueue does not create the group's Workload", first.name, p.name, group, first.queue, p.queue)
			w.dropped = true
			return
		}
		if p.total != first.total {
			d.errorObj(p.label, p.totalNode, key("metadata.annotations", annotationPodGroupTotalCount), "pods %q and %q of pod group %q have different %q values: %d != %d", first.name, p.name, group, annotationPodGroupTotalCount, first.total, p.total)
			w.dropped = true
			return
		}
	}
	total := first.total
	if first.fast {
		ps := first.pt.pods(int32(total), first.pt.labels)
		ps.Name = podSetName(first.role())
		w.wl.PodSets = []core.PodSet{ps}
		w.pc = first.pt.priorityClassName
		return
	}
	if len(pods) < total {
		d.warnObj(w.label, w.nameAt.node(), key("metadata.annotations", annotationPodGroupTotalCount), "pod group %q has %d of its %d pods in the file: Kueue creates the group's Workload only once all of them exist, so the playground leaves the group out", group, len(pods), total)
		w.dropped = true
		return
	}
	if len(pods) > total {
		extra := pods[total]
		d.warnObj(extra.label, extra.nameNode, "metadata.name", "pod group %q has %d pods, more than its total count %d: Kueue deletes the excess pods; the playground keeps the first %d by name and drops this one and the ones after it", group, len(pods), total, total)
		pods = pods[:total]
	}
	var pts []podTemplate
	index := map[string]int{}
	for _, p := range pods {
		role := p.role()
		if i, ok := index[role]; ok {
			w.wl.PodSets[i].Count++
			continue
		}
		index[role] = len(w.wl.PodSets)
		ps := p.pt.pods(1, p.pt.labels)
		ps.Name = podSetName(role)
		w.wl.PodSets = append(w.wl.PodSets, ps)
		pts = append(pts, p.pt)
	}
	if len(w.wl.PodSets) > maxPodSets {
		d.errorObj(w.label, w.nameAt.node(), "metadata.labels", "pod group %q has %d roles (pods with different scheduling needs); a Workload has at most %d pod sets, so Kueue cannot create it", group, len(w.wl.PodSets), maxPodSets)
		w.dropped = true
		return
	}
	w.pc = firstPriorityClass(pts...)
}

// role is the pod's role hash: the kueue.x-k8s.io/role-hash annotation,
// else the playground's stand-in.
func (p groupPod) role() string {
	if p.roleHash != "" {
		return p.roleHash
	}
	return roleHash(p.pt)
}

// roleHash is the playground's stand-in for Kueue's role hash of a pod
// template (see linkPodGroups).
func roleHash(pt podTemplate) string {
	h := fnv.New64a()
	// fmt prints maps with sorted keys, so the text is deterministic.
	fmt.Fprintf(h, "%v|%v|%v|%v|%s", pt.requests, pt.nodeSelector, pt.required, pt.tolerations, pt.priorityClassName.name)
	return fmt.Sprintf("%016x", h.Sum64())[:8]
}
