package layout

import (
	"strings"

	"github.com/kueueplay/kueueplay/core/trace"
	"github.com/kueueplay/kueueplay/ui/view"
)

// EventLog lays out the trace's event log (view.EventLog), once per trace:
//
//	ol.log
//	  li[data-step][data-kind]
//	    button.log-entry[type=button][data-goto-step][data-kind][data-outcome]
//	                   [data-workload][data-cq]
//	      span.time (class repeat when the time is the previous entry's),
//	      span.badge (the outcome of a decision, else the event kind),
//	      span.text
//
// data-outcome is set on decisions only, data-workload and data-cq when
// the entry has them. The glue marks the entries of the
// current step itself, by toggling a current class and aria-current on
// the li elements whose data-step is the step shown.
//
// At most MaxLogEntries entries are laid out; a longer log ends in an
// li.more that says how many follow.
func EventLog(entries []view.LogEntry) *view.Node {
	ol := el("ol", "class", "log", "aria-label", "Event log")
	if len(entries) == 0 {
		return ol.Add(txt("li", "No events.", "class", "empty"))
	}
	var more *view.Node
	if len(entries) > MaxLogEntries {
		last := entries[MaxLogEntries-1]
		more = txt("li", "… and "+itoa(len(entries)-MaxLogEntries)+" more entries after step "+itoa(last.Step)+
			" ("+last.Time+"): the scrubber and the Overview reach them.", "class", "more")
		entries = entries[:MaxLogEntries]
	}
	prevTime := ""
	for i, e := range entries {
		step := itoa(e.Step)
		li := el("li", "data-step", step, "data-kind", e.Kind)
		b := button("log-entry", "data-goto-step", step, "data-kind", e.Kind)
		attr(b, "data-workload", e.Workload)
		attr(b, "data-cq", e.ClusterQueue)
		var badge *view.Node
		if e.Kind == view.LogKindDecision {
			b.Attrs = append(b.Attrs, view.Attr{Name: "data-outcome", Value: string(e.Outcome)})
			badge = outcomeBadge(e.Outcome)
		} else {
			badge = span("badge kind kind-"+e.Kind, e.Kind)
		}
		where := "step " + step + ", "
		if e.Kind == view.LogKindDecision {
			where += "cycle " + itoa(e.Cycle) + " at " + e.Time
		} else {
			where += "at " + e.Time
		}
		b.Attrs = append(b.Attrs, view.Attr{Name: "title", Value: where})
		timeClass := "time"
		if i > 0 && e.Time == prevTime {
			timeClass = "time repeat"
		}
		prevTime = e.Time
		b.Add(span(timeClass, e.Time), badge, span("text", e.Text))
		ol.Add(li.Add(b))
	}
	if more != nil {
		ol.Add(more)
	}
	return ol
}

// MaxLogEntries bounds the event log EventLog lays out, and MaxMarks the
// steps whose marks the page draws (Marks; beyond it each would be
// thinner than a pixel, and the page draws none): laying out the 30,000 entries of a 10,000-step run
// took 2.6 s of the page's thread (and the marks most of another second),
// where 2,000 take about 0.2 s. The scrubber, the [ ] keys and the
// Overview still reach every step of a longer run.
const (
	MaxLogEntries = 2000
	MaxMarks      = 2000
)

// The marks' viewBox is 1000×10, stretched to the scrubber's width.
const (
	marksWidth    = 1000
	marksHeight   = 10
	markMinWidth  = 4  // about 2px on a 500px scrubber
	markMaxWidth  = 24 // a short trace gets narrow ticks, not blocks
	noChangeShort = 4  // height of a mark where nothing visible happened
)

// Marks lays out one mark per step for the scrubber (view.Timeline), once
// per trace: an svg.marks with viewBox="0 0 1000 10" and
// preserveAspectRatio="none" holding one rect.mark per step. Mark i is
// centred at i/(n-1) of the width, where an input range over the steps
// 0..n-1 puts its thumb, at least markMinWidth units wide. Its classes
// say what happened (mark-admission, mark-preemption, mark-release,
// mark-finish, mark-arrival, mark-nochange; none of them for a step with
// nothing of the sort), data-kind is the step's kind, data-goto-step its
// index, and a <title> says it in words ("step 5, cycle 3 at 2s:
// admission, preemption"). A step where nothing visible happened gets a
// shorter mark. The svg is aria-hidden: the scrubber is the accessible
// control.
func Marks(marks []view.Mark) *view.Node {
	svg := el("svg", "class", "marks", "viewBox", "0 0 1000 10", "preserveAspectRatio", "none", "aria-hidden", "true")
	n := len(marks)
	if n == 0 {
		return svg
	}
	spacing := float64(marksWidth)
	if n > 1 {
		spacing = float64(marksWidth) / float64(n-1)
	}
	w := min(max(spacing*0.6, markMinWidth), markMaxWidth)
	for i, m := range marks {
		c := float64(marksWidth) / 2
		if n > 1 {
			c = float64(i) * spacing
		}
		var what []string
		classes := []string{"mark"}
		for _, f := range []struct {
			on         bool
			class, txt string
		}{
			{m.Admission, "mark-admission", "admission"},
			{m.Preemption, "mark-preemption", "preemption"},
			{m.Release, "mark-release", "release"},
			{m.Finish, "mark-finish", "finish"},
			{m.Arrival, "mark-arrival", "arrival"},
			{m.NoChange, "mark-nochange", "no change"},
		} {
			if f.on {
				classes = append(classes, f.class)
				what = append(what, f.txt)
			}
		}
		y, h := 0, marksHeight
		if m.NoChange {
			y, h = marksHeight-noChangeShort, noChangeShort
		}
		r := el("rect", "class", cls(classes...), "data-kind", string(m.Kind), "data-goto-step", itoa(m.Step),
			"x", num(c-w/2), "y", itoa(y), "width", num(w), "height", itoa(h))
		r.Add(txt("title", markTitle(m, what)))
		svg.Add(r)
	}
	return svg
}

// markTitle is a mark's tooltip: "step 5, cycle 3 at 2s: admission,
// preemption".
func markTitle(m view.Mark, what []string) string {
	at := view.FormatTime(m.TimeMs)
	s := "step " + itoa(m.Step) + ", "
	switch m.Kind {
	case trace.StepInitial:
		s += "initial state"
	case trace.StepCycle:
		s += "cycle " + itoa(m.Cycle) + " at " + at
	default:
		s += "events at " + at
	}
	if len(what) == 0 {
		switch m.Kind {
		case trace.StepCycle:
			what = []string{"no admission or preemption"}
		case trace.StepEvents:
			what = []string{"other events"}
		}
	}
	if len(what) == 0 {
		return s
	}
	return s + ": " + strings.Join(what, ", ")
}
