//go:build js && wasm

package app

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/ui/engine"
	"github.com/kueueplay/kueueplay/ui/layout"
	"github.com/kueueplay/kueueplay/ui/view"
)

// wire attaches every event handler. Content rendered from the layout is
// handled by delegation on its containers (data-goto-step, data-goto-line,
// data-example), so re-rendering never re-wires. It blocks (nextTask):
// called from Start's goroutine.
func (a *App) wire() {
	on := func(id, typ string, f func(*event)) {
		a.byID(id).AddEventListener(typ, false, f)
	}
	on("run", "click", func(*event) { a.run(a.left.step) })
	on("cancel-run", "click", func(*event) { a.cancelRun() })
	on("first", "click", func(*event) { a.stopPlaying(); a.show(0) })
	on("prev", "click", func(*event) { a.stopPlaying(); a.show(a.left.step - 1) })
	on("next", "click", func(*event) { a.stopPlaying(); a.show(a.left.step + 1) })
	on("last", "click", func(*event) { a.stopPlaying(); a.show(math.MaxInt32) })
	on("play", "click", func(*event) { a.togglePlay() })
	on("scrubber", "input", func(*event) {
		n, _ := strconv.Atoi(a.byID("scrubber").Value())
		a.stopPlaying()
		a.show(n)
	})
	on("compare", "click", func(*event) { a.toggleCompare() })
	on("overview", "click", func(*event) { a.toggleOverview() })
	on("share", "click", func(*event) { a.shareLink() })
	on("share-full", "click", func(*event) { go a.copyFullLink() })
	// The link's href follows the state 150 ms after a move (updateURL),
	// and is made asynchronously (the browser compresses the fragment): a
	// click opens the state as it is now, once it is made.
	on("open-playground", "click", func(e *event) {
		if a.embed && a.ready {
			e.PreventDefault()
			a.updateURLThen(func(href string) { js.Global().Call("open", href, "_blank", "noopener") })
		}
	})
	on("download-json", "click", func(*event) { a.downloadJSON() })
	on("download-svg", "click", func(*event) { a.downloadSVG() })
	on("theme", "click", func(*event) { a.cycleTheme() })
	on("help", "click", func(*event) { a.openDialog("help-dialog") })
	on("open-gallery", "click", func(*event) { a.openDialog("gallery") })
	on("goto-difference", "click", func(*event) { a.gotoDifference() })
	on("reset-overrides", "click", func(*event) {
		a.variant = view.Variant{}
		a.run(a.left.step)
	})
	a.showTheme()

	// Delegated clicks: anything rendered with data-goto-step moves its own
	// side; problems move the editor's cursor; gallery buttons load.
	a.byID("app").AddEventListener("click", false, func(e *event) {
		t := e.Target()
		if t == nil {
			return
		}
		if el := t.Closest("[data-goto-step]"); el != nil {
			n, err := strconv.Atoi(el.GetAttribute("data-goto-step"))
			if err != nil {
				return
			}
			a.stopPlaying()
			if el.Closest("#view-right") != nil && a.right.sum != nil && a.left.sum != nil {
				// Move the left side to the first step aligned with it.
				a.show(alignBack(a, n))
				return
			}
			a.show(n)
			return
		}
		if el := t.Closest("[data-goto-line]"); el != nil {
			line, _ := strconv.Atoi(el.GetAttribute("data-goto-line"))
			col, _ := strconv.Atoi(el.GetAttribute("data-goto-col"))
			a.editor.Call("gotoLine", max(1, line), max(1, col))
			a.editor.Call("focus")
		}
	})
	for _, id := range []string{"gallery", "help-dialog"} {
		d := a.byID(id)
		d.AddEventListener("click", false, func(e *event) {
			t := e.Target()
			if t == nil {
				return
			}
			// A click on the backdrop lands on the dialog itself.
			if t.Equal(d) || t.Closest("[data-close]") != nil {
				d.Underlying().Call("close")
				return
			}
			if el := t.Closest("[data-example]"); el != nil {
				file := el.GetAttribute("data-example")
				d.Underlying().Call("close")
				go a.openExample(file)
			}
		})
	}

	// Gate and setting forms: changes bubble to the fieldsets.
	a.byID("controls").AddEventListener("change", false, func(e *event) {
		if a.readControls(a.byID("controls"), &a.variant) {
			a.run(a.left.step)
		}
	})
	a.byID("compare-controls").AddEventListener("change", false, func(e *event) {
		if a.compare != nil && a.readControls(a.byID("compare-controls"), a.compare) {
			a.run(a.left.step)
		}
	})

	js.Global().Get("document").Call("addEventListener", "keydown", js.FuncOf(func(_ js.Value, args []js.Value) any {
		a.key(&event{args[0]})
		return nil
	}), true)

	// The gate and setting forms, each in a task of its own: with the
	// listeners above, one task of the runtime's timers was 56-62 ms in
	// loading (the scalability e2e test in CI; 30 ms of CPU here, 22 of
	// them the two forms). Nothing reads them before the first run's
	// answer (decoded's syncControls).
	nextTask()
	a.buildControls(a.byID("controls"))
	nextTask()
	a.buildControls(a.byID("compare-controls"))
}

// alignBack finds the left step that shows the right side at step n.
func alignBack(a *App, n int) int {
	for i, r := range a.sum.Align {
		if r >= n {
			return i
		}
	}
	return a.left.sum.Steps - 1
}

// key handles the keyboard shortcuts (listed in #help-dialog).
func (a *App) key(e *event) {
	k := e.Key()
	if k == "Enter" && (e.CtrlKey() || e.MetaKey()) && !e.AltKey() && !e.ShiftKey() {
		// Capture phase: before CodeMirror, whose Mod-Enter inserts a line.
		e.PreventDefault()
		e.StopPropagation()
		if a.ready {
			a.run(a.left.step)
		}
		return
	}
	if a.doc.QuerySelector("dialog[open]") != nil {
		return // the dialog handles Escape itself
	}
	if k == "Escape" && a.job != nil {
		// Anywhere, the editor included (not prevented: CodeMirror may
		// close a panel with it too); also while the first run loads.
		a.cancelRun()
		return
	}
	if e.CtrlKey() || e.MetaKey() || e.AltKey() || !a.ready {
		return
	}
	if t := e.Target(); t != nil {
		switch strings.ToLower(t.TagName()) {
		case "input", "select", "textarea", "button":
			if k == " " || k == "Enter" || strings.ToLower(t.TagName()) != "button" {
				return
			}
		}
		if t.Closest("#editor") != nil {
			return
		}
	}
	if a.embed {
		switch k {
		case "g", "G", "c", "C", "?":
			return // no gallery, Compare button or help in an embed
		case "o", "O":
			if !a.editable {
				return // no Overview in a read-only embed
			}
		case "e", "E":
			if !a.editable {
				return
			}
		}
	}
	handled := true
	switch k {
	case "ArrowRight":
		a.stopPlaying()
		a.show(a.left.step + 1)
	case "ArrowLeft":
		a.stopPlaying()
		a.show(a.left.step - 1)
	case "Home":
		a.stopPlaying()
		a.show(0)
	case "End":
		a.stopPlaying()
		a.show(math.MaxInt32)
	case " ":
		a.togglePlay()
	case "]":
		a.stopPlaying()
		a.show(a.nextEventful(+1))
	case "[":
		a.stopPlaying()
		a.show(a.nextEventful(-1))
	case "g", "G":
		a.openDialog("gallery")
	case "c", "C":
		a.toggleCompare()
	case "o", "O":
		a.toggleOverview()
	case "e", "E":
		a.editor.Call("focus")
	case "?":
		a.openDialog("help-dialog")
	default:
		handled = false
	}
	if handled {
		e.PreventDefault()
	}
}

// nextEventful is the next (dir +1) or previous (-1) step that changed
// something the user can see.
func (a *App) nextEventful(dir int) int {
	if a.left.sum == nil {
		return 0
	}
	return engine.NextEventful(a.left.sum.Eventful, a.left.sum.Steps, a.left.step, dir)
}

func (a *App) openDialog(id string) {
	d := a.byID(id).Underlying()
	if !d.Get("open").Bool() {
		d.Call("showModal")
	}
	if id == "gallery" {
		// Focus the loaded example so arrow keys and Enter start there.
		if b := a.byID("gallery").QuerySelector(`[data-example="` + a.example + `"]`); b != nil && a.example != "" {
			b.Underlying().Call("focus")
		}
	}
}

// togglePlay starts or stops stepping at the chosen speed; playing from
// the last step starts over.
func (a *App) togglePlay() {
	if a.playing {
		a.stopPlaying()
		return
	}
	if a.left.sum == nil {
		return
	}
	if a.left.step >= a.left.sum.Steps-1 {
		a.show(0)
	}
	a.playing = true
	p := a.byID("play")
	p.SetAttribute("aria-pressed", "true")
	p.SetAttribute("aria-label", "Pause")
	p.SetTextContent("❚❚ Pause")
	a.tick()
}

func (a *App) tick() {
	speed, err := strconv.ParseFloat(a.byID("speed").Value(), 64)
	if err != nil || speed <= 0 {
		speed = 1
	}
	a.playTimer.after(int(1000/speed), func() {
		if !a.playing {
			return
		}
		if a.left.step >= a.left.sum.Steps-1 {
			a.stopPlaying()
			return
		}
		a.show(a.left.step + 1)
		a.tick()
	})
}

func (a *App) stopPlaying() {
	a.playTimer.stop()
	if !a.playing {
		return
	}
	a.playing = false
	p := a.byID("play")
	p.SetAttribute("aria-pressed", "false")
	p.SetAttribute("aria-label", "Play")
	p.SetTextContent("▶ Play")
}

// defaultCompare is the right-hand variant Compare mode starts with: the
// left one with RefreshAssignmentsDuringSchedulingCycle flipped, the
// playground's most asked-for comparison (KEP-4378 off and on).
func (a *App) defaultCompare() *view.Variant {
	v := a.variant.Clone()
	if v.Gates == nil {
		v.Gates = map[string]bool{}
	}
	g := core.GateRefreshAssignmentsDuringSchedulingCycle
	v.Gates[g] = !a.gateValue(a.variant, g)
	return &v
}

func (a *App) toggleCompare() {
	if !a.ready {
		return
	}
	if a.compare == nil {
		a.compare = a.defaultCompare()
	} else {
		a.compare = nil
		a.right.sum = nil
	}
	a.run(a.left.step)
}

// gateValue is gate name's value under v for the current scenario.
func (a *App) gateValue(v view.Variant, name string) bool {
	if on, ok := v.Gates[name]; ok {
		return on
	}
	if a.dec != nil {
		return a.dec.Gates.Enabled(name)
	}
	on, _ := core.GateDefault(name)
	return on
}

// syncControls (re)builds the gate and setting forms of both variants from
// the current state, and shows Compare mode's parts.
func (a *App) syncControls() {
	key := fmt.Sprint(a.variant, a.compare != nil, a.dec.Gates)
	if a.compare != nil {
		key += fmt.Sprint(*a.compare)
	}
	if key == a.shownControls {
		return
	}
	a.shownControls = key
	a.setControls(a.byID("controls"), a.variant)
	overrides := a.byID("overrides")
	if a.variant.IsZero() {
		overrides.SetTextContent("")
		a.byID("reset-overrides").SetAttribute("hidden", "")
	} else {
		overrides.SetTextContent("(" + a.variant.Label() + ")")
		a.byID("reset-overrides").RemoveAttribute("hidden")
	}
	root := a.byID("app")
	cmp := a.byID("compare")
	if a.compare != nil {
		a.setControls(a.byID("compare-controls"), *a.compare)
		a.byID("compare-label").SetTextContent("(" + a.compare.Label() + ")")
		a.byID("compare-controls").RemoveAttribute("hidden")
		a.right.root.RemoveAttribute("hidden")
		root.SetAttribute("data-compare", "true")
		cmp.SetAttribute("aria-pressed", "true")
	} else {
		a.byID("compare-controls").SetAttribute("hidden", "")
		a.right.root.SetAttribute("hidden", "")
		root.RemoveAttribute("data-compare")
		cmp.SetAttribute("aria-pressed", "false")
	}
}

// buildControls creates a box's gate checkboxes and setting selects, once.
func (a *App) buildControls(box *element) {
	gates, settings := layout.Controls(core.SimulatedGates(), view.SettingSpecs())
	fill(box.QuerySelector(`[data-role="gate-list"]`), gates)
	fill(box.QuerySelector(`[data-role="setting-list"]`), settings)
}

// setControls shows v in a box's form: each gate's value (overrides in
// bold, with the scenario's own value in the tooltip) and each setting.
// It runs before the first result, so it uses the elements as js.Values
// (queryAll) rather than wrapping each one.
func (a *App) setControls(box *element, v view.Variant) {
	for _, el := range queryAll(box.Underlying(), "input[data-gate]") {
		name := el.Call("getAttribute", "data-gate").String()
		el.Set("checked", a.gateValue(v, name))
		label := el.Get("parentElement")
		_, overridden := v.Gates[name]
		label.Get("classList").Call("toggle", "overridden", overridden)
		if overridden {
			label.Call("setAttribute", "title", name+": set here (the scenario's value is "+strconv.FormatBool(a.gateValue(view.Variant{}, name))+")")
		} else {
			label.Call("setAttribute", "title", name+": the scenario's value")
		}
	}
	for _, el := range queryAll(box.Underlying(), "select[data-setting]") {
		val := v.Settings.Get(el.Call("getAttribute", "data-setting").String())
		el.Set("value", val)
		el.Get("parentElement").Get("classList").Call("toggle", "overridden", val != "")
	}
}

// readControls reads a box's form into v; it reports whether anything
// changed. A gate set back to the scenario's own value stops being an
// override.
func (a *App) readControls(box *element, v *view.Variant) bool {
	before := v.Label()
	gates := map[string]bool{}
	for _, el := range box.QuerySelectorAll("input[data-gate]") {
		name := el.GetAttribute("data-gate")
		on := el.Checked()
		if on != a.gateValue(view.Variant{}, name) {
			gates[name] = on
		}
	}
	if len(gates) == 0 {
		gates = nil
	}
	var s view.Settings
	for _, el := range box.QuerySelectorAll("select[data-setting]") {
		_ = s.Set(el.GetAttribute("data-setting"), el.Value())
	}
	v.Gates, v.Settings = gates, s
	return v.Label() != before
}

// gotoDifference shows the first difference on both sides.
func (a *App) gotoDifference() {
	if a.diff == nil {
		return
	}
	a.stopPlaying()
	a.showPair(a.diff.LeftStep, a.diff.RightStep)
}

// showProblems puts diagnostics in the editor's gutter and the list.
func (a *App) showProblems(diags []core.Diagnostic, err error) {
	list := make([]any, 0, len(diags))
	for _, d := range diags {
		msg := d.Message
		if d.Field != "" {
			msg = d.Field + ": " + msg
		}
		if d.Object != "" {
			msg = d.Object + ": " + msg
		}
		list = append(list, map[string]any{
			"line": max(1, d.Pos.Line), "col": max(1, d.Pos.Col),
			"severity": string(d.Severity), "message": msg,
		})
	}
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	// Re-rendering the same markers costs the editor a full update.
	key := fmt.Sprint(diags, msg)
	if key == a.shownProblems {
		return
	}
	a.shownProblems = key
	a.editor.Call("setDiagnostics", list)
	fill(a.byID("problems"), layout.Problems(diags, msg))
	count := layout.ProblemCount(diags, msg)
	pc := a.byID("problem-count")
	pc.SetTextContent(count)
	state := "ok"
	for _, d := range diags {
		if d.Severity == core.SeverityError {
			state = "error"
			break
		}
		state = "warning"
	}
	if err != nil {
		state = "error"
	}
	pc.SetAttribute("class", "count "+state)
}

// Themes: auto (follow the system), light, dark; saved in localStorage.
func (a *App) cycleTheme() {
	dataset := js.Global().Get("document").Get("documentElement").Get("dataset")
	storage := js.Global().Get("localStorage")
	switch currentTheme() {
	case "auto":
		dataset.Set("theme", "light")
		storage.Call("setItem", "kueueplay-theme", "light")
	case "light":
		dataset.Set("theme", "dark")
		storage.Call("setItem", "kueueplay-theme", "dark")
	default:
		dataset.Delete("theme")
		storage.Call("removeItem", "kueueplay-theme")
	}
	a.editor.Call("setTheme", boot().Call("dark"))
	a.showTheme()
}

// currentTheme is "auto", "light" or "dark".
func currentTheme() string {
	t := js.Global().Get("document").Get("documentElement").Get("dataset").Get("theme")
	if t.Type() == js.TypeString && (t.String() == "light" || t.String() == "dark") {
		return t.String()
	}
	return "auto"
}

func (a *App) showTheme() {
	name := currentTheme()
	b := a.byID("theme")
	b.SetTextContent("Theme: " + name)
	b.SetAttribute("title", map[string]string{"auto": "Theme: follows the system; click for light", "light": "Theme: light; click for dark", "dark": "Theme: dark; click to follow the system"}[name])
}
