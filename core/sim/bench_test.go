package sim_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/coretest"
	"github.com/kueueplay/kueueplay/core/sim"
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
