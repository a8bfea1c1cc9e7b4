package view

import (
	"strings"
	"unicode/utf8"
)

// Node is a tiny XML element tree: the SVG drawings are built as Nodes so
// that the UI can create DOM nodes from them and the HTTP API can serve
// their String(). The UI creates every element with
// createElementNS("http://www.w3.org/2000/svg", Tag), sets each attribute
// with setAttribute except "xmlns" (which createElementNS already
// implies), sets Text with textContent (never innerHTML) before appending
// the children, and passes text through CleanText to show what String
// shows.
type Node struct {
	Tag   string
	Attrs []Attr
	// Text is the element's text, written before its children.
	Text     string
	Children []*Node
}

// Attr is one attribute.
type Attr struct {
	Name, Value string
}

// El returns a new element with attributes given as name, value pairs (a
// trailing name without a value is ignored).
func El(tag string, attrs ...string) *Node {
	n := &Node{Tag: tag}
	for i := 0; i+1 < len(attrs); i += 2 {
		n.Attrs = append(n.Attrs, Attr{attrs[i], attrs[i+1]})
	}
	return n
}

// Add appends children and returns n.
func (n *Node) Add(children ...*Node) *Node {
	n.Children = append(n.Children, children...)
	return n
}

// Attr returns the value of the named attribute, "" if absent.
func (n *Node) Attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name == name {
			return a.Value
		}
	}
	return ""
}

// String serialises n as XML. Text and attribute values are escaped, so
// any string (a workload named `<img onerror=alert(1)>`) comes out as text;
// characters XML 1.0 does not allow (control characters other than tab,
// newline and carriage return, U+FFFE, U+FFFF, invalid UTF-8) are replaced
// with U+FFFD. Tag and attribute names are not meant to come from data;
// characters other than ASCII letters, digits, '-', '_', '.' and ':' are
// replaced with '_' all the same, so the output is always well-formed.
func (n *Node) String() string {
	var b strings.Builder
	n.write(&b)
	return b.String()
}

func (n *Node) write(b *strings.Builder) {
	tag := xmlName(n.Tag)
	b.WriteByte('<')
	b.WriteString(tag)
	for _, a := range n.Attrs {
		b.WriteByte(' ')
		b.WriteString(xmlName(a.Name))
		b.WriteString(`="`)
		escape(b, a.Value, true)
		b.WriteByte('"')
	}
	if n.Text == "" && len(n.Children) == 0 {
		b.WriteString("/>")
		return
	}
	b.WriteByte('>')
	escape(b, n.Text, false)
	for _, c := range n.Children {
		if c != nil {
			c.write(b)
		}
	}
	b.WriteString("</")
	b.WriteString(tag)
	b.WriteByte('>')
}

// xmlName makes s a valid XML name (of the ASCII subset).
func xmlName(s string) string {
	ok := s != ""
	for i := 0; ok && i < len(s); i++ {
		ok = nameByte(s[i], i == 0)
	}
	if ok {
		return s
	}
	if s == "" {
		return "_"
	}
	out := []byte(s)
	for i := range out {
		if !nameByte(out[i], i == 0) {
			out[i] = '_'
		}
	}
	return string(out)
}

func nameByte(c byte, first bool) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c == ':':
		return true
	case c >= '0' && c <= '9', c == '-', c == '.':
		return !first
	}
	return false
}

// CleanText returns s with the characters XML cannot hold replaced with
// U+FFFD (see Node.String). The UI applies it to text it puts in the DOM
// from a Node, so that the page shows what render.svg shows.
func CleanText(s string) string {
	var b strings.Builder
	clean := true
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !xmlChar(r, size) {
			clean = false
			break
		}
		i += size
	}
	if clean {
		return s
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if xmlChar(r, size) {
			b.WriteString(s[i : i+size])
		} else {
			b.WriteRune(utf8.RuneError)
		}
		i += size
	}
	return b.String()
}

// xmlChar reports whether r (decoded with the given size) may appear in
// an XML 1.0 document. An invalid UTF-8 byte decodes as RuneError of size
// 1; a real U+FFFD has size 3.
func xmlChar(r rune, size int) bool {
	switch {
	case r == utf8.RuneError && size == 1:
		return false
	case r == '\t' || r == '\n' || r == '\r':
		return true
	case r < 0x20:
		return false
	case r >= 0xD800 && r <= 0xDFFF, r == 0xFFFE, r == 0xFFFF:
		return false
	}
	return true
}

func escape(b *strings.Builder, s string, attr bool) {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case !xmlChar(r, size):
			b.WriteString("\uFFFD")
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"' && attr:
			b.WriteString("&quot;")
		case r == '\'' && attr:
			b.WriteString("&apos;")
		case r == '\r':
			b.WriteString("&#13;")
		case r == '\n' && attr:
			b.WriteString("&#10;")
		case r == '\t' && attr:
			b.WriteString("&#9;")
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
}
