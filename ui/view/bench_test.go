package view

import (
	"strconv"
	"testing"

	"github.com/kueueplay/kueueplay/core/trace"
)

// bigTrace is a hand-made trace of BenchmarkCycle's shape: 30
// ClusterQueues in 5 cohorts, 15,000 workloads, a cycle with 30 heads
// every step, queue lists capped at 50 names.
func bigTrace(steps int) *trace.Trace {
	const cqs, cohorts, workloads = 30, 5, 15_000
	names := make([]string, 50)
	for i := range names {
		names[i] = "ns/w-" + strconv.Itoa(i)
	}
	tr := &trace.Trace{Version: trace.Version, End: "quiescent"}
	for w := range workloads {
		tr.Workloads = append(tr.Workloads, trace.WorkloadState{Workload: "ns/w-" + strconv.Itoa(w), Status: trace.StatusFinished})
	}
	for s := range steps {
		st := trace.Step{Index: s, Kind: trace.StepCycle, Cycle: s, TimeMs: int64(s) * 1000}
		if s == 0 {
			st.Kind = trace.StepInitial
		}
		for c := range cqs {
			cq := "cq-" + strconv.Itoa(c)
			cohort := "cohort-" + strconv.Itoa(c%cohorts)
			for _, res := range []string{"cpu", "memory"} {
				st.Usage = append(st.Usage, trace.UsageRow{Node: cq, Kind: "ClusterQueue", Parent: cohort, Flavor: "default", Resource: res,
					Used: int64((s*7+c)%20) * 1000, Nominal: 10_000, SubtreeQuota: 10_000, Available: 5000})
			}
			st.Queues = append(st.Queues, trace.QueueState{ClusterQueue: cq, Active: true, Pending: names, PendingCount: 400,
				Admitted: names[:10], AdmittedCount: 10})
			if s > 0 {
				w := names[(s+c)%50]
				st.Heads = append(st.Heads, trace.Head{ClusterQueue: cq, Workload: w})
				st.Decisions = append(st.Decisions, trace.Decision{Workload: w, ClusterQueue: cq, Order: c + 1, Outcome: trace.OutcomeAdmitted,
					Admission: []trace.PodSetFlavors{{PodSet: "main", Flavors: []trace.ResourceFlavor{{Resource: "cpu", Flavor: "default"}}}},
					PodSets: []trace.PodSetDecision{{PodSet: "main", Count: 1, Groups: []trace.GroupAttempt{{Resources: []string{"cpu"},
						Attempts: []trace.FlavorAttempt{{Flavor: "default", Mode: "Fit", Rule: "fits", Best: true}}, Chosen: "default"}}}}})
			}
		}
		for k := range cohorts {
			for _, res := range []string{"cpu", "memory"} {
				st.Usage = append(st.Usage, trace.UsageRow{Node: "cohort-" + strconv.Itoa(k), Kind: "Cohort", Flavor: "default", Resource: res,
					Used: 1000, SubtreeQuota: 60_000, Available: 5000})
			}
		}
		tr.Steps = append(tr.Steps, st)
	}
	tr.Cycles = steps - 1
	return tr
}

// BenchmarkModelStep is the cost of moving the scrubber by one step in a
// 10,000-step trace: it must not depend on the number of steps.
func BenchmarkModelStep(b *testing.B) {
	tr := bigTrace(10_000)
	m := New(tr)
	i := 0
	for b.Loop() {
		m.Step(i % m.Len())
		i += 37
	}
}

// BenchmarkNew is the one-off cost of preparing a 10,000-step trace.
func BenchmarkNew(b *testing.B) {
	tr := bigTrace(10_000)
	for b.Loop() {
		New(tr)
	}
}

func BenchmarkTimelineAndLog(b *testing.B) {
	tr := bigTrace(10_000)
	for b.Loop() {
		Timeline(tr)
		EventLog(tr)
	}
}

func BenchmarkFirstDifference(b *testing.B) {
	l, r := bigTrace(10_000), bigTrace(10_000)
	for b.Loop() {
		if FirstDifference(l, r) != nil {
			b.Fatal("identical traces differ")
		}
	}
}

func BenchmarkSVG(b *testing.B) {
	m := New(bigTrace(100))
	for b.Loop() {
		_ = SVG(m.Step(50), SVGOptions{}).String()
	}
}

// compacted is bigTrace(steps) as the engine writes it: deltas between
// Full steps (trace.Compactor).
func compacted(steps int) *trace.Trace {
	tr := bigTrace(steps)
	var c trace.Compactor
	for i := range tr.Steps {
		tr.Steps[i] = c.Compact(tr.Steps[i])
	}
	return tr
}

// BenchmarkOverview is the once-per-run cost of the Overview on 1,000
// and 10,000 steps: it must grow linearly with the steps.
func BenchmarkOverview(b *testing.B) {
	for _, steps := range []int{1_000, 10_000} {
		b.Run(strconv.Itoa(steps), func(b *testing.B) {
			m := New(compacted(steps))
			for b.Loop() {
				m.Overview()
			}
		})
	}
}
