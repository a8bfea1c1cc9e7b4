package scenario

import (
	"go.yaml.in/yaml/v3"

	"github.com/kueueplay/kueueplay/core"
)

// statefulSet decodes an apps/v1 StatefulSet. Kueue's StatefulSet
// integration (pkg/controller/jobs/statefulset/statefulset_webhook.go:
// Webhook.Default) turns the pods of a StatefulSet with the queue-name
// label into one pod group: it labels the pod template with
// kueue.x-k8s.io/pod-group-name = GetWorkloadName(name), annotates it with
// pod-group-total-count = spec.replicas (default 1) and
// pod-group-fast-admission, and copies the queue-name and priority-class
// labels to it. The pod integration then creates one Workload for the group
// (pod_controller.go: constructGroupPodSetsFast): one pod set, named after
// the pods' role hash (see linkPodGroups for the playground's stand-in),
// of count replicas. The priority is the priority-class label, else the
// template's priorityClassName. The Workload is named
// statefulset-<name> (Kueue adds a hash).
//
// Like the API server (ValidateStatefulSetSpec), spec.selector and
// spec.template are required, the selector must match the template's
// labels, and the template's restartPolicy must be Always. Serving
// semantics (the pods run until the StatefulSet is deleted or scaled) are
// those of any workload without a kueueplay/runtime annotation.
func (d *decoder) statefulSet(st *state, o *rawObject) {
	m, specNode, w := d.beginJob(o, jobGVK{"apps", "StatefulSet"}, nameSubdomain)
	replicas := int32(1)
	var replicasNode *yaml.Node
	var selector *core.LabelSelector
	var selectorNode, templateNode *yaml.Node
	for _, p := range d.pairs(specNode, "spec") {
		fp := join("spec", p.name)
		switch p.name {
		case "replicas":
			if v, ok := d.int32v(p.val, fp, 0); ok {
				replicas, replicasNode = v, p.val
			}
		case "selector":
			selectorNode = p.val
			selector = d.labelSelector(p.val, fp, "")
		case "template":
			templateNode = p.val
		case "serviceName", "volumeClaimTemplates", "podManagementPolicy", "updateStrategy",
			"revisionHistoryLimit", "minReadySeconds", "persistentVolumeClaimRetentionPolicy",
			"ordinals":
			// Real StatefulSetSpec fields the playground does not interpret.
		default:
			d.unknown(p, "spec")
		}
	}
	if pt, ok := d.appsTemplate(o, specNode, selectorNode, templateNode, selector); ok {
		labels := withLabels(pt.labels, labelPodGroupName, w.wl.Name)
		ps := pt.pods(replicas, labels)
		ps.Name = podSetName(roleHash(pt))
		w.wl.PodSets = []core.PodSet{ps}
		w.pc = pt.priorityClassName
	}
	if replicas == 0 && replicasNode != nil && !w.noQueueLabel {
		d.warnf(replicasNode, "spec.replicas", "replicas is 0: the StatefulSet has no pods, so Kueue creates no Workload for it")
		w.dropped = true
	}
	d.addJob(st, o, m, w)
}
