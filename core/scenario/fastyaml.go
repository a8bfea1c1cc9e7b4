package scenario

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// fastParser reads the block-YAML subset that real manifests are written
// in, and builds the same yaml.Node trees yaml.v3 builds for it, about ten
// times faster. It exists for speed (issue 20): on Kueue's scalability
// shape written as a scenario file (15,000 Workload documents, 5.8 MB),
// yaml.v3 took 0.83 s of a 1.4 s Decode, and no other Go YAML library is
// fast enough to matter.
//
// The subset, in which every node matches yaml.v3's Kind, Style, Tag,
// Value, Line and Column (comments are not kept: the decoder never reads
// them, and no node has an anchor or an alias):
//
//   - documents separated by "---" lines (with at most a comment after
//     them); the root of each is a block mapping or sequence, or a flow
//     one on one line, at column 1;
//   - block mappings with plain or quoted single-line keys, block
//     sequences (also "compact" ones at their key's indentation, and a
//     mapping starting on a "- " line);
//   - plain scalars on one line, single-quoted and double-quoted scalars
//     on one line (every escape yaml.v3 knows), literal and folded block
//     scalars (|, >, with - or + chomping, no indentation indicator);
//   - flow sequences and mappings ([a, b], {a: 1}, nested) on one line;
//   - comment lines and comments after a value.
//
// Anything else — anchors, aliases, tags, directives, "...", multi-line
// plain, quoted or flow scalars, empty values, complex keys, tabs, CRs, a
// byte-order mark, control or non-printable characters, invalid UTF-8 —
// makes it give up on the whole input, which is then parsed by yaml.v3 as
// before: every syntax error and its position is yaml.v3's. It also gives
// up on some valid YAML it could read, whenever it cannot be sure of
// yaml.v3's answer. FuzzFastYAML checks it against yaml.v3.
type fastParser struct {
	src string
	// base is added to every node's line (see fileSpan).
	base int

	// The current line: it starts at cur, ends at end (the index of its
	// '\n', or len(src)), is line number ln (1-based) and has ind leading
	// spaces. atEOF is set when there is no current line.
	cur, end, ln, ind int
	atEOF             bool

	// started is set once the first document has begun.
	started bool
	// docLine and docCol are where the last document next returned
	// starts, as yaml.v3 places its DocumentNode: its "---", or its first
	// line with content (line not shifted by base).
	docLine, docCol int
	// depth is the nesting of the collection being parsed; deepest the
	// deepest of the document next returned last.
	depth, deepest int
	// stack holds the children of the collections being parsed; each
	// collection copies its own into an exact-size Content slice.
	stack []*yaml.Node

	// nodes and contents hold the nodes and Content slices of the
	// documents, a chunk at a time rather than one allocation each; the
	// last document's are handed out again after recycle.
	nodes    slab[yaml.Node]
	contents slab[*yaml.Node]
}

// Chunk sizes: a Workload of the scalability shape is about 30 nodes and
// 40 children.
const (
	nodeChunk    = 256
	contentChunk = 1024
)

// slab hands out elements of T from chunks, so that a document's nodes are
// a few allocations rather than one each (issue 20: the 15,000-workload
// file has some 480,000 nodes). What it handed out since the last keep or
// recycle is the current document's: recycle clears it and hands it out
// again, for when nothing refers to that document any more; keep leaves it
// to whoever refers to it, and the slab forgets the chunks it filled.
type slab[T any] struct {
	size int
	// chunks[cur] is the chunk being filled, from off; chunks after it are
	// spare, from an earlier document that was recycled. The current
	// document starts in chunks[0] at mark.
	chunks   [][]T
	cur, off int
	mark     int
}

// take returns n zero elements, contiguous.
func (s *slab[T]) take(n int) []T {
	if n > s.size/8 {
		return make([]T, n)
	}
	switch {
	case len(s.chunks) == 0:
		s.chunks = append(s.chunks, make([]T, s.size))
	case s.off+n > s.size:
		s.cur++
		s.off = 0
		if s.cur == len(s.chunks) {
			s.chunks = append(s.chunks, make([]T, s.size))
		}
	}
	e := s.chunks[s.cur][s.off : s.off+n : s.off+n]
	s.off += n
	return e
}

// recycle clears what was handed out since the last keep or recycle, to
// be handed out again.
func (s *slab[T]) recycle() {
	if len(s.chunks) == 0 {
		return
	}
	if s.cur == 0 {
		clear(s.chunks[0][s.mark:s.off])
	} else {
		clear(s.chunks[0][s.mark:])
		for _, c := range s.chunks[1:s.cur] {
			clear(c)
		}
		clear(s.chunks[s.cur][:s.off])
	}
	s.cur, s.off = 0, s.mark
}

// keep leaves what was handed out since the last keep or recycle to its
// users: the chunks filled are forgotten, the one being filled is shared
// with the next document.
func (s *slab[T]) keep() {
	if s.cur > 0 {
		n := copy(s.chunks, s.chunks[s.cur:])
		clear(s.chunks[n:])
		s.chunks = s.chunks[:n]
		s.cur = 0
	}
	s.mark = s.off
}

// maxFastDepth bounds the nesting the fast parser follows; deeper input
// goes to yaml.v3 (and checkDepth).
const maxFastDepth = MaxDepth + 2

// maxFastKey is below yaml.v3's 1,024-character limit on simple keys.
const maxFastKey = 1000

// newFastParser returns a parser for data, or nil when data holds a
// character outside the subset. The nodes' values point into data when
// it is a string, and into a copy of it when it is a []byte.
func newFastParser[T text](data T, base int) *fastParser {
	if !fastChars(data) {
		return nil
	}
	p := &fastParser{src: string(data), base: base, ln: 0, end: -1}
	p.nodes.size, p.contents.size = nodeChunk, contentChunk
	p.cur = 0
	p.setLine(0, 1)
	return p
}

// fastChars reports whether data holds only characters the fast parser
// reads as yaml.v3 does: printable ASCII and '\n', and valid UTF-8 above
// U+009F other than the line separators U+2028 and U+2029, the byte-order
// mark and the non-characters U+FFFE and U+FFFF.
func fastChars[T text](data T) bool {
	for i := 0; i < len(data); {
		if i = fastCharsFrom(data, i, min(i+wasmChunk, len(data))); i < 0 {
			return false
		}
	}
	return true
}

// fastCharsFrom checks the characters of data that start at i and before
// to, as fastChars (in chunks: see wasmChunk). It returns where the next
// character starts, or -1.
func fastCharsFrom[T text](data T, i, to int) int {
	for i < to {
		// Eight bytes at a time while they are printable ASCII or '\n'
		// (issue 20: byte by byte, this was a tenth of decoding).
		if i+8 <= len(data) {
			_ = data[i+7]
			w := uint64(data[i]) | uint64(data[i+1])<<8 | uint64(data[i+2])<<16 | uint64(data[i+3])<<24 |
				uint64(data[i+4])<<32 | uint64(data[i+5])<<40 | uint64(data[i+6])<<48 | uint64(data[i+7])<<56
			if printableWord(w) {
				i += 8
				continue
			}
		}
		c := data[i]
		if c < utf8.RuneSelf {
			if c < ' ' && c != '\n' || c == 0x7f {
				return -1
			}
			i++
			continue
		}
		// At most utf8.UTFMax bytes: converted without a copy to the heap.
		r, size := utf8.DecodeRuneInString(string(data[i:min(i+utf8.UTFMax, len(data))]))
		if r == utf8.RuneError || r < 0xa0 || r == 0x2028 || r == 0x2029 || r == 0xfeff || r == 0xfffe || r == 0xffff {
			return -1
		}
		i += size
	}
	return i
}

// printableWord reports whether each byte of w is printable ASCII (' '
// to '~') or '\n'. Each test below is exact for bytes below 0x80: adding
// at most 0x7f to a byte's low seven bits never carries into the next
// byte.
func printableWord(w uint64) bool {
	const (
		ones = 0x0101010101010101
		low7 = 0x7f * ones
		high = 0x80 * ones
	)
	if w&high != 0 {
		return false // not ASCII
	}
	// The '\n' bytes, as 0x80 in a mask, become '*' (0x2a).
	t := w ^ ('\n' * ones)
	newlines := ^((t & low7) + low7 | t) & high
	w |= newlines >> 2
	// Bit 7 of a byte's low seven bits plus 0x60 is set when it is at
	// least ' ' (0x20); plus 1, when it is DEL (0x7f).
	return ^((w&low7)+0x60*ones)&high == 0 && ((w&low7)+ones)&high == 0
}

// setLine makes the line starting at off, numbered ln, current.
func (p *fastParser) setLine(off, ln int) {
	if off >= len(p.src) && (off > len(p.src) || off == 0 || p.src[off-1] == '\n') {
		p.cur, p.end, p.ln, p.ind, p.atEOF = len(p.src), len(p.src), ln, 0, true
		return
	}
	e := strings.IndexByte(p.src[off:], '\n')
	if e < 0 {
		e = len(p.src)
	} else {
		e += off
	}
	ind := 0
	for off+ind < e && p.src[off+ind] == ' ' {
		ind++
	}
	p.cur, p.end, p.ln, p.ind, p.atEOF = off, e, ln, ind, false
}

// advance makes the next line current.
func (p *fastParser) advance() {
	if p.atEOF {
		return
	}
	p.setLine(p.end+1, p.ln+1)
}

// skipBlank moves to the next line with content (not blank, not only a
// comment), which may be the current one. It reports false at the end.
func (p *fastParser) skipBlank() bool {
	for !p.atEOF {
		i := p.cur + p.ind
		if i < p.end && p.src[i] != '#' {
			return true
		}
		p.advance()
	}
	return false
}

// marker reports whether the current line is a document marker. ok is
// false for a line at column 1 that starts like one but is not one the
// parser reads ("...", "--- a", "---x").
func (p *fastParser) marker() (is, ok bool) {
	if p.ind != 0 {
		return false, true
	}
	ln := p.src[p.cur:p.end]
	if strings.HasPrefix(ln, "...") {
		return false, false
	}
	if !strings.HasPrefix(ln, "---") {
		return false, true
	}
	rest := strings.TrimLeft(ln[3:], " ")
	if len(rest) == len(ln)-3 && rest != "" {
		return false, false // "---x"
	}
	return true, rest == "" || rest[0] == '#'
}

// next parses the next document. It returns its root (nil for an empty
// document), more = false when the stream has no more documents, and
// ok = false when the input is outside the subset. The nodes of the
// document before are left to the caller, unless it called recycle.
func (p *fastParser) next() (root *yaml.Node, more, ok bool) {
	p.nodes.keep()
	p.contents.keep()
	p.deepest = 0
	if !p.skipBlank() {
		return nil, false, true
	}
	m, ok := p.marker()
	if !ok {
		return nil, false, false
	}
	p.docLine, p.docCol = p.ln, p.ind+1
	if m {
		p.advance()
	} else if p.started {
		return nil, false, false // content after a document that did not end
	}
	p.started = true
	if !p.skipBlank() {
		return nil, true, true // an empty last document
	}
	if m, ok := p.marker(); !ok {
		return nil, false, false
	} else if m {
		return nil, true, true // an empty document
	}
	if p.ind != 0 {
		return nil, false, false
	}
	if c := p.src[p.cur]; c == '{' || c == '[' {
		root = p.value(p.cur, -1, false) // a one-line flow collection
	} else {
		root = p.block(-1, false)
	}
	if root == nil {
		return nil, false, false
	}
	if p.skipBlank() {
		if m, ok := p.marker(); !ok || !m {
			return nil, false, false
		}
	}
	return root, true, true
}

// recycle hands the nodes of the document next returned last out again
// for the next one: the caller must hold none of them any more.
func (p *fastParser) recycle() {
	p.nodes.recycle()
	p.contents.recycle()
}

// col is the 1-based column of byte off of the current line, in
// characters as yaml.v3 counts them.
func (p *fastParser) col(off int) int {
	seg := p.src[p.cur:off]
	for i := 0; i < len(seg); i++ {
		if seg[i] >= utf8.RuneSelf {
			return utf8.RuneCountInString(seg) + 1
		}
	}
	return len(seg) + 1
}

func (p *fastParser) node(kind yaml.Kind, style yaml.Style, tag, value string, off int) *yaml.Node {
	// p.nodes.take(1), the common case written out (the compiler does
	// not inline a generic method here).
	var n *yaml.Node
	if s := &p.nodes; len(s.chunks) > 0 && s.off < s.size {
		n = &s.chunks[s.cur][s.off]
		s.off++
	} else {
		n = &s.take(1)[0]
	}
	// n is zero: only the fields that are not are written. (Issue 20: a
	// whole yaml.Node written at once is a zeroed copy on the stack and a
	// copy of its 136 bytes, and in WebAssembly node was a tenth of
	// decoding the 15,000-workload file.)
	n.Kind, n.Style, n.Tag, n.Value = kind, style, tag, value
	n.Line, n.Column = p.ln+p.base, p.col(off)
	return n
}

// isDash reports whether the current line is a block sequence entry.
func (p *fastParser) isDash() bool {
	i := p.cur + p.ind
	return i < p.end && p.src[i] == '-' && (i+1 == p.end || p.src[i+1] == ' ')
}

// block parses the collection that starts on the current line, nested in
// a collection at indentation parent; mapValue allows a sequence at the
// parent's indentation (a mapping value). It returns nil outside the
// subset.
func (p *fastParser) block(parent int, mapValue bool) *yaml.Node {
	if p.isDash() {
		if p.ind < parent || p.ind == parent && !mapValue {
			return nil
		}
		return p.sequence(p.ind)
	}
	if p.ind <= parent {
		return nil
	}
	return p.mapping(p.ind, p.cur+p.ind)
}

// children moves the nodes above start on the stack into a new slice.
func (p *fastParser) children(start int) []*yaml.Node {
	c := p.contents.take(len(p.stack) - start)
	copy(c, p.stack[start:])
	clear(p.stack[start:])
	p.stack = p.stack[:start]
	return c
}

// mapping parses a block mapping whose entries are at indentation ind;
// its first key starts at byte at of the current line.
func (p *fastParser) mapping(ind, at int) *yaml.Node {
	if p.depth++; p.depth > p.deepest {
		p.deepest = p.depth
	}
	if p.depth > maxFastDepth {
		return nil
	}
	n := p.node(yaml.MappingNode, 0, "!!map", "", at)
	start := len(p.stack)
	for {
		k, i := p.key(at)
		if k == nil {
			return nil
		}
		v := p.value(i, ind, true)
		if v == nil {
			return nil
		}
		p.stack = append(p.stack, k, v)
		if !p.skipBlank() || p.ind < ind {
			break
		}
		if m, ok := p.marker(); !ok {
			return nil
		} else if m {
			break
		}
		if p.ind > ind || p.isDash() {
			return nil
		}
		at = p.cur + ind
	}
	// Only here: on a nil return the parser gives up on the whole input
	// (next reports !ok), and depth no longer counts. (No defer: in
	// WebAssembly a deferred call costs.)
	p.depth--
	n.Content = p.children(start)
	return n
}

// sequence parses a block sequence whose "- " are at indentation ind.
func (p *fastParser) sequence(ind int) *yaml.Node {
	if p.depth++; p.depth > p.deepest {
		p.deepest = p.depth
	}
	if p.depth > maxFastDepth {
		return nil
	}
	n := p.node(yaml.SequenceNode, 0, "!!seq", "", p.cur+ind)
	start := len(p.stack)
	for {
		i := skipSpaces(p.src, p.cur+ind+1, p.end)
		var v *yaml.Node
		switch {
		case i < p.end && p.src[i] == '-' && (i+1 == p.end || p.src[i+1] == ' '):
			return nil // a sequence in a sequence entry
		case i < p.end && p.src[i] != '#' && p.isKey(i):
			v = p.mapping(p.col(i)-1, i)
		default:
			v = p.value(i, ind, false)
		}
		if v == nil {
			return nil
		}
		p.stack = append(p.stack, v)
		if !p.skipBlank() || p.ind < ind {
			break
		}
		if m, ok := p.marker(); !ok {
			return nil
		} else if m {
			break
		}
		if p.ind > ind {
			return nil
		}
		if !p.isDash() {
			break // the next key of the mapping this sequence is a value of
		}
	}
	p.depth-- // as in mapping
	n.Content = p.children(start)
	return n
}

// isKey reports whether a block mapping entry starts at byte i of the
// current line: a single-line key followed by ':' and a space or the end
// of the line.
func (p *fastParser) isKey(i int) bool {
	s := p.src
	switch s[i] {
	case '[', '{':
		return false
	case '"', '\'':
		_, j, ok := p.quoted(i)
		return ok && j < p.end && s[j] == ':' && (j+1 == p.end || s[j+1] == ' ')
	}
	for j := i; j < p.end; j++ {
		switch s[j] {
		case ':':
			if j+1 == p.end || s[j+1] == ' ' {
				return true
			}
		case '#':
			if j > i && s[j-1] == ' ' {
				return false
			}
		}
	}
	return false
}

// key parses a block mapping key at byte i of the current line and its
// ':'. It returns the key and the byte after the ':', or nil.
func (p *fastParser) key(i int) (*yaml.Node, int) {
	s := p.src
	switch s[i] {
	case '"', '\'':
		k, j, ok := p.quoted(i)
		if !ok || j >= p.end || s[j] != ':' || j+1 < p.end && s[j+1] != ' ' || j-i > maxFastKey {
			return nil, 0
		}
		return k, j + 1
	}
	if !plainStart(s, i, p.end, false) {
		return nil, 0
	}
	for j := i; j < p.end; j++ {
		switch s[j] {
		case ':':
			if j+1 == p.end || s[j+1] == ' ' {
				if j-i > maxFastKey {
					return nil, 0
				}
				v := trimSpaces(s[i:j])
				return p.node(yaml.ScalarNode, 0, plainNodeTag(v), v, i), j + 1
			}
		case '#':
			if s[j-1] == ' ' {
				return nil, 0
			}
		}
	}
	return nil, 0
}

// plainStart reports whether a plain scalar may start at s[i]: not at an
// indicator, except '-' (and, in block context, '?' and ':') before a
// character that is not a space or, for '-', a flow indicator.
func plainStart(s string, i, end int, flow bool) bool {
	switch s[i] {
	case '-':
		return i+1 < end && s[i+1] != ' ' && !strings.ContainsRune(",[]{}", rune(s[i+1]))
	case '?', ':':
		return !flow && i+1 < end && s[i+1] != ' '
	case ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', ' ':
		return false
	}
	return true
}

// trimSpaces is strings.TrimRight(s, " "), without a call in the loop.
func trimSpaces(s string) string {
	j := len(s)
	for j > 0 && s[j-1] == ' ' {
		j--
	}
	return s[:j]
}

func skipSpaces(s string, i, end int) int {
	for i < end && s[i] == ' ' {
		i++
	}
	return i
}

// value parses the value that starts at byte i of the current line (after
// "key:" or "- "), in a collection at indentation ind, and moves past it.
func (p *fastParser) value(i, ind int, mapValue bool) *yaml.Node {
	s := p.src
	i = skipSpaces(s, i, p.end)
	if i == p.end || s[i] == '#' {
		// The value is on the next lines.
		p.advance()
		if !p.skipBlank() {
			return nil
		}
		if m, ok := p.marker(); m || !ok {
			return nil
		}
		return p.block(ind, mapValue)
	}
	var n *yaml.Node
	var j int
	switch s[i] {
	case '|', '>':
		return p.blockScalar(i, ind)
	case '[', '{':
		var ok bool
		if n, j, ok = p.flow(i); !ok {
			return nil
		}
	case '"', '\'':
		var ok bool
		if n, j, ok = p.quoted(i); !ok {
			if n, j, ok = p.quotedLines(i, ind); !ok {
				return nil
			}
		}
	default:
		if !plainStart(s, i, p.end, false) {
			return nil
		}
		v, comment, ok := p.plainLine(i)
		if !ok {
			return nil
		}
		n = p.node(yaml.ScalarNode, 0, "", v, i)
		if !comment {
			return p.plainLines(n, ind)
		}
		n.Tag = plainNodeTag(v)
		j = i + len(v)
	}
	// Only a comment may follow.
	k := skipSpaces(s, j, p.end)
	if k < p.end && (s[k] != '#' || k == j) {
		return nil
	}
	p.advance()
	return n
}

// plainLine reads the plain scalar text from byte i to the end of the
// current line or a comment (comment is then set). ok is false for ": "
// in it, which yaml.v3 rejects.
func (p *fastParser) plainLine(i int) (v string, comment, ok bool) {
	s := p.src
	j := i
	for ; j < p.end; j++ {
		if s[j] == ':' && (j+1 == p.end || s[j+1] == ' ') {
			return "", false, false // "a: b: c"
		}
		if s[j] == '#' && j > i && s[j-1] == ' ' {
			comment = true
			break
		}
	}
	return trimSpaces(s[i:j]), comment, true
}

// plainLines continues the plain scalar n, whose first line is the
// current one, on the lines below that are indented more than ind (as
// yaml.v3's yaml_parser_scan_plain_scalar folds them: a line break is a
// space, and each blank line a line break), and resolves its tag. It
// stops at a comment line; a continuation line it is not sure of (one
// that starts with an indicator, or holds ": " or " #") is left to
// yaml.v3.
func (p *fastParser) plainLines(n *yaml.Node, ind int) *yaml.Node {
	var b []byte
	for {
		p.advance()
		breaks := 0
		for !p.atEOF && p.ind == p.end-p.cur {
			breaks++
			p.advance()
		}
		if p.atEOF || p.ind <= ind || p.src[p.cur+p.ind] == '#' {
			break
		}
		i := p.cur + p.ind
		if !plainStart(p.src, i, p.end, false) || p.src[i] == '-' {
			return nil
		}
		v, comment, ok := p.plainLine(i)
		if !ok || comment {
			return nil
		}
		if b == nil {
			b = append(b, n.Value...)
		}
		if breaks == 0 {
			b = append(b, ' ')
		}
		for ; breaks > 0; breaks-- {
			b = append(b, '\n')
		}
		b = append(b, v...)
	}
	if b != nil {
		n.Value = string(b)
	}
	n.Tag = plainNodeTag(n.Value)
	return n
}

// quotedLines parses a quoted scalar at byte i of the current line that
// goes on over the next lines, which must be indented more than ind, as
// yaml.v3's yaml_parser_scan_flow_scalar folds it: the spaces around a
// line break and the break are one space, each blank line a line break.
// j is the byte after the closing quote, on the line it is on.
func (p *fastParser) quotedLines(i, ind int) (n *yaml.Node, j int, ok bool) {
	s := p.src
	q := s[i]
	style := yaml.SingleQuotedStyle
	if q == '"' {
		style = yaml.DoubleQuotedStyle
	}
	n = p.node(yaml.ScalarNode, style, tagStr, "", i)
	var b []byte
	j = i + 1
	for {
		spaces := 0
		for j < p.end {
			c := s[j]
			if c == ' ' {
				spaces++
				j++
				continue
			}
			for ; spaces > 0; spaces-- {
				b = append(b, ' ')
			}
			switch {
			case c == q && q == '\'' && j+1 < p.end && s[j+1] == '\'':
				b = append(b, '\'')
				j += 2
			case c == q:
				n.Value = string(b)
				return n, j + 1, true
			case c == '\\' && q == '"':
				if b, j, ok = unescape(b, s, j, p.end); !ok {
					return nil, 0, false
				}
			default:
				b = append(b, c)
				j++
			}
		}
		// The line ends inside the scalar: its trailing spaces go.
		if p.end == len(s) {
			return nil, 0, false
		}
		p.advance()
		breaks := 0
		for !p.atEOF && p.ind == p.end-p.cur {
			breaks++
			p.advance()
		}
		if p.atEOF || p.ind <= ind {
			return nil, 0, false
		}
		if breaks == 0 {
			b = append(b, ' ')
		}
		for ; breaks > 0; breaks-- {
			b = append(b, '\n')
		}
		j = p.cur + p.ind
	}
}

// quoted parses the single-line quoted scalar at byte i of the current
// line; j is the byte after its closing quote.
func (p *fastParser) quoted(i int) (n *yaml.Node, j int, ok bool) {
	s := p.src
	if s[i] == '\'' {
		var b []byte
		for j = i + 1; j < p.end; j++ {
			if s[j] != '\'' {
				if b != nil {
					b = append(b, s[j])
				}
				continue
			}
			if j+1 < p.end && s[j+1] == '\'' {
				if b == nil {
					b = append([]byte(nil), s[i+1:j]...)
				}
				b = append(b, '\'')
				j++
				continue
			}
			v := s[i+1 : j]
			if b != nil {
				v = string(b)
			}
			return p.node(yaml.ScalarNode, yaml.SingleQuotedStyle, tagStr, v, i), j + 1, true
		}
		return nil, 0, false
	}
	var b []byte
	for j = i + 1; j < p.end; j++ {
		c := s[j]
		if c == '"' {
			v := s[i+1 : j]
			if b != nil {
				v = string(b)
			}
			return p.node(yaml.ScalarNode, yaml.DoubleQuotedStyle, tagStr, v, i), j + 1, true
		}
		if c != '\\' {
			if b != nil {
				b = append(b, c)
			}
			continue
		}
		if b == nil {
			b = append([]byte(nil), s[i+1:j]...)
		}
		var ok bool
		if b, j, ok = unescape(b, s, j, p.end); !ok {
			return nil, 0, false
		}
		j-- // the loop moves past the escape's last byte
	}
	return nil, 0, false
}

// unescape appends the character that the escape at s[j] ('\\') in a
// double-quoted scalar stands for, as yaml.v3 reads it, and returns the
// byte after the escape; ok is false for an escape yaml.v3 rejects, or
// one that continues on the next line (end is the line's end).
func unescape(b []byte, s string, j, end int) ([]byte, int, bool) {
	if j+1 >= end {
		return b, 0, false // an escaped line break
	}
	j++
	var code, width int
	switch s[j] {
	case '0':
		b = append(b, 0)
	case 'a':
		b = append(b, '\a')
	case 'b':
		b = append(b, '\b')
	case 't':
		b = append(b, '\t')
	case 'n':
		b = append(b, '\n')
	case 'v':
		b = append(b, '\v')
	case 'f':
		b = append(b, '\f')
	case 'r':
		b = append(b, '\r')
	case 'e':
		b = append(b, 0x1b)
	case ' ', '"', '\'', '\\':
		b = append(b, s[j])
	case 'N':
		b = utf8.AppendRune(b, 0x85)
	case '_':
		b = utf8.AppendRune(b, 0xa0)
	case 'L':
		b = utf8.AppendRune(b, 0x2028)
	case 'P':
		b = utf8.AppendRune(b, 0x2029)
	case 'x':
		width = 2
	case 'u':
		width = 4
	case 'U':
		width = 8
	default:
		return b, 0, false // yaml.v3 rejects it
	}
	if width == 0 {
		return b, j + 1, true
	}
	if j+width >= end {
		return b, 0, false
	}
	for k := j + 1; k <= j+width; k++ {
		d := hexDigit(s[k])
		if d < 0 {
			return b, 0, false
		}
		code = code<<4 | d
	}
	if code >= 0xd800 && code <= 0xdfff || code > 0x10ffff {
		return b, 0, false
	}
	return utf8.AppendRune(b, rune(code)), j + width + 1, true
}

func hexDigit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// flow parses a flow sequence or mapping that closes on its line, at byte
// i of the current line; j is the byte after it.
func (p *fastParser) flow(i int) (n *yaml.Node, j int, ok bool) {
	if p.depth++; p.depth > p.deepest {
		p.deepest = p.depth
	}
	if p.depth > maxFastDepth {
		return nil, 0, false
	}
	s := p.src
	seq := s[i] == '['
	closer := byte('}')
	if seq {
		n = p.node(yaml.SequenceNode, yaml.FlowStyle, "!!seq", "", i)
		closer = ']'
	} else {
		n = p.node(yaml.MappingNode, yaml.FlowStyle, "!!map", "", i)
	}
	start := len(p.stack)
	j = skipSpaces(s, i+1, p.end)
	if j < p.end && s[j] == closer {
		p.depth-- // as in mapping
		n.Content = p.children(start)
		return n, j + 1, true
	}
	for {
		if !seq {
			var k *yaml.Node
			k, j, ok = p.flowItem(j, false)
			if !ok || j+1 >= p.end || s[j] != ':' || s[j+1] != ' ' {
				return nil, 0, false
			}
			p.stack = append(p.stack, k)
			j++
		}
		var v *yaml.Node
		v, j, ok = p.flowItem(j, true)
		if !ok {
			return nil, 0, false
		}
		p.stack = append(p.stack, v)
		j = skipSpaces(s, j, p.end)
		if j >= p.end {
			return nil, 0, false
		}
		if s[j] == closer {
			p.depth-- // as in mapping
			n.Content = p.children(start)
			return n, j + 1, true
		}
		if s[j] != ',' {
			return nil, 0, false
		}
		j = skipSpaces(s, j+1, p.end)
		if j >= p.end || s[j] == closer {
			return nil, 0, false // a trailing comma
		}
	}
}

// flowItem parses a node inside a flow collection at byte i (after
// spaces); collections are allowed when nested is set.
func (p *fastParser) flowItem(i int, nested bool) (n *yaml.Node, j int, ok bool) {
	s := p.src
	i = skipSpaces(s, i, p.end)
	if i >= p.end {
		return nil, 0, false
	}
	switch s[i] {
	case '[', '{':
		if !nested {
			return nil, 0, false
		}
		return p.flow(i)
	case '"', '\'':
		return p.quoted(i)
	}
	if !plainStart(s, i, p.end, true) {
		return nil, 0, false
	}
	for j = i; j < p.end; j++ {
		// yaml.v3 also ends a plain scalar in a flow collection at '?'
		// (yaml_parser_scan_plain_scalar), and then finds a key
		// indicator: the callers give up on it.
		if strings.IndexByte(",[]{}:#?", s[j]) >= 0 {
			break
		}
	}
	v := trimSpaces(s[i:j])
	if j-i > maxFastKey {
		return nil, 0, false
	}
	return p.node(yaml.ScalarNode, 0, plainNodeTag(v), v, i), j, true
}

// blockScalar parses a literal (|) or folded (>) scalar whose indicator
// is at byte i of the current line, in a collection at indentation ind,
// as yaml.v3's yaml_parser_scan_block_scalar does, and moves past it.
func (p *fastParser) blockScalar(i, ind int) *yaml.Node {
	s := p.src
	literal := s[i] == '|'
	style := yaml.FoldedStyle
	if literal {
		style = yaml.LiteralStyle
	}
	n := p.node(yaml.ScalarNode, style, tagStr, "", i)
	j := i + 1
	chomp := 0
	if j < p.end && (s[j] == '-' || s[j] == '+') {
		chomp = 1
		if s[j] == '-' {
			chomp = -1
		}
		j++
	}
	j = skipSpaces(s, j, p.end)
	if j < p.end && s[j] != '#' {
		return nil // an indentation indicator, or text
	}
	p.advance()
	// The leading blank lines, and the indentation of the first line with
	// text.
	var out []byte
	var trailing int // trailing line breaks, pending
	maxBlank := 0
	for !p.atEOF && p.ind == p.end-p.cur {
		maxBlank = max(maxBlank, p.ind)
		if p.end == len(s) {
			return nil // blank last line without a line break
		}
		trailing++
		p.advance()
	}
	if p.atEOF || p.ind <= ind || maxBlank > p.ind {
		return nil
	}
	indent := p.ind
	leadingBreak, leadingBlank := false, false
	for !p.atEOF && (p.ind >= indent || p.ind == p.end-p.cur) {
		if p.ind < indent || p.ind == indent && p.cur+indent == p.end {
			// A blank line: a break.
			if p.end == len(s) {
				break // spaces at the end of the input, no line break
			}
			trailing++
			p.advance()
			continue
		}
		text := s[p.cur+indent : p.end]
		trailingBlank := text[0] == ' '
		if !literal && !leadingBlank && !trailingBlank && leadingBreak {
			if trailing == 0 {
				out = append(out, ' ')
			}
		} else if leadingBreak {
			out = append(out, '\n')
		}
		leadingBreak = false
		for ; trailing > 0; trailing-- {
			out = append(out, '\n')
		}
		leadingBlank = trailingBlank
		out = append(out, text...)
		if p.end < len(s) {
			leadingBreak = true
		}
		p.advance()
	}
	if chomp != -1 && leadingBreak {
		out = append(out, '\n')
	}
	if chomp == 1 {
		for ; trailing > 0; trailing-- {
			out = append(out, '\n')
		}
	}
	n.Value = string(out)
	return n
}

// plainNodeTag is the tag of a plain scalar node: yaml.v3 (parser.scalar)
// gives "<<" the merge tag, and resolves the others.
func plainNodeTag(v string) string {
	if v == "<<" {
		return tagMerge
	}
	return plainTag(v)
}

// plainTag is the tag yaml.v3 resolves a plain scalar to (resolve.go's
// resolve with no tag).
func plainTag(in string) string {
	if in == "" {
		return tagNull
	}
	c := in[0]
	switch {
	case c == '+' || c == '-' || c == '.' || c >= '0' && c <= '9':
	case c == 'y' || c == 'Y' || c == 'n' || c == 'N' || c == 't' || c == 'T' || c == 'f' || c == 'F' || c == 'o' || c == 'O' || c == '~':
		switch in {
		case "true", "True", "TRUE", "false", "False", "FALSE":
			return tagBool
		case "~", "null", "Null", "NULL":
			return tagNull
		}
		return tagStr
	default:
		return tagStr
	}
	switch in {
	case ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF":
		return tagFloat
	}
	if c == '.' {
		if _, err := strconv.ParseFloat(in, 64); err == nil {
			return tagFloat
		}
		return tagStr
	}
	if isTimestamp(in) {
		return tagTimestamp
	}
	// Only these characters can make an integer or a float below; most
	// strings ("100ms") are ruled out without strconv's errors, and a
	// short decimal ("50") needs no strconv either.
	digits := true
	for i := 0; i < len(in); i++ {
		switch c := in[i]; {
		case c >= '0' && c <= '9':
		case c >= 'a' && c <= 'f', c >= 'A' && c <= 'F', c == 'x', c == 'X', c == 'o', c == 'O', c == '_', c == '+', c == '-', c == '.':
			digits = false
		default:
			return tagStr
		}
	}
	if digits && len(in) <= 18 && (in[0] != '0' || len(in) == 1) {
		return tagInt // not octal ("0777") or a float ("09")
	}
	plain := strings.ReplaceAll(in, "_", "")
	if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return tagInt
	}
	if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return tagInt
	}
	if yamlStyleFloat(plain) {
		if _, err := strconv.ParseFloat(plain, 64); err == nil {
			return tagFloat
		}
	}
	switch {
	case strings.HasPrefix(plain, "0b"):
		if _, err := strconv.ParseInt(plain[2:], 2, 64); err == nil {
			return tagInt
		}
		if _, err := strconv.ParseUint(plain[2:], 2, 64); err == nil {
			return tagInt
		}
	case strings.HasPrefix(plain, "-0b"):
		if _, err := strconv.ParseInt("-"+plain[3:], 2, 64); err == nil {
			return tagInt
		}
	case strings.HasPrefix(plain, "0o"):
		if _, err := strconv.ParseInt(plain[2:], 8, 64); err == nil {
			return tagInt
		}
		if _, err := strconv.ParseUint(plain[2:], 8, 64); err == nil {
			return tagInt
		}
	case strings.HasPrefix(plain, "-0o"):
		if _, err := strconv.ParseInt("-"+plain[3:], 8, 64); err == nil {
			return tagInt
		}
	}
	return tagStr
}

// yamlStyleFloat matches yaml.v3's
// ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$.
func yamlStyleFloat(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// isTimestamp is yaml.v3's parseTimestamp: YYYY- and one of its formats.
func isTimestamp(s string) bool {
	i := 0
	for ; i < len(s); i++ {
		if c := s[i]; c < '0' || c > '9' {
			break
		}
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return false
	}
	for _, format := range []string{
		"2006-1-2T15:4:5.999999999Z07:00",
		"2006-1-2t15:4:5.999999999Z07:00",
		"2006-1-2 15:4:5.999999999",
		"2006-1-2",
	} {
		if _, err := time.Parse(format, s); err == nil {
			return true
		}
	}
	return false
}
