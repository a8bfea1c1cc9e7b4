// Package coretest holds builders for engine tests, in the style of
// Kueue's testing wrappers: MakeClusterQueue("a").Cohort("org").
// Quota("default", "cpu", "10").Obj(). It is imported only from tests.
package coretest

import (
	"time"

	"github.com/kueueplay/kueueplay/core"
)

// Amount parses a quantity for a resource and panics on a bad literal (a
// test bug).
func Amount(res core.ResourceName, q string) core.Amount {
	v, err := core.ResourceAmount(res, q)
	if err != nil {
		panic(err)
	}
	return v
}

// ClusterQueueWrapper builds a core.ClusterQueue.
type ClusterQueueWrapper struct{ cq core.ClusterQueue }

// MakeClusterQueue starts a ClusterQueue with Kueue's defaults and a
// namespaceSelector that admits every namespace.
func MakeClusterQueue(name string) *ClusterQueueWrapper {
	return &ClusterQueueWrapper{cq: core.ClusterQueue{
		Name:              name,
		NamespaceSelector: &core.LabelSelector{},
		QueueingStrategy:  core.BestEffortFIFO,
		Preemption:        core.Preemption{WithinClusterQueue: core.PreemptionNever, ReclaimWithinCohort: core.PreemptionNever, BorrowWithinCohort: core.PreemptionNever},
		FlavorFungibility: core.FlavorFungibility{WhenCanBorrow: core.MayStopSearch, WhenCanPreempt: core.TryNextFlavor},
		StopPolicy:        "None",
	}}
}

// Cohort sets spec.cohortName.
func (w *ClusterQueueWrapper) Cohort(c string) *ClusterQueueWrapper { w.cq.Cohort = c; return w }

// Group adds a resource group covering resources, with no flavors yet.
func (w *ClusterQueueWrapper) Group(resources ...core.ResourceName) *ClusterQueueWrapper {
	w.cq.ResourceGroups = append(w.cq.ResourceGroups, core.ResourceGroup{CoveredResources: resources})
	return w
}

// Flavor adds a flavor to the last group; quotas are given per covered
// resource in order as nominal quota strings.
func (w *ClusterQueueWrapper) Flavor(name core.FlavorName, nominal ...string) *ClusterQueueWrapper {
	g := &w.cq.ResourceGroups[len(w.cq.ResourceGroups)-1]
	fq := core.FlavorQuotas{Name: name}
	for i, r := range g.CoveredResources {
		fq.Resources = append(fq.Resources, core.ResourceQuota{Name: r, Nominal: Amount(r, nominal[i])})
	}
	g.Flavors = append(g.Flavors, fq)
	return w
}

// Limits sets the borrowing and lending limits ("" for unset) of one
// resource of the last flavor added.
func (w *ClusterQueueWrapper) Limits(res core.ResourceName, borrowing, lending string) *ClusterQueueWrapper {
	g := &w.cq.ResourceGroups[len(w.cq.ResourceGroups)-1]
	f := &g.Flavors[len(g.Flavors)-1]
	for i := range f.Resources {
		if f.Resources[i].Name == res {
			if borrowing != "" {
				v := Amount(res, borrowing)
				f.Resources[i].BorrowingLimit = &v
			}
			if lending != "" {
				v := Amount(res, lending)
				f.Resources[i].LendingLimit = &v
			}
		}
	}
	return w
}

// Fungibility sets whenCanBorrow, whenCanPreempt and preference.
func (w *ClusterQueueWrapper) Fungibility(borrow, preempt core.FlavorFungibilityPolicy, pref core.FlavorFungibilityPreference) *ClusterQueueWrapper {
	w.cq.FlavorFungibility = core.FlavorFungibility{WhenCanBorrow: borrow, WhenCanPreempt: preempt, Preference: pref}
	return w
}

// Strategy sets the queueing strategy.
func (w *ClusterQueueWrapper) Strategy(s core.QueueingStrategy) *ClusterQueueWrapper {
	w.cq.QueueingStrategy = s
	return w
}

// Obj returns the ClusterQueue.
func (w *ClusterQueueWrapper) Obj() core.ClusterQueue { return w.cq }

// Preemption sets spec.preemption; threshold is borrowWithinCohort's
// maxPriorityThreshold (nil for none).
func (w *ClusterQueueWrapper) Preemption(within, reclaim, borrow core.PreemptionPolicy, threshold *int32) *ClusterQueueWrapper {
	w.cq.Preemption = core.Preemption{WithinClusterQueue: within, ReclaimWithinCohort: reclaim, BorrowWithinCohort: borrow, MaxPriorityThreshold: threshold}
	return w
}

// WorkloadWrapper builds a core.Workload.
type WorkloadWrapper struct{ wl core.Workload }

// MakeWorkload starts an active workload in namespace ns using LocalQueue
// queue, with one pod set "main" of count pods.
func MakeWorkload(ns, name, queue string, count int32) *WorkloadWrapper {
	return &WorkloadWrapper{wl: core.Workload{
		Namespace: ns, Name: name, Queue: queue, Active: true,
		PodSets: []core.PodSet{{Name: "main", Count: count, Requests: map[core.ResourceName]core.Amount{}}},
	}}
}

// Request sets a per-pod request of the last pod set.
func (w *WorkloadWrapper) Request(res core.ResourceName, q string) *WorkloadWrapper {
	w.wl.PodSets[len(w.wl.PodSets)-1].Requests[res] = Amount(res, q)
	return w
}

// PodSet adds a pod set.
func (w *WorkloadWrapper) PodSet(name string, count int32) *WorkloadWrapper {
	w.wl.PodSets = append(w.wl.PodSets, core.PodSet{Name: name, Count: count, Requests: map[core.ResourceName]core.Amount{}})
	return w
}

// Priority sets the priority.
func (w *WorkloadWrapper) Priority(p int32) *WorkloadWrapper { w.wl.Priority = p; return w }

// Arrival sets kueueplay/arrival.
func (w *WorkloadWrapper) Arrival(d time.Duration) *WorkloadWrapper { w.wl.Arrival = d; return w }

// Runtime sets kueueplay/runtime.
func (w *WorkloadWrapper) Runtime(d time.Duration) *WorkloadWrapper { w.wl.Runtime = &d; return w }

// Obj returns the Workload.
// TerminationDelay sets kueueplay/termination-delay.
func (w *WorkloadWrapper) TerminationDelay(d time.Duration) *WorkloadWrapper {
	w.wl.TerminationDelay = &d
	return w
}

func (w *WorkloadWrapper) Obj() core.Workload { return w.wl }

// Flavor returns a ResourceFlavor with the given node labels (k, v pairs).
func Flavor(name core.FlavorName, labels ...string) core.ResourceFlavor {
	f := core.ResourceFlavor{Name: name, NodeLabels: map[string]string{}}
	for i := 0; i+1 < len(labels); i += 2 {
		f.NodeLabels[labels[i]] = labels[i+1]
	}
	return f
}
