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
	// retired are the pieces the report being built replaced: they are
	// free after its step is compacted.
	retired []piece
	// rows, queues and lists are free; lists by capacity (each list is
	// made with the capacity of its length, at most QueueListCap, and
	// reused for a list of that length only, so that a short list never
	// stands in the way of a long one).
	rows   [][]trace.UsageRow
	queues [][]trace.QueueState
	lists  [QueueListCap + 1][][]string
}

// piece is one piece of a report (one of its fields set) and the step
// that first reported it.
type piece struct {
	born   int
	rows   []trace.UsageRow
	queues []trace.QueueState
	list   []string
}

// compacted records that step idx was compacted (whole if full) and
// frees what its report replaced and no kept step holds.
//
//go:noinline
func (r *recycler) compacted(idx int, full bool) {
	for _, p := range r.retired {
		if r.lastFull >= p.born {
			continue
		}
		// What a freed piece still points to is not written; it is
		// overwritten when the piece is used again.
		switch {
		case p.rows != nil:
			r.rows = append(r.rows, p.rows[:0])
		case p.queues != nil:
			r.queues = append(r.queues, p.queues)
		default:
			if c := cap(p.list); c <= QueueListCap {
				r.lists[c] = append(r.lists[c], p.list)
			}
		}
	}
	clear(r.retired)
	r.retired = r.retired[:0]
	if full {
		r.lastFull = idx
	}
}

// retire records that the report being built replaces p, unless p is
// empty.
//
//go:noinline
func (r *recycler) retire(p piece) {
	if r != nil && (cap(p.rows) > 0 || cap(p.queues) > 0 || cap(p.list) > 0) {
		r.retired = append(r.retired, p)
	}
}

// usageRows returns room for n usage rows.
//
//go:noinline
func (r *recycler) usageRows(n int) []trace.UsageRow {
	if r != nil {
		for k := len(r.rows) - 1; k >= 0; k-- {
			v := r.rows[k]
			r.rows[k], r.rows = nil, r.rows[:k]
			if cap(v) >= n {
				return v
			}
		}
	}
	return make([]trace.UsageRow, 0, n)
}

// queueStates returns n zero queue states.
//
//go:noinline
func (r *recycler) queueStates(n int) []trace.QueueState {
	if r != nil {
		for k := len(r.queues) - 1; k >= 0; k-- {
			v := r.queues[k]
			r.queues[k], r.queues = nil, r.queues[:k]
			if cap(v) >= n {
				return v[:n] // every state is written
			}
		}
	}
	return make([]trace.QueueState, n)
}

// list returns room for a list of n names (0 < n <= QueueListCap), with
// no more.
//
//go:noinline
func (r *recycler) list(n int) []string {
	if r != nil {
		if free := r.lists[n]; len(free) > 0 {
			k := len(free) - 1
			v := free[k]
			free[k], r.lists[n] = nil, free[:k]
			return v[:0]
		}
	}
	return make([]string, 0, n)
}
