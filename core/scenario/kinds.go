package scenario

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kueueplay/kueueplay/core"
)

// What the decoder does with an object whose apiVersion and kind it does not
// decode (see unsupported):
//
//   - a kind that does not exist in an API group the playground reads
//     (kueue.x-k8s.io, the core group, apps, batch, scheduling.k8s.io) is an
//     error with the nearest real kind, as the API server would refuse it
//     ("no matches for kind");
//   - a real kind of such a group under a version the group does not serve
//     (kueue.x-k8s.io/v1alpha1, apps/v1beta1) is an error saying which
//     version to use;
//   - any other object (a kind of Kueue or Kubernetes the playground does
//     not simulate, RBAC, a CRD, another operator's resource) is one warning
//     at its kind that names it, says it is not simulated and, where it
//     changes Kueue's decisions, what that means for the result. The rest
//     of the input runs.

// groupOf returns the API group of an apiVersion ("batch/v1" -> "batch",
// "v1" -> "").
func groupOf(apiVersion string) string {
	group, _, found := strings.Cut(apiVersion, "/")
	if !found {
		return ""
	}
	return group
}

// servedVersions returns the versions of an API group the playground reads:
// Kueue v0.16.1 serves v1beta2 and v1beta1 (apis/kueue/v1alpha1 holds no
// types any more); the Kubernetes groups, v1.
func servedVersions(group string) []string {
	if group == "kueue.x-k8s.io" {
		return []string{"v1beta2", "v1beta1"}
	}
	return []string{"v1"}
}

// realKinds returns every kind an API group the playground reads serves,
// for the "no such kind" check, or nil for a group it does not know.
// Kueue's are those of apis/kueue/v1beta2 in Kueue v0.16.1; the others are
// the kinds of the Kubernetes API groups.
func realKinds(group string) []string {
	switch group {
	case "kueue.x-k8s.io":
		return []string{"AdmissionCheck", "ClusterQueue", "Cohort", "LocalQueue", "MultiKueueCluster",
			"MultiKueueConfig", "ProvisioningRequestConfig", "ResourceFlavor", "Topology", "Workload",
			"WorkloadPriorityClass"}
	case "":
		return []string{"Binding", "ComponentStatus", "ConfigMap", "Endpoints", "Event", "LimitRange",
			"Namespace", "Node", "PersistentVolume", "PersistentVolumeClaim", "Pod", "PodTemplate",
			"ReplicationController", "ResourceQuota", "Secret", "Service", "ServiceAccount"}
	case "apps":
		return []string{"ControllerRevision", "DaemonSet", "Deployment", "ReplicaSet", "StatefulSet"}
	case "batch":
		return []string{"CronJob", "Job"}
	case "scheduling.k8s.io":
		return []string{"PriorityClass"}
	}
	return nil
}

// notSimulatedEffect says what ignoring an object of a real kind means for
// the result, or "" when it does not change what Kueue decides.
func notSimulatedEffect(group, kind string) string {
	switch group + "/" + kind {
	case "kueue.x-k8s.io/AdmissionCheck", "kueue.x-k8s.io/ProvisioningRequestConfig":
		return "admission checks are not simulated: the playground admits a workload once quota is reserved, where Kueue waits for its ClusterQueue's checks to be Ready"
	case "kueue.x-k8s.io/MultiKueueCluster", "kueue.x-k8s.io/MultiKueueConfig":
		return "MultiKueue is not simulated: workloads are admitted and run in this cluster"
	case "kueue.x-k8s.io/Topology":
		return "topology-aware scheduling is not simulated: pods are placed without topology constraints"
	case "/LimitRange":
		return "Kueue applies a LimitRange's default requests and limits to the workloads of its namespace; the playground does not, so requests count as written"
	case "node.k8s.io/RuntimeClass":
		return "Kueue adds a RuntimeClass's pod overhead to the requests of pods that use it; the playground does not, so only spec.overhead written in a pod template counts"
	case "kubeflow.org/MPIJob":
		// The kubeflow.org/v2beta1 MPIJob is decoded; this is another
		// version (the training-operator's v1).
		return "Kueue v0.16.1 queues kubeflow.org/v2beta1 MPIJobs only, so this one is not managed by Kueue and its workload is not in the run"
	case "argoproj.io/Workflow", "tekton.dev/PipelineRun", "tekton.dev/TaskRun":
		return "the Pods it creates are queued by Kueue's pod integration when they carry the queue-name label; paste those Pods to simulate them"
	case "ray.io/RayService":
		return "Kueue queues the RayCluster it creates; paste that RayCluster to simulate it"
	case "batch/CronJob":
		return "the Jobs it creates are not in the run; paste them as Jobs"
	case "apps/DaemonSet":
		return "its pods are not placed, so the Node capacity they take is not subtracted"
	}
	return ""
}

// unsupported reports an object the decoder does not decode; see the
// comment at the top of this file.
func (d *decoder) unsupported(o *rawObject) {
	name, namespace := peekName(metaNode(o))
	d.obj = objectLabel(o.kind, name, namespace, namespace != "")
	group := groupOf(o.apiVersion)
	kinds := realKinds(group)
	if kinds != nil && !slices.Contains(kinds, o.kind) {
		msg := fmt.Sprintf("API group %q has no kind %q", group, clip(o.kind))
		if group == "" {
			msg = fmt.Sprintf("the core API group (apiVersion v1) has no kind %q", clip(o.kind))
		}
		if near := core.Nearest(o.kind, kinds); near != "" {
			msg += fmt.Sprintf("; did you mean %q?", near)
		}
		d.errorf(o.kindNode, "kind", "%s", msg)
		return
	}
	if kinds != nil {
		versions := servedVersions(group)
		_, version, _ := strings.Cut(o.apiVersion, "/")
		if group == "" {
			version = o.apiVersion
		}
		if !slices.Contains(versions, version) {
			want := versions[0]
			if group != "" {
				want = group + "/" + want
			}
			d.errorf(o.apiVersionNode, "apiVersion", "%s is served as apiVersion %s, not %q (the version Kueue v0.16.1 and Kubernetes accept): change apiVersion to %s", o.kind, want, clip(o.apiVersion), want)
			return
		}
	}
	msg := fmt.Sprintf("%s %s is not simulated: the playground ignores it", clip(o.apiVersion), clip(o.kind))
	if effect := notSimulatedEffect(group, o.kind); effect != "" {
		msg += "; " + effect
	}
	d.warnf(o.kindNode, "kind", "%s", msg)
}

// metaNode returns an object's metadata mapping, or nil.
func metaNode(o *rawObject) *yaml.Node {
	for _, p := range o.pairs {
		if p.name == "metadata" {
			return p.val
		}
	}
	return nil
}
