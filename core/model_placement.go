package core

import "time"

// This file holds the decoded inputs of the placement layer (kube-scheduler
// with the proposed ResourcePolicy plugin, KEP #594): Nodes, Deployments and
// ReplicaSets, ResourcePolicies and the score weights of a Scenario. The
// quota layer (Kueue) never reads them. See
// /work/shared/reference/resourcepolicy.md for the semantics.

// Node is a v1 Node: the labels, taints and allocatable capacity the
// placement filters and scores look at.
type Node struct {
	Name   string
	Labels map[string]string
	// Taints is spec.taints (effect NoSchedule, PreferNoSchedule or
	// NoExecute).
	Taints []Taint
	// Unschedulable is spec.unschedulable (a cordoned node).
	Unschedulable bool
	// Allocatable is status.allocatable, or status.capacity when allocatable
	// is absent, in Amount units (cpu in milli-units; memory, pods and
	// extended resources such as nvidia.com/gpu in whole units).
	Allocatable map[ResourceName]Amount
	Pos         Pos
}

// Bounds on the Deployments and ReplicaSets of a Scenario. They are the
// playground's, not Kubernetes' (which allows any int32 replica count); the
// decoder names the bound it reports.
const (
	// MaxReplicas is the largest spec.replicas of one Deployment or
	// ReplicaSet, and the largest replicas of a scale event.
	MaxReplicas = 10_000
	// MaxDeploymentPods bounds the pods all Deployments and ReplicaSets of
	// a scenario may ask for together: the sum, over them, of the largest
	// of spec.replicas and the replicas of every scale event naming it.
	MaxDeploymentPods = 100_000
)

// Deployment is an apps/v1 Deployment or ReplicaSet of the scenario. When
// Kueue does not manage it (Queue is ""), its pods go straight to the
// placement layer. When it does (Queue is set), each pod is a single-pod
// Workload of Kueue's pod integration, queued like any other, and placed
// once admitted.
type Deployment struct {
	Kind      string // "Deployment" or "ReplicaSet"
	Namespace string
	Name      string
	// Replicas is spec.replicas; default 1 (as the API server defaults
	// it). At most MaxReplicas.
	Replicas int32
	// Pod is the pod template in the same derived form as a workload's pod
	// set: Labels, Requests and NonZeroRequests per pod, NodeSelector,
	// RequiredAffinity, PreferredAffinity and Tolerations. Name is "" and
	// Count equals Replicas.
	//
	// Labels are the template's labels; a Deployment's pods also get
	// pod-template-hash, as the Deployment controller adds it to the
	// ReplicaSet it creates. Kubernetes derives that value from a hash of
	// the pod template; the playground uses a deterministic stand-in, the
	// first 10 lowercase hex digits of the 64-bit FNV-1a hash of
	// "namespace/name", so that a ResourcePolicy's matchLabelKeys can
	// group by it. A ReplicaSet's pods get no extra label.
	Pod PodSet
	// Arrival is the kueueplay/arrival annotation (default 0): when the
	// object is created and its pods appear.
	Arrival time.Duration
	// Queue is the LocalQueue (in Namespace) Kueue queues the pods in: the
	// queue-name label of a Deployment, else of the pod template, else
	// "default" when the namespace has that LocalQueue
	// (LocalQueueDefaulting); "" when Kueue does not manage the pods.
	Queue string
	// Workloads are the indexes in Scenario.Workloads of the pods'
	// Workloads, in pod index order: one for every pod the owner ever
	// creates (spec.replicas at creation, then each scale-up). Their
	// Arrival is when the pod is created; ReplicaOf names the owner.
	Workloads []int
	Pos       Pos
}

// Key returns the "namespace/name" key events and expectations use.
func (d *Deployment) Key() string { return d.Namespace + "/" + d.Name }

// PreferredSchedulingTerm is one entry of a pod's
// nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution: a weight in
// [1, 100] and a node selector term. The NodeAffinity score sums the weights
// of the terms a node matches.
type PreferredSchedulingTerm struct {
	Weight     int32
	Preference NodeSelectorTerm
}

// ResourcePolicyStrategy is spec.strategy of a ResourcePolicy.
type ResourcePolicyStrategy string

const (
	// ResourcePolicyRequired rejects nodes that are in no unit.
	ResourcePolicyRequired ResourcePolicyStrategy = "required"
	// ResourcePolicyPrefer lets pods use nodes outside every unit (score 0).
	ResourcePolicyPrefer ResourcePolicyStrategy = "prefer"
)

// ResourcePolicyUnit is one entry of spec.units: a set of nodes (selected
// by NodeSelector) with a priority and an optional pod count limit.
type ResourcePolicyUnit struct {
	// Name is a playground-only label for the UI; empty when unset.
	Name string
	// Priority is the unit's priority (default 0, never negative). The KEP
	// scores a node of this unit priority*20 before normalisation.
	Priority int32
	// MaxCount limits the pods counted in this unit: nil means unlimited,
	// 0 means the unit is never usable.
	MaxCount *int32
	// NodeSelector selects the unit's nodes. An empty selector selects every
	// node.
	NodeSelector LabelSelector
	Pos          Pos
}

// ResourcePolicy is a scheduling.x-k8s.io/v1alpha1 ResourcePolicy in the
// shape of KEP #594 (scheduler-plugins PR #594). It governs the pods of its
// namespace that PodSelector matches.
type ResourcePolicy struct {
	Namespace string
	Name      string
	// PodSelector selects the governed pods; an empty selector (the value
	// when spec.podSelector is absent) selects every pod of the namespace.
	PodSelector LabelSelector
	// MatchLabelKeys split the governed pods into groups counted
	// separately, by the values of these pod label keys.
	MatchLabelKeys []string
	// IgnoreTerminatingPod is spec.matchPolicy.ignoreTerminatingPod: pods
	// being deleted are not counted.
	IgnoreTerminatingPod bool
	// Strategy is required in scenario files (the KEP gives no default).
	Strategy ResourcePolicyStrategy
	Units    []ResourcePolicyUnit
	Pos      Pos
}

// ScorePlugin names a kube-scheduler score plugin whose weight a Scenario
// may set in spec.placement.weights.
type ScorePlugin string

const (
	PluginNodeResourcesFit                ScorePlugin = "NodeResourcesFit"
	PluginNodeResourcesBalancedAllocation ScorePlugin = "NodeResourcesBalancedAllocation"
	PluginTaintToleration                 ScorePlugin = "TaintToleration"
	PluginNodeAffinity                    ScorePlugin = "NodeAffinity"
	PluginResourcePolicy                  ScorePlugin = "ResourcePolicy"
)

// MaxPluginWeight is the largest weight a Scenario may give a score plugin.
const MaxPluginWeight = 100

// DefaultPluginWeight returns the weight kube-scheduler's default profile
// gives plugin (pkg/scheduler/apis/config/v1/default_plugins.go:
// getDefaultPlugins; ResourcePolicy is added through multiPoint without a
// weight, so 1), and whether plugin is a known score plugin. It is a
// function rather than a table so that core holds no globals.
func DefaultPluginWeight(plugin ScorePlugin) (int, bool) {
	switch plugin {
	case PluginTaintToleration:
		return 3, true
	case PluginNodeAffinity:
		return 2, true
	case PluginNodeResourcesFit, PluginNodeResourcesBalancedAllocation, PluginResourcePolicy:
		return 1, true
	}
	return 0, false
}

// ScorePlugins returns every known score plugin, sorted by name.
func ScorePlugins() []ScorePlugin {
	return []ScorePlugin{
		PluginNodeAffinity,
		PluginNodeResourcesBalancedAllocation,
		PluginNodeResourcesFit,
		PluginResourcePolicy,
		PluginTaintToleration,
	}
}

// PlacementSpec is a Scenario's spec.placement. Weights holds only the
// weights the file sets; use Weight for the effective value. A weight of 0
// turns the plugin's score off (kube-scheduler itself would treat 0 as 1;
// the playground uses 0 to isolate the other scores).
type PlacementSpec struct {
	Weights map[ScorePlugin]int
}

// Weight returns the effective weight of plugin: the file's value, else
// kube-scheduler's default. A nil *PlacementSpec gives the defaults. It
// panics on an unknown plugin, which is a programming error.
func (p *PlacementSpec) Weight(plugin ScorePlugin) int {
	if p != nil {
		if w, ok := p.Weights[plugin]; ok {
			return w
		}
	}
	w, ok := DefaultPluginWeight(plugin)
	if !ok {
		panic("unknown score plugin " + string(plugin))
	}
	return w
}
