package scenario

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// Labels the JobSet controller puts on the pods of a JobSet
// (jobset.x-k8s.io/v1alpha2 JobSetNameKey, ReplicatedJobNameKey).
const (
	labelJobSetName        = "jobset.sigs.k8s.io/jobset-name"
	labelReplicatedJobName = "jobset.sigs.k8s.io/replicatedjob-name"
)

// jobSet decodes a jobset.x-k8s.io/v1alpha2 JobSet into the Workload Kueue's
// JobSet integration creates (pkg/controller/jobs/jobset/jobset_controller.go:
// JobSet.PodSets): one pod set per replicatedJobs[] entry, in order, named
// after it (lowercased, kueue.NewPodSetReference), whose count is podsCount
// = replicas (CRD default 1) x PodsCountPerReplica, that is
// min(parallelism, completions) of the Job template after the Kubernetes Job
// defaults. The priority is the priority-class label, else the first
// replicated job's template with a priorityClassName
// (jobframework.ExtractPriority, extractPriorityFromPodSets). The Workload is
// named jobset-<name> (Kueue adds a hash of the UID).
func (d *decoder) jobSet(st *state, o *rawObject) {
	m, specNode, w := d.beginJob(o, jobGVK{"jobset.x-k8s.io", "JobSet"}, nameSubdomain)
	if isNull(specNode) {
		d.required(o.node, "", "spec")
	}
	var pts []podTemplate
	var listNode *yaml.Node
	for _, p := range d.pairs(specNode, "spec") {
		fp := join("spec", p.name)
		switch p.name {
		case "replicatedJobs":
			listNode = p.val
			pts = d.replicatedJobs(p.val, fp, m.name, w)
		case "startupPolicy":
			// AnyOrder is the default (kubectl prints it); only InOrder
			// changes when pods start.
			for _, q := range d.pairs(p.val, fp) {
				switch q.name {
				case "startupPolicyOrder":
					if s, ok := d.strEnum(q.val, join(fp, q.name), "AnyOrder", "InOrder"); ok && s == "InOrder" {
						d.warnf(q.val, join(fp, q.name), "startupPolicyOrder InOrder is not simulated: all the replicated jobs' pods start together once the Workload is admitted (Kueue admits the whole JobSet at once either way)")
					}
				default:
					d.unknown(q, fp)
				}
			}
		case "network", "successPolicy", "failurePolicy", "suspend", "coordinator",
			"managedBy", "ttlSecondsAfterFinished", "volumeClaimPolicies":
			// Real JobSetSpec fields the playground does not interpret.
		default:
			d.unknown(p, "spec")
		}
	}
	if !isNull(specNode) && len(pts) == 0 {
		d.errorf(orNode(listNode, specNode), "spec.replicatedJobs", "a JobSet needs at least one replicated job: Kueue cannot create a Workload without pod sets")
	}
	w.pc = firstPriorityClass(pts...)
	d.addJob(st, o, m, w)
}

// replicatedJobs decodes spec.replicatedJobs into w's pod sets and returns
// the pod templates in pod set order.
func (d *decoder) replicatedJobs(n *yaml.Node, path, jobSetName string, w *wlInfo) []podTemplate {
	var pts []podTemplate
	seen := map[string]bool{}
	for i, item := range d.items(n, path) {
		ip := index(path, i)
		var name string
		var nameNode, jobNode *yaml.Node
		replicas := int32(1) // CRD default
		for _, p := range d.pairs(item, ip) {
			fp := join(ip, p.name)
			switch p.name {
			case "name":
				if s, ok := d.str(p.val, fp); ok {
					name, nameNode = s, p.val
				}
			case "replicas":
				if v, ok := d.int32v(p.val, fp, 0); ok {
					replicas = v
				}
			case "template":
				jobNode = p.val
			case "dependsOn":
				if !isNull(p.val) {
					d.warnf(p.key, fp, "dependsOn is not simulated: this replicated job's pods start with the others once the Workload is admitted (Kueue reserves quota for all of them at once either way)")
				}
			case "groupName":
				// Only labels the pods.
			default:
				d.unknown(p, ip)
			}
		}
		if isNull(item) {
			continue
		}
		if nameNode == nil {
			d.required(item, ip, "name")
			continue
		}
		// The JobSet webhook (ValidateCreate) requires the Job names built
		// from the replicated job name to be DNS-1035 labels; the
		// playground checks the name itself is a DNS label, and unique.
		if msg := checkDNSLabel(name); msg != "" {
			d.errorf(nameNode, join(ip, "name"), "invalid replicated job name: %s", msg)
			continue
		}
		if seen[name] {
			d.errorf(nameNode, join(ip, "name"), "duplicate replicated job name %q", name)
			continue
		}
		seen[name] = true
		if isNull(jobNode) {
			d.required(item, ip, "template")
			continue
		}
		var specNode *yaml.Node
		tp := join(ip, "template")
		for _, p := range d.pairs(jobNode, tp) {
			switch p.name {
			case "metadata":
				d.objectMeta(p.val, jobNode, join(tp, "metadata"), false, nameSubdomain)
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
		// JobSet's webhook defaults an unset restartPolicy to OnFailure
		// (sigs.k8s.io/jobset v0.10 pkg/webhooks/jobset_webhook.go:
		// Default).
		pt, perReplica, ok := d.jobSpec(specNode, join(tp, "spec"), true)
		if !ok {
			continue
		}
		count, over := mulCount(replicas, perReplica)
		if over {
			// The JobSet webhook rejects it too.
			d.errorf(nameNode, ip, "the product of replicas and parallelism must not exceed %d for replicated job %q", int32(1<<31-1), name)
			continue
		}
		labels := withLabels(pt.labels, labelJobSetName, jobSetName, labelReplicatedJobName, name)
		ps := pt.pods(count, labels)
		ps.Name = podSetName(name)
		w.wl.PodSets = append(w.wl.PodSets, ps)
		pts = append(pts, pt)
	}
	return pts
}

// podSetName is kueue.NewPodSetReference: pod set names are lowercased.
func podSetName(s string) string {
	return strings.ToLower(s)
}

// mulCount multiplies two non-negative pod counts, reporting an int32
// overflow.
func mulCount(a, b int32) (int32, bool) {
	p := int64(a) * int64(b)
	if p > 1<<31-1 {
		return 0, true
	}
	return int32(p), false
}

// withLabels returns a copy of labels with the key, value pairs kv added.
func withLabels(labels map[string]string, kv ...string) map[string]string {
	out := make(map[string]string, len(labels)+len(kv)/2)
	for k, v := range labels {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}
