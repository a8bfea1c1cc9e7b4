package core

import (
	"fmt"
	"slices"
)

// Feature gate names the engine reads. Every other gate of Kueue v0.16.1 is
// in the table too (see Gates), so that a Configuration or Scenario copied
// from a real cluster decodes, but the engine does not read it.
const (
	// GateFlavorFungibility enables whenCanBorrow/whenCanPreempt and resuming
	// from the last tried flavor (Kueue's FlavorFungibility gate). Off gives
	// Kueue's legacy first-fit behaviour.
	GateFlavorFungibility = "FlavorFungibility"
	// GateLendingLimit honours lendingLimit (Kueue's LendingLimit gate).
	GateLendingLimit = "LendingLimit"
	// GatePrioritySortingWithinCohort orders entries by priority inside a
	// cycle (Kueue's PrioritySortingWithinCohort gate).
	GatePrioritySortingWithinCohort = "PrioritySortingWithinCohort"
	// GateFlavorFungibilityImplicitPreferenceDefault applies KEP-582's
	// alternative preference order when preference is unset and
	// whenCanBorrow is TryNextFlavor. It was removed from Kueue in v0.16.0;
	// the playground keeps it to show the KEP's text. Playground only.
	GateFlavorFungibilityImplicitPreferenceDefault = "FlavorFungibilityImplicitPreferenceDefault"
	// GateFlavorFungibilityPreferenceAsNamed makes flavorFungibility.preference
	// mean what its name says. Kueue v0.16.1 applies it inverted.
	// Playground only.
	GateFlavorFungibilityPreferenceAsNamed = "FlavorFungibilityPreferenceAsNamed"
	// GateRefreshAssignmentsDuringSchedulingCycle is KEP-4378 (preemption
	// issue), not in Kueue v0.16.1. Playground only.
	GateRefreshAssignmentsDuringSchedulingCycle = "RefreshAssignmentsDuringSchedulingCycle"
	// GateTopologyAwareScheduling is Kueue's TAS gate. TAS itself is not
	// simulated (the engine places pods as with the gate off), but its one
	// effect on admission without Nodes is: with the gate on, a ClusterQueue
	// using a flavor whose Topology is missing is inactive.
	GateTopologyAwareScheduling = "TopologyAwareScheduling"
)

// GateSupport says how far the playground simulates a gate.
type GateSupport int

const (
	// GateSimulated: the engine honours both values.
	GateSimulated GateSupport = iota
	// GateOnlyOn: the engine always behaves as Kueue does with the gate on;
	// turning it off would change scheduling, which is not simulated.
	GateOnlyOn
	// GateOnlyOff: the engine always behaves as Kueue does with the gate
	// off; turning it on would change scheduling, which is not simulated.
	GateOnlyOff
	// GateNoEffect: the gate changes nothing the playground simulates
	// (metrics, webhooks, finalizers, MultiKueue plumbing, ...).
	GateNoEffect
)

// GateInfo is one row of the gate table.
type GateInfo struct {
	Name string
	// Default is the gate's default in Kueue v0.16.1 (the last versioned
	// spec of pkg/features/kube_features.go at or before 0.16), or the
	// playground's default for a playground-only gate.
	Default bool
	Support GateSupport
	// PlaygroundOnly marks gates Kueue v0.16.1 does not have.
	PlaygroundOnly bool
	// What is what the gate changes in Kueue, in a few words, for
	// messages.
	What string
}

// Gates returns the table of every gate the playground accepts, sorted by
// name: every gate of Kueue v0.16.1 and the playground's own. It is a
// function rather than a package variable so that core holds no globals;
// conformance/gates_test.go checks it against Kueue's own gate registry.
func Gates() []GateInfo {
	return []GateInfo{
		{Name: "AdmissionFairSharing", Default: true, Support: GateOnlyOff, What: "orders a ClusterQueue's workloads by their LocalQueue's past usage"},
		{Name: "DynamicResourceAllocation", Default: false, Support: GateOnlyOff, What: "counts DRA devices against quota"},
		{Name: "ElasticJobsViaWorkloadSlices", Default: false, Support: GateOnlyOff, What: "lets admitted jobs scale through workload slices"},
		{Name: "FailureRecoveryPolicy", Default: false, Support: GateNoEffect, What: "recovers pods stuck terminating"},
		{Name: GateFlavorFungibility, Default: true, Support: GateSimulated, What: "whenCanBorrow/whenCanPreempt"},
		{Name: GateFlavorFungibilityImplicitPreferenceDefault, Default: false, Support: GateSimulated, PlaygroundOnly: true, What: "KEP-582's implicit preference order"},
		{Name: GateFlavorFungibilityPreferenceAsNamed, Default: false, Support: GateSimulated, PlaygroundOnly: true, What: "flavorFungibility.preference as named"},
		{Name: "HierarchicalCohorts", Default: true, Support: GateOnlyOn, What: "Cohort objects and cohort trees"},
		{Name: GateLendingLimit, Default: true, Support: GateSimulated, What: "lendingLimit"},
		{Name: "LocalQueueDefaulting", Default: true, Support: GateOnlyOn, What: "a Job without a queue-name label goes to the LocalQueue named default"},
		{Name: "LocalQueueMetrics", Default: false, Support: GateNoEffect, What: "LocalQueue metrics"},
		{Name: "ManagedJobsNamespaceSelectorAlwaysRespected", Default: true, Support: GateOnlyOff, What: "Jobs with a queue-name label are managed only in namespaces managedJobsNamespaceSelector selects"},
		{Name: "MultiKueue", Default: true, Support: GateNoEffect, What: "MultiKueue admission checks"},
		{Name: "MultiKueueAdaptersForCustomJobs", Default: true, Support: GateNoEffect, What: "MultiKueue adapters for custom jobs"},
		{Name: "MultiKueueAllowInsecureKubeconfigs", Default: false, Support: GateNoEffect, What: "insecure MultiKueue kubeconfigs"},
		{Name: "MultiKueueBatchJobWithManagedBy", Default: true, Support: GateNoEffect, What: "MultiKueue for Jobs through spec.managedBy"},
		{Name: "MultiKueueClusterProfile", Default: false, Support: GateNoEffect, What: "MultiKueue ClusterProfiles"},
		{Name: "MultiKueueRedoAdmissionOnEvictionInWorker", Default: true, Support: GateNoEffect, What: "MultiKueue re-admission after eviction in a worker"},
		{Name: "MultiKueueWaitForWorkloadAdmitted", Default: true, Support: GateNoEffect, What: "MultiKueue worker clean-up timing"},
		{Name: "ObjectRetentionPolicies", Default: true, Support: GateNoEffect, What: "deletion of finished Workloads"},
		{Name: "PartialAdmission", Default: true, Support: GateOnlyOff, What: "admits a pod set with fewer pods (minCount)"},
		{Name: GatePrioritySortingWithinCohort, Default: true, Support: GateSimulated, What: "priority order within a cycle"},
		{Name: "PropagateBatchJobLabelsToWorkload", Default: true, Support: GateNoEffect, What: "job-name labels on Workload pod templates"},
		{Name: "ReclaimablePods", Default: true, Support: GateOnlyOff, What: "releases the quota of status.reclaimablePods"},
		{Name: GateRefreshAssignmentsDuringSchedulingCycle, Default: false, Support: GateSimulated, PlaygroundOnly: true, What: "KEP-4378: preemption targets claimed within a cycle"},
		{Name: "RemoveFinalizersWithStrictPatch", Default: true, Support: GateNoEffect, What: "how finalizers are removed"},
		{Name: "SanitizePodSets", Default: true, Support: GateNoEffect, What: "deduplication of env vars in pod sets"},
		{Name: "SkipFinalizersForPodsSuspendedByParent", Default: true, Support: GateNoEffect, What: "finalizers of serving pods"},
		{Name: "TASBalancedPlacement", Default: false, Support: GateOnlyOff, What: "topology-aware scheduling's balanced placement"},
		{Name: "TASFailedNodeReplacement", Default: true, Support: GateOnlyOff, What: "topology-aware scheduling's failed node replacement"},
		{Name: "TASFailedNodeReplacementFailFast", Default: true, Support: GateOnlyOff, What: "topology-aware scheduling's eviction when no node replaces a failed one"},
		{Name: "TASProfileLeastFreeCapacity", Default: false, Support: GateOnlyOff, What: "topology-aware scheduling's LeastFreeCapacity profile"},
		{Name: "TASProfileMixed", Default: true, Support: GateOnlyOff, What: "topology-aware scheduling's Mixed profile"},
		{Name: "TASReplaceNodeOnPodTermination", Default: true, Support: GateOnlyOff, What: "topology-aware scheduling's node replacement on pod termination"},
		{Name: "TLSOptions", Default: true, Support: GateNoEffect, What: "TLS options of Kueue's servers"},
		{Name: GateTopologyAwareScheduling, Default: true, Support: GateOnlyOff, What: "topology-aware scheduling (podset topology requests, Topology objects); only its TopologyNotFound inactive state is simulated"},
		{Name: "VisibilityOnDemand", Default: true, Support: GateNoEffect, What: "the visibility API"},
		{Name: "WorkloadRequestUseMergePatch", Default: false, Support: GateNoEffect, What: "how Workloads are patched"},
	}
}

// LookupGate returns the table row of gate name.
func LookupGate(name string) (GateInfo, bool) {
	for _, g := range Gates() {
		if g.Name == name {
			return g, true
		}
	}
	return GateInfo{}, false
}

// gateDefault returns a gate's default and whether the gate exists. The
// gates the engine reads are answered without building the table, since
// FeatureGates.Enabled runs inside scheduling cycles (TestGateDefaultFast
// keeps the two in step).
func gateDefault(name string) (value, known bool) {
	switch name {
	case GateFlavorFungibility, GateLendingLimit, GatePrioritySortingWithinCohort:
		return true, true
	case GateFlavorFungibilityImplicitPreferenceDefault,
		GateFlavorFungibilityPreferenceAsNamed,
		GateRefreshAssignmentsDuringSchedulingCycle:
		return false, true
	}
	g, ok := LookupGate(name)
	return g.Default, ok
}

// KnownGates returns every gate name, sorted.
func KnownGates() []string {
	var names []string
	for _, g := range Gates() {
		names = append(names, g.Name)
	}
	slices.Sort(names)
	return names
}

// SimulatedGates returns the names of the gates whose both values the
// engine simulates, sorted: the ones a trace lists and the UI offers to
// toggle.
func SimulatedGates() []string {
	var names []string
	for _, g := range Gates() {
		if g.Support == GateSimulated {
			names = append(names, g.Name)
		}
	}
	slices.Sort(names)
	return names
}

// GateDefault returns a gate's default and whether the gate exists.
func GateDefault(name string) (bool, bool) {
	return gateDefault(name)
}

// GateNote returns why setting gate name to value is not simulated, or ""
// when the engine runs as Kueue would (the gate is simulated, has no
// effect on scheduling, or value is the one the engine always behaves as).
// Decoders report it as a warning where the input sets the gate.
func GateNote(name string, value bool) string {
	g, ok := LookupGate(name)
	if !ok {
		return ""
	}
	switch {
	case g.Support == GateOnlyOn && !value:
		return fmt.Sprintf("feature gate %s=false is not simulated: the playground always runs with it on (%s)", name, g.What)
	case g.Support == GateOnlyOff && value:
		return fmt.Sprintf("feature gate %s=true is not simulated: the playground runs as Kueue does with it off (%s)", name, g.What)
	}
	return ""
}

// FeatureGates holds explicit gate settings; unset gates take their default.
type FeatureGates map[string]bool

// Enabled reports whether gate name is on. It panics on an unknown name:
// that is a programming error, since scenario input is validated.
func (g FeatureGates) Enabled(name string) bool {
	if v, ok := g[name]; ok {
		return v
	}
	def, ok := gateDefault(name)
	if !ok {
		panic(fmt.Sprintf("unknown feature gate %q", name))
	}
	return def
}

// With returns a copy with the given overrides applied.
func (g FeatureGates) With(overrides FeatureGates) FeatureGates {
	out := make(FeatureGates, len(g)+len(overrides))
	for k, v := range g {
		out[k] = v
	}
	for k, v := range overrides {
		out[k] = v
	}
	return out
}

// ValidateGateName returns an error for an unknown gate name. The message
// suggests the nearest known name rather than listing the whole table.
func ValidateGateName(name string) error {
	return validateGateName(name, true)
}

// ValidateGateNameNoSuggestion is ValidateGateName without the
// suggestion, which costs an edit distance to every gate: decoders use it
// once they have suggested names for a few unknown gates, so that a file
// of many unknown gates stays cheap.
func ValidateGateNameNoSuggestion(name string) error {
	return validateGateName(name, false)
}

func validateGateName(name string, suggest bool) error {
	if _, ok := gateDefault(name); ok {
		return nil
	}
	msg := fmt.Sprintf("unknown feature gate %q: not a gate of Kueue v0.16.1 nor of the playground", name)
	if suggest {
		if s := nearestGate(name); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
	}
	return fmt.Errorf("%s", msg)
}

// nearestGate returns the known gate closest to name (see Nearest), or "".
func nearestGate(name string) string {
	if len(name) > 64 {
		return "" // longer than any gate by far
	}
	return Nearest(name, KnownGates())
}
