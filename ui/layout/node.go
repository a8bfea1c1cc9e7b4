package layout

import (
	"strconv"
	"strings"

	"github.com/kueueplay/kueueplay/ui/view"
)

// This file holds the small helpers the layouts share. Like ui/view, the
// package uses strconv and strings rather than fmt, to keep the
// WebAssembly binary small.

// el is view.El: an element with name, value attribute pairs.
func el(tag string, attrs ...string) *view.Node { return view.El(tag, attrs...) }

// txt is an element holding text s.
func txt(tag, s string, attrs ...string) *view.Node {
	n := view.El(tag, attrs...)
	n.Text = s
	return n
}

// span is a span with class class holding text s.
func span(class, s string) *view.Node {
	if class == "" {
		return txt("span", s)
	}
	return txt("span", s, "class", class)
}

// cls joins the non-empty class names.
func cls(names ...string) string {
	var b strings.Builder
	for _, n := range names {
		if n == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(n)
	}
	return b.String()
}

// attr appends an attribute to n when value is not empty.
func attr(n *view.Node, name, value string) *view.Node {
	if value != "" {
		n.Attrs = append(n.Attrs, view.Attr{Name: name, Value: value})
	}
	return n
}

// button is a <button type="button"> with the given class and attributes.
func button(class string, attrs ...string) *view.Node {
	return el("button", append([]string{"type", "button", "class", class}, attrs...)...)
}

func itoa(v int) string { return strconv.Itoa(v) }

// num formats an SVG coordinate with at most two decimals and no
// trailing zeros: "0", "12.5", "333.33".
func num(f float64) string {
	s := strconv.FormatFloat(f, 'f', 2, 64)
	s = strings.TrimRight(s, "0")
	s = strings.TrimSuffix(s, ".")
	if s == "-0" || s == "" {
		return "0"
	}
	return s
}

// plural returns one or many by n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// count writes "1 error", "2 errors".
func count(n int, one, many string) string { return itoa(n) + " " + plural(n, one, many) }

// yesNo is a boolean as a data attribute value.
func yesNo(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// tableScroll wraps a table in a div that scrolls it sideways when the
// pane is too narrow, so the page itself never does.
func tableScroll(t *view.Node) *view.Node {
	return el("div", "class", "table-scroll").Add(t)
}

// headRow is a thead row of column headers.
func headRow(cols ...string) *view.Node {
	tr := el("tr")
	for _, c := range cols {
		tr.Add(txt("th", c, "scope", "col"))
	}
	return el("thead").Add(tr)
}

// when returns class when on is set, else "" (for cls).
func when(on bool, class string) string {
	if on {
		return class
	}
	return ""
}
