package scenario

import (
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/kueueplay/kueueplay/core"
)

// defaultPodSetName is kueue.DefaultPodSetName, the CRD default of
// PodSet.name and PodSetAssignment.name.
const defaultPodSetName = "main"

// workload decodes a Workload. v1beta1 is converted to v1beta2 meaning
// (Convert_v1beta1_WorkloadSpec_To_v1beta2_WorkloadSpec: priorityClassName
// with priorityClassSource becomes priorityClassRef; with an empty source
// the class name is dropped). It validates like ValidateWorkload
// (pkg/webhooks/workload_webhook.go) and the Workload CRD's schema and CEL
// rules. The priority is spec.priority (0 when unset), as
// pkg/util/priority.Priority reads it.
func (d *decoder) workload(st *state, o *rawObject, v1beta1 bool) {
	m, rest := d.begin(o, true, nameSubdomain)
	sa := d.annotations(m, annWorkload, o.kind)
	w := &wlInfo{label: m.label, objAt: atOf(o.node), nameAt: atOf(m.nameNode), uid: m.uid, owner: m.owner, wlMore: wlMore{}}
	wl := core.Workload{
		Namespace:        m.namespace,
		Name:             m.name,
		Active:           true,
		Arrival:          sa.arrival,
		Runtime:          sa.runtime,
		TerminationDelay: sa.terminationDelay,
		Pos:              d.pos(o.node),
	}
	var specNode, statusNode, podSetsNode *yaml.Node
	specNode, statusNode = d.specAndStatus(rest)
	var priorityNode, classNode *yaml.Node
	havePodSets := false
	var className, classSource string
	for _, p := range d.pairs(specNode, "spec") {
		fp := d.join("spec", p.name)
		switch p.name {
		case "podSets":
			havePodSets = true
			podSetsNode = p.val
		case "queueName":
			if s, ok := d.str(p.val, fp); ok && s != "" {
				if msg := checkDNSSubdomain(s, MaxNameLength); msg != "" {
					d.errorf(p.val, fp, "invalid LocalQueue name: %s", msg)
				}
				wl.Queue = s
				w.queue = wref{name: s, at: atOf(p.val), path: fp}
			}
		case "priority":
			if v, ok := d.int32v(p.val, fp, -1<<31); ok {
				wl.Priority = v
				priorityNode = p.val
			}
		case "active":
			if v, ok := d.boolean(p.val, fp); ok {
				wl.Active = v
			}
		case "maximumExecutionTimeSeconds":
			if _, ok := d.int32v(p.val, fp, 1); ok {
				d.warnf(p.key, fp, "maximumExecutionTimeSeconds is not simulated and is ignored (use the kueueplay/runtime annotation)")
			}
		case "priorityClassRef":
			if v1beta1 {
				d.errorf(p.key, fp, "unknown field %q in kueue.x-k8s.io/v1beta1: use priorityClassName and priorityClassSource (priorityClassRef is kueue.x-k8s.io/v1beta2's field)", p.name)
				continue
			}
			if !isNull(p.val) {
				classNode = p.val
				className = d.priorityClassRef(p.val, fp)
			}
		case "priorityClassName":
			if !v1beta1 {
				d.errorf(p.key, fp, "unknown field %q in kueue.x-k8s.io/v1beta2: use priorityClassRef {group, kind, name} (priorityClassName is kueue.x-k8s.io/v1beta1's field)", p.name)
				continue
			}
			if s, ok := d.str(p.val, fp); ok && s != "" {
				if msg := checkDNSSubdomain(s, MaxNameLength); msg != "" {
					d.errorf(p.val, fp, "invalid priority class name: %s", msg)
				}
				className, classNode = s, p.val
			}
		case "priorityClassSource":
			if !v1beta1 {
				d.errorf(p.key, fp, "unknown field %q in kueue.x-k8s.io/v1beta2: use priorityClassRef {group, kind, name} (priorityClassSource is kueue.x-k8s.io/v1beta1's field)", p.name)
				continue
			}
			classSource, _ = d.strEnum(p.val, fp, "kueue.x-k8s.io/workloadpriorityclass", "scheduling.k8s.io/priorityclass", "")
		default:
			d.unknown(p, "spec")
		}
	}
	if classNode != nil && priorityNode == nil {
		// CEL rule on WorkloadSpec (both versions).
		what := "priorityClassRef"
		if v1beta1 {
			what = "priorityClassName"
		}
		d.errorf(classNode, "spec.priority", "priority should not be nil when %s is set", what)
	}
	if v1beta1 && classSource == "" {
		// The v1beta1 -> v1beta2 conversion keeps the class only with a
		// source.
		className = ""
	}
	wl.PriorityClass = className
	if w.queue.at == (at{}) {
		d.errorf(orNode(specNode, o.node), "spec.queueName", "missing required field \"queueName\": a Workload must name the LocalQueue it is submitted to")
	}
	if !havePodSets {
		d.errorf(orNode(specNode, o.node), "spec.podSets", "missing required field \"podSets\": a Workload must have at least 1 pod set")
	} else {
		wl.PodSets = d.podSets(podSetsNode, "spec.podSets")
	}
	cond := d.workloadStatus(statusNode, "status", w, &wl)
	switch {
	case wl.Admission == nil:
		// Evicted and already released (or never admitted): pending.
	case w.evicted != nil:
		wl.Eviction = w.evicted
	case !wl.Active:
		// WorkloadReconciler.Reconcile, !workload.IsActive: an admitted
		// inactive workload is evicted at once.
		wl.Eviction = &core.Eviction{Reason: "Deactivated", Message: "The workload is deactivated"}
	}
	if w.requeueAt != nil && wl.Admission != nil {
		d.warnf(w.requeueAtNode, "status.requeueState.requeueAt", "the backoff of a workload that still holds its quota is not simulated: it is queued again as soon as it releases its quota")
	}
	if cond.finished {
		d.warnf(cond.finishedNode, "status.conditions", "the Workload has finished (condition Finished is True): Kueue no longer counts it, so the playground leaves it out")
		w.dropped = true
	}
	w.wl = &wl
	if m.name == "" || !d.register(st, "Workload", m.namespace, m.name, m.nameNode, "") {
		return
	}
	st.addWorkload(w)
}

// priorityClassRef decodes a v1beta2 PriorityClassRef and applies its CEL
// rules (each group allows one kind). It returns the class name.
func (d *decoder) priorityClassRef(n *yaml.Node, path string) string {
	var group, kind, name string
	var kindNode *yaml.Node
	ps := d.pairs(n, path)
	for _, p := range ps {
		fp := d.join(path, p.name)
		switch p.name {
		case "group":
			group, _ = d.strEnum(p.val, fp, "kueue.x-k8s.io", "scheduling.k8s.io")
		case "kind":
			kind, _ = d.strEnum(p.val, fp, "WorkloadPriorityClass", "PriorityClass")
			kindNode = p.val
		case "name":
			if s, ok := d.str(p.val, fp); ok {
				if msg := checkDNSSubdomain(s, MaxNameLength); msg != "" {
					d.errorf(p.val, fp, "invalid priority class name: %s", msg)
				}
				name = s
			}
		default:
			d.unknown(p, path)
		}
	}
	for _, f := range []string{"group", "kind", "name"} {
		if !hasKey(ps, f) {
			d.required(n, path, f)
		}
	}
	switch {
	case group == "scheduling.k8s.io" && kind != "" && kind != "PriorityClass":
		d.errorf(kindNode, d.join(path, "kind"), "only the PriorityClass kind is allowed for the scheduling.k8s.io group")
	case group == "kueue.x-k8s.io" && kind != "" && kind != "WorkloadPriorityClass":
		d.errorf(kindNode, d.join(path, "kind"), "only the WorkloadPriorityClass kind is allowed for the kueue.x-k8s.io group")
	}
	return name
}

// podSets decodes spec.podSets: 1 to 8 entries (CRD MinItems/MaxItems),
// unique names (listMapKey name), name default "main", count default 1.
func (d *decoder) podSets(n *yaml.Node, path string) []core.PodSet {
	list := d.items(n, path)
	if len(list) == 0 {
		d.errorf(n, path, "must have at least 1 pod set")
		return nil
	}
	if len(list) > maxPodSets {
		d.errorf(n, path, "must have at most %d pod sets, got %d", maxPodSets, len(list))
	}
	var out []core.PodSet
	seen := map[string]bool{}
	withMinCount := 0
	for i, item := range list {
		ip := d.index(path, i)
		name := defaultPodSetName
		var nameNode, templateNode, minNode *yaml.Node
		count := int32(1)
		var minCount int32
		for _, p := range d.pairs(item, ip) {
			fp := d.join(ip, p.name)
			switch p.name {
			case "name":
				if s, ok := d.str(p.val, fp); ok {
					name, nameNode = s, p.val
				}
			case "template":
				templateNode = p.val
			case "count":
				if v, ok := d.int32v(p.val, fp, 0); ok {
					count = v
				}
			case "minCount":
				if v, ok := d.int32v(p.val, fp, 1); ok {
					minCount, minNode = v, p.val
				}
			case "topologyRequest":
				if !isNull(p.val) {
					d.warnf(p.key, fp, "%s", tasNotSimulated("the topologyRequest is ignored, and the pod set is admitted on quota alone"))
				}
			default:
				d.unknown(p, ip)
			}
		}
		if isNull(item) {
			continue
		}
		if msg := checkDNSLabel(name); msg != "" {
			d.errorf(orNode(nameNode, item), d.join(ip, "name"), "invalid pod set name: %s", msg)
		}
		if seen[name] {
			d.errorf(orNode(nameNode, item), d.join(ip, "name"), "duplicate pod set name %q", name)
		}
		seen[name] = true
		if minNode != nil {
			withMinCount++
			if minCount > count {
				d.errorf(minNode, d.join(ip, "minCount"), "minCount should be positive and less or equal to count")
			}
			d.warnf(minNode, d.join(ip, "minCount"), "partial admission (minCount) is not simulated: the pod set is admitted only with its full count")
		}
		if isNull(templateNode) {
			d.required(item, ip, "template")
			continue
		}
		pt := d.podTemplate(templateNode, d.join(ip, "template"))
		out = append(out, pt.podSet(name, count, ""))
	}
	if withMinCount > 1 {
		d.errorf(n, path, "at most one podSet can use minCount, got %d", withMinCount)
	}
	return out
}

// podSet builds a workload's core.PodSet from a decoded template.
func (pt podTemplate) podSet(name string, count int32, jobName string) core.PodSet {
	ps := pt.pods(count, podSetLabelsFor(pt.labels, jobName))
	ps.Name = name
	return ps
}

// pods builds the derived form of count pods of the template, with the
// given pod labels, and no name. Deployments and ReplicaSets use it as is.
func (pt podTemplate) pods(count int32, labels map[string]string) core.PodSet {
	reqs := map[core.ResourceName]core.Amount{}
	for k, v := range pt.requests {
		reqs[k] = v
	}
	return core.PodSet{
		Count:             count,
		Requests:          reqs,
		NodeSelector:      pt.nodeSelector,
		RequiredAffinity:  pt.required,
		Tolerations:       pt.tolerations,
		Labels:            labels,
		PreferredAffinity: pt.preferred,
		NonZeroRequests:   pt.nonZero,
	}
}

// wlConditions is what the playground reads of status.conditions.
type wlConditions struct {
	finished     bool
	finishedNode *yaml.Node
}

// workloadStatus decodes status.admission and status.conditions; the other
// status fields are accepted and skipped.
func (d *decoder) workloadStatus(n *yaml.Node, path string, w *wlInfo, wl *core.Workload) wlConditions {
	var c wlConditions
	var admissionNode *yaml.Node
	for _, p := range d.pairs(n, path) {
		fp := d.join(path, p.name)
		switch p.name {
		case "admission":
			admissionNode = p.val
		case "conditions":
			c = d.conditions(p.val, fp, w)
		case "requeueState":
			for _, q := range d.pairs(p.val, fp) {
				qp := d.join(fp, q.name)
				switch q.name {
				case "count":
					d.int32v(q.val, qp, 0)
				case "requeueAt":
					if !isNull(q.val) {
						w.requeueAt, w.requeueAtNode = d.timestamp(q.val, qp), q.val
					}
				default:
					d.unknown(q, fp)
				}
			}
		default:
			// Other observed state: not interpreted.
		}
	}
	if !isNull(admissionNode) {
		wl.Admission = d.admission(admissionNode, d.join(path, "admission"), wl.PodSets, w)
	}
	return c
}

// conditions decodes metav1.Conditions: type and status (True, False,
// Unknown) are required; the QuotaReserved condition's lastTransitionTime
// gives the admission time.
func (d *decoder) conditions(n *yaml.Node, path string, w *wlInfo) wlConditions {
	var c wlConditions
	seen := map[string]bool{}
	for i, item := range d.items(n, path) {
		ip := d.index(path, i)
		var typ, status, reason, message string
		var typeNode, statusNode, ltt *yaml.Node
		for _, p := range d.pairs(item, ip) {
			fp := d.join(ip, p.name)
			switch p.name {
			case "type":
				if s, ok := d.str(p.val, fp); ok {
					typ, typeNode = s, p.val
				}
			case "status":
				status, _ = d.strEnum(p.val, fp, "True", "False", "Unknown")
				statusNode = p.val
			case "lastTransitionTime":
				if !isNull(p.val) {
					ltt = p.val
				}
			case "reason":
				reason, _ = d.str(p.val, fp)
			case "message":
				message, _ = d.str(p.val, fp)
			case "observedGeneration":
			default:
				d.unknown(p, ip)
			}
		}
		if isNull(item) {
			continue
		}
		if typeNode == nil {
			d.required(item, ip, "type")
			continue
		}
		if isNull(statusNode) {
			d.required(item, ip, "status")
		}
		if seen[typ] {
			d.errorf(typeNode, d.join(ip, "type"), "duplicate condition type %q", typ)
			continue
		}
		seen[typ] = true
		var at *time.Time
		if ltt != nil {
			at = d.timestamp(ltt, d.join(ip, "lastTransitionTime"))
		}
		if at != nil && (w.latest == nil || at.After(*w.latest)) {
			w.latest = at
		}
		switch {
		case typ == "QuotaReserved" && status == "True":
			w.admittedAt = at
		case typ == "Finished" && status == "True":
			c.finished, c.finishedNode = true, typeNode
		case typ == "Evicted" && status == "True":
			w.evicted, w.evictedAt = &core.Eviction{Reason: reason, Message: message}, at
		}
	}
	return c
}

// timestamp decodes a metav1.Time (RFC 3339); nil when invalid (reported).
func (d *decoder) timestamp(n *yaml.Node, path string) *time.Time {
	s, ok := d.str(n, path)
	if !ok {
		return nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		d.errorf(n, path, "invalid timestamp %q: use RFC 3339, such as 2025-01-02T15:04:05Z", clip(s))
		return nil
	}
	return &t
}

// admission decodes status.admission and validates it like
// validateAdmission and the Workload CEL rule "podSetAssignments must have
// the same number of podSets as the spec".
func (d *decoder) admission(n *yaml.Node, path string, podSets []core.PodSet, w *wlInfo) *core.Admission {
	adm := &core.Admission{}
	var listNode *yaml.Node
	haveCQ := false
	for _, p := range d.pairs(n, path) {
		fp := d.join(path, p.name)
		switch p.name {
		case "clusterQueue":
			if s, ok := d.str(p.val, fp); ok && s != "" {
				haveCQ = true
				if msg := checkDNSSubdomain(s, MaxNameLength); msg != "" {
					d.errorf(p.val, fp, "invalid ClusterQueue name: %s", msg)
				}
				adm.ClusterQueue = s
				w.admissionCQ = ref{name: s, node: p.val, path: fp}
			}
		case "podSetAssignments":
			listNode = p.val
		default:
			d.unknown(p, path)
		}
	}
	if !haveCQ {
		d.required(n, path, "clusterQueue")
	}
	counts := map[string]int32{}
	for _, ps := range podSets {
		counts[ps.Name] = ps.Count
	}
	lp := d.join(path, "podSetAssignments")
	list := d.items(listNode, lp)
	if len(list) > maxPodSets {
		d.errorf(listNode, lp, "must have at most %d items, got %d", maxPodSets, len(list))
	}
	if len(podSets) > 0 && len(list) != len(podSets) {
		d.errorf(orNode(listNode, n), lp, "podSetAssignments must have the same number of podSets as the spec: spec has %d, status.admission has %d", len(podSets), len(list))
	}
	seen := map[string]bool{}
	for i, item := range list {
		ip := d.index(lp, i)
		psa := core.PodSetAdmission{Name: defaultPodSetName}
		var nameNode *yaml.Node
		var usageNodes map[core.ResourceName]*yaml.Node
		haveCount := false
		for _, p := range d.pairs(item, ip) {
			fp := d.join(ip, p.name)
			switch p.name {
			case "name":
				if s, ok := d.str(p.val, fp); ok {
					psa.Name, nameNode = s, p.val
				}
			case "flavors":
				m, _, vals := d.stringMap(p.val, fp)
				if m != nil {
					psa.Flavors = map[core.ResourceName]core.FlavorName{}
				}
				for r, f := range m {
					if msg := checkDNSSubdomain(f, MaxNameLength); msg != "" {
						d.errorf(vals[r], d.key(fp, r), "invalid flavor name: %s", msg)
					}
					psa.Flavors[core.ResourceName(r)] = core.FlavorName(f)
				}
			case "resourceUsage":
				var usage rlist
				usage, usageNodes = d.resourceListNodes(p.val, fp)
				psa.ResourceUsage = map[core.ResourceName]core.Amount(usage)
			case "count":
				if v, ok := d.int32v(p.val, fp, 0); ok {
					psa.Count, haveCount = v, true
				}
			case "topologyAssignment", "delayedTopologyRequest":
				// Topology-aware scheduling is not simulated.
			default:
				d.unknown(p, ip)
			}
		}
		if isNull(item) {
			continue
		}
		specCount, known := counts[psa.Name]
		if !known && len(podSets) > 0 {
			d.errorf(orNode(nameNode, item), d.join(ip, "name"), "pod set %q not found in spec.podSets", psa.Name)
		}
		if seen[psa.Name] {
			d.errorf(orNode(nameNode, item), d.join(ip, "name"), "duplicate pod set assignment %q", psa.Name)
		}
		seen[psa.Name] = true
		if !haveCount {
			// PodSetAssignment.count absent: the pod set's count applies.
			psa.Count = specCount
		}
		if psa.Count > 0 {
			for r, v := range psa.ResourceUsage {
				if v%int64(psa.Count) != 0 {
					d.errorf(usageNodes[r], key(d.join(ip, "resourceUsage"), string(r)), "is not a multiple of %d (the pod set's count): resourceUsage is the total of all its pods", psa.Count)
				}
			}
		}
		adm.PodSets = append(adm.PodSets, psa)
	}
	return adm
}

// job decodes a batch/v1 Job with the kueue.x-k8s.io/queue-name label into
// the Workload Kueue's job integration would create for it
// (pkg/controller/jobs/job/job_controller.go: Job.PodSets): one pod set
// "main" whose count is podsCount() = min(parallelism, completions) after
// the Kubernetes Job defaults (both 1 when both are unset, parallelism 1
// when only completions is set). The Workload is named job-<name> (Kueue
// adds a hash suffix; the playground keeps names readable). Its priority
// is resolved in link (jobframework.ExtractPriority).
func (d *decoder) job(st *state, o *rawObject) {
	m, specNode, w := d.beginJob(o, jobGVK{"batch", "Job"}, nameJob)
	if isNull(specNode) {
		d.required(o.node, "", "spec")
	}
	if pt, count, ok := d.jobSpec(specNode, "spec", false); ok {
		w.wl.PodSets = []core.PodSet{pt.podSet(defaultPodSetName, count, m.name)}
		w.pc = pt.priorityClassName
	}
	d.addJob(st, o, m, w)
}

// jobSpec decodes a batch/v1 JobSpec (of a Job, or of a JobSet's
// replicatedJobs[].template.spec). It returns the pod template and the pod
// count Kueue uses, min(parallelism, completions) after the Kubernetes Job
// defaults; ok is false when the template is missing. restartDefaulted
// says an unset restartPolicy is defaulted to OnFailure by the owner's
// webhook (JobSet's), so only an explicit Always draws a warning.
func (d *decoder) jobSpec(specNode *yaml.Node, path string, restartDefaulted bool) (pt podTemplate, count int32, ok bool) {
	var parallelism, completions *int32
	var templateNode *yaml.Node
	for _, p := range d.pairs(specNode, path) {
		fp := d.join(path, p.name)
		switch p.name {
		case "parallelism":
			if v, ok := d.int32v(p.val, fp, 0); ok {
				parallelism = &v
			}
		case "completions":
			if v, ok := d.int32v(p.val, fp, 0); ok {
				completions = &v
			}
		case "template":
			templateNode = p.val
		case "activeDeadlineSeconds", "backoffLimit", "backoffLimitPerIndex", "completionMode",
			"managedBy", "manualSelector", "maxFailedIndexes", "podFailurePolicy",
			"podReplacementPolicy", "selector", "successPolicy", "suspend",
			"ttlSecondsAfterFinished":
			// Real JobSpec fields the playground does not interpret.
		default:
			d.unknown(p, path)
		}
	}
	if !isNull(specNode) && isNull(templateNode) {
		d.required(specNode, path, "template")
	}
	// Kubernetes' SetDefaults_Job.
	if parallelism == nil {
		one := int32(1)
		parallelism = &one
		if completions == nil {
			completions = &one
		}
	}
	count = *parallelism
	if completions != nil && *completions < count {
		count = *completions
	}
	if isNull(templateNode) {
		return pt, count, false
	}
	tp := d.join(path, "template")
	pt = d.podTemplate(templateNode, tp)
	if rp := pt.restartPolicy; rp.name == "Always" || rp.node == nil && !restartDefaulted {
		d.warnf(orNode(rp.node, templateNode), d.join(tp, "spec.restartPolicy"), "Kubernetes rejects a Job whose pod template has restartPolicy Always (the default); set OnFailure or Never")
	}
	return pt, count, true
}
