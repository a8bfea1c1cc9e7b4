// Package conformance runs the playground's engine and Kueue v0.16.1's real
// scheduler side by side on the same scenario and compares them after every
// step.
//
// Kueue's side is its production code: the scheduler cache, the queue
// manager and the scheduler, over controller-runtime's fake client (as
// Kueue's own scheduler tests set them up), with one scheduling cycle run
// at a time through the unexported (*Scheduler).schedule (see
// linkname.go), and the workload controller's event handlers and Reconcile
// fed from the client between cycles. The harness plays what a cluster
// would add: the scenario's arrivals, finishes and deletions, and the end
// of an evicted workload's termination (the job controller clearing its
// admission), at the times the engine applies them. As long as the two
// sides agree, those times are the same on both; the first difference
// stops the comparison.
//
// Playground-only behaviour is switched off on the engine's side before
// comparing: the feature gates Kueue v0.16.1 does not have
// (RefreshAssignmentsDuringSchedulingCycle,
// FlavorFungibilityPreferenceAsNamed,
// FlavorFungibilityImplicitPreferenceDefault) are forced off, and the
// placement layer (Nodes, ResourcePolicies) is not part of what is
// compared, since Kueue's quota scheduler never looks at nodes.
//
// Kueue is built from a copy of v0.16.1 whose flavor assigner visits a pod
// set's requested resources in name order rather than Go's map order
// (cmd/patchkueue; patched.go makes the harness fail to compile without
// it). With that, Kueue is deterministic and each scenario is compared
// with one run of it, messages word for word.
package conformance

import (
	"fmt"
	"io"
	"strings"
	"time"

	"k8s.io/component-base/featuregate"
	"sigs.k8s.io/kueue/pkg/features"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/check"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
)

// PlaygroundOnlyGates are the engine's gates that Kueue v0.16.1 does not
// have. The harness runs the engine with each of them off.
var PlaygroundOnlyGates = []string{
	core.GateFlavorFungibilityImplicitPreferenceDefault,
	core.GateFlavorFungibilityPreferenceAsNamed,
	core.GateRefreshAssignmentsDuringSchedulingCycle,
}

// Difference is the first disagreement between the engine and Kueue.
type Difference struct {
	Step     int
	Cycle    int
	Time     time.Duration
	Workload string
	Ours     string
	Kueue    string
}

func (d Difference) String() string {
	return fmt.Sprintf("step %d (cycle %d, t=%v): %s\n    ours:  %s\n    Kueue: %s", d.Step, d.Cycle, d.Time, d.Workload, d.Ours, d.Kueue)
}

// Result is the outcome of one comparison.
type Result struct {
	// Steps and Cycles are the engine's; KueueCycles are the cycles Kueue
	// ran (it skips a cycle when no ClusterQueue has a head).
	Steps, Cycles, KueueCycles int
	// Kueue is where Kueue's scheduler spent its time in those cycles.
	Kueue KueueTiming
	// Off lists the playground-only gates the scenario enabled and the
	// harness switched off.
	Off []string
	// Differences are the disagreements found at the first step that had
	// any, by workload; empty when the two sides agreed throughout.
	Differences []Difference
	// Broken lists the engine's safety invariants (sim.CheckInvariants,
	// the checker every scenario test and fuzzer uses) that did not hold
	// at the first step where any failed, each prefixed with that step.
	Broken []string
	// Bounded is set when the run stopped at runOptions.maxCycles, before
	// the scenario's end: the two sides were compared up to that cycle
	// only, and the engine's rerun check (check.Rerun) was not made.
	Bounded bool
}

// Agreed reports whether the two sides agreed at every step and the
// engine's invariants held throughout.
func (r *Result) Agreed() bool { return len(r.Differences) == 0 && len(r.Broken) == 0 }

// Report describes the differences for a person, naming the file.
func (r *Result) Report(file string) string {
	if r.Agreed() {
		return ""
	}
	var b strings.Builder
	if len(r.Differences) > 0 {
		fmt.Fprintf(&b, "%s: the engine and Kueue v0.16.1 disagree", file)
	} else {
		fmt.Fprintf(&b, "%s: the engine broke its own invariants", file)
	}
	if len(r.Off) > 0 {
		fmt.Fprintf(&b, " (with %s off)", strings.Join(r.Off, ", "))
	}
	b.WriteString(":\n")
	for _, d := range r.Differences {
		b.WriteString("  " + d.String() + "\n")
	}
	for _, v := range r.Broken {
		b.WriteString("  engine invariant broken: " + v + "\n")
	}
	return b.String()
}

// Gates returns the engine's effective gates for a scenario under the
// harness: the scenario's own, with every playground-only gate off; and
// which of those the scenario had on.
func Gates(sc *core.Scenario) (core.FeatureGates, []string) {
	g := core.FeatureGates{}.With(sc.Gates)
	var off []string
	for _, name := range PlaygroundOnlyGates {
		if g.Enabled(name) {
			off = append(off, name)
		}
		g[name] = false
	}
	return g, off
}

// kueueGates are the engine's gates that are Kueue feature gates too, each
// with Kueue's name for it.
var kueueGates = []struct {
	name  string
	kueue featuregate.Feature
}{
	{core.GateFlavorFungibility, features.FlavorFungibility},
	{core.GateLendingLimit, features.LendingLimit},
	{core.GatePrioritySortingWithinCohort, features.PrioritySortingWithinCohort},
	// The engine reads it for one thing: a flavor naming a missing
	// Topology keeps its ClusterQueues inactive.
	{core.GateTopologyAwareScheduling, features.TopologyAwareScheduling},
}

// checkTopologies refuses a scenario in which topology-aware scheduling is
// active: a flavor naming a Topology that exists, with the gate on. Kueue
// then places the pod sets of that flavor by topology, on Nodes, which the
// engine does not simulate, so there is nothing to compare. (A flavor
// naming a missing Topology is compared: its ClusterQueues are inactive on
// both sides.)
func checkTopologies(sc *core.Scenario, gates core.FeatureGates) error {
	if !gates.Enabled(core.GateTopologyAwareScheduling) {
		return nil
	}
	for _, f := range sc.Flavors {
		for _, t := range sc.Topologies {
			if f.TopologyName == t.Name {
				return fmt.Errorf("flavor %s names Topology %s, which exists: Kueue would schedule it topology-aware, which the engine does not simulate, so the harness does not compare this scenario", f.Name, t.Name)
			}
		}
	}
	return nil
}

// Run compares the engine and Kueue on a decoded scenario. It is not safe
// to call concurrently: Kueue's feature gates and its admission routine
// wrapper are process-wide.
func Run(sc *core.Scenario) (*Result, error) { return RunWithLog(sc, nil) }

// RunWithLog is Run, also writing to log, if not nil, every step: what
// the engine did and both sides' view of every workload.
func RunWithLog(sc *core.Scenario, log io.Writer) (*Result, error) {
	if len(sc.Workloads) > maxWorkloads {
		return nil, fmt.Errorf("the harness compares scenarios of at most %d workloads; this one has %d", maxWorkloads, len(sc.Workloads))
	}
	return run(sc, runOptions{log: log})
}

// runOptions are the harness's settings beyond the scenario.
type runOptions struct {
	log io.Writer
	// noGCInCycle keeps the garbage collector from running during the
	// timed schedule calls, so that collecting the harness's own garbage
	// (the fake client's JSON copies above all) is not charged to Kueue.
	noGCInCycle bool
	// maxCycles, if positive, stops the comparison after the engine's
	// cycle maxCycles (Result.Bounded says it was hit).
	maxCycles int
	// progress, if set, receives a line about every progressEvery while
	// the run lasts: steps and cycles done, elapsed wall time.
	progress io.Writer
	// label starts each progress line.
	label string
	// perturb, if set, is called after the harness has played each step
	// on Kueue's side, before the comparison: the tests change Kueue's
	// side with it to check that the comparison sees the change.
	perturb func(s *sim.State, ts *trace.Step, w *world, c *comparer) error
}

// progressEvery is how often a long run reports that it is alive.
const progressEvery = 10 * time.Second

// runLarge is Run without the maxWorkloads bound, for scenarios that meet
// checkLarge: BenchmarkKueueScalability compares Kueue's scalability shape
// at 1,500 workloads and more with it.
func runLarge(sc *core.Scenario, opts runOptions) (*Result, error) {
	if err := checkLarge(sc); err != nil {
		return nil, err
	}
	return run(sc, opts)
}

// checkLarge accepts a scenario of any size whose comparison does not
// depend on what maxWorkloads bounds. Virtual time maps to one real second
// per millisecond (realTime), and creationTime places a workload n - seq
// seconds before its arrival instant: with n workloads those offsets reach
// n virtual milliseconds back, but they keep creation timestamps in the
// engine's creation order (seq follows arrival time, then document
// order) for any n, and Kueue compares a creation timestamp with no other
// time as long as
//   - no workload starts admitted: pasted reservations are spread over
//     the seconds before time 0 one per workload (reservationTime);
//   - PrioritySortingWithinCohort is on: with it off, Kueue orders a
//     workload preempted while its ClusterQueue borrowed by its
//     preemption time plus 1ms (GetQueueOrderTimestamp), against the
//     creation timestamps of the others.
func checkLarge(sc *core.Scenario) error {
	for i := range sc.Workloads {
		if sc.Workloads[i].Admission != nil {
			return fmt.Errorf("workload %s starts admitted: above %d workloads the harness compares only scenarios where none does", sc.Workloads[i].Key(), maxWorkloads)
		}
	}
	if gates, _ := Gates(sc); !gates.Enabled(core.GatePrioritySortingWithinCohort) {
		return fmt.Errorf("%s is off: above %d workloads the harness compares only scenarios with it on", core.GatePrioritySortingWithinCohort, maxWorkloads)
	}
	return nil
}

func run(sc *core.Scenario, opts runOptions) (*Result, error) {
	log := opts.log
	gates, off := Gates(sc)
	for _, g := range kueueGates {
		if err := features.SetEnable(g.kueue, gates.Enabled(g.name)); err != nil {
			return nil, fmt.Errorf("setting Kueue's %s gate: %w", g.kueue, err)
		}
	}
	// Kueue writes workload status with server-side apply, which the fake
	// client can only approximate with a strategic merge patch: fields the
	// apply leaves out are not removed, so a released workload would keep
	// its old status.admission. Kueue's merge-patch mode (a gate of its
	// own, also exercised by its scheduler tests) writes the same status
	// with explicit removals.
	if err := features.SetEnable(features.WorkloadRequestUseMergePatch, true); err != nil {
		return nil, err
	}
	if err := checkTimes(sc); err != nil {
		return nil, err
	}
	if err := checkTopologies(sc, gates); err != nil {
		return nil, err
	}
	first := sim.New(sc, gates)
	seqs := make([]int, first.NumWorkloads())
	for i, w := range first.All() {
		seqs[i] = w.Seq
	}
	w, err := newWorld(sc, seqs)
	if err != nil {
		return nil, err
	}
	w.noGCInCycle = opts.noGCInCycle
	res := &Result{Off: off}
	var runErr error
	started := time.Now()
	lastProgress := started
	comp := newComparer(first)
	var last *sim.State
	created := map[string]bool{}
	for i := range sc.Workloads {
		if sc.Workloads[i].Admission != nil {
			created[sc.Workloads[i].Key()] = true
		}
	}
	observe := func(s *sim.State, ts *trace.Step) {
		if runErr != nil || !res.Agreed() {
			return
		}
		for _, v := range sim.CheckInvariants(s) {
			res.Broken = append(res.Broken, fmt.Sprintf("step %d (cycle %d): %s", ts.Index, ts.Cycle, v))
		}
		w.setTime(s.Now)
		switch ts.Kind {
		case trace.StepEvents:
			for _, ev := range ts.Events {
				if err := w.apply(sc, seqs, ev, created); err != nil {
					runErr = fmt.Errorf("step %d, %s of %s: %w", ts.Index, ev.Kind, ev.Workload, err)
					return
				}
			}
		case trace.StepCycle:
			if _, err := w.cycle(); err != nil {
				runErr = fmt.Errorf("step %d (cycle %d): %w", ts.Index, ts.Cycle, err)
				return
			}
		}
		if ts.Kind != trace.StepEvents {
			// The job controller in the same step: a workload admitted in
			// the cycle (or starting admitted) whose job cannot start
			// finishes (the engine's FailedToStart).
			for _, ev := range ts.Events {
				if ev.Kind != trace.EventFinish {
					continue
				}
				if err := w.apply(sc, seqs, ev, created); err != nil {
					runErr = fmt.Errorf("step %d, %s of %s: %w", ts.Index, ev.Kind, ev.Workload, err)
					return
				}
			}
		}
		if ts.Kind == trace.StepInitial {
			// The workload controller's start-up pass (world.startup),
			// which drains the queues with stopPolicy HoldAndDrain.
			if err := w.startup(); err != nil {
				runErr = fmt.Errorf("step %d (start-up reconcile): %w", ts.Index, err)
				return
			}
		}
		if opts.perturb != nil {
			if err := opts.perturb(s, ts, w, comp); err != nil {
				runErr = err
				return
			}
		}
		res.Steps, res.Cycles, res.KueueCycles = ts.Index, ts.Cycle, w.cycles
		res.Kueue = w.timing
		diffs, err := comp.compare(s, w, created, ts.Kind == trace.StepInitial)
		last = s
		if err != nil {
			runErr = err
			return
		}
		for i := range diffs {
			diffs[i].Step, diffs[i].Cycle, diffs[i].Time = ts.Index, ts.Cycle, s.Now
		}
		res.Differences = diffs
		if log != nil {
			w.logStep(log, s, ts, created)
		}
		if opts.progress != nil {
			if now := time.Now(); now.Sub(lastProgress) >= progressEvery {
				lastProgress = now
				fmt.Fprintf(opts.progress, "%sstep %d, cycle %d (Kueue %d), t=%v, %s elapsed\n", opts.label, ts.Index, ts.Cycle, w.cycles, s.Now, now.Sub(started).Round(time.Second))
			}
		}
	}
	// stop ends the run at the bound, once that cycle has been compared.
	stop := func(ts *trace.Step) bool {
		if opts.maxCycles > 0 && ts.Cycle >= opts.maxCycles && runErr == nil && res.Agreed() {
			res.Bounded = true
			return true
		}
		return false
	}
	tr := sim.Run(sc, sim.Options{Gates: gates, Observe: observe, Stop: stop})
	if runErr != nil {
		return res, runErr
	}
	if res.Agreed() && last != nil {
		// Every workload once more, against what the steps compared.
		diffs, err := comp.compare(last, w, created, true)
		if err != nil {
			return res, err
		}
		if len(diffs) > 0 {
			var b strings.Builder
			for _, d := range diffs {
				b.WriteString("\n  " + d.String())
			}
			return res, fmt.Errorf("after step %d, comparing every workload found differences the step-by-step comparison missed (a harness bug):%s", res.Steps, b.String())
		}
	}
	if res.Agreed() && !res.Bounded {
		if d := check.Rerun(sc, gates, tr); d != "" {
			res.Broken = append(res.Broken, d)
		}
	}
	return res, nil
}

// apply plays one of the engine's scenario events on Kueue's side.
func (w *world) apply(sc *core.Scenario, seqs []int, ev trace.Event, created map[string]bool) error {
	if strings.HasPrefix(ev.Text(), "ignored") {
		return nil
	}
	switch ev.Kind {
	case trace.EventArrival:
		i, ok := w.index[ev.Workload]
		if !ok {
			return fmt.Errorf("no such workload")
		}
		created[ev.Workload] = true
		if err := w.create(workloadObject(&sc.Workloads[i], seqs[i], len(sc.Workloads))); err != nil {
			return err
		}
	case trace.EventFinish:
		failed := strings.HasPrefix(ev.Text(), sim.FailedToStartPrefix)
		if err := w.finish(ev.Workload, failed, ev.Text()); err != nil {
			return err
		}
	case trace.EventDelete:
		if err := w.remove(ev.Workload); err != nil {
			return err
		}
	case trace.EventRelease:
		if err := w.release(ev.Workload); err != nil {
			return err
		}
	default:
		return nil
	}
	return w.sync()
}

// checkTimes rejects scenarios whose times the harness cannot map to
// Kubernetes' one-second timestamps without losing their order.
func checkTimes(sc *core.Scenario) error {
	check := func(what string, d time.Duration) error {
		if !wholeMillis(d) {
			return fmt.Errorf("%s %v is not a whole number of milliseconds", what, d)
		}
		return nil
	}
	for _, d := range []time.Duration{sc.CycleDuration, sc.TerminationDelay} {
		if err := check("duration", d); err != nil {
			return err
		}
	}
	for _, w := range sc.Workloads {
		for _, d := range []*time.Duration{&w.Arrival, w.Runtime, w.TerminationDelay} {
			if d != nil {
				if err := check("workload "+w.Key()+" time", *d); err != nil {
					return err
				}
			}
		}
	}
	for _, e := range sc.Events {
		if err := check("event time", e.At); err != nil {
			return err
		}
	}
	return nil
}

// logStep writes one step for a person debugging a difference.
func (w *world) logStep(out io.Writer, s *sim.State, ts *trace.Step, created map[string]bool) {
	fmt.Fprintf(out, "== step %d %s cycle %d t=%v (Kueue cycles %d)\n", ts.Index, ts.Kind, ts.Cycle, s.Now, w.cycles)
	for _, ev := range ts.Events {
		fmt.Fprintf(out, "   event %s %s: %s\n", ev.Kind, ev.Workload, ev.Message)
	}
	for _, d := range ts.Decisions {
		fmt.Fprintf(out, "   decision %s: %s %s\n", d.Workload, d.Outcome, d.Message)
	}
	p := w.placement()
	for i := range s.NumWorkloads() {
		wl := s.Workload(i)
		theirs, _ := w.view(wl.Key, created[wl.Key], p)
		ours := oursView(s, wl)
		mark := " "
		if ours != theirs {
			mark = "!"
		}
		fmt.Fprintf(out, "  %s %-20s ours:  %s\n  %s %-20s Kueue: %s\n", mark, wl.Key, ours, mark, "", theirs)
	}
}
