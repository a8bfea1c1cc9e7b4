package view

import (
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNodeString(t *testing.T) {
	tests := []struct {
		name string
		node *Node
		want string
	}{
		{
			name: "empty element",
			node: El("rect", "x", "1", "y", "2"),
			want: `<rect x="1" y="2"/>`,
		},
		{
			name: "a name that looks like markup is text",
			node: &Node{Tag: "text", Text: "<img onerror=alert(1)>"},
			want: `<text>&lt;img onerror=alert(1)&gt;</text>`,
		},
		{
			name: "attribute values are quoted safely",
			node: El("text", "aria-label", `a" onload="alert(1)`, "data-x", "it's <b> & co"),
			want: `<text aria-label="a&quot; onload=&quot;alert(1)" data-x="it&apos;s &lt;b&gt; &amp; co"/>`,
		},
		{
			name: "entities are not decoded twice",
			node: &Node{Tag: "text", Text: "&amp; &lt;"},
			want: `<text>&amp;amp; &amp;lt;</text>`,
		},
		{
			name: "CDATA end and comment markers",
			node: &Node{Tag: "text", Text: "]]> <!-- --> <![CDATA[x]]>"},
			want: `<text>]]&gt; &lt;!-- --&gt; &lt;![CDATA[x]]&gt;</text>`,
		},
		{
			name: "control characters are replaced",
			node: &Node{Tag: "text", Attrs: []Attr{{"title", "a\x00b\x1bc\x7f"}}, Text: "x\x01y\x08z\x0bw\x0cv"},
			want: "<text title=\"a\uFFFDb\uFFFDc\x7f\">x\uFFFDy\uFFFDz\uFFFDw\uFFFDv</text>",
		},
		{
			name: "tab, newline and carriage return survive",
			node: &Node{Tag: "text", Attrs: []Attr{{"title", "a\tb\nc\rd"}}, Text: "a\tb\nc\rd"},
			want: "<text title=\"a&#9;b&#10;c&#13;d\">a\tb\nc&#13;d</text>",
		},
		{
			name: "invalid UTF-8 and non-characters are replaced",
			node: &Node{Tag: "text", Text: "a\xffb\xc3c\uFFFEd\uFFFFe"},
			want: "<text>a\uFFFDb\uFFFDc\uFFFDd\uFFFDe</text>",
		},
		{
			name: "non-ASCII text is kept",
			node: &Node{Tag: "text", Text: "ünïcødé ✓ 日本 😀 \uFFFD"},
			want: "<text>ünïcødé ✓ 日本 😀 \uFFFD</text>",
		},
		{
			name: "bad tag and attribute names cannot break out",
			node: &Node{Tag: "g><script", Attrs: []Attr{{`x="1" onload`, "v"}, {"", "w"}, {"1a", "z"}}},
			want: `<g__script x__1__onload="v" _="w" _a="z"/>`,
		},
		{
			name: "children after text, nil children skipped",
			node: (&Node{Tag: "text", Text: "a"}).Add(&Node{Tag: "title", Text: "b & c"}, nil, El("tspan")),
			want: `<text>a<title>b &amp; c</title><tspan/></text>`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.node.String()
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
			checkXML(t, got)
		})
	}
}

// TestNodeRoundTripThroughXMLParser checks that text and attribute values
// come back unchanged (after cleaning) through a real XML parser.
func TestNodeRoundTripThroughXMLParser(t *testing.T) {
	for _, s := range []string{
		"<img onerror=alert(1)>", `"'&;<>`, "a\tb\nc", "ünïcødé 😀", "x\x00y", "]]>", "&#x41;", "\xff",
	} {
		t.Run(s, func(t *testing.T) {
			n := El("svg", "title", s)
			n.Text = s
			dec := xml.NewDecoder(strings.NewReader(n.String()))
			var gotAttr, gotText string
			for {
				tok, err := dec.Token()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("%q: %v", n.String(), err)
				}
				switch tk := tok.(type) {
				case xml.StartElement:
					gotAttr = tk.Attr[0].Value
				case xml.CharData:
					gotText += string(tk)
				}
			}
			want := CleanText(s)
			if gotAttr != want || gotText != want {
				t.Errorf("attribute %q, text %q; want %q", gotAttr, gotText, want)
			}
		})
	}
}

func TestCleanText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"a\x00b", "a\uFFFDb"},
		{"tab\tnl\ncr\r", "tab\tnl\ncr\r"},
		{"bad\xffutf8", "bad\uFFFDutf8"},
		{"\uFFFE", "\uFFFD"},
	}
	for _, tt := range tests {
		if got := CleanText(tt.in); got != tt.want {
			t.Errorf("CleanText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// checkXML fails the test unless s is one well-formed XML element.
func checkXML(t *testing.T, s string) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(s))
	dec.Strict = true
	depth, roots := 0, 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, s)
		}
		switch tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
			}
			depth++
		case xml.EndElement:
			depth--
		case xml.CharData:
			if depth == 0 && strings.TrimSpace(string(tok.(xml.CharData))) != "" {
				t.Fatalf("text outside the root element:\n%s", s)
			}
		default:
			t.Fatalf("unexpected token %T in\n%s", tok, s)
		}
	}
	if roots != 1 || depth != 0 {
		t.Fatalf("want one root element, got %d (depth %d)", roots, depth)
	}
}
