package sim_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
)

// TestSummarize checks trace.Summarize on a run worked out by hand. The
// ClusterQueue has 2 CPUs. a (priority 10, 1 CPU, 10s) is admitted at 0s;
// b (priority 10, 2 CPUs, 5s) arrives at 1s and waits for a to finish at
// 10s; c (priority 0, 1 CPU, 1s) arrives at 2s and fits at once.
func TestSummarize(t *testing.T) {
	const in = `apiVersion: kueueplay/v1alpha1
kind: Scenario
metadata: {name: sum}
spec: {cycleDuration: 1s}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: rf}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq}
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu]
    flavors: [{name: rf, resources: [{name: cpu, nominalQuota: "2"}]}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: q, namespace: ns}
spec: {clusterQueue: cq}
`
	wl := func(name, arrival, runtime, cpu string, priority int) string {
		return "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: " + name + ", namespace: ns, annotations: {kueueplay/arrival: " + arrival +
			", kueueplay/runtime: " + runtime + "}}\nspec:\n  queueName: q\n  priority: " + strconv.Itoa(priority) +
			"\n  podSets: [{name: main, count: 1, template: {spec: {containers: [{name: c, resources: {requests: {cpu: \"" + cpu + "\"}}}]}}}]\n"
	}
	sc, err := scenario.Decode("sum.yaml", []byte(in+wl("a", "0s", "10s", "1", 10)+wl("b", "1s", "5s", "2", 10)+wl("c", "2s", "1s", "1", 0)))
	if err != nil {
		t.Fatal(err)
	}
	got := trace.Summarize(sim.Run(sc, sim.Options{}))
	// Usage: 0-2s a (1), 2-3s a+c (2), 3-10s a (1), 10-15s b (2): 21
	// CPU-seconds over 15s, 1.4 CPUs, 70% of nominal.
	want := trace.Summary{
		Scenario: "sum", End: "quiescent", EndMs: 15000, Cycles: got.Cycles, Workloads: 3,
		Groups: []trace.GroupSummary{
			{ClusterQueue: "cq", Priority: 10, Count: 2, Created: 2, Admitted: 2, Finished: 2, AvgToAdmitMs: 4500, P95ToAdmitMs: 9000, MaxToAdmitMs: 9000},
			{ClusterQueue: "cq", Priority: 0, Count: 1, Created: 1, Admitted: 1, Finished: 1},
		},
		ByPriority: []trace.GroupSummary{
			{Priority: 10, Count: 2, Created: 2, Admitted: 2, Finished: 2, AvgToAdmitMs: 4500, P95ToAdmitMs: 9000, MaxToAdmitMs: 9000},
			{Priority: 0, Count: 1, Created: 1, Admitted: 1, Finished: 1},
		},
		Usage: []trace.UsageSummary{{ClusterQueue: "cq", Flavor: "rf", Resource: "cpu", Nominal: 2000, AvgUsed: 1400, AvgPct: 70, Peak: 2000}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Summarize (-want +got):\n%s", diff)
	}
	var b strings.Builder
	if err := trace.FormatSummary(&b, got); err != nil {
		t.Fatal(err)
	}
	const wantText = `summary of sum: 3 workloads, 5 cycles, 15s of virtual time (quiescent), 0 evictions

time from creation to first admission, by ClusterQueue and priority:
  clusterQueue  priority  workloads  created  admitted  never  finished  evictions   avg  p95  max
            cq        10          2        2         2      0         2          0  4.5s   9s   9s
            cq         0          1        1         1      0         1          0    0s   0s   0s
           all        10          2        2         2      0         2          0  4.5s   9s   9s
           all         0          1        1         1      0         1          0    0s   0s   0s

ClusterQueue usage, time-weighted average over the run:
  clusterQueue  flavor/resource  nominal    avg  avg/nominal  peak
            cq           rf/cpu        2  1400m        70.0%     2
`
	if diff := cmp.Diff(wantText, b.String()); diff != "" {
		t.Errorf("FormatSummary (-want +got):\n%s", diff)
	}
}
