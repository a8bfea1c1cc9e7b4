// Package puritytest checks that a package's non-test Go files stay pure:
// only allowed imports, no package-level variables (but those a rule
// permits, such as sentinel errors), no wall clock, and no build or linker
// directives. The pure UI packages (ui/view, ui/layout) call it from their
// tests; core/ has its own, stricter tree walk (core/imports_test.go).
package puritytest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Rules say what a package may use.
type Rules struct {
	// Package is the package name every file must declare.
	Package string
	// Imports are the import paths allowed.
	Imports []string
	// Var reports whether a package-level variable of this name is
	// allowed; nil allows none.
	Var func(name string) bool
	// Time lists the functions of package time the files may use; the
	// wall clock (Now, Since, Until, Sleep, ...) never belongs here.
	Time []string
}

// Check applies rules to the *.go files (not _test.go) of the current
// directory, reporting every violation with its position.
func Check(t *testing.T, rules Rules) {
	t.Helper()
	allowed := map[string]bool{}
	for _, p := range rules.Imports {
		allowed[p] = true
	}
	timeOK := map[string]bool{}
	for _, f := range rules.Time {
		timeOK[f] = true
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
		if file.Name.Name != rules.Package {
			t.Errorf("%s: package %s, want %s", f, file.Name.Name, rules.Package)
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
				t.Errorf("%s: import %q is not allowed in package %s", fset.Position(imp.Pos()), p, rules.Package)
			}
		}
		for _, d := range file.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				for _, n := range s.(*ast.ValueSpec).Names {
					if rules.Var == nil || !rules.Var(n.Name) {
						t.Errorf("%s: package-level variable %s", fset.Position(n.Pos()), n.Name)
					}
				}
			}
		}
		ast.Inspect(file, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "time" && !timeOK[sel.Sel.Name] {
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
