// Package gen generates random but valid kueueplay scenarios for the
// differential conformance runner, which runs each scenario through the
// playground's engine and through real Kueue v0.16.1 and compares the
// outcomes.
//
// A scenario is generated from a seed alone (Generate), so a failure is
// reproduced by its seed. It is plain data (Scenario and the types below)
// rendered to the playground's own YAML format (Scenario.YAML): Kueue
// v1beta2 ResourceFlavors, Cohorts, ClusterQueues, LocalQueues and
// Workloads plus one kueueplay/v1alpha1 Scenario object. Every scenario
// passes the playground decoder's validation, which mirrors the API
// server's and Kueue's webhooks, so both sides accept the same objects.
// The only deliberate oddities are rare references to a LocalQueue or a
// ResourceFlavor that does not exist; Kueue accepts both and leaves the
// workload pending or the ClusterQueue inactive.
//
// Scenarios are small, because they are run thousands of times against a
// real scheduler, but dense: total requests usually exceed quota, so
// preemption, borrowing, lending limits and flavor fungibility are
// exercised rather than everything fitting at once.
//
// Scenario.Shrinks lists the scenarios one step smaller, each still valid,
// which lets a minimizer reduce a failing seed to a small reproduction.
package gen

// Resource names a generated scenario uses.
const (
	ResourceCPU    = "cpu"
	ResourceMemory = "memory"
	ResourceGPU    = "example.com/gpu"
)

// Amounts are int64 in a fixed unit per resource, so that they format back
// to exact Kubernetes quantities: milli-CPUs for cpu (1500 is "1500m"),
// mebibytes for memory (2048 is "2Gi") and whole devices for
// example.com/gpu.

// Event kinds of spec.events.
const (
	EventFinish = "finish"
	EventDelete = "delete"
)

// The only feature gates a generated scenario sets, and always to false:
// every other gate keeps Kueue v0.16.1's default on both sides.
const (
	GateLendingLimit                = "LendingLimit"
	GatePrioritySortingWithinCohort = "PrioritySortingWithinCohort"
)

// Scenario is a generated scenario as plain data. Every field is exported
// so that a minimizer can inspect it; Shrinks, not direct edits, is the
// way to get smaller valid scenarios.
type Scenario struct {
	// Seed is the seed the scenario was generated from. It stays the same
	// in shrunk scenarios, which still name themselves seed-<Seed>.
	Seed uint64
	// TerminationDelaySeconds is spec.terminationDelay: how long an evicted
	// workload keeps its quota unless it sets its own delay.
	TerminationDelaySeconds int
	// Gates are the feature gates set in spec.featureGates, in a fixed
	// order.
	Gates         []Gate
	Flavors       []Flavor
	Cohorts       []Cohort
	ClusterQueues []ClusterQueue
	LocalQueues   []LocalQueue
	Workloads     []Workload
	Events        []Event
	// Deployments are apps/v1 Deployments whose pods Kueue queues.
	Deployments []Deployment
}

// Gate is one entry of spec.featureGates.
type Gate struct {
	Name  string
	Value bool
}

// Label is one node label or node selector entry.
type Label struct {
	Key, Value string
}

// Taint is a ResourceFlavor node taint.
type Taint struct {
	Key, Value, Effect string
}

// Toleration is a ResourceFlavor or pod set toleration. Operator is Exists
// or Equal; Value is set only with Equal.
type Toleration struct {
	Key, Operator, Value, Effect string
}

// Flavor is a ResourceFlavor.
type Flavor struct {
	Name        string
	NodeLabels  []Label
	NodeTaints  []Taint
	Tolerations []Toleration
	// TopologyName names a Topology the scenario never has (missingTopology):
	// with Kueue's TopologyAwareScheduling gate on, as by default, every
	// ClusterQueue using the flavor is inactive (TopologyNotFound).
	TopologyName string
}

// Quota is the quota of one resource in one flavor. BorrowingLimit and
// LendingLimit are nil when unset; they are set only when the owner has a
// parent (a cohort for a ClusterQueue, a parent for a Cohort), and
// LendingLimit never exceeds Nominal.
type Quota struct {
	Resource       string
	Nominal        int64
	BorrowingLimit *int64
	LendingLimit   *int64
}

// FlavorQuotas is one flavor of a resource group, with one Quota per
// covered resource, in the group's order.
type FlavorQuotas struct {
	Flavor string
	Quotas []Quota
}

// ResourceGroup is one entry of spec.resourceGroups. A resource and a
// flavor appear in at most one group of the same owner.
type ResourceGroup struct {
	Resources []string
	Flavors   []FlavorQuotas
}

// Cohort is a Cohort object. Cohorts that ClusterQueues or other Cohorts
// only name exist implicitly, with no quota, and have no Cohort value.
type Cohort struct {
	Name string
	// Parent is spec.parentName, empty for a root.
	Parent         string
	ResourceGroups []ResourceGroup
}

// Preemption is a ClusterQueue's spec.preemption. An empty string leaves
// the field unset (Kueue's default applies). BorrowWithinCohort other than
// Never only comes with ReclaimWithinCohort LowerPriority or Any, and
// MaxPriorityThreshold only with BorrowWithinCohort LowerPriority.
type Preemption struct {
	WithinClusterQueue   string
	ReclaimWithinCohort  string
	BorrowWithinCohort   string
	MaxPriorityThreshold *int32
}

// FlavorFungibility is a ClusterQueue's spec.flavorFungibility. An empty
// string leaves the field unset. Preference is set only when WhenCanBorrow
// is TryNextFlavor and WhenCanPreempt is TryNextFlavor or unset (its
// default is TryNextFlavor), as Kueue's CEL rule requires.
type FlavorFungibility struct {
	WhenCanBorrow  string
	WhenCanPreempt string
	Preference     string
}

// ClusterQueue is a ClusterQueue. Its namespaceSelector is always {}
// (every namespace).
type ClusterQueue struct {
	Name string
	// Cohort is spec.cohortName, empty for none.
	Cohort string
	// QueueingStrategy is StrictFIFO, BestEffortFIFO or empty (unset).
	QueueingStrategy  string
	Preemption        Preemption
	FlavorFungibility FlavorFungibility
	ResourceGroups    []ResourceGroup
	// StopPolicy is Hold, HoldAndDrain or empty (None).
	StopPolicy string
}

// LocalQueue is a LocalQueue. StopPolicy is Hold, HoldAndDrain or empty
// (None).
type LocalQueue struct {
	Namespace, Name, ClusterQueue string
	StopPolicy                    string
}

// Request is one per-pod resource request.
type Request struct {
	Resource string
	Amount   int64
}

// PodSet is one pod set of a Workload: Count pods, each with one container
// requesting Requests.
type PodSet struct {
	Name         string
	Count        int32
	Requests     []Request
	NodeSelector []Label
	Tolerations  []Toleration
}

// Workload is a kueue.x-k8s.io Workload. Its LocalQueue is Queue in
// Namespace; it may rarely not exist.
type Workload struct {
	Namespace, Name, Queue string
	Priority               int32
	// ArrivalSeconds is the kueueplay/arrival annotation.
	ArrivalSeconds int
	// RuntimeSeconds is the kueueplay/runtime annotation; nil means the
	// workload runs until the end.
	RuntimeSeconds *int
	// TerminationDelaySeconds is the kueueplay/termination-delay
	// annotation; nil means the Scenario's default.
	TerminationDelaySeconds *int
	PodSets                 []PodSet
}

// Key returns "namespace/name", the form events use.
func (w *Workload) Key() string { return w.Namespace + "/" + w.Name }

// Event is one entry of spec.events: at AtSeconds, finish or delete the
// workload named "namespace/name".
type Event struct {
	AtSeconds int
	Kind      string
	Workload  string
}

// Deployment is an apps/v1 Deployment with the queue-name label of
// LocalQueue Queue in Namespace: Kueue's pod integration makes each of its
// pods a single-pod Workload (pod-<name>-<index> in the playground),
// created and deleted with the replica count. Pod is its pod template
// (Count unused; the template's requests, nodeSelector and tolerations).
type Deployment struct {
	Namespace, Name, Queue string
	Replicas               int32
	// ArrivalSeconds is the kueueplay/arrival annotation.
	ArrivalSeconds int
	Pod            PodSet
	// Scales are its scale events, by time.
	Scales []Scale
}

// Key returns "namespace/name", the form scale events use.
func (d *Deployment) Key() string { return d.Namespace + "/" + d.Name }

// Scale is a spec.events entry {at, scale, replicas}.
type Scale struct {
	AtSeconds int
	Replicas  int32
}
