package scenario

import (
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// decodedFieldNames returns every field name the decoder's switches on a
// pair's name (switch p.name { case "...": }) accept, read from the
// package's source.
func decodedFieldNames(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	set := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		file, err := parser.ParseFile(fset, f, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			sw, ok := n.(*ast.SwitchStmt)
			if !ok {
				return true
			}
			sel, ok := sw.Tag.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "name" {
				return true
			}
			for _, st := range sw.Body.List {
				for _, e := range st.(*ast.CaseClause).List {
					if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						s, err := strconv.Unquote(lit.Value)
						if err != nil {
							t.Fatal(err)
						}
						set[s] = true
					}
				}
			}
			return true
		})
	}
	out := make([]string, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

var updateFields = flag.Bool("update-fields", false, "rewrite fields.go from the decoder's switches")

// TestKnownFields checks that the dictionary unknown-field suggestions come
// from is exactly the set of field names the decoder reads. After adding a
// field to a decoder, run
//
//	go test ./core/scenario -run TestKnownFields -update-fields
func TestKnownFields(t *testing.T) {
	want := decodedFieldNames(t)
	if *updateFields {
		var b strings.Builder
		b.WriteString("package scenario\n\n// knownFields returns every field name the decoder reads, sorted: the\n" +
			"// dictionary that suggestions for a misspelled field come from\n" +
			"// (TestKnownFields keeps it equal to the names the decoder's switches\n" +
			"// accept; -update-fields rewrites this file). A function rather than a\n" +
			"// variable: the package has no package-level variables.\nfunc knownFields() []string {\n\treturn []string{\n")
		for i, s := range want {
			if i > 0 && i%6 == 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "%q, ", s)
		}
		b.WriteString("\n}\n}\n")
		src, err := format.Source([]byte(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("fields.go", src, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if diff := cmp.Diff(want, knownFields()); diff != "" {
		t.Errorf("knownFields differs from the field names the decoder's switches accept (-want +got); run go test ./core/scenario -run TestKnownFields -update-fields:\n%s", diff)
	}
}
