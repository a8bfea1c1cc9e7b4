package layout

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPurity keeps the package pure: only the standard library packages
// listed here and the project's core and view-model, no syscall/js, no
// I/O, no wall clock, and no package-level variables at all (constant
// tables are functions or constants).
func TestPurity(t *testing.T) {
	allowed := map[string]bool{
		"strconv": true, "strings": true,
		"github.com/kueueplay/kueueplay/core":       true,
		"github.com/kueueplay/kueueplay/core/trace": true,
		"github.com/kueueplay/kueueplay/ui/view":    true,
	}
	files, _ := filepath.Glob("*.go")
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		checked++
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, f, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if file.Name.Name != "layout" {
			t.Errorf("%s: package %s", f, file.Name.Name)
		}
		for _, cg := range file.Comments {
			for _, c := range cg.List {
				if strings.HasPrefix(c.Text, "//go:build") || strings.HasPrefix(c.Text, "//go:linkname") || strings.HasPrefix(c.Text, "//go:wasmimport") {
					t.Errorf("%s: directive %s", fset.Position(c.Pos()), c.Text)
				}
			}
		}
		for _, imp := range file.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !allowed[p] {
				t.Errorf("%s: import %q is not allowed in package layout", fset.Position(imp.Pos()), p)
			}
		}
		for _, d := range file.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				for _, n := range s.(*ast.ValueSpec).Names {
					t.Errorf("%s: package-level variable %s", fset.Position(n.Pos()), n.Name)
				}
			}
		}
		ast.Inspect(file, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "time" {
					t.Errorf("%s: time.%s", fset.Position(sel.Pos()), sel.Sel.Name)
				}
			}
			return true
		})
	}
	if checked == 0 {
		t.Fatal("no source files found")
	}
}
