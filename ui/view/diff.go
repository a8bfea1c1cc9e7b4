package view

import (
	"slices"

	"github.com/kueueplay/kueueplay/core/trace"
)

// Difference is where two runs of a scenario (Compare mode: the same
// manifests with different gates, or two variants) first part ways.
type Difference struct {
	// Cycle is the cycle whose block differs (0: before the first cycle).
	Cycle int `json:"cycle"`
	// LeftStep and RightStep are the steps to show on each side: where the
	// difference appears, or the side's last step when its run has ended.
	LeftStep  int `json:"leftStep"`
	RightStep int `json:"rightStep"`
	// Workload is the workload that differs, empty when the runs differ in
	// length or timing.
	Workload string `json:"workload,omitempty"`
	// Left and Right are the differing values in words ("Admitted on
	// spot", "terminating", "ended").
	Left  string `json:"left"`
	Right string `json:"right"`
	// Text is the difference in one sentence: "cycle 3: b/p2 is Admitted
	// on the left, Skipped on the right".
	Text string `json:"text"`
}

// FirstDifference returns the first point at which two runs' outcomes
// differ, or nil when they never do.
//
// Step indexes do not align between runs (one run may have an event step
// or a cycle the other does not), so the runs are aligned by cycle number
// and compared at equal virtual times. Each run is cut into blocks: block 0
// is the initial step and the event steps before the first cycle; block k
// (k ≥ 1) is cycle k's step and the event steps after it, up to the next
// cycle. For k = 0, 1, 2, ... and while both runs have block k:
//
//  1. the decisions of cycle k are compared per workload (in the left
//     run's processing order, then the right-only ones): outcome, flavors
//     when admitted, and how it was requeued; the processing order itself
//     is not compared;
//  2. the state of every workload after cycle k's step is compared
//     (not created, pending, admitted with its flavors, terminating,
//     finished, deleted, as the events and decisions of each trace leave
//     it; a workload that starts admitted has no known flavors);
//  3. with T the earlier of the two runs' next cycle times (cycle k+1, or
//     the end of the run), the event steps of block k at or before T are
//     applied on both sides and the workload states compared again;
//  4. if cycle k+1 runs at different times, or in one run only, that is
//     the difference.
//
// The first mismatch found is reported.
func FirstDifference(a, b *trace.Trace) *Difference {
	ra, rb := newReplay(a), newReplay(b)
	if len(ra.blocks) == 0 || len(rb.blocks) == 0 {
		if len(ra.blocks) == len(rb.blocks) {
			return nil
		}
		return &Difference{LeftStep: len(a.Steps) - 1, RightStep: len(b.Steps) - 1, Left: itoa(len(a.Steps)) + " steps",
			Right: itoa(len(b.Steps)) + " steps", Text: "one trace has no steps"}
	}
	for k := 0; k < len(ra.blocks) && k < len(rb.blocks); k++ {
		ba, bb := ra.blocks[k], rb.blocks[k]
		where := "before the first cycle"
		if k > 0 {
			where = "cycle " + itoa(k) + " (at " + FormatTime(a.Steps[ba.cycle].TimeMs) + ")"
			if d := diffDecisions(&a.Steps[ba.cycle], &b.Steps[bb.cycle]); d != nil {
				d.Cycle, d.LeftStep, d.RightStep = k, ba.cycle, bb.cycle
				d.Text = where + ": " + d.Workload + " is " + d.Left + " on the left, " + d.Right + " on the right"
				return d
			}
			ra.apply(ba.cycle, ba.cycle)
			rb.apply(bb.cycle, bb.cycle)
			if d := diffStates(ra, rb, ba.cycle, bb.cycle); d != nil {
				d.Cycle = k
				d.Text = "after " + where + ": " + d.Workload + " is " + d.Left + " on the left, " + d.Right + " on the right"
				return d
			}
		}
		na, nb := ra.next(k), rb.next(k)
		until := min(na, nb)
		lastA, lastB := ra.lastAt(ba, until), rb.lastAt(bb, until)
		ra.apply(ba.events, lastA)
		rb.apply(bb.events, lastB)
		if d := diffStates(ra, rb, max(ba.first, lastA), max(bb.first, lastB)); d != nil {
			d.Cycle = k
			at := "at the end of both runs"
			if until != noCycle {
				at = "by " + FormatTime(until) + ", before cycle " + itoa(k+1)
			}
			d.Text = at + ": " + d.Workload + " is " + d.Left + " on the left, " + d.Right + " on the right"
			return d
		}
		if na != nb {
			d := &Difference{Cycle: k + 1, LeftStep: ra.nextStep(k), RightStep: rb.nextStep(k)}
			d.Left, d.Right = ra.nextWords(k), rb.nextWords(k)
			if na != noCycle && nb != noCycle {
				d.Text = "cycle " + itoa(k+1) + " runs " + d.Left + " on the left, " + d.Right + " on the right"
			} else {
				d.Text = "after " + where + ": the left run " + d.Left + ", the right run " + d.Right
			}
			return d
		}
	}
	return nil
}

// wstate is a workload's state as replayed from a trace.
type wstate struct {
	status trace.WorkloadStatus
	// admission is the admission of a workload admitted in a cycle of the
	// trace (admitted or terminating); nil for one that starts admitted.
	admission []trace.PodSetFlavors
}

func (s wstate) equal(o wstate) bool {
	return s.status == o.status && sameAdmission(s.admission, o.admission)
}

func (s wstate) words() string {
	if s.status == "" || s.status == trace.StatusNotCreated {
		return "not created yet"
	}
	if len(s.admission) > 0 && (s.status == trace.StatusAdmitted || s.status == trace.StatusTerminating) {
		return string(s.status) + " on " + admissionText(s.admission)
	}
	return string(s.status)
}

func sameAdmission(a, b []trace.PodSetFlavors) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].PodSet != b[i].PodSet || !slices.Equal(a[i].Flavors, b[i].Flavors) {
			return false
		}
	}
	return true
}

// replay walks a trace, keeping every workload's state.
type replay struct {
	tr     *trace.Trace
	blocks []block
	state  map[string]wstate
	// changed lists the workloads whose state changed since the last
	// apply began, with the step where each last changed.
	changed map[string]int
}

// block is a cycle step and the event steps after it (block 0: the
// initial step and the event steps before the first cycle).
type block struct {
	first  int // the block's first step
	cycle  int // the cycle step, -1 for block 0
	events int // the first step after the cycle step
	last   int // the block's last step
}

// noCycle is the "time" of the cycle after the last one.
const noCycle = int64(1<<63 - 1)

func newReplay(tr *trace.Trace) *replay {
	r := &replay{tr: tr, state: make(map[string]wstate, len(tr.Workloads))}
	for i := range tr.Steps {
		if i == 0 || tr.Steps[i].Kind == trace.StepCycle {
			b := block{first: i, cycle: -1, events: i, last: i}
			if tr.Steps[i].Kind == trace.StepCycle {
				b.cycle, b.events = i, i+1
			}
			r.blocks = append(r.blocks, b)
			continue
		}
		r.blocks[len(r.blocks)-1].last = i
	}
	return r
}

// next is the time of the cycle after block k, or noCycle.
func (r *replay) next(k int) int64 {
	if k+1 < len(r.blocks) {
		return r.tr.Steps[r.blocks[k+1].cycle].TimeMs
	}
	return noCycle
}

// nextStep is the step of the cycle after block k, or the last step.
func (r *replay) nextStep(k int) int {
	if k+1 < len(r.blocks) {
		return r.blocks[k+1].cycle
	}
	return len(r.tr.Steps) - 1
}

func (r *replay) nextWords(k int) string {
	if k+1 < len(r.blocks) {
		return "at " + FormatTime(r.next(k))
	}
	return "ended (" + r.tr.End + " at " + FormatTime(r.tr.EndMs) + ")"
}

// lastAt is the last event step of block b at or before time t.
func (r *replay) lastAt(b block, t int64) int {
	last := b.events - 1
	for i := b.events; i <= b.last && r.tr.Steps[i].TimeMs <= t; i++ {
		last = i
	}
	return last
}

func (r *replay) set(w string, s wstate, step int) {
	if !r.state[w].equal(s) {
		r.state[w] = s
		r.changed[w] = step
	}
}

// apply replays the events and decisions of steps first to last.
func (r *replay) apply(first, last int) {
	r.changed = map[string]int{}
	for i := first; i <= last; i++ {
		st := &r.tr.Steps[i]
		// A cycle's events follow its decisions (evictions by the
		// preemptions it decided, a job that fails to start once
		// admitted); an events step has no decisions.
		for _, d := range st.Decisions {
			if d.Outcome == trace.OutcomeAdmitted {
				r.set(d.Workload, wstate{status: trace.StatusAdmitted, admission: d.Admission}, i)
			}
		}
		for _, e := range st.Events {
			if e.Workload == "" {
				continue
			}
			cur := r.state[e.Workload]
			switch e.Kind {
			case trace.EventArrival:
				if st.Kind == trace.StepInitial {
					r.set(e.Workload, wstate{status: trace.StatusAdmitted}, i)
				} else {
					r.set(e.Workload, wstate{status: trace.StatusPending}, i)
				}
			case trace.EventFinish, trace.EventDelete:
				switch cur.status {
				case "", trace.StatusNotCreated, trace.StatusFinished, trace.StatusDeleted:
					// The engine ignores it.
				default:
					to := trace.StatusFinished
					if e.Kind == trace.EventDelete {
						to = trace.StatusDeleted
					}
					r.set(e.Workload, wstate{status: to}, i)
				}
			case trace.EventEvict:
				r.set(e.Workload, wstate{status: trace.StatusTerminating, admission: cur.admission}, i)
			case trace.EventRelease:
				r.set(e.Workload, wstate{status: trace.StatusPending}, i)
			}
		}
	}
}

// decisionWords says a decision's outcome, with its flavors when
// admitted and, with requeue, how it went back to its queue.
func decisionWords(d *trace.Decision, requeue bool) string {
	if d == nil {
		return "not a head"
	}
	s := string(d.Outcome)
	if d.Outcome == trace.OutcomeAdmitted && len(d.Admission) > 0 {
		s += " on " + admissionText(d.Admission)
	}
	if !requeue {
		return s
	}
	switch d.Requeue {
	case "":
	case "parked":
		s += " (parked)"
	case "immediate":
		s += " (requeued at once)"
	default:
		s += " (" + d.Requeue + ")"
	}
	return s
}

// diffDecisions compares two cycles' decisions.
func diffDecisions(a, b *trace.Step) *Difference {
	find := func(ds []trace.Decision, w string) *trace.Decision {
		for i := range ds {
			if ds[i].Workload == w {
				return &ds[i]
			}
		}
		return nil
	}
	check := func(w string) *Difference {
		da, db := find(a.Decisions, w), find(b.Decisions, w)
		if da != nil && db != nil && da.Outcome == db.Outcome && da.Requeue == db.Requeue && sameAdmission(da.Admission, db.Admission) {
			return nil
		}
		l, r := decisionWords(da, false), decisionWords(db, false)
		if l == r {
			// Say how it was requeued only when that is the difference.
			l, r = decisionWords(da, true), decisionWords(db, true)
		}
		if l == r {
			return nil
		}
		return &Difference{Workload: w, Left: l, Right: r}
	}
	for _, d := range a.Decisions {
		if x := check(d.Workload); x != nil {
			return x
		}
	}
	for _, d := range b.Decisions {
		if find(a.Decisions, d.Workload) == nil {
			return check(d.Workload)
		}
	}
	return nil
}

// diffStates compares the workloads that changed on either side in the
// last apply; the states of the others were equal before. A side where
// the workload did not change shows step at.
func diffStates(ra, rb *replay, atA, atB int) *Difference {
	var names []string
	for w := range ra.changed {
		names = append(names, w)
	}
	for w := range rb.changed {
		if _, ok := ra.changed[w]; !ok {
			names = append(names, w)
		}
	}
	slices.Sort(names)
	for _, w := range names {
		if ra.state[w].equal(rb.state[w]) {
			continue
		}
		l, r := ra.state[w].words(), rb.state[w].words()
		d := &Difference{LeftStep: atA, RightStep: atB, Workload: w, Left: l, Right: r}
		if s, ok := ra.changed[w]; ok {
			d.LeftStep = s
		}
		if s, ok := rb.changed[w]; ok {
			d.RightStep = s
		}
		return d
	}
	return nil
}
