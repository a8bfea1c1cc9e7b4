package view

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseLocation(t *testing.T) {
	cases := []struct {
		name    string
		query   string
		want    Location
		wantOK  bool
		wantErr string
		// wantQuery is Query() of the result when it differs from query.
		wantQuery string
	}{
		{name: "no example", query: "?step=3"},
		{name: "example", query: "?example=default", want: Location{Example: "default"}, wantOK: true},
		{name: "yaml suffix dropped", query: "example=default.yaml&step=0", want: Location{Example: "default"}, wantOK: true, wantQuery: "?example=default"},
		{name: "everything",
			query: "?example=kep4378-claims-gate-off&step=7&gates=RefreshAssignmentsDuringSchedulingCycle=true&settings=whenCanPreempt=MayStopSearch,reclaimWithinCohort=Any&compare=1&cgates=LendingLimit=false&csettings=whenCanBorrow=TryNextFlavor",
			want: Location{Example: "kep4378-claims-gate-off", Step: 7,
				Variant: Variant{Gates: map[string]bool{"RefreshAssignmentsDuringSchedulingCycle": true}, Settings: Settings{WhenCanPreempt: "MayStopSearch", ReclaimWithinCohort: "Any"}},
				Compare: &Variant{Gates: map[string]bool{"LendingLimit": false}, Settings: Settings{WhenCanBorrow: "TryNextFlavor"}}},
			wantOK: true},
		{name: "compare without variant", query: "?example=default&compare=1", want: Location{Example: "default", Compare: &Variant{}}, wantOK: true},
		{name: "escaped", query: "?example=default&gates=LendingLimit%3Dfalse", want: Location{Example: "default", Variant: Variant{Gates: map[string]bool{"LendingLimit": false}}}, wantOK: true,
			wantQuery: "?example=default&gates=LendingLimit=false"},
		{name: "path traversal", query: "?example=../etc/passwd", wantErr: "not an example name"},
		{name: "html", query: "?example=%3Cimg%20onerror%3D1%3E", wantErr: "not an example name"},
		{name: "bad step keeps the example", query: "?example=default&step=-2", want: Location{Example: "default"}, wantOK: true, wantErr: `step "-2"`},
		{name: "bad gate keeps the rest", query: "?example=default&step=2&gates=Nope=true", want: Location{Example: "default", Step: 2}, wantOK: true, wantErr: "Nope"},
		{name: "bad compare setting", query: "?example=default&compare=1&csettings=whenCanBorrow=x", want: Location{Example: "default", Compare: &Variant{}}, wantOK: true, wantErr: "csettings"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok, err := ParseLocation(tc.query)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("error = %v, want one containing %q", err, tc.wantErr)
				}
			} else if err != nil {
				t.Errorf("error = %v", err)
			}
			if ok != tc.wantOK {
				t.Fatalf("ok = %t, want %t", ok, tc.wantOK)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ParseLocation (-want +got):\n%s", diff)
			}
			if !ok || tc.wantErr != "" {
				return
			}
			want := tc.wantQuery
			if want == "" {
				want = "?" + strings.TrimPrefix(tc.query, "?")
			}
			if q := got.Query(); q != want {
				t.Errorf("Query() = %q, want %q", q, want)
			}
			again, _, err := ParseLocation(got.Query())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(got, again); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
		})
	}
}

func TestValidExampleName(t *testing.T) {
	for name, want := range map[string]bool{
		"default": true, "kep4378-claims-gate-on": true, "a.b": true,
		"": false, "-x": false, ".x": false, "a..b": false, "A": false, "a/b": false, "a b": false,
		strings.Repeat("a", 100): true, strings.Repeat("a", 101): false,
	} {
		if got := ValidExampleName(name); got != want {
			t.Errorf("ValidExampleName(%q) = %t, want %t", name, got, want)
		}
	}
}

func TestSharedValidate(t *testing.T) {
	cases := []struct {
		name    string
		s       Shared
		wantErr string
	}{
		{name: "empty"},
		{name: "full", s: Shared{Scenario: "x", Step: 3, Gates: map[string]bool{"LendingLimit": false}, Settings: Settings{Preference: "PreemptionOverBorrowing"},
			Compare: &Variant{Gates: map[string]bool{"RefreshAssignmentsDuringSchedulingCycle": true}}}},
		{name: "negative step", s: Shared{Step: -1}, wantErr: "below 0"},
		{name: "bad example", s: Shared{Example: "../x"}, wantErr: "not an example name"},
		{name: "unknown gate", s: Shared{Gates: map[string]bool{"Nope": true}}, wantErr: "Nope"},
		{name: "bad setting", s: Shared{Settings: Settings{WhenCanBorrow: "<b>"}}, wantErr: `"<b>" is not one of`},
		{name: "bad compare gate", s: Shared{Compare: &Variant{Gates: map[string]bool{"Nope": true}}}, wantErr: "compare gates"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.s.Validate()
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
			} else if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("Validate() = %v, want an error containing %q", err, tc.wantErr)
			}
			// Every field survives a share link.
			back, err := SharedFromJSON(FragmentJSON(tc.s))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.s, back); diff != "" {
				t.Errorf("fragment round trip (-want +got):\n%s", diff)
			}
		})
	}
}
