package yaml

// kueueplay's patch: the two regular expressions of resolve.go and
// encode.go matched by hand, so that a program using this package does not
// link regexp (and, through regexp/syntax, every unicode table): in
// kueueplay's WebAssembly that was 494 KB of code and data, 86 KB of
// brotli. match_test.go checks both against the expressions, on every
// string of up to 6 characters over the characters they name.

type matcher func(string) bool

func (m matcher) MatchString(s string) bool { return m(s) }

// digits advances i past s[i:]'s leading digits (and '_' when underscore)
// and reports how many it passed.
func digits(s string, i int, underscore bool) (int, int) {
	n := 0
	for i < len(s) && ('0' <= s[i] && s[i] <= '9' || underscore && s[i] == '_') {
		i++
		n++
	}
	return i, n
}

func sign(s string, i int) int {
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		return i + 1
	}
	return i
}

// matchYAMLStyleFloat: ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
func matchYAMLStyleFloat(s string) bool {
	i, n := sign(s, 0), 0
	if i < len(s) && s[i] == '.' {
		if i, n = digits(s, i+1, false); n == 0 {
			return false
		}
	} else {
		if i, n = digits(s, i, false); n == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i, _ = digits(s, i+1, false)
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		if i, n = digits(s, sign(s, i+1), false); n == 0 {
			return false
		}
	}
	return i == len(s)
}

// matchBase60Float: ^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$
// After a ':' the group takes two digits when the first is 0-5 and a
// digit follows: a second digit could not start what may follow the
// group (':', '.', the end), so taking one would fail.
func matchBase60Float(s string) bool {
	i := sign(s, 0)
	if i >= len(s) || s[i] < '0' || s[i] > '9' {
		return false
	}
	i, _ = digits(s, i+1, true)
	groups := 0
	for i < len(s) && s[i] == ':' {
		i++
		switch {
		case i+1 < len(s) && '0' <= s[i] && s[i] <= '5' && '0' <= s[i+1] && s[i+1] <= '9':
			i += 2
		case i < len(s) && '0' <= s[i] && s[i] <= '9':
			i++
		default:
			return false
		}
		groups++
	}
	if groups == 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i, _ = digits(s, i+1, true)
	}
	return i == len(s)
}
