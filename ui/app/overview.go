//go:build js && wasm

package app

import (
	"encoding/json"
	"syscall/js"

	"github.com/kueueplay/kueueplay/core/trace"
	"github.com/kueueplay/kueueplay/ui/layout"
)

// overview is the state of the Overview panel (#overview-panel): whether
// it is open, and the run it shows (nil: none yet, or an older run's).
// The overview of a run (view.Model.Overview, a pass over the whole
// trace) is computed when the panel is open and the left-hand run is
// new: once per run, never per step move.
type overview struct {
	open bool
	of   *trace.Trace
}

// toggleOverview opens or closes the Overview panel (#overview, the O
// key).
func (a *App) toggleOverview() {
	if !a.ready || (a.embed && !a.editable) {
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
	if a.ov.of == a.left.tr {
		// The same run's charts are still there: the step may have moved
		// while they were hidden.
		boot().Call("overviewStep", a.left.step)
		return
	}
	a.showOverview()
}

// showOverview lays out the left-hand run's overview and hands its series
// to the chart bundle (kueueplayBoot.overview, which loads it the first
// time), when the panel is open and shows another run.
func (a *App) showOverview() {
	tr := a.left.tr
	if !a.ov.open || tr == nil || a.ov.of == tr {
		return
	}
	a.ov.of = tr
	boot().Call("loadCharts")
	start := now()
	defer measure("kueueplay:overview", start)
	o := a.left.model.Overview()
	body := a.byID("overview-panel").QuerySelector(".panel-body")
	body.RemoveAttribute("data-ready")
	boot().Call("overviewClose")
	fill(body, layout.Overview(o))
	data, err := json.Marshal(o)
	if err != nil {
		a.status("error", "The overview cannot be drawn: "+err.Error())
		return
	}
	boot().Call("overview", body.Underlying(), string(data), a.left.step)
}

// gotoStepFromChart is kueueplayBoot.gotoStep: a click on a chart of the
// overview moves the view to step n, as a click on an element with
// data-goto-step does.
func (a *App) gotoStepFromChart(_ js.Value, args []js.Value) any {
	if len(args) == 0 || args[0].Type() != js.TypeNumber || a.left.model == nil {
		return nil
	}
	a.stopPlaying()
	a.show(args[0].Int())
	return nil
}
