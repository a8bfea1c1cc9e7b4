package yaml

import (
	"regexp"
	"testing"
)

// TestMatchers checks kueueplay's hand-written matchers (match.go) against
// the regular expressions they replace, on every string of up to 6
// characters over the characters the expressions name and one they do not.
func TestMatchers(t *testing.T) {
	for _, tc := range []struct {
		name string
		re   *regexp.Regexp
		m    func(string) bool
	}{
		{"yamlStyleFloat", regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`), matchYAMLStyleFloat},
		{"base60float", regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`), matchBase60Float},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const alphabet = "05 9._:eE-+x"
			buf := make([]byte, 0, 6)
			var walk func()
			n, matched := 0, 0
			walk = func() {
				s := string(buf)
				want := tc.re.MatchString(s)
				if got := tc.m(s); got != want {
					t.Fatalf("%q: got %t, want %t", s, got, want)
				}
				n++
				if want {
					matched++
				}
				if len(buf) == cap(buf) {
					return
				}
				for i := 0; i < len(alphabet); i++ {
					buf = append(buf, alphabet[i])
					walk()
					buf = buf[:len(buf)-1]
				}
			}
			walk()
			if matched < 1000 {
				t.Errorf("only %d of %d strings match: the alphabet misses the expression", matched, n)
			}
		})
	}
}
