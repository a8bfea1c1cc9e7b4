//go:build js && wasm

package app

import "syscall/js"

// overview is the state of the Overview panel (#overview-panel): whether
// it is open, and the run it shows (the run's gen, App.shownRun; 0: none
// yet). The overview of a run (view.Model.Overview, a pass over the whole
// trace) is computed by the engine's worker once per run, never per step
// move: a long run's right after its result, which the worker sends
// unasked (sent: the newest, for whichever run it names), another's when
// the panel is open and the left-hand run is new. asked is the sequence
// number of the page's request for the shown run's overview while its
// answer has not come (App.ask; 0: none): an unasked one for that run
// that comes first answers it (App.engineMessage).
type overview struct {
	open  bool
	of    int
	sent  js.Value
	asked int
}

// toggleOverview opens or closes the Overview panel (#overview, the O
// key).
func (a *App) toggleOverview() {
	if !a.ready || !a.hasOverview() {
		return
	}
	a.ov.open = !a.ov.open
	btn, panel := a.byID("overview"), a.byID("overview-panel")
	if !a.ov.open {
		btn.SetAttribute("aria-pressed", "false")
		panel.SetAttribute("hidden", "")
		return
	}
	btn.SetAttribute("aria-pressed", "true")
	panel.RemoveAttribute("hidden")
	if a.ov.of == a.shownRun {
		// The same run's charts are still there: the step may have moved
		// while they were hidden.
		boot().Call("overviewStep", a.left.step)
		return
	}
	// The panel is drawn in a task after the click's, which only shows
	// it (kueueplayBoot.urgent: before the event log's parts still
	// waiting): with its drawing and the frame's style and layout after
	// it, the click was the page's longest task (93 ms in a CI run of the
	// scalability e2e test). showOverview does nothing if the panel was
	// closed, or drawn, meanwhile.
	if a.ov.of != 0 { // another run's: not shown meanwhile
		boot().Call("overviewClose")
		body := panel.QuerySelector(".panel-body")
		body.RemoveAttribute("data-ready")
		render(body, js.Null())
	}
	var f js.Func
	f = js.FuncOf(func(js.Value, []js.Value) any {
		f.Release()
		a.showOverview()
		return nil
	})
	boot().Call("urgent", f)
}

// showOverview asks the worker for the left-hand run's overview (its
// panel laid out, its series as JSON and their numbers as typed arrays:
// engine.Columns) and hands the series to the chart
// bundle (kueueplayBoot.overview, which loads it the first time), when
// the panel is open and shows another run.
func (a *App) showOverview() {
	if !a.ov.open || a.left.sum == nil || a.ov.of == a.shownRun {
		return
	}
	a.ov.of = a.shownRun
	boot().Call("loadCharts")
	start := now()
	body := a.byID("overview-panel").QuerySelector(".panel-body")
	body.RemoveAttribute("data-ready")
	boot().Call("overviewClose")
	draw := func(m js.Value) {
		if m.IsNull() {
			return // a newer run's overview has been asked for
		}
		if e := m.Get("error"); e.Truthy() {
			a.status("error", "The overview cannot be drawn: "+e.String())
			return
		}
		render(body, m.Get("panel"))
		boot().Call("overview", body.Underlying(), m.Get("series"), a.left.step, m.Get("columns"))
		measure("kueueplay:overview", start)
	}
	if m := a.ov.sent; m.Truthy() && m.Get("run").Int() == a.shownRun {
		a.ov.sent = js.Null() // its columns go to the charts
		draw(m)
		return
	}
	a.ov.asked = a.ask(map[string]any{"type": "overview"}, func(m js.Value) {
		a.ov.asked = 0
		draw(m)
	})
}

// overviewSent takes a long run's Overview that the worker sent unasked
// (seq 0). When the page's request for that run is waiting, it answers
// that request: the click came before the worker had sent it, and the
// worker answers the request only after computing and sending this one,
// so waiting for the request's own answer cost a second posting and the
// tasks between them. Otherwise it is kept for the opening.
func (a *App) overviewSent(m js.Value) {
	// The request was for the run a.ov.of names (showOverview).
	if run := m.Get("run").Int(); a.ov.asked != 0 && run == a.ov.of && run == a.shownRun {
		seq := a.ov.asked
		if f := a.asks[seq]; f != nil {
			delete(a.asks, seq) // its own answer, when it comes, is dropped
			f(m)
			return
		}
	}
	a.ov.sent = m
}

// hasOverview reports whether the page has an Overview: a read-only
// embed has none.
func (a *App) hasOverview() bool { return !a.embed || a.editable }

// gotoStepFromChart is kueueplayBoot.gotoStep: a click on a chart of the
// overview moves the view to step n, as a click on an element with
// data-goto-step does.
func (a *App) gotoStepFromChart(_ js.Value, args []js.Value) any {
	if len(args) == 0 || args[0].Type() != js.TypeNumber || a.left.sum == nil {
		return nil
	}
	a.stopPlaying()
	a.show(args[0].Int())
	return nil
}
