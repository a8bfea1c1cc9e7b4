package engine

import (
	"strconv"
	"unicode/utf8"

	"github.com/kueueplay/kueueplay/ui/view"
)

// appendOverviewJSON appends o as encoding/json marshals it, except that
// every lane's "spans" and every series' "values" are null (they travel
// as Columns): the same bytes as json.Marshal of o with those fields set
// to nil (TestOverviewJSON), written by hand. At 15,000 workloads the
// series are 1.9 MB, mostly the lanes' names, and encoding/json's
// reflection walk, slow in WebAssembly, was most of encoding them; this
// also spares copying every lane and series to clear its numbers.
func appendOverviewJSON(b []byte, o *view.Overview) []byte {
	b = append(b, `{"steps":`...)
	b = strconv.AppendInt(b, int64(o.Steps), 10)
	b = append(b, `,"endMs":`...)
	b = strconv.AppendInt(b, o.EndMs, 10)
	b = append(b, `,"timesMs":`...)
	b = appendInt64s(b, o.TimesMs)
	b = append(b, `,"usage":`...)
	if o.Usage == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range o.Usage {
			if i > 0 {
				b = append(b, ',')
			}
			u := &o.Usage[i]
			b = appendChartFields(append(b, '{'), &u.Chart)
			b = append(b, `,"kind":`...)
			b = appendJSONString(b, u.Kind)
			b = append(b, `,"node":`...)
			b = appendJSONString(b, u.Node)
			if u.Parent != "" {
				b = append(b, `,"parent":`...)
				b = appendJSONString(b, u.Parent)
			}
			b = append(b, `,"depth":`...)
			b = strconv.AppendInt(b, int64(u.Depth), 10)
			b = append(b, `,"resource":`...)
			b = appendJSONString(b, u.Resource)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"pending":`...)
	b = append(appendChartFields(append(b, '{'), &o.Pending), '}')
	b = append(b, `,"timeline":{"lanes":`...)
	tl := &o.Timeline
	if tl.Lanes == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range tl.Lanes {
			if i > 0 {
				b = append(b, ',')
			}
			l := &tl.Lanes[i]
			b = append(b, `{"workload":`...)
			b = appendJSONString(b, l.Workload)
			b = append(b, `,"cq":`...)
			b = appendJSONString(b, l.ClusterQueue)
			b = append(b, `,"priority":`...)
			b = strconv.AppendInt(b, int64(l.Priority), 10)
			b = append(b, `,"spans":null}`...)
		}
		b = append(b, ']')
	}
	if len(tl.Preemptions) > 0 {
		b = append(b, `,"preemptions":[`...)
		for i := range tl.Preemptions {
			if i > 0 {
				b = append(b, ',')
			}
			p := &tl.Preemptions[i]
			b = append(b, `{"step":`...)
			b = strconv.AppendInt(b, int64(p.Step), 10)
			b = append(b, `,"timeMs":`...)
			b = strconv.AppendInt(b, p.TimeMs, 10)
			b = append(b, `,"victim":`...)
			b = strconv.AppendInt(b, int64(p.Victim), 10)
			b = append(b, `,"preemptor":`...)
			b = strconv.AppendInt(b, int64(p.Preemptor), 10)
			b = append(b, `,"preemptorName":`...)
			b = appendJSONString(b, p.PreemptorName)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, "}}"...)
}

// appendChartFields appends c's fields (without braces: a UsageChart
// embeds them), its series' values null.
func appendChartFields(b []byte, c *view.Chart) []byte {
	b = append(b, `"id":`...)
	b = appendJSONString(b, c.ID)
	b = append(b, `,"title":`...)
	b = appendJSONString(b, c.Title)
	b = append(b, `,"unit":`...)
	b = appendJSONString(b, c.Unit)
	b = append(b, `,"divisor":`...)
	b = strconv.AppendInt(b, c.Divisor, 10)
	b = append(b, `,"xMs":`...)
	b = appendInt64s(b, c.XMs)
	b = append(b, `,"steps":`...)
	if c.Steps == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, v := range c.Steps {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(v), 10)
		}
		b = append(b, ']')
	}
	b = append(b, `,"series":`...)
	if c.Series == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range c.Series {
		if i > 0 {
			b = append(b, ',')
		}
		s := &c.Series[i]
		b = append(b, `{"label":`...)
		b = appendJSONString(b, s.Label)
		b = append(b, `,"kind":`...)
		b = appendJSONString(b, s.Kind)
		if s.Flavor != "" {
			b = append(b, `,"flavor":`...)
			b = appendJSONString(b, s.Flavor)
		}
		b = append(b, `,"values":null`...)
		if len(s.Gaps) > 0 {
			b = append(b, `,"gaps":[`...)
			for k, g := range s.Gaps {
				if k > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendInt(b, int64(g), 10)
			}
			b = append(b, ']')
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendInt64s appends vs as a JSON array, null when nil.
func appendInt64s(b []byte, vs []int64) []byte {
	if vs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, v, 10)
	}
	return append(b, ']')
}

const hexDigits = "0123456789abcdef"

// safeASCII[c] is '1' for the ASCII bytes a JSON string holds as they are
// (encoding/json's htmlSafeSet): not control characters, '"', '\\', '<',
// '>' or '&'.
const safeASCII = "0000000000000000000000000000000011011101111111111111111111110101" +
	"1111111111111111111111111111011111111111111111111111111111111111"

// appendJSONString appends s as a JSON string exactly as encoding/json
// writes it (its appendString with HTML escaping): <, > and & as
// \u003c..., the line and paragraph separators escaped, invalid UTF-8 as
// \ufffd. The same as core/trace's appendString, which is unexported.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if safeASCII[c] == '1' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
