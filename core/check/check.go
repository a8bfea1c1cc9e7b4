// Package check runs a scenario and checks its expectations
// (spec.expect). It is what `kueueplay test`, the public scenariotest
// package and the project's own scenario tests share.
package check

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
)

// Failure is one expectation that did not hold.
type Failure struct {
	// Index is the expectation's index in spec.expect.
	Index int
	Pos   core.Pos
	// When describes the point checked ("at end", "at 30s", "cycle 3").
	When string
	// Diff is the difference, "(-want +got)".
	Diff string
}

func (f Failure) String() string {
	if f.Index < 0 {
		return fmt.Sprintf("%s: engine invariant violated (%s): %s", f.Pos.File, f.When, f.Diff)
	}
	return fmt.Sprintf("%s:%d:%d: expectation %d (%s) failed (-want +got):\n%s", f.Pos.File, f.Pos.Line, f.Pos.Col, f.Index, f.When, f.Diff)
}

// Result is a run with its failures.
type Result struct {
	Trace *trace.Trace
	// Expectations is how many expectations were checked.
	Expectations int
	Failures     []Failure
}

// Workload is the checked view of one workload. Fields not named by an
// expectation are left zero on both sides.
type Workload struct {
	State string `json:"state,omitempty"`
	// Flavors is pod set -> resource -> flavor, limited to what the
	// expectation names.
	Flavors   map[string]map[string]string `json:"flavors,omitempty"`
	Preempted bool                         `json:"preempted,omitempty"`
	Message   string                       `json:"message,omitempty"`
	// Pods is node -> how many of the owner's pods it holds (the
	// placement layer), when the expectation names them.
	Pods map[string]int `json:"pods,omitempty"`
}

// snapshot is the state at one point: every workload, and the state to
// ask for pods.
type snapshot struct {
	wls   map[string]*sim.Workload
	state *sim.State
}

// Run simulates sc (with gate overrides) and checks every expectation.
func Run(sc *core.Scenario, gates core.FeatureGates) Result {
	n := len(sc.Expect)
	atShots := make([]snapshot, n)
	cycleShots := make([]snapshot, n)
	var final snapshot
	take := func(s *sim.State) snapshot {
		shot := snapshot{wls: map[string]*sim.Workload{}, state: s}
		for _, w := range s.All() {
			shot.wls[w.Key] = w
		}
		return shot
	}
	// The engine's safety properties are checked after every step; a
	// violation is an engine bug and fails the case. Only the first
	// violating step is reported.
	var broken *Failure
	file := ""
	if len(sc.Expect) > 0 {
		file = sc.Expect[0].Pos.File
	}
	observe := func(s *sim.State, st *trace.Step) {
		if broken == nil {
			if v := sim.CheckInvariants(s); len(v) > 0 {
				broken = &Failure{Index: -1, Pos: core.Pos{File: file}, When: fmt.Sprintf("step %d", st.Index), Diff: strings.Join(v, "; ")}
			}
		}
		shot := take(s)
		final = shot
		for i, e := range sc.Expect {
			switch {
			case e.When.At != nil && time.Duration(st.TimeMs)*time.Millisecond <= *e.When.At:
				atShots[i] = shot
			case e.When.Cycle != nil && st.Kind == trace.StepCycle && st.Cycle == *e.When.Cycle:
				cycleShots[i] = shot
			}
		}
	}
	tr := sim.Run(sc, sim.Options{Gates: gates, Observe: observe})
	res := Result{Trace: tr, Expectations: len(sc.Expect)}
	if broken != nil {
		res.Failures = append(res.Failures, *broken)
	}
	if d := Rerun(sc, gates, tr); d != "" {
		res.Failures = append(res.Failures, Failure{Index: -1, Pos: core.Pos{File: file}, When: "second run", Diff: d})
	}
	for i, e := range sc.Expect {
		var shot snapshot
		var when string
		switch {
		case e.When.End:
			shot, when = final, "at end"
		case e.When.At != nil:
			shot, when = atShots[i], "at "+e.When.At.String()
		case e.When.Cycle != nil:
			shot, when = cycleShots[i], fmt.Sprintf("cycle %d", *e.When.Cycle)
			if shot.state == nil {
				res.Failures = append(res.Failures, Failure{Index: i, Pos: e.Pos, When: when,
					Diff: fmt.Sprintf("cycle %d never ran: the run ended (%s) after %d cycles", *e.When.Cycle, tr.End, tr.Cycles)})
				continue
			}
		}
		want, got := compare(&e, shot)
		if d := cmp.Diff(want, got); d != "" {
			res.Failures = append(res.Failures, Failure{Index: i, Pos: e.Pos, When: when, Diff: d})
		}
	}
	return res
}

// compare builds the wanted and the observed view of every workload the
// expectation names.
func compare(e *core.Expectation, snap snapshot) (map[string]*Workload, map[string]*Workload) {
	shot := snap.wls
	want := map[string]*Workload{}
	got := map[string]*Workload{}
	get := func(m map[string]*Workload, k string) *Workload {
		if m[k] == nil {
			m[k] = &Workload{}
		}
		return m[k]
	}
	state := func(k string) string {
		w := shot[k]
		if w == nil {
			return "unknown workload"
		}
		return w.Status.String()
	}
	for k, podSets := range e.Admitted {
		get(want, k).State = "admitted"
		get(got, k).State = state(k)
		if len(podSets) == 0 {
			continue
		}
		wf, gf := map[string]map[string]string{}, map[string]map[string]string{}
		w := shot[k]
		for ps, res := range podSets {
			wf[ps], gf[ps] = map[string]string{}, map[string]string{}
			var adm *sim.AdmittedPodSet
			if w != nil && w.Admission != nil && (w.Status == sim.Admitted || w.Status == sim.Terminating) {
				for i := range w.Admission.PodSets {
					if w.Admission.PodSets[i].Name == ps {
						adm = &w.Admission.PodSets[i]
					}
				}
			}
			for r, f := range res {
				wf[ps][string(r)] = string(f)
				if adm != nil {
					gf[ps][string(r)] = string(adm.Flavors[r])
				}
			}
		}
		get(want, k).Flavors, get(got, k).Flavors = wf, gf
	}
	for _, list := range []struct {
		keys  []string
		state string
	}{{e.Pending, "pending"}, {e.Terminating, "terminating"}, {e.Finished, "finished"}, {e.Deleted, "deleted"}} {
		for _, k := range list.keys {
			get(want, k).State = list.state
			get(got, k).State = state(k)
		}
	}
	for _, k := range e.Preempted {
		get(want, k).Preempted = true
		get(got, k).Preempted = shot[k] != nil && shot[k].Preemptions > 0
	}
	keys := make([]string, 0, len(e.Messages))
	for k := range e.Messages {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		sub := e.Messages[k]
		msg := ""
		if w := shot[k]; w != nil {
			msg = w.Message
		}
		// An admitted workload or a Deployment with pods no node takes:
		// the reason of its first pending pod.
		if w := shot[k]; w == nil || w.Status == sim.Admitted {
			if _, podMsg := snap.state.PlacedPods(k); podMsg != "" {
				msg = podMsg
			}
		}
		get(want, k).Message = "contains " + fmt.Sprintf("%q", sub)
		if strings.Contains(msg, sub) {
			get(got, k).Message = "contains " + fmt.Sprintf("%q", sub)
		} else {
			get(got, k).Message = fmt.Sprintf("%q", msg)
		}
	}
	for k, nodes := range e.Pods {
		placed, _ := snap.state.PlacedPods(k)
		w := map[string]int{}
		for n, c := range nodes {
			if c > 0 {
				w[n] = c
			}
		}
		get(want, k).Pods, get(got, k).Pods = w, placed // both non-nil: "none placed" compares equal
	}
	return want, got
}

// Rerun simulates sc again under the same gates and reports how the new
// trace differs from first, the trace of an earlier run: "" when the two
// are byte-identical as JSON (the contract the UI, the API and the CLI
// consume), else the first step whose encoding differs. The engine
// promises the same trace for the same input; every scenario test, the
// engine fuzzer and the conformance runner hold it to that.
func Rerun(sc *core.Scenario, gates core.FeatureGates, first *trace.Trace) string {
	second := sim.Run(sc, sim.Options{Gates: gates})
	a, errA := json.Marshal(first)
	b, errB := json.Marshal(second)
	if errA != nil || errB != nil {
		return fmt.Sprintf("encoding the traces: %v, %v", errA, errB)
	}
	if bytes.Equal(a, b) {
		return ""
	}
	for i := range min(len(first.Steps), len(second.Steps)) {
		sa, _ := json.Marshal(first.Steps[i])
		sb, _ := json.Marshal(second.Steps[i])
		if !bytes.Equal(sa, sb) {
			return fmt.Sprintf("a second run differs at step %d (-first +second):\n%s", i, cmp.Diff(string(sa), string(sb)))
		}
	}
	return fmt.Sprintf("a second run differs: %d steps ending %q, then %d steps ending %q", len(first.Steps), first.End, len(second.Steps), second.End)
}
