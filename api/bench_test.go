package api

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
)

// workScenarios are shapes that stress different parts of the engine, to
// check that a work unit (stepWork) costs about the same CPU time in each:
//
//	go test ./api -run '^$' -bench Work -benchtime 3x
//
// reports ns/unit per shape natively (the weights of stepWork were fitted
// to it); the limit profiles come from the same shapes on workerd
// (BenchmarkWorkerdSizes, api/limits.go).
func workScenarios() map[string]string {
	return map[string]string{
		"queueing":   queueingScenario(400, 4),
		"preemption": preemptionScenario(300),
		"placement":  placementScenario(200, 60),
	}
}

const benchHeader = "apiVersion: kueueplay/v1alpha1\nkind: Scenario\nmetadata: {name: %s}\nspec: {}\n"

// queueingScenario: n jobs over q ClusterQueues in one cohort, each job
// longer than the quota allows at once, so the queues drain over many
// cycles.
func queueingScenario(n, q int) string {
	var b strings.Builder
	fmt.Fprintf(&b, benchHeader, "queueing")
	b.WriteString("---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: a}\n---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: b}\n")
	for i := range q {
		fmt.Fprintf(&b, "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: cq%d}\nspec:\n  cohortName: all\n  namespaceSelector: {}\n  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n    - name: a\n      resources: [{name: cpu, nominalQuota: \"8\"}]\n    - name: b\n      resources: [{name: cpu, nominalQuota: \"8\"}]\n", i)
		fmt.Fprintf(&b, "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: lq, namespace: ns%d}\nspec: {clusterQueue: cq%d}\n", i, i)
	}
	for i := range n {
		fmt.Fprintf(&b, "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: w%d, namespace: ns%d, annotations: {kueueplay/runtime: 30s, kueueplay/arrival: %ds}}\nspec:\n  queueName: lq\n  podSets: [{name: main, count: 1, template: {spec: {containers: [{name: c, resources: {requests: {cpu: \"3\"}}}]}}}]\n", i, i%q, i%20)
	}
	return b.String()
}

// preemptionScenario: n low-priority jobs fill a queue, then n
// high-priority ones preempt them.
func preemptionScenario(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, benchHeader, "preemption")
	b.WriteString("---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: a}\n---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: cq}\nspec:\n  namespaceSelector: {}\n  preemption: {withinClusterQueue: LowerPriority}\n  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n    - name: a\n      resources: [{name: cpu, nominalQuota: \"100\"}]\n---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: lq, namespace: ns}\nspec: {clusterQueue: cq}\n")
	for i := range 2 * n {
		prio, at := 0, 0
		if i >= n {
			prio, at = 100, 5
		}
		fmt.Fprintf(&b, "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: Workload\nmetadata: {name: w%d, namespace: ns, annotations: {kueueplay/runtime: 1m, kueueplay/arrival: %ds}}\nspec:\n  queueName: lq\n  priority: %d\n  podSets: [{name: main, count: 1, template: {spec: {containers: [{name: c, resources: {requests: {cpu: \"1\"}}}]}}}]\n", i, at, prio)
	}
	return b.String()
}

// placementScenario: a Deployment scaled up to pods replicas over nodes
// nodes.
func placementScenario(pods, nodes int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: kueueplay/v1alpha1\nkind: Scenario\nmetadata: {name: placement}\nspec:\n  events:\n  - {at: 1m, scale: shop/web, replicas: %d}\n", pods)
	for i := range nodes {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Node\nmetadata: {name: n-%03d}\nstatus: {allocatable: {cpu: \"8\", pods: \"110\"}}\n", i)
	}
	b.WriteString("---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec:\n  replicas: 10\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c, resources: {requests: {cpu: 100m}}}]}\n")
	return b.String()
}

func BenchmarkWork(b *testing.B) {
	for name, text := range workScenarios() {
		b.Run(name, func(b *testing.B) {
			sc, err := scenario.Decode(name+".yaml", []byte(text))
			if err != nil {
				b.Fatal(err)
			}
			var work int64
			for b.Loop() {
				work = 0
				sim.Run(sc, sim.Options{Stop: func(st *trace.Step) bool {
					work += stepWork(st, len(sc.Nodes))
					return false
				}})
			}
			b.ReportMetric(float64(work), "units")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(work), "ns/unit")
		})
	}
}
