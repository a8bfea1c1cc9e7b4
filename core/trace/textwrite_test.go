package trace

import (
	"bufio"
	"bytes"
	"fmt"
	"testing"
)

// TestTextWriters: the text format's writers write what the fmt verbs
// they replace write.
func TestTextWriters(t *testing.T) {
	strs := map[string]string{"empty": "", "plain": "ns/w", "quote": `say "hi"`, "backslash": `a\b`, "newline": "a\nb",
		"tab": "a\tb", "control": "\x00\x7f", "unicode": "é漢🙂", "invalid": "a\xffb", "long": "a-very-long-workload-name-of-forty-chars"}
	for name, s := range strs {
		t.Run(name, func(t *testing.T) {
			for _, c := range []struct {
				verb  string
				write func(*bufio.Writer)
			}{
				{"%q", func(b *bufio.Writer) { writeQuoted(b, s) }},
				{"%-9s", func(b *bufio.Writer) { writePadded(b, s, 9) }},
				{"%-30s", func(b *bufio.Writer) { writePadded(b, s, 30) }},
			} {
				var out bytes.Buffer
				b := bufio.NewWriterSize(&out, 16) // smaller than some values
				c.write(b)
				b.Flush()
				if want := fmt.Sprintf(c.verb, s); out.String() != want {
					t.Errorf("%s of %q: got %q, want %q", c.verb, s, out.String(), want)
				}
			}
		})
	}
	for _, v := range []int64{0, 7, 42, 99, 100, 999, 1000, 123456, -1, -42, 1 << 40} {
		var out bytes.Buffer
		b := bufio.NewWriter(&out)
		writeInt(b, v)
		b.Flush()
		if want := fmt.Sprintf("%d", v); out.String() != want {
			t.Errorf("%%d of %d: got %q, want %q", v, out.String(), want)
		}
	}
	for _, i := range []int{0, 5, 42, 99, 100, 1234, -3} {
		var out bytes.Buffer
		b := bufio.NewWriter(&out)
		formatStep(b, &Step{Index: i, Kind: StepCycle, TimeMs: 1500, Cycle: 2}, nil, nil, nil, map[string]string{})
		b.Flush()
		if want := fmt.Sprintf("#%03d t=1.5s cycle=2 cycle\n", i); out.String() != want {
			t.Errorf("step %d: got %q, want %q", i, out.String(), want)
		}
	}
}
