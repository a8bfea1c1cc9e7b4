package scenario

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/kueueplay/kueueplay/core"
)

// Input is one named input of a scenario given as several files (what
// `kubectl apply -f a.yaml -f b.yaml` would create together).
type Input struct {
	// Name is used only in positions: a path, or "<stdin>".
	Name string
	Data []byte
	// Text is the input when Data is nil. The decoder copies Data before
	// it decodes, since the caller may change it later, and the names and
	// values it decodes point into that copy; Text it decodes without a
	// copy (issue 20: for a 5.8 MB file, that is 5.8 MB less at once, when
	// the caller reads the file into a string rather than a []byte).
	Text string
}

// text is an input's bytes: a string, or a []byte for yaml.v3's path.
type text interface{ ~string | ~[]byte }

// asText returns the inputs with each Data copied into Text (the one copy
// the decoder makes: the names and values it decodes point into it), so
// that the scans below have one form, a string. An input given as Text is
// not copied. (Issue 20: keeping a []byte form of every scan beside the
// string one cost the page's WebAssembly about 9 KB with brotli.)
func asText(inputs []Input) []Input {
	out := make([]Input, len(inputs))
	for k, in := range inputs {
		out[k] = Input{Name: in.Name, Text: in.Text}
		if in.Data != nil {
			out[k].Text = string(in.Data)
		}
	}
	return out
}

func (in Input) size() int {
	if in.Data != nil {
		return len(in.Data)
	}
	return len(in.Text)
}

// bytes returns a copy of the input's Text as a []byte (for yaml.v3, and
// the rare positions that read the input again).
func (in Input) bytes() []byte { return []byte(in.Text) }

func (in Input) looksJSON() bool { return looksJSON(in.Text) }

func (in Input) deepFlow(limit int) (line, col int, found bool) {
	return deepFlow(in.Text, limit)
}

// parser returns a fast parser of the input's Text (newFastParser).
func (in Input) parser(base int) *fastParser { return newFastParser(in.Text, base) }

// DecodeFiles decodes and validates several inputs as one scenario: their
// objects form one cluster, so a LocalQueue in one input may name a
// ClusterQueue in another, and an object defined in two inputs is a
// duplicate. At most one of them may hold the Scenario object. Every
// diagnostic and every object position names its own input, line and
// column; diagnostics are sorted by input (in the order given), then
// position, then message. MaxInputBytes and MaxObjects bound the inputs
// together; the alias budget (MaxAliasNodes) is shared too. Otherwise it
// behaves as Decode, which is DecodeFiles with one input.
//
// The decoded Scenario is read-only where it shares: pod sets that
// request the same may share one Requests (and NonZeroRequests) map.
func DecodeFiles(inputs []Input) (*core.Scenario, error) {
	d := &decoder{aliasBudget: MaxAliasNodes}
	sc := d.run(inputs)
	return d.result(sc)
}

// TooLargeTotal is the error DecodeFiles returns when, with input file,
// the inputs come to total bytes, above MaxInputBytes; a negative total
// means "more than MaxInputBytes, exact size unknown". A caller reading
// several files can return it as soon as the limit is passed.
func TooLargeTotal(file string, total int64) error {
	return &core.DiagnosticsError{Diagnostics: []core.Diagnostic{tooLargeTotal(file, total)}}
}

func tooLargeTotal(file string, total int64) core.Diagnostic {
	msg := fmt.Sprintf("with this file the inputs are %d bytes in total; at most %d bytes (32 MiB, MaxInputBytes) are accepted for one scenario", total, MaxInputBytes)
	if total < 0 {
		msg = fmt.Sprintf("with this file the inputs are larger than %d bytes in total (32 MiB, MaxInputBytes), the most accepted for one scenario", MaxInputBytes)
	}
	return core.Diagnostic{Pos: core.Pos{File: fileName(file), Line: 1, Col: 1}, Severity: core.SeverityError, Message: msg}
}

// fileName is an input's name as positions show it: a name found by
// walking a directory may hold a terminal escape sequence, which is
// written as a Go escape (\x1b) like every other echoed text.
func fileName(name string) string { return printable(name, maxFileName) }

// maxFileName is Linux's PATH_MAX: a real path is never shortened.
const maxFileName = 4096

// checkSize applies MaxInputBytes to the inputs together; the diagnostic
// names the input that passes the limit.
func (d *decoder) checkSize(inputs []Input) bool {
	total := 0
	for k, in := range inputs {
		total += in.size()
		if total <= MaxInputBytes {
			continue
		}
		if len(inputs) == 1 {
			d.diags = append(d.diags, tooLarge(d.files[k].name, int64(total)))
		} else {
			d.diags = append(d.diags, tooLargeTotal(d.files[k].name, int64(total)))
		}
		return false
	}
	return true
}

// together qualifies a bound's message when it applies to several inputs.
func (d *decoder) together() string {
	if len(d.files) > 1 {
		return " in the inputs together"
	}
	return ""
}

// fileSpan is one input in the shared line space: the nodes of input k
// have their yaml.v3 Line shifted by base, and base of input k+1 is past
// the last line of input k, so a line number alone names its input.
type fileSpan struct {
	name string
	base int
	// input is the input, for positions inside a ConfigMap's embedded
	// Configuration (embedPos).
	input Input
	// scan is what one pass over the input's Text found.
	scan inputScan
	// slashes are the columns of the \/ escapes unescaped in a JSON input,
	// per line (see unescapeSlashes).
	slashes map[int][]int
}

// layout gives each input its base line. Node lines are shifted, not
// tagged with their input, so that everything that keeps a *yaml.Node or
// a line (duplicate checks, positions in the scenario) works unchanged;
// the one place a line is read back, locate, translates it.
func (d *decoder) layout(inputs []Input) {
	d.files = make([]fileSpan, len(inputs))
	base := 0
	for k, in := range inputs {
		d.files[k] = fileSpan{name: fileName(in.Name), base: base, input: in, scan: scanText(in.Text)}
		// yaml.v3 lines are 1-based; one spare line keeps a position just
		// past the end of an input inside it.
		base += d.files[k].scan.lines + 2
	}
}

// shift adds base to the line of every node under doc. Each node is in
// the tree once (an alias points at its anchor, which is walked where it
// stands), and the walk is iterative, so no input can exhaust the stack.
func shift(doc *yaml.Node, base int) {
	if base == 0 {
		return
	}
	stack := []*yaml.Node{doc}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n.Line += base
		stack = append(stack, n.Content...)
	}
}

// locate translates a shifted line into its input and the line within it.
// Line 0 (no position) stays 0; it names the input only when there is one.
func (d *decoder) locate(line int) (*fileSpan, int) {
	if line <= 0 || len(d.files) == 0 {
		if len(d.files) == 1 {
			return &d.files[0], line
		}
		return &fileSpan{}, line
	}
	// The last input whose base is below line, found without copying
	// fileSpans (issue 20: in WebAssembly each copy is a call, and every
	// object's position is located).
	lo, hi := 0, len(d.files)
	for lo < hi {
		if m := int(uint(lo+hi) >> 1); d.files[m].base < line {
			lo = m + 1
		} else {
			hi = m
		}
	}
	f := &d.files[max(lo-1, 0)]
	return f, line - f.base
}

// where names a shifted line for a message about node here: "line 12"
// when both are in the same input, "b.yaml:12" when the line is in
// another one.
func (d *decoder) where(line int, here *yaml.Node) string {
	f, local := d.locate(line)
	if here != nil {
		if hf, _ := d.locate(here.Line); hf.base == f.base {
			return fmt.Sprintf("line %d", local)
		}
	}
	if len(d.files) == 1 {
		return fmt.Sprintf("line %d", local)
	}
	return fmt.Sprintf("%s:%d", f.name, local)
}
