package trace

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/kueueplay/kueueplay/core"
)

// Summary is what a run comes to when it is too long to step through: the
// figures Kueue's scheduler scalability checker looks at
// (test/performance/scheduler: each workload class's average time from
// creation to admission, each ClusterQueue's average usage against its
// nominal quota), with workloads grouped by ClusterQueue and priority,
// since a scenario has no classes. It is computed from a Trace alone
// (Summarize), so the CLI, the API and the page agree.
type Summary struct {
	Scenario string
	End      string
	EndMs    int64
	Cycles   int
	// Workloads counts every workload of the run; Evictions every
	// eviction (by preemption or by a stopped queue).
	Workloads, Evictions int
	// Groups are the workloads by ClusterQueue (the last one they were
	// queued in; "" when none) and priority, sorted by ClusterQueue, then
	// priority from highest; ByPriority the same over all ClusterQueues.
	Groups     []GroupSummary
	ByPriority []GroupSummary
	// Usage is each ClusterQueue's usage of each flavor and resource it
	// has quota for, sorted by ClusterQueue, flavor and resource.
	Usage []UsageSummary
}

// GroupSummary is a set of workloads' times from creation to admission.
// Created counts those created during the run (an arrival event after the
// initial step); the times are over those of them admitted at least once,
// from creation to the first admission (Kueue's recorder keeps the last
// one; the two differ only for workloads evicted and admitted again).
// Workloads that start admitted (pasted with status.admission) have no
// creation time and count only in Count.
type GroupSummary struct {
	ClusterQueue string
	Priority     int32
	Count        int
	Created      int
	Admitted     int
	NotAdmitted  int // created and never admitted
	Finished     int
	Evictions    int
	AvgToAdmitMs float64
	P95ToAdmitMs int64
	MaxToAdmitMs int64
}

// UsageSummary is one ClusterQueue's usage of one flavor and resource over
// the run: its time-weighted average (Kueue's checker: the integral of
// used quota over the run's length), that average as a percentage of the
// nominal quota (above 100 when it borrows), and the peak.
type UsageSummary struct {
	ClusterQueue, Flavor, Resource string
	Nominal                        int64
	AvgUsed                        float64
	AvgPct                         float64 // 0 without nominal quota
	Peak                           int64
}

// Summarize computes the Summary of tr. Times come from the steps'
// TimeMs; usage is integrated step by step (a step's usage holds until the
// next step's time, the last until EndMs). It is a Summarizer given every
// step of tr.
func Summarize(tr *Trace) Summary {
	z := NewSummarizer()
	for i := range tr.Steps {
		z.Step(tr, &tr.Steps[i])
	}
	return z.Summary(tr)
}

// Summarizer computes a Summary from steps given one at a time, as a run
// makes them (a sim.Options.Sink), so that a run summarized need not keep
// its trace: it holds a few facts per workload and one accumulator per
// ClusterQueue usage row.
type Summarizer struct {
	replay *Replay
	facts  map[string]*wlFacts
	usage  map[usageKey]*usageAcc
	// accs are usage's accumulators in the order they were made, walked
	// at every step (a map's walk costs more).
	accs []*usageAcc
	// rows caches the accumulator of the replay's usage row at the same
	// index (nil for a Cohort's row); rows change only at a Full step.
	rows      []*usageAcc
	lastMs    int64
	evictions int
}

type wlFacts struct {
	created, admitted int64 // -1 when unknown
	evictions         int
}

type usageKey struct{ cq, flavor, resource string }

// usageAcc is one ClusterQueue usage row's figures so far: last is its
// usage after the latest step, used the integral of usage over time
// (units x ms) up to that step.
type usageAcc struct {
	sum  UsageSummary
	last int64
	used float64
	seen bool // a row has carried it, so last holds
}

// NewSummarizer starts a Summary before a run's first step.
func NewSummarizer() *Summarizer {
	r := NewReplay(nil)
	r.usageOnly = true // the summary reads no queue
	return &Summarizer{replay: r, facts: map[string]*wlFacts{}, usage: map[usageKey]*usageAcc{}}
}

func (z *Summarizer) fact(name string) *wlFacts {
	f := z.facts[name]
	if f == nil {
		f = &wlFacts{created: -1, admitted: -1}
		z.facts[name] = f
	}
	return f
}

// Step takes the run's next step (the signature of sim.Options.Sink).
func (z *Summarizer) Step(_ *Trace, st *Step) {
	z.replay.Push(st)
	z.advance(st.TimeMs)
	for _, e := range st.Events {
		switch e.Kind {
		case EventArrival:
			if f := z.fact(e.Workload); st.Kind != StepInitial && f.created < 0 {
				f.created = st.TimeMs
			}
		case EventEvict:
			z.fact(e.Workload).evictions++
			z.evictions++
		}
	}
	for _, d := range st.Decisions {
		if d.Outcome == OutcomeAdmitted {
			if f := z.fact(d.Workload); f.admitted < 0 {
				f.admitted = st.TimeMs
			}
		}
	}
	rows := z.replay.Usage()
	if st.IsFull() || len(z.rows) != len(rows) {
		z.rows = z.rows[:0]
		for _, r := range rows {
			var a *usageAcc
			if r.Kind == "ClusterQueue" {
				k := usageKey{r.Node, r.Flavor, r.Resource}
				if a = z.usage[k]; a == nil {
					a = &usageAcc{sum: UsageSummary{ClusterQueue: r.Node, Flavor: r.Flavor, Resource: r.Resource}}
					z.usage[k] = a
					z.accs = append(z.accs, a)
				}
			}
			z.rows = append(z.rows, a)
		}
	}
	for i, r := range rows {
		a := z.rows[i]
		if a == nil {
			continue
		}
		a.sum.Nominal = r.Nominal
		a.sum.Peak = max(a.sum.Peak, r.Used)
		a.last, a.seen = r.Used, true
	}
}

// advance integrates usage up to nowMs: the usage after the latest step
// holds until then.
func (z *Summarizer) advance(nowMs int64) {
	if dt := nowMs - z.lastMs; dt > 0 {
		for _, a := range z.accs {
			if a.seen {
				a.used += float64(a.last) * float64(dt)
			}
		}
	}
	z.lastMs = nowMs
}

// Summary ends the run: tr gives its end, cycles and workloads (the
// steps may have gone to a sink and not be in tr).
func (z *Summarizer) Summary(tr *Trace) Summary {
	s := Summary{Scenario: tr.Scenario, End: tr.End, EndMs: tr.EndMs, Cycles: tr.Cycles, Workloads: len(tr.Workloads), Evictions: z.evictions}
	z.advance(tr.EndMs)
	for _, a := range z.accs {
		u := a.sum
		if tr.EndMs > 0 {
			u.AvgUsed = a.used / float64(tr.EndMs)
		}
		if u.Nominal > 0 {
			u.AvgPct = u.AvgUsed * 100 / float64(u.Nominal)
		}
		s.Usage = append(s.Usage, u)
	}
	slices.SortFunc(s.Usage, func(a, b UsageSummary) int {
		return cmp.Or(strings.Compare(a.ClusterQueue, b.ClusterQueue), strings.Compare(a.Flavor, b.Flavor), strings.Compare(a.Resource, b.Resource))
	})

	type groupKey struct {
		cq       string
		priority int32
	}
	waits := map[groupKey][]int64{}
	groups := map[groupKey]*GroupSummary{}
	byPrio := map[int32]*GroupSummary{}
	prioWaits := map[int32][]int64{}
	none := wlFacts{created: -1, admitted: -1}
	add := func(g *GroupSummary, f *wlFacts, finished bool) {
		g.Count++
		g.Evictions += f.evictions
		if finished {
			g.Finished++
		}
		if f.created < 0 {
			return
		}
		g.Created++
		if f.admitted < 0 {
			g.NotAdmitted++
			return
		}
		g.Admitted++
	}
	for _, w := range tr.Workloads {
		f := z.facts[w.Workload]
		if f == nil {
			f = &none
		}
		k := groupKey{w.ClusterQueue, w.Priority}
		g := groups[k]
		if g == nil {
			g = &GroupSummary{ClusterQueue: w.ClusterQueue, Priority: w.Priority}
			groups[k] = g
		}
		p := byPrio[w.Priority]
		if p == nil {
			p = &GroupSummary{Priority: w.Priority}
			byPrio[w.Priority] = p
		}
		finished := w.Status == StatusFinished
		add(g, f, finished)
		add(p, f, finished)
		if f.created >= 0 && f.admitted >= 0 {
			waits[k] = append(waits[k], f.admitted-f.created)
			prioWaits[w.Priority] = append(prioWaits[w.Priority], f.admitted-f.created)
		}
	}
	for k, g := range groups {
		g.setTimes(waits[k])
		s.Groups = append(s.Groups, *g)
	}
	for p, g := range byPrio {
		g.setTimes(prioWaits[p])
		s.ByPriority = append(s.ByPriority, *g)
	}
	slices.SortFunc(s.Groups, func(a, b GroupSummary) int {
		return cmp.Or(strings.Compare(a.ClusterQueue, b.ClusterQueue), cmp.Compare(b.Priority, a.Priority))
	})
	slices.SortFunc(s.ByPriority, func(a, b GroupSummary) int { return cmp.Compare(b.Priority, a.Priority) })
	return s
}

// setTimes sets the average, the 95th percentile (nearest rank) and the
// maximum of waits (ms).
func (g *GroupSummary) setTimes(waits []int64) {
	if len(waits) == 0 {
		return
	}
	slices.Sort(waits)
	var sum int64
	for _, w := range waits {
		sum += w
	}
	g.AvgToAdmitMs = float64(sum) / float64(len(waits))
	g.P95ToAdmitMs = waits[(len(waits)*95+99)/100-1]
	g.MaxToAdmitMs = waits[len(waits)-1]
}

// FormatSummary writes s as text: the run, then the times to admission by
// ClusterQueue and priority and over all ClusterQueues, then the usage.
func FormatSummary(w io.Writer, s Summary) error {
	name := s.Scenario
	if name == "" {
		name = "(unnamed)"
	}
	fmt.Fprintf(w, "summary of %s: %d workloads, %d cycles, %v of virtual time (%s), %d evictions\n",
		name, s.Workloads, s.Cycles, time.Duration(s.EndMs)*time.Millisecond, s.End, s.Evictions)
	fmt.Fprintln(w, "\ntime from creation to first admission, by ClusterQueue and priority:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "clusterQueue\tpriority\tworkloads\tcreated\tadmitted\tnever\tfinished\tevictions\tavg\tp95\tmax\t")
	row := func(cq string, g GroupSummary) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t%s\t\n", cq, g.Priority, g.Count, g.Created, g.Admitted,
			g.NotAdmitted, g.Finished, g.Evictions, waitText(int64(g.AvgToAdmitMs+0.5), g.Admitted), waitText(g.P95ToAdmitMs, g.Admitted), waitText(g.MaxToAdmitMs, g.Admitted))
	}
	for _, g := range s.Groups {
		cq := g.ClusterQueue
		if cq == "" {
			cq = "(none)"
		}
		row(cq, g)
	}
	for _, g := range s.ByPriority {
		row("all", g)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nClusterQueue usage, time-weighted average over the run:")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "clusterQueue\tflavor/resource\tnominal\tavg\tavg/nominal\tpeak\t")
	for _, u := range s.Usage {
		pct := "-"
		if u.Nominal > 0 {
			pct = fmt.Sprintf("%.1f%%", u.AvgPct)
		}
		r := core.ResourceName(u.Resource)
		fmt.Fprintf(tw, "%s\t%s/%s\t%s\t%s\t%s\t%s\t\n", u.ClusterQueue, u.Flavor, u.Resource, core.FormatAmount(r, core.Amount(u.Nominal)),
			core.FormatAmount(r, core.Amount(math.Round(u.AvgUsed))), pct, core.FormatAmount(r, core.Amount(u.Peak)))
	}
	return tw.Flush()
}

// waitText formats a wait in milliseconds, "-" when no workload was admitted.
func waitText(v int64, n int) string {
	if n == 0 {
		return "-"
	}
	return (time.Duration(v) * time.Millisecond).String()
}
