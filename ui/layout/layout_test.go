package layout

import (
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
	"github.com/kueueplay/kueueplay/scenariotest"
	"github.com/kueueplay/kueueplay/ui/view"
)

// update rewrites the golden files: go test ./ui/layout -update. Review
// the diff; never set it in CI.
var update = flag.Bool("update", false, "rewrite ui/layout/testdata golden files from the current code")

const scenarioDir = "../../testdata/scenarios"

// evil is markup a name, a message or a description could carry.
const evil = `<img src=x onerror=alert(1)>`

// decode decodes testdata/scenarios/NAME.yaml.
func decode(t testing.TB, name string) *core.Scenario {
	t.Helper()
	sc, err := scenariotest.Load(filepath.Join(scenarioDir, name+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// run simulates testdata/scenarios/NAME.yaml with optional gate overrides.
func run(t testing.TB, name string, gates core.FeatureGates) *trace.Trace {
	t.Helper()
	return sim.Run(decode(t, name), sim.Options{Gates: gates})
}

// allScenarios lists the names of every scenario under testdata/scenarios.
func allScenarios(t testing.TB) []string {
	t.Helper()
	files, err := scenariotest.Files(scenarioDir)
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios in %s: %v", scenarioDir, err)
	}
	var names []string
	for _, f := range files {
		names = append(names, strings.TrimSuffix(filepath.Base(f), ".yaml"))
	}
	return names
}

// golden compares got with testdata/NAME, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./ui/layout -update to create it)", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, d)
	}
}

// pretty is n.String() with every element on its own line, indented by
// depth, so that golden diffs are readable: each line is cut from the
// String() of the element without its children.
func pretty(n *view.Node) string {
	var b strings.Builder
	prettyTo(&b, n, 0)
	return b.String()
}

func prettyTo(b *strings.Builder, n *view.Node, depth int) {
	indent := strings.Repeat("  ", depth)
	self := (&view.Node{Tag: n.Tag, Attrs: n.Attrs, Text: n.Text}).String()
	var kids []*view.Node
	for _, c := range n.Children {
		if c != nil {
			kids = append(kids, c)
		}
	}
	if len(kids) == 0 {
		b.WriteString(indent + self + "\n")
		return
	}
	// self is <tag ...>text</tag> or <tag .../>: keep the opening tag and
	// the text, write the children, then close.
	end := "</" + n.Tag + ">"
	if n.Text == "" {
		self = strings.TrimSuffix(self, "/>") + ">"
	} else {
		self = strings.TrimSuffix(self, end)
	}
	b.WriteString(indent + self + "\n")
	for _, c := range kids {
		prettyTo(b, c, depth+1)
	}
	b.WriteString(indent + end + "\n")
}

// TestGolden lays out a few real scenarios at interesting steps and
// compares the trees with testdata/NAME.golden.
func TestGolden(t *testing.T) {
	tests := []struct {
		name     string
		scenario string
		gates    core.FeatureGates
		steps    []int
	}{
		{name: "default", scenario: "default", steps: []int{0, 3, 8, 10}},
		{name: "preemption-within-cluster-queue", scenario: "preemption-within-cluster-queue", steps: []int{0, 2, 6}},
		{name: "kep4378-claims-gate-on", scenario: "kep4378-claims-gate-on", steps: []int{4, 8}},
		{name: "lending-two-queues", scenario: "lending-two-queues", steps: []int{6, 8}},
		{name: "hierarchy-cohort-lending-limit", scenario: "hierarchy-cohort-lending-limit", steps: []int{8}},
		{name: "hierarchy-cohort-borrowing-limit", scenario: "hierarchy-cohort-borrowing-limit", steps: []int{6}},
		{name: "inactive-missing-flavor", scenario: "inactive-missing-flavor", steps: []int{0, 2}},
		{name: "placement-seed-static-then-spot", scenario: "placement-seed-static-then-spot", steps: []int{2, 3}},
		{name: "placement-quota-admitted-no-node-fits", scenario: "placement-quota-admitted-no-node-fits", steps: []int{2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := run(t, tt.scenario, tt.gates)
			m := view.New(tr)
			var b strings.Builder
			section := func(title string, n *view.Node) {
				checkTree(t, title, n)
				b.WriteString("=== " + title + "\n" + pretty(n))
			}
			section("EventLog", EventLog(view.EventLog(tr)))
			section("Marks", Marks(view.Timeline(tr)))
			for _, i := range tt.steps {
				st := m.Step(i)
				b.WriteString("\n##### step " + itoa(i) + ": " + st.Title + "\n")
				section("Quota", Quota(st))
				section("Queues", Queues(st))
				section("Decisions", Decisions(st))
				if st.Cluster != nil {
					section("Placement", Placement(st))
					section("Nodes", Nodes(st))
				}
			}
			golden(t, tt.name+".golden", b.String())
		})
	}
}

// TestGoldenMisc compares the difference banner, the problems list and
// the gallery with testdata/misc.golden.
func TestGoldenMisc(t *testing.T) {
	var b strings.Builder
	section := func(title string, n *view.Node) {
		checkTree(t, title, n)
		b.WriteString("=== " + title + "\n" + pretty(n))
	}
	section("Difference nil", Difference(nil))
	d := view.FirstDifference(run(t, "kep4378-claims-gate-on", nil), run(t, "kep4378-claims-gate-off", nil))
	if d == nil {
		t.Fatal("kep4378-claims-gate-on and -off agree")
	}
	section("Difference kep4378-claims gate on vs off", Difference(d))

	_, err := scenario.Decode("broken.yaml", []byte(brokenScenario))
	var de *core.DiagnosticsError
	if !errors.As(err, &de) {
		t.Fatalf("broken scenario: want diagnostics, got %v", err)
	}
	section("Problems", Problems(de.Diagnostics, "the engine stopped: step budget exceeded"))
	b.WriteString("=== ProblemCount\n" + ProblemCount(de.Diagnostics, "the engine stopped: step budget exceeded") + "\n")

	var examples []Example
	for _, name := range []string{"default", "preemption-fill-back", "lending-two-queues", "preemption-within-cluster-queue", "lending-gate-off"} {
		sc := decode(t, name)
		group, _, _ := strings.Cut(name, "-")
		examples = append(examples, Example{File: name + ".yaml", Name: sc.Name, Group: group, Description: strings.TrimSpace(sc.Description)})
	}
	section("Gallery", Gallery(examples))
	golden(t, "misc.golden", b.String())
}

// brokenScenario has errors and a warning.
const brokenScenario = `apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: Team_A
spec:
  cohortName: pool
  unknownField: 1
`

// The allow-lists: every tag and attribute the layouts may write. The DOM
// glue creates exactly these; anything else (style, on*, href, src) would
// be a bug or a hole.
var (
	allowedTags = map[string]bool{
		"div": true, "span": true, "p": true, "section": true, "h3": true, "h4": true, "h5": true,
		"ul": true, "ol": true, "li": true, "dl": true, "dt": true, "dd": true,
		"details": true, "summary": true, "button": true,
		"label": true, "input": true, "select": true, "option": true,
		"table": true, "thead": true, "tbody": true, "tr": true, "th": true, "td": true,
		"svg": true, "rect": true, "line": true, "title": true,
	}
	svgTags       = map[string]bool{"svg": true, "rect": true, "line": true, "title": true}
	allowedAttrs  = map[string]bool{"class": true, "role": true, "title": true, "tabindex": true, "colspan": true, "open": true, "scope": true, "type": true, "value": true}
	svgGeometry   = map[string]bool{"viewBox": true, "preserveAspectRatio": true, "x": true, "y": true, "width": true, "height": true, "x1": true, "y1": true, "x2": true, "y2": true, "cx": true, "cy": true, "r": true, "points": true}
	actionAttrs   = []string{"data-goto-step", "data-goto-line", "data-goto-col", "data-example"}
	forbiddenBits = []string{"style", "href", "src", "srcdoc", "formaction", "xlink", "xmlns"}
)

// allowedAttr reports whether name may be written on an element (svg:
// inside an svg element).
func allowedAttr(name string, svg bool) bool {
	if allowedAttrs[name] || (svg && svgGeometry[name]) {
		return true
	}
	for _, prefix := range []string{"data-", "aria-"} {
		rest, ok := strings.CutPrefix(name, prefix)
		if !ok || rest == "" {
			continue
		}
		for _, c := range rest {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
		return true
	}
	return false
}

// checkTree checks what must hold of any tree the layouts write: tags and
// attributes from the allow-lists, SVG tags only inside an svg, no title
// element outside one, every button of type button, the attributes the
// glue acts on only on buttons (or on the scrubber's SVG marks), and a
// String() that is well-formed XML.
func checkTree(t *testing.T, where string, root *view.Node) {
	t.Helper()
	if root == nil {
		t.Fatalf("%s: nil tree", where)
	}
	var walk func(n *view.Node, inSVG bool, path string)
	walk = func(n *view.Node, inSVG bool, path string) {
		path += "/" + n.Tag
		if !allowedTags[n.Tag] {
			t.Errorf("%s: tag %q at %s is not allowed", where, n.Tag, path)
		}
		if n.Tag == "svg" {
			inSVG = true
		}
		if inSVG && !svgTags[n.Tag] {
			t.Errorf("%s: HTML tag %q inside an svg at %s", where, n.Tag, path)
		}
		if !inSVG && (n.Tag == "rect" || n.Tag == "line" || n.Tag == "title") {
			t.Errorf("%s: SVG tag %q outside an svg at %s", where, n.Tag, path)
		}
		seen := map[string]bool{}
		for _, a := range n.Attrs {
			if !allowedAttr(a.Name, inSVG) {
				t.Errorf("%s: attribute %q on %s is not allowed", where, a.Name, path)
			}
			lower := strings.ToLower(a.Name)
			if strings.HasPrefix(lower, "on") {
				t.Errorf("%s: event handler attribute %q on %s", where, a.Name, path)
			}
			for _, bad := range forbiddenBits {
				if lower == bad || strings.HasPrefix(lower, bad+":") {
					t.Errorf("%s: attribute %q on %s", where, a.Name, path)
				}
			}
			if seen[a.Name] {
				t.Errorf("%s: attribute %q twice on %s", where, a.Name, path)
			}
			seen[a.Name] = true
		}
		if n.Tag == "button" && n.Attr("type") != "button" {
			t.Errorf("%s: button without type=button at %s", where, path)
		}
		for _, a := range actionAttrs {
			if !seen[a] {
				continue
			}
			mark := n.Tag == "rect" && a == "data-goto-step" && strings.Contains(path, "/svg/")
			if n.Tag != "button" && !mark {
				t.Errorf("%s: %s on a %s at %s, not a button", where, a, n.Tag, path)
			}
		}
		for _, c := range n.Children {
			if c == nil {
				t.Errorf("%s: nil child under %s", where, path)
				continue
			}
			walk(c, inSVG, path)
		}
	}
	walk(root, false, "")
	dec := xml.NewDecoder(strings.NewReader(root.String()))
	for {
		_, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: String() is not well-formed XML: %v", where, err)
		}
	}
}

// texts collects every Text and every attribute value of the tree, and
// every tag and attribute name.
func texts(n *view.Node) (values, names []string) {
	var walk func(n *view.Node)
	walk = func(n *view.Node) {
		names = append(names, n.Tag)
		values = append(values, n.Text)
		for _, a := range n.Attrs {
			names = append(names, a.Name)
			values = append(values, a.Value)
		}
		for _, c := range n.Children {
			if c != nil {
				walk(c)
			}
		}
	}
	walk(n)
	return values, names
}

// checkHostile checks that the evil string comes out of a tree only as
// text or an attribute value: never in a tag or attribute name, never as
// markup in String(), and at least once as a value (the layout shows it).
func checkHostile(t *testing.T, where string, n *view.Node, wantShown bool) {
	t.Helper()
	checkTree(t, where, n)
	values, names := texts(n)
	for _, name := range names {
		if strings.ContainsAny(name, "<>=() ") {
			t.Errorf("%s: a tag or attribute name holds data: %q", where, name)
		}
	}
	shown := false
	for _, v := range values {
		shown = shown || strings.Contains(v, evil)
	}
	if wantShown && !shown {
		t.Errorf("%s: the hostile string is not shown anywhere", where)
	}
	s := n.String()
	if strings.Contains(s, "<img") || strings.Contains(s, "onerror=alert(1)>") {
		t.Errorf("%s: markup leaked into String():\n%s", where, s)
	}
	// The XML text and attribute values hold the string back, unescaped.
	if wantShown {
		var all strings.Builder
		dec := xml.NewDecoder(strings.NewReader(s))
		for {
			tok, err := dec.Token()
			if err != nil {
				break
			}
			switch tok := tok.(type) {
			case xml.CharData:
				all.Write(tok)
			case xml.StartElement:
				for _, a := range tok.Attr {
					all.WriteString(a.Value)
				}
			}
		}
		if !strings.Contains(all.String(), evil) {
			t.Errorf("%s: the hostile string does not come back from the XML", where)
		}
	}
}

// fill sets every string of v to evil, every number to 1, every bool to
// true, and gives every slice two elements and every pointer a value, to
// the given depth (QuotaNode nests).
func fill(v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(evil)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), depth)
			}
		}
	case reflect.Slice:
		if depth <= 0 {
			return
		}
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			fill(s.Index(i), depth-1)
		}
		v.Set(s)
	case reflect.Pointer:
		if depth <= 0 {
			return
		}
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), depth-1)
		v.Set(p)
	case reflect.Map:
		if depth <= 0 {
			return
		}
		m := reflect.MakeMap(v.Type())
		k := reflect.New(v.Type().Key()).Elem()
		e := reflect.New(v.Type().Elem()).Elem()
		fill(k, depth-1)
		fill(e, depth-1)
		m.SetMapIndex(k, e)
		v.Set(m)
	}
}

// TestHostileViewModel fills every string of the view-model with markup
// and lays it out: the markup must come out as text, and only tags and
// attributes of the allow-lists may appear.
func TestHostileViewModel(t *testing.T) {
	var st view.Step
	fill(reflect.ValueOf(&st).Elem(), 6)
	if len(st.Quota) == 0 || len(st.Decisions) == 0 || st.Decisions[0].Preemption == nil || st.Decisions[0].Recomputed == nil ||
		st.Cluster == nil || len(st.Cluster.Policies) == 0 || len(st.Cluster.Placements) == 0 || st.Cluster.Last == nil {
		t.Fatal("fill left the step empty")
	}
	var log []view.LogEntry
	fill(reflect.ValueOf(&log).Elem(), 4)
	var marks []view.Mark
	fill(reflect.ValueOf(&marks).Elem(), 4)
	var diff view.Difference
	fill(reflect.ValueOf(&diff).Elem(), 4)
	var diags []core.Diagnostic
	fill(reflect.ValueOf(&diags).Elem(), 4)
	var examples []Example
	fill(reflect.ValueOf(&examples).Elem(), 4)
	for _, tt := range []struct {
		name      string
		n         *view.Node
		wantShown bool
	}{
		{"Quota", Quota(st), true},
		{"Queues", Queues(st), true},
		{"Decisions", Decisions(st), true},
		{"Placement", Placement(st), true},
		{"Nodes", Nodes(st), true},
		{"EventLog", EventLog(log), true},
		{"Marks", Marks(marks), true}, // the step kind in data-kind
		{"Difference", Difference(&diff), true},
		{"Problems", Problems(diags, evil), true},
		{"Gallery", Gallery(examples), true},
	} {
		t.Run(tt.name, func(t *testing.T) { checkHostile(t, tt.name, tt.n, tt.wantShown) })
	}
}

// TestHostileTrace lays out a hand-made trace whose names are markup, as
// a hand-made or future trace could hold.
func TestHostileTrace(t *testing.T) {
	tr := &trace.Trace{Steps: []trace.Step{
		{Kind: trace.StepInitial},
		{Index: 1, Kind: trace.StepEvents, Events: []trace.Event{{Kind: trace.EventArrival, Workload: evil, ClusterQueue: evil, Message: evil}},
			Queues: []trace.QueueState{{ClusterQueue: evil, Active: false, InactiveReason: evil, Pending: []string{evil}, PendingCount: 2}},
			Usage:  []trace.UsageRow{{Node: evil, Kind: "ClusterQueue", Parent: evil, Flavor: evil, Resource: evil, Used: 5, Nominal: 3, SubtreeQuota: 3, Borrowed: 2}}},
		{Index: 2, Kind: trace.StepCycle, Cycle: 1, Decisions: []trace.Decision{{Workload: evil, ClusterQueue: evil, Outcome: trace.Outcome(evil), Message: evil}},
			Claims: []trace.Claim{{Target: evil, By: []trace.ClaimBy{{Preemptor: evil}}}}},
	}}
	// The placement layer, every name markup too.
	evilNode := trace.NodeState{Node: evil, Units: []string{evil + "/" + evil + "/" + evil}, PodCount: 1,
		Resources: []trace.NodeResource{{Resource: evil, Allocatable: trace.Quantity{Resource: evil, Amount: 1, Text: evil}, Requested: trace.Quantity{Resource: evil, Text: evil}}},
		Pods:      []trace.NodePod{{Pod: evil, Owner: evil, Unit: evil, Terminating: true}}}
	tr.Policies = []trace.Policy{{Policy: evil + "/" + evil, Strategy: evil, PodSelector: evil, MatchLabelKeys: []string{evil},
		Units: []trace.PolicyUnit{{Unit: evil, NodeSelector: evil}}}}
	for i := range tr.Steps {
		tr.Steps[i].Nodes = []trace.NodeState{evilNode}
		tr.Steps[i].PendingPods = []trace.PendingPod{{Pod: evil, Owner: evil, Message: evil}}
		tr.Steps[i].UnitCounts = []trace.UnitCount{{Policy: evil + "/" + evil, Unit: evil, Group: evil, Count: 1}}
	}
	tr.Steps[1].Placements = []trace.Placement{{Pod: evil, Owner: evil, Policy: evil, Group: evil, Node: evil, Unit: evil, Message: evil, Scored: true,
		Weights: []trace.PluginWeight{{Plugin: evil, Weight: 1}},
		Nodes:   []trace.NodeVerdict{{Node: evil, Unit: evil, Scores: []trace.PluginScore{{Plugin: evil}}}, {Node: evil, Filter: evil, Reasons: []string{evil}}}}}
	tr.Steps[1].ScaleDowns = []trace.ScaleDown{{Owner: evil, Removed: []trace.RemovedPod{{Pod: evil, Node: evil, Why: evil}}}}
	m := view.New(tr)
	checkHostile(t, "EventLog", EventLog(view.EventLog(tr)), true)
	checkHostile(t, "Marks", Marks(view.Timeline(tr)), false)
	for i := range m.Len() {
		st := m.Step(i)
		checkHostile(t, "Quota step "+itoa(i), Quota(st), i == 1)
		checkHostile(t, "Queues step "+itoa(i), Queues(st), i == 1)
		checkHostile(t, "Decisions step "+itoa(i), Decisions(st), i > 0)
		checkHostile(t, "Placement step "+itoa(i), Placement(st), true)
		checkHostile(t, "Nodes step "+itoa(i), Nodes(st), true)
	}
}

// TestHostileScenario decodes scenarios whose free text is markup: a
// description (shown in the gallery) and names the decoder rejects (its
// diagnostics quote them).
func TestHostileScenario(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(scenarioDir, "default.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), "  description: >-\n", "  description: >-\n    "+evil+"\n", 1)
	sc, err := scenario.Decode("hostile.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sc.Description, evil) {
		t.Fatalf("description %q does not hold the hostile string", sc.Description)
	}
	checkHostile(t, "Gallery", Gallery([]Example{{File: "hostile.yaml", Name: sc.Name, Group: "hostile", Description: sc.Description}}), true)
	tr := sim.Run(sc, sim.Options{})
	m := view.New(tr)
	for i := range m.Len() {
		st := m.Step(i)
		for _, n := range []*view.Node{Quota(st), Queues(st), Decisions(st)} {
			checkHostile(t, "step "+itoa(i), n, false)
		}
	}

	_, err = scenario.Decode("names.yaml", []byte(`apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: "`+evil+`"
spec:
  "`+evil+`": 1
`))
	var de *core.DiagnosticsError
	if !errors.As(err, &de) || len(de.Diagnostics) == 0 {
		t.Fatalf("want diagnostics, got %v", err)
	}
	checkHostile(t, "Problems", Problems(de.Diagnostics, err.Error()), true)
}

// TestEveryScenario lays out every step of every scenario and checks the
// trees against the allow-lists and the page contract.
func TestEveryScenario(t *testing.T) {
	for _, name := range allScenarios(t) {
		t.Run(name, func(t *testing.T) {
			tr := run(t, name, nil)
			m := view.New(tr)
			log := EventLog(view.EventLog(tr))
			checkTree(t, "EventLog", log)
			for _, li := range log.Children {
				if len(li.Children) != 1 || li.Children[0].Attr("data-goto-step") != li.Attr("data-step") {
					t.Errorf("log entry %s: its button does not go to its data-step", li.String())
				}
			}
			marks := Marks(view.Timeline(tr))
			checkTree(t, "Marks", marks)
			if len(marks.Children) != m.Len() {
				t.Errorf("Marks: %d marks for %d steps", len(marks.Children), m.Len())
			}
			for i := range m.Len() {
				st := m.Step(i)
				where := "step " + itoa(i)
				checkTree(t, where+" Quota", Quota(st))
				checkTree(t, where+" Queues", Queues(st))
				dec := Decisions(st)
				checkTree(t, where+" Decisions", dec)
				got := 0
				for _, c := range dec.Children {
					if c.Attr("class") == "decision" {
						got++
					}
				}
				if got != len(st.Decisions) {
					t.Errorf("%s: %d div.decision for %d decisions", where, got, len(st.Decisions))
				}
				pl, nodes := Placement(st), Nodes(st)
				checkTree(t, where+" Placement", pl)
				checkTree(t, where+" Nodes", nodes)
				if st.Cluster == nil {
					continue
				}
				if got, want := len(find(pl, func(n *view.Node) bool { return hasClass(n, "placement") && n.Tag == "div" })),
					len(st.Cluster.Placements); got != want && len(st.Cluster.Placements) > 0 {
					t.Errorf("%s: %d div.placement for %d placements", where, got, want)
				}
				if got := len(find(pl, func(n *view.Node) bool { return hasClass(n, "pending-pod") })); got != len(st.Cluster.Pending) {
					t.Errorf("%s: %d li.pending-pod for %d pending pods", where, got, len(st.Cluster.Pending))
				}
				// Every node is shown at least once.
				shown := map[string]bool{}
				for _, n := range find(nodes, func(n *view.Node) bool { return hasClass(n, "node") && n.Tag == "li" }) {
					shown[n.Attr("data-node")] = true
				}
				if len(shown) != len(tr.Steps[0].Nodes) { // step 0 lists every node
					t.Errorf("%s: %d distinct nodes shown, the trace has %d", where, len(shown), len(tr.Steps[0].Nodes))
				}
			}
		})
	}
}

// find returns the nodes of the tree for which ok is true, in document
// order.
func find(n *view.Node, ok func(*view.Node) bool) []*view.Node {
	var out []*view.Node
	if ok(n) {
		out = append(out, n)
	}
	for _, c := range n.Children {
		if c != nil {
			out = append(out, find(c, ok)...)
		}
	}
	return out
}

func hasClass(n *view.Node, class string) bool {
	for _, c := range strings.Fields(n.Attr("class")) {
		if c == class {
			return true
		}
	}
	return false
}

// allText is the text of a tree, in document order, separated by spaces.
func allText(n *view.Node) string {
	var parts []string
	for _, x := range find(n, func(*view.Node) bool { return true }) {
		if x.Text != "" {
			parts = append(parts, x.Text)
		}
	}
	return strings.Join(parts, " ")
}

func TestProblemCount(t *testing.T) {
	e := core.Diagnostic{Severity: core.SeverityError, Message: "bad"}
	w := core.Diagnostic{Severity: core.SeverityWarning, Message: "hmm"}
	tests := []struct {
		name  string
		diags []core.Diagnostic
		err   string
		want  string
	}{
		{"none", nil, "", "no problems"},
		{"one error", []core.Diagnostic{e}, "", "1 error"},
		{"two errors and a warning", []core.Diagnostic{e, w, e}, "", "2 errors, 1 warning"},
		{"warnings only", []core.Diagnostic{w, w, w}, "", "3 warnings"},
		{"one warning", []core.Diagnostic{w}, "", "1 warning"},
		{"err only", nil, "boom", "1 error"},
		{"err and a warning", []core.Diagnostic{w}, "boom", "1 error, 1 warning"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, ProblemCount(tt.diags, tt.err)); d != "" {
				t.Errorf("ProblemCount (-want +got):\n%s", d)
			}
		})
	}
}

func TestProblems(t *testing.T) {
	type row struct {
		Severity, Line, Col, Text string
	}
	tests := []struct {
		name  string
		diags []core.Diagnostic
		err   string
		want  []row
	}{
		{name: "none"},
		{
			name: "full diagnostic",
			diags: []core.Diagnostic{{Pos: core.Pos{File: "x.yaml", Line: 3, Col: 5}, Severity: core.SeverityError,
				Object: "ClusterQueue/a", Field: "spec.cohortName", Message: "bad name"}},
			want: []row{{"error", "3", "5", "3:5 error ClusterQueue/a: spec.cohortName: bad name"}},
		},
		{
			name:  "warning without object or field",
			diags: []core.Diagnostic{{Pos: core.Pos{Line: 7, Col: 1}, Severity: core.SeverityWarning, Message: "odd"}},
			want:  []row{{"warning", "7", "1", "7:1 warning odd"}},
		},
		{
			name:  "no position",
			diags: []core.Diagnostic{{Severity: core.SeverityError, Message: "empty file"}},
			want:  []row{{"error", "", "", "error empty file"}},
		},
		{
			name:  "err after the diagnostics",
			diags: []core.Diagnostic{{Pos: core.Pos{Line: 1, Col: 2}, Severity: core.SeverityWarning, Message: "w"}},
			err:   "simulation failed",
			want:  []row{{"warning", "1", "2", "1:2 warning w"}, {"error", "", "", "error simulation failed"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := Problems(tt.diags, tt.err)
			checkTree(t, tt.name, n)
			var got []row
			for _, li := range n.Children {
				r := row{Severity: li.Attr("data-severity"), Text: allText(li)}
				if b := find(li, func(x *view.Node) bool { return x.Tag == "button" }); len(b) == 1 {
					r.Line, r.Col = b[0].Attr("data-goto-line"), b[0].Attr("data-goto-col")
				}
				got = append(got, r)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("Problems (-want +got):\n%s", d)
			}
		})
	}
}

func TestControls(t *testing.T) {
	gates, settings := Controls([]string{"GateA", "GateB"}, view.SettingSpecs()[:2])
	type control struct {
		Name, Label string
		Options     []string
	}
	var got []control
	for _, frag := range []*view.Node{gates, settings} {
		if frag.Tag != "" || len(frag.Attrs) != 0 || frag.Text != "" {
			t.Errorf("a control list's root is %q with %v and text %q; want a bare fragment", frag.Tag, frag.Attrs, frag.Text)
		}
		for _, label := range frag.Children {
			checkTree(t, "Controls", label)
			c := control{Label: allText(label)}
			for _, in := range find(label, func(x *view.Node) bool { return x.Tag == "input" || x.Tag == "select" }) {
				c.Name = in.Tag + ":" + in.Attr("data-gate") + in.Attr("data-setting")
				for _, o := range in.Children {
					c.Options = append(c.Options, o.Attr("value")+"="+o.Text)
				}
			}
			got = append(got, c)
		}
	}
	want := []control{
		{Name: "input:GateA", Label: " GateA"},
		{Name: "input:GateB", Label: " GateB"},
		{Name: "select:whenCanBorrow", Label: "whenCanBorrow  as each queue says MayStopSearch TryNextFlavor",
			Options: []string{"=as each queue says", "MayStopSearch=MayStopSearch", "TryNextFlavor=TryNextFlavor"}},
		{Name: "select:whenCanPreempt", Label: "whenCanPreempt  as each queue says MayStopSearch TryNextFlavor",
			Options: []string{"=as each queue says", "MayStopSearch=MayStopSearch", "TryNextFlavor=TryNextFlavor"}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Controls (-want +got):\n%s", d)
	}
	if typ := find(gates, func(x *view.Node) bool { return x.Tag == "input" })[0].Attr("type"); typ != "checkbox" {
		t.Errorf("a gate's input has type %q, want checkbox", typ)
	}
}

func TestGallery(t *testing.T) {
	examples := []Example{
		{File: "default.yaml", Name: "default", Group: "default", Description: "the default"},
		{File: "preemption-b.yaml", Name: "preemption-b", Group: "preemption"},
		{File: "lending-a.yaml", Name: "lending-a", Group: "lending", Description: "lends"},
		{File: "preemption-a.yaml", Name: "", Group: "preemption", Description: "no name"},
	}
	type group struct {
		Group, Title string
		Files        []string
		Names        []string
	}
	want := []group{
		{"default", "default", []string{"default.yaml"}, []string{"default"}},
		{"preemption", "preemption", []string{"preemption-b.yaml", "preemption-a.yaml"}, []string{"preemption-b", "preemption-a.yaml"}},
		{"lending", "lending", []string{"lending-a.yaml"}, []string{"lending-a"}},
	}
	n := Gallery(examples)
	checkTree(t, "Gallery", n)
	var got []group
	for _, sec := range find(n, func(x *view.Node) bool { return x.Tag == "section" }) {
		g := group{Group: sec.Attr("data-group"), Title: find(sec, func(x *view.Node) bool { return x.Tag == "h3" })[0].Text}
		for _, b := range find(sec, func(x *view.Node) bool { return x.Tag == "button" }) {
			g.Files = append(g.Files, b.Attr("data-example"))
			g.Names = append(g.Names, find(b, func(x *view.Node) bool { return hasClass(x, "example-name") })[0].Text)
		}
		got = append(got, g)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Gallery (-want +got):\n%s", d)
	}
}

func TestDifference(t *testing.T) {
	tests := []struct {
		name string
		d    *view.Difference
		want string
	}{
		{"agree", nil, "The two runs agree at every cycle."},
		{
			"workload", &view.Difference{Cycle: 3, LeftStep: 7, RightStep: 8, Workload: "b/p2", Left: "Admitted on spot", Right: "Skipped", Text: "cycle 3: b/p2 is Admitted on the left, Skipped on the right"},
			"cycle 3: b/p2 is Admitted on the left, Skipped on the right Workload b/p2 Left Admitted on spot Right Skipped at cycle 3; step 7 on the left, step 8 on the right",
		},
		{
			"before the first cycle", &view.Difference{Left: "2 steps", Right: "3 steps", Text: "the runs differ before the first cycle"},
			"the runs differ before the first cycle Left 2 steps Right 3 steps before the first cycle; step 0 on the left, step 0 on the right",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := Difference(tt.d)
			checkTree(t, tt.name, n)
			if d := cmp.Diff(tt.want, allText(n)); d != "" {
				t.Errorf("Difference (-want +got):\n%s", d)
			}
		})
	}
}

func TestQueues(t *testing.T) {
	type item struct {
		List, Workload, Class, Text string
	}
	tests := []struct {
		name string
		q    view.Queue
		want []item
	}{
		{
			name: "head, nominated and more",
			q: view.Queue{ClusterQueue: "cq", Active: true, Head: "a/1", Nominated: "a/0",
				Pending:  view.List{Names: []string{"a/1", "a/2"}, Count: 14, More: 12},
				Admitted: view.List{Names: []string{"a/0"}, Count: 1}},
			want: []item{
				{"pending", "a/1", "head", "a/1 head"},
				{"pending", "a/2", "", "a/2"},
				{"pending", "", "more", "and 12 more"},
				{"admitted", "a/0", "nominated", "a/0 nominated"},
			},
		},
		{
			name: "nominated head still pending",
			q:    view.Queue{ClusterQueue: "cq", Active: true, Head: "a/1", Nominated: "a/1", Pending: view.List{Names: []string{"a/1"}, Count: 1}},
			want: []item{{"pending", "a/1", "head nominated", "a/1 head nominated"}},
		},
		{
			name: "capped to nothing",
			q:    view.Queue{ClusterQueue: "cq", Active: true, Parked: view.List{Count: 3, More: 3}, Terminating: view.List{Names: []string{"t/x"}, Count: 1}},
			want: []item{{"parked", "", "more", "3 not listed"}, {"terminating", "t/x", "", "t/x"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := Queues(view.Step{Queues: []view.Queue{tt.q}})
			checkTree(t, tt.name, n)
			var got []item
			for _, l := range find(n, func(x *view.Node) bool { return hasClass(x, "wl-list") }) {
				for _, li := range find(l, func(x *view.Node) bool { return x.Tag == "li" }) {
					got = append(got, item{l.Attr("data-list"), li.Attr("data-workload"), li.Attr("class"), allText(li)})
				}
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("Queues (-want +got):\n%s", d)
			}
		})
	}
	t.Run("inactive", func(t *testing.T) {
		n := Queues(view.Step{Queues: []view.Queue{{ClusterQueue: "cq", InactiveReason: "FlavorNotFound", Text: "inactive (FlavorNotFound); empty"}}})
		sec := n.Children[0]
		if d := cmp.Diff("cq inactive inactive (FlavorNotFound); empty", allText(sec)); d != "" {
			t.Errorf("inactive queue (-want +got):\n%s", d)
		}
		if sec.Attr("data-active") != "false" || !hasClass(sec, "inactive") {
			t.Errorf("inactive queue: attributes %v", sec.Attrs)
		}
	})
}

func TestMarks(t *testing.T) {
	type mark struct {
		Step, X, Width, Class, Title string
	}
	tests := []struct {
		name  string
		marks []view.Mark
		want  []mark
	}{
		{name: "none"},
		{
			name:  "one step is centred",
			marks: []view.Mark{{Step: 0, Kind: trace.StepInitial, Arrival: true}},
			want:  []mark{{"0", "488", "24", "mark mark-arrival", "step 0, initial state: arrival"}},
		},
		{
			name: "three steps span the width",
			marks: []view.Mark{
				{Step: 0, Kind: trace.StepInitial},
				{Step: 1, Kind: trace.StepCycle, Cycle: 1, TimeMs: 2000, Admission: true, Preemption: true},
				{Step: 2, Kind: trace.StepCycle, Cycle: 2, TimeMs: 3000, NoChange: true},
			},
			want: []mark{
				{"0", "-12", "24", "mark", "step 0, initial state"},
				{"1", "488", "24", "mark mark-admission mark-preemption", "step 1, cycle 1 at 2s: admission, preemption"},
				{"2", "988", "24", "mark mark-nochange", "step 2, cycle 2 at 3s: no change"},
			},
		},
		{
			name: "events and a quiet cycle",
			marks: []view.Mark{
				{Step: 0, Kind: trace.StepEvents, TimeMs: 1500, Release: true, Finish: true},
				{Step: 1, Kind: trace.StepCycle, Cycle: 4, TimeMs: 90_000},
				{Step: 2, Kind: trace.StepEvents, TimeMs: 90_000},
			},
			want: []mark{
				{"0", "-12", "24", "mark mark-release mark-finish", "step 0, events at 1.5s: release, finish"},
				{"1", "488", "24", "mark", "step 1, cycle 4 at 1m30s: no admission or preemption"},
				{"2", "988", "24", "mark", "step 2, events at 1m30s: other events"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := Marks(tt.marks)
			checkTree(t, tt.name, n)
			var got []mark
			for _, r := range n.Children {
				got = append(got, mark{r.Attr("data-goto-step"), r.Attr("x"), r.Attr("width"), r.Attr("class"), r.Children[0].Text})
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("Marks (-want +got):\n%s", d)
			}
		})
	}
	t.Run("many steps keep a visible width", func(t *testing.T) {
		marks := make([]view.Mark, 2001)
		for i := range marks {
			marks[i] = view.Mark{Step: i, Kind: trace.StepCycle}
		}
		n := Marks(marks)
		if got := n.Children[2000].Attr("width"); got != itoa(markMinWidth) {
			t.Errorf("width %s, want %d", got, markMinWidth)
		}
		if got := n.Children[1000].Attr("x"); got != "498" {
			t.Errorf("middle mark at x=%s, want 498", got)
		}
	})
}

func TestEventLog(t *testing.T) {
	entries := []view.LogEntry{
		{Step: 1, Time: "0s", Kind: "arrival", Workload: "a/x", Text: "a/x arrived"},
		{Step: 2, Time: "0s", Cycle: 1, Kind: view.LogKindDecision, Workload: "a/x", Outcome: trace.OutcomeAdmitted, Text: "a/x was admitted"},
		{Step: 3, Time: "1s", Kind: "finish", Workload: "a/x", Text: "a/x finished"},
	}
	n := EventLog(entries)
	checkTree(t, "EventLog", n)
	type row struct {
		Step, Goto, Kind, Outcome, Time, Text string
	}
	var got []row
	for _, li := range n.Children {
		b := li.Children[0]
		got = append(got, row{li.Attr("data-step"), b.Attr("data-goto-step"), b.Attr("data-kind"), b.Attr("data-outcome"),
			b.Children[0].Attr("class"), allText(b)})
	}
	want := []row{
		{"1", "1", "arrival", "", "time", "0s arrival a/x arrived"},
		{"2", "2", "decision", "Admitted", "time repeat", "0s Admitted a/x was admitted"},
		{"3", "3", "finish", "", "time", "1s finish a/x finished"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("EventLog (-want +got):\n%s", d)
	}
	if empty := EventLog(nil); len(empty.Children) != 1 || empty.Children[0].Text != "No events." {
		t.Errorf("empty log: %s", empty.String())
	}
}

// TestEventLogBound checks that a log longer than MaxLogEntries lays out
// its first MaxLogEntries entries and an li.more that counts the rest.
func TestEventLogBound(t *testing.T) {
	entries := func(n int) []view.LogEntry {
		var es []view.LogEntry
		for i := range n {
			es = append(es, view.LogEntry{Step: i, Time: itoa(i) + "s", Kind: "arrival", Text: "arrived"})
		}
		return es
	}
	tests := []struct {
		name     string
		n        int
		wantRows int
		wantMore string
	}{
		{name: "at the bound", n: MaxLogEntries, wantRows: MaxLogEntries},
		{name: "one over", n: MaxLogEntries + 1, wantRows: MaxLogEntries,
			wantMore: "… and 1 more entries after step 1999 (1999s): the scrubber and the Overview reach them."},
		{name: "far over", n: 3 * MaxLogEntries, wantRows: MaxLogEntries,
			wantMore: "… and 4000 more entries after step 1999 (1999s): the scrubber and the Overview reach them."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := EventLog(entries(tt.n))
			rows, more := 0, ""
			for _, li := range n.Children {
				if li.Attr("class") == "more" {
					more = li.Text
					continue
				}
				rows++
			}
			if rows != tt.wantRows || more != tt.wantMore {
				t.Errorf("%d entries: %d rows and more %q, want %d and %q", tt.n, rows, more, tt.wantRows, tt.wantMore)
			}
		})
	}
}

// TestQuotaBar checks the geometry of one bar: the segments where the
// view puts them, the quota marker, the borrowing limit marker only when
// there is a limit.
func TestQuotaBar(t *testing.T) {
	bar := view.Bar{Flavor: "rf", Resource: "cpu", Label: "rf/cpu", Scale: 8000, QuotaAt: 4000, BorrowingLimitAt: 6000,
		Segments: []view.Segment{
			{Kind: view.SegUsed, Start: 0, Size: 1000, Title: "used within the quota: 1"},
			{Kind: view.SegHeldBack, Start: 1000, Size: 1000, Title: "held back by the lending limit: 1"},
			{Kind: view.SegLent, Start: 2000, Size: 1000, Title: "lent to the cohort: 1"},
			{Kind: view.SegFree, Start: 3000, Size: 1000, Title: "free: 1"},
			{Kind: view.SegBorrowed, Start: 4000, Size: 500, Title: "borrowed beyond the quota: 500m"},
		}, Text: "used 1500m of 4", Changed: true}
	noLimit := bar
	noLimit.BorrowingLimitAt = -1
	noLimit.Changed = false
	type shape struct {
		Class, X, Width, Title string
	}
	tests := []struct {
		name string
		bar  view.Bar
		want []shape
	}{
		{"with a borrowing limit", bar, []shape{
			{"track", "0", "1000", ""},
			{"seg seg-used", "0", "125", "used within the quota: 1"},
			{"seg seg-heldBack", "125", "125", "held back by the lending limit: 1"},
			{"seg seg-lent", "250", "125", "lent to the cohort: 1"},
			{"seg seg-free", "375", "125", "free: 1"},
			{"seg seg-borrowed", "500", "62.5", "borrowed beyond the quota: 500m"},
			{"marker marker-quota", "500", "", "nominal quota: 4"},
			{"marker marker-limit", "750", "", "borrowing limit: 2 beyond the quota, up to 6"},
		}},
		{"without", noLimit, []shape{
			{"track", "0", "1000", ""},
			{"seg seg-used", "0", "125", "used within the quota: 1"},
			{"seg seg-heldBack", "125", "125", "held back by the lending limit: 1"},
			{"seg seg-lent", "250", "125", "lent to the cohort: 1"},
			{"seg seg-free", "375", "125", "free: 1"},
			{"seg seg-borrowed", "500", "62.5", "borrowed beyond the quota: 500m"},
			{"marker marker-quota", "500", "", "nominal quota: 4"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := Quota(view.Step{Quota: []*view.QuotaNode{{Name: "cq", Kind: "ClusterQueue", Bars: []view.Bar{tt.bar}, Changed: tt.bar.Changed}}})
			checkTree(t, tt.name, n)
			svgs := find(n, func(x *view.Node) bool { return x.Tag == "svg" })
			if len(svgs) != 1 {
				t.Fatalf("%d svg, want 1", len(svgs))
			}
			var got []shape
			for _, c := range svgs[0].Children {
				s := shape{Class: c.Attr("class"), X: c.Attr("x") + c.Attr("x1"), Width: c.Attr("width")}
				if len(c.Children) > 0 {
					s.Title = c.Children[0].Text
				}
				got = append(got, s)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("bar (-want +got):\n%s", d)
			}
			rows := find(n, func(x *view.Node) bool { return hasClass(x, "qbar") })
			if len(rows) != 1 || rows[0].Attr("data-flavor") != "rf" || rows[0].Attr("data-resource") != "cpu" || hasClass(rows[0], "changed") != tt.bar.Changed {
				t.Errorf("bar row: %v", rows)
			}
		})
	}
}

// TestQuotaTree checks the shape of the tree: nesting, kinds, depths,
// the changed class.
func TestQuotaTree(t *testing.T) {
	st := view.Step{Quota: []*view.QuotaNode{{
		Name: "root", Kind: "Cohort", Changed: true,
		Children: []*view.QuotaNode{
			{Name: "child", Kind: "Cohort", Depth: 1, Children: []*view.QuotaNode{{Name: "cq-a", Kind: "ClusterQueue", Depth: 2}}},
			{Name: "cq-b", Kind: "ClusterQueue", Depth: 1, Changed: true},
		},
	}, {Name: "alone", Kind: "ClusterQueue"}}}
	n := Quota(st)
	checkTree(t, "Quota", n)
	type item struct {
		Name, Kind, Depth, Level, Class, Parent string
	}
	var got []item
	var walk func(x *view.Node, parent string)
	walk = func(x *view.Node, parent string) {
		if x.Attr("role") == "treeitem" {
			got = append(got, item{x.Attr("data-name"), x.Attr("data-kind"), x.Attr("data-depth"), x.Attr("aria-level"), x.Attr("class"), parent})
			parent = x.Attr("data-name")
		}
		for _, c := range x.Children {
			walk(c, parent)
		}
	}
	walk(n, "")
	want := []item{
		{"root", "Cohort", "0", "1", "qnode qnode-cohort changed", ""},
		{"child", "Cohort", "1", "2", "qnode qnode-cohort", "root"},
		{"cq-a", "ClusterQueue", "2", "3", "qnode qnode-cq", "child"},
		{"cq-b", "ClusterQueue", "1", "2", "qnode qnode-cq changed", "root"},
		{"alone", "ClusterQueue", "0", "1", "qnode qnode-cq", ""},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("tree (-want +got):\n%s", d)
	}
	if len(find(n, func(x *view.Node) bool { return x.Attr("role") == "tree" })) != 1 {
		t.Error("want one role=tree")
	}
	if empty := Quota(view.Step{}); !strings.Contains(allText(empty), "No quota") {
		t.Errorf("empty forest: %s", empty.String())
	}
}

// TestDecisions checks the contract of the decisions panel on a real
// preemption: one div.decision per decision with its outcome, the
// candidates in order with their targets marked, the targets, the claims.
func TestDecisions(t *testing.T) {
	st := view.New(run(t, "kep4378-claims-gate-on", nil)).Step(4)
	n := Decisions(st)
	checkTree(t, "Decisions", n)
	type dec struct {
		Workload, Outcome string
		Candidates        []string
		Targets           []string
		Sentence          string
	}
	var got []dec
	for _, d := range find(n, func(x *view.Node) bool { return hasClass(x, "decision") }) {
		g := dec{Workload: d.Attr("data-workload"), Outcome: d.Attr("data-outcome")}
		// The preemption of the decision itself, not the one before a
		// recomputation.
		var pre *view.Node
		for _, x := range d.Children[0].Children {
			if hasClass(x, "preemption") {
				pre = x
			}
		}
		if pre != nil {
			for _, tr := range find(pre, func(x *view.Node) bool { return x.Tag == "tr" && x.Attr("data-workload") != "" }) {
				g.Candidates = append(g.Candidates, tr.Attr("data-workload")+" "+tr.Attr("class"))
			}
			for _, li := range find(pre, func(x *view.Node) bool { return hasClass(x, "target") && x.Tag == "li" }) {
				g.Targets = append(g.Targets, li.Attr("data-workload")+" "+li.Attr("data-reason"))
			}
		}
		g.Sentence = find(d, func(x *view.Node) bool { return hasClass(x, "sentence") })[0].Text
		// The selectors the end-to-end tests use match the decision's own
		// search only, not the one a recomputation replaced.
		if got := len(find(d, func(x *view.Node) bool { return x.Tag == "ul" && hasClass(x, "targets") })); got != 1 {
			t.Errorf("%s: %d ul.targets, want 1", g.Workload, got)
		}
		if got := len(find(d, func(x *view.Node) bool { return x.Tag == "table" && hasClass(x, "candidates") })); got != 1 {
			t.Errorf("%s: %d table.candidates, want 1", g.Workload, got)
		}
		got = append(got, g)
	}
	want := []dec{
		{"a/p1", "Preempting", []string{"t/target target"}, []string{"t/target InCohortReclamation"}, st.Decisions[0].Sentence},
		{"b/p2", "Preempting", []string{"t/target target"}, []string{"t/target InCohortReclaimWhileBorrowing"}, st.Decisions[1].Sentence},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("decisions (-want +got):\n%s", d)
	}
	if len(find(n, func(x *view.Node) bool { return hasClass(x, "claims") })) != 1 {
		t.Error("want one .claims")
	}
	if len(find(n, func(x *view.Node) bool { return hasClass(x, "recomputed") })) != 1 {
		t.Error("want one .recomputed")
	}
	tables := len(find(n, func(x *view.Node) bool { return x.Tag == "table" }))
	wrapped := 0
	for _, w := range find(n, func(x *view.Node) bool { return hasClass(x, "table-scroll") }) {
		if len(w.Children) == 1 && w.Children[0].Tag == "table" {
			wrapped++
		}
	}
	if tables == 0 || wrapped != tables {
		t.Errorf("%d tables, %d of them alone in a div.table-scroll", tables, wrapped)
	}
}

func TestNoDecisions(t *testing.T) {
	tests := []struct {
		name string
		st   view.Step
		want string
	}{
		{"initial", view.Step{Kind: trace.StepInitial, Total: 3}, "The initial state, before the first scheduling cycle: nothing is decided here."},
		{"events", view.Step{Kind: trace.StepEvents, Total: 3, Events: []view.Event{{Kind: trace.EventArrival, Workload: "a/x", Text: "a/x arrived"}}},
			"An event step: no scheduling cycle runs here, only the events below. Events in this step arrival a/x arrived"},
		{"empty cycle", view.Step{Kind: trace.StepCycle, Cycle: 4, Total: 3}, "Cycle 4 had no head to decide: every queue was empty, parked or inactive."},
		{"no steps", view.Step{Title: "No steps"}, "There is nothing to show: the run has no steps."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := Decisions(tt.st)
			checkTree(t, tt.name, n)
			if d := cmp.Diff(tt.want, allText(n)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// TestDeterministic lays out the same step twice.
func TestDeterministic(t *testing.T) {
	tr := run(t, "preemption-within-cluster-queue", nil)
	for i := range 2 {
		a := view.New(tr).Step(6)
		b := view.New(tr).Step(6)
		if Decisions(a).String() != Decisions(b).String() || Quota(a).String() != Quota(b).String() {
			t.Fatalf("round %d: the same step laid out twice differs", i)
		}
	}
}

// TestStepEventsChunks checks a step's events are one flat ul up to
// eventsChunk of them and, past it, chunks of eventsChunk in order, each
// entry a listitem, the chunks and their lists role=none.
func TestStepEventsChunks(t *testing.T) {
	type shape struct {
		Chunked bool
		Chunks  []int    // entries per li.events-chunk
		Order   []string // the entries' workloads, in document order
	}
	for _, tt := range []struct {
		name   string
		events int
		want   []int // nil: not chunked
	}{
		{name: "one event", events: 1},
		{name: "exactly a chunk", events: eventsChunk},
		{name: "one over a chunk", events: eventsChunk + 1, want: []int{eventsChunk, 1}},
		{name: "two and a half chunks", events: 2*eventsChunk + eventsChunk/2, want: []int{eventsChunk, eventsChunk, eventsChunk / 2}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			es := make([]view.Event, tt.events)
			var order []string
			for i := range es {
				es[i] = view.Event{Kind: "arrival", Workload: "ns/w" + itoa(i), ClusterQueue: "cq", Text: "ns/w" + itoa(i) + " arrived"}
				order = append(order, es[i].Workload)
			}
			n := stepEvents(es)
			checkTree(t, "stepEvents", n)
			want := shape{Chunked: tt.want != nil, Chunks: tt.want, Order: order}
			uls := find(n, func(x *view.Node) bool { return x.Tag == "ul" })
			got := shape{Chunked: hasClass(uls[0], "chunked")}
			for _, c := range find(n, func(x *view.Node) bool { return hasClass(x, "events-chunk") }) {
				if c.Attr("role") != "none" || c.Children[0].Tag != "ul" || c.Children[0].Attr("role") != "none" {
					t.Errorf("chunk %d: role %q, its list %s role %q; want none and a ul of role none", len(got.Chunks), c.Attr("role"), c.Children[0].Tag, c.Children[0].Attr("role"))
				}
				got.Chunks = append(got.Chunks, len(c.Children[0].Children))
			}
			for _, li := range find(n, func(x *view.Node) bool { return x.Attr("data-kind") != "" }) {
				if role := li.Attr("role"); (role == "listitem") != got.Chunked {
					t.Errorf("%s: role %q in a list chunked %v", li.Attr("data-workload"), role, got.Chunked)
				}
				got.Order = append(got.Order, li.Attr("data-workload"))
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("step events (-want +got):\n%s", d)
			}
		})
	}
}
