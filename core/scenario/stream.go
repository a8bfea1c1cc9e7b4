package scenario

import (
	"math/bits"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kueueplay/kueueplay/core"
)

// stream decodes the inputs one document at a time, when the fast parser
// (fastyaml.go) reads every one of them: each document is parsed, turned
// into its objects and decoded, and its node tree is garbage once the
// state has taken what it keeps. The whole file is never held as trees,
// and no yaml.v3 parser runs.
//
// The result is the one runTrees gives, diagnostics included: ok is false
// whenever stream cannot be sure of that (an input outside the fast
// parser's subset, JSON, a file near MaxObjects, the suggestion budget
// spent), and the caller starts again with runTrees; nothing stream did
// is kept then.
//
// runTrees decodes the Scenario object, Configurations and ConfigMaps
// (decodedFirst) before every other object. stream keeps the objects it
// cannot decode yet while a later document may still be one of those:
// one may only where the input still holds one of their kind names, or
// an escape that could spell one (mayHoldFirst). In a usual file, where
// the Scenario object comes first, nothing waits.
func (d *decoder) stream(inputs []Input) (*core.Scenario, bool) {
	last := -1 // the last input that may hold a decodedFirst object
	marks := make([]int, len(inputs))
	for k, in := range inputs {
		if in.looksJSON() {
			return nil, false
		}
		// deepFlow cannot find flow nesting deeper than maxFlowScanDepth
		// with fewer brackets than that; counting them is much cheaper.
		scan := d.files[k].scan
		if scan.flows > maxFlowScanDepth {
			if _, _, deep := in.deepFlow(maxFlowScanDepth); deep {
				return nil, false
			}
		}
		marks[k] = scan.first
		if marks[k] >= 0 {
			last = k
		}
	}
	// A document starts at the top of an input or after a line break and
	// "---": when that many could make more than MaxObjects documents,
	// they are counted first, without decoding them, and the bound is
	// reported as runTrees would, but without holding 60,000 trees.
	maybe := 0
	for k := range inputs {
		maybe += d.files[k].scan.markers + 1
	}
	if maybe > MaxObjects {
		line, col, over, ok := d.countDocs(inputs)
		if !ok {
			return nil, false
		}
		if over {
			d.errorf(&yaml.Node{Line: line, Column: col}, "", "more than %d documents%s (MaxObjects)", MaxObjects, d.together())
			return nil, true
		}
	}
	st := newState()
	st.fastCap = min(maybe, MaxObjects)
	d.streaming = true
	d.pairSlab.size, d.itemSlab.size = nodeChunk, contentChunk
	defer func() { d.streaming = false }()
	var firsts, waiting []*rawObject
	flushed := false
	flush := func() {
		d.first(st, firsts)
		for _, o := range waiting {
			d.dispatchStream(st, o)
		}
		firsts, waiting, flushed = nil, nil, true
	}
	docs, objects := 0, 0
	var objs []*rawObject
	for k, in := range inputs {
		p := in.parser(d.files[k].base)
		if p == nil {
			return nil, false
		}
		for {
			root, more, ok := p.next()
			if !ok {
				return nil, false
			}
			if !more {
				break
			}
			// countDocs has made sure there are not too many.
			if docs++; docs > MaxObjects {
				return nil, false
			}
			d.obj = "" // as in runTrees, where collect runs first
			// The fast parser's collections nest p.deepest deep, and
			// their scalars one deeper.
			objs = d.collectRoot(objs[:0], root, p.deepest < MaxDepth)
			if objects += len(objs); objects > MaxObjects {
				return nil, false
			}
			// The document's nodes can be handed out again for the next
			// one when every object of it is a Workload decoded at once:
			// dispatchStream leaves the state none of their nodes.
			recycle := flushed
			for _, o := range objs {
				recycle = recycle && o.kind == "Workload"
				switch {
				case flushed && decodedFirst(o):
					return nil, false // cannot happen: scanText saw it
				case flushed:
					d.dispatchStream(st, o)
				case decodedFirst(o):
					firsts = append(firsts, o)
				default:
					waiting = append(waiting, o)
				}
			}
			if recycle {
				p.recycle()
				d.recycleSlabs()
				d.spareObjects = append(d.spareObjects, objs...)
			}
			clear(objs)
			if !recycle {
				d.keepSlabs()
			}
			if !flushed && (k > last || k == last && p.cur > marks[k]) {
				flush()
			}
		}
	}
	if !flushed {
		flush()
	}
	// A List's unknown fields spend the "did you mean" budget in collect,
	// before every object in runTrees; here they are interleaved. Only when
	// the budget runs out can that change a message.
	if d.suggestions >= maxSuggestions {
		return nil, false
	}
	return d.finish(st), true
}

// countDocs counts the documents of the inputs with the fast parser and
// reports whether there are more than MaxObjects, and the (shifted) line
// and the column where the first one too many starts. ok is false when
// the fast parser does not read an input.
func (d *decoder) countDocs(inputs []Input) (line, col int, over, ok bool) {
	docs := 0
	for k, in := range inputs {
		p := in.parser(d.files[k].base)
		if p == nil {
			return 0, 0, false, false
		}
		for {
			_, more, ok := p.next()
			if !ok {
				return 0, 0, false, false
			}
			if !more {
				break
			}
			// Nothing holds the document's nodes: the next one takes them
			// (otherwise 60,000 documents' nodes are kept, 480 MB for
			// 60,000 Workloads).
			p.recycle()
			if docs++; docs > MaxObjects {
				return p.docLine + d.files[k].base, p.docCol, true, true
			}
		}
	}
	return 0, 0, false, true
}

// inputScan is what one pass over an input's text finds (scanText).
type inputScan struct {
	// lines is the number of '\n' bytes, flows of '[' and '{' bytes, and
	// markers of "\n---" (strings.Count of each).
	lines, flows, markers int
	// first is the offset of the last place where the kind of a
	// decodedFirst object (Scenario, Configuration, ConfigMap) may be
	// written, or -1 when none is: a document that starts after it holds
	// none. Without an escape (\x, \u, \U) in a double-quoted scalar,
	// which the fast parser decodes, a scalar can only have the value
	// "Scenario" when the input holds those letters.
	first int
}

// scanText reads s once, eight bytes at a time, for its inputScan. It
// replaces four strings.Count and six strings.Index passes (issue 20: in
// WebAssembly, which has no vector instructions, strings.Count goes a
// byte at a time, and those passes were an eighth of decoding the
// 15,000-workload file).
func scanText(s string) inputScan {
	sc := inputScan{first: -1}
	for i := 0; i < len(s); i += wasmChunk {
		sc.scan(s, i, min(i+wasmChunk, len(s)))
	}
	return sc
}

// wasmChunk is how many bytes a pass over a whole input reads in one call
// of the function that loops over them. A WebAssembly engine (V8: Chrome,
// Node) first runs a function as its baseline compiler translated it, and
// optimizes it in the background for its later calls, never for the call
// already running: one call over the whole 7 MB of the 15,000-workload
// file ran unoptimized to the end (issue 20: in the first decode under
// Node's profiler, 0.3 s, against 0.03 s in later ones).
const wasmChunk = 32 << 10

// scan adds what s[from:to] holds to sc; a document marker and a word
// may end after to. from is a multiple of 8.
func (sc *inputScan) scan(s string, from, to int) {
	i := from
	for ; i+8 <= to; i += 8 {
		_ = s[i+7]
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		nl := bytesEqual(w, '\n')
		sc.lines += bits.OnesCount64(nl)
		sc.flows += bits.OnesCount64(bytesEqual(w, '[') | bytesEqual(w, '{'))
		if f := bytesEqual(w, 'S') | bytesEqual(w, 'C') | bytesEqual(w, '\\'); nl|f != 0 {
			sc.at(s, i, nl, f)
		}
	}
	for ; i < to; i++ {
		var nl, f uint64
		switch s[i] {
		case '\n':
			sc.lines++
			nl = 0x80
		case '[', '{':
			sc.flows++
		case 'S', 'C', '\\':
			f = 0x80
		}
		sc.at(s, i, nl, f)
	}
}

// at visits the bytes of s from i on that are '\n' (the bits of nl, as
// bytesEqual sets them) and 'S', 'C' or '\\' (the bits of w).
func (sc *inputScan) at(s string, i int, nl, w uint64) {
	for ; nl != 0; nl &= nl - 1 {
		j := i + bits.TrailingZeros64(nl)/8
		if j+3 < len(s) && s[j+1] == '-' && s[j+2] == '-' && s[j+3] == '-' {
			sc.markers++
		}
	}
	for ; w != 0; w &= w - 1 {
		j := i + bits.TrailingZeros64(w)/8
		if mayStartFirst(s[j:]) {
			sc.first = j
		}
	}
}

// mayStartFirst reports whether s starts with a word inputScan.first
// looks for: "Scenario", "Configuration", "ConfigMap", `\x`, `\u` or `\U`.
func mayStartFirst(s string) bool {
	switch s[0] {
	case 'S':
		return strings.HasPrefix(s, "Scenario")
	case 'C':
		return strings.HasPrefix(s, "Configuration") || strings.HasPrefix(s, "ConfigMap")
	case '\\':
		return len(s) > 1 && (s[1] == 'x' || s[1] == 'u' || s[1] == 'U')
	}
	return false
}

// bytesEqual returns the bytes of w equal to c, as 0x80 in a mask (each
// step is exact: adding 0x7f to a byte's low seven bits never carries
// into the next byte).
func bytesEqual(w uint64, c byte) uint64 {
	const (
		ones = 0x0101010101010101
		low7 = 0x7f * ones
		high = 0x80 * ones
	)
	t := w ^ (uint64(c) * ones)
	return ^((t & low7) + low7 | t) & high
}

// dispatchStream decodes o. The state keeps some nodes of a Workload,
// for positions in the cross-object checks (link), and through their
// Content those would keep its whole tree; it gets copies of them instead,
// without children, so that the tree is garbage (or, with the fast parser,
// handed out again for the next document) once decoded. link reads only
// the positions, kinds, tags and values of a Workload's nodes, never their
// children (TestStreamCorpus and FuzzStream compare with runTrees, which
// keeps every tree whole).
func (d *decoder) dispatchStream(st *state, o *rawObject) {
	n := len(st.workloads)
	if o.kind != "Workload" {
		d.dispatch(st, o)
		return
	}
	if (o.apiVersion != apiKueueV1beta2 && o.apiVersion != apiKueueV1beta1) || !d.fastWorkload(st, o) {
		d.dispatch(st, o)
	}
	for _, w := range st.workloads[n:] {
		for _, np := range []**yaml.Node{&w.requeueAtNode, &w.admissionCQ.node, &w.wpc.node, &w.pc.node} {
			*np = d.keepNode(*np)
		}
		if w.owner != nil {
			w.owner.node = d.keepNode(w.owner.node)
		}
	}
}

// keepNode returns a copy of n without its children (nil for nil).
func (d *decoder) keepNode(n *yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	if d.kept.size == 0 {
		d.kept.size = nodeChunk
	}
	c := &d.kept.take(1)[0]
	*c = yaml.Node{Kind: n.Kind, Style: n.Style, Tag: n.Tag, Value: n.Value, Anchor: n.Anchor, Line: n.Line, Column: n.Column}
	return c
}
