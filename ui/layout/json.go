package layout

import (
	"unicode/utf8"

	"github.com/kueueplay/kueueplay/ui/view"
)

// JSON is n in the form the page's builder (kueueplayBoot.render in
// site/boot.js) materializes: [tag, [name, value, ...], text, [child,
// ...]], with view.CleanText applied to text and values so that the page
// shows what render.svg shows; "" for nil. It is what crosses from the
// engine's Web Worker to the page (ui/engine): a string the page hands to
// render untouched, where a tree decoded by the page's Go through
// syscall/js would cost a call per node. The builder creates elements
// and text nodes, never parses HTML, and refuses script-bearing tags and
// attributes whatever the tree says; the encoding here only has to be
// valid JSON for any text (TestJSONHostile).
func JSON(n *view.Node) string {
	if n == nil {
		return ""
	}
	return string(AppendJSON(nil, n))
}

// AppendJSON appends JSON(n) to b (n not nil).
func AppendJSON(b []byte, n *view.Node) []byte {
	b = append(b, '[')
	b = appendJSONString(b, n.Tag)
	b = append(b, ",["...)
	for i, a := range n.Attrs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, a.Name)
		b = append(b, ',')
		b = appendJSONString(b, view.CleanText(a.Value))
	}
	b = append(b, "],"...)
	b = appendJSONString(b, view.CleanText(n.Text))
	b = append(b, ",["...)
	first := true
	for _, c := range n.Children {
		if c == nil {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = AppendJSON(b, c)
	}
	return append(b, "]]"...)
}

// appendJSONString writes s (valid UTF-8: CleanText'ed, or a tag or
// attribute name, whose invalid bytes are replaced here too) as a JSON
// string. U+2028 and U+2029 are escaped as well, so the string is also a
// valid JavaScript literal.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		case c == 0xe2 && i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xa8 || s[i+2] == 0xa9):
			b = append(b, '\\', 'u', '2', '0', '2', hex[s[i+2]-0xa0])
			i += 2
		case c >= 0x80:
			// Copy a whole valid sequence; an invalid byte (possible only
			// in a tag or attribute name) becomes U+FFFD.
			r, size := decodeRune(s[i:])
			if r < 0 {
				b = append(b, "\uFFFD"...)
			} else {
				b = append(b, s[i:i+size]...)
			}
			i += size - 1
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// decodeRune is utf8.DecodeRuneInString, with -1 for an invalid byte.
func decodeRune(s string) (rune, int) {
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && size == 1 {
		return -1, 1
	}
	return r, size
}
