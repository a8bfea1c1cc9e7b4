// Package trace is the one output contract of the engine: the UI, the HTTP
// API, the CLI and the tests all read a Trace and nothing else. A Trace is a
// plain value (names and numbers, no pointers into engine state), it is
// versioned, and the same scenario always gives the same bytes, natively
// and in WebAssembly.
//
// A Trace is a list of Steps. A step is either the application of the
// events due at one virtual time (arrivals, finishes, deletions, quota
// releases) or one scheduling cycle. A cycle step lists, for every
// workload nominated in that cycle, every flavor tried for every pod set and
// resource group, with its mode, borrowing level, the fungibility rule that
// continued or stopped the search and the reason in words; the flavor
// chosen and why it beat the others; and the outcome. Every step ends with
// the usage of every ClusterQueue and Cohort per flavor and resource and
// every ClusterQueue's queue, in full every so often and otherwise as
// what changed (delta.go).
package trace

import (
	"strings"
	"time"

	"github.com/kueueplay/kueueplay/core"
)

// Version identifies the trace format. It changes when a field changes
// meaning or is removed; adding a field does not change it. v2: the usage
// and queues of a step are in full only in Full steps, and as changes
// otherwise. v3: the JSON leaves out what a reader derives from what
// stays (json.go: zeros, defaults, texts and lists that repeat other
// fields); Step's and Decision's UnmarshalJSON restore them, and read v2.
// v4: a flavor attempt's reasons are codes and quantities (Reason), not
// words; Reason's UnmarshalJSON reads v2's and v3's words. v5: a
// decision's pod sets and preemption search may be a reference to an
// equal earlier decision of its step ("podSetsOf", "preemptionOf");
// Step's UnmarshalJSON resolves them, and reads v2 to v4.
const Version = "kueueplay.trace/v5"

// Trace is the whole result of running a scenario.
type Trace struct {
	Version  string `json:"version"`
	Scenario string `json:"scenario,omitempty"`
	// Description is the Scenario's spec.description.
	Description string `json:"description,omitempty"`
	// Gates is the effective value of every feature gate the engine
	// simulates (core.SimulatedGates), sorted by name.
	Gates []Gate `json:"gates"`
	// Configuration is the Kueue Configuration the run used; nil when the
	// scenario has none (Kueue's defaults: no excluded resources, no
	// transformations).
	Configuration *Configuration `json:"configuration,omitempty"`
	// Policies are the scenario's ResourcePolicies, in scenario order
	// (scenarios with Nodes only).
	Policies []Policy `json:"policies,omitempty"`
	Steps    []Step   `json:"steps"`
	// End says why the run stopped: "quiescent" (nothing can change any
	// more), "until" (spec.until reached), "maxCycles" (the bound was
	// reached: the run was truncated) or "stopped" (the caller's
	// sim.Options.Stop ended it: truncated too).
	End    string `json:"end"`
	EndMs  int64  `json:"endMs"`
	Cycles int    `json:"cycles"`
	// Workloads is the final state of every workload, sorted by name.
	Workloads []WorkloadState `json:"workloads"`
	// Warnings are the decoder's warnings about the scenario
	// (core.Scenario.Warnings: what Kueue accepts but leaves pending or
	// inactive), in file order, so that a saved trace says what its input
	// got wrong. The text format does not print them.
	Warnings []core.Diagnostic `json:"warnings,omitempty"`
}

// Gate is one feature gate's effective value.
type Gate struct {
	Name    string `json:"name"`
	Enabled bool   `json:"enabled"`
}

// Configuration summarises the Kueue Configuration of a run: where it came
// from and the settings in effect.
type Configuration struct {
	// Source is the object it came from: "Configuration", or
	// "ConfigMap/<namespace>/<name>" for the manager ConfigMap's
	// controller_manager_config.yaml.
	Source     string `json:"source"`
	APIVersion string `json:"apiVersion"`
	// File, Line and Col are where the Configuration starts.
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	Col  int    `json:"col,omitempty"`
	// ExcludeResourcePrefixes is resources.excludeResourcePrefixes.
	ExcludeResourcePrefixes []string `json:"excludeResourcePrefixes,omitempty"`
	// Transformations is resources.transformations, in file order.
	Transformations []Transformation `json:"transformations,omitempty"`
	// Gates are the feature gates the Configuration sets, sorted by name
	// (the Scenario object and the run's overrides may override them:
	// Trace.Gates has the effective values).
	Gates []Gate `json:"gates,omitempty"`
}

// Transformation is one resource transformation of a Configuration.
type Transformation struct {
	Input    string `json:"input"`
	Strategy string `json:"strategy"`
	// MultiplyBy is the resource whose value multiplies the input's, if
	// any.
	MultiplyBy string `json:"multiplyBy,omitempty"`
	// Outputs are the output resources and the quantity per unit of
	// input, as written, sorted by resource.
	Outputs []TransformationOutput `json:"outputs,omitempty"`
}

// TransformationOutput is one output of a Transformation.
type TransformationOutput struct {
	Resource string `json:"resource"`
	Quantity string `json:"quantity"`
}

// String writes the transformation as one line:
// "nvidia.com/gpumem*nvidia.com/gpu Replace {nvidia.com/total-gpumem: 1}".
func (t Transformation) String() string {
	var b strings.Builder
	b.WriteString(t.Input)
	if t.MultiplyBy != "" {
		b.WriteString("*" + t.MultiplyBy)
	}
	b.WriteString(" " + t.Strategy + " {")
	for i, o := range t.Outputs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(o.Resource + ": " + o.Quantity)
	}
	b.WriteString("}")
	return b.String()
}

// StepKind tells an event step from a cycle step.
type StepKind string

const (
	// StepInitial is step 0: the state before anything happens.
	StepInitial StepKind = "initial"
	StepEvents  StepKind = "events"
	StepCycle   StepKind = "cycle"
)

// Step is one thing that happened at one virtual time.
type Step struct {
	Index int      `json:"index"`
	Kind  StepKind `json:"kind"`
	// TimeMs is the virtual time in milliseconds since the start.
	TimeMs int64 `json:"timeMs"`
	// Cycle is the 1-based cycle number for cycle steps, else the number of
	// cycles run so far.
	Cycle int `json:"cycle"`
	// Changed is false when the step changed nothing observable (no
	// admission, eviction, event, message or resume position changed).
	Changed   bool       `json:"changed"`
	Events    []Event    `json:"events,omitempty"`
	Heads     []Head     `json:"heads,omitempty"`
	Decisions []Decision `json:"decisions,omitempty"`
	// Full is set on a step that carries the whole state after it in
	// Usage and Queues: step 0, every KeyframeInterval-th step, and a
	// step where a row or queue appeared, disappeared or changed a fixed
	// field. Any other step carries only what changed, in UsageChanges
	// and QueueChanges or QueueDelta (see delta.go; Trace.StateAt and Replay rebuild
	// the full state of any step).
	Full bool `json:"full,omitempty"`
	// Usage is the usage of every ClusterQueue and Cohort after the step
	// (Full steps only).
	Usage []UsageRow `json:"usage,omitempty"`
	// Queues is every ClusterQueue's queue after the step (Full steps
	// only).
	Queues []QueueState `json:"queues,omitempty"`
	// UsageChanges are the usage rows whose values the step changed, and
	// QueueChanges the queues it changed (steps that are not Full only).
	UsageChanges []UsageChange `json:"usageChanges,omitempty"`
	QueueChanges []QueueChange `json:"queueChanges,omitempty"`
	// QueueDelta is the queue changes packed (after QueueChanges, if
	// both are set): a Compactor writes them there, for a long trace's
	// memory (the JSON reader writes QueueChanges). Read them with
	// EachQueueChange or QueueChangeList, and NumQueueChanges; the JSON
	// has them as "queueChanges" either way.
	QueueDelta *QueueDelta `json:"-"`
	// Claims are the preemption targets claimed in a cycle, with who
	// claimed how much (RefreshAssignmentsDuringSchedulingCycle only).
	Claims []Claim `json:"claims,omitempty"`

	// Placement layer (scenarios with Nodes only): every pod placement
	// attempted in the step, in order (each node's verdict for the first
	// MaxDetailedPlacements of them only); then, after the step, the
	// nodes whose pods changed in the step (every node at step 0: a
	// node's state at step i is its row in the last step <= i that has
	// one), the ResourcePolicy unit counts, and the pods no node could
	// take (at most sim.QueueListCap of them; PendingCount is exact).
	Placements   []Placement  `json:"placements,omitempty"`
	ScaleDowns   []ScaleDown  `json:"scaleDowns,omitempty"`
	Nodes        []NodeState  `json:"nodes,omitempty"`
	UnitCounts   []UnitCount  `json:"unitCounts,omitempty"`
	PendingPods  []PendingPod `json:"pendingPods,omitempty"`
	PendingCount int          `json:"pendingCount,omitempty"`
}

// EventKind is what an event did.
type EventKind string

const (
	EventArrival  EventKind = "arrival"
	EventFinish   EventKind = "finish"
	EventDelete   EventKind = "delete"
	EventRelease  EventKind = "release"
	EventRequeue  EventKind = "requeue"
	EventInactive EventKind = "inactive"
	// EventEvict is a workload evicted by preemption, or because its
	// LocalQueue or ClusterQueue has stopPolicy HoldAndDrain (Reason says
	// which); it keeps its quota until its termination delay is over (then
	// a release event).
	EventEvict EventKind = "evict"
	// EventScale is a Deployment or ReplicaSet created or scaled (its
	// name is in Workload).
	EventScale EventKind = "scale"
)

// Event is an arrival, finish, deletion, a quota release after a
// termination delay, or the requeueing of parked workloads that a change
// in a cohort tree caused. It records what happened as facts; Text writes
// the words (event.go), which the engine leaves to whoever reads them.
type Event struct {
	Kind     EventKind `json:"kind"`
	Workload string    `json:"workload,omitempty"`
	// ClusterQueue is the queue the workload belongs to, if any.
	ClusterQueue string `json:"clusterQueue,omitempty"`
	// Message is the event's words when its fields do not say them (an
	// ignored event, a queue that is stopped, a scale...); empty when
	// Text derives them from the fields.
	Message string `json:"message,omitempty"`
	// Preemptor is the workload whose preemption caused an evict event.
	Preemptor string `json:"preemptor,omitempty"`
	// Reason is, for an evict event, the preemption reason when Preemptor
	// is set (InClusterQueue, InCohortReclamation,
	// InCohortReclaimWhileBorrowing: the Preempted condition's reason),
	// and otherwise the Evicted condition's reason: LocalQueueStopped or
	// ClusterQueueStopped.
	Reason string `json:"reason,omitempty"`
	// LocalQueue is the LocalQueue, in the workload's namespace, that a
	// created workload was queued through (arrival).
	LocalQueue string `json:"localQueue,omitempty"`
	// Runtime is what a workload that finished at the end of its runtime
	// (kueueplay/runtime) ran for; nil for any other finish.
	Runtime *time.Duration `json:"runtime,omitempty"`
	// Delay is the termination delay an evicted workload keeps its quota
	// for (evict).
	Delay time.Duration `json:"delay,omitempty"`
	// Quota is the quota the event released (finish, delete, release),
	// by flavor then resource.
	Quota []Quantity `json:"quota,omitempty"`
	// Workloads are the parked workloads a requeue event sent back to
	// their queues, by name.
	Workloads []string `json:"workloads,omitempty"`
}

// Head is a workload popped as the head of its ClusterQueue in a cycle.
type Head struct {
	ClusterQueue string `json:"clusterQueue"`
	Workload     string `json:"workload"`
}

// Outcome of a decision.
type Outcome string

const (
	// OutcomeAdmitted: quota reserved; the workload is admitted.
	OutcomeAdmitted Outcome = "Admitted"
	// OutcomeNoFit: no flavor fits; the workload stays pending.
	OutcomeNoFit Outcome = "NoFit"
	// OutcomeNeedsPreemption: the assignment needs preemption but no
	// targets were found; capacity may be reserved for it.
	OutcomeNeedsPreemption Outcome = "NeedsPreemption"
	// OutcomePreempting: targets were found and evicted (or are already
	// terminating); the workload stays pending until they release their
	// quota, holding its capacity for the rest of the cycle.
	OutcomePreempting Outcome = "Preempting"
	// OutcomeSkipped: skipped in this cycle (no longer fits after an
	// earlier entry was processed, or its preemption targets overlap
	// targets another entry claimed in this cycle).
	OutcomeSkipped Outcome = "Skipped"
	// OutcomeInadmissible: not nominated (namespace does not match,
	// ClusterQueue inactive...).
	OutcomeInadmissible Outcome = "Inadmissible"
)

// Decision is what the cycle decided for one head.
type Decision struct {
	Workload     string `json:"workload"`
	ClusterQueue string `json:"clusterQueue"`
	Priority     int32  `json:"priority,omitempty"`
	// Order is the 1-based position in which the entry was processed
	// (0 for entries that were not nominated).
	Order int `json:"order,omitempty"`
	// PodSets are the flavor-assignment details, one per pod set.
	PodSets []PodSetDecision `json:"podSets,omitempty"`
	// Mode is the assignment's representative mode: Fit, Preempt or NoFit.
	Mode string `json:"mode,omitempty"`
	// Borrowing is the assignment's borrowing level (0: no borrowing).
	Borrowing int     `json:"borrowing,omitempty"`
	Outcome   Outcome `json:"outcome"`
	// SkipReason tells why a Skipped entry was skipped: "overlappingTargets"
	// (its targets were claimed earlier in the cycle) or "noLongerFits".
	SkipReason string `json:"skipReason,omitempty"`
	// Message is what Kueue writes in the QuotaReserved=False condition
	// (empty for an admitted workload).
	Message string `json:"message,omitempty"`
	// Explanation adds the playground's own words (why a namespace does
	// not match, what was reserved...). Never part of Kueue's message.
	Explanation string `json:"explanation,omitempty"`
	// Reserved lists capacity reserved in the snapshot for an entry that
	// needs preemption.
	Reserved []Quantity `json:"reserved,omitempty"`
	// Requeue says how the workload went back to its queue: "immediate"
	// (back in the heap) or "parked" (inadmissible until a cohort event).
	Requeue       string `json:"requeue,omitempty"`
	RequeueReason string `json:"requeueReason,omitempty"`
	// Admission is pod set -> resource -> flavor for admitted workloads.
	Admission []PodSetFlavors `json:"admission,omitempty"`
	// Preemption is the search for preemption targets, for an entry whose
	// assignment needs preemption.
	Preemption *Preemption `json:"preemption,omitempty"`
	// Recomputed is set when the entry was recomputed in the cycle
	// (RefreshAssignmentsDuringSchedulingCycle).
	Recomputed *Recomputation `json:"recomputed,omitempty"`
}

// Quantity is an amount of one flavor-resource.
type Quantity struct {
	// Flavor is empty for a pod set's requests (no flavor yet).
	Flavor   string `json:"flavor,omitempty"`
	Resource string `json:"resource"`
	Amount   int64  `json:"amount"`
	// Text is the amount formatted like Kubernetes quantities ("1500m").
	Text string `json:"text"`
}

// PodSetFlavors is the flavor of each resource of one pod set.
type PodSetFlavors struct {
	PodSet  string           `json:"podSet"`
	Flavors []ResourceFlavor `json:"flavors"`
}

// ResourceFlavor pairs a resource with its flavor.
type ResourceFlavor struct {
	Resource string `json:"resource"`
	Flavor   string `json:"flavor"`
}

// PodSetDecision is the flavor assignment of one pod set.
type PodSetDecision struct {
	PodSet string `json:"podSet"`
	Count  int32  `json:"count"`
	// Requests are the pod set's total requests (per-pod request × count).
	Requests []Quantity     `json:"requests"`
	Groups   []GroupAttempt `json:"groups"`
	Mode     string         `json:"mode"`
	// Message is the pod set's status message (empty when it fits).
	Message string `json:"message,omitempty"`
}

// GroupAttempt is the flavor search for one resource group of a pod set.
// It records what was decided as codes and facts; ResumeText and WhyText
// (explain.go) write the words when someone reads them, so the engine
// formats no explanation for attempts no one looks at.
type GroupAttempt struct {
	// Resources are the requested resources this group covers.
	Resources []string `json:"resources"`
	// StartIndex is the index of the first flavor tried: non-zero when the
	// search resumed after the flavor tried last time.
	StartIndex int `json:"startIndex,omitempty"`
	// Resume says where the search started and why (ResumeText).
	Resume Resume `json:"resume"`
	// ResumedAfter is the flavor the search resumed after (Resume
	// "resumed"): the one at StartIndex-1.
	ResumedAfter string `json:"resumedAfter,omitempty"`
	// Reset says why the previous attempt's state was dropped (Resume
	// "reset").
	Reset ResetReason `json:"reset,omitempty"`
	// BorrowingFirst is set when flavors were compared by borrowing level
	// first, then mode; otherwise mode first, then borrowing level
	// (flavorassigner.isPreferred; which one applies depends on
	// flavorFungibility.preference and the gates).
	BorrowingFirst bool            `json:"borrowingFirst,omitempty"`
	Attempts       []FlavorAttempt `json:"attempts"`
	// Chosen is the chosen flavor, empty if none; WhyText says why it beat
	// the others.
	Chosen string `json:"chosen,omitempty"`
	// PreferenceNote is set when flavorFungibility.preference changed the
	// choice compared with what the value's name says (Kueue v0.16.1
	// applies it inverted) or when a gate changed the preference order.
	PreferenceNote string `json:"preferenceNote,omitempty"`
	// TriedIndex is the index of the last flavor tried, which the next
	// attempt resumes after (-1: the next attempt starts from the first
	// flavor).
	TriedIndex int `json:"triedIndex"`
	// Unavailable is set when no group of the ClusterQueue covers the
	// resource.
	Unavailable string `json:"unavailable,omitempty"`
}

// FlavorAttempt is one flavor judged for one resource group. Zero values
// (index 0, borrowing level 0, false) are left out of the JSON.
type FlavorAttempt struct {
	Flavor string `json:"flavor"`
	Index  int    `json:"index,omitempty"`
	// Mode is the granular mode: NoFit, NoCandidates, Preempt, Reclaim or Fit.
	Mode string `json:"mode"`
	// Borrowing is the borrowing level (0 = inside nominal quota).
	Borrowing int `json:"borrowing,omitempty"`
	// Reasons explain a mode other than Fit, as codes and quantities;
	// ReasonTexts writes them in Kueue's words.
	Reasons []Reason `json:"reasons,omitempty"`
	// Continue is true when the search went on to the next flavor.
	Continue bool `json:"continue,omitempty"`
	// Rule is the fungibility rule that continued or stopped the search
	// (RuleText writes it out).
	Rule Rule `json:"rule"`
	// Best is true when this flavor became the best so far.
	Best bool `json:"best,omitempty"`
	// PreemptionTargets are the workloads the preemption oracle would
	// evict to make room on this flavor (modes Preempt and Reclaim).
	PreemptionTargets []string `json:"preemptionTargets,omitempty"`
}

// UsageRow is the usage of one flavor-resource in one ClusterQueue or
// Cohort. Amounts are in Kueue's internal unit (milli-cpu, bytes, counts);
// the *Text fields hold them formatted.
type UsageRow struct {
	Node     string `json:"node"`
	Kind     string `json:"kind"` // ClusterQueue or Cohort
	Parent   string `json:"parent,omitempty"`
	Flavor   string `json:"flavor"`
	Resource string `json:"resource"`
	// Used is admitted plus terminating usage (for a Cohort: usage its
	// children place in it beyond their guaranteed quota).
	Used int64 `json:"used,omitempty"`
	// Terminating is the part of a ClusterQueue's Used held by evicted
	// workloads that are still terminating (0 for Cohorts).
	Terminating int64 `json:"terminating,omitempty"`
	// Nominal is the node's own nominal quota.
	Nominal int64 `json:"nominal,omitempty"`
	// SubtreeQuota is nominal plus what children lend (Cohorts), or
	// nominal (ClusterQueues).
	SubtreeQuota int64 `json:"subtreeQuota,omitempty"`
	// Borrowed is usage beyond the node's subtree quota.
	Borrowed int64 `json:"borrowed,omitempty"`
	// Lent is the part of this node's unused quota that others use. Kueue
	// pools unused quota (KEP-1224); the trace attributes the borrowing in
	// a cohort first to the cohort's own quota, then to its children in
	// name order, so Lent sums to what is borrowed.
	Lent int64 `json:"lent,omitempty"`
	// HeldBack is the part a lending limit keeps from the cohort
	// (max(0, subtreeQuota - lendingLimit)).
	HeldBack       int64  `json:"heldBack,omitempty"`
	BorrowingLimit *int64 `json:"borrowingLimit,omitempty"`
	LendingLimit   *int64 `json:"lendingLimit,omitempty"`
	// Available is what the node can still admit now.
	Available int64 `json:"available,omitempty"`
}

// QueueState is one ClusterQueue's queue after a step.
type QueueState struct {
	ClusterQueue string `json:"clusterQueue"`
	Active       bool   `json:"active"`
	// InactiveReason is set for an inactive ClusterQueue.
	InactiveReason string `json:"inactiveReason,omitempty"`
	// Pending are the workloads in the heap in queue order (the first one
	// is the next head); Parked the inadmissible ones, by name; Admitted
	// and Terminating by name. Each list holds at most sim.QueueListCap
	// names; the counts are exact.
	Pending          []string `json:"pending,omitempty"`
	PendingCount     int      `json:"pendingCount,omitempty"`
	Parked           []string `json:"parked,omitempty"`
	ParkedCount      int      `json:"parkedCount,omitempty"`
	Admitted         []string `json:"admitted,omitempty"`
	AdmittedCount    int      `json:"admittedCount,omitempty"`
	Terminating      []string `json:"terminating,omitempty"`
	TerminatingCount int      `json:"terminatingCount,omitempty"`
}

// WorkloadStatus is the one state a workload is in.
type WorkloadStatus string

const (
	StatusPending     WorkloadStatus = "pending"
	StatusAdmitted    WorkloadStatus = "admitted"
	StatusTerminating WorkloadStatus = "terminating"
	StatusFinished    WorkloadStatus = "finished"
	// StatusNotCreated is a workload whose arrival time was not reached.
	StatusNotCreated WorkloadStatus = "notCreated"
	// StatusDeleted is a workload deleted by an event.
	StatusDeleted WorkloadStatus = "deleted"
)

// WorkloadState is a workload's final state.
type WorkloadState struct {
	Workload     string `json:"workload"`
	ClusterQueue string `json:"clusterQueue,omitempty"`
	// Priority is the workload's priority (what Summarize groups by).
	Priority  int32           `json:"priority,omitempty"`
	Status    WorkloadStatus  `json:"status"`
	Message   string          `json:"message,omitempty"`
	Admission []PodSetFlavors `json:"admission,omitempty"`
	// AdmittedAtMs is set for admitted workloads.
	AdmittedAtMs *int64 `json:"admittedAtMs,omitempty"`
}

// Preemption is one search for preemption targets for a workload whose
// assignment needs preemption (Kueue's Preemptor.GetTargets, classical
// algorithm).
type Preemption struct {
	// Resources are the flavor-resources that need preemption, as
	// "flavor/resource", sorted.
	Resources []string `json:"resources"`
	// Candidates are every workload that may be preempted, in the order
	// they are tried: already evicted ones first, then hierarchical-reclaim
	// candidates, priority candidates from the cohort, and candidates from
	// the workload's own ClusterQueue; within each list other queues
	// before the own one, lower priority first, more recently admitted
	// first, then name.
	Candidates []Candidate `json:"candidates,omitempty"`
	// Passes are the attempts to find a set of targets, with or without
	// letting the preemptor borrow, in the order Kueue tries them.
	Passes []PreemptionPass `json:"passes,omitempty"`
	// Targets are the workloads to evict (empty: preemption cannot help).
	Targets []Target `json:"targets,omitempty"`
	// Summary says in words what the search found.
	Summary string `json:"summary"`
}

// Candidate is a workload that may be preempted.
type Candidate struct {
	Workload     string `json:"workload"`
	ClusterQueue string `json:"clusterQueue"`
	Priority     int32  `json:"priority"`
	// Evicted is true for a workload already evicted and still terminating.
	Evicted bool `json:"evicted,omitempty"`
	// List is the candidate list it comes from: "hierarchicalReclaim"
	// (the preemptor's request fits in the quota of the subtree they
	// share, so priority does not matter), "cohort" (decided by priority
	// and borrowWithinCohort) or "clusterQueue" (same ClusterQueue).
	List string `json:"list"`
	// Reason is the preemption reason it would get: InClusterQueue,
	// InCohortReclamation or InCohortReclaimWhileBorrowing.
	Reason string `json:"reason"`
	// Why explains in words why it is a candidate.
	Why string `json:"why"`
	// Claimable is what is left to claim of it in this cycle (only with
	// RefreshAssignmentsDuringSchedulingCycle, when part is claimed).
	Claimable []Quantity `json:"claimable,omitempty"`
}

// PreemptionPass is one walk over the candidates.
type PreemptionPass struct {
	// AllowBorrowing tells whether the preemptor may end up borrowing.
	AllowBorrowing bool            `json:"allowBorrowing"`
	Steps          []CandidateStep `json:"steps,omitempty"`
	// Fits is true when the preemptor fits after the pass's removals.
	Fits bool `json:"fits"`
}

// CandidateStep is what a pass did with one candidate.
type CandidateStep struct {
	Workload string `json:"workload"`
	// Action is "removed" (taken out of the simulated snapshot), "skipped"
	// (no longer valid), "givenBack" (fill-back found it unneeded) or
	// "kept" (fill-back found it needed).
	Action string `json:"action"`
	Why    string `json:"why,omitempty"`
}

// Target is a workload a preemptor evicts.
type Target struct {
	Workload     string `json:"workload"`
	ClusterQueue string `json:"clusterQueue"`
	// Reason is InClusterQueue, InCohortReclamation or
	// InCohortReclaimWhileBorrowing.
	Reason string `json:"reason"`
	// Message is the Evicted/Preempted condition message Kueue writes on
	// the target.
	Message string `json:"message"`
	// AlreadyEvicted is true when an earlier preemption evicted it; it is
	// counted but not evicted again.
	AlreadyEvicted bool `json:"alreadyEvicted,omitempty"`
	// Claims are the usage of the target this preemptor claims (only with
	// RefreshAssignmentsDuringSchedulingCycle).
	Claims []Quantity `json:"claims,omitempty"`
}

// Recomputation records that an entry's assignment and targets were
// recomputed in the cycle because its targets overlapped targets already
// claimed (RefreshAssignmentsDuringSchedulingCycle).
type Recomputation struct {
	// Overlapping are the targets that earlier entries had claimed.
	Overlapping []string `json:"overlapping"`
	// Before is the assignment computed at nomination.
	BeforeMode       string           `json:"beforeMode"`
	BeforePodSets    []PodSetDecision `json:"beforePodSets,omitempty"`
	BeforePreemption *Preemption      `json:"beforePreemption,omitempty"`
}

// Claim is how much of one preemption target the preemptors of a cycle
// claimed (RefreshAssignmentsDuringSchedulingCycle).
type Claim struct {
	Target string `json:"target"`
	// Original is the target's usage.
	Original []Quantity `json:"original"`
	// By lists each claiming preemptor with what it claimed, in
	// processing order.
	By []ClaimBy `json:"by"`
}

// ClaimBy is one preemptor's claim on a target.
type ClaimBy struct {
	Preemptor string     `json:"preemptor"`
	Claimed   []Quantity `json:"claimed"`
}
