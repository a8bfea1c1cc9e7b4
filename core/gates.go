package core

import (
	"fmt"
	"slices"
	"strings"
)

// Feature gate names. The set is fixed: a scenario naming any other gate is
// an error.
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
	// the playground keeps it to show the KEP's text.
	GateFlavorFungibilityImplicitPreferenceDefault = "FlavorFungibilityImplicitPreferenceDefault"
	// GateFlavorFungibilityPreferenceAsNamed makes flavorFungibility.preference
	// mean what its name says. Kueue v0.16.1 applies it inverted.
	GateFlavorFungibilityPreferenceAsNamed = "FlavorFungibilityPreferenceAsNamed"
	// GateRefreshAssignmentsDuringSchedulingCycle is KEP-4378 (preemption
	// issue); declared here so scenario files can already name it.
	GateRefreshAssignmentsDuringSchedulingCycle = "RefreshAssignmentsDuringSchedulingCycle"
)

// gateDefault is the table of every known gate and its default. It is a
// function rather than a package variable so that core holds no globals.
func gateDefault(name string) (value, known bool) {
	switch name {
	case GateFlavorFungibility, GateLendingLimit, GatePrioritySortingWithinCohort:
		return true, true
	case GateFlavorFungibilityImplicitPreferenceDefault,
		GateFlavorFungibilityPreferenceAsNamed,
		GateRefreshAssignmentsDuringSchedulingCycle:
		return false, true
	}
	return false, false
}

// KnownGates returns every gate name, sorted.
func KnownGates() []string {
	names := []string{
		GateFlavorFungibility,
		GateFlavorFungibilityImplicitPreferenceDefault,
		GateFlavorFungibilityPreferenceAsNamed,
		GateLendingLimit,
		GatePrioritySortingWithinCohort,
		GateRefreshAssignmentsDuringSchedulingCycle,
	}
	slices.Sort(names)
	return names
}

// GateDefault returns a gate's default and whether the gate exists.
func GateDefault(name string) (bool, bool) {
	return gateDefault(name)
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

// ValidateGateName returns an error for an unknown gate name.
func ValidateGateName(name string) error {
	if _, ok := gateDefault(name); !ok {
		return fmt.Errorf("unknown feature gate %q (known: %s)", name, strings.Join(KnownGates(), ", "))
	}
	return nil
}
