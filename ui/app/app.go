//go:build js && wasm

package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/ui/engine"
	"github.com/kueueplay/kueueplay/ui/layout"
	"github.com/kueueplay/kueueplay/ui/view"
)

// editDelay is how long the editor must be quiet before the text is
// validated and, when valid, run again.
const editDelay = 300

// App is the running page. Every method runs on the browser's event loop
// (from a js.FuncOf callback) unless it says otherwise.
type App struct {
	doc    *element // document
	win    window
	editor js.Value // kueueplayBoot.editor (web/editor/src/editor.js)

	examples []layout.Example
	// example is the loaded example's file name, "" when the text did not
	// come from one; exampleText its text as loaded, to tell edits. The
	// texts stay JavaScript strings (compared with ===): a 7 MB example
	// copied into Go and back at every comparison held the page's thread
	// for tens of milliseconds each time.
	example     string
	exampleText js.Value
	origin      string // what #scenario-name says when not an example

	variant view.Variant
	compare *view.Variant // the right-hand variant, nil when off

	// dec is what the engine's worker said of the last scenario that
	// decoded, nil if none; lastText is the text last sent to it.
	dec      *engine.Decoded
	lastText js.Value
	left     *side
	right    *side
	diff     *view.Difference

	editTimer timer
	playTimer timer
	urlTimer  timer
	// shownProblems identifies the diagnostics on screen.
	shownProblems string
	// shownControls identifies the state the gate and setting forms show.
	shownControls string
	playing       bool
	ready         bool

	// gen counts runs (App.run); job is the one still simulating, nil
	// when none is.
	gen int
	job *runJob
	// shownRun is the gen of the run on screen, sum its summary (nil
	// before the first). asks are the requests about it awaiting the
	// worker's answer, by seq (App.ask).
	shownRun int
	sum      *engine.Summary
	seq      int
	asks     map[int]func(js.Value)

	// embed is the compact view for an iframe (?embed=1, marked by boot.js
	// as #app[data-embed=true]); editable (?embed=1&editable=1) keeps the
	// editor in it. embedQuery is what the embed's own URL keeps in front
	// of the state (embedParams).
	embed, editable bool
	embedQuery      string
	// fullLink is the last share link with the whole state in its
	// fragment, offered by #share-full when #share-url holds a short link.
	fullLink string
	// urlGen counts address bar updates (updateURL).
	urlGen int
	// ov is the Overview panel's state (overview.go).
	ov overview
}

// side is one view (left, or Compare mode's right): the summary of the
// run it shows (nil: none) and its step. The run itself stays in the
// engine's worker.
type side struct {
	root *element
	sum  *engine.SideSummary
	step int
}

func (s *side) panel(name string) *element {
	return s.root.QuerySelector(`[data-panel="` + name + `"] .panel-body`)
}

// Start sets up the page. It is called once from main.
func Start() error {
	win := window{js.Global()}
	b := boot()
	if b.IsUndefined() || b.Get("editor").IsNull() {
		return errors.New("the page did not create the editor (boot.js)")
	}
	if b.Get("engine").IsUndefined() {
		return errors.New("the page did not start the engine's worker (boot.js)")
	}
	if got := b.Get("maxBytes"); got.Type() != js.TypeNumber || got.Int() != maxPageBytes {
		return fmt.Errorf("boot.js refuses pastes over %v bytes, the engine runs up to %d: make them agree", got, maxPageBytes)
	}
	a := &App{doc: &element{js.Global().Get("document")}, win: win, editor: b.Get("editor")}
	root := a.byID("app")
	a.embed = root.GetAttribute("data-embed") == "true"
	a.editable = a.embed && root.GetAttribute("data-editable") == "true"
	if a.embed {
		a.embedQuery = embedParams(win.Location().Search())
	}
	a.left = &side{root: a.byID("view-left")}
	a.right = &side{root: a.byID("view-right")}
	b.Set("onChange", js.FuncOf(func(js.Value, []js.Value) any {
		a.editTimer.after(editDelay, a.textChanged)
		return nil
	}))
	b.Set("gotoStep", js.FuncOf(a.gotoStepFromChart))
	b.Get("engine").Set("onMessage", js.FuncOf(a.engineMessage))
	b.Get("views").Set("onStep", js.FuncOf(a.stepShown))
	b.Set("onStepError", js.FuncOf(func(_ js.Value, args []js.Value) any {
		a.status("error", "The engine could not show the step: "+args[0].String())
		return nil
	}))
	// The controls (a few hundred elements) and the first run each in a
	// task after this one, which the runtime's start began.
	go func() {
		nextTask()
		a.wire()
		a.load()
	}()
	return nil
}

func (a *App) byID(id string) *element {
	return wrapElement(a.doc.v.Call("getElementById", id))
}

// status sets the status line; state is loading, ready, running, error or
// cancelled.
func (a *App) status(state, text string) {
	s := a.byID("status")
	s.SetTextContent(text)
	s.SetAttribute("data-state", state)
	s.SetAttribute("class", "status "+state)
}

// load runs in a goroutine: it reads the URL, fetches what it names and
// the gallery, then shows the first result.
func (a *App) load() {
	// encoding/json makes a type's encoder on its first use (reflection,
	// 15-20 ms of CPU here): the run's request's now, in a task of its
	// own while the example is still coming, not in the first run's.
	nextTask()
	_, _ = json.Marshal(engine.Request{Variants: []view.Variant{{}}})
	loc := a.win.Location()
	text, name, step, err := a.initial(loc.Hash(), loc.Search())
	if err != nil {
		a.status("error", err.Error())
	}
	a.setText(text)
	a.example, a.exampleText = name, text
	if name == "" {
		a.exampleText = js.ValueOf("")
	}
	a.showScenarioName()
	nextTask()
	<-a.run(step)
	a.ready = true
	a.byID("app").SetAttribute("data-ready", "true")
	performance.Call("mark", "kueueplay:first-result")
	// The rest (the editor, the buttons, the service worker, the
	// gallery) in a later task: the first step is drawn in the task that
	// gets here (views.drawSoon), whose rendering follows it; all of it
	// in one task was 60-170 ms in the 15,000-workload example.
	nextTask()
	// The editor (CodeMirror) is loaded only now, so that it does not
	// compete with the engine for the first result (boot.js).
	b := boot()
	b.Call("loadEditor")
	// From now on a paste or drop over the limit is shown at once; one
	// refused while the engine loaded waited in kueueplayBoot.refused.
	b.Set("onTooLarge", js.FuncOf(func(_ js.Value, args []js.Value) any {
		a.refuse(args[0].String(), args[1].Int(), args[2].Bool())
		return nil
	}))
	if r := b.Get("refused"); r.Truthy() {
		b.Set("refused", js.Null())
		a.refuse(r.Get("what").String(), r.Get("bytes").Int(), r.Get("exact").Bool())
	}
	for _, id := range []string{"run", "compare", "share", "download-json", "download-svg", "overview"} {
		a.byID(id).RemoveAttribute("disabled")
	}
	if err != nil { // keep the URL's problem visible over "Ran ..."
		a.status("error", err.Error())
	}
	// An embed has no gallery, and does not install the service worker:
	// a reader of a documentation page has not asked for the playground
	// to be kept offline.
	if a.embed {
		return
	}
	boot().Call("registerOffline")
	a.loadGallery()
}

// initial decides what to open: a share fragment, ?example=, or the
// default example. Blocking (it fetches); called from load.
func (a *App) initial(hash, query string) (text js.Value, example string, step int, err error) {
	if strings.HasPrefix(hash, "#v") {
		sh, derr := decodeFragment(hash)
		if derr == nil {
			derr = sh.Validate()
		}
		if derr == nil {
			a.variant = view.Variant{Gates: sh.Gates, Settings: sh.Settings}
			if sh.Compare != nil {
				c := sh.Compare.Clone()
				a.compare = &c
			}
			text, example = js.ValueOf(sh.Scenario), sh.Example
			if example != "" {
				example += ".yaml"
			}
			if sh.Scenario == "" && example != "" {
				text, derr = fetchJS("scenarios/" + example)
			}
			if derr == nil {
				if sh.Scenario != "" && sh.Example == "" {
					a.origin = "shared"
				}
				return text, example, sh.Step, nil
			}
		}
		err = fmt.Errorf("This share link cannot be opened (%v); showing the default example.", derr)
		a.variant, a.compare = view.Variant{}, nil
	} else if l, ok, lerr := view.ParseLocation(query); ok || lerr != nil {
		if lerr != nil {
			err = fmt.Errorf("The link has a problem: %v", lerr)
		}
		if ok {
			a.variant, a.compare = l.Variant, l.Compare
			t, ferr := exampleText(l.Example)
			if ferr == nil {
				return t, l.Example + ".yaml", l.Step, err
			}
			err = fmt.Errorf("No example named %q (%v); showing the default example.", l.Example, ferr)
			a.variant, a.compare = view.Variant{}, nil
		}
	}
	t, ferr := exampleText("default")
	if ferr != nil {
		return js.ValueOf(""), "", 0, errors.Join(err, ferr)
	}
	return t, "default.yaml", 0, err
}

// exampleText fetches a bundled example by name, or takes the fetch
// boot.js started for it. Blocking.
func exampleText(name string) (js.Value, error) {
	if b := boot(); b.Get("initialName").Type() == js.TypeString && b.Get("initialName").String() == name {
		v, err := await(b.Get("initial"))
		if err != nil {
			return js.Value{}, err
		}
		return v, nil
	}
	return fetchJS("scenarios/" + name + ".yaml")
}

// text is the scenario's text (the editor's, or the large text's that
// boot.js keeps out of it), as a JavaScript string.
func (a *App) text() js.Value { return a.editor.Call("getText") }

// edited reports whether the text differs from the example's as loaded.
func (a *App) edited() bool { return !a.text().Equal(a.exampleText) }

func (a *App) setText(s js.Value) {
	if !a.text().Equal(s) { // boot.js may have shown it already
		a.editor.Call("setText", s)
	}
}

func (a *App) textChanged() {
	if !a.ready {
		return
	}
	a.showScenarioName()
	if a.text().Equal(a.lastText) {
		return
	}
	a.run(a.left.step)
}

// showScenarioName shows which example (if any) is in the editor and
// whether it was edited.
func (a *App) showScenarioName() {
	el := a.byID("scenario-name")
	switch {
	case a.embed && a.dec != nil && a.dec.Name != "" && (a.example == "" || a.edited()):
		// An embed's scenario comes in a fragment: its own name says more
		// than "shared".
		el.SetTextContent(a.dec.Name)
		el.SetAttribute("title", "Scenario "+a.dec.Name)
	case a.example != "" && !a.edited():
		el.SetTextContent(strings.TrimSuffix(a.example, ".yaml"))
		el.SetAttribute("title", "Example "+a.example)
	case a.example != "":
		el.SetTextContent(strings.TrimSuffix(a.example, ".yaml") + " (edited)")
		el.SetAttribute("title", "Example "+a.example+", edited")
	case a.origin != "":
		el.SetTextContent(a.origin)
		el.SetAttribute("title", "")
	default:
		el.SetTextContent("your scenario")
		el.SetAttribute("title", "")
	}
}

// fileName is the name diagnostics give the editor's text.
func (a *App) fileName() string {
	if a.example != "" {
		return a.example
	}
	return "scenario.yaml"
}

// maxPageBytes bounds the text the page decodes: the decoder's own bound
// (scenario.MaxInputBytes, 32 MiB; the engine's worker decodes, so a large
// file no longer holds the page); maxPageSteps bounds a run's steps in the page, about 170 MB of trace
// and view at the 1.7 KB a step of a busy scenario takes, far below what
// would exhaust the WebAssembly memory. The CLI has neither bound.
const (
	maxPageBytes = scenario.MaxInputBytes
	maxPageSteps = 100_000
)

// tooLarge is the diagnostic for text over maxPageBytes: what names it
// ("the text", "the pasted text", ...), n is its size in bytes, exact or
// (exact false) a lower bound.
func (a *App) tooLarge(what string, n int, exact bool) core.Diagnostic {
	size := strconv.Itoa(n) + " bytes"
	if !exact {
		size = "at least " + size
	}
	return core.Diagnostic{
		Pos: core.Pos{File: a.fileName(), Line: 1, Col: 1}, Severity: core.SeverityError,
		Message: fmt.Sprintf("%s is %s; the playground runs at most %d bytes (32 MiB): run larger files with the CLI, kueueplay run FILE", what, size, maxPageBytes),
	}
}

// refuse shows that the editor refused a paste or drop over
// maxPageBytes (web/editor's sizeGuard): the editor's text and the run on
// screen are unchanged.
func (a *App) refuse(what string, n int, exact bool) {
	a.showProblems([]core.Diagnostic{a.tooLarge(what, n, exact)}, nil)
	a.status("error", "Not put in the editor: "+what+" is over the playground's 32 MiB (see Problems); the editor's text is unchanged.")
}

// runJob is one run started by App.run. The page's Web Worker (the same
// WebAssembly module, wasm/worker.go) decodes, simulates and keeps the
// run; the job's goroutine waits for its answers (the scenario decoded,
// then the run's summary and first step, laid out) and shows them, so
// that the page's thread only renders. The worker's progress lines are
// shown as they come (App.engineMessage); the first one shows
// #cancel-run.
type runJob struct {
	// gen is the job's App.gen, which the worker's messages carry: once a
	// newer run has started, the worker stops this one at its next pause
	// and the page ignores what it still sends.
	gen int
	// cancelled is set by #cancel-run or Escape: the worker stops the run
	// at its next pause and sends what ran.
	cancelled bool
	// slow is set at the first progress line: the run takes long enough
	// to show its progress and #cancel-run.
	slow bool
	// cmp is the run's right-hand variant in Compare mode.
	cmp bool
	// msgs gets the worker's "decoded" (a slow run's, before its
	// progress) and "result" messages for the job;
	// App.run closes it when a newer run supersedes the job.
	msgs chan js.Value
	done chan struct{}
}

// run sends the text to the engine's worker, which decodes it and, when
// it decodes, simulates it (both variants in Compare mode); the job's
// goroutine shows its problems, then step of the result. A run in
// progress is superseded first. The returned channel is closed when the
// run has ended (shown, failed, or superseded by a newer one).
func (a *App) run(step int) <-chan struct{} {
	start := now()
	a.editTimer.stop()
	if a.job != nil {
		close(a.job.msgs) // its goroutine returns
	}
	a.gen++ // the worker drops the job in progress, if any
	a.endJob()
	j := &runJob{gen: a.gen, done: make(chan struct{}), msgs: make(chan js.Value, 2)}
	text := a.text()
	a.lastText = text
	a.status("running", "Running…")
	// n UTF-16 units are at least n bytes: past the bound, the text is
	// refused here; within it, the worker's decoder counts the bytes
	// (scenario.Decode refuses more than MaxInputBytes), which spares the
	// page's thread an encoding of megabytes.
	if n := strLen(text); n > maxPageBytes {
		a.showProblems([]core.Diagnostic{a.tooLarge("the text", n, false)}, nil)
		a.status("error", "Fix the errors in the scenario to run it; the last run stays on screen.")
		a.setStale(true)
		close(j.done)
		return j.done
	}
	req := engine.Request{File: a.fileName(), Variants: []view.Variant{a.variant.Clone()}, MaxSteps: maxPageSteps, Overview: a.hasOverview()}
	if a.compare != nil {
		req.Variants = append(req.Variants, a.compare.Clone())
		j.cmp = true
	}
	body, err := json.Marshal(req)
	if err != nil { // cannot happen: plain data
		a.status("error", err.Error())
		close(j.done)
		return j.done
	}
	a.job = j
	engineCall("post", map[string]any{"type": "run", "id": j.gen, "request": string(body), "text": text, "left": step, "right": -1})
	go a.await(j, start)
	return j.done
}

// strLen is the length of a JavaScript string in UTF-16 units (syscall/js
// reads properties of objects only: a String wrapper has it).
func strLen(s js.Value) int { return js.Global().Get("Object").New(s).Get("length").Int() }

func engineCall(method string, args ...any) { boot().Get("engine").Call(method, args...) }

// engineMessage is kueueplayBoot.engine.onMessage: a message from the
// engine's worker (wasm/worker.go documents them). Progress lines are
// shown at once, answers to requests go to their callback (App.ask); the
// rest goes to the job's goroutine.
func (a *App) engineMessage(_ js.Value, args []js.Value) any {
	m := args[0]
	switch m.Get("type").String() {
	case "fatal":
		a.status("error", "The engine stopped: "+m.Get("error").String()+"; reload the page.")
		return nil
	case "overview", "download":
		seq := m.Get("seq").Int()
		if seq == 0 { // a long run's Overview, sent unasked
			a.overviewSent(m)
			return nil
		}
		f := a.asks[seq]
		delete(a.asks, seq)
		if f != nil && m.Get("run").Int() == a.shownRun {
			f(m)
		} else if f != nil {
			f(js.Null())
		}
		return nil
	}
	j := a.job
	if j == nil || m.Get("id").Int() != j.gen {
		return nil // a superseded run's
	}
	if m.Get("type").String() != "progress" {
		select {
		case j.msgs <- m:
		default: // cannot happen: one decoded and one result a run
		}
		return nil
	}
	if j.cancelled {
		return nil
	}
	// A run already past LongRun steps will have its Overview sent with
	// its answers: the chart bundle is loaded now, while the page's thread
	// waits for the worker, rather than after the first result, where
	// it was compiled in the very tasks in which the Overview's opening
	// was asked for.
	if m.Get("steps").Int() > engine.LongRun && a.hasOverview() {
		boot().Call("prefetchCharts")
	}
	if !j.slow {
		j.slow = true
		a.byID("cancel-run").RemoveAttribute("hidden")
		a.byID("status").SetAttribute("aria-busy", "true")
		a.setStale(true)
	}
	what := "Running"
	if j.cmp {
		what = []string{"Running the left-hand variant", "Running the right-hand variant"}[min(1, m.Get("variant").Int())]
	}
	a.byID("status").SetTextContent(fmt.Sprintf("%s… cycle %d (%s simulated). Esc or Cancel stops it.",
		what, m.Get("cycle").Int(), view.FormatTime(int64(m.Get("timeMs").Float()))))
	return nil
}

// ask sends a request about the run on screen to the engine's worker;
// f gets its answer, or null when the answer is about another run (a
// newer one has been shown since). It returns the request's sequence
// number.
func (a *App) ask(msg map[string]any, f func(js.Value)) int {
	a.seq++
	if a.asks == nil {
		a.asks = map[int]func(js.Value){}
	}
	a.asks[a.seq] = f
	msg["seq"] = a.seq
	engineCall("post", msg)
	return a.seq
}

// await runs in the job's goroutine: it shows the scenario's problems
// (in the result, or before it for a slow run), then the run's result:
// its status and first step. The whole-run panels (event log, marks)
// come in a later message, which boot.js draws (views.panels).
func (a *App) await(j *runJob, start float64) {
	defer close(j.done)
	m, ok := <-j.msgs
	if !ok {
		return
	}
	if m.Get("decoded").Truthy() && !a.decoded(m) {
		return
	}
	if m.Get("type").String() == "decoded" {
		if m, ok = <-j.msgs; !ok {
			return
		}
	}
	a.endJob()
	if e := m.Get("error"); e.Truthy() {
		a.status("error", e.String())
		a.setStale(true)
		return
	}
	a.result(j, m, start)
}

// decoded shows the scenario's problems and, when it decoded, what the
// page shows of it; false when it did not decode (the run ends there).
func (a *App) decoded(m js.Value) bool {
	measureMs("kueueplay:engine-decode", m.Get("ms").Float())
	var dec engine.Decoded
	if err := json.Unmarshal([]byte(m.Get("decoded").String()), &dec); err != nil {
		dec.Error = "the engine's answer: " + err.Error()
	}
	var derr error
	if dec.Error != "" {
		derr = errors.New(dec.Error)
	}
	a.showProblems(dec.Diagnostics, derr)
	if !dec.OK {
		a.endJob()
		a.status("error", "Fix the errors in the scenario to run it; the last run stays on screen.")
		a.setStale(true)
		return false
	}
	a.dec = &dec
	a.byID("description").SetTextContent(dec.Description)
	a.byID("kueue-config").SetTextContent(dec.Configuration)
	if a.embed {
		a.showScenarioName()
	}
	a.syncControls()
	return true
}

// result shows job j's result m: the status line and the first step
// (boot.js's views draw it), the scrubber's bounds, and in Compare mode
// the first difference.
func (a *App) result(j *runJob, m js.Value, start float64) {
	measureMs("kueueplay:engine-simulate", m.Get("simulateMs").Float())
	measureMs("kueueplay:engine-layout", m.Get("layoutMs").Float())
	var sum engine.Summary
	if err := json.Unmarshal([]byte(m.Get("summary").String()), &sum); err != nil || len(sum.Sides) == 0 {
		a.status("error", fmt.Sprintf("the engine's answer: %v", err))
		a.setStale(true)
		return
	}
	t0 := now()
	a.shownRun, a.sum = j.gen, &sum
	a.asks = nil // answers about the older run are dropped
	a.setStale(false)
	a.setRun(a.left, &sum.Sides[0])
	shown, prefix := &sum.Sides[0], "" // the run the status line speaks of
	if j.cmp {
		a.diff = nil
		d := a.byID("difference")
		switch {
		case len(sum.Sides) < 2: // cancelled on the left: the right never ran
			a.clearSide(a.right)
			d.SetTextContent("Cancelled before the right-hand variant ran.")
		case sum.Sides[1].End == "stopped":
			a.setRun(a.right, &sum.Sides[1])
			d.SetTextContent("The right-hand run was cancelled: no comparison.")
			shown, prefix = &sum.Sides[1], "Right-hand variant: "
		default:
			a.setRun(a.right, &sum.Sides[1])
			a.diff = sum.Difference
			render(d, m.Get("difference"))
		}
		if a.diff != nil {
			d.SetAttribute("data-cycle", strconv.Itoa(a.diff.Cycle))
			a.byID("goto-difference").RemoveAttribute("hidden")
		} else {
			d.RemoveAttribute("data-cycle")
			a.byID("goto-difference").SetAttribute("hidden", "")
		}
	} else {
		a.right.sum = nil
	}
	info := map[string]any{"run": j.gen, "cmp": j.cmp, "right": a.right.sum != nil, "labels": []any{a.variant.Label()}}
	if a.compare != nil {
		info["labels"] = []any{a.variant.Label(), a.compare.Label()}
	}
	if d := a.diff; d != nil {
		info["diff"] = map[string]any{"leftStep": d.LeftStep, "rightStep": d.RightStep, "workload": d.Workload, "text": d.Text}
	}
	views := boot().Get("views")
	views.Call("set", info)
	// The step is drawn in a task after this one (views.drawSoon): Go's
	// handling of a large run's result and the step's drawing were one
	// task of 110-170 ms. The rest waits until the step is on screen.
	await(views.Call("drawSoon", j.gen, m.Get("view"), t0)) // never rejects
	if a.superseded(j) {
		return // the newer run's status is on screen
	}
	a.showOverview()
	// A long run's Overview is the likely next look, and the worker sends
	// it unasked: the chart bundle, loaded when the page is idle, would
	// otherwise be what its opening waits for.
	if sum.Sides[0].Steps > engine.LongRun && a.hasOverview() {
		boot().Call("prefetchCharts")
	}
	measure("kueueplay:run", start)
	state, text := a.runStatus(shown, now()-start)
	a.status(state, prefix+text)
}

// cancelRun stops the run in progress (#cancel-run, Escape); what it ran
// so far is shown.
func (a *App) cancelRun() {
	if a.job != nil && !a.job.cancelled {
		a.job.cancelled = true
		engineCall("post", map[string]any{"type": "cancel", "id": a.job.gen})
		a.byID("status").SetTextContent("Cancelling…")
	}
}

// endJob forgets the run in progress, ended or superseded, and hides what
// showed it was running.
func (a *App) endJob() {
	if a.job == nil {
		return
	}
	a.job = nil
	a.byID("cancel-run").SetAttribute("hidden", "")
	a.byID("status").RemoveAttribute("aria-busy")
}

// clearSide empties a side (the right one, when its run was cancelled
// before it started).
func (a *App) clearSide(s *side) {
	s.sum = nil
	for _, p := range s.root.QuerySelectorAll(".panel-body") {
		fill(p, nil)
	}
	s.root.QuerySelector(".side-step").SetTextContent("not run")
}

// setStale dims the views while they show a run older than the text.
func (a *App) setStale(on bool) {
	if on {
		a.byID("views").Class().Add("stale")
	} else {
		a.byID("views").Class().Remove("stale")
	}
}

// superseded reports whether a newer run has started since job j.
func (a *App) superseded(j *runJob) bool { return j.gen != a.gen }

// runStatus is the status line after a run that took ms: state ready,
// or error when spec.maxCycles or the page's step limit (Capped) cut it
// short, or cancelled when the user stopped it (sim's End "stopped").
func (a *App) runStatus(r *engine.SideSummary, ms float64) (string, string) {
	if r.End == "stopped" && r.Capped {
		return "error", fmt.Sprintf("Stopped at the page's limit of %d steps (cycle %d, %s): the trace is truncated; the CLI (kueueplay run) runs it to the end. Ran for %.0f ms.",
			maxPageSteps, r.Cycles, view.FormatTime(r.EndMs), ms)
	}
	if r.End == "stopped" {
		return "cancelled", fmt.Sprintf("Cancelled by the user at cycle %d: showing the %d steps that ran, up to %s. Ran for %.0f ms.",
			r.Cycles, r.Steps, view.FormatTime(r.EndMs), ms)
	}
	end := map[string]string{
		"quiescent": "nothing left to change",
		"until":     "spec.until reached",
		"maxCycles": "spec.maxCycles reached: the run was cut short",
	}[r.End]
	if end == "" {
		end = r.End
	}
	state := "ready"
	if r.End == "maxCycles" {
		state = "error"
	}
	return state, fmt.Sprintf("%d cycles, %d steps, ended at %s (%s). Ran in %.0f ms.",
		r.Cycles, r.Steps, view.FormatTime(r.EndMs), end, ms)
}

// setRun puts a new run into a side (on the left, the scrubber's bounds).
// What depends on the whole run, the event log and the scrubber's marks,
// comes after the first step, and boot.js draws it (views.panels).
func (a *App) setRun(s *side, sum *engine.SideSummary) {
	s.sum = sum
	if s == a.left {
		a.byID("scrubber").SetAttribute("max", strconv.Itoa(max(0, sum.Steps-1)))
	}
}

// show moves the left view to step i (and the right one to the same
// moment in Compare mode).
func (a *App) show(i int) { a.showPair(i, -1) }

// showPair moves the left view to step left and the right one to step
// right (-1: aligned with left). The worker lays the steps out and
// boot.js draws them (kueueplayBoot.views), then calls stepShown.
func (a *App) showPair(left, right int) {
	if a.left.sum == nil {
		return
	}
	left = max(0, min(left, a.left.sum.Steps-1))
	a.left.step = left
	boot().Get("views").Call("step", left, right)
}

// stepShown is kueueplayBoot.views.onStep: step i is on screen.
func (a *App) stepShown(_ js.Value, args []js.Value) any {
	i := args[0].Int()
	a.left.step = i
	if a.ov.open {
		boot().Call("overviewStep", i)
	}
	// The address bar follows, but not at every key repeat: browsers
	// throttle replaceState, and it costs a millisecond or two.
	a.urlTimer.after(150, a.updateURL)
	return nil
}

// shared is the state a share link carries.
func (a *App) shared() view.Shared {
	sh := view.Shared{Scenario: a.text().String(), Step: a.left.step, Gates: a.variant.Gates, Settings: a.variant.Settings}
	if a.example != "" && !a.edited() {
		sh.Example = strings.TrimSuffix(a.example, ".yaml")
	}
	if a.compare != nil {
		c := a.compare.Clone()
		sh.Compare = &c
	}
	return sh
}

// stateURL returns a function that gives the state as the end of the
// playground's URL: ?example=… for an unedited example, a share fragment
// (#v1.…) otherwise. The state is taken now; the function blocks (the
// fragment is compressed by the browser, encodeFragment): call it from a
// goroutine.
func (a *App) stateURL() func() (string, error) {
	if a.example != "" && !a.edited() {
		loc := view.Location{Example: strings.TrimSuffix(a.example, ".yaml"), Step: a.left.step, Variant: a.variant, Compare: a.compare}
		q := loc.Query()
		return func() (string, error) { return q, nil }
	}
	sh := a.shared()
	return func() (string, error) {
		f, err := encodeFragment(sh)
		return "#" + f, err
	}
}

// updateURL makes the address bar follow the state (stateURL). An embed
// keeps its embed parameters in its own URL, and points #open-playground
// at the same state in the full playground. Only the newest of several
// updates in flight is applied.
func (a *App) updateURL() { a.updateURLThen(nil) }

// updateURLThen is updateURL, then (when not nil) gets the full
// playground's URL of the state.
func (a *App) updateURLThen(then func(full string)) {
	a.urlGen++
	gen, state := a.urlGen, a.stateURL()
	go func() {
		st, err := state()
		if err != nil {
			return
		}
		loc := a.win.Location()
		path := loc.Pathname()
		if gen == a.urlGen { // else a newer update is on its way
			next := path + st
			if a.embed {
				next = path + embedURL(a.embedQuery, st)
				a.byID("open-playground").SetAttribute("href", loc.Origin()+path+st)
			}
			js.Global().Get("history").Call("replaceState", nil, "", next)
		}
		if then != nil {
			then(loc.Origin() + path + st)
		}
	}()
}

// embedParams are the parameters of an embed's URL that are not its
// state: embed=1, editable=1 and theme (as boot.js reads them).
func embedParams(search string) string {
	out := "?embed=1"
	for kv := range strings.SplitSeq(strings.TrimPrefix(search, "?"), "&") {
		switch kv {
		case "editable=1":
			out += "&editable=1"
		case "theme=light", "theme=dark":
			out += "&" + kv
		}
	}
	return out
}

// embedURL puts an embed's parameters (embedParams) in front of a
// stateURL.
func embedURL(params, state string) string {
	if rest, ok := strings.CutPrefix(state, "?"); ok {
		return params + "&" + rest
	}
	return params + state
}

// shareLink copies a link to the current state. The full link holds the
// whole state in its fragment (the scenario text included, so it keeps
// working if the example changes); when the page's server has the API, a
// short link to the same fragment (POST v1/share) is offered instead, and
// #share-full keeps the full one at hand.
func (a *App) shareLink() {
	loc := a.win.Location()
	sh := a.shared()
	share := a.byID("share")
	share.SetAttribute("disabled", "")
	a.status("ready", "Making a short link…")
	go func() {
		defer share.RemoveAttribute("disabled")
		frag, err := encodeFragment(sh)
		if err != nil {
			a.status("error", "The link could not be made: "+err.Error())
			return
		}
		full := loc.Origin() + loc.Pathname() + "#" + frag
		short, err := shortLink(frag)
		if err != nil {
			a.showLink(full, full, fmt.Sprintf(" (%d characters, the whole scenario in the URL; no short link here: %v)", len(full), err))
			return
		}
		a.showLink(short, full, ": "+short)
	}()
}

// shareTimeout bounds the wait for a short link, in milliseconds.
const shareTimeout = 3000

// shortLink asks the page's server for a short link to a share fragment
// (POST v1/share, relative to the page, so a playground under a sub-path
// finds its API). A static host without the API answers 404 or 405, or
// something that is not JSON. Blocking: call from a goroutine.
func shortLink(frag string) (string, error) {
	g := js.Global()
	ctrl := g.Get("AbortController").New()
	abort := js.FuncOf(func(js.Value, []js.Value) any {
		ctrl.Call("abort", g.Get("Error").New(fmt.Sprintf("no answer within %d s", shareTimeout/1000)))
		return nil
	})
	timer := g.Call("setTimeout", abort, shareTimeout)
	defer abort.Release()
	defer g.Call("clearTimeout", timer)
	res, err := await(g.Call("fetch", "v1/share", map[string]any{
		"method":  "POST",
		"body":    frag,
		"headers": map[string]any{"Content-Type": "text/plain"},
		"signal":  ctrl.Get("signal"),
		"cache":   "no-store",
	}))
	if err != nil {
		return "", err
	}
	if st := res.Get("status").Int(); st != 200 && st != 201 {
		return "", fmt.Errorf("HTTP %d", st)
	}
	body, err := await(res.Call("json"))
	if err != nil {
		return "", errors.New("the answer is not JSON")
	}
	u := body.Get("url")
	if u.Type() != js.TypeString || !(strings.HasPrefix(u.String(), "https://") || strings.HasPrefix(u.String(), "http://")) {
		return "", errors.New("the answer has no url")
	}
	return u.String(), nil
}

// showLink puts link in #share-url, copies it, and says in #status which
// link it copied ("Short link copied" or "Full link copied", then note).
// full is the full link: when link is another (short) one, #share-full
// offers it.
func (a *App) showLink(link, full, note string) {
	what := "Full link"
	if link != full {
		what = "Short link"
	}
	in := a.byID("share-url")
	in.SetValue(link)
	more := a.byID("share-full")
	a.fullLink = full
	if link != full {
		in.SetAttribute("data-kind", "short")
		in.SetAttribute("title", "Short link; the full link (the whole scenario in the URL) is "+full)
		more.RemoveAttribute("hidden")
	} else {
		in.SetAttribute("data-kind", "full")
		in.SetAttribute("title", "Full link: the whole scenario is in the URL")
		more.SetAttribute("hidden", "")
	}
	in.RemoveAttribute("hidden")
	in.Select()
	clip := js.Global().Get("navigator").Get("clipboard")
	if clip.IsUndefined() {
		a.status("ready", what+" ready"+note+": copy it from the box.")
		return
	}
	if _, err := await(clip.Call("writeText", link)); err != nil {
		a.status("ready", what+" ready"+note+": copy it from the box (the clipboard refused: "+err.Error()+").")
		return
	}
	a.status("ready", what+" copied"+note+".")
}

// copyFullLink shows and copies the full link after a short one
// (#share-full). Blocking: call from a goroutine.
func (a *App) copyFullLink() {
	if a.fullLink != "" {
		a.showLink(a.fullLink, a.fullLink, fmt.Sprintf(" (%d characters)", len(a.fullLink)))
	}
}

// baseName names downloads after the scenario.
func (a *App) baseName() string {
	name := "scenario"
	if a.dec != nil && a.dec.Name != "" {
		name = a.dec.Name
	} else if a.example != "" {
		name = strings.TrimSuffix(a.example, ".yaml")
	}
	var b strings.Builder
	for _, r := range name {
		if r < 128 && (r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

func (a *App) downloadJSON() {
	if a.left.sum == nil {
		return
	}
	a.fetchDownload(map[string]any{"type": "download", "what": "json"}, "trace-"+a.baseName()+".json", "application/json")
}

func (a *App) downloadSVG() {
	if a.left.sum == nil {
		return
	}
	theme := "light"
	if boot().Call("dark").Bool() {
		theme = "dark"
	}
	heading := a.baseName()
	if a.compare != nil {
		heading += " (" + a.variant.Label() + ")"
	}
	a.fetchDownload(map[string]any{"type": "download", "what": "svg", "step": a.left.step, "theme": theme, "heading": heading},
		fmt.Sprintf("%s-step-%d.svg", a.baseName(), a.left.step), "image/svg+xml")
}

// fetchDownload asks the worker for a download's bytes and offers them
// as the file name.
func (a *App) fetchDownload(msg map[string]any, name, mime string) {
	a.ask(msg, func(m js.Value) {
		switch {
		case m.IsNull():
			a.status("error", "A newer run replaced the one to download; try again.")
		case m.Get("error").Truthy():
			a.status("error", "The download failed: "+m.Get("error").String())
		default:
			download(name, mime, m.Get("bytes"))
		}
	})
}

// loadGallery fills the examples dialog from scenarios/index.json. It
// blocks, so it runs in load's goroutine.
func (a *App) loadGallery() {
	body, err := fetchText("scenarios/index.json")
	list := a.byID("gallery-list")
	if err == nil {
		err = json.Unmarshal([]byte(body), &a.examples)
	}
	if err != nil {
		list.SetTextContent("The examples could not be loaded: " + err.Error())
		return
	}
	// Decoding the list and drawing it were one 50-80 ms task of the
	// page's thread, right after the first result: the page's event loop
	// runs between them.
	nextTask()
	fill(list, layout.Gallery(a.examples))
}

// openExample loads an example by file name (from the gallery). Blocking:
// runs in a goroutine.
func (a *App) openExample(file string) {
	if !view.ValidExampleName(strings.TrimSuffix(file, ".yaml")) {
		return
	}
	if a.edited() && strLen(a.text()) != 0 {
		if !js.Global().Call("confirm", "Replace your edits with the example "+file+"?").Bool() {
			return
		}
	}
	a.status("loading", "Loading "+file+"…")
	text, err := fetchJS("scenarios/" + file)
	if err != nil {
		a.status("error", err.Error())
		return
	}
	a.stopPlaying()
	a.example, a.exampleText, a.origin = file, text, ""
	a.variant = view.Variant{}
	if a.compare != nil {
		a.compare = a.defaultCompare()
	}
	a.setText(text)
	a.showScenarioName()
	a.run(0)
}
