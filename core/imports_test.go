package core

import (
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

// TestCoreImports enforces the purity boundary of core/ (architecture habit
// 12): no JavaScript, no I/O, no wall clock, no global randomness. It reads
// every .go file under core/ regardless of build tags, so a file that only
// builds for js/wasm cannot hide a violation. It runs natively and under
// Node (GOOS=js GOARCH=wasm), in both cases from the package directory.
func TestCoreImports(t *testing.T) {
	violations, files, err := checkCoreTree(os.DirFS("."), "core")
	if err != nil {
		t.Fatal(err)
	}
	if files == 0 {
		t.Fatal("found no .go files under core/; is the working directory the core package?")
	}
	t.Logf("checked %d .go files under core/", files)
	for _, v := range violations {
		t.Error(v)
	}
}

// TestCoreImportsChecker shows that the checker catches what it is meant to
// catch, so that TestCoreImports passing means something.
func TestCoreImportsChecker(t *testing.T) {
	tests := []struct {
		name string
		file string // path under core/
		src  string
		want []string // expected violations, as "file:line: text-prefix"
	}{
		{
			name: "clean file",
			file: "core/good.go",
			src:  "package core\n\nimport (\n\t\"fmt\"\n\t\"math/rand/v2\"\n\t\"time\"\n)\n\n// time.Now() in a comment is fine.\nvar _ = fmt.Sprint\nvar _ = rand.N[int]\nvar _ time.Duration\n",
		},
		{
			name: "syscall/js",
			file: "core/x.go",
			src:  "package core\n\nimport \"syscall/js\"\n\nvar _ js.Value\n",
			want: []string{`core/x.go:3: import "syscall/js"`},
		},
		{
			name: "js libraries and I/O in a grouped import",
			file: "core/sim/x.go",
			src: "package sim\n\nimport (\n\t\"honnef.co/go/js/dom/v2\"\n\t\"github.com/syumai/workers\"\n\t\"os\"\n" +
				"\t\"os/exec\"\n\t\"net\"\n\t\"net/http\"\n\t\"log\"\n\t\"log/slog\"\n\t\"math/rand\"\n\t\"honnef.co/go/js\"\n)\n",
			want: []string{
				`core/sim/x.go:4: import "honnef.co/go/js/dom/v2"`,
				`core/sim/x.go:5: import "github.com/syumai/workers"`,
				`core/sim/x.go:6: import "os"`,
				`core/sim/x.go:7: import "os/exec"`,
				`core/sim/x.go:8: import "net"`,
				`core/sim/x.go:9: import "net/http"`,
				`core/sim/x.go:10: import "log"`,
				`core/sim/x.go:11: import "log/slog"`,
				`core/sim/x.go:12: import "math/rand"`,
				`core/sim/x.go:13: import "honnef.co/go/js"`,
			},
		},
		{
			name: "os is allowed in tests",
			file: "core/sim/x_test.go",
			src:  "package sim\n\nimport (\n\t\"os\"\n\t\"net\"\n)\n",
			want: []string{`core/sim/x_test.go:5: import "net"`},
		},
		{
			name: "os is allowed in coretest",
			file: "core/coretest/golden.go",
			src:  "package coretest\n\nimport (\n\t\"os\"\n\t\"os/exec\"\n\t\"log\"\n)\n",
			want: []string{`core/coretest/golden.go:6: import "log"`},
		},
		{
			name: "wall clock",
			file: "core/sim/clock.go",
			src: "package sim\n\nimport \"time\"\n\nfunc f() {\n\t_ = time.Now()\n\t_ = time.Since(time.Time{})\n\ttime.Sleep(1)\n" +
				"\t<-time.After(1)\n\t_ = time.Tick(1)\n\t_ = time.NewTimer(1)\n\tnow := time.Now\n\t_ = now\n}\n",
			want: []string{
				"core/sim/clock.go:6: wall clock: time.Now",
				"core/sim/clock.go:7: wall clock: time.Since",
				"core/sim/clock.go:8: wall clock: time.Sleep",
				"core/sim/clock.go:9: wall clock: time.After",
				"core/sim/clock.go:10: wall clock: time.Tick",
				"core/sim/clock.go:11: wall clock: time.NewTimer",
				"core/sim/clock.go:12: wall clock: time.Now",
			},
		},
		{
			name: "wall clock through a renamed import",
			file: "core/x.go",
			src:  "package core\n\nimport clock \"time\"\n\nvar start = clock.Now()\n",
			want: []string{"core/x.go:5: wall clock: time.Now"},
		},
		{
			name: "wall clock through a dot import",
			file: "core/x.go",
			src:  "package core\n\nimport . \"time\"\n\nvar d Duration\n",
			want: []string{`core/x.go:3: dot import of "time"`},
		},
		{
			name: "wall clock is allowed in tests",
			file: "core/x_test.go",
			src:  "package core\n\nimport \"time\"\n\nvar start = time.Now()\n",
		},
		{
			name: "without the time import, time.Now is something else",
			file: "core/x.go",
			src:  "package core\n\ntype clock struct{}\n\nfunc (clock) Now() int { return 0 }\n\nvar time clock\nvar _ = time.Now()\n",
		},
		{
			name: "js build constraint",
			file: "core/x.go",
			src:  "//go:build js && wasm\n\npackage core\n",
			want: []string{"core/x.go:1: build constraint mentions js"},
		},
		{
			name: "negated js build constraint",
			file: "core/x.go",
			src:  "// Copyright\n\n//go:build !js\n\npackage core\n",
			want: []string{"core/x.go:3: build constraint mentions js"},
		},
		{
			name: "old-style js build constraint",
			file: "core/x.go",
			src:  "// +build js\n\npackage core\n",
			want: []string{"core/x.go:1: build constraint mentions js"},
		},
		{
			name: "other build constraints are fine",
			file: "core/x.go",
			src:  "//go:build goexperiment.jsonv2 || wasm\n\npackage core\n",
		},
		{
			name: "js file name suffix",
			file: "core/x_js.go",
			src:  "package core\n",
			want: []string{"core/x_js.go:1: file name implies GOOS=js"},
		},
		{
			name: "js_wasm file name suffix in a test",
			file: "core/x_js_wasm_test.go",
			src:  "package core\n",
			want: []string{"core/x_js_wasm_test.go:1: file name implies GOOS=js"},
		},
		{
			name: "unparsable file",
			file: "core/x.go",
			src:  "package core\n\nfunc {\n",
			want: []string{"core/x.go:3: cannot parse"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := checkCoreSource(tc.file, []byte(tc.src))
			if len(got) != len(tc.want) {
				t.Fatalf("got %d violations, want %d:\n%s", len(got), len(tc.want), strings.Join(got, "\n"))
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tc.want[i]) {
					t.Errorf("violation %d = %q, want it to start with %q", i, got[i], tc.want[i])
				}
			}
		})
	}

	// The tree walk must find files at any depth and skip testdata.
	fsys := fstest.MapFS{
		"a.go":                  {Data: []byte("package core\n")},
		"sim/deep/b.go":         {Data: []byte("package deep\n\nimport \"net\"\n")},
		"sim/testdata/c.go":     {Data: []byte("package broken\n\nimport \"os\"\n")},
		"coretest/d.go":         {Data: []byte("package coretest\n\nimport \"os\"\n")},
		"coretest/e_js.go":      {Data: []byte("package coretest\n")},
		"notes.txt":             {Data: []byte("import \"os\"\n")},
		"sim/deep/f_test.go":    {Data: []byte("package deep\n\nimport \"time\"\n\nvar _ = time.Now()\n")},
		"quota/g.go":            {Data: []byte("//go:build ignore\n\npackage main\n\nimport \"log\"\n")},
		"scenario/h_wasm.go":    {Data: []byte("package scenario\n\nimport \"math/rand\"\n")},
		"scenario/.hidden/i.go": {Data: []byte("package hidden\n\nimport \"os\"\n")},
	}
	got, files, err := checkCoreTree(fsys, "core")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"core/coretest/e_js.go:1: file name implies GOOS=js",
		`core/quota/g.go:5: import "log"`,
		`core/scenario/h_wasm.go:3: import "math/rand"`,
		`core/sim/deep/b.go:3: import "net"`,
	}
	if files != 7 {
		t.Errorf("walked %d .go files, want 7", files)
	}
	if len(got) != len(want) {
		t.Fatalf("tree walk: got %d violations, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range got {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("tree walk: violation %d = %q, want it to start with %q", i, got[i], want[i])
		}
	}
}

// checkCoreTree checks every .go file in fsys, whose root is the directory
// named root (used in messages), in lexical order. It skips directories Go
// itself ignores: testdata and names starting with "." or "_".
func checkCoreTree(fsys fs.FS, root string) (violations []string, files int, err error) {
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != "." && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return fs.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		src, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		files++
		violations = append(violations, checkCoreSource(path.Join(root, p), src)...)
		return nil
	})
	return violations, files, err
}

// checkCoreSource returns the purity violations in one file, each as
// "file:line: message". file is the slash-separated path starting with
// "core/"; it decides the exemptions.
func checkCoreSource(file string, src []byte) (out []string) {
	type violation struct {
		line int
		msg  string
	}
	var found []violation
	report := func(line int, format string, args ...any) {
		found = append(found, violation{line, fmt.Sprintf(format, args...)})
	}
	defer func() {
		slices.SortStableFunc(found, func(a, b violation) int { return a.line - b.line })
		for _, v := range found {
			out = append(out, fmt.Sprintf("%s:%d: %s", file, v.line, v.msg))
		}
	}()
	base := path.Base(file)
	isTest := strings.HasSuffix(base, "_test.go")
	osAllowed := isTest || strings.HasPrefix(file, "core/coretest/")

	// A _js or _js_wasm file name is a build constraint too.
	elems := strings.Split(strings.TrimSuffix(strings.TrimSuffix(base, ".go"), "_test"), "_")
	if n := len(elems); (n >= 2 && elems[n-1] == "js") || (n >= 3 && elems[n-2] == "js" && elems[n-1] == "wasm") {
		report(1, "file name implies GOOS=js")
	}

	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		line := 1
		if list, ok := err.(scanner.ErrorList); ok && len(list) > 0 {
			line = list[0].Pos.Line
		}
		report(line, "cannot parse: %v", err)
		return
	}

	// Build constraints: only comments before the package clause count.
	for _, g := range f.Comments {
		if g.Pos() >= f.Package {
			break
		}
		for _, c := range g.List {
			if !constraint.IsGoBuild(c.Text) && !constraint.IsPlusBuild(c.Text) {
				continue
			}
			expr, err := constraint.Parse(c.Text)
			if err != nil {
				report(fset.Position(c.Pos()).Line, "malformed build constraint %q: %v", c.Text, err)
				continue
			}
			mentionsJS := false
			expr.Eval(func(tag string) bool {
				mentionsJS = mentionsJS || tag == "js"
				return false
			})
			if mentionsJS {
				report(fset.Position(c.Pos()).Line, "build constraint mentions js: %s", c.Text)
			}
		}
	}

	timeNames := map[string]bool{} // local names of the "time" package
	for _, imp := range f.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue // the parser already rejects malformed import paths
		}
		line := fset.Position(imp.Pos()).Line
		if why := forbiddenImport(p, osAllowed); why != "" {
			report(line, "import %q: %s", p, why)
		}
		if p == "time" {
			switch {
			case imp.Name == nil:
				timeNames["time"] = true
			case imp.Name.Name == ".":
				if !isTest {
					report(line, "dot import of %q hides wall-clock calls from this check", p)
				}
			case imp.Name.Name != "_":
				timeNames[imp.Name.Name] = true
			}
		}
	}

	if !isTest && len(timeNames) > 0 {
		// A local variable that shadows the import would be reported too;
		// rename it.
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			id, ok := sel.X.(*ast.Ident)
			if !ok || !timeNames[id.Name] {
				return true
			}
			switch sel.Sel.Name {
			case "Now", "Since", "Until", "Sleep", "After", "AfterFunc", "Tick", "NewTicker", "NewTimer":
				report(fset.Position(sel.Pos()).Line, "wall clock: time.%s (core runs on simulated time)", sel.Sel.Name)
			}
			return true
		})
	}
	return
}

// forbiddenImport says why core may not import p, or returns "".
func forbiddenImport(p string, osAllowed bool) string {
	under := func(root string) bool { return p == root || strings.HasPrefix(p, root+"/") }
	switch {
	case p == "syscall/js", under("honnef.co/go/js"), under("github.com/syumai"):
		return "core must not depend on JavaScript"
	case under("os") && !osAllowed:
		return "core does no I/O (only _test.go files and core/coretest may use os)"
	case under("net"):
		return "core does no network I/O"
	case under("log"):
		return "core does not log; return diagnostics instead"
	case p == "math/rand":
		return "use math/rand/v2 with an explicit seeded source"
	}
	return ""
}
