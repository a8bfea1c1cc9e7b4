package sim

import (
	"maps"
	"slices"
	"time"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/trace"
)

// Options change how a scenario runs.
type Options struct {
	// Gates override the scenario's feature gates.
	Gates core.FeatureGates
	// Observe, if set, is called with the initial State and after every
	// Step, with the State after it and the step with its full usage and
	// queues (the trace keeps them compacted). It must not modify the
	// State; it may keep it (each step then works on a copy, as Step
	// does; without Observe, Run changes one State in place, which gives
	// the same trace).
	Observe func(s *State, step *trace.Step)
	// Stop, if set, is called after every step (the initial one included)
	// with that step; when it returns true the run ends there, with End
	// "stopped". Callers use it for a work budget (the HTTP API); the
	// trace up to that step is complete and valid. Stop must not keep the
	// step's Usage or Queues: without Observe, Run reuses their space,
	// and the Queues carry their counts but not their lists (nil; the
	// trace has them).
	Stop func(step *trace.Step) bool
	// Sink, if set, receives every step as the trace keeps it (compacted),
	// in order, with tr's header (everything before Steps) filled in; the
	// trace Run returns then has no Steps. The CLI writes a long run this
	// way instead of holding it whole (trace.Formatter, trace.JSONWriter).
	Sink func(tr *trace.Trace, st *trace.Step)
	// NoQueues leaves every ClusterQueue's queue out of the steps (no
	// Queues, no QueueChanges: what Stop, Sink and the trace get), and
	// the run does not compute them, for a caller that reads none (the
	// text format and the summary print usage only; a queue's lists are
	// a tenth of a long run's work). Ignored with Observe, which sees
	// every step in full.
	NoQueues bool
	// noMemo runs without the flavor search's memo (searchMemo).
	noMemo bool
}

// Run simulates a scenario to its end and returns its trace. The loop is
// part of the scenario contract:
//
//   - Time starts at 0. Events due at or before the current time are applied
//     (finishes, deletions first, then arrivals).
//   - If any active ClusterQueue has a head, one scheduling cycle runs at the
//     current time and the clock advances by spec.cycleDuration; otherwise
//     the clock jumps to the next event.
//   - The run ends when no event is left and either no ClusterQueue has a
//     head or the last cycle changed nothing (from then on nothing can
//     change); when spec.until is passed; or when spec.maxCycles cycles
//     have run (reported as a truncation, never silent).
func Run(sc *core.Scenario, opts Options) *trace.Trace {
	s := New(sc, opts.Gates)
	s.noMemo = opts.noMemo
	tr := &trace.Trace{Version: trace.Version, Scenario: sc.Name, Description: sc.Description, Warnings: slices.Clone(sc.Warnings)}
	for _, g := range core.SimulatedGates() {
		tr.Gates = append(tr.Gates, trace.Gate{Name: g, Enabled: s.Gates.Enabled(g)})
	}
	tr.Configuration = TraceConfiguration(sc.Configuration)
	if s.place != nil {
		tr.Policies = s.place.cluster.Policies()
	}
	// The trace keeps each step as the Compactor writes it (the usage and
	// queues in full only every so often); Observe and Stop see the full
	// step first.
	var compact trace.Compactor
	// Without Observe no one sees a State but this loop, so each step
	// changes the one State in place instead of a copy (State.advance),
	// and the space of the full usage and queues the trace does not keep
	// is reused (reportSpace).
	inPlace := opts.Observe == nil
	if inPlace {
		s.space = &reportSpace{noQueues: opts.NoQueues}
	}
	initial := s.initialStep()
	if opts.Observe != nil {
		opts.Observe(s, &initial)
	}
	keep := func(full trace.Step) {
		st := compact.CompactLists(full, s.reportedLists, s.static.keys)
		if opts.Sink != nil {
			opts.Sink(tr, &st)
			return
		}
		// Doubled when full: append grows a long slice by a quarter,
		// copying every step kept so far (some 400 bytes each, mostly
		// pointers the copy tells the garbage collector about) four to
		// five times over a long run.
		if len(tr.Steps) == cap(tr.Steps) {
			tr.Steps = slices.Grow(tr.Steps, max(16, len(tr.Steps)))
		}
		tr.Steps = append(tr.Steps, st)
	}
	stopped := opts.Stop != nil && opts.Stop(&initial)
	keep(initial)
	step := func(ev Event) bool {
		var ts trace.Step
		var changed bool
		if inPlace {
			s.forgetPrevious()
			ts, changed = s.advance(ev)
		} else {
			var next *State
			next, ts, changed = Step(s, ev)
			s = next
		}
		if opts.Observe != nil {
			opts.Observe(s, &ts)
		}
		if opts.Stop != nil && opts.Stop(&ts) {
			stopped = true
		}
		keep(ts)
		return changed
	}
	cycleDuration := sc.CycleDuration
	if cycleDuration <= 0 {
		cycleDuration = core.DefaultCycleDuration
	}
	maxCycles := sc.MaxCycles
	if maxCycles <= 0 {
		maxCycles = core.DefaultMaxCycles
	}
	now := time.Duration(0)
	end := ""
	for end == "" {
		if stopped {
			end = "stopped"
			break
		}
		if sc.Until != nil && now > *sc.Until {
			end = "until"
			break
		}
		if t, ok := s.nextEventTime(); ok && t <= now {
			step(Event{Kind: ApplyEvents, At: now})
			if stopped {
				end = "stopped"
				break
			}
		}
		if s.HasHead() {
			if s.Cycles >= maxCycles {
				end = "maxCycles"
				break
			}
			changed := step(Event{Kind: RunCycle, At: now})
			now += cycleDuration
			if _, more := s.nextEventTime(); !changed && !more {
				end = "quiescent"
			}
			continue
		}
		t, ok := s.nextEventTime()
		if !ok {
			end = "quiescent"
			break
		}
		now = max(now, t)
	}
	tr.End = end
	tr.EndMs = s.Now.Milliseconds()
	tr.Cycles = s.Cycles
	tr.Workloads = s.workloadStates()
	return tr
}

// initialStep describes the state before anything happens: workloads that
// start admitted and inactive ClusterQueues.
func (s *State) initialStep() trace.Step {
	ts := trace.Step{Index: 0, Kind: trace.StepInitial, Changed: true}
	ts.Events = slices.Clone(s.initialEvents)
	for _, q := range s.Queues {
		if !q.Active {
			ts.Events = append(ts.Events, trace.Event{Kind: trace.EventInactive, ClusterQueue: q.Spec.Name, Message: q.InactiveReason})
		}
	}
	ts.Placements = s.initialPlacements
	ts.Usage = s.usageRows()
	ts.Queues = s.queueStates()
	s.placementRows(&ts)
	return ts
}

// workloadStates reports every workload's current state, by name.
func (s *State) workloadStates() []trace.WorkloadState {
	idx := make([]int, s.NumWorkloads())
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, s.byKey)
	out := make([]trace.WorkloadState, 0, len(idx))
	for _, i := range idx {
		w := s.Workload(i)
		ws := trace.WorkloadState{Workload: w.Key, ClusterQueue: w.ClusterQueue, Priority: w.Spec.Priority, Status: trace.WorkloadStatus(w.Status.String()), Message: w.Message}
		if (w.Status == Admitted || w.Status == Terminating) && w.Admission != nil {
			ws.Admission = admissionFlavors(w.Admission)
			ms := w.AdmittedAt.Milliseconds()
			ws.AdmittedAtMs = &ms
		}
		out = append(out, ws)
	}
	return out
}

// TraceConfiguration summarises a scenario's Kueue Configuration as the
// trace header holds it; nil when it has none.
func TraceConfiguration(c *core.Configuration) *trace.Configuration {
	if c == nil {
		return nil
	}
	tc := &trace.Configuration{
		Source:                  c.Source,
		APIVersion:              c.APIVersion,
		File:                    c.Pos.File,
		Line:                    c.Pos.Line,
		Col:                     c.Pos.Col,
		ExcludeResourcePrefixes: slices.Clone(c.ExcludeResourcePrefixes),
	}
	for _, t := range c.Transformations {
		tt := trace.Transformation{Input: string(t.Input), Strategy: string(t.Strategy), MultiplyBy: string(t.MultiplyBy)}
		for _, o := range t.Outputs {
			tt.Outputs = append(tt.Outputs, trace.TransformationOutput{Resource: string(o.Name), Quantity: o.Quantity})
		}
		tc.Transformations = append(tc.Transformations, tt)
	}
	for _, name := range slices.Sorted(maps.Keys(c.FeatureGates)) {
		tc.Gates = append(tc.Gates, trace.Gate{Name: name, Enabled: c.FeatureGates[name]})
	}
	return tc
}
