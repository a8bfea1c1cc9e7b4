package scenario

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core"
)

// placementObjects follows a Scenario in the tests below: Nodes n1 and n2,
// Deployment shop/web, ReplicaSet shop/cache, Workload shop/train and Job
// shop/batch (Workload shop/job-batch).
const placementObjects = `---
` + "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: \"4\"}}\n" + `---
` + "apiVersion: v1\nkind: Node\nmetadata: {name: n2}\nstatus: {allocatable: {cpu: \"4\"}}\n" + `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c}]}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: cache, namespace: shop}
spec:
  selector: {matchLabels: {app: cache}}
  template:
    metadata: {labels: {app: cache}}
    spec: {containers: [{name: c}]}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: train, namespace: shop}
spec:
  queueName: q
  podSets: [{template: {spec: {containers: [{name: c}]}}}]
---
apiVersion: batch/v1
kind: Job
metadata:
  name: batch
  namespace: shop
  labels: {kueue.x-k8s.io/queue-name: q}
spec:
  template: {spec: {restartPolicy: Never, containers: [{name: c}]}}
`

// TestScaleEventsAndExpectPods checks the decoded scale events, expect[].pods
// and messages naming a Deployment.
func TestScaleEventsAndExpectPods(t *testing.T) {
	cases := map[string]struct {
		in         string
		wantEvents []core.Event
		wantExpect []core.Expectation
	}{
		"scale events beside finish and delete": {
			in: `apiVersion: kueueplay/v1alpha1
kind: Scenario
spec:
  events:
  - {at: 5m, scale: shop/web, replicas: 2}
  - {at: 6m, finish: shop/train}
  - {at: 7m, scale: shop/cache, replicas: 0}
  - {at: 8m, delete: shop/job-batch}
`,
			wantEvents: []core.Event{
				{At: 5 * time.Minute, Kind: core.EventScale, Target: "shop/web", Replicas: 2},
				{At: 6 * time.Minute, Kind: core.EventFinish, Workload: "shop/train"},
				{At: 7 * time.Minute, Kind: core.EventScale, Target: "shop/cache", Replicas: 0},
				{At: 8 * time.Minute, Kind: core.EventDelete, Workload: "shop/job-batch"},
			},
		},
		"pods per owner and node, and messages naming a Deployment": {
			in: `apiVersion: kueueplay/v1alpha1
kind: Scenario
spec:
  expect:
  - at: end
    pods:
      shop/web: {n1: 2, n2: 0}
      shop/cache: {}
      shop/train: null
      shop/job-batch: {n2: 1}
    messages:
      shop/web: "0/2 nodes are available: 2 Insufficient cpu."
      shop/train: pending
  - cycle: 1
    pods: {}
`,
			wantExpect: []core.Expectation{
				{
					When: core.ExpectationPoint{End: true},
					Pods: map[string]map[string]int{
						"shop/web":       {"n1": 2, "n2": 0},
						"shop/cache":     {},
						"shop/train":     {},
						"shop/job-batch": {"n2": 1},
					},
					Messages: map[string]string{
						"shop/web":   "0/2 nodes are available: 2 Insufficient cpu.",
						"shop/train": "pending",
					},
				},
				{
					When: core.ExpectationPoint{Cycle: ptr(1)},
					Pods: map[string]map[string]int{},
				},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			sc, diags := decode(t, tc.in+placementObjects)
			if sc == nil {
				t.Fatalf("Decode failed: %v", diags)
			}
			if diff := cmp.Diff(tc.wantEvents, sc.Events, ignorePos()); diff != "" {
				t.Errorf("Events (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantExpect, sc.Expect, ignorePos()); diff != "" {
				t.Errorf("Expect (-want +got):\n%s", diff)
			}
		})
	}
}

// TestScaleEventErrors has one case per error of a scale event, and of the
// finish/delete form it extends.
func TestScaleEventErrors(t *testing.T) {
	header := "apiVersion: kueueplay/v1alpha1\nkind: Scenario\nspec:\n  events:\n"
	cases := map[string]struct {
		events string // from line 5
		want   []diag
	}{
		"target is a workload": {
			events: "  - {at: 1s, scale: shop/train, replicas: 1}\n",
			want:   []diag{{At: "t.yaml:5:21", Object: "Scenario", Field: "spec.events[0].scale", Msg: `"shop/train" is a workload: scale applies to Deployments and ReplicaSets only`}},
		},
		"target is a Job": {
			events: "  - {at: 1s, scale: shop/batch, replicas: 1}\n",
			want:   []diag{{At: "t.yaml:5:21", Object: "Scenario", Field: "spec.events[0].scale", Msg: `"shop/batch" is a Job: scale applies to Deployments and ReplicaSets only`}},
		},
		"unknown target, bare name in namespace default": {
			events: "  - {at: 1s, scale: web, replicas: 1}\n",
			want:   []diag{{At: "t.yaml:5:21", Object: "Scenario", Field: "spec.events[0].scale", Msg: `unknown Deployment or ReplicaSet "default/web"`}},
		},
		"invalid and null targets": {
			events: "  - {at: 1s, scale: shop/web/x, replicas: 1}\n  - {at: 1s, scale: null, replicas: 1}\n",
			want: []diag{
				{At: "t.yaml:5:21", Object: "Scenario", Field: "spec.events[0].scale", Msg: `invalid Deployment or ReplicaSet reference "shop/web/x": write namespace/name`},
				{At: "t.yaml:6:21", Object: "Scenario", Field: "spec.events[1].scale", Msg: "expected a namespace/name, got null"},
			},
		},
		"replicas missing, null or out of range": {
			events: "  - {at: 1s, scale: shop/web}\n  - {at: 1s, scale: shop/web, replicas: null}\n  - {at: 1s, scale: shop/web, replicas: 10001}\n  - {at: 1s, scale: shop/web, replicas: -1}\n  - {at: 1s, scale: shop/web, replicas: two}\n",
			want: []diag{
				{At: "t.yaml:5:5", Object: "Scenario", Field: "spec.events[0].replicas", Msg: `missing required field "replicas": a scale event sets the new spec.replicas`},
				{At: "t.yaml:6:31", Object: "Scenario", Field: "spec.events[1].replicas", Msg: `missing required field "replicas"`},
				{At: "t.yaml:7:41", Object: "Scenario", Field: "spec.events[2].replicas", Msg: "must be between 0 and 10000 (MaxReplicas, the playground's bound), got 10001"},
				{At: "t.yaml:8:41", Object: "Scenario", Field: "spec.events[3].replicas", Msg: "must be between 0 and 10000 (MaxReplicas, the playground's bound), got -1"},
				{At: "t.yaml:9:41", Object: "Scenario", Field: "spec.events[4].replicas", Msg: `expected an integer, got the string "two"`},
			},
		},
		"replicas on a finish event": {
			events: "  - {at: 1s, finish: shop/train, replicas: 1}\n",
			want:   []diag{{At: "t.yaml:5:34", Object: "Scenario", Field: "spec.events[0].replicas", Msg: "replicas belongs to a scale event; finish and delete take none"}},
		},
		"scale and delete together, no action, no at": {
			events: "  - {at: 1s, scale: shop/web, delete: shop/train, replicas: 1}\n  - {at: 1s}\n  - {scale: shop/web, replicas: 1}\n",
			want: []diag{
				{At: "t.yaml:5:5", Object: "Scenario", Field: "spec.events[0]", Msg: "an event needs exactly one of finish, delete or scale, got 2"},
				{At: "t.yaml:6:5", Object: "Scenario", Field: "spec.events[1]", Msg: "an event needs exactly one of finish, delete or scale, got 0"},
				{At: "t.yaml:7:5", Object: "Scenario", Field: "spec.events[2].at", Msg: `missing required field "at"`},
			},
		},
		"finish and delete naming a Deployment or ReplicaSet": {
			events: "  - {at: 1s, finish: shop/web}\n  - {at: 1s, delete: shop/cache}\n",
			want: []diag{
				{At: "t.yaml:5:22", Object: "Scenario", Field: "spec.events[0].finish", Msg: `"shop/web" is a Deployment, not a workload: only scale, pods and messages name Deployments and ReplicaSets`},
				{At: "t.yaml:6:22", Object: "Scenario", Field: "spec.events[1].delete", Msg: `"shop/cache" is a ReplicaSet, not a workload`},
			},
		},
		"bad at": {
			events: "  - {at: soon, scale: shop/web, replicas: 1}\n",
			want:   []diag{{At: "t.yaml:5:10", Object: "Scenario", Field: "spec.events[0].at", Msg: `invalid duration "soon"`}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, diags := decode(t, header+tc.events+placementObjects)
			if diff := diffDiags(tc.want, compact(diags, core.SeverityError)); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// TestExpectPodsErrors has one case per error of expect[].pods and of
// messages keys.
func TestExpectPodsErrors(t *testing.T) {
	header := "apiVersion: kueueplay/v1alpha1\nkind: Scenario\nspec:\n  expect:\n  - at: end\n"
	cases := map[string]struct {
		expect  string // from line 6
		objects string
		want    []diag
	}{
		"unknown owner and node": {
			expect: "    pods:\n      shop/ghost: {n1: 1}\n      shop/web: {n3: 1}\n      batch: {n1: 1}\n",
			want: []diag{
				{At: "t.yaml:7:7", Object: "Scenario", Field: "spec.expect[0].pods[shop/ghost]", Msg: `unknown workload, Deployment or ReplicaSet "shop/ghost"`},
				{At: "t.yaml:8:18", Object: "Scenario", Field: "spec.expect[0].pods[shop/web][n3]", Msg: `unknown Node "n3"`},
				{At: "t.yaml:9:7", Object: "Scenario", Field: "spec.expect[0].pods[batch]", Msg: `unknown workload, Deployment or ReplicaSet "default/batch"`},
			},
		},
		"a file without Nodes": {
			expect:  "    pods: {shop/train: {n1: 0}}\n",
			objects: "---\n" + wlDoc("shop", "train"),
			want:    []diag{{At: "t.yaml:6:25", Object: "Scenario", Field: "spec.expect[0].pods[shop/train][n1]", Msg: `unknown Node "n1": the file has no Nodes, so no pod is placed`}},
		},
		"counts": {
			expect: "    pods:\n      shop/web: {n1: -1, n2: 1.5}\n      shop/cache: {n1: null, n2: \"1\"}\n",
			want: []diag{
				{At: "t.yaml:7:22", Object: "Scenario", Field: "spec.expect[0].pods[shop/web][n1]", Msg: "must be between 0 and 2147483647, got -1"},
				{At: "t.yaml:7:30", Object: "Scenario", Field: "spec.expect[0].pods[shop/web][n2]", Msg: "expected an integer, got the number 1.5"},
				{At: "t.yaml:8:24", Object: "Scenario", Field: "spec.expect[0].pods[shop/cache][n1]", Msg: "expected a pod count (an integer from 0), got null"},
				{At: "t.yaml:8:34", Object: "Scenario", Field: "spec.expect[0].pods[shop/cache][n2]", Msg: `expected an integer, got the string "1"`},
			},
		},
		"owner listed twice, invalid reference, wrong shapes": {
			expect:  "    pods:\n      web: {}\n      default/web: {}\n      a/b/c: {}\n      shop/web: 3\n  - at: end\n    pods: [shop/web]\n",
			objects: "---\n" + deploymentDoc("Deployment", "default", "web", "") + placementObjects,
			want: []diag{
				{At: "t.yaml:8:7", Object: "Scenario", Field: "spec.expect[0].pods[default/web]", Msg: `"default/web" is listed twice`},
				{At: "t.yaml:9:7", Object: "Scenario", Field: "spec.expect[0].pods[a/b/c]", Msg: `invalid workload, Deployment or ReplicaSet reference "a/b/c"`},
				{At: "t.yaml:10:17", Object: "Scenario", Field: "spec.expect[0].pods[shop/web]", Msg: "expected a mapping, got the integer 3"},
				{At: "t.yaml:12:11", Object: "Scenario", Field: "spec.expect[1].pods", Msg: "expected a mapping, got a list"},
			},
		},
		"messages keys": {
			expect: "    messages: {shop/ghost: x, cache: y, shop/cache: z}\n",
			want: []diag{
				{At: "t.yaml:6:16", Object: "Scenario", Field: "spec.expect[0].messages[shop/ghost]", Msg: `unknown workload, Deployment or ReplicaSet "shop/ghost"`},
				{At: "t.yaml:6:31", Object: "Scenario", Field: "spec.expect[0].messages[cache]", Msg: `unknown workload, Deployment or ReplicaSet "default/cache"`},
			},
		},
		"pending names workloads only": {
			expect: "    pending: [shop/web]\n",
			want:   []diag{{At: "t.yaml:6:15", Object: "Scenario", Field: "spec.expect[0].pending[0]", Msg: `"shop/web" is a Deployment, not a workload`}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			objects := tc.objects
			if objects == "" {
				objects = placementObjects
			}
			_, diags := decode(t, header+tc.expect+objects)
			if diff := diffDiags(tc.want, compact(diags, core.SeverityError)); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}
