// Package scenariotest runs kueueplay scenario files from a Go test, so a
// cluster's queue configuration can be checked in CI with `go test`:
//
//	func TestQueues(t *testing.T) {
//		scenariotest.RunFile(t, "testdata/spot-fallback.yaml")
//	}
//
// A scenario's spec.expect entries are checked; a failed expectation fails
// the test with the differences as (-want +got), and a file that does not
// decode fails it with every problem as file:line:col.
package scenariotest

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/check"
	"github.com/kueueplay/kueueplay/core/scenario"
)

// Option changes how a scenario runs.
type Option func(*options)

type options struct {
	gates core.FeatureGates
}

// WithGates overrides feature gates for the run.
func WithGates(g core.FeatureGates) Option {
	return func(o *options) { o.gates = o.gates.With(g) }
}

// Load reads and decodes a scenario file. A regular file larger than
// scenario.MaxInputBytes is refused from its size, without reading it;
// any other file (a pipe) is read up to one byte past the limit.
func Load(path string) (*core.Scenario, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > scenario.MaxInputBytes {
		return nil, scenario.TooLarge(path, st.Size())
	}
	data, err := io.ReadAll(io.LimitReader(f, scenario.MaxInputBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > scenario.MaxInputBytes {
		return nil, scenario.TooLarge(path, -1)
	}
	return scenario.Decode(path, data)
}

// Check runs the scenario file and returns the result of its expectations.
// It returns an error for a file that cannot be read or decoded.
func Check(path string, opts ...Option) (check.Result, error) {
	o := options{gates: core.FeatureGates{}}
	for _, f := range opts {
		f(&o)
	}
	sc, err := Load(path)
	if err != nil {
		return check.Result{}, err
	}
	return check.Run(sc, o.gates), nil
}

// RunFile runs one scenario file and reports every failed expectation on
// t. It reports the file as failing if it has no expectation at all, since
// such a test could never fail.
func RunFile(t testing.TB, path string, opts ...Option) check.Result {
	t.Helper()
	res, err := Check(path, opts...)
	if err != nil {
		t.Errorf("%v", err)
		return res
	}
	if res.Expectations == 0 {
		t.Errorf("%s: the Scenario has no spec.expect entries, so nothing is checked", path)
	}
	for _, f := range res.Failures {
		t.Errorf("%s", f)
	}
	return res
}

// Files lists the *.yaml files under root (a file or a directory,
// recursively), sorted.
func Files(root string) ([]string, error) {
	info, err := os.Stat(root)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []string{root}, nil
	}
	var out []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			out = append(out, p)
		}
		return nil
	})
	slices.Sort(out)
	return out, err
}

// RunDir runs every scenario file under dir as a subtest named after the
// file.
func RunDir(t *testing.T, dir string, opts ...Option) {
	t.Helper()
	files, err := Files(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no *.yaml scenario under %s", dir)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), filepath.Ext(f)), func(t *testing.T) {
			RunFile(t, f, opts...)
		})
	}
}
