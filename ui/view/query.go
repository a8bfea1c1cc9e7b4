package view

import (
	"errors"
	"strconv"
	"strings"
)

// A URL query read and written by hand, as net/url's ParseQuery and
// QueryEscape do: the page's WebAssembly needs nothing else of net/url,
// whose package (with net/netip, unique and the GODEBUG settings it
// reads) was 70 KB of the module's code (query_test.go checks these
// against net/url).

// parseQuery reads a query (without its '?') as url.ParseQuery does: the
// parameters split at '&', each key and value at its first '=', both
// unescaped (QueryUnescape); a parameter with a ';' in its key or a bad
// escape is skipped and makes the error. get returns a key's first value.
// Unlike net/url it sets no bound on the number of parameters (the page
// reads its own location's).
func parseQuery(query string) (get func(string) string, err error) {
	m := map[string]string{}
	for query != "" {
		var key string
		key, query, _ = strings.Cut(query, "&")
		if strings.Contains(key, ";") {
			err = errors.New("invalid semicolon separator in query") // the last wins, as in net/url
			continue
		}
		if key == "" {
			continue
		}
		key, value, _ := strings.Cut(key, "=")
		k, e := queryUnescape(key)
		if e == nil {
			value, e = queryUnescape(value)
		}
		if e != nil {
			if err == nil {
				err = e
			}
			continue
		}
		if _, dup := m[k]; !dup {
			m[k] = value
		}
	}
	return func(k string) string { return m[k] }, err
}

// queryUnescape is url.QueryUnescape: '+' is a space, %XX a byte.
func queryUnescape(s string) (string, error) {
	if !strings.ContainsAny(s, "%+") {
		return s, nil
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '+':
			b = append(b, ' ')
		case '%':
			if i+2 >= len(s) || unhex(s[i+1]) < 0 || unhex(s[i+2]) < 0 {
				bad := s[i:]
				if len(bad) > 3 {
					bad = bad[:3]
				}
				return "", errors.New("invalid URL escape " + strconv.Quote(bad))
			}
			b = append(b, byte(unhex(s[i+1])<<4|unhex(s[i+2])))
			i += 2
		default:
			b = append(b, c)
		}
	}
	return string(b), nil
}

func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c - 'a' + 10)
	case 'A' <= c && c <= 'F':
		return int(c - 'A' + 10)
	}
	return -1
}

// queryEscape is url.QueryEscape: every byte but A-Z a-z 0-9 - _ . ~ as
// %XX (upper-case hex), a space as '+'.
func queryEscape(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_', c == '.', c == '~':
			b.WriteByte(c)
		case c == ' ':
			b.WriteByte('+')
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}
