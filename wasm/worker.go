//go:build js && wasm

package main

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"syscall/js"
	"time"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/trace"
	"github.com/kueueplay/kueueplay/ui/engine"
	"github.com/kueueplay/kueueplay/ui/view"
)

// yieldEvery is how long, in milliseconds, a simulation goes on before it
// posts its progress and lets the worker's event loop run (to receive a
// cancel, a newer run, or a step of the run on screen).
const yieldEvery = 30

// worker is the engine's side of the page's Web Worker (site/engine.js
// starts this module there and hands it the page's messages through
// kueueplayWorker). It holds the runs (engine.Session) and answers the
// page with what it draws, never a trace. Messages from the page:
//
//	{type: "run", id, request: engine.Request as JSON, text, left, right}
//	{type: "text", file, text}  the example the page opens with (below)
//	{type: "cancel", id}
//	{type: "step", seq, left, right, start}   right -1: aligned with left
//	{type: "overview", seq}   answered with an object: {type, seq, run,
//	                          panel, series (JSON strings), columns (typed arrays)};
//	                          also sent unasked (seq 0) after a long run's result
//	{type: "download", seq, what: "json"|"svg", step, theme, heading}
//
// A run is answered with one "result" message carrying what the page
// paints first: the scenario's problems (decoded), the summary, the first
// difference and the first step's panels, laid out. A long run's Overview
// follows, unasked ("overview", seq 0), then the whole-run panels in a
// "panels" message (the event logs' first entries and the
// scrubber's marks), then the event logs' further entries, a part a
// message ({type: "log", id, variant, items}); site/boot.js draws these
// two without the page's Go. A run slow enough to report progress sends
// its problems ("decoded") before its first progress line instead.
//
// Its answers are a message (below) as one JSON string, which the page
// reads with one JSON.parse (site/boot.js), laid-out trees included, so
// that neither side's Go builds JavaScript objects field by field; a
// download is {type, seq, run, bytes: ArrayBuffer}, transferred.
//
// The page's first run is of the example its URL names, which boot.js
// fetches while the modules load and posts here as soon as it has it
// ("text", before any run): the worker decodes it then, while the page's
// own module is still starting, and the first run, when its text and file
// name are that example's, takes that decoding instead of decoding again
// (predecoded). A "text" after the first run is ignored.
//
// A newer run supersedes the one in progress, which stops at its next
// pause and sends nothing more; a cancelled one stops there and sends
// what ran ("stopped"). Everything runs on the worker's one thread: the
// callbacks and the job's goroutine never run at once.
type worker struct {
	current   int // the id of the newest run asked for
	cancelled map[int]bool
	// session is the newest finished run, sessionID its id.
	session   *engine.Session
	sessionID int
	// pre is the example decoded ahead of the first run, nil once a run
	// has been asked for.
	pre *predecoded
	// holds counts the runs that keep the collector off (hold).
	holds int
}

// predecoded is a scenario's text decoded before a run asked for it: the
// text (a JavaScript string, compared with ===), the file name it was
// decoded under, and Decode's results and time.
type predecoded struct {
	text js.Value
	file string
	done bool
	sc   *core.Scenario
	dec  engine.Decoded
	ms   float64
}

// decode decodes p's text under file, once.
func (p *predecoded) decode(file string) {
	if p.done {
		return
	}
	t0 := now()
	p.sc, p.dec = engine.Decode(file, []byte(p.text.String()))
	p.ms, p.done = now()-t0, true
}

// drop lets the text go once the run that took p has it decoded.
func (p *predecoded) drop() { p.text = js.Undefined() }

// predecode decodes the example the page opens with, in this callback
// (the worker has nothing else to do before the page's first run), and
// keeps it for that run. A panic (a bug) leaves nothing kept: the run
// decodes again and reports it.
func (w *worker) predecode(file string, text js.Value) {
	defer func() {
		if recover() != nil {
			w.pre = nil
		}
	}()
	pre := &predecoded{text: text, file: file}
	pre.decode(file)
	w.pre = pre
}

// message is every answer but a download's: type and id (a run's: progress,
// decoded, result) or seq (a request's: step, overview) and run (the
// session it was drawn from); the rest as the type needs.
type message struct {
	Type string `json:"type"`
	ID   int    `json:"id"`
	Seq  int    `json:"seq"`
	Run  int    `json:"run"`
	// Error: the request failed (a setting Kueue rejects, a bug).
	Error string `json:"error,omitempty"`
	// progress: the variant running, the cycle and simulated time it is
	// at, and the steps it has made
	Variant int   `json:"variant"`
	Cycle   int   `json:"cycle"`
	TimeMs  int64 `json:"timeMs"`
	Steps   int   `json:"steps,omitempty"`
	// decoded, or result when no "decoded" came before it: engine.Decoded,
	// as a string the page's Go reads, and how long decoding took.
	Decoded string  `json:"decoded,omitempty"`
	Ms      float64 `json:"ms"`
	// result: engine.Summary as a string the page's Go reads, the first
	// difference, laid out, and the first step to show.
	Summary    string          `json:"summary,omitempty"`
	Difference json.RawMessage `json:"difference,omitempty"`
	SimulateMs float64         `json:"simulateMs"`
	LayoutMs   float64         `json:"layoutMs"`
	// panels: the sides' event logs (their first entries) and the left
	// one's marks, laid out.
	Logs  []json.RawMessage `json:"logs,omitempty"`
	Marks json.RawMessage   `json:"marks,omitempty"`
	// result, step; Start is a step request's, sent back for the page's
	// measure.
	View  *pairView `json:"view,omitempty"`
	Start float64   `json:"start,omitempty"`
	// log: entries to append to side Variant's event log
	Items json.RawMessage `json:"items,omitempty"`
}

// pairView is a step of each side (right: Compare mode's).
type pairView struct {
	Left  engine.StepView  `json:"left"`
	Right *engine.StepView `json:"right,omitempty"`
}

// The worker's collector settings. Its heap is mostly the runs it keeps:
// a run drops little of what it allocates (BenchmarkCycle, 15,000
// workloads: 683 MB allocated, 519-622 MB live at the end), so each
// collection marks the growing trace again, on the worker's only thread,
// with the write barrier on while it marks. Collecting at five times the
// live heap rather than twice halves the collections and the time the
// write barrier is on (under Node, GODEBUG=gctrace=1: 5 collections
// instead of 10, marking during 17 s of the run instead of 44 s), and the
// run takes 24-28 s instead of 37-40 s (its ns/op; the process's CPU,
// Node's own threads included, about the same), the peak RSS unchanged
// (0.79-0.81 GB). The limit bounds the heap where
// the target would not: without it a 32 MiB input's run (five times the
// 15,000-workload file, a live heap of a GB or more) would aim past the
// 4 GiB a WebAssembly memory can have and fail to grow; with it the
// collector runs as often as it must above 2 GiB, which leaves room for
// two 15,000-workload runs (the one on screen and the next) and lets a
// larger one finish while its live heap fits in 4 GiB.
const (
	workerGCPercent   = 400
	workerMemoryLimit = 2 << 30
)

func serveWorker() {
	debug.SetGCPercent(workerGCPercent)
	debug.SetMemoryLimit(workerMemoryLimit)
	w := &worker{cancelled: map[int]bool{}}
	js.Global().Set("kueueplayWorker", js.FuncOf(func(_ js.Value, args []js.Value) any {
		m := args[0]
		switch typ := m.Get("type").String(); typ {
		case "run":
			id := m.Get("id").Int()
			w.current = id
			pre := w.pre
			w.pre = nil
			var req engine.Request
			if err := json.Unmarshal([]byte(m.Get("request").String()), &req); err != nil {
				post(message{Type: "result", ID: id, Decoded: mustJSON(engine.Decoded{Error: "the page's request: " + err.Error()})})
				return nil
			}
			text := m.Get("text")
			if pre == nil || pre.file != req.File || !text.Equal(pre.text) {
				pre = &predecoded{text: text}
			}
			go w.run(id, req, pre, m.Get("left").Int(), m.Get("right").Int())
		case "text":
			if w.current == 0 && w.pre == nil {
				w.predecode(m.Get("file").String(), m.Get("text"))
			}
		case "cancel":
			w.cancelled[m.Get("id").Int()] = true
		case "step", "overview", "download":
			w.answer(typ, m)
		}
		return nil
	}))
}

// answer replies to a request about the run on screen (seq names it),
// with a panic (a bug) turned into an error rather than silence.
func (w *worker) answer(typ string, m js.Value) {
	out := message{Type: typ, Seq: m.Get("seq").Int(), Run: w.sessionID}
	defer func() {
		if r := recover(); r != nil {
			out.Error = fmt.Sprintf("internal error: %v", r)
			post(out)
		}
	}()
	s := w.session
	switch {
	case s == nil:
		out.Error = "no run yet"
	case typ == "step":
		out.View = stepView(s, m.Get("left").Int(), m.Get("right").Int())
		out.Start = m.Get("start").Float()
	case typ == "overview":
		if err := postOverview(s, out.Seq, out.Run); err != nil {
			out.Error = err.Error()
			break
		}
		return
	default: // download
		var b []byte
		if m.Get("what").String() == "json" {
			var err error
			if b, err = s.TraceJSON(0); err != nil {
				out.Error = err.Error()
				break
			}
		} else {
			b = s.SVG(0, m.Get("step").Int(), view.SVGOptions{Theme: m.Get("theme").String(), Heading: m.Get("heading").String()})
		}
		arr := js.Global().Get("Uint8Array").New(len(b))
		js.CopyBytesToJS(arr, b)
		o := js.Global().Get("Object").New()
		o.Set("type", typ)
		o.Set("seq", out.Seq)
		o.Set("run", out.Run)
		o.Set("bytes", arr.Get("buffer"))
		js.Global().Call("postMessage", o, []any{arr.Get("buffer")})
		return
	}
	post(out)
}

// postOverview sends s's Overview (Session.Overview) to the page, as an
// object: the panel and the series as JSON strings the page parses, their
// numbers as typed arrays, transferred (engine.Columns). seq is the
// request's, 0 for the Overview sent with the run's answers.
func postOverview(s *engine.Session, seq, run int) error {
	panel, series, cols, err := s.Overview()
	if err != nil {
		return err
	}
	o := js.Global().Get("Object").New()
	o.Set("type", "overview")
	o.Set("seq", seq)
	o.Set("run", run)
	o.Set("panel", string(panel))
	o.Set("series", string(series))
	arrays := js.Global().Get("Object").New()
	var transfer []any
	for _, c := range []struct {
		name, array string
		b           []byte
	}{{"lanes", "Int32Array", cols.Lanes}, {"kinds", "Uint8Array", cols.Kinds}, {"fromMs", "Float64Array", cols.FromMs}, {"toMs", "Float64Array", cols.ToMs}, {"values", "Float64Array", cols.Values}} {
		arr := js.Global().Get("Uint8Array").New(len(c.b))
		js.CopyBytesToJS(arr, c.b)
		buf := arr.Get("buffer")
		arrays.Set(c.name, js.Global().Get(c.array).New(buf))
		transfer = append(transfer, buf)
	}
	o.Set("columns", arrays)
	js.Global().Call("postMessage", o, transfer)
	return nil
}

// stepView is the left side at step left and, in Compare mode, the right
// side at step right (-1: the step aligned with left, view.AlignStep).
func stepView(s *engine.Session, left, right int) *pairView {
	v := &pairView{Left: s.Step(0, left)}
	if s.Sides() > 1 {
		if right < 0 {
			right = s.AlignStep(left)
		}
		r := s.Step(1, right)
		v.Right = &r
	}
	return v
}

// post sends m to the page as one JSON string.
func post(m message) { js.Global().Call("postMessage", mustJSON(m)) }

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf(`{"type":"fatal","error":%q}`, err.Error())
	}
	return string(b)
}

func (w *worker) stopped(id int) bool { return w.current != id || w.cancelled[id] }

// run decodes and simulates one request in its own goroutine, then holds
// the result as the session and answers: first the "result" the page
// paints (the scenario's problems unless sent before, the summary and the
// steps left and right; right -1: aligned with left), then the whole-run
// panels, which cost more to lay out (a stopped long run's event log and
// marks) and are drawn after it.
func (w *worker) run(id int, req engine.Request, pre *predecoded, left, right int) {
	defer delete(w.cancelled, id)
	defer func() {
		if r := recover(); r != nil { // a bug: say so rather than go silent
			post(message{Type: "result", ID: id, Error: fmt.Sprintf("internal error: %v", r)})
		}
	}()
	// The text decoded: ahead of the run when it is the example the page
	// opened with (predecoded), else now.
	pre.decode(req.File)
	pre.drop()
	sc, dec := pre.sc, pre.dec
	// decoded is the scenario's problems, sent with the first progress
	// line or else with the result: one message for a quick run.
	decoded := message{Type: "decoded", ID: id, Decoded: mustJSON(dec), Ms: pre.ms}
	if sc == nil {
		decoded.Type = "result"
		post(decoded)
		return
	}
	result := func(m message) message {
		if decoded.Decoded != "" {
			m.Decoded, m.Ms = decoded.Decoded, decoded.Ms
		}
		return m
	}
	var traces []*trace.Trace
	var capped []bool
	// What costs most of the left-hand run's Overview (its charts' change
	// logs), gathered as it runs when the page has an Overview
	// (engine.SimulateOverview): a pass over the trace after the result
	// cost 0.7 s under Node at 15,000 workloads, and a click on the
	// Overview right after the result waited for it.
	var ob *view.OverviewBuilder
	// The collector is off from here to the Overview (hold).
	w.hold()
	held := true
	release := func() {
		if held {
			held = false
			w.release()
		}
	}
	defer release()
	t1 := now()
	last := t1
	for k, v := range req.Variants {
		stop := func(st *trace.Step) bool {
			if w.stopped(id) {
				return true
			}
			if now()-last < yieldEvery {
				return false
			}
			if decoded.Decoded != "" {
				post(decoded)
				decoded.Decoded = ""
			}
			post(message{Type: "progress", ID: id, Variant: k, Cycle: st.Cycle, TimeMs: st.TimeMs, Steps: st.Index + 1})
			pause()
			last = now()
			return w.stopped(id)
		}
		var tr *trace.Trace
		var c bool
		var err error
		if k == 0 && req.Overview {
			tr, c, ob, err = engine.SimulateOverview(sc, v, req.MaxSteps, stop)
		} else {
			tr, c, err = engine.Simulate(sc, v, req.MaxSteps, stop)
		}
		if w.current != id {
			return
		}
		if err != nil {
			if k > 0 {
				err = fmt.Errorf("Right-hand variant: %w", err)
			}
			post(result(message{Type: "result", ID: id, Error: err.Error()}))
			return
		}
		traces, capped = append(traces, tr), append(capped, c)
		if tr.End == "stopped" { // cancelled or capped: the right-hand variant does not run
			break
		}
	}
	t2 := now()
	s := engine.NewSession(traces, capped)
	s.SetOverview(ob)
	w.session, w.sessionID = s, id
	out := result(message{Type: "result", ID: id, Summary: mustJSON(s.Summary()), Difference: s.DifferenceLayout(), View: stepView(s, left, right)})
	out.SimulateMs, out.LayoutMs = t2-t1, now()-t2
	post(out)
	// A long run's Overview (engine.LongRun), when the page has one
	// (Request.Overview), computed now and sent unasked: the page keeps
	// it for the Overview's opening (Session.Overview keeps it too, for
	// a request), with what the run gathered as it went (ob): the pass
	// over a long run's trace after it was most of the time from the
	// click to the charts, and a request that came while the worker laid
	// out the event log (below) waited for it. Between yields, so that a step asked for
	// meanwhile is answered first. A newer run asked for meanwhile ends
	// this one's answers: its own replace them.
	if req.Overview && s.Long() {
		yield()
		if w.current != id {
			return
		}
		sendOverview(s, id)
		yield()
		if w.current != id {
			return
		}
	}
	release()
	// The whole-run panels, then the rest of the event logs, a part a
	// message: the page draws each in its own task.
	panels := message{Type: "panels", ID: id}
	var rest [][]json.RawMessage
	for k := range s.Sides() {
		l := s.Layouts(k, logPart)
		panels.Logs = append(panels.Logs, l.EventLog)
		rest = append(rest, l.LogRest)
		if k == 0 {
			panels.Marks = l.Marks
		}
	}
	post(panels)
	for k, parts := range rest {
		for _, p := range parts {
			post(message{Type: "log", ID: id, Variant: k, Items: p})
		}
	}
}

// sendOverview computes s's Overview and sends it to the page unasked
// (seq 0), which keeps it for the Overview's opening. A panic (a bug)
// sends nothing: the page's request then reports it (worker.answer), and
// the run's answers go on.
func sendOverview(s *engine.Session, run int) {
	defer func() { _ = recover() }()
	_ = postOverview(s, 0, run) // its error is always nil
}

// hold turns the collector off while a run simulates and answers, until
// its release (the last run's, when a newer one overlaps it): a run keeps
// most of what it allocates, and a collection that starts in the middle
// of it is marked by the run's own allocations (the worker has one
// thread) with the write barrier on, or at once at a pause (pause). The
// 15,000-workload example's run grows the heap from 23 to about 100 MB;
// its one collection on the way (at a pause, GODEBUG=gctrace=1 under
// Node) cost 76-150 ms of CPU before the result. The memory limit
// (workerMemoryLimit) still bounds the heap while it is off.
func (w *worker) hold() {
	if w.holds == 0 {
		debug.SetGCPercent(-1)
	}
	w.holds++
}

// release ends a hold: the collector is on again after the last, and
// collects when the heap has grown past its goal.
func (w *worker) release() {
	if w.holds--; w.holds == 0 {
		debug.SetGCPercent(workerGCPercent)
	}
}

// logPart is how many event log entries a message carries (about 25 KB
// of trees; the page creates their elements in 5-10 ms).
const logPart = 50

// pause lets the worker's event loop run: the js/wasm runtime returns to
// it only once every goroutine is blocked, so the job blocks until its
// event loop has run (yield). It collects garbage there when the heap
// nears the collector's next goal: the collector's concurrent marking
// otherwise runs as idle work at a random pause. (While a run holds the
// collector off, the goal is the memory limit's: only a run that nears
// it collects.)
func pause() {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if ms.HeapAlloc > ms.NextGC/10*7 {
		runtime.GC()
	}
	yield()
}

// yield blocks the calling goroutine until the worker's event loop has
// run the tasks queued before it: a message posted to itself through a
// MessageChannel (yielder), which goes in the queue behind the page's
// messages already there. It was a 1 ms time.Sleep, a setTimeout, which
// Chromium clamps to 4 ms once timers nest five deep: a long run's
// pauses are all nested (each is the timer task of the one before), and
// the worker idled 4 ms at each, 36-185 ms in all on the way to the
// 15,000-workload example's first result (Chromium traces: the gaps
// between its timer tasks; now 0.02 ms).
func yield() {
	if yielder.port.IsUndefined() {
		ch := js.Global().Get("MessageChannel").New()
		yielder.port = ch.Get("port1")
		yielder.resumed = make(chan struct{}, 1)
		ch.Get("port2").Set("onmessage", js.FuncOf(func(js.Value, []js.Value) any {
			yielder.resumed <- struct{}{}
			return nil
		}))
	}
	yielder.port.Call("postMessage", nil)
	<-yielder.resumed
}

// yielder is yield's MessageChannel: port posts to the channel's other
// port, whose handler sends on resumed. Every goroutine that yields
// posts one message and takes one value (a superseded run's job may be
// waiting beside the newer one's), so each send finds a taker.
var yielder struct {
	port    js.Value
	resumed chan struct{}
}

// now is the time in milliseconds since the worker started, from the
// runtime's monotonic clock (in js/wasm, performance.now() through one
// import of wasm_exec.js). Only differences of it are used. A run's stop
// check reads it after every step: through syscall/js
// (performance.now() as js.Value calls, each with a finalizer set on the
// object it returns) that was 170 ms of a 2.6 s simulation under Node
// (15,000 workloads, --cpu-prof); now 11 ms.
func now() float64 { return float64(time.Since(started)) / float64(time.Millisecond) }

// started is when the worker's module started, for now.
var started = time.Now()
