package view

import (
	"cmp"
	"maps"
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
// the whole trace. An OverviewBuilder fed the run's steps as they were
// made gives the same Overview without the walk.
func (m *Model) Overview() *Overview {
	tr := m.tr
	times := make([]int64, len(tr.Steps))
	for i := range tr.Steps {
		times[i] = tr.Steps[i].TimeMs
	}
	return m.overview(times, m.collect())
}

// overview puts the Overview together from the steps' times and the
// usage rows' and queues' change logs (gathered after the run, or as it
// went), with the summary (trace.Summarize) and the workloads' timeline,
// which read the steps' events and decisions as the trace keeps them.
func (m *Model) overview(times []int64, c *collector) *Overview {
	tr := m.tr
	o := &Overview{Steps: len(times), EndMs: tr.EndMs, TimesMs: times, Summary: trace.Summarize(tr)}
	var tl timeline
	tl.init(len(tr.Workloads))
	for i := range tr.Steps {
		tl.step(i, &tr.Steps[i])
	}
	rows, queues := c.logs()
	o.Usage = m.usageCharts(rows)
	o.Pending = pendingChart(queues, len(times))
	end := tr.EndMs
	if n := len(times); n > 0 {
		end = max(end, times[n-1])
	}
	o.Timeline = tl.finish(tr, end, max(0, len(times)-1))
	for i := range o.Usage {
		o.Usage[i].Chart.finish(o.TimesMs, end)
	}
	o.Pending.finish(o.TimesMs, end)
	return o
}

// OverviewBuilder gathers the part of a run's Overview that costs most
// after the run, as the run makes its steps (sim.Options.Stop gives each
// with its full usage and its queues' counts): the usage rows' and the
// queues' change logs, which a pass over the trace rebuilds by replaying
// its deltas (trace.QueueDelta: at 15,000 workloads half of the
// Overview's time in WebAssembly, and several times what the builder costs
// the run). The summary and the timeline cost the same either way and
// are left to after the run, when the page is busy drawing the result.
// Give it every step in order, then call Overview with the Model of the
// run's trace; Model.Overview gives the same Overview from the trace
// alone.
type OverviewBuilder struct {
	times  []int64
	col    collector
	qs     []queueCounts
	keys   []rowKey // the previous step's rows
	broken bool     // a step came out of order
}

// NewOverviewBuilder starts an Overview before a run's first step.
func NewOverviewBuilder() *OverviewBuilder {
	b := &OverviewBuilder{}
	b.col.init()
	return b
}

// Step takes the run's next step in full: its usage rows (every row)
// and its queues (every ClusterQueue, with exact counts; the lists of
// names are not read). It keeps nothing of st's Usage and Queues, which
// a run reuses.
func (b *OverviewBuilder) Step(st *trace.Step) {
	i := len(b.times)
	if b.broken || st.Index != i {
		b.broken = true
		return
	}
	b.times = append(b.times, st.TimeMs)
	if i == 0 || b.newLayout(st) {
		b.qs = b.qs[:0]
		for q := range st.Queues {
			s := &st.Queues[q]
			b.qs = append(b.qs, queueCounts{ClusterQueue: s.ClusterQueue, PendingCount: s.PendingCount, ParkedCount: s.ParkedCount})
		}
		b.col.full(i, st.Usage, b.qs)
		b.keys = b.keys[:0]
		for r := range st.Usage {
			b.keys = append(b.keys, keyOf(&st.Usage[r]))
		}
		return
	}
	for r := range st.Usage {
		b.col.row(i, r, &st.Usage[r])
	}
	for q := range st.Queues {
		s := &st.Queues[q]
		b.col.queue(i, q, int64(s.PendingCount+s.ParkedCount))
	}
}

// newLayout reports whether st's rows or queues are not the previous
// step's (the step a Compactor makes Full for it): collect then looks
// them up by name again.
func (b *OverviewBuilder) newLayout(st *trace.Step) bool {
	if len(st.Usage) != len(b.keys) || len(st.Queues) != len(b.qs) {
		return true
	}
	for r := range st.Usage {
		if keyOf(&st.Usage[r]) != b.keys[r] {
			return true
		}
	}
	for q := range st.Queues {
		if st.Queues[q].ClusterQueue != b.qs[q].ClusterQueue {
			return true
		}
	}
	return false
}

func keyOf(r *trace.UsageRow) rowKey {
	return rowKey{nodeKey{r.Kind, r.Node}, r.Flavor, r.Resource}
}

// Overview is the run's Overview, m the Model of the run's trace; nil
// when the steps given are not the trace's (Model.Overview then gives
// it).
func (b *OverviewBuilder) Overview(m *Model) *Overview {
	if b == nil || b.broken || len(b.times) != m.Len() {
		return nil
	}
	return m.overview(b.times, &b.col)
}

// rowValues is what a usage row shows at a point.
type rowValues struct {
	present     bool
	used, quota int64
	limit       int64
	hasLimit    bool
}

func valuesOf(r *trace.UsageRow) rowValues {
	v := rowValues{present: true, used: r.Used, quota: r.SubtreeQuota}
	if r.BorrowingLimit != nil {
		v.hasLimit, v.limit = true, r.SubtreeQuota+*r.BorrowingLimit
	}
	return v
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

// rowLog is a usage row's change log (changes[rowValues]'s, as changes
// gives it) in a third of the space, kept while a run goes
// (OverviewBuilder): in most changes only the amount used changes, so
// each change keeps its step and that amount, and the rest of the
// values (rowValues with used 0) is a log of its own, of the steps where
// it changed. What a run allocates is what the garbage collector walks
// the run's trace for, in WebAssembly without a concurrent marker.
type rowLog struct {
	steps []int32
	used  []int64
	// fixedSteps and fixed are the rest of the values from each step on.
	fixedSteps []int32
	fixed      []rowValues
	// full is the last Full step that listed the row.
	full int
}

// set records that the value is v after step i, as changes.set does.
func (l *rowLog) set(i int, v rowValues) {
	f := v
	f.used = 0
	n := len(l.steps)
	if n > 0 && l.used[n-1] == v.used && l.fixed[len(l.fixed)-1] == f {
		return
	}
	if n > 0 && int(l.steps[n-1]) == i {
		l.used[n-1] = v.used
	} else {
		l.steps, l.used = append(l.steps, int32(i)), append(l.used, v.used)
	}
	switch m := len(l.fixed); {
	case m > 0 && l.fixed[m-1] == f:
	case m > 0 && int(l.fixedSteps[m-1]) == i:
		l.fixed[m-1] = f
	default:
		l.fixedSteps, l.fixed = append(l.fixedSteps, int32(i)), append(l.fixed, f)
	}
}

// changes is the log as changes[rowValues] keeps it.
func (l *rowLog) changes() []change[rowValues] {
	out := make([]change[rowValues], len(l.steps))
	j := 0
	for k, st := range l.steps {
		for j+1 < len(l.fixedSteps) && l.fixedSteps[j+1] <= st {
			j++
		}
		v := l.fixed[j]
		v.used = l.used[k]
		out[k] = change[rowValues]{int(st), v}
	}
	return out
}

// collector keeps every usage row's and every ClusterQueue's pending
// count's changes, step by step: on a Full step (full) every row and
// queue, looked up by name; on another only what changed (row, queue),
// by position in the last Full step.
type collector struct {
	rows      map[rowKey]*rowLog
	queues    map[string]*changes[int64]
	rowLogs   []*rowLog         // the last Full step's rows
	queueLogs []*changes[int64] // and queues
}

func (c *collector) init() {
	c.rows = map[rowKey]*rowLog{}
	c.queues = map[string]*changes[int64]{}
}

// full takes Full step i's rows and queues: a row or queue that the last
// Full step had and this one has not is gone from i on.
func (c *collector) full(i int, usage []trace.UsageRow, qs []queueCounts) {
	old := c.rowLogs
	c.rowLogs = make([]*rowLog, len(usage))
	for r := range usage {
		row := &usage[r]
		k := keyOf(row)
		l := c.rows[k]
		if l == nil {
			l = &rowLog{}
			c.rows[k] = l
		}
		c.rowLogs[r] = l
		l.full = i
		l.set(i, valuesOf(row))
	}
	for _, l := range old {
		if l.full != i { // gone
			l.set(i, rowValues{})
		}
	}
	oldQ := c.queueLogs
	c.queueLogs = make([]*changes[int64], len(qs))
	for q := range qs {
		l := c.queues[qs[q].ClusterQueue]
		if l == nil {
			l = &changes[int64]{}
			c.queues[qs[q].ClusterQueue] = l
		}
		c.queueLogs[q] = l
		l.full = i
		l.set(i, int64(qs[q].PendingCount+qs[q].ParkedCount))
	}
	for _, l := range oldQ {
		if l.full != i { // gone
			l.set(i, -1)
		}
	}
}

// row takes row r's values after step i.
func (c *collector) row(i, r int, row *trace.UsageRow) {
	if r >= 0 && r < len(c.rowLogs) {
		c.rowLogs[r].set(i, valuesOf(row))
	}
}

// queue takes queue q's pending count after step i.
func (c *collector) queue(i, q int, n int64) {
	if q >= 0 && q < len(c.queueLogs) {
		c.queueLogs[q].set(i, n)
	}
}

// logs returns the change logs by row and by ClusterQueue.
func (c *collector) logs() (map[rowKey][]change[rowValues], map[string][]change[int64]) {
	outRows := make(map[rowKey][]change[rowValues], len(c.rows))
	for k, l := range c.rows {
		outRows[k] = l.changes()
	}
	outQueues := make(map[string][]change[int64], len(c.queues))
	for k, l := range c.queues {
		outQueues[k] = l.log
	}
	return outRows, outQueues
}

// collect replays the trace once into a collector. On a step that is
// not Full only the rows and queues it changed are looked at.
func (m *Model) collect() *collector {
	tr := m.tr
	var c collector
	c.init()
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
			c.full(i, usage, qs)
			continue
		}
		for _, ch := range st.UsageChanges {
			if ch.Row >= 0 && ch.Row < len(usage) {
				u := &usage[ch.Row]
				u.Used, u.Terminating, u.Borrowed, u.Lent, u.Available = ch.Used, ch.Terminating, ch.Borrowed, ch.Lent, ch.Available
				c.row(i, ch.Row, u)
			}
		}
		queueChanges.Each(st, func(ch *trace.QueueChange) {
			if ch.Queue >= 0 && ch.Queue < len(qs) {
				q := &qs[ch.Queue]
				q.pendingLen, q.parkedLen = ch.Pending.Len(q.pendingLen), ch.Parked.Len(q.parkedLen)
				q.PendingCount, q.ParkedCount = countOr(ch.PendingCount, q.pendingLen), countOr(ch.ParkedCount, q.parkedLen)
				c.queue(i, ch.Queue, int64(q.PendingCount+q.ParkedCount))
			}
		})
	}
	return &c
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

// timeline builds the workloads' lanes from the events and decisions,
// step by step: an arrival after step 0 starts a waiting span; an
// arrival on step 0 (a workload pasted with status.admission) an
// admitted one; an admission ends the first waiting span and starts an
// admitted one; an eviction turns admitted into terminating (and, by a
// preemptor, is a PreemptionMark); a release ends terminating (a release
// without an eviction before it ends what step 0 started: a workload
// pasted as evicted was terminating all along); a finish or deletion
// ends it all.
type timeline struct {
	// The workloads in order of appearance, found by name through byName
	// (an index into ws, which a pointer to its element would not survive
	// growing). A *tlWorkload from get or find is used before the next get.
	ws     []tlWorkload
	byName map[string]int
	// spans is every span closed so far, with its workload: finish gives
	// each lane its own out of one array rather than an append per span
	// (a slice grown per workload was most of the Overview's allocations
	// at 15,000 workloads).
	spans     []tlSpan
	evictions []tlEvict
}

type tlOpen struct {
	kind     SpanKind // "": none
	fromMs   int64
	fromStep int
}

type tlWorkload struct {
	workload, cq string
	created      int64 // -1: before the run or never
	open         tlOpen
	admitted     bool // admitted at least once
	spans        int  // how many spans it has
}

type tlSpan struct {
	w    int
	span Span
}

type tlEvict struct {
	step      int
	ms        int64
	victim    string
	preemptor string
}

// init starts a timeline for about n workloads (with about two spans
// each: waiting, then admitted).
func (t *timeline) init(n int) {
	t.ws = make([]tlWorkload, 0, n)
	t.byName = make(map[string]int, n)
	t.spans = make([]tlSpan, 0, 2*n)
}

func (t *timeline) get(name, cq string) int {
	i, ok := t.byName[name]
	if !ok {
		i = len(t.ws)
		t.ws = append(t.ws, tlWorkload{workload: name, cq: cq, created: -1})
		t.byName[name] = i
	}
	if cq != "" {
		t.ws[i].cq = cq
	}
	return i
}

func (t *timeline) closeSpan(i int, ms int64, step int) {
	w := &t.ws[i]
	if w.open.kind == "" {
		return
	}
	t.spans = append(t.spans, tlSpan{i, Span{Kind: w.open.kind, FromMs: w.open.fromMs, ToMs: ms, FromStep: w.open.fromStep, ToStep: step}})
	w.spans++
	w.open = tlOpen{}
}

func (t *timeline) startSpan(i int, kind SpanKind, ms int64, step int) {
	t.closeSpan(i, ms, step)
	t.ws[i].open = tlOpen{kind, ms, step}
}

// step takes step i's events and decisions.
func (t *timeline) step(i int, st *trace.Step) {
	for _, e := range st.Events {
		if e.Workload == "" {
			continue
		}
		switch e.Kind {
		case trace.EventArrival:
			w := t.get(e.Workload, e.ClusterQueue)
			if st.Kind == trace.StepInitial {
				t.ws[w].admitted = true
				t.startSpan(w, SpanAdmitted, st.TimeMs, i)
			} else if t.ws[w].created < 0 && !t.ws[w].admitted {
				t.ws[w].created = st.TimeMs
				t.startSpan(w, SpanWaiting, st.TimeMs, i)
			}
		case trace.EventEvict:
			w := t.get(e.Workload, e.ClusterQueue)
			if t.ws[w].open.kind == SpanAdmitted {
				t.startSpan(w, SpanTerminating, st.TimeMs, i)
			}
			if e.Preemptor != "" {
				t.evictions = append(t.evictions, tlEvict{i, st.TimeMs, e.Workload, e.Preemptor})
			}
		case trace.EventRelease:
			w := t.get(e.Workload, e.ClusterQueue)
			if t.ws[w].open.kind == SpanAdmitted {
				t.ws[w].open.kind = SpanTerminating // pasted as evicted
			}
			t.closeSpan(w, st.TimeMs, i)
		case trace.EventFinish, trace.EventDelete:
			if w, ok := t.byName[e.Workload]; ok {
				t.closeSpan(w, st.TimeMs, i)
			}
		}
	}
	for _, d := range st.Decisions {
		if d.Outcome != trace.OutcomeAdmitted {
			continue
		}
		w := t.get(d.Workload, d.ClusterQueue)
		t.ws[w].admitted = true
		t.startSpan(w, SpanAdmitted, st.TimeMs, i)
	}
}

// finish ends every open span at end (step last) and lays the lanes out:
// one per workload with spans, by ClusterQueue (the last one it was
// queued in; a workload never admitted's from tr's final states, as its
// priority), then time of creation, then name.
func (t *timeline) finish(tr *trace.Trace, end int64, last int) WorkloadTimeline {
	for i := range t.ws {
		t.closeSpan(i, end, last)
	}
	prio := make([]int32, len(t.ws))
	for _, f := range tr.Workloads {
		if i, ok := t.byName[f.Workload]; ok {
			prio[i] = f.Priority
			if f.ClusterQueue != "" {
				t.ws[i].cq = f.ClusterQueue
			}
		}
	}
	// Each workload's spans, in the order they were closed (time order),
	// carved out of one array.
	all := make([]Span, len(t.spans))
	at := make([]int, len(t.ws))
	n := 0
	for i := range t.ws {
		at[i] = n
		n += t.ws[i].spans
	}
	lanes := make([][]Span, len(t.ws))
	for i := range t.ws {
		lanes[i] = all[at[i] : at[i] : at[i]+t.ws[i].spans]
	}
	for _, s := range t.spans {
		lanes[s.w] = append(lanes[s.w], s.span)
	}
	// The sort compares each ClusterQueue's rank by name, and the
	// workloads' names only between two of one ClusterQueue created at
	// one time (comparing every pair's names, as cmp.Or's arguments did,
	// was a sixth of the Overview's time in WebAssembly).
	rank := map[string]int32{}
	for i := range t.ws {
		rank[t.ws[i].cq] = 0
	}
	names := slices.Sorted(maps.Keys(rank))
	for r, n := range names {
		rank[n] = int32(r)
	}
	type laneKey struct {
		cq      int32
		i       int32
		created int64
	}
	order := make([]laneKey, len(t.ws))
	for i := range t.ws {
		order[i] = laneKey{rank[t.ws[i].cq], int32(i), t.ws[i].created}
	}
	slices.SortFunc(order, func(a, b laneKey) int {
		if a.cq != b.cq {
			return cmp.Compare(a.cq, b.cq)
		}
		if a.created != b.created {
			return cmp.Compare(a.created, b.created)
		}
		return strings.Compare(t.ws[a.i].workload, t.ws[b.i].workload)
	})
	index := make([]int, len(t.ws)) // each workload's lane, -1 without spans
	var out WorkloadTimeline
	for _, k := range order {
		i := int(k.i)
		w := &t.ws[i]
		index[i] = -1
		if w.spans == 0 {
			continue
		}
		if out.Lanes == nil {
			out.Lanes = make([]Lane, 0, len(t.ws))
		}
		index[i] = len(out.Lanes)
		out.Lanes = append(out.Lanes, Lane{Workload: w.workload, ClusterQueue: w.cq, Priority: prio[i], Spans: lanes[i]})
	}
	lane := func(name string) (int, bool) {
		if i, ok := t.byName[name]; ok && index[i] >= 0 {
			return index[i], true
		}
		return 0, false
	}
	for _, e := range t.evictions {
		v, ok := lane(e.victim)
		if !ok {
			continue
		}
		p, ok := lane(e.preemptor)
		if !ok {
			p = -1
		}
		out.Preemptions = append(out.Preemptions, PreemptionMark{Step: e.step, TimeMs: e.ms, Victim: v, Preemptor: p, PreemptorName: e.preemptor})
	}
	return out
}
