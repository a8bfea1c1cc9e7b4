package sim_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/coretest"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
)

// benchScenario builds 30 ClusterQueues in 5 cohorts of 6, each with two
// flavors (nominal 20 cpu on-demand, 10 cpu spot, borrowing limit 100 on
// on-demand), and 15,000 workloads (500 per queue) of 1, 5 or 20 cpu
// arriving every 100 ms with runtimes of 2 to 20 s.
func benchScenario() *core.Scenario {
	sc := &core.Scenario{
		Name:          "bench",
		CycleDuration: 100 * time.Millisecond,
		MaxCycles:     core.MaxCyclesLimit,
		Flavors:       []core.ResourceFlavor{coretest.Flavor("on-demand"), coretest.Flavor("spot")},
	}
	sizes := []string{"1", "1", "1", "5", "20"}
	n := 0
	for c := range 5 {
		for q := range 6 {
			name := fmt.Sprintf("cq-%d-%d", c, q)
			sc.ClusterQueues = append(sc.ClusterQueues, coretest.MakeClusterQueue(name).
				Cohort(fmt.Sprintf("cohort-%d", c)).Group(core.ResourceCPU).
				Flavor("on-demand", "20").Limits(core.ResourceCPU, "100", "").
				Flavor("spot", "10").Obj())
			sc.LocalQueues = append(sc.LocalQueues, core.LocalQueue{Namespace: "default", Name: name, ClusterQueue: name})
			for i := range 500 {
				w := coretest.MakeWorkload("default", fmt.Sprintf("%s-w%03d", name, i), name, 1).
					Request(core.ResourceCPU, sizes[(i+q)%len(sizes)]).
					Priority(int32((i * 7) % 3 * 50)).
					Arrival(time.Duration(i) * 100 * time.Millisecond).
					Runtime(time.Duration(2+(i*13)%19) * time.Second)
				sc.Workloads = append(sc.Workloads, w.Obj())
				n++
			}
		}
	}
	return sc
}

// BenchmarkCycle reports the cost of one scheduling cycle (ns/cycle) on
// the 30-queue, 15,000-workload scenario, trace included. Run with
//
//	go test ./core/sim -run '^$' -bench Cycle -benchtime 3x
func BenchmarkCycle(b *testing.B) {
	sc := benchScenario()
	b.ResetTimer()
	cycles := 0
	for range b.N {
		tr := sim.Run(sc, sim.Options{})
		if tr.End != "quiescent" {
			b.Fatalf("run ended with %q after %d cycles", tr.End, tr.Cycles)
		}
		cycles += tr.Cycles
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(cycles), "ns/cycle")
	b.ReportMetric(float64(cycles)/float64(b.N), "cycles/run")
}

// perfClass is one workload class of Kueue's scalability baseline
// (test/performance/scheduler/configs/baseline/generator.yaml).
type perfClass struct {
	name     string
	count    int
	interval time.Duration
	request  string
	priority int32
	runtime  time.Duration
}

var perfClasses = []perfClass{
	{"small", 350, 100 * time.Millisecond, "1", 50, 200 * time.Millisecond},
	{"medium", 100, 500 * time.Millisecond, "5", 100, 500 * time.Millisecond},
	{"large", 50, 1200 * time.Millisecond, "20", 200, time.Second},
}

// perfScenario mirrors Kueue v0.16.1's scheduler scalability test
// (configs/baseline/generator.yaml): 5 cohorts of 6 ClusterQueues, each
// with nominal 20 cpu and borrowing limit 100 of one flavor, preemption
// withinClusterQueue LowerPriority and reclaimWithinCohort Any; per queue
// 350 small (1 cpu, priority 50, 200 ms), 100 medium (5 cpu, priority
// 100, 500 ms) and 50 large (20 cpu, priority 200, 1 s) workloads, each
// class created every 100 / 500 / 1200 ms. Names follow the generator:
// ClusterQueue "cq-0-<q>-cohort-<c>" in a namespace of the same name,
// workloads "<class>-<set>-<i>-0". The generator sleeps the interval
// before each creation, so the i-th workload of a class arrives at
// (i+1) x interval.
//
// cycleDuration is 10 ms: Kueue's scheduler runs cycles back to back, so
// one cycle is "as soon as the previous one is done" (a few ms for 30
// queues). 10 ms keeps the quantization of wait times under 5% of the
// shortest runtime (200 ms) and 10% of the shortest arrival interval,
// while keeping the cycle count (one per 10 ms of virtual time with a
// pending head) in the tens of thousands.
func perfScenario() *core.Scenario {
	sc := &core.Scenario{
		Name:          "perf-baseline",
		CycleDuration: 10 * time.Millisecond,
		MaxCycles:     core.MaxCyclesLimit,
		Flavors:       []core.ResourceFlavor{coretest.Flavor("rf")},
	}
	for c := range 5 {
		cohort := fmt.Sprintf("cohort-%d", c)
		for q := range 6 {
			name := fmt.Sprintf("cq-0-%d-%s", q, cohort)
			sc.ClusterQueues = append(sc.ClusterQueues, coretest.MakeClusterQueue(name).
				Cohort(cohort).Group(core.ResourceCPU).
				Flavor("rf", "20").Limits(core.ResourceCPU, "100", "").
				Preemption(core.PreemptionLowerPriority, core.PreemptionAny, core.PreemptionNever, nil).Obj())
			sc.LocalQueues = append(sc.LocalQueues, core.LocalQueue{Namespace: name, Name: name, ClusterQueue: name})
			for set, pc := range perfClasses {
				for i := range pc.count {
					sc.Workloads = append(sc.Workloads, coretest.MakeWorkload(name, fmt.Sprintf("%s-%d-%d-0", pc.name, set, i), name, 1).
						Request(core.ResourceCPU, pc.request).
						Priority(pc.priority).
						Arrival(time.Duration(i+1)*pc.interval).
						Runtime(pc.runtime).Obj())
				}
			}
		}
	}
	return sc
}

// perfClassOf is the class of a perfScenario workload: its name up to the
// first dash.
func perfClassOf(w *sim.Workload) string {
	n := w.Spec.Name
	if i := strings.IndexByte(n, '-'); i >= 0 {
		return n[:i]
	}
	return n
}

// BenchmarkPreemption runs Kueue's scalability baseline (perfScenario,
// 15,000 workloads, preemption-heavy) and reports what Kueue's checker
// checks: each workload class's average time from creation to admission
// (virtual ms) and the ClusterQueues' average usage (% of nominal, time
// weighted over the run), plus wall time, ns/cycle, cycles and
// evictions. The full summary is printed with b.Log. It fails if the run
// is truncated, an invariant is broken or a workload never finishes. Run
// with
//
//	go test ./core/sim -run '^$' -bench Preemption -benchtime 1x
func BenchmarkPreemption(b *testing.B) {
	sc := perfScenario()
	fr := core.FlavorResource{Flavor: "rf", Resource: core.ResourceCPU}
	b.ResetTimer()
	var rec *perfRecorder
	var tr *trace.Trace
	cycles := 0
	for range b.N {
		rec = newPerfRecorder(fr)
		tr = sim.Run(sc, sim.Options{Observe: rec.observe})
		cycles += tr.Cycles
	}
	b.StopTimer()
	if tr.End != "quiescent" {
		b.Fatalf("run ended with %q after %d cycles", tr.End, tr.Cycles)
	}
	sum := rec.summarize(perfClassOf)
	if len(sum.InvariantViolations) > 0 {
		b.Fatalf("invariants broken at the end of the run:\n%s", strings.Join(sum.InvariantViolations, "\n"))
	}
	if sum.Unfinished > 0 || sum.NotAdmitted > 0 {
		b.Fatalf("%d workloads never finished (%d never admitted)", sum.Unfinished, sum.NotAdmitted)
	}
	if rec.cycles != tr.Cycles {
		b.Fatalf("observed %d cycle steps, trace reports %d cycles", rec.cycles, tr.Cycles)
	}
	wall := b.Elapsed()
	b.Logf("wall %v/run, %d cycles/run, %.0f ns/cycle, %d steps\n%s",
		wall/time.Duration(b.N), tr.Cycles, float64(wall.Nanoseconds())/float64(cycles), len(tr.Steps), sum)
	for _, c := range sum.Classes {
		b.ReportMetric(c.AvgToAdmitMs, c.Name+"-admit-ms")
	}
	b.ReportMetric(sum.ClassUsagePct, "cq-usage-%")
	b.ReportMetric(float64(sum.Evictions), "evictions")
	b.ReportMetric(float64(wall.Milliseconds())/float64(b.N), "wall-ms/run")
	b.ReportMetric(float64(wall.Nanoseconds())/float64(cycles), "ns/cycle")
	b.ReportMetric(float64(cycles)/float64(b.N), "cycles/run")
}
