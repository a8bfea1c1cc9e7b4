// Package view is the playground's view-model: everything the browser UI
// (and the HTTP API's render.svg) computes from a trace, as plain values
// that the UI only has to lay out. It is pure Go (no syscall/js, no I/O, no
// clock, no global state), so it is tested natively and compiled to
// WebAssembly unchanged.
//
// A Model is built once per trace (New); it precomputes what depends on the
// whole trace (the cohort forest, a stable scale for every quota bar), so
// that Model.Step, called every time the user moves the scrubber, costs
// time in the size of one step only, never in the number of steps or
// workloads. Timeline, EventLog and FirstDifference walk the whole trace
// and are meant to be computed once per trace.
package view

import (
	"slices"
	"strings"

	"github.com/kueueplay/kueueplay/core/trace"
)

// Model is a trace prepared for viewing. Build it once per trace with New;
// it is read-only afterwards and safe for concurrent use.
type Model struct {
	tr     *trace.Trace
	forest forest
	// placeSteps are the indexes of the steps with placements; nodes
	// locates each node's rows.
	placeSteps []int
	nodes      nodeIndex
}

// New prepares tr for viewing. tr must not be modified afterwards.
func New(tr *trace.Trace) *Model {
	return &Model{tr: tr, forest: buildForest(tr), placeSteps: placementSteps(tr), nodes: buildNodeIndex(tr)}
}

// Trace returns the trace the model was built from.
func (m *Model) Trace() *trace.Trace { return m.tr }

// Len is the number of steps.
func (m *Model) Len() int { return len(m.tr.Steps) }

// Build is New(tr).Step(step), for one-off use. A UI that moves between
// steps keeps the Model instead.
func Build(tr *trace.Trace, step int) Step { return New(tr).Step(step) }

// Step is everything shown for one step of a trace.
type Step struct {
	// Index is the step's index (0-based) and Total the number of steps.
	Index int `json:"index"`
	Total int `json:"total"`
	// TimeMs is the virtual time; Time is it formatted ("1m30s").
	TimeMs int64  `json:"timeMs"`
	Time   string `json:"time"`
	// Cycle is the cycle number of a cycle step, else the number of cycles
	// run so far.
	Cycle int            `json:"cycle"`
	Kind  trace.StepKind `json:"kind"`
	// Title is one line in words: "Cycle 3 at 2s: 1 admitted, 1
	// preempting, 2 pending".
	Title string `json:"title"`
	// Quota is the cohort forest: one root per top-level Cohort or
	// ClusterQueue without a cohort, by name.
	Quota []*QuotaNode `json:"quota"`
	// Queues are the ClusterQueues' queues after the step, by name.
	Queues []Queue `json:"queues"`
	// Decisions are the cycle's decisions in the trace's order.
	Decisions []Decision `json:"decisions,omitempty"`
	// Events are the step's events in the order of the trace.
	Events []Event `json:"events,omitempty"`
	// Claims are the KEP-4378 claims on preemption targets in the cycle.
	Claims []Claim `json:"claims,omitempty"`
	// Cluster is the placement layer: nodes, pods and placements (nil for
	// a scenario without Nodes).
	Cluster *Cluster `json:"cluster,omitempty"`
}

// Event is one event of a step.
type Event struct {
	Kind         trace.EventKind `json:"kind"`
	Workload     string          `json:"workload,omitempty"`
	ClusterQueue string          `json:"clusterQueue,omitempty"`
	// Message is the trace's explanation; Text is one sentence naming the
	// subject ("team-a/train-1 arrived: created in LocalQueue ...").
	Message string `json:"message"`
	Text    string `json:"text"`
}

// Claim is how much of one preemption target the preemptors of a cycle
// claimed (RefreshAssignmentsDuringSchedulingCycle).
type Claim struct {
	Target string `json:"target"`
	// Original is the target's usage, formatted.
	Original string    `json:"original"`
	By       []ClaimBy `json:"by"`
	// Text is the claim in one sentence.
	Text string `json:"text"`
}

// ClaimBy is one preemptor's claim.
type ClaimBy struct {
	Preemptor string `json:"preemptor"`
	Claimed   string `json:"claimed"`
}

// Queue is one ClusterQueue's queue after a step.
type Queue struct {
	ClusterQueue   string `json:"clusterQueue"`
	Active         bool   `json:"active"`
	InactiveReason string `json:"inactiveReason,omitempty"`
	// Head is the next head (the first pending workload), empty if none.
	Head string `json:"head,omitempty"`
	// Nominated is the workload popped as this queue's head in this step's
	// cycle, if any.
	Nominated   string `json:"nominated,omitempty"`
	Pending     List   `json:"pending"`
	Parked      List   `json:"parked"`
	Admitted    List   `json:"admitted"`
	Terminating List   `json:"terminating"`
	// Text is a one-line summary: "head team-a/train-4; 2 pending, 1
	// parked, 3 admitted".
	Text string `json:"text"`
}

// List is a list of workload names that the trace may cap: Names holds at
// most the trace's cap, Count is exact and More = Count - len(Names).
type List struct {
	Names []string `json:"names,omitempty"`
	Count int      `json:"count"`
	More  int      `json:"more"`
}

func list(names []string, n int) List {
	return List{Names: names, Count: n, More: max(0, n-len(names))}
}

// Step returns the view of step i; i is clamped to the trace's range. A
// trace without steps gives a Step with Total 0.
func (m *Model) Step(i int) Step {
	steps := m.tr.Steps
	if len(steps) == 0 {
		return Step{Title: "No steps"}
	}
	i = max(0, min(i, len(steps)-1))
	st := &steps[i]
	// The usage before and after the step, and the queues after it.
	var prevUsage []trace.UsageRow
	r := m.tr.ReplayAt(i - 1)
	if i > 0 {
		prevUsage = slices.Clone(r.Usage())
		r.Next()
	}
	out := Step{
		Index:  i,
		Total:  len(steps),
		TimeMs: st.TimeMs,
		Time:   FormatTime(st.TimeMs),
		Cycle:  st.Cycle,
		Kind:   st.Kind,
		Title:  stepTitle(st),
		Quota:  m.forest.view(r.Usage(), prevUsage),
		Queues: queues(r.Queues(), st.Heads),
	}
	out.Cluster = m.cluster(i, st)
	for k := range st.Decisions {
		out.Decisions = append(out.Decisions, decision(&st.Decisions[k]))
	}
	for _, e := range st.Events {
		out.Events = append(out.Events, event(e))
	}
	for _, c := range st.Claims {
		out.Claims = append(out.Claims, claim(c))
	}
	return out
}

// queues views the queues after a step whose cycle popped heads.
func queues(qs []trace.QueueState, heads []trace.Head) []Queue {
	out := make([]Queue, 0, len(qs))
	for _, q := range qs {
		v := Queue{
			ClusterQueue:   q.ClusterQueue,
			Active:         q.Active,
			InactiveReason: q.InactiveReason,
			Pending:        list(q.Pending, q.PendingCount),
			Parked:         list(q.Parked, q.ParkedCount),
			Admitted:       list(q.Admitted, q.AdmittedCount),
			Terminating:    list(q.Terminating, q.TerminatingCount),
		}
		if len(q.Pending) > 0 {
			v.Head = q.Pending[0]
		}
		for _, h := range heads {
			if h.ClusterQueue == q.ClusterQueue {
				v.Nominated = h.Workload
			}
		}
		v.Text = queueText(&v)
		out = append(out, v)
	}
	return out
}

func queueText(q *Queue) string {
	var parts []string
	if !q.Active {
		s := "inactive"
		if q.InactiveReason != "" {
			s += " (" + q.InactiveReason + ")"
		}
		parts = append(parts, s)
	}
	if q.Head != "" {
		parts = append(parts, "head "+q.Head)
	}
	var counts []string
	for _, c := range []struct {
		n    int
		word string
	}{{q.Pending.Count, "pending"}, {q.Parked.Count, "parked"}, {q.Admitted.Count, "admitted"}, {q.Terminating.Count, "terminating"}} {
		if c.n > 0 {
			counts = append(counts, count(c.n, c.word))
		}
	}
	if len(counts) == 0 {
		counts = append(counts, "empty")
	}
	parts = append(parts, strings.Join(counts, ", "))
	return strings.Join(parts, "; ")
}

func event(e trace.Event) Event {
	return Event{Kind: e.Kind, Workload: e.Workload, ClusterQueue: e.ClusterQueue, Message: e.Text(), Text: eventText(e)}
}

// eventVerb is the word for an event kind in a sentence.
func eventVerb(k trace.EventKind) string {
	switch k {
	case trace.EventArrival:
		return "arrived"
	case trace.EventFinish:
		return "finished"
	case trace.EventDelete:
		return "was deleted"
	case trace.EventRelease:
		return "released its quota"
	case trace.EventRequeue:
		return "requeued parked workloads"
	case trace.EventInactive:
		return "is inactive"
	case trace.EventEvict:
		return "was evicted"
	}
	return string(k)
}

func eventText(e trace.Event) string {
	subject := e.Workload
	switch {
	case e.Kind == trace.EventRequeue || e.Kind == trace.EventInactive || subject == "":
		subject = "ClusterQueue " + e.ClusterQueue
	}
	s := subject + " " + eventVerb(e.Kind)
	if m := e.Text(); m != "" {
		s += ": " + m
	}
	return s
}

func claim(c trace.Claim) Claim {
	v := Claim{Target: c.Target, Original: quantities(c.Original)}
	var by []string
	for _, x := range c.By {
		q := quantities(x.Claimed)
		v.By = append(v.By, ClaimBy{Preemptor: x.Preemptor, Claimed: q})
		by = append(by, x.Preemptor+" claims "+q)
	}
	v.Text = c.Target + " (" + v.Original + "): " + strings.Join(by, "; ")
	return v
}

// stepTitle says in one line what a step did.
func stepTitle(st *trace.Step) string {
	at := FormatTime(st.TimeMs)
	switch st.Kind {
	case trace.StepInitial:
		var admitted, inactive int
		for _, e := range st.Events {
			switch e.Kind {
			case trace.EventArrival:
				admitted++
			case trace.EventInactive:
				inactive++
			}
		}
		var parts []string
		if admitted > 0 {
			parts = append(parts, count(admitted, plural(admitted, "workload starts admitted", "workloads start admitted")))
		}
		if inactive > 0 {
			parts = append(parts, count(inactive, plural(inactive, "ClusterQueue is inactive", "ClusterQueues are inactive")))
		}
		if len(parts) == 0 {
			return "Initial state"
		}
		return "Initial state: " + strings.Join(parts, ", ")
	case trace.StepCycle:
		var admitted, preempting, skipped, pending int
		for _, d := range st.Decisions {
			switch d.Outcome {
			case trace.OutcomeAdmitted:
				admitted++
			case trace.OutcomePreempting:
				preempting++
			case trace.OutcomeSkipped:
				skipped++
			default:
				pending++
			}
		}
		var parts []string
		for _, c := range []struct {
			n    int
			word string
		}{{admitted, "admitted"}, {preempting, "preempting"}, {skipped, "skipped"}, {pending, "pending"}, {countEvents(st, trace.EventEvict), "evicted"}} {
			if c.n > 0 {
				parts = append(parts, count(c.n, c.word))
			}
		}
		head := "Cycle " + itoa(st.Cycle) + " at " + at
		if len(parts) == 0 {
			return head + ": nothing to decide"
		}
		return head + ": " + strings.Join(parts, ", ")
	}
	var parts []string
	for _, c := range []struct {
		kind trace.EventKind
		word string
	}{
		{trace.EventFinish, "finished"}, {trace.EventDelete, "deleted"}, {trace.EventRelease, "released"},
		{trace.EventArrival, "arrived"}, {trace.EventEvict, "evicted"}, {trace.EventInactive, "inactive"},
	} {
		if n := countEvents(st, c.kind); n > 0 {
			parts = append(parts, count(n, c.word))
		}
	}
	if n := countEvents(st, trace.EventRequeue); n > 0 {
		parts = append(parts, "parked workloads requeued")
	}
	if len(parts) == 0 {
		return "Events at " + at
	}
	return "Events at " + at + ": " + strings.Join(parts, ", ")
}

func countEvents(st *trace.Step, k trace.EventKind) int {
	n := 0
	for _, e := range st.Events {
		if e.Kind == k {
			n++
		}
	}
	return n
}
