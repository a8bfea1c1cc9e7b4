package scenario

import (
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// kubeflowKind describes one Kubeflow job kind: the spec field holding its
// replica specs, the replica types in the order Kueue makes pod sets of
// them, and the other real fields of its spec.
type kubeflowKind struct {
	gvk          jobGVK
	replicaField string
	replicaTypes []string
	otherFields  []string
}

// kubeflowKindFor returns the description of a kubeflow.org/v1 kind (or,
// for MPIJob, kubeflow.org/v2beta1), and false for any other kind.
//
// The replica type orders are the integrations' OrderedReplicaTypes
// (pkg/controller/jobs/kubeflow/jobs/<kind>/<kind>_controller.go:
// JobControl.OrderedReplicaTypes) and, for MPIJob, orderedReplicaTypes in
// pkg/controller/jobs/mpijob/mpijob_controller.go. The types are those of
// the Kubeflow training-operator v1.9 API (pkg/apis/kubeflow.org/v1) and
// of mpi-operator v0.7 (pkg/apis/kubeflow/v2beta1).
func kubeflowKindFor(apiVersion, kind string) (kubeflowKind, bool) {
	if apiVersion == apiMPI {
		if kind != "MPIJob" {
			return kubeflowKind{}, false
		}
		return kubeflowKind{
			gvk:          jobGVK{"kubeflow.org", "MPIJob"},
			replicaField: "mpiReplicaSpecs",
			replicaTypes: []string{"Launcher", "Worker"},
			otherFields: []string{"slotsPerWorker", "runLauncherAsWorker", "sshAuthMountPath",
				"launcherCreationPolicy", "mpiImplementation"},
		}, true
	}
	k := kubeflowKind{gvk: jobGVK{"kubeflow.org", kind}}
	switch kind {
	case "PyTorchJob":
		k.replicaField = "pytorchReplicaSpecs"
		k.replicaTypes = []string{"Master", "Worker"}
		k.otherFields = []string{"elasticPolicy", "nprocPerNode"}
	case "TFJob":
		k.replicaField = "tfReplicaSpecs"
		k.replicaTypes = []string{"Chief", "Master", "PS", "Worker", "Evaluator"}
		k.otherFields = []string{"successPolicy", "enableDynamicWorker"}
	case "XGBoostJob":
		k.replicaField = "xgbReplicaSpecs"
		k.replicaTypes = []string{"Master", "Worker"}
	case "PaddleJob":
		k.replicaField = "paddleReplicaSpecs"
		k.replicaTypes = []string{"Master", "Worker"}
		k.otherFields = []string{"elasticPolicy"}
	case "JAXJob":
		k.replicaField = "jaxReplicaSpecs"
		k.replicaTypes = []string{"Worker"}
	default:
		return kubeflowKind{}, false
	}
	return k, true
}

// kubeflowJob decodes a Kubeflow training job (PyTorchJob, TFJob,
// XGBoostJob, PaddleJob, JAXJob of kubeflow.org/v1, MPIJob of
// kubeflow.org/v2beta1) into the Workload Kueue creates for it
// (pkg/controller/jobs/kubeflow/kubeflowjob/kubeflowjob_controller.go:
// KubeflowJob.PodSets; pkg/controller/jobs/mpijob/mpijob_controller.go:
// MPIJob.PodSets): one pod set per replica type present, in the kind's
// order, named after the type lowercased ("master", "worker", "ps", ...),
// with count replicas (1 when unset: podsCount derefs to 1; for an MPIJob
// worker this is Kueue's count even though mpi-operator's in-controller
// default is 0). The priority
// is the priority-class label, else runPolicy.schedulingPolicy.priorityClass,
// else the first replica template (in that order) with a priorityClassName
// (KubeflowJob.PriorityClass, MPIJob.PriorityClass). The Workload is named
// <lowercase kind>-<name>.
//
// Replica types are matched exactly, as the training-operator's validating
// webhooks do (an unknown type is rejected there; Kueue would not see it).
func (d *decoder) kubeflowJob(st *state, o *rawObject, k kubeflowKind) {
	m, specNode, w := d.beginJob(o, k.gvk, nameSubdomain)
	if isNull(specNode) {
		d.required(o.node, "", "spec")
	}
	var replicasNode *yaml.Node
	var schedPC ref
	for _, p := range d.pairs(specNode, "spec") {
		fp := join("spec", p.name)
		switch {
		case p.name == k.replicaField:
			replicasNode = p.val
		case p.name == "runPolicy":
			schedPC = d.runPolicy(p.val, fp)
		case p.name == "elasticPolicy" && slices.Contains(k.otherFields, p.name):
			if !isNull(p.val) {
				d.warnf(p.key, fp, "elasticPolicy is not simulated: Kueue admits the replica counts as written and the playground never scales them")
			}
		case slices.Contains(k.otherFields, p.name):
			// Real fields of the kind's spec the playground does not interpret.
		default:
			d.unknown(p, "spec")
		}
	}
	if !isNull(specNode) && isNull(replicasNode) {
		d.required(specNode, "spec", k.replicaField)
	}
	rp := join("spec", k.replicaField)
	specs := map[string]*yaml.Node{}
	for _, p := range d.pairs(replicasNode, rp) {
		if !slices.Contains(k.replicaTypes, p.name) {
			d.errorf(p.key, key(rp, p.name), "unsupported replica type %q: supported values: %s", p.name, strings.Join(k.replicaTypes, ", "))
			continue
		}
		specs[p.name] = p.val
	}
	var pts []podTemplate
	for _, typ := range k.replicaTypes {
		n, ok := specs[typ]
		if !ok || isNull(n) {
			continue
		}
		pt, count, ok := d.replicaSpec(n, key(rp, typ))
		if !ok {
			continue
		}
		w.wl.PodSets = append(w.wl.PodSets, pt.podSet(podSetName(typ), count, ""))
		pts = append(pts, pt)
	}
	if !isNull(replicasNode) && len(w.wl.PodSets) == 0 {
		d.errorf(replicasNode, rp, "no replica type has a pod template: Kueue cannot create a Workload without pod sets")
	}
	w.pc = schedPC
	if w.pc.name == "" {
		w.pc = firstPriorityClass(pts...)
	}
	d.addJob(st, o, m, w)
}

// runPolicy decodes a Kubeflow RunPolicy and returns
// schedulingPolicy.priorityClass.
func (d *decoder) runPolicy(n *yaml.Node, path string) ref {
	var pc ref
	for _, p := range d.pairs(n, path) {
		fp := join(path, p.name)
		switch p.name {
		case "schedulingPolicy":
			for _, q := range d.pairs(p.val, fp) {
				qp := join(fp, q.name)
				switch q.name {
				case "priorityClass":
					if s, ok := d.str(q.val, qp); ok && s != "" {
						if msg := checkDNSSubdomain(s, MaxNameLength); msg != "" {
							d.errorf(q.val, qp, "invalid PriorityClass name: %s", msg)
						}
						pc = ref{name: s, node: q.val, path: qp}
					}
				case "minAvailable", "queue", "minResources", "scheduleTimeoutSeconds":
					// Gang-scheduler settings (Volcano, scheduler-plugins).
				default:
					d.unknown(q, fp)
				}
			}
		case "cleanPodPolicy", "ttlSecondsAfterFinished", "activeDeadlineSeconds",
			"backoffLimit", "suspend", "managedBy":
			// Real RunPolicy fields the playground does not interpret.
		default:
			d.unknown(p, path)
		}
	}
	return pc
}

// replicaSpec decodes a Kubeflow ReplicaSpec: its pod template and count
// (replicas, 1 when unset). ok is false without a template.
func (d *decoder) replicaSpec(n *yaml.Node, path string) (podTemplate, int32, bool) {
	count := int32(1)
	var templateNode *yaml.Node
	for _, p := range d.pairs(n, path) {
		fp := join(path, p.name)
		switch p.name {
		case "replicas":
			if v, ok := d.int32v(p.val, fp, 0); ok {
				count = v
			}
		case "template":
			templateNode = p.val
		case "restartPolicy":
			d.strEnum(p.val, fp, "Always", "OnFailure", "Never", "ExitCode")
		default:
			d.unknown(p, path)
		}
	}
	if isNull(templateNode) {
		d.required(n, path, "template")
		return podTemplate{}, 0, false
	}
	return d.podTemplate(templateNode, join(path, "template")), count, true
}
