package view

import (
	"strings"
	"testing"

	"github.com/kueueplay/kueueplay/internal/puritytest"
)

// TestPurity keeps the package pure: only these standard library packages
// and the project's core, no wall clock, and no package-level variables
// other than sentinel errors.
func TestPurity(t *testing.T) {
	puritytest.Check(t, puritytest.Rules{
		Package: "view",
		Imports: []string{
			"bytes", "cmp", "encoding/base64", "encoding/json", "errors", "fmt", "io",
			"maps", "slices", "sort", "strconv", "strings", "time", "unicode/utf8",
			"github.com/kueueplay/kueueplay/core",
			"github.com/kueueplay/kueueplay/core/trace",
		},
		Var:  func(name string) bool { return strings.HasPrefix(name, "Err") },
		Time: []string{"Duration", "Millisecond"},
	})
}
