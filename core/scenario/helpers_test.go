package scenario

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core"
)

// diag is a diagnostic in the compact form the tests compare: At is
// "file:line:col", Msg a substring of the message.
type diag struct {
	At     string
	Object string
	Field  string
	Msg    string
}

const testFile = "t.yaml"

// decode runs Decode on in and returns the scenario (nil on error) and
// every diagnostic.
func decode(t *testing.T, in string) (*core.Scenario, []core.Diagnostic) {
	t.Helper()
	sc, err := Decode(testFile, []byte(in))
	if err != nil {
		var de *core.DiagnosticsError
		if !errors.As(err, &de) {
			t.Fatalf("Decode returned %T, want *core.DiagnosticsError: %v", err, err)
		}
		if sc != nil {
			t.Errorf("Decode returned a scenario with an error")
		}
		return nil, de.Diagnostics
	}
	return sc, sc.Warnings
}

// decodeFile decodes a file under testdata/ and fails on any error.
func decodeFile(t *testing.T, name string) *core.Scenario {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := Decode(name, data)
	if err != nil {
		t.Fatalf("Decode(%s): %v", name, err)
	}
	return sc
}

// compact keeps the diagnostics of one severity.
func compact(diags []core.Diagnostic, sev core.Severity) []diag {
	var out []diag
	for _, d := range diags {
		if d.Severity != sev {
			continue
		}
		out = append(out, diag{
			At:     fmt.Sprintf("%s:%d:%d", d.Pos.File, d.Pos.Line, d.Pos.Col),
			Object: d.Object,
			Field:  d.Field,
			Msg:    d.Message,
		})
	}
	return out
}

// diffDiags compares want with got, where want[i].Msg need only be a
// substring of got[i].Msg.
func diffDiags(want, got []diag) string {
	g := append([]diag(nil), got...)
	for i := range g {
		if i < len(want) && want[i].Msg != "" && strings.Contains(g[i].Msg, want[i].Msg) {
			g[i].Msg = want[i].Msg
		}
	}
	return cmp.Diff(want, g)
}

func ptr[T any](v T) *T { return &v }
