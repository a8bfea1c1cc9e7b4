//go:build js && wasm

package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"strconv"
	"strings"
	"syscall/js"
	"time"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
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
	// come from one; exampleText its text as loaded, to tell edits.
	example     string
	exampleText string
	origin      string // what #scenario-name says when not an example

	variant view.Variant
	compare *view.Variant // the right-hand variant, nil when off

	sc       *core.Scenario // the last scenario that decoded, nil if none
	lastText string         // the text sc came from
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

	// embed is the compact view for an iframe (?embed=1, marked by boot.js
	// as #app[data-embed=true]); editable (?embed=1&editable=1) keeps the
	// editor in it. embedQuery is what the embed's own URL keeps in front
	// of the state (embedParams).
	embed, editable bool
	embedQuery      string
	// fullLink is the last share link with the whole state in its
	// fragment, offered by #share-full when #share-url holds a short link.
	fullLink string
	// ov is the Overview panel's state (overview.go).
	ov overview
}

// side is one view (left, or Compare mode's right) and the run it shows.
type side struct {
	root  *element
	tr    *trace.Trace
	model *view.Model
	// marks is view.Timeline(tr), kept for the scrubber and the [ ] keys.
	marks []view.Mark
	step  int
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
	a.wire()
	b.Set("onChange", js.FuncOf(func(js.Value, []js.Value) any {
		a.editTimer.after(editDelay, a.edited)
		return nil
	}))
	b.Set("gotoStep", js.FuncOf(a.gotoStepFromChart))
	go a.load()
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
	loc := a.win.Location()
	text, name, step, err := a.initial(loc.Hash(), loc.Search())
	if err != nil {
		a.status("error", err.Error())
	}
	a.setText(text)
	a.example, a.exampleText = name, text
	if name == "" {
		a.exampleText = ""
	}
	a.showScenarioName()
	<-a.run(step)
	a.ready = true
	a.byID("app").SetAttribute("data-ready", "true")
	performance.Call("mark", "kueueplay:first-result")
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
func (a *App) initial(hash, query string) (text, example string, step int, err error) {
	if strings.HasPrefix(hash, "#v") {
		sh, derr := view.DecodeFragment(hash)
		if derr == nil {
			derr = sh.Validate()
		}
		if derr == nil {
			a.variant = view.Variant{Gates: sh.Gates, Settings: sh.Settings}
			if sh.Compare != nil {
				c := sh.Compare.Clone()
				a.compare = &c
			}
			text, example = sh.Scenario, sh.Example
			if example != "" {
				example += ".yaml"
			}
			if text == "" && example != "" {
				text, derr = fetchText("scenarios/" + example)
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
		return "", "", 0, errors.Join(err, ferr)
	}
	return t, "default.yaml", 0, err
}

// exampleText fetches a bundled example by name, or takes the fetch
// boot.js started for it. Blocking.
func exampleText(name string) (string, error) {
	if b := boot(); b.Get("initialName").Type() == js.TypeString && b.Get("initialName").String() == name {
		v, err := await(b.Get("initial"))
		if err != nil {
			return "", err
		}
		return v.String(), nil
	}
	return fetchText("scenarios/" + name + ".yaml")
}

func (a *App) text() string { return a.editor.Call("getText").String() }

func (a *App) setText(s string) {
	if a.text() != s { // boot.js may have shown it already
		a.editor.Call("setText", s)
	}
}

func (a *App) edited() {
	if !a.ready {
		return
	}
	a.showScenarioName()
	if a.text() == a.lastText {
		return
	}
	a.run(a.left.step)
}

// showScenarioName shows which example (if any) is in the editor and
// whether it was edited.
func (a *App) showScenarioName() {
	el := a.byID("scenario-name")
	switch {
	case a.embed && a.sc != nil && a.sc.Name != "" && (a.example == "" || a.text() != a.exampleText):
		// An embed's scenario comes in a fragment: its own name says more
		// than "shared".
		el.SetTextContent(a.sc.Name)
		el.SetAttribute("title", "Scenario "+a.sc.Name)
	case a.example != "" && a.text() == a.exampleText:
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

// maxPageBytes bounds the text the page decodes (the API's body limit);
// maxPageSteps bounds a run's steps in the page, about 170 MB of trace
// and view at the 1.7 KB a step of a busy scenario takes, far below what
// would exhaust the WebAssembly memory. The CLI has neither bound.
const (
	maxPageBytes = 1 << 20
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
		Message: fmt.Sprintf("%s is %s; the playground runs at most %d bytes (1 MiB, as the API does): run larger files with the CLI, kueueplay run FILE", what, size, maxPageBytes),
	}
}

// refuse shows that the editor refused a paste or drop over
// maxPageBytes (web/editor's sizeGuard): the editor's text and the run on
// screen are unchanged.
func (a *App) refuse(what string, n int, exact bool) {
	a.showProblems([]core.Diagnostic{a.tooLarge(what, n, exact)}, nil)
	a.status("error", "Not put in the editor: "+what+" is over the playground's 1 MiB (see Problems); the editor's text is unchanged.")
}

// yieldEvery is how long, in milliseconds, a simulation goes on before it
// lets the page handle input and paint (runJob).
const yieldEvery = 30

// runJob is one run started by App.run. Its simulations go on in a
// goroutine whose sim.Options.Stop (App.pause) parks it on a timer every
// yieldEvery ms: the js/wasm runtime returns to the browser only once
// every goroutine is blocked. A run that ends within its first slice
// shows its result before the browser gets control back, as a synchronous
// one would; a longer one shows its progress and #cancel-run.
type runJob struct {
	// gen is the job's App.gen: once a newer run has started (App.gen
	// moved on), the job stops at its next step and shows nothing.
	gen int
	// cancelled is set by #cancel-run or Escape: the job stops at its
	// next step and shows what ran.
	cancelled bool
	// capped is set when a run reached maxPageSteps and was stopped.
	capped bool
	// last is when the job last let the page run, or its simulation
	// started (now()); slow that it has let the page run once, and shows
	// its progress.
	last float64
	slow bool
	done chan struct{}
}

// run decodes the editor's text, shows its problems, and when it decodes,
// simulates it (both variants in Compare mode) and shows step. A run in
// progress is superseded first. The simulations go on in a goroutine
// (runJob); the returned channel is closed when the run has ended (shown,
// failed, or superseded by a newer one).
func (a *App) run(step int) <-chan struct{} {
	start := now()
	a.editTimer.stop()
	a.gen++ // supersedes the job in progress, if any
	a.endJob()
	j := &runJob{gen: a.gen, done: make(chan struct{})}
	text := a.text()
	a.lastText = text
	a.status("running", "Running…")
	var sc *core.Scenario
	var err error
	if len(text) > maxPageBytes {
		// Decoding is synchronous: a file near the decoder's own 32 MiB
		// limit would hold the page for many seconds. (The editor refuses
		// a paste or drop over the limit; typing can still get here.)
		err = &core.DiagnosticsError{Diagnostics: []core.Diagnostic{a.tooLarge("the text", len(text), true)}}
	} else {
		sc, err = scenario.Decode(a.fileName(), []byte(text))
	}
	var diags []core.Diagnostic
	var de *core.DiagnosticsError
	switch {
	case err == nil:
		diags = sc.Warnings
	case errors.As(err, &de):
		diags = de.Diagnostics
		err = nil
	}
	a.showProblems(diags, err)
	if sc == nil {
		a.status("error", "Fix the errors in the scenario to run it; the last run stays on screen.")
		a.setStale(true)
		close(j.done)
		return j.done
	}
	a.sc = sc
	a.byID("description").SetTextContent(sc.Description)
	a.byID("kueue-config").SetTextContent(view.ConfigurationText(sim.TraceConfiguration(sc.Configuration)))
	if a.embed {
		a.showScenarioName()
	}
	a.syncControls()
	a.job = j
	var cmp *view.Variant
	if a.compare != nil {
		c := a.compare.Clone()
		cmp = &c
	}
	go a.simulateAll(j, sc, a.variant.Clone(), cmp, step, start)
	return j.done
}

// simulateAll runs in a goroutine: it simulates sc under v (and cmp in
// Compare mode, in the same job) and shows the result unless a newer run
// superseded it.
func (a *App) simulateAll(j *runJob, sc *core.Scenario, v view.Variant, cmp *view.Variant, step int, start float64) {
	defer close(j.done)
	j.last = now() // the first slice starts after the decoding
	what := "Running"
	if cmp != nil {
		what = "Running the left-hand variant"
	}
	left, err := a.simulate(j, sc, v, what)
	var right *trace.Trace
	if err == nil && cmp != nil && left.End != "stopped" {
		right, err = a.simulate(j, sc, *cmp, "Running the right-hand variant")
		if err != nil {
			err = errors.New("Right-hand variant: " + err.Error())
		}
	}
	if a.superseded(j) {
		return
	}
	a.endJob()
	if err != nil {
		a.status("error", err.Error())
		a.setStale(true)
		return
	}
	a.setStale(false)
	a.setRun(a.left, left)
	shown, prefix := left, "" // the run the status line speaks of
	if cmp != nil {
		a.diff = nil
		d := a.byID("difference")
		switch {
		case right == nil: // cancelled on the left: the right never ran
			a.clearSide(a.right)
			d.SetTextContent("Cancelled before the right-hand variant ran.")
		case right.End == "stopped":
			a.setRun(a.right, right)
			d.SetTextContent("The right-hand run was cancelled: no comparison.")
			shown, prefix = right, "Right-hand variant: "
		default:
			a.setRun(a.right, right)
			a.diff = view.FirstDifference(left, right)
			fill(d, layout.Difference(a.diff))
		}
		if a.diff != nil {
			d.SetAttribute("data-cycle", strconv.Itoa(a.diff.Cycle))
			a.byID("goto-difference").RemoveAttribute("hidden")
		} else {
			d.RemoveAttribute("data-cycle")
			a.byID("goto-difference").SetAttribute("hidden", "")
		}
	}
	a.show(step)
	measure("kueueplay:run", start)
	state, text := a.runStatus(shown, now()-start, j.capped)
	a.status(state, prefix+text)
}

// pause is the runs' sim.Options.Stop: every yieldEvery ms it shows the
// progress and parks the goroutine on a timer (not runtime.Gosched, nor
// a zero sleep: neither lets the browser run), so the page handles
// clicks, keys and paints. It stops the run once the job is cancelled or
// superseded.
//
// It also collects garbage there when the heap nears the collector's
// next goal. Left to itself, the collector marks concurrently, and on
// js/wasm the marking left when the goroutine parks runs as idle work
// before the runtime returns to the browser: a pause of 100-300 ms at a
// random yield for a run that allocates much (measured on a scenario with
// 2,000 admitted workloads), where a collection here takes 20-50 ms.
func (a *App) pause(j *runJob, what string, st *trace.Step) bool {
	if j.cancelled || a.superseded(j) {
		return true
	}
	if st.Index+1 >= maxPageSteps {
		j.capped = true
		return true
	}
	if now()-j.last < yieldEvery {
		return false
	}
	if !j.slow {
		j.slow = true
		a.byID("cancel-run").RemoveAttribute("hidden")
		a.byID("status").SetAttribute("aria-busy", "true")
		a.setStale(true)
	}
	a.byID("status").SetTextContent(fmt.Sprintf("%s… cycle %d (%s simulated). Esc or Cancel stops it.", what, st.Cycle, view.FormatTime(st.TimeMs)))
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if ms.HeapAlloc > ms.NextGC/10*7 {
		runtime.GC()
	}
	time.Sleep(time.Millisecond)
	j.last = now()
	return j.cancelled || a.superseded(j)
}

// superseded reports whether a newer run has started since job j.
func (a *App) superseded(j *runJob) bool { return j.gen != a.gen }

// cancelRun stops the run in progress (#cancel-run, Escape); what it ran
// so far is shown.
func (a *App) cancelRun() {
	if a.job != nil {
		a.job.cancelled = true
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
	s.tr, s.model, s.marks = nil, nil, nil
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

// simulate runs sc under variant v for job j (what names it in the
// progress). Blocking: call from the job's goroutine.
func (a *App) simulate(j *runJob, sc *core.Scenario, v view.Variant, what string) (*trace.Trace, error) {
	sc2, err := v.Settings.Apply(sc)
	if err != nil {
		return nil, err
	}
	return sim.Run(sc2, sim.Options{
		Gates: core.FeatureGates(maps.Clone(v.Gates)),
		Stop:  func(st *trace.Step) bool { return a.pause(j, what, st) },
	}), nil
}

// runStatus is the status line after a run that took ms: state ready,
// or error when spec.maxCycles or the page's step limit (capped) cut it
// short, or cancelled when the user stopped it (sim's End "stopped").
func (a *App) runStatus(tr *trace.Trace, ms float64, capped bool) (string, string) {
	if tr.End == "stopped" && capped {
		return "error", fmt.Sprintf("Stopped at the page's limit of %d steps (cycle %d, %s): the trace is truncated; the CLI (kueueplay run) runs it to the end. Ran for %.0f ms.",
			maxPageSteps, tr.Cycles, view.FormatTime(tr.EndMs), ms)
	}
	if tr.End == "stopped" {
		return "cancelled", fmt.Sprintf("Cancelled by the user at cycle %d: showing the %d steps that ran, up to %s. Ran for %.0f ms.",
			tr.Cycles, len(tr.Steps), view.FormatTime(tr.EndMs), ms)
	}
	end := map[string]string{
		"quiescent": "nothing left to change",
		"until":     "spec.until reached",
		"maxCycles": "spec.maxCycles reached: the run was cut short",
	}[tr.End]
	if end == "" {
		end = tr.End
	}
	state := "ready"
	if tr.End == "maxCycles" {
		state = "error"
	}
	return state, fmt.Sprintf("%d cycles, %d steps, ended at %s (%s). Ran in %.0f ms.",
		tr.Cycles, len(tr.Steps), view.FormatTime(tr.EndMs), end, ms)
}

// setRun puts a new run into a side and renders what depends on the whole
// run: the event log (and, on the left, the scrubber's marks).
func (a *App) setRun(s *side, tr *trace.Trace) {
	s.tr, s.model, s.marks = tr, view.New(tr), view.Timeline(tr)
	fill(s.panel("events"), layout.EventLog(view.EventLog(tr)))
	if s == a.left {
		if len(s.marks) <= layout.MaxMarks {
			fill(a.byID("marks"), layout.Marks(s.marks))
		} else {
			fill(a.byID("marks"), nil) // the scrubber alone
		}
		sc := a.byID("scrubber")
		sc.SetAttribute("max", strconv.Itoa(max(0, len(tr.Steps)-1)))
		a.showOverview()
	}
}

// show moves the left view to step i (and the right one to the same
// moment in Compare mode).
func (a *App) show(i int) {
	if a.left.model == nil {
		return
	}
	start := now()
	i = max(0, min(i, a.left.model.Len()-1))
	st := a.renderSide(a.left, i)
	if a.compare != nil && a.right.model != nil {
		a.renderSide(a.right, view.AlignStep(a.left.model, a.right.model, i))
	}
	n := a.left.model.Len()
	a.byID("step-label").SetTextContent(fmt.Sprintf("Step %d of %d", i+1, n))
	a.byID("step-title").SetTextContent(st.Title)
	a.byID("scrubber").SetValue(strconv.Itoa(i))
	a.byID("scrubber").SetAttribute("aria-valuetext", fmt.Sprintf("Step %d of %d: %s", i+1, n, st.Title))
	if a.ov.open {
		boot().Call("overviewStep", i)
	}
	root := a.byID("app")
	root.SetAttribute("data-step", strconv.Itoa(i))
	root.SetAttribute("data-steps", strconv.Itoa(n))
	marks := a.byID("marks").Underlying()
	for _, m := range queryAll(marks, ".current") {
		m.Get("classList").Call("remove", "current")
	}
	for _, m := range queryAll(marks, ".differs") {
		m.Get("classList").Call("remove", "differs")
	}
	if a.compare != nil && a.diff != nil {
		if m := marks.Call("querySelector", `[data-goto-step="`+strconv.Itoa(a.diff.LeftStep)+`"]`); m.Truthy() {
			m.Get("classList").Call("add", "differs")
		}
	}
	if m := marks.Call("querySelector", `[data-goto-step="`+strconv.Itoa(i)+`"]`); m.Truthy() {
		m.Get("classList").Call("add", "current")
	}
	// The address bar follows, but not at every key repeat: browsers
	// throttle replaceState, and it costs a millisecond or two.
	a.urlTimer.after(150, a.updateURL)
	measure("kueueplay:step", start)
}

// renderSide draws one side at step i and returns that step's view.
func (a *App) renderSide(s *side, i int) view.Step {
	s.step = i
	st := s.model.Step(i)
	fill(s.panel("decision"), layout.Decisions(st))
	fill(s.panel("quota"), layout.Quota(st))
	fill(s.panel("queues"), layout.Queues(st))
	// The placement panels exist only for scenarios with Nodes.
	for _, name := range []string{"placement", "nodes"} {
		sec := s.root.QuerySelector(`[data-panel="` + name + `"]`)
		if st.Cluster == nil {
			sec.SetAttribute("hidden", "")
			continue
		}
		sec.RemoveAttribute("hidden")
	}
	if st.Cluster != nil {
		fill(s.panel("placement"), layout.Placement(st))
		fill(s.panel("nodes"), layout.Nodes(st))
	}
	// Mark the log entries of this step (raw calls: wrapping every entry
	// in an element costs more than the rest of the step).
	log := s.panel("events").Underlying()
	for _, li := range queryAll(log, "li.current") {
		li.Get("classList").Call("remove", "current")
		li.Call("removeAttribute", "aria-current")
	}
	var first js.Value
	for _, li := range queryAll(log, `li[data-step="`+strconv.Itoa(i)+`"]`) {
		li.Get("classList").Call("add", "current")
		li.Call("setAttribute", "aria-current", "step")
		if first.IsUndefined() {
			first = li
		}
	}
	if !first.IsUndefined() {
		// Scroll the log itself, never the page (scrollIntoView would move
		// every scrolling ancestor).
		top, h := first.Get("offsetTop").Int(), first.Get("offsetHeight").Int()
		st, bh := log.Get("scrollTop").Int(), log.Get("clientHeight").Int()
		if top < st || top+h > st+bh {
			log.Set("scrollTop", max(0, top-bh/3))
		}
	}
	// Compare mode: at the first difference, outline what differs.
	if a.compare != nil && a.diff != nil && a.diff.Workload != "" {
		at := a.diff.LeftStep
		if s == a.right {
			at = a.diff.RightStep
		}
		if i == at {
			sel := `[data-workload="` + js.Global().Get("CSS").Call("escape", a.diff.Workload).String() + `"]`
			for _, el := range queryAll(s.panel("decision").Underlying(), ".decision"+sel) {
				el.Get("classList").Call("add", "differs")
				el.Call("setAttribute", "title", "The first difference between the two runs: "+a.diff.Text)
			}
		}
	}
	head := s.root.QuerySelector(".view-head")
	if a.compare != nil {
		head.RemoveAttribute("hidden")
		v := a.variant
		if s == a.right {
			v = *a.compare
		}
		head.QuerySelector(".variant-label").SetTextContent(v.Label())
		head.QuerySelector(".side-step").SetTextContent(fmt.Sprintf("step %d of %d, %s", i+1, s.model.Len(), st.Time))
	} else {
		head.SetAttribute("hidden", "")
	}
	return st
}

// shared is the state a share link carries.
func (a *App) shared() view.Shared {
	sh := view.Shared{Scenario: a.text(), Step: a.left.step, Gates: a.variant.Gates, Settings: a.variant.Settings}
	if a.example != "" && sh.Scenario == a.exampleText {
		sh.Example = strings.TrimSuffix(a.example, ".yaml")
	}
	if a.compare != nil {
		c := a.compare.Clone()
		sh.Compare = &c
	}
	return sh
}

// stateURL is the state as the end of the playground's URL: ?example=…
// for an unedited example, a share fragment (#v1.…) otherwise.
func (a *App) stateURL() string {
	if a.example != "" && a.text() == a.exampleText {
		loc := view.Location{Example: strings.TrimSuffix(a.example, ".yaml"), Step: a.left.step, Variant: a.variant, Compare: a.compare}
		return loc.Query()
	}
	return "#" + view.EncodeFragment(a.shared())
}

// updateURL makes the address bar follow the state (stateURL). An embed
// keeps its embed parameters in its own URL, and points #open-playground
// at the same state in the full playground.
func (a *App) updateURL() {
	loc := a.win.Location()
	path, state := loc.Pathname(), a.stateURL()
	next := path + state
	if a.embed {
		next = path + embedURL(a.embedQuery, state)
		a.byID("open-playground").SetAttribute("href", loc.Origin()+path+state)
	}
	js.Global().Get("history").Call("replaceState", nil, "", next)
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
	frag := view.EncodeFragment(a.shared())
	full := loc.Origin() + loc.Pathname() + "#" + frag
	share := a.byID("share")
	share.SetAttribute("disabled", "")
	a.status("ready", "Making a short link…")
	go func() {
		defer share.RemoveAttribute("disabled")
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
	if a.sc != nil && a.sc.Name != "" {
		name = a.sc.Name
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
	if a.left.tr == nil {
		return
	}
	data, err := json.Marshal(a.left.tr)
	if err != nil {
		a.status("error", err.Error())
		return
	}
	download("trace-"+a.baseName()+".json", "application/json", append(data, '\n'))
}

func (a *App) downloadSVG() {
	if a.left.model == nil {
		return
	}
	theme := "light"
	if boot().Call("dark").Bool() {
		theme = "dark"
	}
	st := a.left.model.Step(a.left.step)
	heading := a.baseName()
	if a.compare != nil {
		heading += " (" + a.variant.Label() + ")"
	}
	svg := view.SVG(st, view.SVGOptions{Theme: theme, Heading: heading}).String()
	download(fmt.Sprintf("%s-step-%d.svg", a.baseName(), a.left.step), "image/svg+xml", []byte(svg))
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
	fill(list, layout.Gallery(a.examples))
}

// openExample loads an example by file name (from the gallery). Blocking:
// runs in a goroutine.
func (a *App) openExample(file string) {
	if !view.ValidExampleName(strings.TrimSuffix(file, ".yaml")) {
		return
	}
	if a.text() != a.exampleText && a.text() != "" {
		if !js.Global().Call("confirm", "Replace your edits with the example "+file+"?").Bool() {
			return
		}
	}
	a.status("loading", "Loading "+file+"…")
	text, err := fetchText("scenarios/" + file)
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
