//go:build js && wasm

package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

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
	doc    dom.Document
	win    dom.Window
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
}

// side is one view (left, or Compare mode's right) and the run it shows.
type side struct {
	root  dom.Element
	tr    *trace.Trace
	model *view.Model
	// marks is view.Timeline(tr), kept for the scrubber and the [ ] keys.
	marks []view.Mark
	step  int
}

func (s *side) panel(name string) dom.Element {
	return s.root.QuerySelector(`[data-panel="` + name + `"] .panel-body`)
}

// Start sets up the page. It is called once from main.
func Start() error {
	win := dom.GetWindow()
	b := boot()
	if b.IsUndefined() || b.Get("editor").IsNull() {
		return errors.New("the page did not create the editor (boot.js)")
	}
	a := &App{doc: win.Document(), win: win, editor: b.Get("editor")}
	a.left = &side{root: a.byID("view-left")}
	a.right = &side{root: a.byID("view-right")}
	a.wire()
	b.Set("onChange", js.FuncOf(func(js.Value, []js.Value) any {
		a.editTimer.after(editDelay, a.edited)
		return nil
	}))
	go a.load()
	return nil
}

func (a *App) byID(id string) dom.Element { return a.doc.GetElementByID(id) }

// status sets the status line; state is loading, ready, running or error.
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
	a.run(step)
	a.ready = true
	a.byID("app").SetAttribute("data-ready", "true")
	js.Global().Get("performance").Call("mark", "kueueplay:first-result")
	boot().Call("registerOffline")
	for _, id := range []string{"run", "compare", "share", "download-json", "download-svg"} {
		a.byID(id).RemoveAttribute("disabled")
	}
	if err != nil { // keep the URL's problem visible over "Ran ..."
		a.status("error", err.Error())
	}
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

// run decodes the editor's text, shows its problems, and when it decodes,
// simulates it (both variants in Compare mode) and shows step.
func (a *App) run(step int) {
	start := now()
	a.editTimer.stop()
	text := a.text()
	a.lastText = text
	a.status("running", "Running…")
	sc, err := scenario.Decode(a.fileName(), []byte(text))
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
		return
	}
	a.setStale(false)
	a.sc = sc
	a.byID("description").SetTextContent(sc.Description)
	a.syncControls()

	left, lerr := a.simulate(sc, a.variant)
	if lerr != nil {
		a.status("error", lerr.Error())
		a.setStale(true)
		return
	}
	a.setRun(a.left, left)
	if a.compare != nil {
		right, rerr := a.simulate(sc, *a.compare)
		if rerr != nil {
			a.status("error", "Right-hand variant: "+rerr.Error())
			a.setStale(true)
			return
		}
		a.setRun(a.right, right)
		a.diff = view.FirstDifference(left, right)
		fill(a.byID("difference"), layout.Difference(a.diff))
		if a.diff != nil {
			a.byID("difference").SetAttribute("data-cycle", strconv.Itoa(a.diff.Cycle))
			a.byID("goto-difference").RemoveAttribute("hidden")
		} else {
			a.byID("difference").RemoveAttribute("data-cycle")
			a.byID("goto-difference").SetAttribute("hidden", "")
		}
	}
	a.show(step)
	measure("kueueplay:run", start)
	a.status(a.runStatus(left, now()-start))
}

// setStale dims the views while they show a run older than the text.
func (a *App) setStale(on bool) {
	if on {
		a.byID("views").Class().Add("stale")
	} else {
		a.byID("views").Class().Remove("stale")
	}
}

// simulate runs sc under variant v.
func (a *App) simulate(sc *core.Scenario, v view.Variant) (*trace.Trace, error) {
	sc2, err := v.Settings.Apply(sc)
	if err != nil {
		return nil, err
	}
	return sim.Run(sc2, sim.Options{Gates: core.FeatureGates(maps.Clone(v.Gates))}), nil
}

func (a *App) runStatus(tr *trace.Trace, ms float64) (string, string) {
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
		fill(a.byID("marks"), layout.Marks(s.marks))
		sc := a.byID("scrubber")
		sc.SetAttribute("max", strconv.Itoa(max(0, len(tr.Steps)-1)))
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
	a.byID("scrubber").(*dom.HTMLInputElement).SetValue(strconv.Itoa(i))
	a.byID("scrubber").SetAttribute("aria-valuetext", fmt.Sprintf("Step %d of %d: %s", i+1, n, st.Title))
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
	// in a dom.Element costs more than the rest of the step).
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

// updateURL makes the address bar follow the state: ?example=… for an
// unedited example, a share fragment otherwise.
func (a *App) updateURL() {
	path := a.win.Location().Pathname()
	var url string
	if a.example != "" && a.text() == a.exampleText {
		loc := view.Location{Example: strings.TrimSuffix(a.example, ".yaml"), Step: a.left.step, Variant: a.variant, Compare: a.compare}
		url = path + loc.Query()
	} else {
		url = path + "#" + view.EncodeFragment(a.shared())
	}
	js.Global().Get("history").Call("replaceState", nil, "", url)
}

// shareLink copies a link holding the whole state (the scenario text
// included, so it keeps working if the example changes).
func (a *App) shareLink() {
	loc := a.win.Location()
	url := loc.Origin() + loc.Pathname() + "#" + view.EncodeFragment(a.shared())
	in := a.byID("share-url").(*dom.HTMLInputElement)
	in.SetValue(url)
	in.RemoveAttribute("hidden")
	in.Select()
	clip := js.Global().Get("navigator").Get("clipboard")
	if clip.IsUndefined() {
		a.status("ready", "Link ready: copy it from the box.")
		return
	}
	go func() {
		if _, err := await(clip.Call("writeText", url)); err != nil {
			a.status("ready", "Link ready: copy it from the box (the clipboard refused: "+err.Error()+").")
			return
		}
		a.status("ready", fmt.Sprintf("Link copied (%d characters).", len(url)))
	}()
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
	data, err := json.MarshalIndent(a.left.tr, "", "  ")
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
