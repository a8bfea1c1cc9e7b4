package view

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
// listed here and the project's core, no wall clock, and no package-level
// variables other than sentinel errors.
func TestPurity(t *testing.T) {
	allowed := map[string]bool{
		"bytes": true, "cmp": true, "compress/flate": true, "encoding/base64": true, "encoding/json": true,
		"errors": true, "fmt": true, "io": true, "maps": true, "net/url": true, "sort": true, "slices": true, "strconv": true, "strings": true, "time": true, "unicode/utf8": true,
		"github.com/kueueplay/kueueplay/core":       true,
		"github.com/kueueplay/kueueplay/core/trace": true,
	}
	files, _ := filepath.Glob("*.go")
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		checked++
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range file.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !allowed[p] {
				t.Errorf("%s: import %q is not allowed in package view", fset.Position(imp.Pos()), p)
			}
		}
		for _, d := range file.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				for _, n := range s.(*ast.ValueSpec).Names {
					if !strings.HasPrefix(n.Name, "Err") {
						t.Errorf("%s: package-level variable %s", fset.Position(n.Pos()), n.Name)
					}
				}
			}
		}
		ast.Inspect(file, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "time" && (sel.Sel.Name == "Now" || sel.Sel.Name == "Since" || sel.Sel.Name == "Until" || sel.Sel.Name == "Sleep") {
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
