package sim_test

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
)

// perfRecorder collects, from sim.Options.Observe, the figures Kueue's
// scalability runner records (test/performance/scheduler/runner/recorder):
// each ClusterQueue's time-integral of used quota (CQState.CPUUsed, in
// milli-units x ms) and each workload's first admission. The rest (last
// admission, finish, evictions) is read from the final State. Per step it
// does O(#ClusterQueues) map lookups plus O(#decisions), so it does not
// weigh on the run.
type perfRecorder struct {
	fr      core.FlavorResource
	lastNow time.Duration
	// used is each ClusterQueue's usage after the last step; usedMs its
	// integral over virtual time (milli-units x ms).
	used   []int64
	usedMs []int64
	// firstAdmit is each workload's first admission time, -1 if none.
	firstAdmit []time.Duration
	evictions  int
	cycles     int
	final      *sim.State
}

func newPerfRecorder(fr core.FlavorResource) *perfRecorder { return &perfRecorder{fr: fr} }

func (r *perfRecorder) observe(s *sim.State, st *trace.Step) {
	if r.used == nil {
		r.used = make([]int64, len(s.Queues))
		r.usedMs = make([]int64, len(s.Queues))
		r.firstAdmit = make([]time.Duration, s.NumWorkloads())
		for i := range r.firstAdmit {
			r.firstAdmit[i] = -1
		}
	}
	if dt := (s.Now - r.lastNow).Milliseconds(); dt > 0 {
		for qi, u := range r.used {
			r.usedMs[qi] += u * dt
		}
	}
	r.lastNow = s.Now
	for qi, q := range s.Queues {
		r.used[qi] = s.Tree.Used(q.Node, r.fr)
	}
	for _, e := range st.Events {
		if e.Kind == trace.EventEvict {
			r.evictions++
		}
	}
	if st.Kind == trace.StepCycle {
		r.cycles++
		for _, d := range st.Decisions {
			if d.Outcome == trace.OutcomeAdmitted {
				if i := s.WorkloadIndex(d.Workload); i >= 0 && r.firstAdmit[i] < 0 {
					r.firstAdmit[i] = s.Now
				}
			}
		}
	}
	r.final = s
}

// classSummary mirrors Kueue's WorkloadsClassSummary, plus the time to
// the first admission (Kueue's recorder overwrites TimeToAdmitMs on every
// re-admission, so its figure is the time to the last admission).
type classSummary struct {
	Name                 string
	Count                int
	Evictions            int
	AvgToAdmitMs         float64 // creation to last admission (Kueue's figure)
	AvgToFirstAdmitMs    float64
	AvgToFinishMs        float64
	MaxToAdmitMs         float64
	totAdmit, totFirst   float64
	totFinish            float64
	unadmitted, unfinish int
}

// cqSummary is one ClusterQueue's time-weighted average usage over the
// run, as a percentage of its nominal quota (Kueue's checker: CPUUsed *
// 100 / (nominalQuota * elapsedMs)).
type cqSummary struct {
	Name    string
	Cohort  string
	Nominal int64
	UsedMs  int64
	Pct     float64
}

type perfSummary struct {
	ElapsedMs int64
	Classes   []*classSummary
	CQs       []cqSummary
	// ClassUsagePct is the whole ClusterQueue class's usage (Kueue's
	// CQGroupSummary): sum of integrals over sum of nominal x elapsed.
	ClassUsagePct       float64
	MinPct, MaxPct      float64
	Evictions           int
	Unfinished          int
	NotAdmitted         int
	InvariantViolations []string
}

// summarize computes the summary; class names the workload's class.
func (r *perfRecorder) summarize(class func(w *sim.Workload) string) perfSummary {
	s := r.final
	sum := perfSummary{ElapsedMs: s.Now.Milliseconds(), Evictions: r.evictions, MinPct: 1e18}
	byName := map[string]*classSummary{}
	for i, w := range s.All() {
		name := class(w)
		c := byName[name]
		if c == nil {
			c = &classSummary{Name: name}
			byName[name] = c
			sum.Classes = append(sum.Classes, c)
		}
		c.Count++
		c.Evictions += w.Preemptions
		if w.Status != sim.Finished {
			c.unfinish++
			sum.Unfinished++
		}
		if r.firstAdmit[i] < 0 {
			c.unadmitted++
			sum.NotAdmitted++
			continue
		}
		last := float64((w.AdmittedAt - w.Spec.Arrival).Milliseconds())
		c.totAdmit += last
		c.MaxToAdmitMs = max(c.MaxToAdmitMs, last)
		c.totFirst += float64((r.firstAdmit[i] - w.Spec.Arrival).Milliseconds())
		if w.Status == sim.Finished && w.Spec.Runtime != nil {
			c.totFinish += float64((w.AdmittedAt + *w.Spec.Runtime - w.Spec.Arrival).Milliseconds())
		}
	}
	for _, c := range sum.Classes {
		if n := float64(c.Count - c.unadmitted); n > 0 {
			c.AvgToAdmitMs = c.totAdmit / n
			c.AvgToFirstAdmitMs = c.totFirst / n
		}
		if n := float64(c.Count - c.unfinish); n > 0 {
			c.AvgToFinishMs = c.totFinish / n
		}
	}
	slices.SortFunc(sum.Classes, func(a, b *classSummary) int { return strings.Compare(a.Name, b.Name) })
	var totUsed, totNominal float64
	for qi, q := range s.Queues {
		nominal := s.Tree.Nodes[q.Node].Quotas[r.fr].Nominal
		cs := cqSummary{Name: q.Spec.Name, Cohort: q.Spec.Cohort, Nominal: nominal, UsedMs: r.usedMs[qi]}
		if nominal > 0 && sum.ElapsedMs > 0 {
			cs.Pct = float64(cs.UsedMs) * 100 / (float64(nominal) * float64(sum.ElapsedMs))
		}
		sum.MinPct = min(sum.MinPct, cs.Pct)
		sum.MaxPct = max(sum.MaxPct, cs.Pct)
		totUsed += float64(cs.UsedMs)
		totNominal += float64(nominal)
		sum.CQs = append(sum.CQs, cs)
	}
	if totNominal > 0 && sum.ElapsedMs > 0 {
		sum.ClassUsagePct = totUsed * 100 / (totNominal * float64(sum.ElapsedMs))
	}
	sum.InvariantViolations = sim.CheckInvariants(s)
	return sum
}

// String prints the summary in the shape of Kueue's summary.yaml.
func (p perfSummary) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "virtual time %d ms, evictions %d\n", p.ElapsedMs, p.Evictions)
	fmt.Fprintf(&b, "clusterQueueClasses: cq: averageUsage %.2f%% of nominal (per CQ min %.2f%%, max %.2f%%)\n", p.ClassUsagePct, p.MinPct, p.MaxPct)
	b.WriteString("workloadClasses:\n")
	for _, c := range p.Classes {
		fmt.Fprintf(&b, "  %-7s count %5d  avgTimeToAdmission %8.0f ms (first admission %8.0f ms, max %8.0f ms)  avgTimeToFinish %8.0f ms  evictions %d\n",
			c.Name, c.Count, c.AvgToAdmitMs, c.AvgToFirstAdmitMs, c.MaxToAdmitMs, c.AvgToFinishMs, c.Evictions)
	}
	// One line (the testing package keeps only 10 lines of a benchmark's
	// log), queues grouped by cohort.
	b.WriteString("clusterQueues average usage, % of nominal, by cohort:")
	cohorts := map[string][]string{}
	var order []string
	for _, q := range p.CQs {
		if _, ok := cohorts[q.Cohort]; !ok {
			order = append(order, q.Cohort)
		}
		cohorts[q.Cohort] = append(cohorts[q.Cohort], fmt.Sprintf("%.2f", q.Pct))
	}
	slices.Sort(order)
	for _, c := range order {
		fmt.Fprintf(&b, " %s [%s]", c, strings.Join(cohorts[c], " "))
	}
	b.WriteString("\n")
	return b.String()
}
