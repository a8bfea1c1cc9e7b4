package sim_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/kueueplay/kueueplay/core/check"
	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
)

// placementYAML derives a scenario file with the placement layer from
// fuzz input: 1-2 flavors (the second pinned to spot nodes through
// nodeLabels), 1-2 ClusterQueues in one cohort with preemption, 1-5 nodes
// in two tiers with small allocatable cpu and pods, a ResourcePolicy
// (required or prefer, optional matchLabelKeys and ignoreTerminatingPod,
// units with maxCount 0-3 or none), up to 8 workloads and a Deployment
// with scale events, whose pods Kueue queues a third of the time. It goes
// through the decoder, so the fuzzer also covers the placement fields'
// decoding.
func placementYAML(data []byte) string {
	src := &byteSource{b: data}
	var b strings.Builder
	doc := func(format string, args ...any) {
		b.WriteString("---\n")
		fmt.Fprintf(&b, format, args...)
	}
	fmt.Fprintf(&b, "apiVersion: kueueplay/v1alpha1\nkind: Scenario\nmetadata: {name: fuzz}\nspec:\n  maxCycles: 300\n  terminationDelay: %ds\n", src.n(4))
	fmt.Fprintf(&b, "  placement: {weights: {ResourcePolicy: %d, NodeResourcesFit: %d}}\n", src.n(6), src.n(3))
	deployment := src.n(2) == 1
	if deployment && src.n(2) == 1 {
		fmt.Fprintf(&b, "  events:\n  - {at: %ds, scale: team/web, replicas: %d}\n  - {at: %ds, scale: team/web, replicas: %d}\n", 1+src.n(5), src.n(6), 6+src.n(5), src.n(6))
	}
	nf := 1 + src.n(2)
	doc("apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: ondemand}\n")
	if nf == 2 {
		doc("apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: spot}\nspec: {nodeLabels: {tier: spot}}\n")
	}
	nq := 1 + src.n(2)
	within := []string{"Never", "LowerPriority", "LowerOrNewerEqualPriority"}
	reclaim := []string{"Never", "LowerPriority", "Any"}
	for q := range nq {
		var flavors strings.Builder
		for _, f := range []string{"ondemand", "spot"}[:nf] {
			fmt.Fprintf(&flavors, "    - name: %s\n      resources: [{name: cpu, nominalQuota: \"%d\"}]\n", f, src.n(6))
		}
		doc("apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: cq%d}\nspec:\n  cohortName: all\n  namespaceSelector: {}\n  preemption: {withinClusterQueue: %s, reclaimWithinCohort: %s}\n  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n%s",
			q, within[src.n(3)], reclaim[src.n(3)], flavors.String())
		doc("apiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: lq%d, namespace: team}\nspec: {clusterQueue: cq%d}\n", q, q)
	}
	for n := range 1 + src.n(5) {
		tier := []string{"ondemand", "spot"}[src.n(2)]
		doc("apiVersion: v1\nkind: Node\nmetadata: {name: node-%d, labels: {tier: %s}}\nstatus: {allocatable: {cpu: \"%d\", pods: \"%d\"}}\n", n, tier, src.n(5), 1+src.n(4))
	}
	var units strings.Builder
	for u := range 1 + src.n(3) {
		maxCount := ""
		if m := src.n(5); m < 4 {
			maxCount = fmt.Sprintf(", maxCount: %d", m)
		}
		selector := []string{"{}", "{matchLabels: {tier: ondemand}}", "{matchLabels: {tier: spot}}"}[src.n(3)]
		fmt.Fprintf(&units, "  - {name: u%d, priority: %d%s, nodeSelector: %s}\n", u, src.n(4), maxCount, selector)
	}
	keys := ""
	if src.n(2) == 1 {
		keys = "  matchLabelKeys: [batch.kubernetes.io/job-name]\n"
	}
	doc("apiVersion: scheduling.x-k8s.io/v1alpha1\nkind: ResourcePolicy\nmetadata: {name: rp, namespace: team}\nspec:\n  strategy: %s\n%s  matchPolicy: {ignoreTerminatingPod: %t}\n  units:\n%s",
		[]string{"required", "prefer"}[src.n(2)], keys, src.n(2) == 1, units.String())
	for i := range src.n(9) {
		ann := fmt.Sprintf("kueueplay/arrival: %ds", src.n(6))
		if src.n(2) == 0 {
			ann += fmt.Sprintf(", kueueplay/runtime: %ds", 1+src.n(8))
		}
		doc("apiVersion: batch/v1\nkind: Job\nmetadata: {name: job-%d, namespace: team, labels: {kueue.x-k8s.io/queue-name: lq%d}, annotations: {%s}}\nspec:\n  parallelism: %d\n  completions: 4\n  template:\n    spec:\n      priorityClassName: \"\"\n      restartPolicy: Never\n      containers: [{name: c, image: busybox, resources: {requests: {cpu: \"%d\"}}}]\n",
			i, src.n(nq), ann, 1+src.n(4), 1+src.n(2))
	}
	if deployment {
		replicas, cpu := src.n(5), src.n(2)
		// A third of the Deployments have their pods queued by Kueue
		// (one single-pod Workload each); drawn last, so that the bytes
		// before keep their meaning.
		labels := ""
		if src.n(3) == 0 {
			labels = ", labels: {kueue.x-k8s.io/queue-name: lq0}"
		}
		doc("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: team%s}\nspec:\n  replicas: %d\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: c, image: nginx, resources: {requests: {cpu: \"%d\"}}}]\n",
			labels, replicas, cpu)
	}
	return b.String()
}

// FuzzPlacement runs placement scenarios derived from the fuzz input
// through the decoder and the engine, and checks every invariant after
// every step (no node over its allocatable, no ResourcePolicy unit over
// its maxCount, pods only of running owners, and the quota ones), that
// the run ends, and that a second run gives the same trace bytes.
func FuzzPlacement(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{1, 5, 2, 1, 1, 2, 1, 1, 3, 2, 4, 1, 4, 3, 0, 1, 3, 0, 2, 1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add(bytes.Repeat([]byte{3, 1, 4, 1, 5, 9, 2, 6}, 12))
	f.Fuzz(func(t *testing.T, data []byte) {
		text := placementYAML(data)
		sc, err := scenario.Decode("fuzz.yaml", []byte(text))
		if err != nil {
			t.Fatalf("the generated scenario does not decode: %v\n%s", err, text)
		}
		observe := func(s *sim.State, st *trace.Step) {
			for _, v := range sim.CheckInvariants(s) {
				t.Fatalf("step %d: %s\n%s", st.Index, v, text)
			}
		}
		tr := sim.Run(sc, sim.Options{Observe: observe})
		if tr.End == "" {
			t.Fatal("run ended without a reason")
		}
		if d := check.Rerun(sc, nil, tr); d != "" {
			t.Fatal(d)
		}
	})
}
