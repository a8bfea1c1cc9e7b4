package view

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/sim"
)

func TestSettingsSet(t *testing.T) {
	cases := []struct {
		name, key, value string
		want             Settings
		wantErr          string
	}{
		{name: "fungibility", key: "whenCanPreempt", value: "MayStopSearch", want: Settings{WhenCanPreempt: "MayStopSearch"}},
		{name: "clear", key: "whenCanPreempt", value: "", want: Settings{}},
		{name: "reclaim any", key: "reclaimWithinCohort", value: "Any", want: Settings{ReclaimWithinCohort: "Any"}},
		{name: "within any is not Kueue's", key: "withinClusterQueue", value: "Any", wantErr: `setting withinClusterQueue: "Any" is not one of Never, LowerPriority, LowerOrNewerEqualPriority`},
		{name: "v1beta1 spelling refused", key: "whenCanBorrow", value: "Borrow", wantErr: `"Borrow" is not one of MayStopSearch, TryNextFlavor`},
		{name: "unknown key", key: "fairSharing", value: "x", wantErr: `unknown setting "fairSharing"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var s Settings
			err := s.Set(tc.key, tc.value)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Set(%q, %q) = %v, want an error containing %q", tc.key, tc.value, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, s); diff != "" {
				t.Errorf("Set (-want +got):\n%s", diff)
			}
			if got := s.Get(tc.key); got != tc.value {
				t.Errorf("Get(%q) = %q, want %q", tc.key, got, tc.value)
			}
		})
	}
}

func TestSettingsApply(t *testing.T) {
	sc := decodeScenario(t, "kep582-story1-preempt-before-spot")
	before := make([]core.FlavorFungibility, len(sc.ClusterQueues))
	for i, cq := range sc.ClusterQueues {
		before[i] = cq.FlavorFungibility
	}

	same, err := Settings{}.Apply(sc)
	if err != nil || same != sc {
		t.Fatalf("Apply with no settings = %p, %v; want the scenario itself", same, err)
	}

	got, err := Settings{WhenCanPreempt: "TryNextFlavor", ReclaimWithinCohort: "Any"}.Apply(sc)
	if err != nil {
		t.Fatal(err)
	}
	for i, cq := range got.ClusterQueues {
		if cq.FlavorFungibility.WhenCanPreempt != core.TryNextFlavor || cq.Preemption.ReclaimWithinCohort != core.PreemptionAny {
			t.Errorf("%s: fungibility %+v, preemption %+v: settings not applied", cq.Name, cq.FlavorFungibility, cq.Preemption)
		}
		if cq.FlavorFungibility.WhenCanBorrow != sc.ClusterQueues[i].FlavorFungibility.WhenCanBorrow {
			t.Errorf("%s: whenCanBorrow changed although not set", cq.Name)
		}
	}
	for i, cq := range sc.ClusterQueues {
		if cq.FlavorFungibility != before[i] {
			t.Errorf("Apply modified its input: %s is now %+v", cq.Name, cq.FlavorFungibility)
		}
	}

	// The story's point: whenCanPreempt decides whether the high-priority
	// job preempts on on-demand or goes to spot. Setting it for every
	// queue changes the run.
	stop, _ := Settings{WhenCanPreempt: "MayStopSearch"}.Apply(sc)
	next, _ := Settings{WhenCanPreempt: "TryNextFlavor"}.Apply(sc)
	if d := FirstDifference(sim.Run(stop, sim.Options{}), sim.Run(next, sim.Options{})); d == nil {
		t.Error("whenCanPreempt MayStopSearch and TryNextFlavor for every queue gave the same run")
	}
}

func TestSettingsApplyInvalidCombination(t *testing.T) {
	sc := decodeScenario(t, "default")
	cases := []struct {
		name    string
		s       Settings
		wantErr string
	}{
		{name: "preference needs TryNextFlavor", s: Settings{Preference: "BorrowingOverPreemption", WhenCanBorrow: "MayStopSearch", WhenCanPreempt: "TryNextFlavor"},
			wantErr: "preference BorrowingOverPreemption needs whenCanBorrow and whenCanPreempt TryNextFlavor (they are MayStopSearch and TryNextFlavor)"},
		{name: "borrowWithinCohort needs reclaim", s: Settings{ReclaimWithinCohort: "Never", BorrowWithinCohort: "LowerPriority"},
			wantErr: "borrowWithinCohort LowerPriority needs reclaimWithinCohort LowerPriority or Any"},
		{name: "valid preference", s: Settings{Preference: "PreemptionOverBorrowing", WhenCanBorrow: "TryNextFlavor", WhenCanPreempt: "TryNextFlavor"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.s.Apply(sc)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.HasPrefix(err.Error(), "ClusterQueue ") {
				t.Fatalf("Apply = %v, want an error naming the ClusterQueue and containing %q", err, tc.wantErr)
			}
		})
	}
}

func TestGatesAndSettingsText(t *testing.T) {
	cases := []struct {
		name     string
		gates    string
		settings string
		wantG    map[string]bool
		wantS    Settings
		wantErr  string
	}{
		{name: "empty"},
		{name: "both", gates: "RefreshAssignmentsDuringSchedulingCycle=true,LendingLimit=false", settings: "whenCanPreempt=MayStopSearch,reclaimWithinCohort=Any",
			wantG: map[string]bool{"RefreshAssignmentsDuringSchedulingCycle": true, "LendingLimit": false},
			wantS: Settings{WhenCanPreempt: "MayStopSearch", ReclaimWithinCohort: "Any"}},
		{name: "spaces", gates: " LendingLimit=true ", settings: "whenCanPreempt=MayStopSearch, preference=PreemptionOverBorrowing",
			wantG: map[string]bool{"LendingLimit": true},
			wantS: Settings{WhenCanPreempt: "MayStopSearch", Preference: "PreemptionOverBorrowing"}},
		{name: "unknown gate", gates: "NoSuchGate=true", wantErr: "NoSuchGate"},
		{name: "gate without value", gates: "LendingLimit", wantErr: "want Name=true or Name=false"},
		{name: "gate bad value", gates: "LendingLimit=yes", wantErr: `LendingLimit="yes": want true or false`},
		{name: "setting bad value", settings: "whenCanPreempt=Preempt", wantErr: `"Preempt" is not one of`},
		{name: "setting without value", settings: "whenCanPreempt", wantErr: "want key=value"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g, gerr := ParseGates(tc.gates)
			s, serr := ParseSettings(tc.settings)
			err := gerr
			if err == nil {
				err = serr
			}
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("parse = %v, want an error containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.wantG, g); diff != "" {
				t.Errorf("ParseGates (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantS, s); diff != "" {
				t.Errorf("ParseSettings (-want +got):\n%s", diff)
			}
			// Round trip through the writers.
			g2, _ := ParseGates(FormatGates(g))
			s2, _ := ParseSettings(s.String())
			if diff := cmp.Diff(g, g2); diff != "" {
				t.Errorf("gates round trip (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(s, s2); diff != "" {
				t.Errorf("settings round trip (-want +got):\n%s", diff)
			}
		})
	}
}

func TestVariantLabel(t *testing.T) {
	cases := []struct {
		name string
		v    Variant
		want string
	}{
		{name: "nothing", want: "as written"},
		{name: "gates by name", v: Variant{Gates: map[string]bool{"b": true, "a": false}}, want: "a=false,b=true"},
		{name: "gates then settings", v: Variant{Gates: map[string]bool{"LendingLimit": false}, Settings: Settings{WhenCanBorrow: "TryNextFlavor"}},
			want: "LendingLimit=false, whenCanBorrow=TryNextFlavor"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.v.Label(); got != tc.want {
				t.Errorf("Label() = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestAlignStep(t *testing.T) {
	off := New(run(t, "kep4378-horizontal-stall-gate-off", core.FeatureGates{core.GateRefreshAssignmentsDuringSchedulingCycle: false}))
	on := New(run(t, "kep4378-horizontal-stall-gate-off", core.FeatureGates{core.GateRefreshAssignmentsDuringSchedulingCycle: true}))
	for _, pair := range [][2]*Model{{off, on}, {on, off}, {off, off}} {
		from, to := pair[0], pair[1]
		for i := range from.Len() {
			j := AlignStep(from, to, i)
			fs, ts := from.Trace().Steps[i], to.Trace().Steps[j]
			if ts.Cycle > fs.Cycle || ts.TimeMs > fs.TimeMs {
				t.Fatalf("AlignStep(%d) = %d: step at cycle %d, %dms is past cycle %d, %dms", i, j, ts.Cycle, ts.TimeMs, fs.Cycle, fs.TimeMs)
			}
			if j+1 < to.Len() {
				if next := to.Trace().Steps[j+1]; next.Cycle <= fs.Cycle && next.TimeMs <= fs.TimeMs && (next.Cycle != fs.Cycle || next.TimeMs != fs.TimeMs) {
					t.Fatalf("AlignStep(%d) = %d, but step %d (cycle %d, %dms) is not past it either", i, j, j+1, next.Cycle, next.TimeMs)
				}
			}
			if from == to && j != i {
				t.Fatalf("AlignStep of a run onto itself: %d -> %d", i, j)
			}
		}
	}
	if got := AlignStep(off, New(run(t, "default", nil)), 1<<30); got < 0 {
		t.Errorf("AlignStep past the end = %d", got)
	}
}
