// Package scalability writes Kueue v0.16.1's scheduler scalability test as
// a kueueplay scenario file: the `baseline` generator
// (test/performance/scheduler/configs/baseline/generator.yaml) with 5
// cohorts of 6 ClusterQueues (nominal 20 cpu, borrowing limit 100 of one
// flavor, withinClusterQueue LowerPriority, reclaimWithinCohort Any) and,
// per ClusterQueue, three classes of Workloads: small (1 cpu, priority 50,
// 200 ms), medium (5 cpu, priority 100, 500 ms) and large (20 cpu,
// priority 200, 1 s), created every 100 / 500 / 1200 ms. Kueue's
// generator sleeps the interval before each creation, so the i-th
// workload of a class arrives at (i+1) x interval.
//
// The total defaults to Kueue's 15,000 (350 + 100 + 50 per ClusterQueue);
// another total scales each class's count in proportion, keeping the
// shape (1,500 is 35 + 10 + 5 per ClusterQueue). The file is written as
// users write manifests: one Workload document each, block style, with
// the kueueplay/arrival and kueueplay/runtime annotations.
package scalability

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"time"
)

// class is one workload class of the baseline generator.
type class struct {
	name     string
	count    int
	interval time.Duration
	cpu      int
	priority int
	runtime  time.Duration
}

var baseline = []class{
	{"small", 350, 100 * time.Millisecond, 1, 50, 200 * time.Millisecond},
	{"medium", 100, 500 * time.Millisecond, 5, 100, 500 * time.Millisecond},
	{"large", 50, 1200 * time.Millisecond, 20, 200, time.Second},
}

const (
	cohorts         = 5
	queuesPerCohort = 6
)

// scaled returns the baseline classes with their per-queue counts scaled
// so that all queues together hold about total workloads (at least one of
// each class).
func scaled(total int) []class {
	base := 0
	for _, c := range baseline {
		base += c.count
	}
	f := float64(total) / float64(base*cohorts*queuesPerCohort)
	out := make([]class, len(baseline))
	for i, c := range baseline {
		c.count = max(1, int(math.Round(float64(c.count)*f)))
		out[i] = c
	}
	return out
}

// Baseline is the number of workloads of Kueue's own test.
const Baseline = 15000

// Write writes the scenario with about total workloads (exactly total
// when it is a multiple of 500 x 30 / 50) to w, with spec.cycleDuration
// cycle, and returns how many it wrote. Kueue's scheduler runs its cycles
// back to back, a few milliseconds each on this shape; 100ms keeps the
// cycle count near a thousand at 15,000 workloads, 10ms (what
// core/sim's BenchmarkPreemption uses) makes wait times closer to
// Kueue's at ten times the cycles.
func Write(w io.Writer, total int, cycle time.Duration) (int, error) {
	bw := bufio.NewWriter(w)
	n := write(bw, scaled(total), cycle)
	return n, bw.Flush()
}

func write(w *bufio.Writer, classes []class, cycle time.Duration) int {
	n := 0
	for _, c := range classes {
		n += c.count
	}
	n *= cohorts * queuesPerCohort
	fmt.Fprintf(w, `# Kueue v0.16.1's scheduler scalability test (test/performance/scheduler,
# configs/baseline/generator.yaml), written by scripts/scalability with
# %d workloads. Kueue's own checker compares each class's average time
# from creation to admission and the ClusterQueues' average usage.
apiVersion: kueueplay/v1alpha1
kind: Scenario
metadata:
  name: scalability-baseline-%d
spec:
  description: >-
    Kueue's scheduler scalability test: 5 cohorts of 6 ClusterQueues,
    %d workloads in three priority classes arriving over time, with
    preemption within each ClusterQueue and reclaim within each cohort.
  cycleDuration: %s
  maxCycles: 100000
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata:
  name: default
`, n, n, n, cycle)
	for c := range cohorts {
		for q := range queuesPerCohort {
			name := fmt.Sprintf("cq-0-%d-cohort-%d", q, c)
			fmt.Fprintf(w, `---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata:
  name: %s
spec:
  cohortName: cohort-%d
  namespaceSelector: {}
  preemption:
    withinClusterQueue: LowerPriority
    reclaimWithinCohort: Any
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: default
      resources:
      - name: cpu
        nominalQuota: "20"
        borrowingLimit: "100"
---
apiVersion: v1
kind: Namespace
metadata:
  name: %s
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata:
  name: %s
  namespace: %s
spec:
  clusterQueue: %s
`, name, c, name, name, name, name)
			for set, cl := range classes {
				for i := range cl.count {
					fmt.Fprintf(w, `---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata:
  name: %s-%d-%d-0
  namespace: %s
  annotations:
    kueueplay/arrival: %s
    kueueplay/runtime: %s
spec:
  queueName: %s
  priority: %d
  podSets:
  - name: main
    count: 1
    template:
      spec:
        containers:
        - name: c
          resources:
            requests:
              cpu: "%d"
`, cl.name, set, i, name, time.Duration(i+1)*cl.interval, cl.runtime, name, cl.priority, cl.cpu)
				}
			}
		}
	}
	return n
}
