package trace

import (
	"encoding/json"
	"strings"
	"time"
)

// An event records what happened as facts (its LocalQueue, runtime,
// delay, released quota, requeued workloads) and Text writes the words
// when someone reads them: a 15,000-workload run has 30,000 arrivals and
// finishes, and the engine formats none of their sentences. An event
// whose words no rule below derives keeps them in Message.

// Text is the event in words: its Message, or the sentence its fields
// say when it has none.
func (e *Event) Text() string {
	if e.Message != "" {
		return e.Message
	}
	return string(e.appendText(nil))
}

// appendText appends e's words (Text) to b.
func (e *Event) appendText(b []byte) []byte {
	if e.Message != "" {
		return append(b, e.Message...)
	}
	switch e.Kind {
	case EventArrival:
		if e.LocalQueue == "" {
			return b
		}
		// WorkloadReconciler: the workload's LocalQueue, in its namespace,
		// names its ClusterQueue.
		ns, _, _ := strings.Cut(e.Workload, "/")
		b = append(b, "created in LocalQueue "...)
		b = append(b, ns...)
		b = append(b, '/')
		b = append(b, e.LocalQueue...)
		b = append(b, ", queued in ClusterQueue "...)
		return append(b, e.ClusterQueue...)
	case EventFinish:
		if e.Runtime != nil {
			b = append(b, "ran for its runtime "...)
			b = append(b, e.Runtime.String()...)
			b = append(b, " and finished"...)
		} else {
			b = append(b, "finished (scenario event)"...)
		}
		return e.appendReleased(b)
	case EventDelete:
		b = append(b, "deleted (scenario event)"...)
		return e.appendReleased(b)
	case EventRelease:
		b = append(b, "terminated: its quota is released ("...)
		b = appendUsage(b, e.Quota)
		return append(b, ") and it is queued again"...)
	case EventEvict:
		if e.Preemptor == "" {
			return b
		}
		b = append(b, "evicted by "...)
		b = append(b, e.Preemptor...)
		b = append(b, " ("...)
		b = append(b, e.Reason...)
		b = append(b, "); it releases its quota after its termination delay of "...)
		return append(b, e.Delay.String()...)
	case EventRequeue:
		if e.Workloads == nil {
			return b
		}
		b = append(b, "parked workloads of the cohort tree go back to their queues: "...)
		for i, w := range e.Workloads {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = append(b, w...)
		}
		return b
	}
	return b
}

// appendReleased appends the clause of a finish or delete that released
// quota (Quota not nil).
func (e *Event) appendReleased(b []byte) []byte {
	if e.Quota == nil {
		return b
	}
	b = append(b, "; its quota is released ("...)
	b = appendUsage(b, e.Quota)
	return append(b, ')')
}

// appendUsage appends quantities as "flavor/resource text, ...".
func appendUsage(b []byte, qs []Quantity) []byte {
	for i := range qs {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, qs[i].Flavor...)
		b = append(b, '/')
		b = append(b, qs[i].Resource...)
		b = append(b, ' ')
		b = append(b, qs[i].Text...)
	}
	return b
}

// MarshalJSON writes the event in the trace's JSON format: durations as
// Go writes them ("1m30s"), and no message when Text derives it.
func (e Event) MarshalJSON() ([]byte, error) {
	j := jsonBuf{}
	j.event(&e)
	return j.b, j.err
}

func (j *jsonBuf) event(e *Event) {
	j.open()
	j.str("kind", string(e.Kind))
	j.strOmit("workload", e.Workload)
	j.strOmit("clusterQueue", e.ClusterQueue)
	j.strOmit("message", e.Message)
	j.strOmit("preemptor", e.Preemptor)
	j.strOmit("reason", e.Reason)
	j.strOmit("localQueue", e.LocalQueue)
	if e.Runtime != nil {
		j.str("runtime", e.Runtime.String())
	}
	if e.Delay != 0 {
		j.str("delay", e.Delay.String())
	}
	if e.Quota != nil {
		listAlways(j, "quota", e.Quota, (*jsonBuf).quantity)
	}
	j.strsOmit("workloads", e.Workloads)
	j.close()
}

type eventAlias Event

// eventJSON decodes an event; its durations are Go's duration strings.
type eventJSON struct {
	*eventAlias
	Runtime *string `json:"runtime"`
	Delay   *string `json:"delay"`
}

// UnmarshalJSON reads an event written by MarshalJSON, or by an earlier
// v3 or v2 writer (every event with its message).
func (e *Event) UnmarshalJSON(data []byte) error {
	*e = Event{}
	aux := eventJSON{eventAlias: (*eventAlias)(e)}
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	if aux.Runtime != nil {
		d, err := time.ParseDuration(*aux.Runtime)
		if err != nil {
			return err
		}
		e.Runtime = &d
	}
	if aux.Delay != nil {
		d, err := time.ParseDuration(*aux.Delay)
		if err != nil {
			return err
		}
		e.Delay = d
	}
	return nil
}
