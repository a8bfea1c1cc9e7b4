package conformance

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"
	_ "sigs.k8s.io/kueue/pkg/features" // registers Kueue's gates

	"github.com/kueueplay/kueueplay/core"
)

// kueueGateNames reads the gate names of Kueue's
// pkg/features/kube_features.go (the keys of defaultVersionedFeatureGates)
// from the module source this test is built against.
func kueueGateNames(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", "{{.Dir}}", "sigs.k8s.io/kueue/pkg/features").Output()
	if err != nil {
		t.Fatalf("go list sigs.k8s.io/kueue/pkg/features: %v", err)
	}
	file := filepath.Join(strings.TrimSpace(string(out)), "kube_features.go")
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	consts := map[string]string{}
	var keys []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if i < len(n.Values) {
					if lit, ok := n.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						consts[id.Name], _ = strconv.Unquote(lit.Value)
					}
					if id.Name == "defaultVersionedFeatureGates" {
						for _, elt := range n.Values[i].(*ast.CompositeLit).Elts {
							keys = append(keys, elt.(*ast.KeyValueExpr).Key.(*ast.Ident).Name)
						}
					}
				}
			}
		}
		return true
	})
	if len(keys) == 0 {
		t.Fatalf("no defaultVersionedFeatureGates in %s", file)
	}
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = consts[k]
	}
	return names
}

// TestGateTable checks core's gate table against Kueue v0.16.1: every gate
// of kube_features.go is in the table with the default Kueue's registry
// gives it, and every gate of the table that is not marked playground-only
// is a Kueue gate.
func TestGateTable(t *testing.T) {
	all := utilfeature.DefaultMutableFeatureGate.GetAll()
	kueue := map[string]bool{}
	for _, name := range kueueGateNames(t) {
		kueue[name] = true
		spec, ok := all[featuregate.Feature(name)]
		if !ok {
			t.Errorf("%s: in kube_features.go but not registered", name)
			continue
		}
		g, ok := core.LookupGate(name)
		if !ok {
			t.Errorf("%s: Kueue v0.16.1 gate missing from core.Gates()", name)
			continue
		}
		if diff := cmp.Diff(spec.Default, g.Default); diff != "" {
			t.Errorf("%s: default (-kueue +core):\n%s", name, diff)
		}
		if g.PlaygroundOnly {
			t.Errorf("%s: marked playground-only but Kueue v0.16.1 has it", name)
		}
	}
	for _, g := range core.Gates() {
		if !g.PlaygroundOnly && !kueue[g.Name] {
			t.Errorf("%s: in core.Gates() but not a Kueue v0.16.1 gate: mark it PlaygroundOnly or remove it", g.Name)
		}
	}
}
