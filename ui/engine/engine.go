// Package engine is the work the playground's Web Worker does for the
// page (wasm/worker.go is its glue): decode the scenario's text, simulate
// it under each variant, and hand the result to the page's main thread,
// which only renders (issue 20: at 15,000 workloads decoding and
// simulating take seconds, and must not hold the page's only thread).
//
// The worker keeps everything big: the traces, their view.Models, the
// marks, the event logs, the first difference, the Overview. The page
// receives only what it draws (Session): each panel laid out by ui/layout
// and encoded as layout.JSON, which the page's builder materializes
// without the page's Go reading it, and small summaries as JSON. A trace
// decoded by the page's Go (the first design) cost the 15,000-workload
// example 11-20 s of the page's thread. The package is pure: no I/O, no
// clock (the caller's Stop callback decides when to pause), no
// syscall/js.
package engine

import (
	"encoding/json"
	"errors"
	"maps"
	"math"
	"sort"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
	"github.com/kueueplay/kueueplay/ui/layout"
	"github.com/kueueplay/kueueplay/ui/view"
)

// Request is one run the page asks for: the scenario's text (sent beside
// the request, not in its JSON), the name its diagnostics give it, and
// the variants to simulate (one; two in Compare mode).
type Request struct {
	File     string         `json:"file"`
	Variants []view.Variant `json:"variants"`
	// MaxSteps stops a run at that many steps (the page's bound); 0 is
	// no bound.
	MaxSteps int `json:"maxSteps,omitempty"`
	// Overview asks for a long run's Overview with its answers (LongRun):
	// the page has an Overview (a read-only embed has none).
	Overview bool `json:"overview,omitempty"`
}

// Decoded is what the page needs of a decoded scenario: its problems and,
// when it decoded, what the page shows of it (name, description, Kueue's
// Configuration in words) and its feature gates (the gate checkboxes'
// defaults). OK is false when the scenario did not decode.
type Decoded struct {
	OK            bool              `json:"ok"`
	Diagnostics   []core.Diagnostic `json:"diagnostics,omitempty"`
	Error         string            `json:"error,omitempty"`
	Name          string            `json:"name,omitempty"`
	Description   string            `json:"description,omitempty"`
	Configuration string            `json:"configuration,omitempty"`
	Gates         core.FeatureGates `json:"gates,omitempty"`
}

// Decode decodes text (scenario.Decode) and summarizes it. The scenario is
// nil when it did not decode.
func Decode(file string, text []byte) (*core.Scenario, Decoded) {
	sc, err := scenario.Decode(file, text)
	if err != nil {
		var de *core.DiagnosticsError
		if errors.As(err, &de) {
			return nil, Decoded{Diagnostics: de.Diagnostics}
		}
		return nil, Decoded{Error: err.Error()}
	}
	return sc, Decoded{
		OK:            true,
		Diagnostics:   sc.Warnings,
		Name:          sc.Name,
		Description:   sc.Description,
		Configuration: view.ConfigurationText(sim.TraceConfiguration(sc.Configuration)),
		Gates:         sc.Gates,
	}
}

// Simulate runs sc under v. stop is called after every step, as
// sim.Options.Stop is (true stops the run, which ends "stopped"); capped
// reports that the run reached maxSteps (when > 0) and was stopped there.
func Simulate(sc *core.Scenario, v view.Variant, maxSteps int, stop func(*trace.Step) bool) (tr *trace.Trace, capped bool, err error) {
	return simulate(sc, v, maxSteps, stop, nil)
}

// SimulateOverview is Simulate that also gathers, as the run goes, the
// part of the run's Overview that costs most after it (the charts' change
// logs: view.OverviewBuilder, given every step before stop), for
// Session.SetOverview: what is left of the Overview after the run is
// then a third of a pass over the whole trace (in WebAssembly).
func SimulateOverview(sc *core.Scenario, v view.Variant, maxSteps int, stop func(*trace.Step) bool) (tr *trace.Trace, capped bool, ob *view.OverviewBuilder, err error) {
	ob = view.NewOverviewBuilder()
	tr, capped, err = simulate(sc, v, maxSteps, stop, ob)
	return tr, capped, ob, err
}

func simulate(sc *core.Scenario, v view.Variant, maxSteps int, stop func(*trace.Step) bool, ob *view.OverviewBuilder) (tr *trace.Trace, capped bool, err error) {
	sc2, err := v.Settings.Apply(sc)
	if err != nil {
		return nil, false, err
	}
	tr = sim.Run(sc2, sim.Options{
		Gates: core.FeatureGates(maps.Clone(v.Gates)),
		Stop: func(st *trace.Step) bool {
			if ob != nil {
				ob.Step(st)
			}
			if maxSteps > 0 && st.Index+1 >= maxSteps {
				capped = true
				return true
			}
			return stop != nil && stop(st)
		},
	})
	return tr, capped, nil
}

// Session is a finished run as the worker holds it: one side per
// variant (two in Compare mode, the right one missing when the left was
// stopped before it ran), and their first difference.
type Session struct {
	sides []*side
	diff  *view.Difference
	// overview is the left-hand run's Overview once computed (Overview).
	overview *overviewData
	// builder is what the left-hand run gathered of its Overview as it
	// ran (SetOverview), nil if none.
	builder *view.OverviewBuilder
}

// SetOverview gives the Session what SimulateOverview gathered of the
// left-hand run's Overview, which Overview then uses instead of replaying
// the trace (and ignores if it is not that run's).
func (s *Session) SetOverview(ob *view.OverviewBuilder) { s.builder = ob }

// overviewData is what Session.Overview returns.
type overviewData struct {
	panel, series json.RawMessage
	cols          Columns
}

type side struct {
	tr     *trace.Trace
	model  *view.Model
	marks  []view.Mark
	capped bool
}

// NewSession holds the runs of traces (left, then right; capped[k] when
// run k reached the page's step bound). In Compare mode (two traces, the
// right one not stopped) it finds their first difference.
func NewSession(traces []*trace.Trace, capped []bool) *Session {
	s := &Session{}
	for k, tr := range traces {
		s.sides = append(s.sides, &side{tr: tr, model: view.New(tr), marks: view.Timeline(tr), capped: k < len(capped) && capped[k]})
	}
	if len(traces) == 2 && traces[1].End != "stopped" {
		s.diff = view.FirstDifference(traces[0], traces[1])
	}
	return s
}

// Sides is the number of runs held.
func (s *Session) Sides() int { return len(s.sides) }

// Summary is what the page keeps of a run: the numbers its status line,
// scrubber and keys need, a few hundred bytes plus a step list.
type Summary struct {
	Sides []SideSummary `json:"sides"`
	// Difference is the first difference in Compare mode (nil: none, or
	// not compared).
	Difference *view.Difference `json:"difference,omitempty"`
	// Align maps each left-hand step to the right-hand step shown beside
	// it (view.AlignStep), in Compare mode.
	Align []int `json:"align,omitempty"`
}

// SideSummary is one run's part of a Summary.
type SideSummary struct {
	Steps  int    `json:"steps"`
	Cycles int    `json:"cycles"`
	End    string `json:"end"`
	EndMs  int64  `json:"endMs"`
	Capped bool   `json:"capped,omitempty"`
	// Eventful are the steps that changed something the user can see
	// (marks without NoChange), in order: the [ and ] keys' stops.
	Eventful []int `json:"eventful"`
}

// Summary summarizes the session.
func (s *Session) Summary() Summary {
	var out Summary
	for _, sd := range s.sides {
		ss := SideSummary{Steps: len(sd.tr.Steps), Cycles: sd.tr.Cycles, End: sd.tr.End, EndMs: sd.tr.EndMs, Capped: sd.capped, Eventful: []int{}}
		for _, m := range sd.marks {
			if !m.NoChange {
				ss.Eventful = append(ss.Eventful, m.Step)
			}
		}
		out.Sides = append(out.Sides, ss)
	}
	out.Difference = s.diff
	if len(s.sides) == 2 {
		l, r := s.sides[0].model, s.sides[1].model
		out.Align = make([]int, l.Len())
		for i := range out.Align {
			out.Align[i] = view.AlignStep(l, r, i)
		}
	}
	return out
}

// NextEventful is the step after (dir +1) or before (dir -1) step from
// that changed something (eventful, ascending), or the last (first) step
// of n when none does: the [ and ] keys.
func NextEventful(eventful []int, n, from, dir int) int {
	if dir > 0 {
		i := sort.SearchInts(eventful, from+1)
		if i < len(eventful) {
			return eventful[i]
		}
		return max(0, n-1)
	}
	i := sort.SearchInts(eventful, from) - 1
	if i >= 0 {
		return eventful[i]
	}
	return 0
}

// Layouts are a side's whole-run panels, laid out (Tree): the event log,
// and the scrubber's marks (null beyond layout.MaxMarks, where the page
// draws the scrubber alone). The event log comes in parts: EventLog is
// the list with its first entries, and each of LogRest a JSON array of
// the next entries' trees, which the page appends one part a task (the
// 2,000 entries of a long run are a megabyte of trees, which took the
// page's thread 0.6 s in one task).
type Layouts struct {
	EventLog json.RawMessage
	LogRest  []json.RawMessage
	Marks    json.RawMessage
}

// Layouts lays out side k's whole-run panels, with perPart event log
// entries in each part.
func (s *Session) Layouts(k, perPart int) Layouts {
	sd := s.sides[k]
	out := Layouts{Marks: Tree(nil)}
	log := layout.EventLog(view.EventLog(sd.tr))
	items := log.Children
	first := min(len(items), perPart)
	log.Children = items[:first]
	out.EventLog = Tree(log)
	for i := first; i < len(items); i += perPart {
		b := []byte{'['}
		for j, c := range items[i:min(len(items), i+perPart)] {
			if j > 0 {
				b = append(b, ',')
			}
			b = layout.AppendJSON(b, c)
		}
		out.LogRest = append(out.LogRest, append(b, ']'))
	}
	if len(sd.marks) <= layout.MaxMarks {
		out.Marks = Tree(layout.Marks(sd.marks))
	}
	return out
}

// DifferenceLayout is the first difference laid out (layout.Difference).
func (s *Session) DifferenceLayout() json.RawMessage { return Tree(layout.Difference(s.diff)) }

// StepView is side k at step i as the page draws it: the header's words
// and each panel laid out (layout.JSON, embedded as JSON so that one
// JSON.parse on the page reads the message and its trees); Placement and
// Nodes are null for a scenario without Nodes (Cluster false), whose
// placement panels the page hides.
type StepView struct {
	Index     int             `json:"index"`
	Total     int             `json:"total"`
	Title     string          `json:"title"`
	Time      string          `json:"time"`
	Cluster   bool            `json:"cluster"`
	Decisions json.RawMessage `json:"decisions"`
	Quota     json.RawMessage `json:"quota"`
	Queues    json.RawMessage `json:"queues"`
	Placement json.RawMessage `json:"placement"`
	Nodes     json.RawMessage `json:"nodes"`
}

// Tree is a laid-out tree as JSON: layout.JSON(n), null for nil.
func Tree(n *view.Node) json.RawMessage {
	if n == nil {
		return json.RawMessage("null")
	}
	return layout.AppendJSON(nil, n)
}

// Step lays out side k at step i (clamped to the run's steps).
func (s *Session) Step(k, i int) StepView {
	m := s.sides[k].model
	i = max(0, min(i, m.Len()-1))
	st := m.Step(i)
	v := StepView{
		Index: i, Total: m.Len(), Title: st.Title, Time: st.Time, Cluster: st.Cluster != nil,
		Decisions: Tree(layout.Decisions(st)),
		Quota:     Tree(layout.Quota(st)),
		Queues:    Tree(layout.Queues(st)),
		Placement: Tree(nil),
		Nodes:     Tree(nil),
	}
	if st.Cluster != nil {
		v.Placement = Tree(layout.Placement(st))
		v.Nodes = Tree(layout.Nodes(st))
	}
	return v
}

// LongRun is the number of steps past which a run is too long to step
// through: the worker computes its Overview right after its result and
// sends it unasked (wasm/worker.go), and the page loads the chart bundle
// ahead of the Overview's opening (ui/app). A shorter run's Overview
// costs little to compute when asked (the 104-step example's, under a
// millisecond natively), and the first load of the default example does
// not pay for the bundle.
const LongRun = 500

// Long reports whether the left-hand run has over LongRun steps.
func (s *Session) Long() bool { return s.sides[0].model.Len() > LongRun }

// Overview is the left-hand run's Overview: its panel laid out (Tree),
// its series (view.Overview) as JSON for the chart bundle, without the
// bulk of their numbers, and those numbers as columns (Columns): each
// lane's "spans" and each chart series' "values" are null in the JSON. At
// 15,000 workloads the spans and values were 4.8 MB of the series' 5 MB
// of JSON, which the page's thread parsed in one task. The JSON is
// written by hand (appendOverviewJSON), byte for byte what encoding/json
// would write; err is always nil. It is computed once, on the first
// call, and the same values are returned after that: from what the run
// gathered as it went when the Session has it (SetOverview: the charts'
// change logs; what is left, the timeline, the summary, the charts,
// lanes, panel and JSON, took 0.36-0.52 s in WebAssembly under Node on
// a loaded machine at 15,000 workloads), else by a pass over the whole
// trace (0.8-2 s there, a third of it replaying the queues' deltas). The worker computes a long run's (LongRun) right after its
// result and sends it unasked (wasm/worker.go), so that opening the
// Overview costs only its drawing.
// The caller must not modify what it returns.
func (s *Session) Overview() (panel, series json.RawMessage, cols Columns, err error) {
	if s.overview == nil {
		d := s.computeOverview()
		s.overview = &d
		s.builder = nil // its logs and lanes are in the Overview now
	}
	d := s.overview
	return d.panel, d.series, d.cols, nil
}

// computeOverview computes what Overview returns.
func (s *Session) computeOverview() overviewData {
	m := s.sides[0].model
	o := s.builder.Overview(m) // nil without a builder, or not m's
	if o == nil {
		o = m.Overview()
	}
	panel := Tree(layout.Overview(o))
	cols := spanColumns(o.Timeline.Lanes)
	// The values, chart by chart (the usage charts in order, then the
	// pending one), series by series.
	n := 0
	for i := range o.Usage {
		n += len(o.Usage[i].Series) * len(o.Usage[i].XMs)
	}
	n += len(o.Pending.Series) * len(o.Pending.XMs)
	cols.Values = make([]byte, 0, 8*n)
	values := func(c *view.Chart) {
		for _, sr := range c.Series {
			for _, v := range sr.Values {
				cols.Values = appendFloat64(cols.Values, float64(v))
			}
		}
	}
	for i := range o.Usage {
		values(&o.Usage[i].Chart)
	}
	values(&o.Pending)
	// About 100 bytes a lane (its name, ClusterQueue and keys) and 12 a
	// step time.
	series := appendOverviewJSON(make([]byte, 0, 4096+128*len(o.Timeline.Lanes)+12*len(o.TimesMs)), o)
	return overviewData{panel, series, cols}
}

// Columns is the Overview's numbers column by column, as the bytes of
// the typed arrays the page reads them with (little-endian, as every
// browser's typed arrays are). The timeline's spans (view.Span): lane i's
// are Lanes[i] to Lanes[i+1] (Int32Array, one more than the lanes), each
// with its kind (Kinds, Uint8Array: 0 waiting, 1 admitted, 2 terminating,
// 3 another) and its FromMs and ToMs (Float64Array; exact below 2^53 ms);
// their steps are not sent, as the charts do not use them. Values
// (Float64Array) is every chart series' values: the usage charts' in
// order, then the pending chart's, each series as many as its chart has
// points (XMs).
type Columns struct {
	Lanes, Kinds, FromMs, ToMs []byte
	Values                     []byte
}

// spanColumns is lanes' spans as Columns.
func spanColumns(lanes []view.Lane) Columns {
	n := 0
	for _, l := range lanes {
		n += len(l.Spans)
	}
	c := Columns{
		Lanes:  make([]byte, 0, 4*(len(lanes)+1)),
		Kinds:  make([]byte, 0, n),
		FromMs: make([]byte, 0, 8*n),
		ToMs:   make([]byte, 0, 8*n),
	}
	at := 0
	c.Lanes = appendUint32(c.Lanes, 0)
	for _, l := range lanes {
		for _, sp := range l.Spans {
			c.Kinds = append(c.Kinds, spanCode(sp.Kind))
			c.FromMs = appendFloat64(c.FromMs, float64(sp.FromMs))
			c.ToMs = appendFloat64(c.ToMs, float64(sp.ToMs))
		}
		at += len(l.Spans)
		c.Lanes = appendUint32(c.Lanes, uint32(at))
	}
	return c
}

// spanCode is kind's code in SpanColumns.Kinds.
func spanCode(kind view.SpanKind) byte {
	switch kind {
	case view.SpanWaiting:
		return 0
	case view.SpanAdmitted:
		return 1
	case view.SpanTerminating:
		return 2
	}
	return 3
}

func appendUint32(b []byte, v uint32) []byte {
	return append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
}

func appendFloat64(b []byte, f float64) []byte {
	v := math.Float64bits(f)
	return append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24), byte(v>>32), byte(v>>40), byte(v>>48), byte(v>>56))
}

// TraceJSON is side k's trace as the CLI writes it (kueueplay run -o
// json), for the page's download.
func (s *Session) TraceJSON(k int) ([]byte, error) {
	b, err := json.Marshal(s.sides[k].tr)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// SVG is side k's step i drawn as a standalone SVG (view.SVG), for the
// page's download.
func (s *Session) SVG(k, i int, opts view.SVGOptions) []byte {
	m := s.sides[k].model
	i = max(0, min(i, m.Len()-1))
	return []byte(view.SVG(m.Step(i), opts).String())
}

// AlignStep is the right-hand step shown beside left-hand step i
// (view.AlignStep), i clamped to the left run's steps; i itself when
// there is no right-hand run.
func (s *Session) AlignStep(i int) int {
	if len(s.sides) < 2 {
		return i
	}
	l := s.sides[0].model
	return view.AlignStep(l, s.sides[1].model, max(0, min(i, l.Len()-1)))
}
