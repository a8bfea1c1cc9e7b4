package scenario

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/coretest"
)

// depWrapper builds the core.Deployment a test expects, starting from what
// a template with one container and no requests decodes to.
type depWrapper struct{ d core.Deployment }

func makeDeployment(kind, ns, name string, replicas int32) *depWrapper {
	return &depWrapper{d: core.Deployment{
		Kind: kind, Namespace: ns, Name: name, Replicas: replicas,
		Pod: core.PodSet{
			Count:           replicas,
			Requests:        map[core.ResourceName]core.Amount{},
			Labels:          map[string]string{},
			NonZeroRequests: map[core.ResourceName]core.Amount{"cpu": 100, "memory": 200 << 20},
		},
	}}
}

// Labels adds pod labels (key, value pairs).
func (w *depWrapper) Labels(kv ...string) *depWrapper {
	for i := 0; i+1 < len(kv); i += 2 {
		w.d.Pod.Labels[kv[i]] = kv[i+1]
	}
	return w
}

// Request sets a per-pod request; cpu and memory also replace the scoring
// defaults.
func (w *depWrapper) Request(res core.ResourceName, q string) *depWrapper {
	v := coretest.Amount(res, q)
	w.d.Pod.Requests[res] = v
	if res == core.ResourceCPU || res == core.ResourceMemory {
		w.d.Pod.NonZeroRequests[res] = v
	}
	return w
}

func (w *depWrapper) NodeSelector(kv ...string) *depWrapper {
	w.d.Pod.NodeSelector = map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		w.d.Pod.NodeSelector[kv[i]] = kv[i+1]
	}
	return w
}

func (w *depWrapper) Required(terms ...core.NodeSelectorTerm) *depWrapper {
	w.d.Pod.RequiredAffinity = terms
	return w
}

func (w *depWrapper) Preferred(terms ...core.PreferredSchedulingTerm) *depWrapper {
	w.d.Pod.PreferredAffinity = terms
	return w
}

func (w *depWrapper) Tolerations(ts ...core.Toleration) *depWrapper {
	w.d.Pod.Tolerations = ts
	return w
}

func (w *depWrapper) Arrival(d time.Duration) *depWrapper { w.d.Arrival = d; return w }

func (w *depWrapper) Obj() core.Deployment { return w.d }

// deploymentDoc returns a Deployment (or ReplicaSet) document whose
// template has the label app: <name> and one container, with extra spec
// lines (indented by two spaces) appended.
func deploymentDoc(kind, ns, name, specLines string) string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: %s
metadata: {name: %s, namespace: %s}
spec:
  selector: {matchLabels: {app: %s}}
  template:
    metadata: {labels: {app: %s}}
    spec: {containers: [{name: c}]}
%s`, kind, name, ns, name, name, specLines)
}

// TestDeployments checks the decoding of apps/v1 Deployments and
// ReplicaSets: defaults, the pod-template-hash stand-in, and a template
// decoded exactly like a Job's.
func TestDeployments(t *testing.T) {
	cases := map[string]struct {
		in   string
		want []core.Deployment
	}{
		"defaults": {
			// replicas 1, arrival 0, namespace default; the hash is FNV-1a
			// 64 of "default/web".
			in: `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c}]}
`,
			want: []core.Deployment{
				makeDeployment("Deployment", "default", "web", 1).Labels("app", "web", "pod-template-hash", "9d2ba50824").Obj(),
			},
		},
		"ReplicaSet gets no extra label": {
			in: `apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web
  namespace: shop
  annotations: {kueueplay/arrival: 90s}
spec:
  replicas: 3
  selector:
    matchExpressions: [{key: app, operator: In, values: [web, api]}]
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, resources: {requests: {cpu: 500m}}}]}
status: {replicas: 3}
`,
			want: []core.Deployment{
				makeDeployment("ReplicaSet", "shop", "web", 3).Labels("app", "web").Request("cpu", "500m").Arrival(90 * time.Second).Obj(),
			},
		},
		"zero replicas, a template label overwritten by the hash, real fields skipped": {
			in: `apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: shop}
spec:
  replicas: 0
  minReadySeconds: 5
  revisionHistoryLimit: 2
  progressDeadlineSeconds: 600
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 25%}}
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api, pod-template-hash: mine}}
    spec: {restartPolicy: Always, containers: [{name: c}]}
`,
			want: []core.Deployment{
				makeDeployment("Deployment", "shop", "api", 0).Labels("app", "api", "pod-template-hash", "922c353ccf").Obj(),
			},
		},
		"template decoded like a Job's, in document order": {
			in: deploymentDoc("ReplicaSet", "shop", "first", "") + `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web, tier: front}}
    spec:
      nodeSelector: {disk: ssd}
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: [a]}]}]
          preferredDuringSchedulingIgnoredDuringExecution:
          - {weight: 10, preference: {matchExpressions: [{key: spot, operator: DoesNotExist}]}}
      tolerations: [{key: spot, operator: Exists, effect: NoSchedule}]
      initContainers: [{name: init, resources: {requests: {cpu: "4"}}}]
      containers:
      - {name: c, resources: {requests: {cpu: "1", nvidia.com/gpu: "1"}, limits: {memory: 1Gi}}}
`,
			want: []core.Deployment{
				makeDeployment("ReplicaSet", "shop", "first", 1).Labels("app", "first").Obj(),
				makeDeployment("Deployment", "shop", "web", 2).
					Labels("app", "web", "tier", "front", "pod-template-hash", "1b2ce43c8d").
					Request("cpu", "4").Request("memory", "1Gi").Request("nvidia.com/gpu", "1").
					NodeSelector("disk", "ssd").
					Required(core.NodeSelectorTerm{MatchExpressions: []core.NodeSelectorRequirement{{Key: "zone", Operator: "In", Values: []string{"a"}}}}).
					Preferred(core.PreferredSchedulingTerm{Weight: 10, Preference: core.NodeSelectorTerm{MatchExpressions: []core.NodeSelectorRequirement{{Key: "spot", Operator: "DoesNotExist"}}}}).
					Tolerations(core.Toleration{Key: "spot", Operator: "Exists", Effect: "NoSchedule"}).
					Obj(),
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			sc, diags := decode(t, tc.in)
			if sc == nil {
				t.Fatalf("Decode failed: %v", diags)
			}
			if diff := cmp.Diff(tc.want, sc.Deployments, ignorePos()); diff != "" {
				t.Errorf("Deployments (-want +got):\n%s", diff)
			}
			if len(sc.Warnings) != 0 {
				t.Errorf("unexpected warnings: %v", sc.Warnings)
			}
		})
	}
}

// TestDeploymentPos checks that a Deployment carries its position and key.
func TestDeploymentPos(t *testing.T) {
	sc, diags := decode(t, "---\n"+deploymentDoc("Deployment", "shop", "web", ""))
	if sc == nil {
		t.Fatalf("Decode failed: %v", diags)
	}
	dep := sc.Deployments[0]
	if diff := cmp.Diff(core.Pos{File: testFile, Line: 2, Col: 1}, dep.Pos); diff != "" {
		t.Errorf("Pos (-want +got):\n%s", diff)
	}
	if got := dep.Key(); got != "shop/web" {
		t.Errorf("Key() = %q, want shop/web", got)
	}
}

// TestPodTemplateHash pins the stand-in value: FNV-1a 64 of
// "namespace/name", 10 lowercase hex digits.
func TestPodTemplateHash(t *testing.T) {
	cases := map[string]struct {
		ns, name, want string
	}{
		"default/web": {ns: "default", name: "web", want: "9d2ba50824"},
		"shop/web":    {ns: "shop", name: "web", want: "1b2ce43c8d"},
		"shop/api":    {ns: "shop", name: "api", want: "922c353ccf"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := podTemplateHash(tc.ns, tc.name); got != tc.want {
				t.Errorf("podTemplateHash(%q, %q) = %q, want %q", tc.ns, tc.name, got, tc.want)
			}
		})
	}
}

// TestDeploymentWarnings covers what decodes but is not simulated.
func TestDeploymentWarnings(t *testing.T) {
	cases := map[string]struct {
		in   string
		want []diag
	}{
		"annotations a Deployment does not read, and paused": {
			in: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations: {kueueplay/arrival: 1s, kueueplay/runtime: 1m}
spec:
  paused: true
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c}]}
`,
			want: []diag{
				{At: "t.yaml:5:59", Object: "Deployment/default/web", Field: "metadata.annotations[kueueplay/runtime]", Msg: `annotation "kueueplay/runtime" is only read on Workloads and job objects (Job, JobSet, RayJob, Pod, ...); it has no effect on a Deployment`},
				{At: "t.yaml:7:11", Object: "Deployment/default/web", Field: "spec.paused", Msg: "paused is not simulated"},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			sc, diags := decode(t, tc.in)
			if sc == nil {
				t.Fatalf("Decode failed: %v", diags)
			}
			if diff := diffDiags(tc.want, compact(sc.Warnings, core.SeverityWarning)); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}

// wlDoc is a Workload document named ns/name.
func wlDoc(ns, name string) string {
	return fmt.Sprintf(`apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: %s, namespace: %s}
spec:
  queueName: q
  podSets: [{template: {spec: {containers: [{name: c}]}}}]
`, name, ns)
}

// nodeDoc is a Node document.
func nodeDoc(name string) string {
	return "apiVersion: v1\nkind: Node\nmetadata: {name: " + name + "}\nstatus: {allocatable: {cpu: \"4\"}}\n"
}

// TestDeploymentErrors has one case per error class of Deployments and
// ReplicaSets, with the exact position, object and field path.
func TestDeploymentErrors(t *testing.T) {
	cases := map[string]struct {
		in   string
		want []diag
	}{
		"selector does not match the template labels": {
			in: `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata:
      labels: {app: api}
    spec: {containers: [{name: c}]}
`,
			want: []diag{{At: "t.yaml:8:15", Object: "Deployment/default/web", Field: "spec.template.metadata.labels", Msg: "spec.selector does not match the template's labels: a Deployment must select the pods it creates"}},
		},
		"selector against a template without labels": {
			in: `apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: web}
spec:
  selector: {matchExpressions: [{key: app, operator: Exists}]}
  template:
    spec: {containers: [{name: c}]}
`,
			want: []diag{{At: "t.yaml:7:5", Object: "ReplicaSet/default/web", Field: "spec.template.metadata.labels", Msg: "spec.selector does not match the template's labels: a ReplicaSet must select"}},
		},
		"missing and empty selector": {
			in: `apiVersion: apps/v1
kind: Deployment
metadata: {name: a}
spec:
  template: {metadata: {labels: {app: a}}, spec: {containers: [{name: c}]}}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: b}
spec:
  selector: {}
  template: {metadata: {labels: {app: b}}, spec: {containers: [{name: c}]}}
`,
			want: []diag{
				{At: "t.yaml:5:3", Object: "Deployment/default/a", Field: "spec.selector", Msg: `missing required field "selector"`},
				{At: "t.yaml:11:13", Object: "ReplicaSet/default/b", Field: "spec.selector", Msg: "empty selector is invalid for a ReplicaSet"},
			},
		},
		"missing spec and template": {
			in: `apiVersion: apps/v1
kind: Deployment
metadata: {name: a}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: b}
spec:
  selector: {matchLabels: {app: b}}
`,
			want: []diag{
				{At: "t.yaml:1:1", Object: "Deployment/default/a", Field: "spec", Msg: `missing required field "spec"`},
				{At: "t.yaml:9:3", Object: "Deployment/default/b", Field: "spec.template", Msg: `missing required field "template"`},
			},
		},
		"template errors are a Job's": {
			in: `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      restartPolicy: Never
      containers:
      - name: c
        resources: {requests: {cpu: "2"}, limits: {cpu: "1"}}
        resource: {}
`,
			want: []diag{
				{At: "t.yaml:9:22", Object: "Deployment/default/web", Field: "spec.template.spec.restartPolicy", Msg: `unsupported value "Never": supported values: "Always"`},
				{At: "t.yaml:12:37", Object: "Deployment/default/web", Field: "spec.template.spec.containers[0].resources.requests[cpu]", Msg: "requests must not exceed its limits"},
				{At: "t.yaml:13:9", Object: "Deployment/default/web", Field: "spec.template.spec.containers[0].resource", Msg: `unknown field "resource"`},
			},
		},
		"Deployment fields on a ReplicaSet": {
			in: deploymentDoc("ReplicaSet", "shop", "web", "  strategy: {type: Recreate}\n  paused: false\n"),
			want: []diag{
				{At: "t.yaml:9:3", Object: "ReplicaSet/shop/web", Field: "spec.strategy", Msg: `unknown field "strategy"`},
				{At: "t.yaml:10:3", Object: "ReplicaSet/shop/web", Field: "spec.paused", Msg: `unknown field "paused"`},
			},
		},
		"replicas out of range": {
			in: deploymentDoc("Deployment", "shop", "a", "  replicas: 10001\n") + "---\n" +
				deploymentDoc("ReplicaSet", "shop", "b", "  replicas: -1\n") + "---\n" +
				deploymentDoc("ReplicaSet", "shop", "c", "  replicas: \"2\"\n"),
			want: []diag{
				{At: "t.yaml:9:13", Object: "Deployment/shop/a", Field: "spec.replicas", Msg: "must be between 0 and 10000 (MaxReplicas, the playground's bound), got 10001"},
				{At: "t.yaml:19:13", Object: "ReplicaSet/shop/b", Field: "spec.replicas", Msg: "must be between 0 and 10000 (MaxReplicas, the playground's bound), got -1"},
				{At: "t.yaml:29:13", Object: "ReplicaSet/shop/c", Field: "spec.replicas", Msg: `expected an integer, got the string "2"`},
			},
		},
		"duplicate Deployment": {
			in:   deploymentDoc("Deployment", "shop", "web", "") + "---\n" + deploymentDoc("Deployment", "shop", "web", ""),
			want: []diag{{At: "t.yaml:12:18", Object: "Deployment/shop/web", Field: "metadata.name", Msg: `duplicate Deployment "shop/web" (first defined at line 3)`}},
		},
		"Deployment and ReplicaSet with one name": {
			in:   deploymentDoc("Deployment", "shop", "web", "") + "---\n" + deploymentDoc("ReplicaSet", "shop", "web", ""),
			want: []diag{{At: "t.yaml:12:18", Object: "ReplicaSet/shop/web", Field: "metadata.name", Msg: `ReplicaSet "shop/web" has the same namespace and name as Deployment "shop/web" (line 3): their pods would be indistinguishable (both named web-<index>), so the playground requires distinct names`}},
		},
		"Deployment named like a Workload or a Job's Workload": {
			in: wlDoc("shop", "web") + "---\n" + deploymentDoc("Deployment", "shop", "web", "") + `---
apiVersion: batch/v1
kind: Job
metadata:
  name: train
  namespace: shop
  labels: {kueue.x-k8s.io/queue-name: q}
spec:
  template: {spec: {restartPolicy: Never, containers: [{name: c}]}}
---
` + deploymentDoc("ReplicaSet", "shop", "job-train", ""),
			want: []diag{
				{At: "t.yaml:10:18", Object: "Deployment/shop/web", Field: "metadata.name", Msg: `Deployment "shop/web" has the same namespace and name as Workload "shop/web" (line 3): events and expectations name both by namespace/name`},
				{At: "t.yaml:28:18", Object: "ReplicaSet/shop/job-train", Field: "metadata.name", Msg: `ReplicaSet "shop/job-train" has the same namespace and name as the Workload of Job "shop/train" (line 20)`},
			},
		},
		"Deployment whose pods would be named like a pod set's": {
			in: wlDoc("shop", "web") + "---\n" + deploymentDoc("Deployment", "shop", "web-main", "") + "---\n" + deploymentDoc("Deployment", "other", "web-main", ""),
			want: []diag{{At: "t.yaml:10:18", Object: "Deployment/shop/web-main", Field: "metadata.name",
				Msg: `Deployment "shop/web-main" would name its pods web-main-0, web-main-1, ..., the names the pods of pod set "main" of Workload "shop/web" (line 3) get: rename one`}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, diags := decode(t, tc.in)
			if diff := diffDiags(tc.want, compact(diags, core.SeverityError)); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDeploymentPodsBound checks MaxDeploymentPods: each Deployment counts
// at the largest of its spec.replicas and its scale events, and the error
// points at the count that crosses the bound.
func TestDeploymentPodsBound(t *testing.T) {
	// n Deployments d0..d<n-1> in namespace ns with 10000 replicas each.
	full := func(n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString("---\n" + deploymentDoc("Deployment", "ns", fmt.Sprintf("d%d", i), "  replicas: 10000\n"))
		}
		return b.String()
	}
	scenario := func(events string) string {
		return "apiVersion: kueueplay/v1alpha1\nkind: Scenario\nspec:\n  events:\n" + events
	}
	cases := map[string]struct {
		in   string
		want []diag
	}{
		"exactly at the bound": {
			in: full(10),
		},
		"one Deployment too many": {
			// Each document of full takes 10 lines: the 11th starts at
			// line 102 and its replicas are on its 9th line.
			in:   full(10) + "---\n" + deploymentDoc("ReplicaSet", "ns", "extra", "  replicas: 1\n"),
			want: []diag{{At: "t.yaml:110:13", Object: "ReplicaSet/ns/extra", Field: "spec.replicas", Msg: `the Deployments and ReplicaSets of the file ask for 100001 pods up to ReplicaSet "ns/extra" (each counted at the largest of its spec.replicas and its scale events); at most 100000 pods in total are accepted (MaxDeploymentPods)`}},
		},
		"defaulted replicas point at the object": {
			in:   full(10) + "---\n" + deploymentDoc("Deployment", "ns", "extra", ""),
			want: []diag{{At: "t.yaml:102:1", Object: "Deployment/ns/extra", Field: "spec.replicas", Msg: "ask for 100001 pods up to Deployment \"ns/extra\""}},
		},
		"a scale event raises the count": {
			// small has 0 replicas but is scaled to 1; d0 is scaled down,
			// which does not lower its count.
			in: scenario("  - {at: 1m, scale: ns/d0, replicas: 5}\n  - {at: 2m, scale: ns/small, replicas: 1}\n") +
				full(10) + "---\n" + deploymentDoc("Deployment", "ns", "small", "  replicas: 0\n"),
			want: []diag{{At: "t.yaml:6:41", Object: "Scenario", Field: "spec.events[1].replicas", Msg: "ask for 100001 pods up to Deployment \"ns/small\""}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, diags := decode(t, tc.in)
			if diff := diffDiags(tc.want, compact(diags, core.SeverityError)); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// queuedDoc is a Deployment or ReplicaSet named web in namespace ns with
// 2 replicas of 1-CPU pods; meta and tmpl are extra labels of the object
// and of its pod template ("k: v" lists), spec extra spec lines.
func queuedDoc(kind, meta, tmpl, spec string) string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: %s
metadata:
  name: web
  namespace: ns
  labels: {%s}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web, %s}}
    spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}
%s`, kind, meta, tmpl, spec)
}

// queueObjects are a ClusterQueue cq, LocalQueues q and (when dflt) default
// in namespace ns, and a WorkloadPriorityClass high of value 100.
func queueObjects(dflt bool) string {
	s := cqHeader + `---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: q, namespace: ns}
spec: {clusterQueue: cq}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: WorkloadPriorityClass
metadata: {name: high}
value: 100
`
	if dflt {
		s += `---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: default, namespace: ns}
spec: {clusterQueue: cq}
`
	}
	return s
}

// podWl is the Workload of pod index i of web in namespace ns, created at
// arrival, in LocalQueue queue.
type podWl struct {
	name, queue, podName, replicaOf string
	priority                        int32
	arrival                         time.Duration
	labels                          map[string]string
}

// TestQueuedDeployments checks that each pod of a Deployment or ReplicaSet
// Kueue queues is one single-pod Workload, named pod-<pod>, one for every
// pod ever created (spec.replicas, then each scale-up), with the queue and
// priority the Deployment webhook and the pod webhook give it.
func TestQueuedDeployments(t *testing.T) {
	const hash = "pod-template-hash"
	webHash := podTemplateHash("ns", "web")
	wl := func(i int, queue string, arrival time.Duration, priority int32, labels ...string) podWl {
		w := podWl{name: fmt.Sprintf("pod-web-%d", i), podName: fmt.Sprintf("web-%d", i), queue: queue, replicaOf: "ns/web",
			priority: priority, arrival: arrival, labels: map[string]string{"app": "web"}}
		for k := 0; k+1 < len(labels); k += 2 {
			w.labels[labels[k]] = labels[k+1]
		}
		return w
	}
	cases := map[string]struct {
		in        string
		wantQueue string
		want      []podWl
		warnings  []diag
	}{
		"queue-name label on the Deployment, copied to the pods": {
			in:        queuedDoc("Deployment", "kueue.x-k8s.io/queue-name: q", "", "") + "---\n" + queueObjects(false),
			wantQueue: "q",
			want: []podWl{
				wl(0, "q", 0, 0, hash, webHash, labelQueueName, "q"),
				wl(1, "q", 0, 0, hash, webHash, labelQueueName, "q"),
			},
		},
		"the Deployment's label wins over the template's": {
			in:        queuedDoc("Deployment", "kueue.x-k8s.io/queue-name: q", "kueue.x-k8s.io/queue-name: other", "") + "---\n" + queueObjects(false),
			wantQueue: "q",
			want: []podWl{
				wl(0, "q", 0, 0, hash, webHash, labelQueueName, "q"),
				wl(1, "q", 0, 0, hash, webHash, labelQueueName, "q"),
			},
		},
		"ReplicaSet: the template's label and priority class": {
			in:        queuedDoc("ReplicaSet", "", "kueue.x-k8s.io/queue-name: q, kueue.x-k8s.io/priority-class: high", "") + "---\n" + queueObjects(false),
			wantQueue: "q",
			want: []podWl{
				wl(0, "q", 0, 100, labelQueueName, "q", labelPriorityClass, "high"),
				wl(1, "q", 0, 100, labelQueueName, "q", labelPriorityClass, "high"),
			},
		},
		"ReplicaSet: the object's label is not read": {
			in:       queuedDoc("ReplicaSet", "kueue.x-k8s.io/queue-name: q", "", "") + "---\n" + queueObjects(false),
			warnings: []diag{{At: "t.yaml:6:39", Object: "ReplicaSet/ns/web", Field: "metadata.labels[kueue.x-k8s.io/queue-name]", Msg: "Kueue has no ReplicaSet integration"}},
		},
		"LocalQueueDefaulting: the namespace's LocalQueue default": {
			in:        queuedDoc("ReplicaSet", "", "", "") + "---\n" + queueObjects(true),
			wantQueue: "default",
			want: []podWl{
				wl(0, "default", 0, 0, labelQueueName, "default"),
				wl(1, "default", 0, 0, labelQueueName, "default"),
			},
		},
		"without a queue, the pods are not Kueue's": {
			in: queuedDoc("Deployment", "", "", "") + "---\n" + queueObjects(false),
		},
		"scale events create pods with new indexes": {
			// Created at 10s with 2 pods; scaled to 1 (index 1 or 0 goes),
			// then to 3 (two new pods, 2 and 3), then to 3 again (none).
			// A scale before the Deployment exists is ignored.
			in: queuedDoc("Deployment", "kueue.x-k8s.io/queue-name: q", "", "") +
				"  # arrival below\n" + "---\n" + queueObjects(false) +
				"---\napiVersion: kueueplay/v1alpha1\nkind: Scenario\nspec:\n  events:\n" +
				"  - {at: 5s, scale: ns/web, replicas: 9}\n  - {at: 1m, scale: ns/web, replicas: 3}\n  - {at: 30s, scale: ns/web, replicas: 1}\n  - {at: 2m, scale: ns/web, replicas: 3}\n",
			wantQueue: "q",
			want: []podWl{
				wl(0, "q", 10*time.Second, 0, hash, webHash, labelQueueName, "q"),
				wl(1, "q", 10*time.Second, 0, hash, webHash, labelQueueName, "q"),
				wl(2, "q", time.Minute, 0, hash, webHash, labelQueueName, "q"),
				wl(3, "q", time.Minute, 0, hash, webHash, labelQueueName, "q"),
			},
		},
		"a LocalQueue that does not exist": {
			in:        queuedDoc("Deployment", "kueue.x-k8s.io/queue-name: nope", "", "") + "---\n" + queueObjects(false),
			wantQueue: "nope",
			want: []podWl{
				wl(0, "nope", 0, 0, hash, webHash, labelQueueName, "nope"),
				wl(1, "nope", 0, 0, hash, webHash, labelQueueName, "nope"),
			},
			warnings: []diag{{At: "t.yaml:6:39", Object: "Deployment/ns/web", Field: "metadata.labels[kueue.x-k8s.io/queue-name]", Msg: `LocalQueue "nope" does not exist in namespace "ns": the Workloads of this Deployment's pods stay pending`}},
		},
		"a priority class that does not exist: one warning, no Workloads": {
			in:        queuedDoc("Deployment", "kueue.x-k8s.io/queue-name: q, kueue.x-k8s.io/priority-class: nope", "", "") + "---\n" + queueObjects(false),
			wantQueue: "q",
			warnings:  []diag{{At: "t.yaml:6:73", Object: "Deployment/ns/web", Field: "metadata.labels[kueue.x-k8s.io/priority-class]", Msg: `WorkloadPriorityClass "nope" does not exist`}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			in := strings.Replace(tc.in, "  # arrival below\n", "", 1)
			if in != tc.in {
				in = strings.Replace(in, "  name: web\n", "  name: web\n  annotations: {kueueplay/arrival: 10s}\n", 1)
			}
			sc, diags := decode(t, in)
			if sc == nil {
				t.Fatalf("Decode failed: %v", diags)
			}
			if diff := diffDiags(tc.warnings, compact(sc.Warnings, core.SeverityWarning)); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
			if len(sc.Deployments) != 1 {
				t.Fatalf("got %d Deployments, want 1", len(sc.Deployments))
			}
			dep := sc.Deployments[0]
			if dep.Queue != tc.wantQueue {
				t.Errorf("Deployment.Queue = %q, want %q", dep.Queue, tc.wantQueue)
			}
			var got []podWl
			for _, i := range dep.Workloads {
				w := sc.Workloads[i]
				if len(w.PodSets) != 1 || w.PodSets[0].Name != "main" || w.PodSets[0].Count != 1 {
					t.Errorf("%s: pod sets %+v, want one pod set main of count 1", w.Name, w.PodSets)
					continue
				}
				if got, want := w.PodSets[0].Requests[core.ResourceCPU], core.Amount(1000); got != want {
					t.Errorf("%s: cpu request %d, want %d", w.Name, got, want)
				}
				got = append(got, podWl{name: w.Name, queue: w.Queue, podName: w.PodName, replicaOf: w.ReplicaOf,
					priority: w.Priority, arrival: w.Arrival, labels: w.PodSets[0].Labels})
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(podWl{})); diff != "" {
				t.Errorf("pod Workloads (-want +got):\n%s", diff)
			}
			if len(sc.Workloads) != len(dep.Workloads) {
				t.Errorf("%d Workloads in the scenario, %d of them the Deployment's", len(sc.Workloads), len(dep.Workloads))
			}
		})
	}
}

// TestQueuedDeploymentErrors covers what a queued Deployment refuses.
func TestQueuedDeploymentErrors(t *testing.T) {
	events := func(lines string) string {
		return "---\napiVersion: kueueplay/v1alpha1\nkind: Scenario\nspec:\n  events:\n" + lines
	}
	cases := map[string]struct {
		in   string
		want []diag
	}{
		"an event finishes a pod's Workload": {
			in: queuedDoc("Deployment", "kueue.x-k8s.io/queue-name: q", "", "") + "---\n" + queueObjects(false) +
				events("  - {at: 1m, delete: ns/pod-web-1}\n"),
			want: []diag{{At: "t.yaml:34:22", Object: "Scenario", Field: "spec.events[0].delete", Msg: `"ns/pod-web-1" is the Workload of a pod of Deployment "ns/web": the ReplicaSet controller creates and deletes those pods, so scale the owner instead`}},
		},
		"an invalid queue name": {
			in:   queuedDoc("ReplicaSet", "", "kueue.x-k8s.io/queue-name: q_x", "") + "---\n" + queueObjects(false),
			want: []diag{{At: "t.yaml:11:62", Object: "ReplicaSet/ns/web", Field: "spec.template.metadata.labels[kueue.x-k8s.io/queue-name]", Msg: "invalid queue name"}},
		},
		"a pod's Workload takes a Workload's name": {
			in:   queuedDoc("Deployment", "kueue.x-k8s.io/queue-name: q", "", "") + "---\n" + queueObjects(false) + "---\n" + wlDoc("ns", "pod-web-1"),
			want: []diag{{At: "t.yaml:4:9", Object: "Deployment/ns/web", Field: "metadata.name", Msg: `duplicate Workload "ns/pod-web-1": Pod "web-1" becomes this Workload, which is already defined at line 32`}},
		},
		"more Workloads than MaxObjects": {
			// 10,000 pods, then six scale-ups from 0 to 10,000: 70,000.
			in: strings.Replace(queuedDoc("Deployment", "kueue.x-k8s.io/queue-name: q", "", ""), "replicas: 2", "replicas: 10000", 1) +
				"---\n" + queueObjects(false) + events(strings.Repeat("  - {at: 1m, scale: ns/web, replicas: 0}\n  - {at: 1m, scale: ns/web, replicas: 10000}\n", 6)),
			want: []diag{{At: "t.yaml:8:13", Object: "Deployment/ns/web", Field: "spec.replicas", Msg: "make more than 60000 Workloads together (one per pod ever created; MaxObjects)"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, diags := decode(t, tc.in)
			if diff := diffDiags(tc.want, compact(diags, core.SeverityError)); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPastedDeployment decodes a kubectl dump of a Deployment whose pods
// Kueue queues (testdata/real/kubectl/deployment-replicaset-pods-workloads.yaml:
// the Deployment, its ReplicaSet, three Pods and their Workloads, two
// admitted and one pending) with some kinds of items taken out: the
// Deployment is simulated once, with the pasted pod Workloads as its pods.
func TestPastedDeployment(t *testing.T) {
	data, err := os.ReadFile("../../testdata/real/kubectl/deployment-replicaset-pods-workloads.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// without returns the dump without its items of the given kinds.
	without := func(kinds ...string) string {
		parts := strings.Split(string(data), "\n- apiVersion: ")
		out := parts[0]
		for _, p := range parts[1:] {
			keep := true
			for _, k := range kinds {
				if strings.Contains(p, "\n  kind: "+k+"\n") {
					keep = false
				}
			}
			if keep {
				out += "\n- apiVersion: " + p
			}
		}
		return out
	}
	const (
		admitted1 = "shop/pod-web-6b7f9c8d5-4xk2p-8a1f3"
		admitted2 = "shop/pod-web-6b7f9c8d5-9qz7m-2c4e6"
		pending   = "shop/pod-web-6b7f9c8d5-t5w8r-7d9b1"
	)
	type pod struct{ Workload, Pod, ReplicaOf string }
	cases := map[string]struct {
		in       string
		owner    string
		want     []pod
		warnings []diag
	}{
		"the whole dump: one Deployment, the pasted pod Workloads": {
			in:    string(data),
			owner: "Deployment shop/web",
			want: []pod{
				{admitted1, "web-6b7f9c8d5-4xk2p", "shop/web"},
				{admitted2, "web-6b7f9c8d5-9qz7m", "shop/web"},
				{pending, "web-6b7f9c8d5-t5w8r", "shop/web"},
			},
		},
		"without the Deployment, the ReplicaSet stands for it": {
			in:    without("Deployment"),
			owner: "ReplicaSet shop/web-6b7f9c8d5",
			want: []pod{
				{admitted1, "web-6b7f9c8d5-4xk2p", "shop/web-6b7f9c8d5"},
				{admitted2, "web-6b7f9c8d5-9qz7m", "shop/web-6b7f9c8d5"},
				{pending, "web-6b7f9c8d5-t5w8r", "shop/web-6b7f9c8d5"},
			},
		},
		"without the Workloads, new pending pods and a warning": {
			in:    without("Workload"),
			owner: "Deployment shop/web",
			want: []pod{
				{"shop/pod-web-0", "web-0", "shop/web"},
				{"shop/pod-web-1", "web-1", "shop/web"},
				{"shop/pod-web-2", "web-2", "shop/web"},
			},
			warnings: []diag{{At: "deployment-replicaset-pods-workloads.yaml:75:3", Object: "Deployment/shop/web", Msg: "3 pods of this Deployment are in the input but not their Workloads"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			sc, err := Decode("deployment-replicaset-pods-workloads.yaml", []byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if diff := diffDiags(tc.warnings, compact(sc.Warnings, core.SeverityWarning)); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
			if len(sc.Deployments) != 1 {
				t.Fatalf("%d Deployments and ReplicaSets, want 1", len(sc.Deployments))
			}
			dep := sc.Deployments[0]
			if got := dep.Kind + " " + dep.Key(); got != tc.owner {
				t.Errorf("simulated %s, want %s", got, tc.owner)
			}
			var got []pod
			for _, i := range dep.Workloads {
				w := sc.Workloads[i]
				got = append(got, pod{w.Key(), w.PodName, w.ReplicaOf})
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("pod workloads (-want +got):\n%s", diff)
			}
			if len(sc.Workloads) != len(tc.want) {
				t.Errorf("%d workloads in all, want only the pods' %d", len(sc.Workloads), len(tc.want))
			}
		})
	}
	t.Run("a scale event may not name the Deployment's ReplicaSet", func(t *testing.T) {
		in := string(data) + "---\napiVersion: kueueplay/v1alpha1\nkind: Scenario\nspec:\n  events:\n  - {at: 1m, scale: shop/web-6b7f9c8d5, replicas: 1}\n"
		_, diags := decode(t, in)
		want := []diag{{At: "t.yaml:601:21", Object: "Scenario", Field: "spec.events[0].scale", Msg: `ReplicaSet "shop/web-6b7f9c8d5" belongs to Deployment "shop/web" of the input, which the playground simulates in its place: scale the Deployment`}}
		if diff := diffDiags(want, compact(diags, core.SeverityError)); diff != "" {
			t.Errorf("errors (-want +got):\n%s", diff)
		}
	})
}
