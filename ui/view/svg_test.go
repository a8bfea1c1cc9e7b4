package view

import (
	"encoding/xml"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/kueueplay/kueueplay/core/trace"
)

// TestSVGGolden compares two drawings with testdata/*.svg.
func TestSVGGolden(t *testing.T) {
	tests := []struct {
		scenario string
		step     int
		opts     SVGOptions
		file     string
	}{
		{"default", 10, SVGOptions{Heading: "default"}, "default-step10.svg"},
		{"kep4378-claims-gate-on", 4, SVGOptions{Theme: "dark", Heading: "kep4378-claims-gate-on"}, "kep4378-claims-gate-on-step4-dark.svg"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			st := Build(run(t, tt.scenario, nil), tt.step)
			got := SVG(st, tt.opts).String()
			checkSVG(t, SVG(st, tt.opts))
			golden(t, tt.file, []byte(got+"\n"))
		})
	}
}

// TestSVGEveryStep draws every step of every scenario in both themes and
// checks that each drawing is well-formed, self-contained XML.
func TestSVGEveryStep(t *testing.T) {
	for _, name := range allScenarios(t) {
		t.Run(name, func(t *testing.T) {
			m := New(run(t, name, nil))
			for i := range m.Len() {
				for _, theme := range []string{"light", "dark"} {
					checkSVG(t, SVG(m.Step(i), SVGOptions{Theme: theme}))
				}
			}
		})
	}
}

// TestSVGHostileNames draws a hand-made trace whose names are markup and
// control characters: they must come out as text.
func TestSVGHostileNames(t *testing.T) {
	evil := "<img src=x onerror=alert(1)>\x00\x1b]]>&amp;\"'"
	tr := mkTrace(
		trace.Step{Kind: trace.StepEvents, Events: []trace.Event{{Kind: trace.EventArrival, Workload: evil, ClusterQueue: evil, Message: evil}},
			Queues: []trace.QueueState{{ClusterQueue: evil, Active: false, InactiveReason: evil, Pending: []string{evil}, PendingCount: 2}},
			Usage:  []trace.UsageRow{{Node: evil, Kind: "ClusterQueue", Parent: evil, Flavor: evil, Resource: evil, Used: 5, Nominal: 3, SubtreeQuota: 3, Borrowed: 2}}},
		trace.Step{Kind: trace.StepCycle, Cycle: 1, Decisions: []trace.Decision{{Workload: evil, ClusterQueue: evil, Outcome: trace.Outcome(evil), Message: evil}},
			Claims: []trace.Claim{{Target: evil, By: []trace.ClaimBy{{Preemptor: evil}}}}},
	)
	m := New(tr)
	for i := range m.Len() {
		n := SVG(m.Step(i), SVGOptions{Heading: evil, Theme: evil})
		checkSVG(t, n)
		s := n.String()
		if strings.Contains(s, "<img") || strings.Contains(s, "\x00") || strings.Contains(s, "\x1b") {
			t.Errorf("step %d: markup or control characters leaked:\n%s", i, s)
		}
		if !strings.Contains(allText(t, s), "<img src=x onerror=alert(1)>") {
			t.Errorf("step %d: the name is not shown as text", i)
		}
	}
}

func allText(t *testing.T, s string) string {
	t.Helper()
	var b strings.Builder
	dec := xml.NewDecoder(strings.NewReader(s))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return b.String()
		}
		if err != nil {
			t.Fatal(err)
		}
		if cd, ok := tok.(xml.CharData); ok {
			b.Write(cd)
		}
	}
}

// What a drawing may contain: no script, style, link, image or foreign
// content, no event handlers, no references to anything outside it.
var (
	svgTags  = map[string]bool{"svg": true, "g": true, "rect": true, "line": true, "circle": true, "text": true, "title": true}
	svgAttrs = map[string]bool{
		"xmlns": true, "width": true, "height": true, "viewBox": true, "font-family": true, "font-size": true, "font-weight": true,
		"fill": true, "stroke": true, "stroke-width": true, "stroke-dasharray": true, "role": true, "aria-label": true,
		"x": true, "y": true, "x1": true, "y1": true, "x2": true, "y2": true, "cx": true, "cy": true, "r": true, "rx": true,
		"text-anchor": true,
	}
)

// checkSVG checks a drawing: well-formed XML with one svg root of the
// expected width, only allowed elements and attributes, coordinates
// inside the drawing, colors as #rrggbb.
func checkSVG(t *testing.T, n *Node) {
	t.Helper()
	s := n.String()
	checkXML(t, s)
	if n.Tag != "svg" || n.Attr("xmlns") != "http://www.w3.org/2000/svg" {
		t.Fatalf("root is <%s xmlns=%q>", n.Tag, n.Attr("xmlns"))
	}
	width, _ := strconv.Atoi(n.Attr("width"))
	height, _ := strconv.Atoi(n.Attr("height"))
	if width != 900 || height <= 0 {
		t.Errorf("size %sx%s, want width 900", n.Attr("width"), n.Attr("height"))
	}
	var walk func(*Node)
	walk = func(e *Node) {
		if !svgTags[e.Tag] {
			t.Errorf("element <%s> not allowed", e.Tag)
		}
		for _, a := range e.Attrs {
			if !svgAttrs[a.Name] {
				t.Errorf("attribute %s on <%s> not allowed", a.Name, e.Tag)
			}
			switch a.Name {
			case "x", "x1", "x2", "cx":
				if v, err := strconv.ParseFloat(a.Value, 64); err != nil || v < 0 || v > float64(width) {
					t.Errorf("<%s %s=%q> outside the width %d", e.Tag, a.Name, a.Value, width)
				}
			case "y", "y1", "y2", "cy":
				if v, err := strconv.ParseFloat(a.Value, 64); err != nil || v < 0 || v > float64(height) {
					t.Errorf("<%s %s=%q> outside the height %d", e.Tag, a.Name, a.Value, height)
				}
			case "fill", "stroke":
				if a.Value != "none" && (len(a.Value) != 7 || a.Value[0] != '#') {
					t.Errorf("<%s %s=%q> is not a #rrggbb color", e.Tag, a.Name, a.Value)
				}
			}
		}
		for _, c := range e.Children {
			walk(c)
		}
	}
	walk(n)
}
