package scenario

import (
	"go.yaml.in/yaml/v3"
)

// Kubeflow Trainer v2 constants (github.com/kubeflow/trainer/v2
// pkg/constants): the label naming a replicated job's role, the trainer
// role, and the name of the trainer's container and replicated job.
const (
	labelTrainJobAncestor = "trainer.kubeflow.org/trainjob-ancestor-step"
	ancestorTrainer       = "trainer"
	trainerNode           = "node"
)

// trainingRuntime is a decoded ClusterTrainingRuntime or TrainingRuntime:
// what a TrainJob's pod sets are built from.
type trainingRuntime struct {
	label string
	// numNodes is mlPolicy.numNodes (nil when unset or without mlPolicy);
	// hasMLPolicy, torch and mpi say which policy is set.
	hasMLPolicy       bool
	numNodes          *int32
	torch, mpi        bool
	runLauncherAsNode bool
	jobs              []runtimeJob
}

// runtimeJob is one replicated job of a runtime's JobSet template.
type runtimeJob struct {
	name        string
	replicas    int32
	ancestor    string
	parallelism int32
	// templateNode and path locate the pod template, decoded again when a
	// TrainJob overrides the trainer's resources; pt is it as written.
	templateNode *yaml.Node
	path         string
	pt           podTemplate
}

// trainJobInfo is a decoded TrainJob, whose pod sets link builds once the
// runtimes of the file are known.
type trainJobInfo struct {
	w           *wlInfo
	kindNode    *yaml.Node
	runtimeKey  string
	runtimeKind string
	runtimeName string
	refNode     *yaml.Node
	numNodes    *int32
	resources   *rlist
	// resourcesNode is trainer.resourcesPerNode, for the warning when no
	// container takes it.
	resourcesNode *yaml.Node
}

// trainingRuntimeObject decodes a trainer.kubeflow.org/v1alpha1
// ClusterTrainingRuntime (cluster-scoped) or TrainingRuntime.
func (d *decoder) trainingRuntimeObject(st *state, o *rawObject) {
	cluster := o.kind == "ClusterTrainingRuntime"
	m, rest := d.begin(o, !cluster, nameSubdomain)
	d.annotations(m, annNone, o.kind)
	specNode, _ := d.specAndStatus(rest)
	rt := &trainingRuntime{label: m.label}
	var templateNode *yaml.Node
	for _, p := range d.pairs(specNode, "spec") {
		fp := join("spec", p.name)
		switch p.name {
		case "mlPolicy":
			rt.hasMLPolicy = !isNull(p.val)
			d.mlPolicy(p.val, fp, rt)
		case "template":
			templateNode = p.val
		case "podGroupPolicy":
			// Gang scheduling (coscheduling, Volcano): not simulated;
			// Kueue's admission is all-or-nothing already.
		default:
			d.unknown(p, "spec")
		}
	}
	if isNull(specNode) {
		d.required(o.node, "", "spec")
	} else if isNull(templateNode) {
		d.required(specNode, "spec", "template")
	}
	var jsSpec *yaml.Node
	for _, p := range d.pairs(templateNode, "spec.template") {
		switch p.name {
		case "metadata":
			d.objectMeta(p.val, templateNode, "spec.template.metadata", false, nameSubdomain)
		case "spec":
			jsSpec = p.val
		default:
			d.unknown(p, "spec.template")
		}
	}
	for _, p := range d.pairs(jsSpec, "spec.template.spec") {
		fp := join("spec.template.spec", p.name)
		switch p.name {
		case "replicatedJobs":
			rt.jobs = d.runtimeJobs(p.val, fp)
		case "network", "successPolicy", "failurePolicy", "startupPolicy", "suspend",
			"coordinator", "managedBy", "ttlSecondsAfterFinished", "volumeClaimPolicies":
			// Real JobSetSpec fields the playground does not interpret.
		default:
			d.unknown(p, "spec.template.spec")
		}
	}
	if m.name == "" || !d.register(st, o.kind, m.namespace, m.name, m.nameNode, "") {
		return
	}
	k := o.kind + "/" + m.name
	if !cluster {
		k = o.kind + "/" + m.namespace + "/" + m.name
	}
	st.trainingRuntimes[k] = rt
}

// mlPolicy decodes a runtime's spec.mlPolicy.
func (d *decoder) mlPolicy(n *yaml.Node, path string, rt *trainingRuntime) {
	for _, p := range d.pairs(n, path) {
		fp := join(path, p.name)
		switch p.name {
		case "numNodes":
			if v, ok := d.int32v(p.val, fp, 1); ok {
				rt.numNodes = &v
			}
		case "torch":
			rt.torch = !isNull(p.val)
		case "mpi":
			rt.mpi = !isNull(p.val)
			for _, q := range d.pairs(p.val, fp) {
				if q.name == "runLauncherAsNode" {
					rt.runLauncherAsNode, _ = d.boolean(q.val, join(fp, q.name))
				}
			}
		default:
			d.unknown(p, path)
		}
	}
}

// runtimeJobs decodes the replicated jobs of a runtime's JobSet template.
func (d *decoder) runtimeJobs(n *yaml.Node, path string) []runtimeJob {
	var out []runtimeJob
	for i, item := range d.items(n, path) {
		ip := index(path, i)
		rj := runtimeJob{replicas: 1, parallelism: 1}
		var jobNode *yaml.Node
		for _, p := range d.pairs(item, ip) {
			fp := join(ip, p.name)
			switch p.name {
			case "name":
				rj.name, _ = d.str(p.val, fp)
			case "replicas":
				if v, ok := d.int32v(p.val, fp, 0); ok {
					rj.replicas = v
				}
			case "template":
				jobNode = p.val
			case "dependsOn", "groupName":
				// Start order and pod labels: not simulated.
			default:
				d.unknown(p, ip)
			}
		}
		if isNull(item) || isNull(jobNode) || rj.name == "" {
			if !isNull(item) {
				d.errorf(item, ip, "a replicated job needs a name and a template")
			}
			continue
		}
		tp := join(ip, "template")
		var specNode *yaml.Node
		for _, p := range d.pairs(jobNode, tp) {
			switch p.name {
			case "metadata":
				m := d.objectMeta(p.val, jobNode, join(tp, "metadata"), false, nameSubdomain)
				rj.ancestor = m.labels[labelTrainJobAncestor]
			case "spec":
				specNode = p.val
			default:
				d.unknown(p, tp)
			}
		}
		if isNull(specNode) {
			d.required(jobNode, tp, "spec")
			continue
		}
		sp := join(tp, "spec")
		pt, _, ok := d.jobSpec(specNode, sp, true)
		if !ok {
			continue
		}
		if pn := d.awChild(specNode, "parallelism"); !isNull(pn) {
			if v, ok := d.int32v(pn, join(sp, "parallelism"), 0); ok {
				rj.parallelism = v
			}
		}
		rj.templateNode, rj.path, rj.pt = d.awChild(specNode, "template"), join(sp, "template"), pt
		out = append(out, rj)
	}
	return out
}

// trainJob decodes a trainer.kubeflow.org/v1alpha1 TrainJob. Kueue's
// TrainJob integration (pkg/controller/jobs/trainjob/trainjob_controller.go:
// TrainJob.PodSets, getChildJobSet) builds the JobSet the trainer would
// create from the TrainJob and its runtime, and takes that JobSet's pod
// sets (JobSet.PodSets): see linkTrainJobs. The runtime
// (spec.runtimeRef, a ClusterTrainingRuntime by default) must be in the
// file. The Workload is named trainjob-<name>.
func (d *decoder) trainJob(st *state, o *rawObject) {
	m, specNode, w := d.beginJob(o, jobGVK{"trainer.kubeflow.org", "TrainJob"}, nameSubdomain)
	tj := &trainJobInfo{w: w, kindNode: o.kindNode, runtimeKind: "ClusterTrainingRuntime"}
	haveRef := false
	for _, p := range d.pairs(specNode, "spec") {
		fp := join("spec", p.name)
		switch p.name {
		case "runtimeRef":
			haveRef = true
			tj.refNode = p.val
			for _, q := range d.pairs(p.val, fp) {
				qp := join(fp, q.name)
				switch q.name {
				case "name":
					tj.runtimeName, _ = d.str(q.val, qp)
				case "apiGroup":
					d.strEnum(q.val, qp, "trainer.kubeflow.org")
				case "kind":
					if s, ok := d.strEnum(q.val, qp, "ClusterTrainingRuntime", "TrainingRuntime"); ok {
						tj.runtimeKind = s
					}
				default:
					d.unknown(q, fp)
				}
			}
		case "trainer":
			d.trainJobTrainer(p.val, fp, tj)
		case "podTemplateOverrides":
			if !isNull(p.val) {
				d.warnf(p.key, fp, "podTemplateOverrides are not simulated: the Workload's pod sets use the runtime's pod templates as written (overridden node selectors, tolerations or affinities are not applied)")
			}
		case "initializer", "labels", "annotations", "suspend", "managedBy":
			// Real TrainJobSpec fields the playground does not interpret.
		default:
			d.unknown(p, "spec")
		}
	}
	if isNull(specNode) {
		d.required(o.node, "", "spec")
	} else if !haveRef || tj.runtimeName == "" {
		d.required(orNode(tj.refNode, specNode), "spec.runtimeRef", "name")
	}
	tj.runtimeKey = tj.runtimeKind + "/" + tj.runtimeName
	if tj.runtimeKind == "TrainingRuntime" {
		tj.runtimeKey = tj.runtimeKind + "/" + m.namespace + "/" + tj.runtimeName
	}
	st.trainJobs = append(st.trainJobs, tj)
	d.addJob(st, o, m, w)
}

// trainJobTrainer decodes spec.trainer: numNodes and resourcesPerNode are
// read.
func (d *decoder) trainJobTrainer(n *yaml.Node, path string, tj *trainJobInfo) {
	for _, p := range d.pairs(n, path) {
		fp := join(path, p.name)
		switch p.name {
		case "numNodes":
			if v, ok := d.int32v(p.val, fp, 1); ok {
				tj.numNodes = &v
			}
		case "resourcesPerNode":
			var requests, limits rlist
			for _, q := range d.pairs(p.val, fp) {
				qp := join(fp, q.name)
				switch q.name {
				case "requests":
					requests = d.resourceList(q.val, qp)
				case "limits":
					limits = d.resourceList(q.val, qp)
				case "claims":
				default:
					d.unknown(q, fp)
				}
			}
			tj.resourcesNode = p.key
			if requests != nil || limits != nil {
				// Limits stand in for absent requests, as for a container.
				req := rlist{}
				for r, v := range limits {
					req[r] = v
				}
				for r, v := range requests {
					req[r] = v
				}
				tj.resources = &req
			}
		case "image", "command", "args", "env", "numProcPerNode":
			// Real Trainer fields the playground does not interpret.
		default:
			d.unknown(p, path)
		}
	}
}

// linkTrainJobs builds the pod sets of each TrainJob from its runtime, as
// Kueue's getChildJobSet does through the trainer's runtime framework
// (github.com/kubeflow/trainer/v2 v2.1: TrainingRuntime.newRuntimeInfo,
// the plainml, torch and mpi plugins' EnforceMLPolicy, jobset
// Builder.Trainer), then JobSet.PodSets: one pod set per replicated job of
// the runtime's template, in order, named after it. Its pod count is
// parallelism (default 1), for the trainer step (label
// trainer.kubeflow.org/trainjob-ancestor-step: trainer) mlPolicy.numNodes
// (default 1) when the runtime has an mlPolicy, replaced by the TrainJob's
// trainer.numNodes (for MPI on the "node" job, minus one for the launcher
// when runLauncherAsNode); times the replicated job's replicas, which the
// builder sets to 1 for the trainer step. trainer.resourcesPerNode replaces
// the resources of the trainer step's "node" container.
func (d *decoder) linkTrainJobs(st *state) {
	for _, tj := range st.trainJobs {
		w := tj.w
		if tj.runtimeName == "" {
			w.dropped = true
			continue
		}
		rt, ok := st.trainingRuntimes[tj.runtimeKey]
		if !ok {
			d.errorObj(w.label, tj.refNode, "spec.runtimeRef.name", "%s %q does not exist in the file: Kueue builds a TrainJob's pod sets from its runtime (and the trainer's webhook rejects a TrainJob whose runtime is missing)", tj.runtimeKind, tj.runtimeName)
			w.dropped = true
			continue
		}
		var pts []podTemplate
		overridden := false
		for _, rj := range rt.jobs {
			trainerStep := rj.ancestor == ancestorTrainer
			count := rj.parallelism
			if trainerStep && rt.hasMLPolicy {
				count = 1
				if rt.numNodes != nil {
					count = *rt.numNodes
				}
			}
			if tj.numNodes != nil {
				switch {
				case rt.mpi:
					if rj.name == trainerNode {
						count = *tj.numNodes
						if rt.runLauncherAsNode {
							count = max(*tj.numNodes-1, 1)
						}
					}
				case trainerStep: // plainml and torch
					count = *tj.numNodes
				}
			}
			replicas := rj.replicas
			if trainerStep {
				replicas = 1
			}
			total, over := mulCount(replicas, count)
			if over {
				d.errorObj(w.label, tj.refNode, "spec.runtimeRef", "replicated job %q: replicas x pods overflows int32", rj.name)
				continue
			}
			pt := rj.pt
			if tj.resources != nil && (trainerStep || rt.runLauncherAsNode && rj.name == trainerNode) {
				obj := d.obj
				d.obj = rt.label // diagnostics repeat the runtime's, merged away
				o := &containerOverride{name: trainerNode, req: *tj.resources}
				pt = d.podTemplateInto(rj.templateNode, rj.path, podTemplate{override: o})
				d.obj = obj
				overridden = overridden || o.applied
			}
			labels := withLabels(pt.labels, labelJobSetName, w.jobName, labelReplicatedJobName, rj.name)
			ps := pt.pods(total, labels)
			ps.Name = podSetName(rj.name)
			w.wl.PodSets = append(w.wl.PodSets, ps)
			pts = append(pts, pt)
		}
		if tj.resources != nil && !overridden {
			d.warnObj(w.label, tj.resourcesNode, "spec.trainer.resourcesPerNode", "resourcesPerNode has no effect: the trainer applies it only to a container named %q of the runtime's trainer step, and %s %q has none, so the pod sets keep the runtime's requests", trainerNode, tj.runtimeKind, tj.runtimeName)
		}
		if len(w.wl.PodSets) == 0 {
			d.errorObj(w.label, tj.refNode, "spec.runtimeRef", "%s %q has no replicated jobs: Kueue cannot create a Workload without pod sets", tj.runtimeKind, tj.runtimeName)
			w.dropped = true
			continue
		}
		obj := d.obj
		d.obj = w.label
		d.checkJobPodSets(tj.kindNode, "TrainJob", w)
		d.obj = obj
		w.pc = firstPriorityClass(pts...)
	}
}
