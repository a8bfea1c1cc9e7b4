package view

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/trace"
)

// Settings override the flavor fungibility and preemption policies of every
// ClusterQueue of a scenario, so that the playground can answer "what if
// every queue used whenCanPreempt: MayStopSearch?" without editing the
// YAML. An empty field keeps each ClusterQueue's own value.
type Settings struct {
	WhenCanBorrow       string `json:"whenCanBorrow,omitempty"`
	WhenCanPreempt      string `json:"whenCanPreempt,omitempty"`
	Preference          string `json:"preference,omitempty"`
	WithinClusterQueue  string `json:"withinClusterQueue,omitempty"`
	ReclaimWithinCohort string `json:"reclaimWithinCohort,omitempty"`
	BorrowWithinCohort  string `json:"borrowWithinCohort,omitempty"`
}

// SettingSpec describes one field of Settings for a form: its key (the JSON
// name, also used in URLs), the field path it overrides and the values it
// accepts.
type SettingSpec struct {
	Key    string
	Field  string
	Values []string
}

// SettingSpecs lists the settings in the order a form shows them.
func SettingSpecs() []SettingSpec {
	fungibility := []string{string(core.MayStopSearch), string(core.TryNextFlavor)}
	never, lower := string(core.PreemptionNever), string(core.PreemptionLowerPriority)
	return []SettingSpec{
		{Key: "whenCanBorrow", Field: "spec.flavorFungibility.whenCanBorrow", Values: fungibility},
		{Key: "whenCanPreempt", Field: "spec.flavorFungibility.whenCanPreempt", Values: fungibility},
		{Key: "preference", Field: "spec.flavorFungibility.preference",
			Values: []string{string(core.BorrowingOverPreemption), string(core.PreemptionOverBorrowing)}},
		// The values Kueue's API accepts for each field (core/scenario
		// validates files the same way).
		{Key: "withinClusterQueue", Field: "spec.preemption.withinClusterQueue",
			Values: []string{never, lower, string(core.PreemptionLowerOrNewerEqualPriority)}},
		{Key: "reclaimWithinCohort", Field: "spec.preemption.reclaimWithinCohort",
			Values: []string{never, lower, string(core.PreemptionAny)}},
		{Key: "borrowWithinCohort", Field: "spec.preemption.borrowWithinCohort.policy",
			Values: []string{never, lower}},
	}
}

func (s *Settings) field(key string) *string {
	switch key {
	case "whenCanBorrow":
		return &s.WhenCanBorrow
	case "whenCanPreempt":
		return &s.WhenCanPreempt
	case "preference":
		return &s.Preference
	case "withinClusterQueue":
		return &s.WithinClusterQueue
	case "reclaimWithinCohort":
		return &s.ReclaimWithinCohort
	case "borrowWithinCohort":
		return &s.BorrowWithinCohort
	}
	return nil
}

// Get returns the setting's value ("" when not overridden or unknown).
func (s Settings) Get(key string) string {
	if p := s.field(key); p != nil {
		return *p
	}
	return ""
}

// Set sets one setting; "" clears it. An unknown key or value is an error
// that names the accepted ones.
func (s *Settings) Set(key, value string) error {
	for _, spec := range SettingSpecs() {
		if spec.Key != key {
			continue
		}
		next := *s
		*next.field(key) = value
		if err := next.Validate(); err != nil {
			return err
		}
		*s = next
		return nil
	}
	keys := make([]string, 0, 6)
	for _, spec := range SettingSpecs() {
		keys = append(keys, spec.Key)
	}
	return fmt.Errorf("unknown setting %q (known: %s)", key, strings.Join(keys, ", "))
}

// Validate checks every value against SettingSpecs (what Set accepts).
func (s Settings) Validate() error {
	for _, spec := range SettingSpecs() {
		if v := s.Get(spec.Key); v != "" && !slices.Contains(spec.Values, v) {
			return fmt.Errorf("setting %s: %q is not one of %s", spec.Key, v, strings.Join(spec.Values, ", "))
		}
	}
	return nil
}

// IsZero reports whether nothing is overridden.
func (s Settings) IsZero() bool { return s == Settings{} }

// String lists the overridden settings as "key=value" joined with ", ",
// in SettingSpecs order.
func (s Settings) String() string {
	var parts []string
	for _, spec := range SettingSpecs() {
		if v := s.Get(spec.Key); v != "" {
			parts = append(parts, spec.Key+"="+v)
		}
	}
	return strings.Join(parts, ", ")
}

// Apply returns sc with the settings applied to every ClusterQueue. sc is
// not modified: the result shares everything with sc but its ClusterQueues
// slice. With no setting it returns sc itself. A combination Kueue's
// validation would reject for some ClusterQueue (a preference without
// TryNextFlavor on both policies; borrowWithinCohort other than Never with
// reclaimWithinCohort Never) is an error naming the first such queue.
func (s Settings) Apply(sc *core.Scenario) (*core.Scenario, error) {
	if s.IsZero() || sc == nil {
		return sc, nil
	}
	out := *sc
	out.ClusterQueues = slices.Clone(sc.ClusterQueues)
	for i := range out.ClusterQueues {
		cq := &out.ClusterQueues[i]
		if s.WhenCanBorrow != "" {
			cq.FlavorFungibility.WhenCanBorrow = core.FlavorFungibilityPolicy(s.WhenCanBorrow)
		}
		if s.WhenCanPreempt != "" {
			cq.FlavorFungibility.WhenCanPreempt = core.FlavorFungibilityPolicy(s.WhenCanPreempt)
		}
		if s.Preference != "" {
			cq.FlavorFungibility.Preference = core.FlavorFungibilityPreference(s.Preference)
		}
		if s.WithinClusterQueue != "" {
			cq.Preemption.WithinClusterQueue = core.PreemptionPolicy(s.WithinClusterQueue)
		}
		if s.ReclaimWithinCohort != "" {
			cq.Preemption.ReclaimWithinCohort = core.PreemptionPolicy(s.ReclaimWithinCohort)
		}
		if s.BorrowWithinCohort != "" {
			cq.Preemption.BorrowWithinCohort = core.PreemptionPolicy(s.BorrowWithinCohort)
		}
		ff, pr := cq.FlavorFungibility, cq.Preemption
		if ff.Preference != "" && (ff.WhenCanBorrow != core.TryNextFlavor || ff.WhenCanPreempt != core.TryNextFlavor) {
			return nil, fmt.Errorf("ClusterQueue %s: preference %s needs whenCanBorrow and whenCanPreempt TryNextFlavor (they are %s and %s)",
				cq.Name, ff.Preference, ff.WhenCanBorrow, ff.WhenCanPreempt)
		}
		if pr.ReclaimWithinCohort == core.PreemptionNever && pr.BorrowWithinCohort != core.PreemptionNever {
			return nil, fmt.Errorf("ClusterQueue %s: borrowWithinCohort %s needs reclaimWithinCohort LowerPriority or Any (it is Never)",
				cq.Name, pr.BorrowWithinCohort)
		}
	}
	return &out, nil
}

// Variant is one way of running a scenario: feature gate overrides and
// settings. Compare mode runs two.
type Variant struct {
	Gates    map[string]bool `json:"gates,omitempty"`
	Settings Settings        `json:"settings,omitzero"`
}

// IsZero reports whether the variant changes nothing.
func (v Variant) IsZero() bool { return len(v.Gates) == 0 && v.Settings.IsZero() }

// Label names the variant in a few words: "RefreshAssignmentsDuringSchedulingCycle=true,
// whenCanPreempt=TryNextFlavor", or "as written" when it changes nothing.
func (v Variant) Label() string {
	var parts []string
	if g := FormatGates(v.Gates); g != "" {
		parts = append(parts, g)
	}
	if s := v.Settings.String(); s != "" {
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "as written"
	}
	return strings.Join(parts, ", ")
}

// Clone returns a deep copy.
func (v Variant) Clone() Variant {
	v.Gates = maps.Clone(v.Gates)
	return v
}

// FormatGates writes gates as "A=true,B=false", by name.
func FormatGates(gates map[string]bool) string {
	names := slices.Sorted(maps.Keys(gates))
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s=%t", n, gates[n])
	}
	return strings.Join(parts, ",")
}

// ParseGates reads "A=true,B=false" (FormatGates, and the syntax of
// Kubernetes' --feature-gates flag). Gate names must be known
// (core.ValidateGateName); values are true or false. An empty string gives
// nil.
func ParseGates(s string) (map[string]bool, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	out := map[string]bool{}
	for part := range strings.SplitSeq(s, ",") {
		name, value, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return nil, fmt.Errorf("gates: %q: want Name=true or Name=false", part)
		}
		if err := core.ValidateGateName(name); err != nil {
			return nil, fmt.Errorf("gates: %w", err)
		}
		switch value {
		case "true":
			out[name] = true
		case "false":
			out[name] = false
		default:
			return nil, fmt.Errorf("gates: %s=%q: want true or false", name, value)
		}
	}
	return out, nil
}

// ParseSettings reads "key=value,key=value" (Settings.String without the
// spaces is accepted too).
func ParseSettings(s string) (Settings, error) {
	var out Settings
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		key, value, ok := strings.Cut(part, "=")
		if !ok || value == "" {
			return Settings{}, fmt.Errorf("settings: %q: want key=value", part)
		}
		if err := out.Set(key, value); err != nil {
			return Settings{}, err
		}
	}
	return out, nil
}

// AlignStep maps step i of the run from onto the run to: the last step of to
// whose cycle and time are at or before step i's (the moment the other run
// had reached), so that Compare mode shows both sides at the same point.
// Several steps may share a cycle and a time (the initial step and the
// arrivals at 0s): the k-th of them in from maps to the k-th in to, or the
// last there is. So a run aligned with itself maps every step to itself.
// The result is in [0, to.Len()-1], or 0 when to has no steps.
func AlignStep(from, to *Model, i int) int {
	fs, ts := from.tr.Steps, to.tr.Steps
	if len(fs) == 0 || len(ts) == 0 {
		return 0
	}
	i = max(0, min(i, len(fs)-1))
	at := fs[i]
	same := func(s trace.Step) bool { return s.Cycle == at.Cycle && s.TimeMs == at.TimeMs }
	k := 0
	for i-k-1 >= 0 && same(fs[i-k-1]) {
		k++
	}
	// Steps are ordered by (cycle, time); find the first step past at.
	end := sort.Search(len(ts), func(j int) bool {
		s := ts[j]
		return s.Cycle > at.Cycle || s.TimeMs > at.TimeMs
	})
	start := end
	for start > 0 && same(ts[start-1]) {
		start--
	}
	if start < end {
		return min(start+k, end-1)
	}
	return max(0, end-1)
}
