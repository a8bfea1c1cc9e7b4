package scenario

import (
	"go.yaml.in/yaml/v3"

	"github.com/kueueplay/kueueplay/core"
)

// Ray pod set names (pkg/controller/jobs/rayjob/rayjob_controller.go:
// headGroupPodSetName, submitterJobPodSetName).
const (
	rayHeadPodSet      = "head"
	raySubmitterPodSet = "submitter"
	// annotationElasticJob marks a job for workload slices
	// (workloadslicing.EnabledAnnotationKey).
	annotationElasticJob = "kueue.x-k8s.io/elastic-job"
	// maxRayWorkerGroups is 8 pod sets minus the head (the RayJob and
	// RayCluster webhooks: validateCreate).
	maxRayWorkerGroups = 7
)

// rayJob decodes a ray.io/v1 RayJob into the Workload Kueue's RayJob
// integration creates (pkg/controller/jobs/rayjob/rayjob_controller.go:
// RayJob.PodSets, buildPodSetsFromRayJobSpec, addSubmitterPodSet): the pod
// sets of spec.rayClusterSpec (see rayClusterSpec) and, in the default
// submissionMode K8sJobMode, a pod set "submitter" of count 1 whose
// template is spec.submitterPodTemplate or KubeRay's default submitter
// (getSubmitterTemplate: requests 500m cpu and 200Mi memory). The webhook
// (rayjob_webhook.go: validateCreate) requires rayClusterSpec,
// shutdownAfterJobFinishes: true and no autoscaling; a RayJob that names an
// existing cluster (clusterSelector) is not managed by Kueue. The priority
// is the priority-class label, else the first pod set template with a
// priorityClassName. The Workload is named rayjob-<name>.
func (d *decoder) rayJob(st *state, o *rawObject) {
	m, specNode, w := d.beginJob(o, jobGVK{"ray.io", "RayJob"}, nameSubdomain)
	if isNull(specNode) {
		d.required(o.node, "", "spec")
	}
	var clusterNode, submitterNode, selectorNode, shutdownNode *yaml.Node
	mode := "K8sJobMode"
	shutdown := false
	for _, p := range d.pairs(specNode, "spec") {
		fp := join("spec", p.name)
		switch p.name {
		case "rayClusterSpec":
			clusterNode = p.val
		case "submitterPodTemplate":
			submitterNode = p.val
		case "clusterSelector":
			if sel, _, _ := d.stringMap(p.val, fp); len(sel) > 0 {
				selectorNode = p.val
			}
		case "submissionMode":
			if s, ok := d.strEnum(p.val, fp, "K8sJobMode", "HTTPMode", "InteractiveMode", "SidecarMode"); ok {
				mode = s
			}
		case "shutdownAfterJobFinishes":
			shutdown, _ = d.boolean(p.val, fp)
			shutdownNode = p.val
		case "activeDeadlineSeconds", "backoffLimit", "metadata", "submitterConfig", "managedBy",
			"deletionStrategy", "entrypoint", "runtimeEnvYAML", "jobId", "entrypointResources",
			"entrypointNumCpus", "entrypointNumGpus", "ttlSecondsAfterFinished", "suspend",
			"authOptions":
			// Real RayJobSpec fields the playground does not interpret.
		default:
			d.unknown(p, "spec")
		}
	}
	managed := !w.noQueueLabel
	switch {
	case selectorNode != nil && !isNull(clusterNode):
		d.errorf(selectorNode, "spec.clusterSelector", "a kueue managed job should not use an existing cluster: set either clusterSelector or rayClusterSpec")
	case selectorNode != nil:
		d.warnf(selectorNode, "spec.clusterSelector", "this RayJob runs on an existing RayCluster (clusterSelector): Kueue does not manage it, so the playground leaves it out")
		w.dropped = true
	case isNull(clusterNode) && !isNull(specNode):
		d.errorf(specNode, "spec.rayClusterSpec", "rayClusterSpec is required for Kueue-managed jobs that don't use clusterSelector")
	}
	if managed && !w.dropped && !shutdown && !isNull(specNode) {
		d.errorf(orNode(shutdownNode, specNode), "spec.shutdownAfterJobFinishes", "a kueue managed job should delete the cluster after finishing: set shutdownAfterJobFinishes: true")
	}
	var pts []podTemplate
	if !isNull(clusterNode) {
		pts = d.rayClusterSpec(clusterNode, "spec.rayClusterSpec", m, w)
	}
	if mode == "K8sJobMode" && !isNull(clusterNode) {
		var pt podTemplate
		if !isNull(submitterNode) {
			pt = d.podTemplate(submitterNode, "spec.submitterPodTemplate")
		} else {
			pt = defaultRaySubmitter()
		}
		ps := pt.pods(1, pt.labels)
		ps.Name = raySubmitterPodSet
		w.wl.PodSets = append(w.wl.PodSets, ps)
		pts = append(pts, pt)
	} else if !isNull(submitterNode) {
		d.podTemplate(submitterNode, "spec.submitterPodTemplate")
	}
	w.pc = firstPriorityClass(pts...)
	if w.dropped {
		// Registered as an object, but no Workload.
		if m.name != "" {
			d.register(st, o.kind, m.namespace, m.name, m.nameNode, "")
		}
		return
	}
	d.addJob(st, o, m, w)
}

// defaultRaySubmitter is KubeRay's default submitter pod as Kueue sizes it
// (rayjob_controller.go: getSubmitterTemplate): one container requesting
// 500m cpu and 200Mi memory (limits 1 cpu, 1Gi).
func defaultRaySubmitter() podTemplate {
	req := rlist{core.ResourceCPU: 500, core.ResourceMemory: 200 << 20}
	return podTemplate{
		requests: req,
		nonZero:  rlist{core.ResourceCPU: 500, core.ResourceMemory: 200 << 20},
	}
}

// rayCluster decodes a ray.io/v1 RayCluster into the Workload Kueue's
// RayCluster integration creates (pkg/controller/jobs/raycluster/
// raycluster_controller.go: RayCluster.PodSets): see rayClusterSpec. The
// webhook (raycluster_webhook.go: validateCreate) rejects autoscaling
// unless the job is elastic, more than 7 worker groups, and a worker group
// named "head". The Workload is named raycluster-<name>.
func (d *decoder) rayCluster(st *state, o *rawObject) {
	m, specNode, w := d.beginJob(o, jobGVK{"ray.io", "RayCluster"}, nameSubdomain)
	if isNull(specNode) {
		d.required(o.node, "", "spec")
	} else {
		pts := d.rayClusterSpec(specNode, "spec", m, w)
		w.pc = firstPriorityClass(pts...)
	}
	d.addJob(st, o, m, w)
}

// rayClusterSpec decodes a RayClusterSpec into w's pod sets: "head" with
// count 1, then one pod set per workerGroupSpecs[] entry named after its
// groupName (lowercased) with count replicas x numOfHosts (numOfHosts when
// above 1). replicas defaults to 0 and numOfHosts to 1: the KubeRay v1.5
// CRD defaults (ray-operator config/crd/bases/ray.io_rayclusters.yaml and
// ray.io_rayjobs.yaml), which the API server applies before Kueue reads
// the object. (Kueue's own TestPodSets in rayjob_controller_test.go builds
// Go objects without the API server, so an unset replicas counts 1 there.)
// It returns the pod templates in pod set order.
func (d *decoder) rayClusterSpec(n *yaml.Node, path string, m objMeta, w *wlInfo) []podTemplate {
	var headNode, workersNode, autoscaleNode *yaml.Node
	autoscale := false
	for _, p := range d.pairs(n, path) {
		fp := join(path, p.name)
		switch p.name {
		case "headGroupSpec":
			headNode = p.val
		case "workerGroupSpecs":
			workersNode = p.val
		case "enableInTreeAutoscaling":
			if v, ok := d.boolean(p.val, fp); ok && v {
				autoscale, autoscaleNode = true, p.val
			}
		case "suspend", "managedBy", "autoscalerOptions", "headServiceAnnotations",
			"gcsFaultToleranceOptions", "rayVersion", "upgradeStrategy", "authOptions":
			// Real RayClusterSpec fields the playground does not interpret.
		default:
			d.unknown(p, path)
		}
	}
	managed := !w.noQueueLabel
	if autoscale && managed {
		if m.ann[annotationElasticJob] == "true" {
			d.warnf(autoscaleNode, join(path, "enableInTreeAutoscaling"), "Ray autoscaling is not simulated: Kueue would resize this elastic job through workload slices (ElasticJobsViaWorkloadSlices, alpha and off by default in v0.16); the playground admits the worker groups at their replicas as written and never scales them")
		} else {
			d.errorf(autoscaleNode, join(path, "enableInTreeAutoscaling"), "a kueue managed job can use autoscaling only when the ElasticJobsViaWorkloadSlices feature gate is on and the job is an elastic job (annotation %s: \"true\")", annotationElasticJob)
		}
	}
	var pts []podTemplate
	if isNull(headNode) {
		d.required(n, path, "headGroupSpec")
	} else {
		hp := join(path, "headGroupSpec")
		var tn *yaml.Node
		for _, p := range d.pairs(headNode, hp) {
			switch p.name {
			case "template":
				tn = p.val
			case "headService", "enableIngress", "resources", "labels", "rayStartParams", "serviceType":
				// Real HeadGroupSpec fields the playground does not interpret.
			default:
				d.unknown(p, hp)
			}
		}
		if isNull(tn) {
			d.required(headNode, hp, "template")
		} else {
			pt := d.podTemplate(tn, join(hp, "template"))
			ps := pt.pods(1, pt.labels)
			ps.Name = rayHeadPodSet
			w.wl.PodSets = append(w.wl.PodSets, ps)
			pts = append(pts, pt)
		}
	}
	wp := join(path, "workerGroupSpecs")
	groups := d.items(workersNode, wp)
	if managed && len(groups) > maxRayWorkerGroups {
		d.errorf(workersNode, wp, "must have at most %d items, got %d: a Workload has at most 8 pod sets, one of them the head", maxRayWorkerGroups, len(groups))
	}
	for i, g := range groups {
		ip := index(wp, i)
		var name string
		var nameNode, tn *yaml.Node
		replicas, hosts := int32(0), int32(1)
		for _, p := range d.pairs(g, ip) {
			fp := join(ip, p.name)
			switch p.name {
			case "groupName":
				if s, ok := d.str(p.val, fp); ok {
					name, nameNode = s, p.val
				}
			case "replicas":
				if v, ok := d.int32v(p.val, fp, 0); ok {
					replicas = v
				}
			case "numOfHosts":
				if v, ok := d.int32v(p.val, fp, 1); ok {
					hosts = v
				}
			case "template":
				tn = p.val
			case "suspend", "minReplicas", "maxReplicas", "idleTimeoutSeconds", "resources",
				"labels", "rayStartParams", "scaleStrategy":
				// Real WorkerGroupSpec fields the playground does not interpret.
			default:
				d.unknown(p, ip)
			}
		}
		if isNull(g) {
			continue
		}
		if nameNode == nil {
			d.required(g, ip, "groupName")
			continue
		}
		if name == rayHeadPodSet {
			d.errorf(nameNode, join(ip, "groupName"), "%q is reserved for the head group", rayHeadPodSet)
			continue
		}
		if isNull(tn) {
			d.required(g, ip, "template")
			continue
		}
		pt := d.podTemplate(tn, join(ip, "template"))
		count := replicas
		if hosts > 1 {
			var over bool
			if count, over = mulCount(replicas, hosts); over {
				d.errorf(nameNode, ip, "replicas x numOfHosts overflows int32")
				continue
			}
		}
		ps := pt.pods(count, pt.labels)
		ps.Name = podSetName(name)
		w.wl.PodSets = append(w.wl.PodSets, ps)
		pts = append(pts, pt)
	}
	return pts
}
