package view

import (
	"slices"

	"github.com/kueueplay/kueueplay/core/trace"
)

// Mark is one step on the scrubber.
type Mark struct {
	Step   int            `json:"step"`
	Kind   trace.StepKind `json:"kind"`
	Cycle  int            `json:"cycle"`
	TimeMs int64          `json:"timeMs"`
	// Admission: a workload was admitted.
	Admission bool `json:"admission,omitempty"`
	// Preemption: a preemption was issued: a workload was evicted, or a
	// preempting entry has a target not evicted before. (An entry that
	// keeps waiting for targets evicted earlier does not set it.)
	Preemption bool `json:"preemption,omitempty"`
	// Release: an evicted workload released its quota.
	Release bool `json:"release,omitempty"`
	// Finish: a workload finished or was deleted.
	Finish bool `json:"finish,omitempty"`
	// Arrival: a workload was created (or starts admitted, on step 0).
	Arrival bool `json:"arrival,omitempty"`
	// NoChange: nothing happened that the user can see: no event, no
	// admission or preemption, and every usage row and queue is the same as
	// in the previous step (a cycle whose heads all stayed pending in
	// place). Never set on step 0.
	NoChange bool `json:"noChange,omitempty"`
}

// Timeline returns one mark per step, for a scrubber.
func Timeline(tr *trace.Trace) []Mark {
	out := make([]Mark, len(tr.Steps))
	for i := range tr.Steps {
		st := &tr.Steps[i]
		m := Mark{Step: i, Kind: st.Kind, Cycle: st.Cycle, TimeMs: st.TimeMs}
		for _, e := range st.Events {
			switch e.Kind {
			case trace.EventArrival:
				m.Arrival = true
			case trace.EventFinish, trace.EventDelete:
				m.Finish = true
			case trace.EventRelease:
				m.Release = true
			case trace.EventEvict:
				m.Preemption = true
			}
		}
		for _, d := range st.Decisions {
			switch d.Outcome {
			case trace.OutcomeAdmitted:
				m.Admission = true
			case trace.OutcomePreempting:
				if d.Preemption != nil {
					for _, t := range d.Preemption.Targets {
						m.Preemption = m.Preemption || !t.AlreadyEvicted
					}
				}
			}
		}
		if i > 0 && len(st.Events) == 0 && !m.Admission && !m.Preemption {
			if st.IsFull() {
				// A full step (every so often) is compared with the state
				// before it; any other step lists what it changed.
				pu, pq := tr.StateAt(i - 1)
				m.NoChange = slices.EqualFunc(pu, st.Usage, sameUsage) && slices.EqualFunc(pq, st.Queues, sameQueue)
			} else {
				m.NoChange = len(st.UsageChanges) == 0 && st.NumQueueChanges() == 0
			}
		}
		out[i] = m
	}
	return out
}

func sameUsage(a, b trace.UsageRow) bool {
	return a.Node == b.Node && a.Kind == b.Kind && a.Flavor == b.Flavor && a.Resource == b.Resource &&
		a.Used == b.Used && a.Borrowed == b.Borrowed && a.Lent == b.Lent && a.HeldBack == b.HeldBack &&
		a.Available == b.Available && a.SubtreeQuota == b.SubtreeQuota
}

func sameQueue(a, b trace.QueueState) bool {
	return a.ClusterQueue == b.ClusterQueue && a.Active == b.Active &&
		a.PendingCount == b.PendingCount && a.ParkedCount == b.ParkedCount &&
		a.AdmittedCount == b.AdmittedCount && a.TerminatingCount == b.TerminatingCount &&
		slices.Equal(a.Pending, b.Pending) && slices.Equal(a.Parked, b.Parked) &&
		slices.Equal(a.Admitted, b.Admitted) && slices.Equal(a.Terminating, b.Terminating)
}

// LogKindDecision is the LogEntry kind of a decision; every other entry
// has its event's kind.
const LogKindDecision = "decision"

// LogEntry is one line of the event log.
type LogEntry struct {
	// Step is the index of the step to show when the entry is clicked.
	Step   int    `json:"step"`
	TimeMs int64  `json:"timeMs"`
	Time   string `json:"time"`
	Cycle  int    `json:"cycle"`
	// Kind is an event kind (arrival, finish, ...) or "decision".
	Kind         string `json:"kind"`
	Workload     string `json:"workload,omitempty"`
	ClusterQueue string `json:"clusterQueue,omitempty"`
	// Outcome is set for decisions.
	Outcome trace.Outcome `json:"outcome,omitempty"`
	// Text is the entry in one sentence.
	Text string `json:"text"`
}

// EventLog lists every event and every decision of the trace, step by
// step. Within an event step the events keep the trace's order. Within a
// cycle step the decisions come in processing order, each followed by the
// evictions it caused (the trace lists a cycle's evictions before its
// decisions, although they are their consequence); any other event of the
// cycle comes last.
func EventLog(tr *trace.Trace) []LogEntry {
	n := 0
	for i := range tr.Steps {
		n += len(tr.Steps[i].Events) + len(tr.Steps[i].Decisions)
	}
	out := make([]LogEntry, 0, n)
	for i := range tr.Steps {
		st := &tr.Steps[i]
		at := FormatTime(st.TimeMs)
		ev := func(e trace.Event) {
			out = append(out, LogEntry{Step: i, TimeMs: st.TimeMs, Time: at, Cycle: st.Cycle, Kind: string(e.Kind),
				Workload: e.Workload, ClusterQueue: e.ClusterQueue, Text: eventText(e)})
		}
		if st.Kind != trace.StepCycle {
			for _, e := range st.Events {
				ev(e)
			}
			continue
		}
		placed := make([]bool, len(st.Events))
		for k := range st.Decisions {
			d := &st.Decisions[k]
			out = append(out, LogEntry{Step: i, TimeMs: st.TimeMs, Time: at, Cycle: st.Cycle, Kind: LogKindDecision,
				Workload: d.Workload, ClusterQueue: d.ClusterQueue, Outcome: d.Outcome, Text: sentence(d)})
			if d.Preemption == nil {
				continue
			}
			for _, t := range d.Preemption.Targets {
				if t.AlreadyEvicted {
					continue
				}
				for j, e := range st.Events {
					if !placed[j] && e.Kind == trace.EventEvict && e.Workload == t.Workload {
						placed[j] = true
						ev(e)
						break
					}
				}
			}
		}
		for j, e := range st.Events {
			if !placed[j] {
				ev(e)
			}
		}
	}
	return out
}
