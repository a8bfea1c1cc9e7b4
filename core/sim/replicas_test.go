package sim_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
)

// queuedScenario is a ClusterQueue cq with cpu quota CPUs (preemption
// withinClusterQueue LowerPriority), a LocalQueue main in namespace shop,
// nodes n-0.. of 2 CPUs each (none when nodes is 0), and a Deployment web
// in shop with replicas pods of 1 CPU queued in main, plus the scenario's
// event lines and extra documents.
func queuedScenario(cpus, nodes, replicas int, events, extra string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: kueueplay/v1alpha1\nkind: Scenario\nmetadata: {name: queued}\nspec:\n  cycleDuration: 1s\n  terminationDelay: 5s\n")
	if events != "" {
		b.WriteString("  events:\n" + events)
	}
	fmt.Fprintf(&b, `---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: default}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq}
spec:
  namespaceSelector: {}
  preemption: {withinClusterQueue: LowerPriority}
  resourceGroups:
  - coveredResources: [cpu]
    flavors: [{name: default, resources: [{name: cpu, nominalQuota: "%d"}]}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: main, namespace: shop}
spec: {clusterQueue: cq}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop, labels: {kueue.x-k8s.io/queue-name: main}}
spec:
  replicas: %d
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}
`, cpus, replicas)
	for i := range nodes {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Node\nmetadata: {name: n-%d}\nstatus: {allocatable: {cpu: \"2\"}}\n", i)
	}
	b.WriteString(extra)
	return b.String()
}

// podEvents lists the scale, arrival and delete events of the
// Deployment's pods as "time kind name", a deletion followed by the reason
// its message gives.
func podEvents(tr *trace.Trace) []string {
	var out []string
	for _, st := range tr.Steps {
		at := time.Duration(st.TimeMs) * time.Millisecond
		for _, ev := range st.Events {
			switch {
			case ev.Kind == trace.EventScale:
				line := fmt.Sprintf("%v scale", at)
				if _, repl, ok := strings.Cut(ev.Text(), "; the ReplicaSet deleted the replacement of "); ok {
					line += ": replacement of " + repl
				}
				out = append(out, line)
			case ev.Kind == trace.EventArrival && strings.HasPrefix(ev.Workload, "shop/pod-web-"):
				out = append(out, fmt.Sprintf("%v arrival %s", at, ev.Workload))
			case ev.Kind == trace.EventDelete && !strings.Contains(ev.Text(), " deleted pod "):
				out = append(out, fmt.Sprintf("%v delete %s: %s", at, ev.Workload, ev.Text()))
			case ev.Kind == trace.EventDelete:
				_, why, _ := strings.Cut(ev.Text(), " deleted pod ")
				_, why, _ = strings.Cut(why, " (")
				why, _, _ = strings.Cut(why, "); Kueue finishes its Workload")
				out = append(out, fmt.Sprintf("%v delete %s: %s", at, ev.Workload, why))
			}
		}
	}
	return out
}

// TestQueuedDeploymentScale checks the pod workloads of a Deployment Kueue
// queues: created with the pods, deleted on a scale-in in the ReplicaSet
// controller's order, and the count of live ones always the replica count.
func TestQueuedDeploymentScale(t *testing.T) {
	cases := map[string]struct {
		in   string
		want []string
	}{
		"no Nodes: gated pods first, newest first, then the most recently admitted": {
			// 4 CPUs for 3 pods, then 6: pods 0-2 admitted at 0-2s, 3 at
			// 1m, 4 and 5 stay gated. At 2m scale in to 1: 5, 4 (gated),
			// then 3 (admitted at 1m, ready more recently on a log2 scale
			// than 0-2), then 2 and 1 (same bucket as 0, newer).
			in: queuedScenario(4, 0, 3, "  - {at: 1m, scale: shop/web, replicas: 6}\n  - {at: 2m, scale: shop/web, replicas: 1}\n", ""),
			want: []string{
				"0s scale", "0s arrival shop/pod-web-0", "0s arrival shop/pod-web-1", "0s arrival shop/pod-web-2",
				"1m0s scale", "1m0s arrival shop/pod-web-3", "1m0s arrival shop/pod-web-4", "1m0s arrival shop/pod-web-5",
				"2m0s scale",
				"2m0s delete shop/pod-web-5: its Workload is not admitted, so Kueue keeps the pod gated: unassigned pods go first",
				"2m0s delete shop/pod-web-4: its Workload is not admitted, so Kueue keeps the pod gated: unassigned pods go first",
				"2m0s delete shop/pod-web-3: admitted at 1m0s, more recently than web-0, the first pod kept (the scenario has no Nodes: an admitted pod counts as running since its admission; compared on a log2 scale)",
				"2m0s delete shop/pod-web-2: admitted at the same time (on a log2 scale) as web-0, the first pod kept, and created after it (kube-controller-manager compares random UIDs here; the playground takes the newer pod)",
				"2m0s delete shop/pod-web-1: admitted at the same time (on a log2 scale) as web-0, the first pod kept, and created after it (kube-controller-manager compares random UIDs here; the playground takes the newer pod)",
			},
		},
		"with Nodes: an admitted pod no node takes counts as unassigned": {
			// One node of 2 CPUs, quota 3: pods 0 and 1 run, 2 is admitted
			// but pending on the node. Scale in to 2: 2 goes.
			in: queuedScenario(3, 1, 3, "  - {at: 1m, scale: shop/web, replicas: 2}\n", ""),
			want: []string{
				"0s scale", "0s arrival shop/pod-web-0", "0s arrival shop/pod-web-1", "0s arrival shop/pod-web-2",
				"1m0s scale",
				"1m0s delete shop/pod-web-2: pending: unassigned pods go first",
			},
		},
		"scale to 0 and back: new indexes": {
			in: queuedScenario(4, 0, 2, "  - {at: 1m, scale: shop/web, replicas: 0}\n  - {at: 2m, scale: shop/web, replicas: 1}\n", ""),
			want: []string{
				"0s scale", "0s arrival shop/pod-web-0", "0s arrival shop/pod-web-1",
				"1m0s scale",
				"1m0s delete shop/pod-web-1: every pod goes",
				"1m0s delete shop/pod-web-0: every pod goes",
				"2m0s scale", "2m0s arrival shop/pod-web-2",
			},
		},
		"a scale before the Deployment exists is ignored": {
			in: strings.Replace(queuedScenario(4, 0, 1, "  - {at: 1s, scale: shop/web, replicas: 3}\n", ""),
				"labels: {kueue.x-k8s.io/queue-name: main}}", "labels: {kueue.x-k8s.io/queue-name: main}, annotations: {kueueplay/arrival: 10s}}", 1),
			want: []string{"1s scale", "10s scale", "10s arrival shop/pod-web-0"},
		},
		"a terminating pod does not count on its node": {
			// Two nodes: web-0 and web-2 on n-0, web-1 on n-1. urgent
			// preempts web-2 at 10s; its pod terminates on n-0 until 15s.
			// At 12s scale in to 1: the replacement goes first; then
			// web-0 and web-1 have one active pod each on their nodes
			// (web-2's terminating pod is not active), the same ready
			// time on a log2 scale, so the newer, web-1, goes.
			in: queuedScenario(3, 2, 3, "  - {at: 12s, scale: shop/web, replicas: 1}\n", `---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: urgent, namespace: shop, annotations: {kueueplay/arrival: 10s}}
spec:
  queueName: main
  priority: 100
  podSets: [{name: main, count: 1, template: {spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}}}]
`),
			want: []string{
				"0s scale", "0s arrival shop/pod-web-0", "0s arrival shop/pod-web-1", "0s arrival shop/pod-web-2",
				"12s scale: replacement of evicted pod web-2 (the replacement of an evicted pod is pending and unassigned, and unassigned pods go first): shop/pod-web-2 finishes once its pod has terminated, instead of being queued again",
				"12s delete shop/pod-web-1: same deletion cost (0), pods per node (1) and ready time (on a log2 scale) as the first pod kept, web-0; created after it (kube-controller-manager compares random UIDs here; the playground takes the newer pod)",
				"15s delete shop/pod-web-2: its pod terminated and, its replacement having been deleted by a scale-in, it is not queued again; Kueue finishes its Workload; its quota is released (default/cpu 1)",
			},
		},
		"the replacement of an evicted pod goes first": {
			// urgent preempts web-1 (admitted last) at 10s; web-1
			// terminates until 15s, and its replacement is pending. At
			// 12s scale in to 1: the replacement goes first; web-1 keeps
			// its quota until 15s and is then deleted, not queued again.
			in: queuedScenario(2, 0, 2, "  - {at: 12s, scale: shop/web, replicas: 1}\n", `---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: urgent, namespace: shop, annotations: {kueueplay/arrival: 10s}}
spec:
  queueName: main
  priority: 100
  podSets: [{name: main, count: 1, template: {spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}}}]
`),
			want: []string{
				"0s scale", "0s arrival shop/pod-web-0", "0s arrival shop/pod-web-1",
				"12s scale: replacement of evicted pod web-1 (the replacement of an evicted pod is pending and unassigned, and unassigned pods go first): shop/pod-web-1 finishes once its pod has terminated, instead of being queued again",
				"15s delete shop/pod-web-1: its pod terminated and, its replacement having been deleted by a scale-in, it is not queued again; Kueue finishes its Workload; its quota is released (default/cpu 1)",
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			sc, err := scenario.Decode("queued.yaml", []byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			var broken []string
			tr := sim.Run(sc, sim.Options{Observe: func(s *sim.State, ts *trace.Step) {
				for _, v := range sim.CheckInvariants(s) {
					broken = append(broken, fmt.Sprintf("step %d: %s", ts.Index, v))
				}
			}})
			if len(broken) > 0 {
				t.Errorf("invariants broken:\n%s", strings.Join(broken, "\n"))
			}
			if diff := cmp.Diff(tc.want, podEvents(tr)); diff != "" {
				t.Errorf("pod events (-want +got):\n%s", diff)
			}
		})
	}
}

// TestQueuedDeploymentMissingWorkloads checks a scale-out beyond the
// workloads a scenario holds for the pods (a Scenario built by hand): the
// pods that have one are created and the event says how many do not.
func TestQueuedDeploymentMissingWorkloads(t *testing.T) {
	sc, err := scenario.Decode("queued.yaml", []byte(queuedScenario(4, 0, 1, "  - {at: 1m, scale: shop/web, replicas: 3}\n", "")))
	if err != nil {
		t.Fatal(err)
	}
	// Drop the workload of pod 2, as a decoder that left it out would.
	dep := &sc.Deployments[0]
	if got := len(dep.Workloads); got != 3 {
		t.Fatalf("the Deployment has %d pod workloads, want 3", got)
	}
	dep.Workloads = dep.Workloads[:2]
	tr := sim.Run(sc, sim.Options{})
	var got []string
	for _, st := range tr.Steps {
		for _, ev := range st.Events {
			if ev.Kind == trace.EventScale || ev.Kind == trace.EventArrival {
				got = append(got, string(ev.Kind)+" "+ev.Workload+": "+ev.Text())
			}
		}
	}
	want := []string{
		"scale shop/web: Deployment created with 1 replica(s); Kueue's pod integration queues each new pod as a Workload in LocalQueue shop/main",
		"arrival shop/pod-web-0: created in LocalQueue shop/main, queued in ClusterQueue cq",
		"scale shop/web: scaled to 3 replica(s) (scenario event); Kueue's pod integration queues each new pod as a Workload in LocalQueue shop/main; only 1 of the 2 new pods have a Workload in this scenario, the others are not simulated",
		"arrival shop/pod-web-1: created in LocalQueue shop/main, queued in ClusterQueue cq",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if w := sc.Workloads[2]; w.ReplicaOf != "shop/web" || w.Name != "pod-web-2" {
		t.Fatalf("workload 2 is %s (of %q), want pod-web-2 of shop/web", w.Name, w.ReplicaOf)
	}
}
