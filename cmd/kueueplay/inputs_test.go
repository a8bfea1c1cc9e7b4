package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/scenario"
)

// The scenario of `passing` split as users keep it: the cluster's queues
// in one file, the LocalQueue and the workload in another, the Scenario
// object with the expectation in a third.
var (
	setupPart    = passing[strings.Index(passing, "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor"):strings.Index(passing, "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue")]
	jobPart      = passing[strings.Index(passing, "apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue"):]
	scenarioPart = passing[:strings.Index(passing, "---\n")]
)

// kubectlJSON is what `kubectl get clusterqueues,localqueues,workloads -A
// -o json` prints (see core/scenario/testdata).
const kubectlJSON = "../../core/scenario/testdata/kubectl-list.json"

// TestCLIInputs covers the inputs of run and validate: several files and
// directories forming one scenario, standard input, JSON.
func TestCLIInputs(t *testing.T) {
	dump, err := os.ReadFile(kubectlJSON)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir()) // messages name the files as given: relative
	write(t, ".", "setup.yaml", setupPart)
	write(t, ".", "job.yaml", jobPart)
	write(t, ".", "scenario.yaml", scenarioPart)
	write(t, ".", "kubectl.json", string(dump))
	write(t, ".", "flavor.yaml", "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: default-flavor}\n")
	write(t, ".", "bad-setup.yaml", strings.Replace(setupPart, `nominalQuota: "2"`, `nominalQuota: "two"`, 1))
	write(t, ".", "bad-job.yaml", strings.Replace(jobPart, "count: 1", "count: -1", 1))
	for _, d := range []string{"cluster", "cluster/sub", "empty", "empty/sub"} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A directory: the manifests in lexical order, other files skipped.
	write(t, "cluster", "a-setup.yaml", setupPart)
	write(t, "cluster", "b-job.yml", jobPart)
	write(t, "cluster", "README.md", "not a manifest")
	write(t, "cluster/sub", "scenario.json", `{"apiVersion": "kueueplay/v1alpha1", "kind": "Scenario", "metadata": {"name": "ok"},
    "spec": {"expect": [{"at": "end", "admitted": {"default/a": {"main": {"cpu": "f"}}}}]}}`)
	write(t, "empty/sub", "x.yaml", setupPart)

	const (
		admitted  = `(?m)^  decide    default/a cq=cq .* -> Admitted`
		pending   = `(?m)^# end quiescent`
		cqMissing = `warning: LocalQueue/default/lq: spec.clusterQueue: ClusterQueue "cq" does not exist`
	)
	cases := map[string]struct {
		args  []string
		stdin string
		code  int
		// stdout, when set, is the whole expected standard output;
		// match are regular expressions stdout+stderr must match.
		stdout *string
		match  []string
	}{
		"run two files": {
			args: []string{"run", "setup.yaml", "job.yaml"}, match: []string{admitted},
		},
		"run one of them: the reference is missing": {
			args: []string{"run", "job.yaml"}, match: []string{`job.yaml:4:22: ` + cqMissing, pending},
		},
		"validate two files: a problem in each names its file": {
			args: []string{"validate", "bad-setup.yaml", "bad-job.yaml"}, code: 1,
			stdout: ptr(`bad-setup.yaml:14:45: ClusterQueue/cq: spec.resourceGroups[0].flavors[0].resources[0].nominalQuota: invalid quantity "two": unexpected 't' at offset 0; a quantity is a number with an optional suffix, such as 500m, 1.5, 2Gi or 1e3
bad-job.yaml:13:12: Workload/default/a: spec.podSets[0].count: must be between 0 and 2147483647, got -1
`),
		},
		"validate a duplicate across files": {
			args: []string{"validate", "setup.yaml", "job.yaml", "cluster/a-setup.yaml"}, code: 1,
			stdout: ptr(`cluster/a-setup.yaml:3:18: ResourceFlavor/f: metadata.name: duplicate ResourceFlavor "f" (first defined at setup.yaml:3)
cluster/a-setup.yaml:7:18: ClusterQueue/cq: metadata.name: duplicate ClusterQueue "cq" (first defined at setup.yaml:7)
`),
		},
		"validate the files of a scenario together": {
			args: []string{"validate", "scenario.yaml", "setup.yaml", "job.yaml"}, stdout: ptr(""),
		},
		"run stdin": {
			args: []string{"run", "-"}, stdin: passing, match: []string{admitted},
		},
		"validate stdin: positions say <stdin>": {
			args: []string{"validate", "-"}, stdin: jobPart,
			stdout: ptr(`<stdin>:4:22: ` + cqMissing + ": workloads submitted to this LocalQueue stay pending\n"),
		},
		"run a file and stdin": {
			args: []string{"run", "setup.yaml", "-"}, stdin: jobPart, match: []string{admitted},
		},
		"stdin twice": {
			args: []string{"run", "-", "-"}, code: 2, match: []string{`can be given only once`},
		},
		"run a directory": {
			args: []string{"run", "cluster"}, match: []string{admitted},
		},
		"validate a directory: not its subdirectories without -R": {
			args: []string{"validate", "cluster"}, stdout: ptr(""),
		},
		"validate a directory with -R": {
			args: []string{"validate", "-R", "cluster", "setup.yaml"}, code: 1,
			stdout: ptr(`setup.yaml:3:18: ResourceFlavor/f: metadata.name: duplicate ResourceFlavor "f" (first defined at cluster/a-setup.yaml:3)
setup.yaml:7:18: ClusterQueue/cq: metadata.name: duplicate ClusterQueue "cq" (first defined at cluster/a-setup.yaml:7)
`),
		},
		"a directory with no manifest": {
			args: []string{"validate", "empty"}, code: 1, match: []string{`^kueueplay validate: empty: no .yaml, .yml or .json file in this directory \(-R reads its subdirectories\)\n$`},
		},
		"a missing file": {
			args: []string{"run", "nope.yaml"}, code: 1, match: []string{`nope.yaml: no such file`},
		},
		"no file": {
			args: []string{"validate"}, code: 2, match: []string{`at least one FILE is needed`},
		},
		"validate kubectl JSON": {
			args:   []string{"validate", "kubectl.json"},
			stdout: ptr(`kubectl.json:57:41: warning: ClusterQueue/cluster-queue: spec.resourceGroups[0].flavors[0].name: ResourceFlavor "default-flavor" does not exist: Kueue keeps the ClusterQueue inactive (FlavorNotFound) and admits nothing through it` + "\n"),
		},
		"validate kubectl JSON from stdin with a flavor file": {
			args: []string{"validate", "flavor.yaml", "-"}, stdin: string(dump), stdout: ptr(""),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(tc.args, strings.NewReader(tc.stdin), &out, &errOut)
			if code != tc.code {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out.String(), errOut.String())
			}
			if tc.stdout != nil {
				if diff := cmp.Diff(*tc.stdout, out.String()); diff != "" {
					t.Errorf("stdout (-want +got):\n%s", diff)
				}
			}
			all := out.String() + errOut.String()
			for _, re := range tc.match {
				if !regexp.MustCompile(re).MatchString(all) {
					t.Errorf("output does not match %q:\n%s", re, all)
				}
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// TestRunJSONWarnings checks that run -o json puts the decode warnings in
// the trace, with their positions, as well as on stderr.
func TestRunJSONWarnings(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"run", "-o", "json", "-"}, strings.NewReader(jobPart), &out, &errOut); code != 0 {
		t.Fatalf("exit code %d:\n%s", code, errOut.String())
	}
	var tr struct {
		Warnings []core.Diagnostic `json:"warnings"`
	}
	if err := json.Unmarshal(out.Bytes(), &tr); err != nil {
		t.Fatal(err)
	}
	want := []core.Diagnostic{{
		Pos:      core.Pos{File: "<stdin>", Line: 4, Col: 22},
		Severity: core.SeverityWarning,
		Object:   "LocalQueue/default/lq",
		Field:    "spec.clusterQueue",
		Message:  `ClusterQueue "cq" does not exist: workloads submitted to this LocalQueue stay pending`,
	}}
	if diff := cmp.Diff(want, tr.Warnings); diff != "" {
		t.Errorf("trace warnings (-want +got):\n%s", diff)
	}
	if got := errOut.String(); got != want[0].String()+"\n" {
		t.Errorf("stderr = %q, want the warning", got)
	}
}

// endless is a stream that never ends (a `yes`-like producer on stdin),
// counting what is read from it.
type endless struct{ read int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '#'
	}
	e.read += int64(len(p))
	return len(p), nil
}

// TestInputBounds checks that MaxInputBytes bounds the inputs together and
// that an endless stdin is read only one byte past what is left of it.
func TestInputBounds(t *testing.T) {
	t.Chdir(t.TempDir())
	half := strings.Repeat("#", scenario.MaxInputBytes/2+1)
	write(t, ".", "a.yaml", half)
	write(t, ".", "b.yaml", half)
	write(t, ".", "small.yaml", "#\n")
	cases := map[string]struct {
		args   []string
		stdout string
		// maxRead bounds what is read from stdin.
		maxRead int64
	}{
		"two files": {
			args:   []string{"validate", "a.yaml", "b.yaml"},
			stdout: "b.yaml:1:1: with this file the inputs are 33554434 bytes in total; at most 33554432 bytes (32 MiB, MaxInputBytes) are accepted for one scenario\n",
		},
		"endless stdin": {
			args:    []string{"validate", "-"},
			stdout:  "<stdin>:1:1: the file is larger than 33554432 bytes (32 MiB, MaxInputBytes), the most accepted\n",
			maxRead: scenario.MaxInputBytes + 1 + 32*1024,
		},
		"a file, then endless stdin": {
			args:    []string{"validate", "small.yaml", "-"},
			stdout:  "<stdin>:1:1: with this file the inputs are larger than 33554432 bytes in total (32 MiB, MaxInputBytes), the most accepted for one scenario\n",
			maxRead: scenario.MaxInputBytes - 2 + 1 + 32*1024,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			stdin := &endless{}
			var out bytes.Buffer
			if code := run(tc.args, stdin, &out, io.Discard); code != 1 {
				t.Errorf("exit code %d, want 1", code)
			}
			if diff := cmp.Diff(tc.stdout, out.String()); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if stdin.read > tc.maxRead {
				t.Errorf("read %d bytes of stdin, want at most %d", stdin.read, tc.maxRead)
			}
		})
	}
}

// TestExpand checks the order in which FILE arguments are read.
func TestExpand(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"d", "d/a", "d/z"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"d/b.yaml", "d/a.json", "d/c.yml", "d/notes.txt", "d/a/x.yaml", "d/z/y.yaml", "f.txt"} {
		write(t, dir, f, "")
	}
	p := func(s string) string { return filepath.Join(dir, s) }
	cases := map[string]struct {
		args      []string
		recursive bool
		want      []string
	}{
		"a directory, lexical order, manifests only": {args: []string{p("d")}, want: []string{p("d/a.json"), p("d/b.yaml"), p("d/c.yml")}},
		"-R, as filepath.WalkDir visits": {
			args: []string{p("d")}, recursive: true,
			want: []string{p("d/a/x.yaml"), p("d/a.json"), p("d/b.yaml"), p("d/c.yml"), p("d/z/y.yaml")},
		},
		"files as given, whatever their extension, and stdin": {args: []string{p("f.txt"), "-", p("d/b.yaml")}, want: []string{p("f.txt"), "-", p("d/b.yaml")}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := expand(tc.args, tc.recursive)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("expand (-want +got):\n%s", diff)
			}
		})
	}
}
