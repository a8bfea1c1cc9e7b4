package view

import (
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The hand-written query codec against net/url's, which it replaces in the
// page's WebAssembly.
func TestQueryMatchesNetURL(t *testing.T) {
	for _, tc := range []struct{ name, query string }{
		{name: "empty", query: ""},
		{name: "plain", query: "example=a&step=3"},
		{name: "first value wins", query: "step=1&step=2"},
		{name: "escapes", query: "gates=A%3Dtrue%2CB%3dfalse&x=%E2%9C%93"},
		{name: "plus is a space", query: "a+b=c+d"},
		{name: "no value", query: "compare&example="},
		{name: "empty parts", query: "&&example=a&"},
		{name: "escaped key", query: "ex%61mple=a"},
		{name: "bad escape in value", query: "example=a&step=%zz&gates=x"},
		{name: "truncated escape", query: "example=a&step=%4"},
		{name: "bad escape in key", query: "%g1=2&example=b"},
		{name: "semicolon", query: "example=a;step=2&gates=x"},
		{name: "two problems", query: "a=%zz&b;c&d=%qq"},
		{name: "equals in value", query: "settings=a=b,c=d"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, wantErr := url.ParseQuery(tc.query)
			get, err := parseQuery(tc.query)
			if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
				t.Errorf("error = %v, want %v", err, wantErr)
			}
			for k := range want {
				if got := get(k); got != want.Get(k) {
					t.Errorf("get(%q) = %q, want %q", k, got, want.Get(k))
				}
			}
			for _, k := range []string{"example", "step", "gates", "missing"} {
				if got := get(k); got != want.Get(k) {
					t.Errorf("get(%q) = %q, want %q", k, got, want.Get(k))
				}
			}
		})
	}
}

func TestQueryEscapeMatchesNetURL(t *testing.T) {
	var all []byte
	for c := range 256 {
		all = append(all, byte(c))
	}
	for _, s := range []string{"", "abc-_.~XYZ019", "a b+c", "A=true,B=false", "ü✓", string(all)} {
		if diff := cmp.Diff(url.QueryEscape(s), queryEscape(s)); diff != "" {
			t.Errorf("queryEscape(%q) (-want +got):\n%s", s, diff)
		}
	}
}
