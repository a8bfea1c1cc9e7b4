package scenario

import (
	"bytes"
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
		if in.count("[")+in.count("{") > maxFlowScanDepth {
			if _, _, deep := in.deepFlow(maxFlowScanDepth); deep {
				return nil, false
			}
		}
		marks[k] = in.mayHoldFirst()
		if marks[k] >= 0 {
			last = k
		}
	}
	// A document starts at the top of an input or after a line break and
	// "---": when that many could make more than MaxObjects documents,
	// they are counted first, without decoding them, and the bound is
	// reported as runTrees would, but without holding 60,000 trees.
	maybe := 0
	for _, in := range inputs {
		maybe += in.count("\n---") + 1
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
					return nil, false // cannot happen: mayHoldFirst saw it
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

// mayHoldFirst returns the offset of the last place in data where the
// kind of a decodedFirst object (Scenario, Configuration, ConfigMap) may
// be written, or -1 when none is: a document that starts after it holds
// none. Without an escape (\x, \u, \U) in a double-quoted scalar, which
// the fast parser decodes, a scalar can only have the value "Scenario"
// when the input holds those letters.
func mayHoldFirst[T text](data T) int {
	last := -1
	for _, m := range []string{"Scenario", "Configuration", "ConfigMap", `\x`, `\u`, `\U`} {
		// Forward, occurrence after occurrence: bytes.Index is much faster
		// than bytes.LastIndex, and the words are rare.
		for at := 0; ; {
			i := indexOf(data[at:], m)
			if i < 0 {
				break
			}
			last = max(last, at+i)
			at += i + 1
		}
	}
	return last
}

// indexOf is bytes.Index (strings.Index) of sep in s.
func indexOf[T text](s T, sep string) int {
	if b, ok := any(s).([]byte); ok {
		return bytes.Index(b, []byte(sep))
	}
	return strings.Index(string(s), sep)
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
