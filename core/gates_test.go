package core

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGateTableSortedAndUnique(t *testing.T) {
	names := KnownGates()
	var table []string
	for _, g := range Gates() {
		table = append(table, g.Name)
	}
	if diff := cmp.Diff(names, table); diff != "" {
		t.Errorf("Gates() is not sorted by name (-sorted +table):\n%s", diff)
	}
	if len(slices.Compact(slices.Clone(names))) != len(names) {
		t.Errorf("duplicate gate names in %v", names)
	}
}

func TestSimulatedGates(t *testing.T) {
	want := []string{
		GateFlavorFungibility,
		GateFlavorFungibilityImplicitPreferenceDefault,
		GateFlavorFungibilityPreferenceAsNamed,
		GateLendingLimit,
		GatePrioritySortingWithinCohort,
		GateRefreshAssignmentsDuringSchedulingCycle,
	}
	if diff := cmp.Diff(want, SimulatedGates()); diff != "" {
		t.Errorf("SimulatedGates() (-want +got):\n%s", diff)
	}
}

func TestGateNote(t *testing.T) {
	tests := map[string]struct {
		name  string
		value bool
		want  string
	}{
		"simulated gate":                 {name: GateLendingLimit, value: false},
		"no effect gate":                 {name: "VisibilityOnDemand", value: false},
		"only-off gate set off":          {name: "PartialAdmission", value: false},
		"only-off gate set on":           {name: "PartialAdmission", value: true, want: "feature gate PartialAdmission=true is not simulated: the playground runs as Kueue does with it off (admits a pod set with fewer pods (minCount))"},
		"only-on gate set on":            {name: "HierarchicalCohorts", value: true},
		"only-on gate set off":           {name: "HierarchicalCohorts", value: false, want: "feature gate HierarchicalCohorts=false is not simulated: the playground always runs with it on (Cohort objects and cohort trees)"},
		"unknown gate gives no note":     {name: "Nope", value: true},
		"playground-only gate simulated": {name: GateRefreshAssignmentsDuringSchedulingCycle, value: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, GateNote(tc.name, tc.value)); diff != "" {
				t.Errorf("GateNote(%q, %t) (-want +got):\n%s", tc.name, tc.value, diff)
			}
		})
	}
}

func TestValidateGateName(t *testing.T) {
	tests := map[string]struct {
		name string
		want string
	}{
		"known":           {name: "TopologyAwareScheduling"},
		"playground only": {name: GateFlavorFungibilityPreferenceAsNamed},
		"typo":            {name: "LendingLimt", want: `unknown feature gate "LendingLimt": not a gate of Kueue v0.16.1 nor of the playground; did you mean "LendingLimit"?`},
		"wrong case":      {name: "partialadmission", want: `unknown feature gate "partialadmission": not a gate of Kueue v0.16.1 nor of the playground; did you mean "PartialAdmission"?`},
		"far from all":    {name: "Xyz", want: `unknown feature gate "Xyz": not a gate of Kueue v0.16.1 nor of the playground`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := ""
			if err := ValidateGateName(tc.name); err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestGateDefaultFast(t *testing.T) {
	for _, g := range Gates() {
		def, ok := gateDefault(g.Name)
		if !ok || def != g.Default {
			t.Errorf("gateDefault(%q) = %t, %t; the table says %t", g.Name, def, ok, g.Default)
		}
	}
	if _, ok := gateDefault("Nope"); ok {
		t.Errorf("gateDefault(Nope) is known")
	}
}
