package scenario

import (
	"bytes"

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
		if looksJSON(in.Data) {
			return nil, false
		}
		if _, _, deep := deepFlow(in.Data, maxFlowScanDepth); deep {
			return nil, false
		}
		marks[k] = mayHoldFirst(in.Data)
		if marks[k] >= 0 {
			last = k
		}
	}
	st := newState()
	var firsts, waiting []*rawObject
	flushed := false
	flush := func() {
		d.first(st, firsts)
		for _, o := range waiting {
			d.dispatch(st, o)
		}
		firsts, waiting, flushed = nil, nil, true
	}
	docs, objects := 0, 0
	var objs []*rawObject
	for k, in := range inputs {
		p := newFastParser(in.Data, d.files[k].base)
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
			// runTrees reports the bound itself, exactly; the margin
			// covers any difference in how empty documents are counted.
			if docs++; docs > MaxObjects-2 {
				return nil, false
			}
			d.obj = "" // as in runTrees, where collect runs first
			objs = d.collectRoot(objs[:0], root)
			if objects += len(objs); objects > MaxObjects {
				return nil, false
			}
			for _, o := range objs {
				switch {
				case flushed && decodedFirst(o):
					return nil, false // cannot happen: mayHoldFirst saw it
				case flushed:
					d.dispatch(st, o)
				case decodedFirst(o):
					firsts = append(firsts, o)
				default:
					waiting = append(waiting, o)
				}
			}
			clear(objs)
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

// mayHoldFirst returns the offset of the last place in data where the
// kind of a decodedFirst object (Scenario, Configuration, ConfigMap) may
// be written, or -1 when none is: a document that starts after it holds
// none. Without an escape (\x, \u, \U) in a double-quoted scalar, which
// the fast parser decodes, a scalar can only have the value "Scenario"
// when the input holds those letters.
func mayHoldFirst(data []byte) int {
	last := -1
	for _, m := range []string{"Scenario", "Configuration", "ConfigMap", `\x`, `\u`, `\U`} {
		last = max(last, bytes.LastIndex(data, []byte(m)))
	}
	return last
}
