// Package flavor assigns a ResourceFlavor to every resource of every pod set
// of a workload, with flavor fungibility (KEP-582). It mirrors
// sigs.k8s.io/kueue/pkg/scheduler/flavorassigner (Kueue v0.16.1) and records
// every flavor it judged in trace.GroupAttempt values.
package flavor

import (
	"fmt"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/trace"
)

// Mode is the public assignment mode. Ordered from lowest to highest
// preference (flavorassigner.FlavorAssignmentMode).
type Mode int

const (
	NoFit Mode = iota
	Preempt
	Fit
)

func (m Mode) String() string {
	switch m {
	case NoFit:
		return "NoFit"
	case Preempt:
		return "Preempt"
	case Fit:
		return "Fit"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// PreemptionMode is the granular mode the assigner uses internally,
// ordered from worst to best (flavorassigner.preemptionMode).
type PreemptionMode int

const (
	ModeNoFit PreemptionMode = iota
	// ModeNoCandidates: preemption could make room, but the simulation
	// found no targets.
	ModeNoCandidates
	// ModePreempt: targets include workloads of the same ClusterQueue.
	ModePreempt
	// ModeReclaim: every target is in another ClusterQueue.
	ModeReclaim
	ModeFit
)

func (m PreemptionMode) String() string {
	switch m {
	case ModeNoFit:
		return "NoFit"
	case ModeNoCandidates:
		return "NoCandidates"
	case ModePreempt:
		return "Preempt"
	case ModeReclaim:
		return "Reclaim"
	case ModeFit:
		return "Fit"
	}
	return fmt.Sprintf("PreemptionMode(%d)", int(m))
}

// Public maps a granular mode to the public one
// (preemptionMode.flavorAssignmentMode).
func (m PreemptionMode) Public() Mode {
	switch m {
	case ModeNoFit:
		return NoFit
	case ModeFit:
		return Fit
	}
	return Preempt
}

// Granular pairs a preemption mode with a borrowing level (0: within the
// ClusterQueue's nominal quota; higher: capacity from a more distant
// cohort).
type Granular struct {
	Mode      PreemptionMode
	Borrowing int
}

func worstGranular() Granular { return Granular{Mode: ModeNoFit, Borrowing: int(^uint(0) >> 1)} }
func bestGranular() Granular  { return Granular{Mode: ModeFit} }

func (g Granular) isPreemptMode() bool { return g.Mode == ModePreempt || g.Mode == ModeReclaim }

// order names the comparison isPreferred applies.
type order int

const (
	// modeFirst compares the preemption mode first, then the borrowing
	// level. Kueue's code calls this closure borrowingOverPreemption.
	modeFirst order = iota
	// borrowingFirst compares the borrowing level first, then the mode.
	// Kueue's code calls this closure preemptionOverBorrowing.
	borrowingFirst
)

func (o order) String() string {
	if o == modeFirst {
		return "mode first, then borrowing level"
	}
	return "borrowing level first, then mode"
}

// preferenceOrder returns the comparison used for a ClusterQueue.
//
// Kueue v0.16.1 (flavorassigner.isPreferred) applies the preference
// inverted relative to its name: unset and PreemptionOverBorrowing compare
// the mode first (so a borrowing Fit beats a Preempt without borrowing),
// BorrowingOverPreemption compares the borrowing level first. With gate
// FlavorFungibilityPreferenceAsNamed each value means what its name says:
// BorrowingOverPreemption compares the mode first, PreemptionOverBorrowing
// the borrowing level first. With gate
// FlavorFungibilityImplicitPreferenceDefault and preference unset, the
// KEP-582 alternative order (no borrowing first) applies whenever
// whenCanBorrow is TryNextFlavor.
func preferenceOrder(ff core.FlavorFungibility, gates core.FeatureGates) order {
	switch ff.Preference {
	case core.BorrowingOverPreemption:
		if gates.Enabled(core.GateFlavorFungibilityPreferenceAsNamed) {
			return modeFirst
		}
		return borrowingFirst
	case core.PreemptionOverBorrowing:
		if gates.Enabled(core.GateFlavorFungibilityPreferenceAsNamed) {
			return borrowingFirst
		}
		return modeFirst
	}
	if gates.Enabled(core.GateFlavorFungibilityImplicitPreferenceDefault) && ff.WhenCanBorrow == core.TryNextFlavor {
		return borrowingFirst
	}
	return modeFirst
}

// v0161Order is the order Kueue v0.16.1 uses, whatever the gates say.
func v0161Order(ff core.FlavorFungibility) order {
	if ff.Preference == core.BorrowingOverPreemption {
		return borrowingFirst
	}
	return modeFirst
}

// namedOrder is the order the preference's name describes.
func namedOrder(ff core.FlavorFungibility) order {
	if ff.Preference == core.PreemptionOverBorrowing {
		return borrowingFirst
	}
	return modeFirst
}

// isPreferred reports whether a is strictly better than b
// (flavorassigner.isPreferred).
// Not inlined: one copy of its code serves its callers (the size of
// the page's WebAssembly).
//
//go:noinline
func isPreferred(a, b Granular, o order) bool {
	if a.Mode == ModeNoFit {
		return false
	}
	if b.Mode == ModeNoFit {
		return true
	}
	if o == modeFirst {
		if a.Mode != b.Mode {
			return a.Mode > b.Mode
		}
		return a.Borrowing < b.Borrowing
	}
	if a.Borrowing != b.Borrowing {
		return a.Borrowing < b.Borrowing
	}
	return a.Mode > b.Mode
}

// shouldTryNextFlavor is the KEP-582 table (flavorassigner.shouldTryNextFlavor):
// it returns whether to continue and the rule that decided it.
func shouldTryNextFlavor(g Granular, ff core.FlavorFungibility) (bool, trace.Rule) {
	if g.Mode == ModeNoFit {
		return true, trace.RuleNoFit
	}
	if g.Mode == ModeNoCandidates {
		return true, trace.RuleNoCandidates
	}
	if g.isPreemptMode() && ff.WhenCanPreempt == core.TryNextFlavor {
		return true, trace.RulePreemptTryNext
	}
	if g.Borrowing > 0 && ff.WhenCanBorrow == core.TryNextFlavor {
		return true, trace.RuleBorrowTryNext
	}
	switch {
	case g.Mode == ModeFit && g.Borrowing == 0:
		return false, trace.RuleFitStop
	case g.Mode == ModeFit:
		return false, trace.RuleBorrowStop
	case g.Borrowing == 0:
		return false, trace.RulePreemptStop
	default:
		return false, trace.RulePreemptBorrowStop
	}
}
