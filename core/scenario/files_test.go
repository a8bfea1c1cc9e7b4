package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kueueplay/kueueplay/core"
)

// decodeFiles runs DecodeFiles and returns the scenario (nil on error) and
// every diagnostic.
func decodeFiles(t *testing.T, inputs ...Input) (*core.Scenario, []core.Diagnostic) {
	t.Helper()
	sc, err := DecodeFiles(inputs)
	if err != nil {
		var de *core.DiagnosticsError
		if !errors.As(err, &de) {
			t.Fatalf("DecodeFiles returned %T, want *core.DiagnosticsError: %v", err, err)
		}
		if sc != nil {
			t.Errorf("DecodeFiles returned a scenario with an error")
		}
		return nil, de.Diagnostics
	}
	return sc, sc.Warnings
}

func in(name, data string) Input { return Input{Name: name, Data: []byte(data)} }

// The inputs of a two-file scenario: the cluster's queues in one, the
// workload in the other.
const (
	setupFile = `apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: f}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq}
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: f
      resources: [{name: cpu, nominalQuota: "2"}]
`
	jobFile = `apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: lq}
spec: {clusterQueue: cq}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: a}
spec:
  queueName: lq
  podSets:
  - name: main
    count: 1
    template:
      spec:
        containers:
        - name: c
          resources: {requests: {cpu: "1"}}
`
)

// TestDecodeFiles decodes several inputs as one scenario: every diagnostic
// names its own input, line and column.
func TestDecodeFiles(t *testing.T) {
	cases := map[string]struct {
		inputs   []Input
		errors   []diag
		warnings []diag
	}{
		"a cross-file reference resolves": {
			inputs: []Input{in("setup.yaml", setupFile), in("job.yaml", jobFile)},
		},
		"the reference missing when the file with its target is left out": {
			inputs:   []Input{in("job.yaml", jobFile)},
			warnings: []diag{{At: "job.yaml:4:22", Object: "LocalQueue/default/lq", Field: "spec.clusterQueue", Msg: `ClusterQueue "cq" does not exist`}},
		},
		"an error in each file names its file": {
			inputs: []Input{
				in("setup.yaml", strings.Replace(setupFile, `nominalQuota: "2"`, `nominalQuota: "two"`, 1)),
				in("job.yaml", strings.Replace(jobFile, "count: 1", "count: -1", 1)),
			},
			errors: []diag{
				{At: "setup.yaml:14:45", Object: "ClusterQueue/cq", Field: "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota", Msg: `invalid quantity "two"`},
				{At: "job.yaml:13:12", Object: "Workload/default/a", Field: "spec.podSets[0].count", Msg: "-1"},
			},
		},
		"diagnostics follow the order of the inputs, not of their names": {
			inputs: []Input{
				in("z.yaml", strings.Replace(jobFile, "count: 1", "count: -1", 1)),
				in("a.yaml", strings.Replace(setupFile, `nominalQuota: "2"`, `nominalQuota: "two"`, 1)),
			},
			errors: []diag{
				{At: "z.yaml:13:12", Object: "Workload/default/a", Field: "spec.podSets[0].count", Msg: "-1"},
				{At: "a.yaml:14:45", Object: "ClusterQueue/cq", Field: "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota", Msg: `invalid quantity "two"`},
			},
		},
		"a duplicate across files names both files": {
			inputs: []Input{in("setup.yaml", setupFile), in("again.yaml", "# the same flavor\n"+setupFile[:strings.Index(setupFile, "---")])},
			errors: []diag{{At: "again.yaml:4:18", Object: "ResourceFlavor/f", Field: "metadata.name", Msg: `duplicate ResourceFlavor "f" (first defined at setup.yaml:3)`}},
		},
		"a duplicate in one file of several says line": {
			inputs: []Input{in("setup.yaml", setupFile+"---\n"+setupFile[:strings.Index(setupFile, "---")]), in("job.yaml", jobFile)},
			errors: []diag{{At: "setup.yaml:18:18", Object: "ResourceFlavor/f", Field: "metadata.name", Msg: `duplicate ResourceFlavor "f" (first defined at line 3)`}},
		},
		"a syntax error in each file names its file": {
			inputs: []Input{
				in("a.yaml", "apiVersion: v1\nkind: Namespace\nmetadata: {name: a\n"),
				in("b.yaml", "\n\napiVersion: v1\nkind: Namespace\nmetadata: {name: b\n"),
			},
			errors: []diag{
				{At: "a.yaml:3:1", Msg: "invalid YAML: did not find expected ',' or '}'"},
				{At: "b.yaml:5:1", Msg: "invalid YAML: did not find expected ',' or '}'"},
			},
		},
		"a Scenario object in two files": {
			inputs: []Input{
				in("a.yaml", "apiVersion: kueueplay/v1alpha1\nkind: Scenario\nmetadata: {name: a}\n"),
				in("b.yaml", "apiVersion: kueueplay/v1alpha1\nkind: Scenario\nmetadata: {name: b}\n"),
			},
			errors: []diag{{At: "b.yaml:2:7", Object: "Scenario/b", Field: "kind", Msg: "the inputs of a scenario may hold at most one Scenario object between them (the first is at a.yaml:2)"}},
		},
		"a duplicate field in a later file says line": {
			inputs: []Input{in("setup.yaml", setupFile), in("ns.yaml", "\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n  name: b\n")},
			errors: []diag{{At: "ns.yaml:6:3", Object: "Namespace/a", Field: "metadata.name", Msg: `duplicate field "name" (first set at line 5)`}},
		},
		"a file name with a terminal escape is escaped": {
			inputs:   []Input{in("evil\x1b[2J.yaml", jobFile)},
			warnings: []diag{{At: `evil\x1b[2J.yaml:4:22`, Object: "LocalQueue/default/lq", Field: "spec.clusterQueue", Msg: `ClusterQueue "cq" does not exist`}},
		},
		"empty inputs": {
			inputs: []Input{in("empty.yaml", ""), in("setup.yaml", setupFile), in("comment.yaml", "# nothing\n")},
		},
		"nesting too deep in the second file": {
			inputs: []Input{in("setup.yaml", setupFile), in("deep.yaml", "\nx: "+strings.Repeat("[", maxFlowScanDepth+1))},
			errors: []diag{{At: "deep.yaml:2:1004", Msg: "YAML nesting is deeper than 100 levels (MaxDepth)"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, diags := decodeFiles(t, tc.inputs...)
			if diff := diffDiags(tc.errors, compact(diags, core.SeverityError)); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			if diff := diffDiags(tc.warnings, compact(diags, core.SeverityWarning)); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDecodeFilesPositions checks that the objects of a scenario given as
// several inputs carry their own input's positions, and that the scenario
// is the one the inputs make as one file.
func TestDecodeFilesPositions(t *testing.T) {
	sc, diags := decodeFiles(t, in("setup.yaml", setupFile), in("job.yaml", jobFile))
	if sc == nil {
		t.Fatalf("DecodeFiles: %v", diags)
	}
	got := map[string]core.Pos{
		"ResourceFlavor/f":   sc.Flavors[0].Pos,
		"ClusterQueue/cq":    sc.ClusterQueues[0].Pos,
		"LocalQueue/lq":      sc.LocalQueues[0].Pos,
		"Workload/default/a": sc.Workloads[0].Pos,
	}
	want := map[string]core.Pos{
		"ResourceFlavor/f":   {File: "setup.yaml", Line: 1, Col: 1},
		"ClusterQueue/cq":    {File: "setup.yaml", Line: 5, Col: 1},
		"LocalQueue/lq":      {File: "job.yaml", Line: 1, Col: 1},
		"Workload/default/a": {File: "job.yaml", Line: 6, Col: 1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("positions (-want +got):\n%s", diff)
	}
	one, err := Decode("all.yaml", []byte(setupFile+"---\n"+jobFile))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(one, sc, cmpopts.IgnoreTypes(core.Pos{})); diff != "" {
		t.Errorf("two files vs one (-one +two):\n%s", diff)
	}
}

// TestDecodeFilesBounds checks that MaxInputBytes and MaxObjects bound the
// inputs together, and say so.
func TestDecodeFilesBounds(t *testing.T) {
	half := MaxInputBytes/2 + 1
	cases := map[string]struct {
		inputs []Input
		want   []diag
	}{
		"bytes": {
			inputs: []Input{in("a.yaml", strings.Repeat("#", half)), in("b.yaml", strings.Repeat("#", half)), in("c.yaml", "#")},
			want:   []diag{{At: "b.yaml:1:1", Msg: "with this file the inputs are 33554434 bytes in total; at most 33554432 bytes (32 MiB, MaxInputBytes) are accepted for one scenario"}},
		},
		"documents": {
			inputs: []Input{in("a.yaml", strings.Repeat("---\n{}\n", MaxObjects/2)), in("b.yaml", strings.Repeat("---\n{}\n", MaxObjects/2+1))},
			want:   []diag{{At: "b.yaml:60001:1", Msg: "more than 60000 documents in the inputs together (MaxObjects)"}},
		},
		"objects": {
			inputs: []Input{
				in("a.yaml", "apiVersion: v1\nkind: List\nitems:\n"+strings.Repeat("- {apiVersion: v1, kind: Namespace, metadata: {name: n}}\n", MaxObjects/2)),
				in("b.yaml", "\napiVersion: v1\nkind: List\nitems:\n"+strings.Repeat("- {apiVersion: v1, kind: Namespace, metadata: {name: n}}\n", MaxObjects/2+1)),
			},
			want: []diag{{At: "b.yaml:2:1", Msg: "more than 60000 objects in the inputs together (MaxObjects)"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, diags := decodeFiles(t, tc.inputs...)
			if diff := diffDiags(tc.want, compact(diags, core.SeverityError)); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// TestKubectlJSON decodes what `kubectl get clusterqueues,localqueues,
// workloads -A -o json` prints (a v1 List, keys sorted, 4-space indent,
// <, > and & written as \u003c, \u003e and \u0026): the same objects as
// the YAML dump of TestKubectlList, with JSON positions.
func TestKubectlJSON(t *testing.T) {
	fromJSON := decodeFile(t, "kubectl-list.json")
	fromYAML := decodeFile(t, "kubectl-list.yaml")
	if diff := cmp.Diff(fromYAML, fromJSON, cmpopts.IgnoreTypes(core.Pos{})); diff != "" {
		t.Errorf("JSON vs YAML (-yaml +json):\n%s", diff)
	}
	got := []core.Pos{fromJSON.ClusterQueues[0].Pos, fromJSON.LocalQueues[0].Pos, fromJSON.Workloads[0].Pos}
	for _, w := range fromJSON.Warnings {
		got = append(got, w.Pos)
	}
	const f = "kubectl-list.json"
	want := []core.Pos{
		{File: f, Line: 4, Col: 9},   // the item's "{"
		{File: f, Line: 124, Col: 9}, // the LocalQueue
		{File: f, Line: 166, Col: 9}, // the Workload
		{File: f, Line: 57, Col: 41}, // "name": "default-flavor" of the ClusterQueue
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("positions (-want +got):\n%s", diff)
	}
	// Together with a file defining the flavor, the warning goes.
	data, err := os.ReadFile("testdata/kubectl-list.json")
	if err != nil {
		t.Fatal(err)
	}
	sc, diags := decodeFiles(t, in("flavors.yaml", "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: default-flavor}\n"), Input{Name: f, Data: data})
	if sc == nil || len(diags) != 0 {
		t.Errorf("with the flavor: diagnostics %v", diags)
	}
}

// TestKubectlJSONErrors checks positions of problems in JSON input.
func TestKubectlJSONErrors(t *testing.T) {
	data, err := os.ReadFile("testdata/kubectl-list.json")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	cases := map[string]struct {
		in   string
		want []diag
	}{
		"invalid quantity": {
			in:   strings.Replace(text, `"nominalQuota": "9"`, `"nominalQuota": "nine"`, 1),
			want: []diag{{At: "k.json:61:57", Object: "ClusterQueue/cluster-queue", Field: "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota", Msg: `invalid quantity "nine"`}},
		},
		"unknown field": {
			in:   strings.Replace(text, `"clusterQueue": "cluster-queue",`, `"clusterQueue": "cluster-queue", "clusterQeue": "x",`, 1),
			want: []diag{{At: "k.json:136:50", Object: "LocalQueue/default/user-queue", Field: "spec.clusterQeue", Msg: `unknown field "clusterQeue"`}},
		},
		"unexpected end": {
			in:   strings.TrimRight(text, "}\n"),
			want: []diag{{At: "k.json:287:4", Msg: "invalid JSON: unexpected end of JSON input"}},
		},
		"two JSON values in one file": {
			in:   text + text,
			want: []diag{{At: "k.json:289:1", Msg: "invalid JSON: invalid character '{' after top-level value (one JSON value per file: give several files, or a kind: List)"}},
		},
		"\\/ escapes: the columns after them on their line": {
			in: strings.Replace(text, `"kueue.x-k8s.io/job-uid": "7b3e2f9a-5c9d-6e3a-1f5b-2c3d4e5f6a7b"`,
				`"kueue.x-k8s.io\/job-uid": "7b3e\/2f9a", "a\/b\/c": "\/-x\/"`, 1),
			want: []diag{
				{At: "k.json:176:48", Object: "Workload/default/job-sample-job-8f2c1", Field: "metadata.labels[kueue.x-k8s.io/job-uid]", Msg: `invalid label value: "7b3e/2f9a"`},
				{At: "k.json:176:62", Object: "Workload/default/job-sample-job-8f2c1", Field: "metadata.labels[a/b/c]", Msg: "invalid label key"},
				{At: "k.json:176:73", Object: "Workload/default/job-sample-job-8f2c1", Field: "metadata.labels[a/b/c]", Msg: `invalid label value: "/-x/"`},
			},
		},
		"a missing comma": {
			in:   strings.Replace(text, `"stopPolicy": "None"`+"\n            },", `"stopPolicy": "None"`+"\n            }", 1),
			want: []diag{{At: "k.json:74:13", Msg: `invalid JSON: invalid character '"' after object key:value pair`}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			sc, err := Decode("k.json", []byte(tc.in))
			var de *core.DiagnosticsError
			if !errors.As(err, &de) {
				t.Fatalf("Decode: scenario %v, error %v; want diagnostics", sc != nil, err)
			}
			if diff := diffDiags(tc.want, compact(de.Diagnostics, core.SeverityError)); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLooksJSON checks which inputs get JSON's syntax errors: JSON, not
// YAML flow collections.
func TestLooksJSON(t *testing.T) {
	cases := map[string]struct {
		in   string
		want []diag
	}{
		"a JSON object": {
			in:   "{\n    \"apiVersion\": \"v1\"\n    \"kind\": \"Namespace\"}",
			want: []diag{{At: "t.yaml:3:5", Msg: `invalid JSON: invalid character '"' after object key:value pair`}},
		},
		"a JSON array": {
			in:   "[\n  {\"a\": 1}\n  {\"b\": 2}\n]",
			want: []diag{{At: "t.yaml:3:3", Msg: "invalid JSON: invalid character '{' after array element"}},
		},
		"a YAML flow mapping keeps YAML's message": {
			in:   "{apiVersion: v1, kind: Namespace\n",
			want: []diag{{At: "t.yaml:2:1", Msg: "invalid YAML: did not find expected ',' or '}'"}},
		},
		"valid YAML that is not JSON": {
			in: "{\"apiVersion\": v1, kind: Namespace, metadata: {name: a}}\n",
		},
		"a YAML document": {
			in:   "apiVersion: v1\nkind: Namespace\nmetadata: {\"name\": \"a\\/b\"}\n",
			want: []diag{{At: "t.yaml:3:1", Msg: "invalid YAML: found unknown escape character"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, diags := decode(t, tc.in)
			if diff := diffDiags(tc.want, compact(diags, core.SeverityError)); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzUnescapeSlashes checks that unescaping \/ in valid JSON keeps it the
// same JSON value, and that the recorded columns are the slashes'.
func FuzzUnescapeSlashes(f *testing.F) {
	for _, s := range []string{`{"a\/b": "\/\\/\"\/"}`, `["\\\/", "é\/"]`, "{\n\"x\": \"\\/\"\n}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !json.Valid([]byte(s)) {
			return
		}
		out, fixes := unescapeSlashes([]byte(s))
		// Numbers stay text (UseNumber): valid JSON such as 1E700 does not
		// fit a float64, and the value is compared, not its arithmetic.
		var want, got any
		if err := unmarshalNumbers([]byte(s), &want); err != nil {
			t.Fatal(err)
		}
		if err := unmarshalNumbers(out, &got); err != nil {
			t.Fatalf("unescaped %q to invalid JSON %q: %v", s, out, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("value changed (-want +got):\n%s", diff)
		}
		lines := strings.Split(string(out), "\n")
		n := 0
		for line, cols := range fixes {
			for _, c := range cols {
				n++
				if r := []rune(lines[line-1]); c < 1 || c > len(r) || r[c-1] != '/' {
					t.Errorf("line %d column %d of %q is not a slash", line, c, out)
				}
			}
		}
		if removed := len(s) - len(out); n != removed {
			t.Errorf("%d columns recorded, %d bytes removed", n, removed)
		}
	})
}

// TestNoRawLineInMessages guards the shared line space: node lines are
// shifted per input, so a message that cites another line must format it
// with d.where ("line 12", or "b.yaml:12" in another input), never print
// a yaml.Node's Line with "line %d".
func TestNoRawLineInMessages(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "files.go" { // where itself
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if strings.Contains(line, "line %d") {
				t.Errorf("%s:%d: a message prints a line with \"line %%d\"; use d.where(n.Line, here): %s", f, i+1, strings.TrimSpace(line))
			}
		}
	}
}

// unmarshalNumbers decodes JSON keeping numbers as json.Number.
func unmarshalNumbers(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v)
}

// TestDecodeTextShared checks what Input.Text is for: the names decoded
// from a Text input point into it (no copy of the input is made), and
// those decoded from Data do not point into Data, which the caller may
// change afterwards.
func TestDecodeTextShared(t *testing.T) {
	const doc = "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata:\n  name: w\n  namespace: ns\nspec:\n  queueName: q\n  podSets:\n  - name: main\n    template:\n      spec:\n        containers:\n        - name: c\n          resources:\n            requests: {cpu: \"1\"}\n"
	within := func(s string, base *byte, n int) bool {
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		b := uintptr(unsafe.Pointer(base))
		return p >= b && p < b+uintptr(n)
	}
	for _, c := range []struct {
		name   string
		in     Input
		shared bool
	}{
		{"Text", Input{Name: "a.yaml", Text: doc}, true},
		{"Data", Input{Name: "a.yaml", Data: []byte(doc)}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			sc, err := DecodeFiles([]Input{c.in})
			if err != nil {
				t.Fatal(err)
			}
			base, n := unsafe.StringData(c.in.Text), len(c.in.Text)
			if c.in.Data != nil {
				base, n = unsafe.SliceData(c.in.Data), len(c.in.Data)
			}
			w := sc.Workloads[0]
			if got := within(w.Name, base, n) && within(w.Queue, base, n); got != c.shared {
				t.Errorf("the workload's name and queue point into the input: %v, want %v", got, c.shared)
			}
		})
	}
}
