package scenario

import (
	"fmt"
	"strings"
	"time"
)

// link runs the checks that span objects, once every object is decoded.
func (d *decoder) link(st *state) {
	d.linkClusterQueues(st)
	d.linkCohorts(st)
	d.linkLocalQueues(st)
	d.linkPodGroups(st)
	d.linkTrainJobs(st)
	d.linkJobs(st)
	d.linkWorkloads(st)
	d.linkAdmissionTimes(st)
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
				w.queue = ref{name: defaultLocalQueueName, node: w.node, path: key("metadata.labels", labelQueueName)}
				if !d.registerJobWorkload(st, w) {
					w.dropped = true
					continue
				}
			} else {
				d.warnObj(w.label, w.node, key("metadata.labels", labelQueueName), "%s has no %s label; Kueue does not manage it, so the playground leaves it out", w.jobKind, labelQueueName)
				w.dropped = true
				continue
			}
		}
		d.jobPriority(st, w)
	}
}

// registerJobWorkload registers the Workload of a job object whose queue
// was defaulted.
func (d *decoder) registerJobWorkload(st *state, w *wlInfo) bool {
	obj := d.obj
	d.obj = w.label
	defer func() { d.obj = obj }()
	return d.register(st, "Workload", w.wl.Namespace, w.wl.Name, w.nameNode, w.jobRef())
}

// jobPriority mirrors jobframework.ExtractPriority: the
// kueue.x-k8s.io/priority-class label names a WorkloadPriorityClass;
// otherwise the pod template's priorityClassName names a PriorityClass;
// otherwise the globalDefault PriorityClass applies
// (pkg/util/priority.getDefaultPriorityClass: the lowest value if several);
// otherwise 0. A class that does not exist makes Kueue fail to create the
// Workload, which the playground reports as an error.
func (d *decoder) jobPriority(st *state, w *wlInfo) {
	switch {
	case w.wpc.name != "":
		pc, ok := st.workloadPClass[w.wpc.name]
		if !ok {
			d.errorObj(w.label, w.wpc.node, w.wpc.path, "WorkloadPriorityClass %q does not exist: Kueue cannot create the Workload for this %s", w.wpc.name, w.jobKind)
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
			d.errorObj(w.label, w.pc.node, w.pc.path, "PriorityClass %q does not exist: Kueue cannot create the Workload for this %s", w.pc.name, w.jobKind)
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
			d.warnObj(w.label, w.queue.node, w.queue.path, "LocalQueue %q does not exist in namespace %q: the workload stays pending", w.queue.name, w.wl.Namespace)
		}
		if w.wl.Admission != nil && w.admissionCQ.name != "" && !cqs[w.admissionCQ.name] {
			d.warnObj(w.label, w.admissionCQ.node, w.admissionCQ.path, "ClusterQueue %q of the admission does not exist", w.admissionCQ.name)
		}
	}
}

// linkAdmissionTimes turns the QuotaReserved lastTransitionTime of
// workloads that start admitted into virtual time. The epoch is chosen so
// that the file needs no wall clock: the latest such timestamp in the file
// is virtual time 0 (the simulation starts right after it), and every other
// admitted workload gets the negative offset of its timestamp from that
// one. Without any timestamp, AdmittedAt stays nil.
func (d *decoder) linkAdmissionTimes(st *state) {
	var latest time.Time
	found := false
	for _, w := range st.workloads {
		if w.dropped || w.wl.Admission == nil || w.admittedAt == nil {
			continue
		}
		if !found || w.admittedAt.After(latest) {
			latest, found = *w.admittedAt, true
		}
	}
	if !found {
		return
	}
	for _, w := range st.workloads {
		if w.dropped || w.wl.Admission == nil || w.admittedAt == nil {
			continue
		}
		off := w.admittedAt.Sub(latest) // <= 0; saturates for far-apart times
		w.wl.AdmittedAt = &off
	}
}

// linkScenarioRefs checks that events and expectations name objects of
// the file: workloads, or for pods, messages and scale, Deployments and
// ReplicaSets; and that expect[].pods names Nodes of the file.
func (d *decoder) linkScenarioRefs(st *state) {
	known := map[string]bool{}
	hint := map[string]string{}
	jobs := map[string]string{}
	for _, w := range st.workloads {
		k := w.wl.Namespace + "/" + w.wl.Name
		if !w.dropped {
			known[k] = true
		} else {
			hint[k] = " (it is left out of the simulation, see the warning on it)"
		}
		if w.job {
			jk := w.wl.Namespace + "/" + w.jobName
			jobs[jk] = w.jobKind
			if _, taken := hint[jk]; !taken {
				hint[jk] = fmt.Sprintf(" (%s %q becomes Workload %q)", w.jobKind, jk, k)
			}
		}
	}
	for _, r := range st.scenario.refs {
		dp, isOwner := st.podOwners[r.name]
		switch r.kind {
		case refWorkload:
			switch {
			case known[r.name]:
			case isOwner:
				d.errorObj(st.scenario.label, r.node, r.path, "%q is a %s, not a workload: only scale, pods and messages name Deployments and ReplicaSets", r.name, dp.dep.Kind)
			default:
				d.errorObj(st.scenario.label, r.node, r.path, "unknown workload %q%s", r.name, hint[r.name])
			}
		case refOwner:
			if !known[r.name] && !isOwner {
				d.errorObj(st.scenario.label, r.node, r.path, "unknown workload, Deployment or ReplicaSet %q%s", r.name, hint[r.name])
			}
		case refScalable:
			switch {
			case isOwner:
			case known[r.name]:
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
