package scenario

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDeepFlow(t *testing.T) {
	type pos struct {
		Line, Col int
		Found     bool
	}
	tests := []struct {
		name string
		in   string
		want pos // with a limit of 3
	}{
		{name: "three levels", in: "a: [[[x]]]\n"},
		{name: "four levels", in: "a: [[[[x]]]]\n", want: pos{1, 7, true}},
		{name: "mixed brackets across lines", in: "a:\n  - {b: [\n    {c: [x]}]}\n", want: pos{3, 9, true}},
		{name: "closed then opened again", in: "a: [[[x]]]\nb: [[[y]]]\n"},
		{name: "after an anchor and a tag", in: "a: &x !!seq [[[[1]]]]\n", want: pos{1, 16, true}},
		{name: "a sequence entry", in: "- [[[[1]]]]\n", want: pos{1, 6, true}},
		{name: "the document's root", in: "---\n[[[[1]]]]\n", want: pos{2, 4, true}},
		{name: "a column in runes", in: "é: [[[[1]]]]\n", want: pos{1, 7, true}},
		{name: "in a plain scalar", in: "a: x[[[[[[y\nb: c {{{{{\n"},
		{name: "in a comment", in: "a: 1 # [[[[[[\n# {{{{{{{\n"},
		{name: "in quoted scalars", in: "a: \"[[[[\\\" [[[[\"\nb: '{{{{ '' [[[['\nc: [\"[[[[\", '{{{{']\n"},
		{name: "a quoted scalar over two lines", in: "a: \"x\n  [[[[[ y\"\nb: 1\n"},
		{name: "in a block scalar", in: "a: |\n  [[[[[[\n\n  {{{{{{\nb: >-\n   [[[[[\nc: 1\n"},
		{name: "a block scalar ends where the indentation does", in: "a: |\n  text\nb: [[[[1]]]]\n", want: pos{3, 7, true}},
		{name: "a colon in a flow plain scalar", in: "a: [http://x, [[1]]]\n"},
		{name: "JSON style", in: `{"a":[[{"b":[1]}]]}` + "\n", want: pos{1, 8, true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got pos
			got.Line, got.Col, got.Found = deepFlow([]byte(tc.in), 3)
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("deepFlow(%q, 3) (-want +got):\n%s", tc.in, d)
			}
		})
	}
}
