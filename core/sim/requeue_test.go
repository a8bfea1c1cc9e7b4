package sim_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/coretest"
	"github.com/kueueplay/kueueplay/core/preempt"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
)

// TestRequeueMergesInQueueOrder runs cohorts whose queues park many
// workloads of mixed priorities (their keys in another order) and
// requeue them all when a workload finishes, so that requeueTree merges
// batches into heaps that hold some already: every invariant, the heap's
// queue order among them, holds after every step.
func TestRequeueMergesInQueueOrder(t *testing.T) {
	cases := map[string]struct {
		queues, workloads int
	}{
		"one queue":         {queues: 1, workloads: 60},
		"a cohort of three": {queues: 3, workloads: 40},
		"a cohort of six":   {queues: 6, workloads: 30},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			sc := &core.Scenario{Name: "requeue", CycleDuration: 100 * time.Millisecond, Flavors: []core.ResourceFlavor{coretest.Flavor("default")}}
			for q := range tc.queues {
				cq := fmt.Sprintf("cq-%d", q)
				b := coretest.MakeClusterQueue(cq).Group(core.ResourceCPU).Flavor("default", "4")
				if tc.queues > 1 {
					b = b.Cohort("cohort")
				}
				sc.ClusterQueues = append(sc.ClusterQueues, b.Obj())
				sc.LocalQueues = append(sc.LocalQueues, core.LocalQueue{Namespace: "default", Name: cq, ClusterQueue: cq})
				for i := range tc.workloads {
					sc.Workloads = append(sc.Workloads, coretest.MakeWorkload("default", fmt.Sprintf("%s-w%03d", cq, i), cq, 1).
						Request(core.ResourceCPU, fmt.Sprint(1+(i*5)%3)).
						Priority(int32((i*7)%4*10)).
						Arrival(time.Duration(i%7)*300*time.Millisecond).
						Runtime(time.Duration(1+(i*3)%4)*time.Second).Obj())
				}
			}
			requeued := 0
			tr := sim.Run(sc, sim.Options{Observe: func(s *sim.State, st *trace.Step) {
				for _, v := range sim.CheckInvariants(s) {
					t.Fatalf("step %d: %s", st.Index, v)
				}
				for _, ev := range st.Events {
					if ev.Kind == trace.EventRequeue {
						requeued = max(requeued, len(ev.Workloads))
					}
				}
			}})
			if tr.End != "quiescent" {
				t.Fatalf("run ended with %q", tr.End)
			}
			if requeued < 10 {
				t.Fatalf("at most %d workloads requeued at once: too few to merge", requeued)
			}
		})
	}
}

// TestHeapOrderAfterReclaimWhileBorrowing requeues workloads preempted
// with reason InCohortReclaimWhileBorrowing next to workloads of the same
// priority created after them: with PrioritySortingWithinCohort off their
// queue-order timestamp is the preemption plus 1ms (queueTime), which
// the heap's searches read from a bit set (heapKeyOf); CheckInvariants
// checks every heap against the order computed from each Workload.
func TestHeapOrderAfterReclaimWhileBorrowing(t *testing.T) {
	for name, sorting := range map[string]bool{"PrioritySortingWithinCohort off": false, "PrioritySortingWithinCohort on": true} {
		t.Run(name, func(t *testing.T) {
			sc := decodeFile(t, "../../testdata/scenarios/preemption-borrow-within-cohort.yaml")
			low := slices.IndexFunc(sc.Workloads, func(w core.Workload) bool { return w.Key() == "open-batch/low" })
			if low < 0 {
				t.Fatal("no workload open-batch/low")
			}
			for k := range 3 {
				w := sc.Workloads[low]
				w.Name = fmt.Sprintf("late-%d", k)
				w.Admission = nil // pending, created after low
				sc.Workloads = append(sc.Workloads, w)
			}
			together := 0
			tr := sim.Run(sc, sim.Options{Gates: core.FeatureGates{core.GatePrioritySortingWithinCohort: sorting}, Observe: func(s *sim.State, st *trace.Step) {
				for _, v := range sim.CheckInvariants(s) {
					t.Fatalf("step %d: %s", st.Index, v)
				}
				for _, q := range s.Queues {
					reclaimed, others := false, false
					for i := range q.Heap.All {
						if p := s.Workload(i).Preempted; p != nil && p.Reason == preempt.ReasonInCohortReclaimWhileBorrowing {
							reclaimed = true
						} else {
							others = true
						}
					}
					if reclaimed && others {
						together++
					}
				}
			}})
			if tr.End == "" {
				t.Fatal("run ended without a reason")
			}
			if together == 0 {
				t.Fatal("no heap held a workload preempted while borrowing with others")
			}
		})
	}
}
