package core

import (
	"time"
)

// This file holds the decoded, validated world a scenario describes. The
// scenario decoder (core/scenario) produces these values from YAML; the
// engine (core/sim) only reads them. Every quantity is already converted to
// the integer unit Kueue uses internally (see Amount).

// Amount is a resource quantity in Kueue's internal integer unit: milli-units
// for cpu, whole units (bytes, counts) for everything else. This mirrors
// sigs.k8s.io/kueue/pkg/resources.ResourceValue.
type Amount = int64

// ResourceName names a resource such as cpu, memory, pods or nvidia.com/gpu.
type ResourceName string

// ResourceCPU and ResourcePods are the two resources with special handling:
// cpu is counted in milli-units, pods is added to each pod set's request by
// the flavor assigner when a ClusterQueue covers it.
const (
	ResourceCPU    ResourceName = "cpu"
	ResourceMemory ResourceName = "memory"
	ResourcePods   ResourceName = "pods"
)

// FlavorName names a ResourceFlavor.
type FlavorName string

// FlavorResource is one (flavor, resource) pair: the unit of quota accounting.
type FlavorResource struct {
	Flavor   FlavorName
	Resource ResourceName
}

// Compare orders flavor-resource pairs by flavor, then resource.
func (fr FlavorResource) Compare(o FlavorResource) int {
	if fr.Flavor != o.Flavor {
		if fr.Flavor < o.Flavor {
			return -1
		}
		return 1
	}
	if fr.Resource != o.Resource {
		if fr.Resource < o.Resource {
			return -1
		}
		return 1
	}
	return 0
}

// Pos is a position in a scenario file. Line and Col are 1-based; a zero Pos
// means "no position" (an object built in Go, not decoded).
type Pos struct {
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	Col  int    `json:"col,omitempty"`
}

// Taint is a node taint carried by a ResourceFlavor (spec.nodeTaints).
type Taint struct {
	Key    string
	Value  string
	Effect string // NoSchedule, PreferNoSchedule or NoExecute
}

// Toleration is a pod or flavor toleration, with Kubernetes semantics.
type Toleration struct {
	Key      string
	Operator string // Equal (default) or Exists
	Value    string
	Effect   string // empty matches every effect
}

// NodeSelectorRequirement is one match expression of a node selector term.
type NodeSelectorRequirement struct {
	Key      string
	Operator string // In, NotIn, Exists, DoesNotExist, Gt, Lt
	Values   []string
}

// NodeSelectorTerm is a conjunction of requirements; terms are ORed.
type NodeSelectorTerm struct {
	MatchExpressions []NodeSelectorRequirement
}

// LabelSelectorRequirement is one expression of a metav1.LabelSelector.
type LabelSelectorRequirement struct {
	Key      string
	Operator string // In, NotIn, Exists, DoesNotExist
	Values   []string
}

// LabelSelector is a metav1.LabelSelector. A nil *LabelSelector in a
// ClusterQueue's namespaceSelector selects nothing, as in Kueue; an empty one
// selects everything.
type LabelSelector struct {
	MatchLabels      map[string]string
	MatchExpressions []LabelSelectorRequirement
}

// ResourceFlavor is a kueue.x-k8s.io ResourceFlavor.
type ResourceFlavor struct {
	Name        FlavorName
	NodeLabels  map[string]string
	NodeTaints  []Taint
	Tolerations []Toleration
	// TopologyName is spec.topologyName: a flavor for topology-aware
	// scheduling. TAS itself is not simulated; a ClusterQueue using such a
	// flavor is inactive when the Topology does not exist, as in Kueue.
	TopologyName string
	Pos          Pos
}

// Topology is a Kueue Topology object. Only its name is used: it makes the
// ClusterQueues that use a flavor naming it active.
type Topology struct {
	Name string
	Pos  Pos
}

// ResourceQuota is the quota of one resource in one flavor of a ClusterQueue
// or Cohort. BorrowingLimit and LendingLimit are nil when unset.
type ResourceQuota struct {
	Name           ResourceName
	Nominal        Amount
	BorrowingLimit *Amount
	LendingLimit   *Amount
}

// FlavorQuotas lists the quotas of one flavor inside a resource group, in the
// same order as the group's CoveredResources.
type FlavorQuotas struct {
	Name      FlavorName
	Resources []ResourceQuota
}

// ResourceGroup is one entry of spec.resourceGroups.
type ResourceGroup struct {
	CoveredResources []ResourceName
	Flavors          []FlavorQuotas
}

// FlavorFungibilityPolicy is whenCanBorrow / whenCanPreempt. v1beta1's
// Borrow and Preempt are decoded as MayStopSearch.
type FlavorFungibilityPolicy string

const (
	MayStopSearch FlavorFungibilityPolicy = "MayStopSearch"
	TryNextFlavor FlavorFungibilityPolicy = "TryNextFlavor"
)

// FlavorFungibilityPreference is flavorFungibility.preference.
type FlavorFungibilityPreference string

const (
	BorrowingOverPreemption FlavorFungibilityPreference = "BorrowingOverPreemption"
	PreemptionOverBorrowing FlavorFungibilityPreference = "PreemptionOverBorrowing"
)

// FlavorFungibility is a ClusterQueue's spec.flavorFungibility with CRD
// defaults applied (MayStopSearch / TryNextFlavor). Preference is empty
// when unset.
type FlavorFungibility struct {
	WhenCanBorrow  FlavorFungibilityPolicy
	WhenCanPreempt FlavorFungibilityPolicy
	Preference     FlavorFungibilityPreference
}

// PreemptionPolicy values of withinClusterQueue, reclaimWithinCohort and
// borrowWithinCohort.policy.
type PreemptionPolicy string

const (
	PreemptionNever                     PreemptionPolicy = "Never"
	PreemptionLowerPriority             PreemptionPolicy = "LowerPriority"
	PreemptionLowerOrNewerEqualPriority PreemptionPolicy = "LowerOrNewerEqualPriority"
	PreemptionAny                       PreemptionPolicy = "Any"
)

// Preemption is a ClusterQueue's spec.preemption with CRD defaults applied.
type Preemption struct {
	WithinClusterQueue  PreemptionPolicy
	ReclaimWithinCohort PreemptionPolicy
	// BorrowWithinCohort is Never when unset.
	BorrowWithinCohort   PreemptionPolicy
	MaxPriorityThreshold *int32
}

// QueueingStrategy is StrictFIFO or BestEffortFIFO (the default).
type QueueingStrategy string

const (
	StrictFIFO     QueueingStrategy = "StrictFIFO"
	BestEffortFIFO QueueingStrategy = "BestEffortFIFO"
)

// ClusterQueue is a kueue.x-k8s.io ClusterQueue with CRD defaults applied.
type ClusterQueue struct {
	Name string
	// Cohort is spec.cohortName (v1beta1 spec.cohort), empty when none.
	Cohort            string
	ResourceGroups    []ResourceGroup
	NamespaceSelector *LabelSelector // nil: selects no namespace
	QueueingStrategy  QueueingStrategy
	Preemption        Preemption
	FlavorFungibility FlavorFungibility
	// StopPolicy is None, Hold or HoldAndDrain. Anything but None makes the
	// ClusterQueue inactive.
	StopPolicy string
	Pos        Pos
}

// Cohort is a kueue.x-k8s.io Cohort object. Cohorts that are only named by
// ClusterQueues (or as a parent) exist implicitly with no quota.
type Cohort struct {
	Name           string
	Parent         string
	ResourceGroups []ResourceGroup
	Pos            Pos
}

// LocalQueue is a kueue.x-k8s.io LocalQueue.
type LocalQueue struct {
	Namespace    string
	Name         string
	ClusterQueue string
	StopPolicy   string
	Pos          Pos
}

// Namespace is a v1 Namespace; only its labels matter.
type Namespace struct {
	Name   string
	Labels map[string]string
	Pos    Pos
}

// PodSet is one pod set of a workload. Requests are per pod, in Amount
// units, computed with Kubernetes' rules (max of init containers and the sum
// of containers, plus overhead).
type PodSet struct {
	Name         string
	Count        int32
	Requests     map[ResourceName]Amount
	NodeSelector map[string]string
	// RequiredAffinity is requiredDuringSchedulingIgnoredDuringExecution's
	// nodeSelectorTerms; nil when absent.
	RequiredAffinity []NodeSelectorTerm
	Tolerations      []Toleration

	// Placement only (the node layer): the pod template's labels, its
	// preferred node affinity, and the per-pod requests kube-scheduler
	// scores with (its non-zero defaults applied).
	Labels            map[string]string
	PreferredAffinity []PreferredSchedulingTerm
	NonZeroRequests   map[ResourceName]Amount
	// PodRequests is the pod's own requests, which kube-scheduler fits to
	// nodes, when the scenario's Configuration made Requests differ from
	// them (excluded or transformed resources); nil means Requests.
	PodRequests map[ResourceName]Amount
}

// PodSetAdmission is one entry of status.admission.podSetAssignments for a
// workload that starts admitted.
type PodSetAdmission struct {
	Name          string
	Flavors       map[ResourceName]FlavorName
	ResourceUsage map[ResourceName]Amount // total for the pod set
	Count         int32
}

// Admission is status.admission of a workload that starts admitted.
type Admission struct {
	ClusterQueue string
	PodSets      []PodSetAdmission
}

// Eviction is the Evicted=True condition a workload starts with.
type Eviction struct {
	// Reason and Message are the condition's (Preempted, Deactivated,
	// PodsReadyTimeout, ...).
	Reason, Message string
	// At is the condition's lastTransitionTime as virtual time (0 when it
	// has none): the termination delay counts from it.
	At time.Duration
}

// AdmissionUsage is the quota a pasted admission holds, per flavor and
// resource: each pod set assignment's resourceUsage, or, for a resource it
// does not list, the pod set's request times the assigned count (the
// "pods" resource counts pods).
func (w *Workload) AdmissionUsage() map[FlavorResource]Amount {
	usage := map[FlavorResource]Amount{}
	if w.Admission == nil {
		return usage
	}
	for _, ps := range w.Admission.PodSets {
		for r, f := range ps.Flavors {
			q, ok := ps.ResourceUsage[r]
			if !ok {
				q = w.podSetRequest(ps.Name, r, ps.Count)
			}
			usage[FlavorResource{Flavor: f, Resource: r}] += q
		}
	}
	return usage
}

// podSetRequest is a pod set's total request of r for count pods.
func (w *Workload) podSetRequest(name string, r ResourceName, count int32) Amount {
	for _, ps := range w.PodSets {
		if ps.Name == name {
			if r == ResourcePods {
				return Amount(count)
			}
			return ps.Requests[r] * Amount(count)
		}
	}
	return 0
}

// Workload is a kueue Workload (or a batch/v1 Job converted to one). Name is
// "namespace/name" everywhere.
type Workload struct {
	Namespace string
	Name      string // without namespace
	Queue     string // spec.queueName (LocalQueue in Namespace)
	Priority  int32
	// PriorityClass is the name of the (Workload)PriorityClass that gave the
	// priority, for display only.
	PriorityClass string
	PodSets       []PodSet
	// Active is spec.active (default true). An inactive workload is never
	// queued.
	Active bool

	// Arrival is kueueplay/arrival: the virtual time it is created.
	Arrival time.Duration
	// Runtime is kueueplay/runtime; nil means it runs until the end.
	Runtime *time.Duration
	// TerminationDelay is kueueplay/termination-delay; nil means the
	// Scenario's default.
	TerminationDelay *time.Duration

	// Admission is set for a workload that starts admitted.
	Admission *Admission
	// Eviction is set for an admitted workload that starts evicted: pasted
	// with Evicted=True while it still holds status.admission, or inactive
	// (spec.active: false), which Kueue's workload controller evicts at once
	// (reason Deactivated). It releases its quota after its termination
	// delay, counted from the eviction, and is then queued again if active.
	Eviction *Eviction
	// RequeueAt is status.requeueState.requeueAt as virtual time (nil when
	// unset): a pending workload is not queued before it
	// (WorkloadReconciler waits for the backoff to finish).
	RequeueAt *time.Duration
	// AdmittedAt is the QuotaReserved condition's lastTransitionTime as
	// virtual time (negative or zero for before the simulation), or nil.
	AdmittedAt *time.Duration

	// ReplicaOf is set on the Workload Kueue's pod integration makes of
	// one pod of a queued Deployment or ReplicaSet: the owner's key
	// ("namespace/name", see Deployment.Key). Such a workload is created
	// and deleted by the owner's replica count (scale events), not by an
	// arrival of its own. PodName is its pod's name, <owner>-<index>.
	ReplicaOf string
	PodName   string

	Pos Pos
}

// Key returns the workload's "namespace/name" key.
func (w *Workload) Key() string { return w.Namespace + "/" + w.Name }

// EventKind is what a scenario event does.
type EventKind string

const (
	EventFinish EventKind = "finish"
	EventDelete EventKind = "delete"
	// EventScale sets spec.replicas of a Deployment or ReplicaSet.
	EventScale EventKind = "scale"
)

// Event is one entry of a Scenario's spec.events.
type Event struct {
	At   time.Duration
	Kind EventKind
	// Workload is the namespace/name of the workload a finish or delete
	// event acts on; empty for scale.
	Workload string
	// Target is the namespace/name of the Deployment or ReplicaSet a scale
	// event acts on (see Deployment.Key), and Replicas its new
	// spec.replicas, in [0, MaxReplicas]. Both are zero for finish and
	// delete.
	Target   string
	Replicas int32
	Pos      Pos
}

// ExpectationPoint says when an expectation is checked.
type ExpectationPoint struct {
	// End is true for "at: end".
	End bool
	// At is set for "at: <duration>".
	At *time.Duration
	// Cycle is set for "cycle: <n>" (1-based: the state right after the
	// n-th cycle).
	Cycle *int
}

// Expectation is one entry of a Scenario's spec.expect. Every field is
// optional; only named workloads are checked. Admitted maps a workload to
// pod set -> resource -> flavor; an empty inner map means "admitted,
// flavors not checked".
type Expectation struct {
	When        ExpectationPoint
	Admitted    map[string]map[string]map[ResourceName]FlavorName
	Pending     []string
	Terminating []string
	Finished    []string
	// Deleted lists workloads deleted by an event or, for the pod
	// workloads of a queued Deployment, by a scale-down.
	Deleted   []string
	Preempted []string
	// Messages maps a workload to its expected pending message. A key may
	// also name a Deployment or ReplicaSet: its value is then the reason
	// of the owner's first pending pod (the same applies to an admitted
	// workload with unplaced pods).
	Messages map[string]string
	// Pods maps an owner (the namespace/name of a workload, or of a
	// Deployment or ReplicaSet) to node name -> the exact number of the
	// owner's placed pods on that node. Nodes not listed must hold none of
	// its pods; an empty inner map means none of its pods is placed.
	Pods map[string]map[string]int
	Pos  Pos
}

// Scenario is the decoded kueueplay/v1alpha1 Scenario object plus every
// object of the file.
type Scenario struct {
	Name        string
	Description string
	// Gates holds only the gates the file sets (the Configuration's, then
	// the Scenario object's over them); use Gates.Enabled for the
	// effective value.
	Gates FeatureGates
	// Configuration is the Kueue Configuration of the file, nil when it
	// has none (Kueue's defaults).
	Configuration    *Configuration
	CycleDuration    time.Duration
	TerminationDelay time.Duration
	Until            *time.Duration
	MaxCycles        int
	Events           []Event
	Expect           []Expectation

	Flavors       []ResourceFlavor
	Topologies    []Topology
	ClusterQueues []ClusterQueue
	Cohorts       []Cohort
	LocalQueues   []LocalQueue
	Namespaces    []Namespace
	// Workloads are in document order; that order breaks ties between equal
	// arrival times.
	Workloads []Workload

	// Placement layer: Nodes, the Deployments and ReplicaSets (in document
	// order; their pods skip Kueue), ResourcePolicies and spec.placement
	// (nil when unset: default weights).
	Nodes            []Node
	Deployments      []Deployment
	ResourcePolicies []ResourcePolicy
	Placement        *PlacementSpec

	// Warnings are things Kueue accepts but that leave something pending
	// (a workload naming a missing LocalQueue, a ClusterQueue with no
	// namespaceSelector). The engine runs them as Kueue would.
	Warnings []Diagnostic
}

// Defaults for Scenario fields.
const (
	DefaultCycleDuration = time.Second
	DefaultMaxCycles     = 10000
	// MaxCyclesLimit is the largest maxCycles a Scenario may ask for.
	MaxCyclesLimit = 1_000_000
)
