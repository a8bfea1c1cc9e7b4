package conformance

import (
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"

	"github.com/kueueplay/kueueplay/core"
)

// This file builds, from a decoded scenario, the objects Kueue's own
// controllers would find in a cluster. The scenario was already decoded
// and defaulted by the playground's decoder (core/scenario); what Kueue's
// CRDs would default is written out explicitly here, because decoded Go
// objects never pass through the API server's defaulting.

// Virtual time and the harness's clock.
//
// Kubernetes keeps timestamps with one-second resolution (metav1.Time
// serializes as RFC 3339 seconds, and the fake client round-trips every
// object through JSON), while scenarios count virtual time in
// milliseconds. The harness therefore maps one virtual millisecond to one
// real second: virtual time v is the instant epoch + v.Milliseconds()
// seconds. Everything Kueue compares (creation, eviction, preemption and
// quota-reservation times) keeps its order through the JSON round trip,
// and the one sub-second offset Kueue uses (GetQueueOrderTimestamp's
// +1ms for workloads preempted while borrowing) still lands strictly
// between two virtual milliseconds, as the engine's does.
var epoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// maxWorkloads bounds the scenarios the harness accepts: creation
// timestamps spread workloads that arrive in the same virtual millisecond
// over the seconds before it, one second apart (see creationTime), and
// pasted admissions over the half millisecond before time 0 (see
// reservationTime).
const maxWorkloads = 499

// realTime maps a virtual time to the harness's clock.
func realTime(v time.Duration) time.Time {
	return epoch.Add(time.Duration(v.Milliseconds()) * time.Second)
}

// wholeMillis reports whether v can be mapped without losing precision.
func wholeMillis(v time.Duration) bool { return v%time.Millisecond == 0 }

// creationTime is a workload's creationTimestamp. The engine orders
// workloads created at the same virtual time by document order (their
// creation sequence); Kueue by creationTimestamp alone. Workload seq of n
// is created (n - seq) seconds before its arrival instant: strictly in
// sequence order, and strictly after everything created a virtual
// millisecond earlier.
func creationTime(arrival time.Duration, seq, n int) time.Time {
	return realTime(arrival).Add(-time.Duration(n-seq) * time.Second)
}

func quantity(r core.ResourceName, a core.Amount) resource.Quantity {
	if r == core.ResourceCPU {
		return *resource.NewMilliQuantity(a, resource.DecimalSI)
	}
	return *resource.NewQuantity(a, resource.DecimalSI)
}

func quantityPtr(r core.ResourceName, a *core.Amount) *resource.Quantity {
	if a == nil {
		return nil
	}
	q := quantity(r, *a)
	return &q
}

func resourceGroups(groups []core.ResourceGroup) []kueue.ResourceGroup {
	var out []kueue.ResourceGroup
	for _, g := range groups {
		kg := kueue.ResourceGroup{}
		for _, r := range g.CoveredResources {
			kg.CoveredResources = append(kg.CoveredResources, corev1.ResourceName(r))
		}
		for _, f := range g.Flavors {
			fq := kueue.FlavorQuotas{Name: kueue.ResourceFlavorReference(f.Name)}
			for _, rq := range f.Resources {
				fq.Resources = append(fq.Resources, kueue.ResourceQuota{
					Name:           corev1.ResourceName(rq.Name),
					NominalQuota:   quantity(rq.Name, rq.Nominal),
					BorrowingLimit: quantityPtr(rq.Name, rq.BorrowingLimit),
					LendingLimit:   quantityPtr(rq.Name, rq.LendingLimit),
				})
			}
			kg.Flavors = append(kg.Flavors, fq)
		}
		out = append(out, kg)
	}
	return out
}

func labelSelector(s *core.LabelSelector) *metav1.LabelSelector {
	if s == nil {
		return nil
	}
	out := &metav1.LabelSelector{MatchLabels: s.MatchLabels}
	for _, e := range s.MatchExpressions {
		out.MatchExpressions = append(out.MatchExpressions, metav1.LabelSelectorRequirement{
			Key: e.Key, Operator: metav1.LabelSelectorOperator(e.Operator), Values: e.Values,
		})
	}
	return out
}

func stopPolicy(p string) *kueue.StopPolicy {
	if p == "" {
		return nil
	}
	sp := kueue.StopPolicy(p)
	return &sp
}

func taints(ts []core.Taint) []corev1.Taint {
	var out []corev1.Taint
	for _, t := range ts {
		out = append(out, corev1.Taint{Key: t.Key, Value: t.Value, Effect: corev1.TaintEffect(t.Effect)})
	}
	return out
}

func tolerations(ts []core.Toleration) []corev1.Toleration {
	var out []corev1.Toleration
	for _, t := range ts {
		out = append(out, corev1.Toleration{
			Key: t.Key, Operator: corev1.TolerationOperator(t.Operator), Value: t.Value, Effect: corev1.TaintEffect(t.Effect),
		})
	}
	return out
}

func flavorObject(f *core.ResourceFlavor) *kueue.ResourceFlavor {
	rf := &kueue.ResourceFlavor{
		ObjectMeta: metav1.ObjectMeta{Name: string(f.Name)},
		Spec: kueue.ResourceFlavorSpec{
			NodeLabels:  f.NodeLabels,
			NodeTaints:  taints(f.NodeTaints),
			Tolerations: tolerations(f.Tolerations),
		},
	}
	if f.TopologyName != "" {
		name := kueue.TopologyReference(f.TopologyName)
		rf.Spec.TopologyName = &name
	}
	return rf
}

// topologyObject is a Topology with one level per the playground's needs:
// only its existence matters to what is compared (a ClusterQueue using a
// flavor whose Topology is missing is inactive), so the harness gives it
// the hostname level alone.
func topologyObject(t *core.Topology) *kueue.Topology {
	return &kueue.Topology{
		ObjectMeta: metav1.ObjectMeta{Name: t.Name},
		Spec:       kueue.TopologySpec{Levels: []kueue.TopologyLevel{{NodeLabel: corev1.LabelHostname}}},
	}
}

// clusterQueueObject writes out every field the CRD would default; the
// decoder has already applied those defaults to the core value.
func clusterQueueObject(cq *core.ClusterQueue) *kueue.ClusterQueue {
	ff := &kueue.FlavorFungibility{
		WhenCanBorrow:  kueue.FlavorFungibilityPolicy(cq.FlavorFungibility.WhenCanBorrow),
		WhenCanPreempt: kueue.FlavorFungibilityPolicy(cq.FlavorFungibility.WhenCanPreempt),
	}
	if p := cq.FlavorFungibility.Preference; p != "" {
		pref := kueue.FlavorFungibilityPreference(p)
		ff.Preference = &pref
	}
	pre := &kueue.ClusterQueuePreemption{
		WithinClusterQueue:  kueue.PreemptionPolicy(cq.Preemption.WithinClusterQueue),
		ReclaimWithinCohort: kueue.PreemptionPolicy(cq.Preemption.ReclaimWithinCohort),
		BorrowWithinCohort: &kueue.BorrowWithinCohort{
			Policy:               kueue.BorrowWithinCohortPolicy(cq.Preemption.BorrowWithinCohort),
			MaxPriorityThreshold: cq.Preemption.MaxPriorityThreshold,
		},
	}
	return &kueue.ClusterQueue{
		ObjectMeta: metav1.ObjectMeta{Name: cq.Name},
		Spec: kueue.ClusterQueueSpec{
			ResourceGroups:    resourceGroups(cq.ResourceGroups),
			CohortName:        kueue.CohortReference(cq.Cohort),
			QueueingStrategy:  kueue.QueueingStrategy(cq.QueueingStrategy),
			NamespaceSelector: labelSelector(cq.NamespaceSelector),
			FlavorFungibility: ff,
			Preemption:        pre,
			StopPolicy:        stopPolicy(cq.StopPolicy),
		},
	}
}

func cohortObject(c *core.Cohort) *kueue.Cohort {
	return &kueue.Cohort{
		ObjectMeta: metav1.ObjectMeta{Name: c.Name},
		Spec: kueue.CohortSpec{
			ParentName:     kueue.CohortReference(c.Parent),
			ResourceGroups: resourceGroups(c.ResourceGroups),
		},
	}
}

func localQueueObject(lq *core.LocalQueue) *kueue.LocalQueue {
	return &kueue.LocalQueue{
		ObjectMeta: metav1.ObjectMeta{Namespace: lq.Namespace, Name: lq.Name},
		Spec: kueue.LocalQueueSpec{
			ClusterQueue: kueue.ClusterQueueReference(lq.ClusterQueue),
			StopPolicy:   stopPolicy(lq.StopPolicy),
		},
	}
}

func namespaceObject(name string, labels map[string]string) *corev1.Namespace {
	return &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}}
}

// podTemplate is one pod of a pod set: a single container carrying the
// per-pod requests the decoder computed (init containers and overhead
// already folded in, as Kueue's limitrange.TotalRequests would), and the
// scheduling constraints the flavor assigner reads.
func podTemplate(ps *core.PodSet) corev1.PodTemplateSpec {
	req := corev1.ResourceList{}
	for r, a := range ps.Requests {
		req[corev1.ResourceName(r)] = quantity(r, a)
	}
	spec := corev1.PodSpec{
		RestartPolicy: corev1.RestartPolicyNever,
		Containers:    []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{Requests: req}}},
		NodeSelector:  ps.NodeSelector,
		Tolerations:   tolerations(ps.Tolerations),
	}
	if ps.RequiredAffinity != nil {
		var terms []corev1.NodeSelectorTerm
		for _, t := range ps.RequiredAffinity {
			var kt corev1.NodeSelectorTerm
			for _, e := range t.MatchExpressions {
				kt.MatchExpressions = append(kt.MatchExpressions, corev1.NodeSelectorRequirement{
					Key: e.Key, Operator: corev1.NodeSelectorOperator(e.Operator), Values: e.Values,
				})
			}
			terms = append(terms, kt)
		}
		spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: terms},
		}}
	}
	return corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: ps.Labels}, Spec: spec}
}

// workloadObject is the Workload as it is created. Its UID is its key, so
// that Kueue's last preemption-candidate tie-break (by UID) is the
// engine's (by namespace/name).
func workloadObject(w *core.Workload, seq, n int) *kueue.Workload {
	prio := w.Priority
	active := w.Active
	wl := &kueue.Workload{
		ObjectMeta: metav1.ObjectMeta{
			Namespace:         w.Namespace,
			Name:              w.Name,
			UID:               types.UID(w.Key()),
			CreationTimestamp: metav1.NewTime(creationTime(w.Arrival, seq, n)),
		},
		Spec: kueue.WorkloadSpec{
			QueueName: kueue.LocalQueueName(w.Queue),
			Priority:  &prio,
			Active:    &active,
		},
	}
	for i := range w.PodSets {
		ps := &w.PodSets[i]
		wl.Spec.PodSets = append(wl.Spec.PodSets, kueue.PodSet{
			Name:     kueue.PodSetReference(ps.Name),
			Count:    ps.Count,
			Template: podTemplate(ps),
		})
	}
	return wl
}

// admitWorkloadObject gives a workload that starts admitted (status.admission
// pasted from a live cluster) its admission and QuotaReserved/Admitted
// conditions at reservedAt.
func admitWorkloadObject(wl *kueue.Workload, w *core.Workload, reservedAt time.Time) error {
	adm := w.Admission
	ka := &kueue.Admission{ClusterQueue: kueue.ClusterQueueReference(adm.ClusterQueue)}
	for _, ps := range adm.PodSets {
		psa := kueue.PodSetAssignment{
			Name:          kueue.PodSetReference(ps.Name),
			Flavors:       map[corev1.ResourceName]kueue.ResourceFlavorReference{},
			ResourceUsage: corev1.ResourceList{},
			Count:         &ps.Count,
		}
		var spec *core.PodSet
		for i := range w.PodSets {
			if w.PodSets[i].Name == ps.Name {
				spec = &w.PodSets[i]
			}
		}
		if spec == nil {
			return fmt.Errorf("workload %s: status.admission names pod set %q, which the spec does not have", w.Key(), ps.Name)
		}
		resources := make([]core.ResourceName, 0, len(ps.Flavors))
		for r := range ps.Flavors {
			resources = append(resources, r)
		}
		slices.Sort(resources)
		for _, r := range resources {
			psa.Flavors[corev1.ResourceName(r)] = kueue.ResourceFlavorReference(ps.Flavors[r])
			q, ok := ps.ResourceUsage[r]
			if !ok {
				if r == core.ResourcePods {
					q = core.Amount(ps.Count)
				} else {
					q = spec.Requests[r] * core.Amount(ps.Count)
				}
			}
			psa.ResourceUsage[corev1.ResourceName(r)] = quantity(r, q)
		}
		ka.PodSetAssignments = append(ka.PodSetAssignments, psa)
	}
	wl.Status.Admission = ka
	t := metav1.NewTime(reservedAt)
	wl.Status.Conditions = []metav1.Condition{
		{Type: kueue.WorkloadQuotaReserved, Status: metav1.ConditionTrue, Reason: "QuotaReserved",
			Message: "Quota reserved in ClusterQueue " + adm.ClusterQueue, LastTransitionTime: t},
		{Type: kueue.WorkloadAdmitted, Status: metav1.ConditionTrue, Reason: "Admitted",
			Message: "The workload is admitted", LastTransitionTime: t},
	}
	// A workload pasted with Evicted=True that still holds its quota. An
	// inactive one pasted without the condition (the decoder's Deactivated
	// eviction) gets it from the workload controller's Reconcile instead,
	// as in a cluster.
	if ev := w.Eviction; ev != nil && !(!w.Active && ev.Reason == "Deactivated" && ev.Message == "The workload is deactivated") {
		wl.Status.Conditions = append(wl.Status.Conditions, metav1.Condition{
			Type: kueue.WorkloadEvicted, Status: metav1.ConditionTrue, Reason: ev.Reason,
			Message: ev.Message, LastTransitionTime: metav1.NewTime(realTime(ev.At)),
		})
	}
	return nil
}
