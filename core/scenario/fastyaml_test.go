package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/internal/hostile"
	"github.com/kueueplay/kueueplay/internal/scalability"
)

// treeNode is what the decoder reads of a yaml.Node: everything but the
// comments.
type treeNode struct {
	Kind         yaml.Kind
	Style        yaml.Style
	Tag, Value   string
	Anchor       string
	Alias        bool
	Line, Column int
	Content      []treeNode
}

func tree(n *yaml.Node) treeNode {
	t := treeNode{Kind: n.Kind, Style: n.Style, Tag: n.Tag, Value: n.Value, Anchor: n.Anchor, Alias: n.Alias != nil, Line: n.Line, Column: n.Column}
	for _, c := range n.Content {
		t.Content = append(t.Content, tree(c))
	}
	return t
}

// v3Roots parses data with yaml.v3 as Decode did before the fast parser:
// the root of each non-empty document, and where every document starts.
func v3Roots(data []byte) (roots []treeNode, docs []string, err error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		doc := new(yaml.Node)
		err := decodeNext(dec, doc)
		if errors.Is(err, io.EOF) {
			return roots, docs, nil
		}
		if err != nil {
			return nil, nil, err
		}
		docs = append(docs, fmt.Sprintf("%d:%d", doc.Line, doc.Column))
		if len(doc.Content) == 0 || isNull(doc.Content[0]) {
			continue
		}
		roots = append(roots, tree(doc.Content[0]))
	}
}

// fastRoots parses data with the fast parser; ok is false when it gives
// up.
func fastRoots(data []byte) (roots []treeNode, docs []string, ok bool) {
	p := newFastParser(data, 0)
	if p == nil {
		return nil, nil, false
	}
	for {
		root, more, ok := p.next()
		if !ok {
			return nil, nil, false
		}
		if !more {
			return roots, docs, true
		}
		docs = append(docs, fmt.Sprintf("%d:%d", p.docLine, p.docCol))
		if root != nil {
			roots = append(roots, tree(root))
		}
	}
}

// fastRootsRecycled is fastRoots handing each document's nodes out again
// for the next one (as stream does for Workloads), once its tree is
// copied.
func fastRootsRecycled(data []byte) (roots []treeNode, ok bool) {
	p := newFastParser(data, 0)
	if p == nil {
		return nil, false
	}
	for {
		root, more, ok := p.next()
		if !ok {
			return nil, false
		}
		if !more {
			return roots, true
		}
		if root != nil {
			roots = append(roots, tree(root))
		}
		p.recycle()
	}
}

// checkFast fails when the fast parser accepts data and yaml.v3 reads it
// otherwise. It reports whether the fast parser accepted it.
func checkFast(t *testing.T, data []byte) bool {
	t.Helper()
	got, gotDocs, ok := fastRoots(data)
	if !ok {
		return false
	}
	want, wantDocs, err := v3Roots(data)
	if err != nil {
		t.Fatalf("the fast parser accepts input yaml.v3 rejects (%v):\n%s", err, data)
	}
	if recycled, ok := fastRootsRecycled(data); !ok || !reflect.DeepEqual(got, recycled) {
		path, w, g := firstDiff("", got, recycled)
		t.Fatalf("recycled nodes give other trees (ok %v) at %s (-kept +recycled):\n%s", ok, path, cmp.Diff(w, g))
	}
	// The documents are counted for MaxObjects and the 60,001st is
	// where the error is.
	if !slices.Equal(wantDocs, gotDocs) {
		t.Fatalf("documents start at %v, yaml.v3 says %v; input:\n%s", gotDocs, wantDocs, data)
	}
	if reflect.DeepEqual(want, got) {
		return true
	}
	// cmp.Diff of two whole files' trees takes minutes: show the first
	// node that differs.
	path, w, g := firstDiff("", want, got)
	input := data
	if len(input) > 2000 {
		input = append(input[:2000:2000], "..."...)
	}
	t.Fatalf("fast parser differs from yaml.v3 at %s (-want +got):\n%s\ninput:\n%s", path, cmp.Diff(w, g), input)
	return true
}

// firstDiff finds the first node that differs in want and got (children
// left out) or the first list of children of different lengths.
func firstDiff(path string, want, got []treeNode) (string, any, any) {
	if len(want) != len(got) {
		return path, len(want), len(got)
	}
	for i := range want {
		p := fmt.Sprintf("%s/%d", path, i)
		w, g := want[i], got[i]
		wc, gc := w.Content, g.Content
		w.Content, g.Content = nil, nil
		if !reflect.DeepEqual(w, g) {
			return p, w, g
		}
		if !reflect.DeepEqual(wc, gc) {
			return firstDiff(p, wc, gc)
		}
	}
	return path, nil, nil
}

// fastSeeds are real and test inputs: the scenarios of the gallery, the
// real-world corpus, this package's fixtures, the hostile-input files
// and the scalability shape.
func fastSeeds(tb testing.TB) map[string][]byte {
	tb.Helper()
	seeds := map[string][]byte{}
	for _, pattern := range []string{
		"../../testdata/scenarios/*.yaml",
		"../../testdata/real/*/*.yaml",
		"../../testdata/real/*/*/*.yaml",
		"../../testdata/real/*/*/*/*.yaml",
		"../../testdata/hostile/*.yaml",
		"testdata/*.yaml",
		"testdata/*/*.yaml",
	} {
		names, err := filepath.Glob(pattern)
		if err != nil {
			tb.Fatal(err)
		}
		for _, name := range names {
			data, err := os.ReadFile(name)
			if err != nil {
				tb.Fatal(err)
			}
			seeds[name] = data
		}
	}
	if len(seeds) < 150 {
		tb.Fatalf("only %d seed files", len(seeds))
	}
	for _, c := range hostile.Cases() {
		data, err := c.Input("../../testdata/hostile")
		if err != nil {
			tb.Fatal(err)
		}
		if len(data) <= 1<<20 {
			seeds["hostile/"+c.Name] = data
		}
	}
	var buf bytes.Buffer
	if _, err := scalability.Write(&buf, 1500, 100*time.Millisecond); err != nil {
		tb.Fatal(err)
	}
	seeds["scalability-1500"] = buf.Bytes()
	// A small one, for the fuzz targets (which skip large seeds): mostly
	// Workloads fastWorkload decodes.
	var small bytes.Buffer
	if _, err := scalability.Write(&small, 12, 100*time.Millisecond); err != nil {
		tb.Fatal(err)
	}
	seeds["scalability-12"] = small.Bytes()
	return seeds
}

// TestFastYAMLCorpus checks the fast parser against yaml.v3 on every seed,
// and that it reads most of them (it is worth having only if it does).
func TestFastYAMLCorpus(t *testing.T) {
	seeds := fastSeeds(t)
	names := make([]string, 0, len(seeds))
	for name := range seeds {
		names = append(names, name)
	}
	slices.Sort(names)
	accepted := 0
	var refused []string
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			if checkFast(t, seeds[name]) {
				accepted++
			} else {
				refused = append(refused, name)
			}
		})
	}
	t.Logf("fast parser read %d of %d seeds; refused: %v", accepted, len(names), refused)
	for _, must := range []string{"scalability-1500", "../../testdata/real/kubectl/workloads.yaml"} {
		if _, ok := seeds[must]; ok && slices.Contains(refused, must) {
			t.Errorf("the fast parser refuses %s", must)
		}
	}
	if accepted*10 < len(names)*7 {
		t.Errorf("the fast parser reads only %d of %d seeds", accepted, len(names))
	}
}

// FuzzFastYAML: whenever the fast parser accepts an input, yaml.v3 parses
// it to the same nodes.
func FuzzFastYAML(f *testing.F) {
	for _, data := range fastSeeds(f) {
		// Large seeds make every fuzzing run slow; the corpus test reads
		// them.
		if len(data) <= 64<<10 {
			f.Add(data)
		}
	}
	for _, c := range fastTableCases() {
		f.Add([]byte(c.in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFast(t, data)
	})
}

type fastCase struct {
	name string
	in   string
	// accept is whether the fast parser reads it (rather than leaving it
	// to yaml.v3).
	accept bool
}

func fastTableCases() []fastCase {
	return []fastCase{
		{"empty", "", true},
		{"comment only", "# a\n", true},
		{"mapping", "a: 1\nb: two\n", true},
		{"no final newline", "a: 1\nb: two", true},
		{"nested", "a:\n  b:\n    c: d\n  e: f\ng: h\n", true},
		{"documents", "a: 1\n---\nb: 2\n--- # c\nc: 3\n", true},
		{"leading marker", "---\na: 1\n", true},
		{"empty documents", "---\n---\na: 1\n---\n", true},
		{"sequence", "- a\n- b\n", true},
		{"compact sequence", "a:\n- x\n- y\nb: z\n", true},
		{"indented sequence", "a:\n  - x\n  -   y\nb: z\n", true},
		{"mapping in sequence", "a:\n- name: x\n  v: 1\n-   name: y\n    v: 2\n", true},
		{"nested block in entry", "a:\n-\n  b: 1\n- # c\n  - x\n", true},
		{"quoted", "a: 'it''s'\n'b': \"x\\ty\\u00e9\\x41\\U0001F600\\N\\_\\L\\P\\\\\\\"\"\n\"c d\": ''\n", true},
		{"escapes", "a: \"\\0\\a\\b\\n\\v\\f\\r\\e\\ \\'\"\n", true},
		{"comments", "# head\na: 1 # line\n# between\nb: x#y\n  # more indented\nc: 'q' # c\n", true},
		{"tags", "a: 1\nb: -2\nc: 0x1F\nd: 1.5\ne: .inf\nf: true\ng: ~\nh: null\ni: 2001-12-14\nj: 09\nk: 1_000\nl: 0o17\nm: -0b101\nn: 100ms\no: 1e3\np: +5\nq: yes\nr: 18446744073709551615\ns: 2001-12-14t21:59:43.10-05:00\nt: .5\nu: .x\nv: 0b2\n", true},
		{"decimal tags", "a: 0\nb: 00\nc: 007\nd: 123456789012345678\ne: 1234567890123456789\nf: 9223372036854775808\ng: 99999999999999999999\nh: 50\n", true},
		{"merge", "a: &x {b: 1}\n", false},
		{"merge key", "<<: {b: 1}\nc: <<\n", true},
		{"flow", "a: [x, 'y', \"z\", [1], {b: c}]\nb: {}\nc: []\nd: { e: f , g: [ ] }\n", true},
		{"literal", "a: |\n  x\n   y\n\n  z\n\n\nb: 1\n", true},
		{"literal keep", "a: |+\n  x\n\n\nb: 1\n", true},
		{"literal strip", "a: |-\n  x\n\nb: 1\n", true},
		{"folded", "a: >\n  x\n  y\n\n  z\n   w\n  v\nb: 1\n", true},
		{"folded strip at end", "a: >-\n    x\n    y", true},
		{"block scalar in sequence", "- |\n  x\n- >\n  y\n", true},
		{"block scalar leading blanks", "a: |\n\n  \n  x\n", true},
		{"block scalar blank line with spaces", "a: |\n  x\n     \n  y\n", true},
		{"block scalar comment", "a: | # c\n  #x\n# y\nb: 1\n", true},
		{"utf-8", "é: ü\nb: [é, ü]\n- x\n", false},
		{"utf-8 columns", "é: ü\nb: {é: ü, c: d}\n", true},
		{"list", "apiVersion: v1\nkind: List\nitems:\n- kind: A\n  metadata:\n    name: a\n", true},
		{"anchor", "a: &x 1\nb: *x\n", false},
		{"tag", "a: !!str 1\n", false},
		{"tab", "a:\t1\n", false},
		{"crlf", "a: 1\r\n", false},
		{"bom", "\ufeffa: 1\n", false},
		{"multi-line plain", "a: b  \n  c d\n\n   \n  e\nf:\n- g\n  h\n- i\n  # j\nk: l\n", true},
		{"multi-line plain then comment", "a: b\n  c # d\n", false},
		{"multi-line plain with a colon", "a: b\n  c: d\n", false},
		{"multi-line plain at the key's indentation", "a:\n  b: c\n  d\n", false},
		{"multi-line plain tag", "a: 1\n  2\nb: tr\n  ue\n", true},
		{"multi-line quoted", "a: \"b  \n  c\\td \"\nb: 'it''s\n\n   a '\nc:\n- 'x\n  y' # z\n", true},
		{"multi-line quoted escaped break", "a: \"b\\\n  c\"\n", false},
		{"multi-line quoted dedented", "a:\n  b: 'c\n  d'\n", false},
		{"multi-line quoted unclosed", "a: 'b\n  c\n", false},
		{"multi-line flow", "a: [b,\n  c]\n", false},
		{"question mark in a flow key", "a: {b?c: 1}\n", false},
		{"question mark in a flow value", "a: [b?c]\n", false},
		{"question mark in a block key", "b?c: 1\n", true},
		{"empty value", "a:\nb: 1\n", false},
		{"empty entry", "- \n- a\n", false},
		{"bad dedent", "a:\n    b: 1\n  c: 2\n", false},
		{"document end", "a: 1\n...\n", false},
		{"directive", "%YAML 1.2\n---\na: 1\n", false},
		{"complex key", "? a\n: b\n", false},
		{"mapping value in plain", "a: b: c\n", false},
		{"indentation indicator", "a: |2\n  x\n", false},
		{"trailing comma", "a: [b, ]\n", false},
		{"unknown escape", "a: \"\\/\"\n", false},
		{"surrogate escape", "a: \"\\ud800\"\n", false},
		{"root scalar", "hello\n", false},
		{"root flow", "{a: 1, b: [x]} # c\n---\n[1, 2]\n", true},
		{"root flow then more", "{a: 1}\nb: 2\n", false},
		{"root indented", "  a: 1\n", false},
		{"sequence in mapping at same level", "a: 1\n- b\n", false},
		{"nested sequence entry", "- - a\n", false},
		{"marker with content", "--- a: 1\n", false},
		{"one-line json", "{\"a\": 1, \"b\": [\"c\"]}\n", true},
		{"json", "{\n  \"a\": 1\n}\n", false},
		{"control character", "a: \x01\n", false},
		{"NEL", "a: b\u0085c\n", false},
		{"line separator", "a: b\u2028c\n", false},
		{"long key", string(bytes.Repeat([]byte("k"), 1100)) + ": v\n", false},
	}
}

// TestFastYAMLTable checks named inputs: those in the subset parse as
// yaml.v3 does, and the others are left to yaml.v3.
func TestFastYAMLTable(t *testing.T) {
	for _, c := range fastTableCases() {
		t.Run(c.name, func(t *testing.T) {
			if got := checkFast(t, []byte(c.in)); got != c.accept {
				t.Errorf("fast parser accepts %q: %v, want %v", c.in, got, c.accept)
			}
		})
	}
}

// TestFastYAMLPositions pins a few positions by hand, so that a mistake
// yaml.v3 and the test would share cannot hide.
func TestFastYAMLPositions(t *testing.T) {
	in := "a:\n  b: [x, 'y']\n  c:\n  - d: |\n      t\n    é: 1\n"
	p := newFastParser([]byte(in), 10)
	root, _, ok := p.next()
	if !ok || root == nil {
		t.Fatal("not parsed")
	}
	var got []string
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		got = append(got, fmt.Sprintf("%d:%d %s %q", n.Line, n.Column, n.Tag, n.Value))
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(root)
	want := []string{
		`11:1 !!map ""`,
		`11:1 !!str "a"`,
		`12:3 !!map ""`,
		`12:3 !!str "b"`,
		`12:6 !!seq ""`,
		`12:7 !!str "x"`,
		`12:10 !!str "y"`,
		`13:3 !!str "c"`,
		`14:3 !!seq ""`,
		`14:5 !!map ""`,
		`14:5 !!str "d"`,
		`14:8 !!str "t\n"`,
		`16:5 !!str "é"`,
		`16:8 !!int "1"`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("positions (-want +got):\n%s", diff)
	}
}

// decodeTrees decodes inputs as Decode did before stream: yaml.v3 trees
// for everything.
func decodeTrees(inputs []Input) (*core.Scenario, error) {
	d := &decoder{aliasBudget: MaxAliasNodes}
	inputs = asText(inputs)
	d.layout(inputs)
	var sc *core.Scenario
	if d.checkSize(inputs) {
		sc = d.runTrees(inputs)
	}
	return d.result(sc)
}

// checkStream fails when Decode (which streams whatever the fast parser
// reads) and decodeTrees differ in any way. It reports whether stream
// decoded the inputs.
func checkStream(t *testing.T, inputs []Input) bool {
	t.Helper()
	want, wantErr := decodeTrees(inputs)
	got, gotErr := DecodeFiles(inputs)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("streamed scenario differs (-trees +stream):\n%s", diff)
	}
	if diff := cmp.Diff(fmt.Sprint(wantErr), fmt.Sprint(gotErr)); diff != "" {
		t.Fatalf("streamed diagnostics differ (-trees +stream):\n%s", diff)
	}
	// The same inputs given as Text: one alone, and every other one of
	// several (Text and Data together).
	texts := slices.Clone(inputs)
	for k := 0; k < len(texts); k += 2 {
		texts[k] = Input{Name: texts[k].Name, Text: string(texts[k].Data)}
	}
	got, gotErr = DecodeFiles(texts)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("scenario from Text differs (-trees +stream):\n%s", diff)
	}
	if diff := cmp.Diff(fmt.Sprint(wantErr), fmt.Sprint(gotErr)); diff != "" {
		t.Fatalf("diagnostics from Text differ (-trees +stream):\n%s", diff)
	}
	d := &decoder{aliasBudget: MaxAliasNodes}
	inputs = asText(inputs)
	d.layout(inputs)
	_, ok := d.stream(inputs)
	return ok
}

// TestStreamCorpus decodes every seed both ways, alone and as the second
// of two inputs (shifted lines, a shared line space).
func TestStreamCorpus(t *testing.T) {
	seeds := fastSeeds(t)
	streamed := 0
	for name, data := range seeds {
		t.Run(name, func(t *testing.T) {
			if checkStream(t, []Input{{Name: "a.yaml", Data: data}}) {
				streamed++
			}
			checkStream(t, []Input{{Name: "first.yaml", Data: []byte("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: x\n")}, {Name: "b.yaml", Data: data}})
			// The Scenario object last: the objects before it wait.
			docs := bytes.Split(data, []byte("\n---\n"))
			slices.Reverse(docs)
			checkStream(t, []Input{{Name: "r.yaml", Data: bytes.Join(docs, []byte("\n---\n"))}})
		})
	}
	if streamed*10 < len(seeds)*7 {
		t.Errorf("only %d of %d seeds streamed", streamed, len(seeds))
	}
}

// FuzzStream: Decode gives what decoding the yaml.v3 trees gives.
func FuzzStream(f *testing.F) {
	for _, data := range fastSeeds(f) {
		if len(data) <= 64<<10 {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkStream(t, []Input{{Name: "f.yaml", Data: data}})
	})
}

// TestDecimal checks decimal, integer's shortcut, against yaml.v3's
// Node.Decode, which it stands for.
func TestDecimal(t *testing.T) {
	for _, c := range []struct {
		name string
		in   string
		ok   bool
	}{
		{"zero", "0", true},
		{"small", "42", true},
		{"negative", "-7", true},
		{"negative zero", "-0", true},
		{"18 digits", "999999999999999999", true},
		{"19 digits", "1000000000000000000", false},
		{"leading zero", "017", false},
		{"plus", "+5", false},
		{"hex", "0x1F", false},
		{"underscore", "1_000", false},
		{"empty", "", false},
		{"minus only", "-", false},
		{"letters", "12a", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := decimal(c.in)
			if ok != c.ok {
				t.Fatalf("decimal(%q) ok = %v, want %v", c.in, ok, c.ok)
			}
			if !ok {
				return
			}
			var want int64
			n := &yaml.Node{Kind: yaml.ScalarNode, Tag: tagInt, Value: c.in}
			if err := n.Decode(&want); err != nil {
				t.Fatalf("yaml.v3 cannot decode %q: %v", c.in, err)
			}
			if got != want {
				t.Errorf("decimal(%q) = %d, yaml.v3 says %d", c.in, got, want)
			}
		})
	}
}

// TestStreamMaxObjects: past MaxObjects documents, stream reports the
// bound where runTrees does, in the first input or the next one, whether
// the document one too many starts with "---" or not.
func TestStreamMaxObjects(t *testing.T) {
	docs := func(n int, lead string) []byte {
		var b bytes.Buffer
		b.WriteString(lead)
		for i := range n {
			if i > 0 || lead == "" {
				b.WriteString("---\n")
			}
			fmt.Fprintf(&b, "{apiVersion: v1, kind: Namespace, metadata: {name: n%d}}\n", i)
		}
		return b.Bytes()
	}
	for _, c := range []struct {
		name   string
		inputs []Input
	}{
		{"one input", []Input{{Name: "a.yaml", Data: docs(MaxObjects+1, "")}}},
		{"at the limit", []Input{{Name: "a.yaml", Data: docs(MaxObjects, "")}}},
		{"implicit start in the second input", []Input{
			{Name: "a.yaml", Data: docs(MaxObjects, "")},
			{Name: "b.yaml", Data: []byte("# c\n\napiVersion: v1\nkind: Namespace\nmetadata: {name: x}\n")},
		}},
		{"explicit start in the second input", []Input{
			{Name: "a.yaml", Data: docs(MaxObjects-1, "")},
			{Name: "b.yaml", Data: []byte("a: 1\n---\n---\n")},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !checkStream(t, c.inputs) {
				t.Error("not streamed")
			}
		})
	}
}

// TestCountDocsRecycles: countDocs, which counts the documents of a file
// that may hold more than MaxObjects, keeps no document's nodes (it kept
// them all, 480 MB of 60,000 Workloads, before the bound was reported).
func TestCountDocsRecycles(t *testing.T) {
	var b strings.Builder
	for i := range MaxObjects + 1 {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: n%d\n  labels:\n    a: b\n    c: d\n", i)
	}
	inputs := []Input{{Name: "a.yaml", Text: b.String()}}
	d := &decoder{aliasBudget: MaxAliasNodes}
	d.layout(inputs)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, _, over, ok := d.countDocs(inputs)
	runtime.ReadMemStats(&after)
	if !over || !ok {
		t.Fatalf("countDocs: over %v, ok %v; want true, true", over, ok)
	}
	// Each document is 10 nodes, about 1.5 KB with their slices: 90 MB
	// if kept.
	if got := after.TotalAlloc - before.TotalAlloc; got > 8<<20 {
		t.Errorf("countDocs allocated %d bytes for %d documents, want at most 8 MB", got, MaxObjects+1)
	}
}

// TestStreamFirstLast: a Configuration, a ConfigMap holding one, or a
// Scenario object after the objects its feature gates change; stream
// keeps those objects until it has decoded it, and gives runTrees' result.
func TestStreamFirstLast(t *testing.T) {
	const cq = `apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq}
spec:
  cohortName: c
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: default
      resources:
      - name: cpu
        nominalQuota: "1"
        lendingLimit: "5"
`
	for _, c := range []struct {
		name, in string
		// wantErr is whether the lendingLimit above nominalQuota is an
		// error: only while the LendingLimit gate is on.
		wantErr bool
	}{
		{"gate on by default", cq, true},
		{"Configuration last", cq + `---
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
featureGates: {LendingLimit: false}
`, false},
		{"ConfigMap last", cq + `---
apiVersion: v1
kind: ConfigMap
metadata: {name: kueue-manager-config, namespace: kueue-system}
data:
  controller_manager_config.yaml: |
    apiVersion: config.kueue.x-k8s.io/v1beta2
    kind: Configuration
    featureGates: {LendingLimit: false}
`, false},
		{"Scenario last", cq + `---
apiVersion: kueueplay/v1alpha1
kind: Scenario
metadata: {name: s}
spec:
  featureGates: {LendingLimit: false}
`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !checkStream(t, []Input{{Name: "t.yaml", Data: []byte(c.in)}}) {
				t.Error("not streamed")
			}
			_, err := Decode("t.yaml", []byte(c.in))
			if got := err != nil && strings.Contains(err.Error(), "lendingLimit"); got != c.wantErr {
				t.Errorf("lendingLimit error: %v, want %v (%v)", got, c.wantErr, err)
			}
		})
	}
}

// TestSlab checks what slab hands out: never an element still in use
// (kept), the current document's again after recycle, zeroed, and large
// requests apart.
func TestSlab(t *testing.T) {
	// ops: "t" takes 2 elements, "T" takes 3 (above size/8, apart), "k"
	// keeps, "r" recycles. Chunks hold 16 elements: 8 takes of 2.
	for _, c := range []struct {
		name string
		ops  string
		// shared maps a take (by index) to the earlier take whose elements
		// it is given again; every other take has elements of its own.
		shared map[int]int
	}{
		{"takes do not overlap", "ttt", nil},
		{"recycled comes back", "trt", map[int]int{1: 0}},
		{"kept stays", "tktrt", map[int]int{2: 1}},
		{"over a chunk boundary", "tttttttttrttttttttt", map[int]int{9: 0, 10: 1, 11: 2, 12: 3, 13: 4, 14: 5, 15: 6, 16: 7, 17: 8}},
		{"a kept chunk is forgotten", "tttttttttktrt", map[int]int{10: 9}},
		{"recycled spare chunks are used again", "tttttttttrtttttttttkt", map[int]int{9: 0, 10: 1, 11: 2, 12: 3, 13: 4, 14: 5, 15: 6, 16: 7, 17: 8}},
		{"large requests are apart", "TrT", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := slab[int]{size: 16}
			var takes [][]int
			for _, op := range c.ops {
				switch op {
				case 't', 'T':
					n := 2
					if op == 'T' {
						n = 3
					}
					e := s.take(n)
					if len(e) != n || cap(e) != n {
						t.Fatalf("take(%d) = len %d cap %d", n, len(e), cap(e))
					}
					for i := range e {
						if e[i] != 0 {
							t.Fatalf("take %d: element %d is %d, not zeroed", len(takes), i, e[i])
						}
						e[i] = 100*len(takes) + i + 1
					}
					takes = append(takes, e)
				case 'k':
					s.keep()
				case 'r':
					s.recycle()
				}
			}
			for i := range takes {
				for j := range i {
					got := &takes[i][0] == &takes[j][0]
					k, ok := c.shared[i]
					if want := ok && k == j; got != want {
						t.Errorf("take %d is given take %d's elements: %v, want %v", i, j, got, want)
					}
				}
			}
		})
	}
}

// TestFastChars checks fastChars, which reads eight bytes at a time,
// against the same rule read one character at a time: every byte value
// at every place of a run of printable text, and around UTF-8 sequences.
func TestFastChars(t *testing.T) {
	slow := func(s string) bool {
		for _, r := range s {
			switch {
			case r == utf8.RuneError, r < ' ' && r != '\n', r >= 0x7f && r < 0xa0,
				r == 0x2028, r == 0x2029, r == 0xfeff, r == 0xfffe, r == 0xffff:
				return false
			}
		}
		return true
	}
	base := "key: value\n  - é item, ok\n"
	for c := range 256 {
		for at := range len(base) {
			s := base[:at] + string([]byte{byte(c)}) + base[at:]
			if got, want := fastChars(s), slow(s); got != want {
				t.Fatalf("fastChars(%q) = %v, want %v", s, got, want)
			}
			if got := fastChars([]byte(s)); got != slow(s) {
				t.Fatalf("fastChars([]byte(%q)) = %v, want %v", s, got, !got)
			}
		}
	}
	for _, c := range []struct {
		name string
		in   string
		want bool
	}{
		{"empty", "", true},
		{"eight printable", "abcdefgh", true},
		{"newlines", "\n\n\n\n\n\n\n\n\n", true},
		{"tab", "abcdefg\t", false},
		{"DEL", "abcdefg\x7f", false},
		{"CR", "\rbcdefgh", false},
		{"NUL", "abc\x00efgh", false},
		{"line separator", "abcdefg\u2028", false},
		{"byte-order mark", "\ufeffabcdefgh", false},
		{"C1 control", "abcdefg\u0085", false},
		{"invalid UTF-8", "abcdefg\xff", false},
		{"cut UTF-8", "abcdefg\xc3", false},
		{"non-breaking space", "abcdefg\u00a0", true},
		{"UTF-8 across a chunk", strings.Repeat("a", wasmChunk-1) + "é" + strings.Repeat("b", 20), true},
		{"tab after a chunk", strings.Repeat("a", wasmChunk-1) + "é\t", false},
		{"tab first in a chunk", strings.Repeat("a", wasmChunk) + "\t", false},
		{"cut UTF-8 at a chunk's end", strings.Repeat("a", wasmChunk-1) + "\xc3", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := fastChars(c.in); got != c.want || slow(c.in) != c.want {
				t.Errorf("fastChars(%q) = %v, the rule %v, want %v", c.in, got, slow(c.in), c.want)
			}
		})
	}
}

// TestScanText checks scanText, which reads eight bytes at a time,
// against what it replaces: strings.Count of "\n", of "[" and "{" and of
// "\n---", and the last offset of a word only a decodedFirst object's
// kind (or an escape) can spell, found with strings.Index. Every byte
// value at every place of a short text, each word at every place of an
// unaligned one, and named cases.
func TestScanText(t *testing.T) {
	words := []string{"Scenario", "Configuration", "ConfigMap", `\x`, `\u`, `\U`}
	slow := func(s string) inputScan {
		first := -1
		for _, m := range words {
			for at := 0; ; {
				i := strings.Index(s[at:], m)
				if i < 0 {
					break
				}
				first = max(first, at+i)
				at += i + 1
			}
		}
		return inputScan{
			lines:   strings.Count(s, "\n"),
			flows:   strings.Count(s, "[") + strings.Count(s, "{"),
			markers: strings.Count(s, "\n---"),
			first:   first,
		}
	}
	check := func(t *testing.T, s string) {
		t.Helper()
		if diff := cmp.Diff(slow(s), scanText(s), cmp.AllowUnexported(inputScan{})); diff != "" {
			t.Fatalf("scanText(%q) (-want +got):\n%s", s, diff)
		}
	}
	base := "a: [b]\n---\nkind: S\n- {c: C}\n---x\n"
	for c := range 256 {
		for at := range len(base) + 1 {
			check(t, base[:at]+string([]byte{byte(c)})+base[at:])
		}
	}
	for _, w := range append(words, "\n---", "---\n", "\n--", "Scenari", "Config") {
		for at := range 20 {
			check(t, strings.Repeat("x", at)+w+strings.Repeat("y", 19-at))
			check(t, strings.Repeat("\n", at)+w)
			// Across the end of the first chunk scanText reads.
			check(t, strings.Repeat("a: [b]\n", wasmChunk/7+2)[:wasmChunk-10+at]+w+"\nc: {d}\n")
		}
	}
	for _, c := range []struct {
		name string
		in   string
		want inputScan
	}{
		{"empty", "", inputScan{first: -1}},
		{"one line", "a: b", inputScan{first: -1}},
		{"documents", "---\na: 1\n---\nb: 2\n---", inputScan{lines: 4, markers: 2, first: -1}},
		{"marker cut at the end", "a: 1\n--", inputScan{lines: 1, first: -1}},
		{"flows", "a: [1, {b: [2]}]\n", inputScan{lines: 1, flows: 3, first: -1}},
		{"the last word", "kind: Scenario\nkind: ConfigMap\nx: 1\n", inputScan{lines: 3, first: 21}},
		{"an escape", `a: "\u0053cenario"`, inputScan{first: 4}},
		{"Scen only", "kind: Scen\n", inputScan{lines: 1, first: -1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if diff := cmp.Diff(c.want, scanText(c.in), cmp.AllowUnexported(inputScan{})); diff != "" {
				t.Errorf("scanText(%q) (-want +got):\n%s", c.in, diff)
			}
			check(t, c.in)
		})
	}
}
