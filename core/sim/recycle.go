package sim

import "github.com/kueueplay/kueueplay/core/trace"

// recycler hands a step's report space (its usage rows, its queue states
// and their lists) back to a later step once nothing holds it. Run turns
// it on when no one but its loop sees the steps (no Observe): a step's
// full usage and queues are then held only by the State (the last
// report, which the next one reuses), by the trace.Compactor until it
// has compared the next step with them, and by the trace itself when the
// Compactor kept the step whole (Full). So a piece of a report first
// reported in step b and last in step l (the step after l reported
// something else in its place) is free once step l+1 is compacted,
// unless a step in b..l was kept whole. Without a recycler (nil, for
// Step and Observe) every report is new.
type recycler struct {
	// lastFull is the last step compacted whole.
	lastFull int
	// retired are the pieces the report being built or the last one
	// replaced, with the step each was first reported in: they are free
	// after the step that replaced them is compacted.
	retiredRows   []bornRows
	retiredQueues []bornQueues
	retiredLists  []bornList
	// rows, queues and lists are free.
	rows   [][]trace.UsageRow
	queues [][]trace.QueueState
	lists  [][]string
}

type bornRows struct {
	born int
	v    []trace.UsageRow
}

type bornQueues struct {
	born int
	v    []trace.QueueState
}

type bornList struct {
	born int
	v    []string
}

// compacted records that step idx was compacted (whole if full) and
// frees what the reports up to idx replaced and no kept step holds.
func (r *recycler) compacted(idx int, full bool) {
	for _, p := range r.retiredRows {
		if r.lastFull < p.born {
			r.rows = append(r.rows, p.v[:0])
		}
	}
	for _, p := range r.retiredQueues {
		if r.lastFull < p.born {
			clear(p.v)
			r.queues = append(r.queues, p.v[:0])
		}
	}
	for _, p := range r.retiredLists {
		if r.lastFull < p.born {
			clear(p.v[:cap(p.v)])
			r.lists = append(r.lists, p.v[:0])
		}
	}
	clear(r.retiredRows)
	clear(r.retiredQueues)
	clear(r.retiredLists)
	r.retiredRows, r.retiredQueues, r.retiredLists = r.retiredRows[:0], r.retiredQueues[:0], r.retiredLists[:0]
	if full {
		r.lastFull = idx
	}
}

// usageRows returns room for n usage rows.
func (r *recycler) usageRows(n int) []trace.UsageRow {
	if r != nil {
		for len(r.rows) > 0 {
			v := r.rows[len(r.rows)-1]
			r.rows[len(r.rows)-1] = nil
			r.rows = r.rows[:len(r.rows)-1]
			if cap(v) >= n {
				return v
			}
		}
	}
	return make([]trace.UsageRow, 0, n)
}

// queueStates returns n zero queue states.
func (r *recycler) queueStates(n int) []trace.QueueState {
	if r != nil {
		for len(r.queues) > 0 {
			v := r.queues[len(r.queues)-1]
			r.queues[len(r.queues)-1] = nil
			r.queues = r.queues[:len(r.queues)-1]
			if cap(v) >= n {
				return v[:n]
			}
		}
	}
	return make([]trace.QueueState, n)
}

// list returns room for a list of n names (n > 0).
func (r *recycler) list(n int) []string {
	if r != nil {
		for len(r.lists) > 0 {
			v := r.lists[len(r.lists)-1]
			r.lists[len(r.lists)-1] = nil
			r.lists = r.lists[:len(r.lists)-1]
			if cap(v) >= n {
				return v[:0:n]
			}
		}
	}
	return make([]string, 0, n)
}

// retireRows, retireQueues and retireList record that the report being
// built replaces v, first reported in step born.
func (r *recycler) retireRows(v []trace.UsageRow, born int) {
	if r != nil && cap(v) > 0 {
		r.retiredRows = append(r.retiredRows, bornRows{born, v})
	}
}

func (r *recycler) retireQueues(v []trace.QueueState, born int) {
	if r != nil && cap(v) > 0 {
		r.retiredQueues = append(r.retiredQueues, bornQueues{born, v})
	}
}

func (r *recycler) retireList(v []string, born int) {
	if r != nil && cap(v) > 0 {
		r.retiredLists = append(r.retiredLists, bornList{born, v})
	}
}
