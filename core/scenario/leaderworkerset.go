package scenario

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/kueueplay/kueueplay/core"
)

// Pod set names of a LeaderWorkerSet group's Workload
// (pkg/controller/jobs/leaderworkerset/leaderworkerset_reconciler.go:
// leaderPodSetName, workerPodSetName).
const (
	lwsLeaderPodSet = "leader"
	lwsWorkerPodSet = "worker"
)

// leaderWorkerSet decodes a leaderworkerset.x-k8s.io/v1 LeaderWorkerSet.
// Kueue's LeaderWorkerSet integration creates one Workload per group
// (pkg/controller/jobs/leaderworkerset/leaderworkerset_reconciler.go:
// Reconciler.filterWorkloads, constructWorkload, podSets): spec.replicas
// groups (default 1), each with the pod sets "leader" (count 1, the
// leaderTemplate) and "worker" (count size-1, the workerTemplate) when a
// leaderTemplate is set, else one pod set "main" of count size (default 1)
// from the workerTemplate. The priority is the priority-class label, else
// the first pod set's priorityClassName (jobframework.PrepareWorkloadPriority).
// The Workload of group i is named leaderworkerset-<name>-<i> (Kueue:
// GetWorkloadName, with a hash). Each group is admitted on its own.
func (d *decoder) leaderWorkerSet(st *state, o *rawObject) {
	m, specNode, proto := d.beginJob(o, jobGVK{"leaderworkerset.x-k8s.io", "LeaderWorkerSet"}, nameSubdomain)
	replicas := int32(1)
	var lwtNode, replicasNode *yaml.Node
	for _, p := range d.pairs(specNode, "spec") {
		fp := join("spec", p.name)
		switch p.name {
		case "replicas":
			if v, ok := d.int32v(p.val, fp, 0); ok {
				replicas, replicasNode = v, p.val
			}
		case "leaderWorkerTemplate":
			lwtNode = p.val
		case "startupPolicy":
			if s, ok := d.strEnum(p.val, fp, "LeaderCreated", "LeaderReady"); ok && s == "LeaderReady" {
				d.warnf(p.val, fp, "startupPolicy LeaderReady is not simulated: the workers start with the leader once the group's Workload is admitted (Kueue reserves quota for the whole group at once either way)")
			}
		case "rolloutStrategy", "networkConfig":
			// Real LeaderWorkerSetSpec fields the playground does not
			// interpret (it never rolls out a new template).
		default:
			d.unknown(p, "spec")
		}
	}
	if isNull(specNode) {
		d.required(o.node, "", "spec")
	} else if isNull(lwtNode) {
		d.required(specNode, "spec", "leaderWorkerTemplate")
	}
	sets := d.leaderWorkerTemplate(lwtNode, "spec.leaderWorkerTemplate")
	if replicas > maxLWSGroups {
		d.errorf(orNode(replicasNode, o.node), "spec.replicas", "must be at most %d (the playground's bound on the groups of a LeaderWorkerSet, one Workload each), got %d", maxLWSGroups, replicas)
		return
	}
	// All LeaderWorkerSets together make at most MaxObjects Workloads, so
	// that a file of many of them stays as small as MaxObjects objects.
	st.lwsGroups += int(replicas)
	if st.lwsGroups > MaxObjects {
		d.errorf(orNode(replicasNode, o.node), "spec.replicas", "the LeaderWorkerSets of the file make more than %d Workloads (one per group; MaxObjects)", MaxObjects)
		return
	}
	var ws []*wlInfo
	var pts []podTemplate
	for _, s := range sets {
		pts = append(pts, s.pt)
	}
	for i := int32(0); i < replicas && len(sets) > 0; i++ {
		w := proto.clone()
		// GetWorkloadName: the owner name is "<name>-<group index>".
		w.wl.Name = jobWorkloadName(o.kind, fmt.Sprintf("%s-%d", m.name, i))
		w.wl.PodSets = nil
		for _, s := range sets {
			w.wl.PodSets = append(w.wl.PodSets, s.pt.podSet(s.name, s.count, ""))
		}
		w.pc = firstPriorityClass(pts...)
		ws = append(ws, w)
	}
	d.addJob(st, o, m, ws...)
}

// maxLWSGroups bounds the Workloads one LeaderWorkerSet makes (one per
// group): the playground's bound, core.MaxReplicas like a Deployment's.
const maxLWSGroups = core.MaxReplicas

// lwsPodSet is one pod set of a LeaderWorkerSet group's Workload.
type lwsPodSet struct {
	name  string
	count int32
	pt    podTemplate
}

// leaderWorkerTemplate decodes a LeaderWorkerTemplate into the pod sets of
// one group's Workload; nil without a worker template.
func (d *decoder) leaderWorkerTemplate(n *yaml.Node, path string) []lwsPodSet {
	size := int32(1)
	var leaderNode, workerNode *yaml.Node
	for _, p := range d.pairs(n, path) {
		fp := join(path, p.name)
		switch p.name {
		case "leaderTemplate":
			leaderNode = p.val
		case "workerTemplate":
			workerNode = p.val
		case "size":
			if v, ok := d.int32v(p.val, fp, 1); ok {
				size = v
			}
		case "restartPolicy":
			d.strEnum(p.val, fp, "Default", "RecreateGroupOnPodRestart", "RecreateGroupAfterStart", "None")
		case "subGroupPolicy", "volumeClaimTemplates", "persistentVolumeClaimRetentionPolicy", "resourceClaimTemplates":
			// Real LeaderWorkerTemplate fields the playground does not interpret.
		default:
			d.unknown(p, path)
		}
	}
	if isNull(n) {
		return nil
	}
	if isNull(workerNode) {
		d.required(n, path, "workerTemplate")
		return nil
	}
	var sets []lwsPodSet
	workerName, workerCount := defaultPodSetName, size
	if !isNull(leaderNode) {
		lt := d.podTemplate(leaderNode, join(path, "leaderTemplate"))
		sets = append(sets, lwsPodSet{lwsLeaderPodSet, 1, lt})
		workerName, workerCount = lwsWorkerPodSet, size-1
	}
	wt := d.podTemplate(workerNode, join(path, "workerTemplate"))
	return append(sets, lwsPodSet{workerName, workerCount, wt})
}
