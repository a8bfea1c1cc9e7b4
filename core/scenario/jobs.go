package scenario

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kueueplay/kueueplay/core"
)

// The part every job kind shares. Kueue's jobframework handles any kind the
// same way once the integration has computed its pod sets
// (jobframework.ConstructWorkload, pkg/controller/jobframework/reconciler.go):
//
//   - the queue is the kueue.x-k8s.io/queue-name label of the object
//     (jobframework.QueueNameForObject; Kueue v0.16 no longer reads the
//     old queue-name annotation), validated by jobframework.ValidateQueueName;
//     without it, LocalQueueDefaulting puts the object in the LocalQueue
//     "default" of its namespace when there is one
//     (jobframework.ApplyDefaultLocalQueue), and otherwise Kueue does not
//     manage the object (manageJobsWithoutQueueName is off by default);
//   - the priority is the WorkloadPriorityClass of the
//     kueue.x-k8s.io/priority-class label, else the PriorityClass the kind
//     names (most kinds: the first pod set's priorityClassName; Kubeflow
//     jobs: runPolicy.schedulingPolicy.priorityClass first), else the
//     globalDefault PriorityClass (jobframework.ExtractPriority), resolved
//     in link (jobPriority);
//   - the Workload is named by jobframework.GetWorkloadNameForOwnerWithGVK:
//     "<lowercase kind>-<name>-<hash of the UID>". The playground keeps
//     names readable and leaves out the hash: "job-<name>",
//     "jobset-<name>", "rayjob-<name>", ...

// jobGVK is the API group and kind of a job object.
type jobGVK struct {
	group, kind string
}

// beginJob starts decoding a job object of any kind: its metadata (name
// checked by rule), the kueueplay/ annotations, the queue-name and
// priority-class labels. It returns the metadata, the object's spec node
// (status is observed state and is skipped) and the wlInfo of the Workload
// Kueue creates for it, named "<lowercase kind>-<name>", without pod sets.
func (d *decoder) beginJob(o *rawObject, gvk jobGVK, rule nameRule) (objMeta, *yaml.Node, *wlInfo) {
	m, rest := d.begin(o, true, rule)
	sa := d.annotations(m, annWorkload, o.kind)
	spec, _ := d.specAndStatus(rest)
	w := d.jobWorkload(o, m, gvk, sa, jobWorkloadName(gvk.kind, m.name))
	return m, spec, w
}

// jobWorkloadName is the playground's name for the Workload of a job
// object: jobframework.GetWorkloadNameForOwnerWithGVK without its hash,
// "<lowercase kind>-<name>" cut to MaxNameLength like Kueue cuts it.
func jobWorkloadName(kind, name string) string {
	n := strings.ToLower(kind) + "-" + name
	if len(n) > MaxNameLength {
		n = n[:MaxNameLength]
	}
	return n
}

// jobWorkload builds the wlInfo of a Workload named wlName for the job
// object o: queue and priority-class labels from m.
func (d *decoder) jobWorkload(o *rawObject, m objMeta, gvk jobGVK, sa simAnnotations, wlName string) *wlInfo {
	w := &wlInfo{
		label: m.label, objAt: atOf(o.node), nameAt: atOf(m.nameNode),
		job: true, wlMore: wlMore{jobName: m.name, jobGroup: gvk.group, jobKind: gvk.kind},
		uid: m.uid, owner: m.owner,
		wl: &core.Workload{
			Namespace:        m.namespace,
			Name:             wlName,
			Active:           true,
			Arrival:          sa.arrival,
			Runtime:          sa.runtime,
			TerminationDelay: sa.terminationDelay,
			Pos:              d.pos(o.node),
		},
	}
	d.jobLabels(m, w)
	return w
}

// jobLabels reads the queue-name and priority-class labels of a job object
// (or of a Pod) into w.
func (d *decoder) jobLabels(m objMeta, w *wlInfo) {
	if q, ok := m.labels[labelQueueName]; ok {
		fp := key("metadata.labels", labelQueueName)
		// jobframework.ValidateQueueName.
		if msg := checkDNSSubdomain(q, MaxNameLength); msg != "" {
			d.errorf(m.labelNodes[labelQueueName], fp, "invalid queue name: %s", msg)
		}
		w.wl.Queue = q
		w.queue = wref{name: q, at: atOf(m.labelNodes[labelQueueName]), path: fp}
	} else {
		w.noQueueLabel = true
	}
	if c, ok := m.labels[labelPriorityClass]; ok && c != "" {
		w.wpc = ref{name: c, node: m.labelNodes[labelPriorityClass], path: key("metadata.labels", labelPriorityClass)}
	}
	if _, ok := m.ann[labelQueueName]; ok {
		d.warnf(m.annNodes[labelQueueName], key("metadata.annotations", labelQueueName), "Kueue v0.16 reads the queue from the %s label only; this annotation is ignored: move it to metadata.labels", labelQueueName)
	}
	if _, ok := m.labels[labelMaxExecTime]; ok {
		d.warnf(m.labelNodes[labelMaxExecTime], key("metadata.labels", labelMaxExecTime), "the maximum execution time is not simulated and is ignored (use the kueueplay/runtime annotation)")
	}
}

// jobRef names the job object of a job workload in messages: `Job "x"`,
// or `pod group "g"`.
func (w *wlInfo) jobRef() string {
	if w.podGroup {
		return fmt.Sprintf("pod group %q", w.jobName)
	}
	return fmt.Sprintf("%s %q", w.jobKind, w.jobName)
}

// firstPriorityClass returns the first pod template priorityClassName of
// pts, in pod set order: jobframework.ExtractPriority's
// extractPriorityFromPodSets, for the kinds without a PriorityClass()
// method of their own.
func firstPriorityClass(pts ...podTemplate) ref {
	for _, pt := range pts {
		if pt.priorityClassName.name != "" {
			return pt.priorityClassName
		}
	}
	return ref{}
}

// addJob registers a job object (kind, namespace, name) and the Workloads
// it becomes, after checking their pod sets like the Workload CRD would
// (at most 8, unique DNS-label names): Kueue fails to create a Workload
// that breaks them. A workload without the queue-name label registers its
// name in link, once LocalQueue defaulting is known.
func (d *decoder) addJob(st *state, o *rawObject, m objMeta, ws ...*wlInfo) {
	for _, w := range ws {
		d.checkJobPodSets(o.kindNode, o.kind, w)
	}
	if m.name == "" || !d.register(st, o.kind, m.namespace, m.name, m.nameNode, "") {
		return
	}
	for _, w := range ws {
		if !w.noQueueLabel && !d.register(st, "Workload", w.wl.Namespace, w.wl.Name, m.nameNode, w.jobRef()) {
			continue
		}
		st.addWorkload(w)
	}
}

// checkJobPodSets applies the Workload CRD's rules on spec.podSets to the
// pod sets an integration computed for an object of kind; n is where to
// report (the object's kind).
func (d *decoder) checkJobPodSets(n *yaml.Node, kind string, w *wlInfo) {
	if len(w.wl.PodSets) > maxPodSets {
		d.errorf(n, "kind", "this %s has %d pod sets; a Workload has at most %d, so Kueue cannot create one for it", kind, len(w.wl.PodSets), maxPodSets)
	}
	seen := map[string]bool{}
	for _, ps := range w.wl.PodSets {
		if msg := checkDNSLabel(ps.Name); msg != "" {
			d.errorf(n, "kind", "pod set name %q of this %s is invalid, so Kueue cannot create its Workload: %s", ps.Name, kind, msg)
		}
		if seen[ps.Name] {
			d.errorf(n, "kind", "this %s has two pod sets named %q, so Kueue cannot create its Workload", kind, ps.Name)
		}
		seen[ps.Name] = true
	}
}
