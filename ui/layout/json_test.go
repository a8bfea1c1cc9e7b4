package layout_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/ui/layout"
	"github.com/kueueplay/kueueplay/ui/view"
)

// decoded is what the page's builder reads from layout.JSON: a tree
// decoded by encoding/json, which must give back every tag, attribute and
// text as the Node held it (after view.CleanText).
type decoded struct {
	Tag      string
	Attrs    []string
	Text     string
	Children []decoded
}

func (d *decoded) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if len(raw) != 4 {
		return &json.UnmarshalTypeError{Value: string(b)}
	}
	for i, p := range []any{&d.Tag, &d.Attrs, &d.Text, &d.Children} {
		if err := json.Unmarshal(raw[i], p); err != nil {
			return err
		}
	}
	return nil
}

func want(n *view.Node) decoded {
	d := decoded{Tag: n.Tag, Attrs: []string{}, Text: view.CleanText(n.Text), Children: []decoded{}}
	for _, a := range n.Attrs {
		d.Attrs = append(d.Attrs, a.Name, view.CleanText(a.Value))
	}
	for _, c := range n.Children {
		if c != nil {
			d.Children = append(d.Children, want(c))
		}
	}
	return d
}

func TestJSONHostile(t *testing.T) {
	tests := []struct {
		name string
		node *view.Node
		// raw, when set, is the exact encoding.
		raw string
	}{
		{
			name: "plain element",
			node: &view.Node{Tag: "p", Attrs: []view.Attr{{Name: "class", Value: "x"}}, Text: "hi"},
			raw:  `["p",["class","x"],"hi",[]]`,
		},
		{
			name: "markup in text and attributes stays text",
			node: &view.Node{Tag: "li", Attrs: []view.Attr{{Name: "data-workload", Value: `"><img src=x onerror=alert(1)>`}},
				Text: `</li><script>alert(1)</script>`},
		},
		{
			name: "quotes, backslashes and control characters",
			node: &view.Node{Tag: "span", Text: "a\"b\\c\x00d\x1fe\tf\ng\rh"},
		},
		{
			name: "line and paragraph separators are escaped",
			node: &view.Node{Tag: "span", Text: "a\u2028b\u2029c"},
			raw:  `["span",[],"a\u2028b\u2029c",[]]`,
		},
		{
			name: "invalid UTF-8 in text becomes U+FFFD",
			node: &view.Node{Tag: "span", Text: "a\xffb\xc3"},
			raw:  "[\"span\",[],\"a\uFFFDb\uFFFD\",[]]",
		},
		{
			name: "invalid UTF-8 in a tag or attribute name becomes U+FFFD",
			node: &view.Node{Tag: "x\xff", Attrs: []view.Attr{{Name: "\xfe", Value: "v"}}},
			raw:  "[\"x\uFFFD\",[\"\uFFFD\",\"v\"],\"\",[]]",
		},
		{
			name: "SVG with nested children, nil children skipped",
			node: (&view.Node{Tag: "svg", Attrs: []view.Attr{{Name: "viewBox", Value: "0 0 10 10"}}}).Add(
				nil,
				(&view.Node{Tag: "g"}).Add(&view.Node{Tag: "text", Text: "<b>&amp;</b> 日本"}),
				&view.Node{Tag: "rect", Attrs: []view.Attr{{Name: "onload", Value: "alert(1)"}}},
			),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := layout.JSON(tt.node)
			if tt.raw != "" && got != tt.raw {
				t.Errorf("JSON = %s, want %s", got, tt.raw)
			}
			if !json.Valid([]byte(got)) {
				t.Fatalf("not valid JSON: %q", got)
			}
			var d decoded
			if err := json.Unmarshal([]byte(got), &d); err != nil {
				t.Fatal(err)
			}
			w := want(tt.node)
			if tt.name == "invalid UTF-8 in a tag or attribute name becomes U+FFFD" {
				w.Tag, w.Attrs[0] = "x\uFFFD", "\uFFFD"
			}
			if diff := cmp.Diff(w, d); diff != "" {
				t.Errorf("decoded tree (-want +got):\n%s", diff)
			}
		})
	}
}

func TestJSONNil(t *testing.T) {
	if got := layout.JSON(nil); got != "" {
		t.Errorf("JSON(nil) = %q, want \"\"", got)
	}
}
