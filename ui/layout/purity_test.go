package layout

import (
	"testing"

	"github.com/kueueplay/kueueplay/internal/puritytest"
)

// TestPurity keeps the package pure: only the standard library packages
// listed here and the project's core and view-model, no syscall/js, no
// I/O, no time at all, and no package-level variables (constant tables
// are functions or constants).
func TestPurity(t *testing.T) {
	puritytest.Check(t, puritytest.Rules{
		Package: "layout",
		Imports: []string{
			"strconv", "strings", "unicode/utf8",
			"github.com/kueueplay/kueueplay/core",
			"github.com/kueueplay/kueueplay/core/trace",
			"github.com/kueueplay/kueueplay/ui/view",
		},
	})
}
