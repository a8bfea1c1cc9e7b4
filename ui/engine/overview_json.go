package engine

import (
	"strconv"

	"github.com/kueueplay/kueueplay/core/trace"
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
	w := &jsonw{b}
	w.raw(`{"steps":`)
	w.int(int64(o.Steps))
	w.raw(`,"endMs":`)
	w.int(o.EndMs)
	w.raw(`,"timesMs":`)
	w.int64s(o.TimesMs)
	w.raw(`,"usage":`)
	if o.Usage == nil {
		w.raw("null")
	} else {
		for i := range o.Usage {
			w.sep(i, "[")
			u := &o.Usage[i]
			w.raw("{")
			w.chart(&u.Chart)
			w.raw(`,"kind":`)
			w.str(u.Kind)
			w.raw(`,"node":`)
			w.str(u.Node)
			if u.Parent != "" {
				w.raw(`,"parent":`)
				w.str(u.Parent)
			}
			w.raw(`,"depth":`)
			w.int(int64(u.Depth))
			w.raw(`,"resource":`)
			w.str(u.Resource)
			w.raw("}")
		}
		w.end(len(o.Usage), "[]", "]")
	}
	w.raw(`,"pending":{`)
	w.chart(&o.Pending)
	w.raw(`},"timeline":{"lanes":`)
	tl := &o.Timeline
	if tl.Lanes == nil {
		w.raw("null")
	} else {
		for i := range tl.Lanes {
			w.sep(i, "[")
			l := &tl.Lanes[i]
			w.raw(`{"workload":`)
			w.str(l.Workload)
			w.raw(`,"cq":`)
			w.str(l.ClusterQueue)
			w.raw(`,"priority":`)
			w.int(int64(l.Priority))
			w.raw(`,"spans":null}`)
		}
		w.end(len(tl.Lanes), "[]", "]")
	}
	for i := range tl.Preemptions {
		w.sep(i, `,"preemptions":[`)
		p := &tl.Preemptions[i]
		w.raw(`{"step":`)
		w.int(int64(p.Step))
		w.raw(`,"timeMs":`)
		w.int(p.TimeMs)
		w.raw(`,"victim":`)
		w.int(int64(p.Victim))
		w.raw(`,"preemptor":`)
		w.int(int64(p.Preemptor))
		w.raw(`,"preemptorName":`)
		w.str(p.PreemptorName)
		w.raw("}")
	}
	w.end(len(tl.Preemptions), "", "]")
	w.raw("}}")
	return w.b
}

// jsonw appends JSON to b: one call per piece, which keeps the encoder's
// WebAssembly small (an append inlines its growth at every call site).
type jsonw struct{ b []byte }

//go:noinline
func (w *jsonw) raw(s string) { w.b = append(w.b, s...) }

//go:noinline
func (w *jsonw) int(v int64) { w.b = strconv.AppendInt(w.b, v, 10) }

func (w *jsonw) str(s string) { w.b = trace.AppendJSONString(w.b, s) }

// sep starts element i of an array: open before the first, a comma
// before the others.
func (w *jsonw) sep(i int, open string) {
	if i == 0 {
		w.raw(open)
	} else {
		w.raw(",")
	}
}

// end closes an array of n elements: empty when there were none, else
// closed.
func (w *jsonw) end(n int, empty, closed string) {
	if n == 0 {
		w.raw(empty)
	} else {
		w.raw(closed)
	}
}

// int64s appends vs as a JSON array, null when nil.
func (w *jsonw) int64s(vs []int64) {
	if vs == nil {
		w.raw("null")
		return
	}
	for i, v := range vs {
		w.sep(i, "[")
		w.int(v)
	}
	w.end(len(vs), "[]", "]")
}

// ints appends vs as a JSON array, null when nil.
func (w *jsonw) ints(vs []int) {
	if vs == nil {
		w.raw("null")
		return
	}
	for i, v := range vs {
		w.sep(i, "[")
		w.int(int64(v))
	}
	w.end(len(vs), "[]", "]")
}

// chart appends c's fields (without braces: a UsageChart embeds them),
// its series' values null.
func (w *jsonw) chart(c *view.Chart) {
	w.raw(`"id":`)
	w.str(c.ID)
	w.raw(`,"title":`)
	w.str(c.Title)
	w.raw(`,"unit":`)
	w.str(c.Unit)
	w.raw(`,"divisor":`)
	w.int(c.Divisor)
	w.raw(`,"xMs":`)
	w.int64s(c.XMs)
	w.raw(`,"steps":`)
	w.ints(c.Steps)
	w.raw(`,"series":`)
	if c.Series == nil {
		w.raw("null")
		return
	}
	for i := range c.Series {
		w.sep(i, "[")
		s := &c.Series[i]
		w.raw(`{"label":`)
		w.str(s.Label)
		w.raw(`,"kind":`)
		w.str(s.Kind)
		if s.Flavor != "" {
			w.raw(`,"flavor":`)
			w.str(s.Flavor)
		}
		w.raw(`,"values":null`)
		if len(s.Gaps) > 0 {
			w.raw(`,"gaps":`)
			w.ints(s.Gaps)
		}
		w.raw("}")
	}
	w.end(len(c.Series), "[]", "]")
}
