package view

import (
	"cmp"
	"slices"
	"strings"

	"github.com/kueueplay/kueueplay/core/trace"
)

// Overview is a whole run as data to chart, for runs too long to step
// through: every ClusterQueue's and Cohort's usage over time against its
// quota and borrowing limit, the pending workloads of every ClusterQueue
// over time, the figures of Kueue's scalability checker (trace.Summarize:
// time from creation to admission per ClusterQueue and priority, each
// ClusterQueue's average usage) and a timeline of every workload's
// admitted intervals and preemptions.
//
// It is computed once per run (Model.Overview) in one pass over the
// trace's steps (a Replay that reads only what each step changed) plus
// trace.Summarize's own pass, so its cost is linear in the trace. The
// series are sparse: a chart has a point at step 0, at every step where
// one of its values changed, and at the run's end (EndMs), and a value
// holds until the next point (draw them as steps). Amounts are in the
// trace's internal units (milli-cpu, bytes, counts); Divisor turns them
// into the Unit shown.
type Overview struct {
	// Steps is the number of steps; EndMs the run's end.
	Steps int   `json:"steps"`
	EndMs int64 `json:"endMs"`
	// TimesMs is every step's virtual time, to find the step shown at a
	// time (StepAt).
	TimesMs []int64 `json:"timesMs"`
	// Usage is one chart per ClusterQueue or Cohort and resource, in the
	// quota panel's order (the cohort forest, depth first).
	Usage []UsageChart `json:"usage"`
	// Pending is the pending workloads of every ClusterQueue.
	Pending Chart `json:"pending"`
	// Timeline is every workload's intervals and the preemptions.
	Timeline WorkloadTimeline `json:"timeline"`
	// Summary is trace.Summarize's figures (laid out as tables, not sent
	// to the charts).
	Summary trace.Summary `json:"-"`
}

// Chart is a set of series over the same points.
type Chart struct {
	// ID names the chart on the page (data-chart): "usage-N" or
	// "pending".
	ID    string `json:"id"`
	Title string `json:"title"`
	// Unit is what the values are in once divided by Divisor: "CPU",
	// "GiB", "" (counts or the resource's own unit), "workloads".
	Unit    string `json:"unit"`
	Divisor int64  `json:"divisor"`
	// XMs are the points' times and Steps their steps: Steps[i] is the
	// step whose state the point shows (the last point, at EndMs, shows
	// the last step).
	XMs    []int64  `json:"xMs"`
	Steps  []int    `json:"steps"`
	Series []Series `json:"series"`
}

// Series is one line of a chart: one value per point.
type Series struct {
	Label string `json:"label"`
	// Kind is "used", "quota" (nominal quota; a Cohort's subtree
	// quota), "limit" (quota plus borrowing limit) or "pending".
	Kind   string  `json:"kind"`
	Flavor string  `json:"flavor,omitempty"`
	Values []int64 `json:"values"`
	// Gaps are the points (indexes into Values) where the series has no
	// value: its row or queue did not exist, or had no borrowing limit.
	Gaps []int `json:"gaps,omitempty"`
}

// UsageChart is one node's usage of one resource, per flavor.
type UsageChart struct {
	Chart
	Kind     string `json:"kind"` // ClusterQueue or Cohort
	Node     string `json:"node"`
	Parent   string `json:"parent,omitempty"`
	Depth    int    `json:"depth"`
	Resource string `json:"resource"`
}

// WorkloadTimeline is one lane per workload that was ever created or admitted,
// by ClusterQueue (the last one it was queued in), then time of creation,
// then name.
type WorkloadTimeline struct {
	Lanes       []Lane           `json:"lanes"`
	Preemptions []PreemptionMark `json:"preemptions,omitempty"`
}

// Lane is one workload's spans, in time order.
type Lane struct {
	Workload     string `json:"workload"`
	ClusterQueue string `json:"cq"`
	Priority     int32  `json:"priority"`
	Spans        []Span `json:"spans"`
}

// SpanKind is what a workload was doing during a span.
type SpanKind string

const (
	// SpanWaiting is from creation to the first admission (what the
	// summary's time to admission measures).
	SpanWaiting SpanKind = "waiting"
	// SpanAdmitted is from an admission to an eviction, finish or
	// deletion (or the run's end).
	SpanAdmitted SpanKind = "admitted"
	// SpanTerminating is from an eviction to the quota's release: the
	// workload still holds its quota.
	SpanTerminating SpanKind = "terminating"
)

// Span is [FromMs, ToMs) of one kind, from step FromStep to step ToStep
// (the step that ended it, or the last step).
type Span struct {
	Kind     SpanKind `json:"kind"`
	FromMs   int64    `json:"fromMs"`
	ToMs     int64    `json:"toMs"`
	FromStep int      `json:"fromStep"`
	ToStep   int      `json:"toStep"`
}

// PreemptionMark is one eviction by preemption: Victim and Preemptor are
// lane indexes (Preemptor -1 when the preemptor has no lane).
type PreemptionMark struct {
	Step          int    `json:"step"`
	TimeMs        int64  `json:"timeMs"`
	Victim        int    `json:"victim"`
	Preemptor     int    `json:"preemptor"`
	PreemptorName string `json:"preemptorName"`
}

// StepAt returns the step a chart shows at time ms: the last step at or
// before it (the state after everything that happened by then), step 0
// before the first step's time, the last step after the end.
func (o *Overview) StepAt(ms int64) int {
	if len(o.TimesMs) == 0 {
		return 0
	}
	i, _ := slices.BinarySearch(o.TimesMs, ms+1) // first step after ms
	return max(0, i-1)
}

// Overview computes the run's overview. Call it once per run: it walks
// the whole trace.
func (m *Model) Overview() *Overview {
	tr := m.tr
	o := &Overview{Steps: len(tr.Steps), EndMs: tr.EndMs, TimesMs: make([]int64, len(tr.Steps)), Summary: trace.Summarize(tr)}
	for i := range tr.Steps {
		o.TimesMs[i] = tr.Steps[i].TimeMs
	}
	rows, queues := m.collect()
	o.Usage = m.usageCharts(rows)
	o.Pending = pendingChart(queues, len(tr.Steps))
	o.Timeline = workloadTimeline(tr)
	end := tr.EndMs
	if n := len(tr.Steps); n > 0 {
		end = max(end, tr.Steps[n-1].TimeMs)
	}
	for i := range o.Usage {
		o.Usage[i].Chart.finish(o.TimesMs, end)
	}
	o.Pending.finish(o.TimesMs, end)
	return o
}

// rowValues is what a usage row shows at a point.
type rowValues struct {
	present     bool
	used, quota int64
	limit       int64
	hasLimit    bool
}

// change is a value a row or queue took at a step.
type change[T any] struct {
	step int
	v    T
}

// changes is one row's or queue's change log.
type changes[T comparable] struct {
	log []change[T]
	// full is the last Full step that listed the row or queue.
	full int
}

// set records that the value is v after step i.
func (c *changes[T]) set(i int, v T) {
	n := len(c.log)
	switch {
	case n > 0 && c.log[n-1].v == v:
	case n > 0 && c.log[n-1].step == i:
		c.log[n-1].v = v
	default:
		c.log = append(c.log, change[T]{i, v})
	}
}

// collect replays the trace once and returns every usage row's and every
// ClusterQueue's pending count's changes, step by step. On a step that is
// not Full only the rows and queues it changed are looked at, through
// the logs of the last Full step's rows and queues by position.
func (m *Model) collect() (map[rowKey][]change[rowValues], map[string][]change[int64]) {
	tr := m.tr
	rows := map[rowKey]*changes[rowValues]{}
	queues := map[string]*changes[int64]{}
	var rowLogs []*changes[rowValues] // the last Full step's rows
	var queueLogs []*changes[int64]   // and queues
	values := func(r *trace.UsageRow) rowValues {
		v := rowValues{present: true, used: r.Used, quota: r.SubtreeQuota}
		if r.BorrowingLimit != nil {
			v.hasLimit, v.limit = true, r.SubtreeQuota+*r.BorrowingLimit
		}
		return v
	}
	// The rows and the queues' counts after each step, replayed here
	// rather than by trace.Replay, which rebuilds every changed queue's
	// lists of names (half of what the Overview allocated at 15,000
	// workloads): a count needs only the lists' lengths (trace.ListEdit.Len).
	var usage []trace.UsageRow
	var qs []queueCounts
	var queueChanges trace.QueueChangeReader
	for i := range tr.Steps {
		st := &tr.Steps[i]
		if st.IsFull() || i == 0 {
			usage = append(usage[:0], st.Usage...)
			qs = qs[:0]
			for q := range st.Queues {
				s := &st.Queues[q]
				qs = append(qs, queueCounts{s.ClusterQueue, len(s.Pending), len(s.Parked), s.PendingCount, s.ParkedCount})
			}
		} else {
			for _, c := range st.UsageChanges {
				if c.Row >= 0 && c.Row < len(usage) {
					u := &usage[c.Row]
					u.Used, u.Terminating, u.Borrowed, u.Lent, u.Available = c.Used, c.Terminating, c.Borrowed, c.Lent, c.Available
				}
			}
			queueChanges.Each(st, func(c *trace.QueueChange) {
				if c.Queue >= 0 && c.Queue < len(qs) {
					q := &qs[c.Queue]
					q.pendingLen, q.parkedLen = c.Pending.Len(q.pendingLen), c.Parked.Len(q.parkedLen)
					q.PendingCount, q.ParkedCount = countOr(c.PendingCount, q.pendingLen), countOr(c.ParkedCount, q.parkedLen)
				}
			})
		}
		if st.IsFull() || i == 0 {
			old := rowLogs
			rowLogs = make([]*changes[rowValues], len(usage))
			for r := range usage {
				row := &usage[r]
				k := rowKey{nodeKey{row.Kind, row.Node}, row.Flavor, row.Resource}
				c := rows[k]
				if c == nil {
					c = &changes[rowValues]{}
					rows[k] = c
				}
				rowLogs[r] = c
				c.full = i
				c.set(i, values(row))
			}
			for _, c := range old {
				if c.full != i { // gone
					c.set(i, rowValues{})
				}
			}
			oldQ := queueLogs
			queueLogs = make([]*changes[int64], len(qs))
			for q := range qs {
				c := queues[qs[q].ClusterQueue]
				if c == nil {
					c = &changes[int64]{}
					queues[qs[q].ClusterQueue] = c
				}
				queueLogs[q] = c
				c.full = i
				c.set(i, int64(qs[q].PendingCount+qs[q].ParkedCount))
			}
			for _, c := range oldQ {
				if c.full != i { // gone
					c.set(i, -1)
				}
			}
			continue
		}
		for _, c := range st.UsageChanges {
			if c.Row >= 0 && c.Row < len(usage) && c.Row < len(rowLogs) {
				rowLogs[c.Row].set(i, values(&usage[c.Row]))
			}
		}
		queueChanges.Each(st, func(c *trace.QueueChange) {
			if c.Queue >= 0 && c.Queue < len(qs) && c.Queue < len(queueLogs) {
				q := &qs[c.Queue]
				queueLogs[c.Queue].set(i, int64(q.PendingCount+q.ParkedCount))
			}
		})
	}
	outRows := make(map[rowKey][]change[rowValues], len(rows))
	for k, c := range rows {
		outRows[k] = c.log
	}
	outQueues := make(map[string][]change[int64], len(queues))
	for k, c := range queues {
		outQueues[k] = c.log
	}
	return outRows, outQueues
}

// queueCounts is what collect keeps of a ClusterQueue's queue: the
// lengths of its pending and parked lists of names and its counts, as
// trace.Replay would give them (a count in a change, else the list's
// length).
type queueCounts struct {
	ClusterQueue              string
	pendingLen, parkedLen     int
	PendingCount, ParkedCount int
}

// countOr is trace's countOf: n, or the list's length when n is 0.
func countOr(n, length int) int {
	if n == 0 {
		return length
	}
	return n
}

// usageCharts makes one chart per node and resource, in the forest's
// order, with the series of each flavor: used, quota and (when the row
// has one at some point) quota plus borrowing limit.
func (m *Model) usageCharts(rows map[rowKey][]change[rowValues]) []UsageChart {
	var out []UsageChart
	f := &m.forest
	var visit func(i int)
	visit = func(i int) {
		n := &f.nodes[i]
		parent := ""
		if n.parent >= 0 {
			parent = f.nodes[n.parent].key.name
		}
		// Resources in the order of the node's (sorted) bars.
		var resources []string
		for _, b := range n.bars {
			if !slices.Contains(resources, b.resource) {
				resources = append(resources, b.resource)
			}
		}
		slices.Sort(resources)
		for _, res := range resources {
			unit, div := resourceUnit(res)
			c := UsageChart{Kind: n.key.kind, Node: n.key.name, Parent: parent, Depth: n.depth, Resource: res}
			c.Chart = Chart{ID: "usage-" + itoa(len(out)), Title: n.key.kind + " " + n.key.name + ": " + res, Unit: unit, Divisor: div}
			var flavors []string
			var logs [][]change[rowValues]
			for _, b := range n.bars {
				if b.resource == res {
					flavors = append(flavors, b.flavor)
					logs = append(logs, rows[rowKey{n.key, b.flavor, b.resource}])
				}
			}
			c.Chart.usageSeries(flavors, logs)
			out = append(out, c)
		}
		for _, ch := range n.children {
			visit(ch)
		}
	}
	for _, r := range f.roots {
		visit(r)
	}
	return out
}

// usageSeries builds a usage chart's points and series from each
// flavor's change log: a point at every step where a flavor's row
// changed; per flavor the series used, quota and, when the row has a
// borrowing limit at some point, limit (a gap where it has none, or
// where the row does not exist).
func (c *Chart) usageSeries(flavors []string, logs [][]change[rowValues]) {
	first := make([]int, len(logs)+1) // each flavor's first series
	for fi, fl := range flavors {
		first[fi] = len(c.Series)
		c.Series = append(c.Series, Series{Label: fl + " used", Kind: "used", Flavor: fl}, Series{Label: fl + " quota", Kind: "quota", Flavor: fl})
		if slices.ContainsFunc(logs[fi], func(ch change[rowValues]) bool { return ch.v.hasLimit }) {
			c.Series = append(c.Series, Series{Label: fl + " borrowing limit", Kind: "limit", Flavor: fl})
		}
	}
	first[len(logs)] = len(c.Series)
	cur := make([]rowValues, len(logs))
	next := make([]int, len(logs))
	for {
		step := -1
		for fi, log := range logs {
			if next[fi] < len(log) && (step < 0 || log[next[fi]].step < step) {
				step = log[next[fi]].step
			}
		}
		if step < 0 {
			return
		}
		c.Steps = append(c.Steps, step)
		for fi, log := range logs {
			if next[fi] < len(log) && log[next[fi]].step == step {
				cur[fi] = log[next[fi]].v
				next[fi]++
			}
			v := cur[fi]
			for k := first[fi]; k < first[fi+1]; k++ {
				s := &c.Series[k]
				var x int64
				ok := v.present
				switch s.Kind {
				case "used":
					x = v.used
				case "quota":
					x = v.quota
				case "limit":
					x, ok = v.limit, ok && v.hasLimit
				}
				if !ok {
					x = 0
					s.Gaps = append(s.Gaps, len(s.Values))
				}
				s.Values = append(s.Values, x)
			}
		}
	}
}

// pendingChart is the pending workloads (in the heap or parked) of every
// ClusterQueue by name, after a first series with their total.
func pendingChart(queues map[string][]change[int64], steps int) Chart {
	c := Chart{ID: "pending", Title: "Pending workloads per ClusterQueue", Unit: "workloads", Divisor: 1}
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range queues {
			if !yield(n) {
				return
			}
		}
	})
	c.Series = append(c.Series, Series{Label: "all ClusterQueues", Kind: "pending"})
	for _, n := range names {
		c.Series = append(c.Series, Series{Label: n, Kind: "pending"})
	}
	cur := make([]int64, len(names))
	for i := range cur {
		cur[i] = -1
	}
	next := make([]int, len(names))
	for {
		step := -1
		for q, n := range names {
			log := queues[n]
			if next[q] < len(log) && (step < 0 || log[next[q]].step < step) {
				step = log[next[q]].step
			}
		}
		if step < 0 {
			break
		}
		c.Steps = append(c.Steps, step)
		var total int64
		for q, n := range names {
			log := queues[n]
			if next[q] < len(log) && log[next[q]].step == step {
				cur[q] = log[next[q]].v
				next[q]++
			}
			s := &c.Series[q+1]
			s.Values = append(s.Values, max(cur[q], 0))
			if cur[q] < 0 {
				s.Gaps = append(s.Gaps, len(s.Values)-1)
			} else {
				total += cur[q]
			}
		}
		c.Series[0].Values = append(c.Series[0].Values, total)
	}
	return c
}

// finish sets the points' times and adds the point at the run's end,
// which repeats the last values (a value holds until the next point).
func (c *Chart) finish(times []int64, endMs int64) {
	c.XMs = make([]int64, len(c.Steps), len(c.Steps)+1)
	for i, s := range c.Steps {
		c.XMs[i] = times[s]
	}
	n := len(c.Steps)
	if n == 0 || c.XMs[n-1] >= endMs {
		return
	}
	c.XMs = append(c.XMs, endMs)
	c.Steps = append(c.Steps, len(times)-1)
	for k := range c.Series {
		s := &c.Series[k]
		s.Values = append(s.Values, s.Values[n-1])
		if len(s.Gaps) > 0 && s.Gaps[len(s.Gaps)-1] == n-1 {
			s.Gaps = append(s.Gaps, n)
		}
	}
}

// resourceUnit is the unit a resource's charts are drawn in and the
// divisor from the trace's internal unit.
func resourceUnit(res string) (string, int64) {
	switch {
	case res == "cpu":
		return "CPU", 1000
	case res == "memory" || res == "ephemeral-storage" || strings.HasPrefix(res, "hugepages-"):
		return "GiB", 1 << 30
	}
	return "", 1
}

// workloadTimeline builds the workloads' lanes from the events and decisions:
// an arrival after step 0 starts a waiting span; an arrival on step 0 (a
// workload pasted with status.admission) an admitted one; an admission
// ends the first waiting span and starts an admitted one; an eviction
// turns admitted into terminating (and, by a preemptor, is a
// PreemptionMark); a release ends terminating (a release without an
// eviction before it ends what step 0 started: a workload pasted as
// evicted was terminating all along); a finish or deletion ends it all.
func workloadTimeline(tr *trace.Trace) WorkloadTimeline {
	type open struct {
		kind     SpanKind // "": none
		fromMs   int64
		fromStep int
	}
	type wl struct {
		lane     Lane
		created  int64 // -1: before the run or never
		open     open
		admitted bool // admitted at least once
		index    int  // its lane's index, -1 without spans
	}
	// The workloads in order of appearance, found by name through byName
	// (an index into ws, which a pointer to its element would not survive
	// growing). A *wl from get or find is used before the next get.
	ws := make([]wl, 0, len(tr.Workloads))
	byName := make(map[string]int, len(tr.Workloads))
	get := func(name, cq string) *wl {
		i, ok := byName[name]
		if !ok {
			i = len(ws)
			ws = append(ws, wl{lane: Lane{Workload: name, ClusterQueue: cq}, created: -1})
			byName[name] = i
		}
		w := &ws[i]
		if cq != "" {
			w.lane.ClusterQueue = cq
		}
		return w
	}
	find := func(name string) *wl {
		if i, ok := byName[name]; ok {
			return &ws[i]
		}
		return nil
	}
	closeSpan := func(w *wl, ms int64, step int) {
		if w.open.kind == "" {
			return
		}
		w.lane.Spans = append(w.lane.Spans, Span{Kind: w.open.kind, FromMs: w.open.fromMs, ToMs: ms, FromStep: w.open.fromStep, ToStep: step})
		w.open = open{}
	}
	startSpan := func(w *wl, kind SpanKind, ms int64, step int) {
		closeSpan(w, ms, step)
		w.open = open{kind, ms, step}
	}
	type evict struct {
		step      int
		ms        int64
		victim    string
		preemptor string
	}
	var evictions []evict
	for i := range tr.Steps {
		st := &tr.Steps[i]
		for _, e := range st.Events {
			if e.Workload == "" {
				continue
			}
			switch e.Kind {
			case trace.EventArrival:
				w := get(e.Workload, e.ClusterQueue)
				if st.Kind == trace.StepInitial {
					w.admitted = true
					startSpan(w, SpanAdmitted, st.TimeMs, i)
				} else if w.created < 0 && !w.admitted {
					w.created = st.TimeMs
					startSpan(w, SpanWaiting, st.TimeMs, i)
				}
			case trace.EventEvict:
				w := get(e.Workload, e.ClusterQueue)
				if w.open.kind == SpanAdmitted {
					startSpan(w, SpanTerminating, st.TimeMs, i)
				}
				if e.Preemptor != "" {
					evictions = append(evictions, evict{i, st.TimeMs, e.Workload, e.Preemptor})
				}
			case trace.EventRelease:
				w := get(e.Workload, e.ClusterQueue)
				if w.open.kind == SpanAdmitted {
					w.open.kind = SpanTerminating // pasted as evicted
				}
				closeSpan(w, st.TimeMs, i)
			case trace.EventFinish, trace.EventDelete:
				if w := find(e.Workload); w != nil {
					closeSpan(w, st.TimeMs, i)
				}
			}
		}
		for _, d := range st.Decisions {
			if d.Outcome != trace.OutcomeAdmitted {
				continue
			}
			w := get(d.Workload, d.ClusterQueue)
			w.admitted = true
			startSpan(w, SpanAdmitted, st.TimeMs, i)
		}
	}
	last := max(0, len(tr.Steps)-1)
	end := tr.EndMs
	if len(tr.Steps) > 0 {
		end = max(end, tr.Steps[last].TimeMs)
	}
	for i := range ws {
		closeSpan(&ws[i], end, last)
	}
	// Priorities and queues of workloads never admitted come from the
	// final states.
	for _, f := range tr.Workloads {
		if w := find(f.Workload); w != nil {
			w.lane.Priority = f.Priority
			if f.ClusterQueue != "" {
				w.lane.ClusterQueue = f.ClusterQueue
			}
		}
	}
	order := make([]int, len(ws))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int {
		a, b := &ws[i], &ws[j]
		return cmp.Or(strings.Compare(a.lane.ClusterQueue, b.lane.ClusterQueue), cmp.Compare(a.created, b.created),
			strings.Compare(a.lane.Workload, b.lane.Workload))
	})
	var t WorkloadTimeline
	for _, i := range order {
		w := &ws[i]
		w.index = -1
		if len(w.lane.Spans) == 0 {
			continue
		}
		if t.Lanes == nil {
			t.Lanes = make([]Lane, 0, len(ws))
		}
		w.index = len(t.Lanes)
		t.Lanes = append(t.Lanes, w.lane)
	}
	lane := func(name string) (int, bool) {
		if w := find(name); w != nil && w.index >= 0 {
			return w.index, true
		}
		return 0, false
	}
	for _, e := range evictions {
		v, ok := lane(e.victim)
		if !ok {
			continue
		}
		p, ok := lane(e.preemptor)
		if !ok {
			p = -1
		}
		t.Preemptions = append(t.Preemptions, PreemptionMark{Step: e.step, TimeMs: e.ms, Victim: v, Preemptor: p, PreemptorName: e.preemptor})
	}
	return t
}
