package flavor

import (
	"testing"

	"github.com/kueueplay/kueueplay/core"
)

// TestIsPreferred pins Kueue v0.16.1's inverted reading of preference
// (flavorassigner_test.go TestIsPreferred) and the two gates that change it.
func TestIsPreferred(t *testing.T) {
	fitBorrowing := Granular{Mode: ModeFit, Borrowing: 1}
	preemptNoBorrow := Granular{Mode: ModePreempt, Borrowing: 0}
	tryNext := core.FlavorFungibility{WhenCanBorrow: core.TryNextFlavor, WhenCanPreempt: core.TryNextFlavor}
	with := func(p core.FlavorFungibilityPreference) core.FlavorFungibility {
		f := tryNext
		f.Preference = p
		return f
	}
	cases := map[string]struct {
		ff    core.FlavorFungibility
		gates core.FeatureGates
		// want is true when the borrowing Fit beats the non-borrowing Preempt.
		want bool
	}{
		"unset: mode first":                                  {ff: tryNext, want: true},
		"PreemptionOverBorrowing (v0.16.1): mode first":      {ff: with(core.PreemptionOverBorrowing), want: true},
		"BorrowingOverPreemption (v0.16.1): borrowing first": {ff: with(core.BorrowingOverPreemption), want: false},
		"PreemptionOverBorrowing as named: borrowing first": {
			ff: with(core.PreemptionOverBorrowing), gates: core.FeatureGates{core.GateFlavorFungibilityPreferenceAsNamed: true}, want: false,
		},
		"BorrowingOverPreemption as named: mode first": {
			ff: with(core.BorrowingOverPreemption), gates: core.FeatureGates{core.GateFlavorFungibilityPreferenceAsNamed: true}, want: true,
		},
		"unset with ImplicitPreferenceDefault and whenCanBorrow TryNextFlavor": {
			ff: tryNext, gates: core.FeatureGates{core.GateFlavorFungibilityImplicitPreferenceDefault: true}, want: false,
		},
		"unset with ImplicitPreferenceDefault and whenCanBorrow MayStopSearch": {
			ff:    core.FlavorFungibility{WhenCanBorrow: core.MayStopSearch, WhenCanPreempt: core.TryNextFlavor},
			gates: core.FeatureGates{core.GateFlavorFungibilityImplicitPreferenceDefault: true}, want: true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ord := preferenceOrder(tc.ff, tc.gates)
			if got := isPreferred(fitBorrowing, preemptNoBorrow, ord); got != tc.want {
				t.Errorf("isPreferred(Fit+borrow, Preempt) = %t, want %t (order: %s)", got, tc.want, ord)
			}
			if isPreferred(fitBorrowing, fitBorrowing, ord) {
				t.Error("a mode is never strictly preferred over itself")
			}
			if isPreferred(Granular{Mode: ModeNoFit}, preemptNoBorrow, ord) || !isPreferred(preemptNoBorrow, Granular{Mode: ModeNoFit}, ord) {
				t.Error("NoFit must lose against anything")
			}
		})
	}
}

// TestShouldTryNextFlavor is the KEP-582 continue/break table.
func TestShouldTryNextFlavor(t *testing.T) {
	stop := core.FlavorFungibility{WhenCanBorrow: core.MayStopSearch, WhenCanPreempt: core.MayStopSearch}
	next := core.FlavorFungibility{WhenCanBorrow: core.TryNextFlavor, WhenCanPreempt: core.TryNextFlavor}
	cases := map[string]struct {
		mode Granular
		ff   core.FlavorFungibility
		want bool
	}{
		"NoFit, any":                              {Granular{Mode: ModeNoFit}, stop, true},
		"no candidates, any":                      {Granular{Mode: ModeNoCandidates}, stop, true},
		"Preempt no borrow, TryNextFlavor":        {Granular{Mode: ModePreempt}, next, true},
		"Preempt no borrow, MayStopSearch":        {Granular{Mode: ModePreempt}, stop, false},
		"Reclaim no borrow, MayStopSearch":        {Granular{Mode: ModeReclaim}, stop, false},
		"Fit borrow, TryNextFlavor":               {Granular{Mode: ModeFit, Borrowing: 1}, next, true},
		"Fit borrow, MayStopSearch":               {Granular{Mode: ModeFit, Borrowing: 1}, stop, false},
		"Fit no borrow, TryNextFlavor everywhere": {Granular{Mode: ModeFit}, next, false},
		"Preempt borrowing, whenCanBorrow TryNextFlavor": {
			Granular{Mode: ModePreempt, Borrowing: 1}, core.FlavorFungibility{WhenCanBorrow: core.TryNextFlavor, WhenCanPreempt: core.MayStopSearch}, true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, rule := shouldTryNextFlavor(tc.mode, tc.ff)
			if got != tc.want {
				t.Errorf("shouldTryNextFlavor = %t (%s), want %t", got, rule, tc.want)
			}
		})
	}
}
