package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core"
)

// FuzzDecode checks that no input makes Decode panic, and that its result
// is well formed and deterministic. The seed corpus is in
// testdata/fuzz/FuzzDecode plus the testdata/*.yaml fixtures, three Kueue
// Configurations (one in a ConfigMap), the job kinds of testdata/kinds,
// the corpus of real input (testdata/real at the module root: Kueue's
// examples and kubectl dumps) and the hostile-input suite's files
// (testdata/hostile).
func FuzzDecode(f *testing.F) {
	for _, name := range []string{"kubectl-list.yaml", "v1beta1.yaml", "jobs.yaml", "config/kubectl-get-cm.yaml", "config/quotas-transformations.yaml", "config/hami.yaml"} {
		data, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	hostile, err := filepath.Glob("../../testdata/hostile/*.yaml")
	if err != nil || len(hostile) == 0 {
		f.Fatalf("no hostile-input files under testdata/hostile (%v)", err)
	}
	kinds, _ := filepath.Glob("testdata/kinds/*.yaml")
	real, _ := filepath.Glob("../../testdata/real/*/*.yaml")
	if len(kinds) == 0 || len(real) == 0 {
		f.Fatalf("no seeds under testdata/kinds or testdata/real")
	}
	for _, name := range slices.Concat(hostile, kinds, real) {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := Decode("f.yaml", data)
		if (sc == nil) == (err == nil) {
			t.Fatalf("Decode returned scenario %v and error %v", sc != nil, err)
		}
		var diags []core.Diagnostic
		if err != nil {
			var de *core.DiagnosticsError
			if !errors.As(err, &de) {
				t.Fatalf("error %T is not a *core.DiagnosticsError", err)
			}
			if !slices.ContainsFunc(de.Diagnostics, func(d core.Diagnostic) bool { return d.Severity == core.SeverityError }) {
				t.Fatalf("DiagnosticsError without an error: %v", de)
			}
			diags = de.Diagnostics
		} else {
			diags = sc.Warnings
			for _, d := range diags {
				if d.Severity != core.SeverityWarning {
					t.Fatalf("Scenario.Warnings holds %v", d)
				}
			}
		}
		for i, d := range diags {
			if d.Pos.Line < 1 || d.Pos.Col < 1 || d.Pos.File != "f.yaml" {
				t.Errorf("diagnostic without a position: %v", d)
			}
			for _, s := range []string{d.Object, d.Field, d.Message} {
				if strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) || !utf8.ValidString(s) {
					t.Errorf("diagnostic echoes a non-printable character: %q", s)
				}
				if utf8.RuneCountInString(s) > maxEchoedMessage+40 {
					t.Errorf("diagnostic of %d characters", utf8.RuneCountInString(s))
				}
			}
			if i > 0 && (diags[i-1].Pos.Line > d.Pos.Line ||
				diags[i-1].Pos.Line == d.Pos.Line && diags[i-1].Pos.Col > d.Pos.Col) {
				t.Errorf("diagnostics out of order: %v before %v", diags[i-1], d)
			}
		}
		sc2, err2 := Decode("f.yaml", data)
		if diff := cmp.Diff(sc, sc2); diff != "" {
			t.Errorf("second Decode differs (-first +second):\n%s", diff)
		}
		if (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() {
			t.Errorf("second Decode error differs: %v / %v", err, err2)
		}
	})
}
