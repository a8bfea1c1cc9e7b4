package scenario

import (
	"fmt"
	"strings"
	"time"
)

// link runs the checks that span objects, once every object is decoded.
func (d *decoder) link(st *state) {
	d.linkOwners(st)
	d.linkDeploymentOwners(st)
	d.linkConfiguration(st)
	d.linkClusterQueues(st)
	d.linkTopologies(st)
	d.linkCohorts(st)
	d.linkLocalQueues(st)
	d.linkPodGroups(st)
	d.linkTrainJobs(st)
	d.linkJobs(st)
	d.linkWorkloads(st)
	d.linkTimes(st)
	d.linkQueuedDeployments(st)
	d.linkDeployments(st)
	d.linkScenarioRefs(st)
}

// linkClusterQueues warns about flavors that do not exist: Kueue accepts
// such a ClusterQueue but keeps it inactive (clusterQueue.updateQueueStatus,
// reason FlavorNotFound).
func (d *decoder) linkClusterQueues(st *state) {
	for _, c := range st.clusterQueues {
		for _, f := range c.flavors {
			if !st.flavorNames[f.name] {
				d.warnObj(c.label, f.node, f.path, "%s", flavorMissingMessage(f.name))
			}
		}
	}
}

// linkCohorts reports every Cohort that is part of a parentName cycle.
// Kueue accepts the objects but disables the whole tree (ErrCohortHasCycle);
// the playground rejects the file instead.
func (d *decoder) linkCohorts(st *state) {
	byName := map[string]*cohortInfo{}
	for _, c := range st.cohorts {
		byName[c.cohort.Name] = c
	}
	// state: 0 unvisited, 1 on the current path, 2 done.
	visit := map[string]int{}
	for _, start := range st.cohorts {
		var path []string
		name := start.cohort.Name
		for {
			if visit[name] == 2 {
				break
			}
			if visit[name] == 1 {
				// name closes a cycle: the members are path[i:].
				i := 0
				for path[i] != name {
					i++
				}
				members := path[i:]
				for j, member := range members {
					chain := append(append([]string{}, members[j:]...), members[:j]...)
					chain = append(chain, member)
					c := byName[member]
					d.errorObj(c.label, c.parent.node, c.parent.path, "Cohort cycle through parentName: %s (Kueue disables every ClusterQueue in the cycle)", strings.Join(chain, " -> "))
				}
				break
			}
			c, declared := byName[name]
			if !declared {
				break
			}
			visit[name] = 1
			path = append(path, name)
			if c.cohort.Parent == "" {
				break
			}
			name = c.cohort.Parent
		}
		for _, p := range path {
			visit[p] = 2
		}
	}
}

// linkLocalQueues warns about LocalQueues whose ClusterQueue does not exist:
// Kueue accepts them, and their workloads stay pending.
func (d *decoder) linkLocalQueues(st *state) {
	cqs := map[string]bool{}
	for _, c := range st.clusterQueues {
		cqs[c.cq.Name] = true
	}
	for _, q := range st.localQueues {
		switch {
		case q.cq.name == "":
			d.warnObj(q.label, q.cq.node, q.cq.path, "LocalQueue names no ClusterQueue: its workloads stay pending")
		case !cqs[q.cq.name]:
			d.warnObj(q.label, q.cq.node, q.cq.path, "ClusterQueue %q does not exist: workloads submitted to this LocalQueue stay pending", q.cq.name)
		}
	}
}

// linkJobs resolves what depends on other objects for job objects of every
// kind: the queue when the queue-name label is missing (LocalQueueDefaulting, Beta and on by
// default in Kueue v0.16: a LocalQueue named "default" in the Job's
// namespace; jobframework.ApplyDefaultLocalQueue, which the pod webhook
// applies the same way), and the priority
// (jobframework.ExtractPriority).
func (d *decoder) linkJobs(st *state) {
	lqs := map[string]bool{}
	for _, q := range st.localQueues {
		lqs[q.lq.Namespace+"/"+q.lq.Name] = true
	}
	for _, w := range st.workloads {
		if !w.job || w.dropped {
			continue
		}
		if w.noQueueLabel {
			if lqs[w.wl.Namespace+"/"+defaultLocalQueueName] {
				w.wl.Queue = defaultLocalQueueName
				w.queue = wref{name: defaultLocalQueueName, at: w.objAt, path: key("metadata.labels", labelQueueName)}
				if !d.registerJobWorkload(st, w) {
					w.dropped = true
					continue
				}
			} else {
				d.warnObj(w.label, w.objAt.node(), key("metadata.labels", labelQueueName), "%s has no %s label; Kueue does not manage it, so the playground leaves it out", w.jobKind, labelQueueName)
				w.dropped = true
				continue
			}
		}
		d.jobPriority(st, w)
	}
}

// linkOwners merges each Workload object with the job object of the input
// that owns it (its controller ownerReference names the job's API group,
// kind and name in the Workload's namespace, and the uids agree when both
// are written): that Workload is the job's workload, as
// jobframework's reconciler finds it (JobReconciler.ensureOneWorkload looks
// the workload up by its controller owner), so the pair is one workload and
// nothing is counted twice. The Workload object carries the state (spec as
// Kueue built it, status.admission, conditions); the job is dropped. The
// kueueplay/ annotations, which only the job may have, carry over to the
// Workload where it does not set them.
func (d *decoder) linkOwners(st *state) {
	type jobKey struct{ group, kind, namespace, name string }
	jobs := map[jobKey]*wlInfo{}
	for _, w := range st.workloads {
		if w.job && w.jobName != "" {
			k := jobKey{w.jobGroup, w.jobKind, w.wl.Namespace, w.jobName}
			if _, dup := jobs[k]; !dup {
				jobs[k] = w
			}
		}
	}
	// A job object whose controller owner is a job kind Kueue integrates
	// (the Jobs of a JobSet, the RayCluster of a RayJob, the JobSet of a
	// TrainJob) is not queued on its own: jobframework's reconciler skips
	// it (IsOwnerManagedByKueueForObject) and its owner's Workload holds
	// its quota.
	for _, w := range st.workloads {
		o := w.owner
		if !w.job || o == nil || o.kind == "Deployment" || o.kind == "ReplicaSet" || !podOwnerKind(o.group, o.kind) {
			continue
		}
		w.dropped = true
		if _, ok := jobs[jobKey{o.group, o.kind, w.wl.Namespace, o.name}]; ok {
			continue
		}
		d.warnObj(w.label, o.node, "metadata.ownerReferences", "this %s belongs to %s %q, which is not in the input: Kueue counts it through that %s's Workload, so the playground leaves it out; paste the %s or its Workload", w.jobKind, o.kind, o.name, o.kind, o.kind)
	}
	for _, w := range st.workloads {
		if w.job || w.owner == nil {
			continue
		}
		o := w.owner
		j, ok := jobs[jobKey{o.group, o.kind, w.wl.Namespace, o.name}]
		if !ok || j.mergedInto != nil {
			continue
		}
		if o.uid != "" && j.uid != "" && o.uid != j.uid {
			d.warnObj(w.label, o.node, "metadata.ownerReferences", "the controller ownerReference names %s %q with uid %q, but the %s in this input has uid %q: they are different objects, so both are simulated", o.kind, o.name, o.uid, o.kind, j.uid)
			continue
		}
		j.mergedInto, j.dropped = w, true
		if w.wl.Runtime == nil {
			w.wl.Runtime = j.wl.Runtime
		}
		if w.wl.TerminationDelay == nil {
			w.wl.TerminationDelay = j.wl.TerminationDelay
		}
		if w.wl.Arrival == 0 {
			w.wl.Arrival = j.wl.Arrival
		}
	}
	// Pods that belong to an owner: counted with the owner's workload (or
	// made by the Deployment or ReplicaSet) when the owner is in the input;
	// otherwise their workload is missing from the input.
	for _, p := range st.ownedPods {
		o := p.owner
		if _, ok := jobs[jobKey{o.group, o.kind, p.namespace, o.name}]; ok {
			continue
		}
		if dp, ok := st.podOwners[p.namespace+"/"+o.name]; ok && dp.dep.Kind == o.kind {
			continue
		}
		if o.kind == "Deployment" || o.kind == "ReplicaSet" {
			d.warnObj(p.label, o.node, "metadata.ownerReferences", "the Pod belongs to %s %q, which is not in the input, so the playground leaves it out; paste the %s (kubectl get %s -o yaml)", o.kind, o.name, o.kind, strings.ToLower(o.kind)+"s")
			continue
		}
		d.warnObj(p.label, o.node, "metadata.ownerReferences", "the Pod belongs to %s %q, which is not in the input: Kueue counts it through that %s's Workload, so the playground leaves the Pod out; paste the %s or its Workload (kubectl get %s,workloads -o yaml)", o.kind, o.name, o.kind, o.kind, strings.ToLower(o.kind)+"s")
	}
}

// registerJobWorkload registers the Workload of a job object whose queue
// was defaulted.
func (d *decoder) registerJobWorkload(st *state, w *wlInfo) bool {
	obj := d.obj
	d.obj = w.label
	defer func() { d.obj = obj }()
	return d.register(st, "Workload", w.wl.Namespace, w.wl.Name, w.nameAt.node(), w.jobRef())
}

// jobPriority mirrors jobframework.ExtractPriority: the
// kueue.x-k8s.io/priority-class label names a WorkloadPriorityClass;
// otherwise the pod template's priorityClassName names a PriorityClass;
// otherwise the globalDefault PriorityClass applies
// (pkg/util/priority.getDefaultPriorityClass: the lowest value if several);
// otherwise 0. A class that does not exist makes Kueue fail to create the
// Workload, so the job stays suspended: a warning, and the playground
// leaves the job out (as it does a LocalQueue that does not exist, which
// Kueue also accepts).
func (d *decoder) jobPriority(st *state, w *wlInfo) {
	switch {
	case w.wpc.name != "":
		pc, ok := st.workloadPClass[w.wpc.name]
		if !ok {
			d.warnObj(w.label, w.wpc.node, w.wpc.path, "WorkloadPriorityClass %q does not exist: Kueue cannot create the Workload for this %s, which stays suspended, so the playground leaves it out; paste the WorkloadPriorityClass (kubectl get workloadpriorityclasses -o yaml) or fix the label", w.wpc.name, w.jobKind)
			w.dropped = true
			return
		}
		w.wl.Priority, w.wl.PriorityClass = pc.value, w.wpc.name
	case w.pc.name != "":
		if v, system := systemPriority(w.pc.name); system {
			w.wl.Priority, w.wl.PriorityClass = v, w.pc.name
			return
		}
		pc, ok := st.priorityClass[w.pc.name]
		if !ok {
			d.warnObj(w.label, w.pc.node, w.pc.path, "PriorityClass %q does not exist: Kueue cannot create the Workload for this %s, which stays suspended, so the playground leaves it out; paste the PriorityClass (kubectl get priorityclasses -o yaml) or fix priorityClassName", w.pc.name, w.jobKind)
			w.dropped = true
			return
		}
		w.wl.Priority, w.wl.PriorityClass = pc.value, w.pc.name
	case st.defaultPriorityClass != "":
		w.wl.Priority = st.priorityClass[st.defaultPriorityClass].value
		w.wl.PriorityClass = st.defaultPriorityClass
	}
}

// linkWorkloads warns about workloads whose LocalQueue or admission
// ClusterQueue does not exist.
func (d *decoder) linkWorkloads(st *state) {
	lqs := map[string]bool{}
	for _, q := range st.localQueues {
		lqs[q.lq.Namespace+"/"+q.lq.Name] = true
	}
	cqs := map[string]bool{}
	for _, c := range st.clusterQueues {
		cqs[c.cq.Name] = true
	}
	for _, w := range st.workloads {
		if w.dropped || w.queue.name == "" {
			continue
		}
		if !lqs[w.wl.Namespace+"/"+w.queue.name] {
			if w.wl.Admission != nil {
				d.warnObj(w.label, w.queue.at.node(), w.queue.path, "LocalQueue %q does not exist in namespace %q: the workload keeps its admission, but it could not be queued again after an eviction; paste the LocalQueues too (kubectl get localqueues -A -o yaml)", w.queue.name, w.wl.Namespace)
			} else {
				d.warnObj(w.label, w.queue.at.node(), w.queue.path, noLocalQueue, w.queue.name, w.wl.Namespace)
			}
		}
		if w.wl.Admission != nil && w.admissionCQ.name != "" && !cqs[w.admissionCQ.name] {
			d.warnObj(w.label, w.admissionCQ.node, w.admissionCQ.path, "ClusterQueue %q of the admission is not in the input: the workload is shown admitted, but its usage counts against no quota; paste the ClusterQueues too (kubectl get clusterqueues -o yaml)", w.admissionCQ.name)
		}
	}
	// The fast path's Workloads: each names a queue, and none is admitted.
	// Neighbours mostly name the same queue, looked up once.
	var ns, queue string
	found := false
	for i := range st.fastWorkloads {
		wl := &st.fastWorkloads[i]
		if i == 0 || wl.Namespace != ns || wl.Queue != queue {
			ns, queue, found = wl.Namespace, wl.Queue, lqs[wl.Namespace+"/"+wl.Queue]
		}
		if !found {
			d.warnObj(fastLabel(wl), st.fastAt[i].queue(), "spec.queueName", noLocalQueue, wl.Queue, wl.Namespace)
		}
	}
}

// noLocalQueue is the warning on a pending workload whose LocalQueue does
// not exist.
const noLocalQueue = "LocalQueue %q does not exist in namespace %q: the workload stays pending; paste the LocalQueue (kubectl get localqueues -A -o yaml) or fix the queue name"

// linkTimes turns the timestamps of pasted workloads into virtual time:
// the QuotaReserved and Evicted conditions' lastTransitionTime and
// status.requeueState.requeueAt. The epoch is chosen so that the file needs
// no wall clock: the latest condition timestamp of any workload in the file
// is virtual time 0 (the dump was taken at or after it, and the simulation
// starts right then), and every other time is its offset from that one
// (negative for the past; requeueAt may be in the future). Without any
// condition timestamp, the times stay unset (requeueAt too).
func (d *decoder) linkTimes(st *state) {
	var epoch time.Time
	found := false
	for _, w := range st.workloads {
		if w.dropped || w.latest == nil {
			continue
		}
		if !found || w.latest.After(epoch) {
			epoch, found = *w.latest, true
		}
	}
	if !found {
		return
	}
	rel := func(t *time.Time) *time.Duration {
		off := t.Sub(epoch) // saturates for far-apart times
		return &off
	}
	for _, w := range st.workloads {
		if w.dropped {
			continue
		}
		if w.wl.Admission != nil && w.admittedAt != nil {
			w.wl.AdmittedAt = rel(w.admittedAt)
		}
		if w.wl.Eviction != nil && w.evictedAt != nil {
			w.wl.Eviction.At = *rel(w.evictedAt)
		}
		if w.requeueAt != nil && w.wl.Admission == nil {
			w.wl.RequeueAt = rel(w.requeueAt)
		}
	}
}

// linkScenarioRefs checks that events and expectations name objects of
// the file: workloads, or for pods, messages and scale, Deployments and
// ReplicaSets; and that expect[].pods names Nodes of the file.
func (d *decoder) linkScenarioRefs(st *state) {
	known := map[string]bool{}
	hint := map[string]string{}
	jobs := map[string]string{}
	// The maps serve only the references (and a 15,000-workload file
	// without any need not build them).
	workloads := st.workloads
	if len(st.scenario.refs) == 0 {
		workloads = nil
	}
	for _, w := range workloads {
		k := w.wl.Namespace + "/" + w.wl.Name
		switch {
		case !w.dropped:
			known[k] = true
		case w.mergedInto != nil:
			hint[k] = fmt.Sprintf(" (the workload of %s %q is the Workload %q of the input, which it owns)", w.jobKind, w.wl.Namespace+"/"+w.jobName, w.mergedInto.wl.Namespace+"/"+w.mergedInto.wl.Name)
		default:
			hint[k] = " (it is left out of the simulation, see the warning on it)"
		}
		if w.job {
			jk := w.wl.Namespace + "/" + w.jobName
			jobs[jk] = w.jobKind
			if _, taken := hint[jk]; !taken {
				if w.mergedInto != nil {
					hint[jk] = hint[k]
				} else {
					hint[jk] = fmt.Sprintf(" (%s %q becomes Workload %q)", w.jobKind, jk, k)
				}
			}
		}
	}
	replicaOf := map[string]*depInfo{}
	for _, dp := range st.deployments {
		if len(st.scenario.refs) == 0 {
			break
		}
		for _, w := range dp.workloads {
			replicaOf[w.wl.Namespace+"/"+w.wl.Name] = dp
		}
	}
	// The fast path's Workloads are found by their key (never dropped).
	isKnown := func(k string) bool {
		if known[k] {
			return true
		}
		ns, name, ok := strings.Cut(k, "/")
		return ok && st.fastKeys.find(st.fastWorkloads, ns, name) >= 0
	}
	for _, r := range st.scenario.refs {
		dp, isOwner := st.podOwners[r.name]
		switch r.kind {
		case refWorkload:
			switch {
			case isKnown(r.name) && replicaOf[r.name] != nil && strings.HasPrefix(r.path, "spec.events"):
				owner := replicaOf[r.name].dep
				d.errorObj(st.scenario.label, r.node, r.path, "%q is the Workload of a pod of %s %q: the ReplicaSet controller creates and deletes those pods, so scale the owner instead", r.name, owner.Kind, owner.Key())
			case isKnown(r.name):
			case isOwner:
				d.errorObj(st.scenario.label, r.node, r.path, "%q is a %s, not a workload: only scale, pods and messages name Deployments and ReplicaSets", r.name, dp.dep.Kind)
			default:
				d.errorObj(st.scenario.label, r.node, r.path, "unknown workload %q%s", r.name, hint[r.name])
			}
		case refOwner:
			if !isKnown(r.name) && !isOwner {
				d.errorObj(st.scenario.label, r.node, r.path, "unknown workload, Deployment or ReplicaSet %q%s", r.name, hint[r.name])
			}
		case refScalable:
			switch {
			case isOwner && dp.ownedBy != nil:
				d.errorObj(st.scenario.label, r.node, r.path, "ReplicaSet %q belongs to Deployment %q of the input, which the playground simulates in its place: scale the Deployment", r.name, dp.ownedBy.dep.Key())
			case isOwner:
			case isKnown(r.name):
				d.errorObj(st.scenario.label, r.node, r.path, "%q is a workload: scale applies to Deployments and ReplicaSets only", r.name)
			case jobs[r.name] != "":
				d.errorObj(st.scenario.label, r.node, r.path, "%q is a %s: scale applies to Deployments and ReplicaSets only", r.name, jobs[r.name])
			default:
				d.errorObj(st.scenario.label, r.node, r.path, "unknown Deployment or ReplicaSet %q", r.name)
			}
		}
	}
	nodes := map[string]bool{}
	for _, n := range st.nodes {
		nodes[n.Name] = true
	}
	for _, r := range st.scenario.nodeRefs {
		if nodes[r.name] {
			continue
		}
		if len(nodes) == 0 {
			d.errorObj(st.scenario.label, r.node, r.path, "unknown Node %q: the file has no Nodes, so no pod is placed", r.name)
		} else {
			d.errorObj(st.scenario.label, r.node, r.path, "unknown Node %q", r.name)
		}
	}
}
