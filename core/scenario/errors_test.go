package scenario

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kueueplay/kueueplay/core"
)

// cq is a valid ClusterQueue document used as a neighbour in some cases.
const cqHeader = `apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq}
spec:
  namespaceSelector: {}
`

// TestDecodeErrors has one case per error class: each asserts the exact
// position, object and field path of every error.
func TestDecodeErrors(t *testing.T) {
	cases := map[string]struct {
		in   string
		want []diag
	}{
		"malformed YAML": {
			in: `apiVersion: v1
kind: Namespace
metadata: {name: a
spec: {}
`,
			want: []diag{{At: "t.yaml:3:1", Msg: "invalid YAML: did not find expected ',' or '}'"}},
		},
		"YAML duplicate key": {
			in: `apiVersion: v1
kind: Namespace
metadata:
  name: a
  name: b
`,
			want: []diag{{At: "t.yaml:5:3", Object: "Namespace/a", Field: "metadata.name", Msg: `duplicate field "name" (first set at line 4)`}},
		},
		"misspelled Kueue kind": {
			in: `apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueu
metadata: {name: a}
`,
			want: []diag{{At: "t.yaml:2:7", Object: "ClusterQueu/a", Field: "kind", Msg: `API group "kueue.x-k8s.io" has no kind "ClusterQueu"; did you mean "ClusterQueue"?`}},
		},
		"misspelled core kind": {
			in: `apiVersion: v1
kind: namespace
metadata: {name: a}
`,
			want: []diag{{At: "t.yaml:2:7", Object: "namespace/a", Field: "kind", Msg: `the core API group (apiVersion v1) has no kind "namespace"; did you mean "Namespace"?`}},
		},
		"kind far from any real one gets no suggestion": {
			in: `apiVersion: batch/v1
kind: Pipeline
metadata: {name: a}
`,
			want: []diag{{At: "t.yaml:2:7", Object: "Pipeline/a", Field: "kind", Msg: `API group "batch" has no kind "Pipeline"`}},
		},
		"kueue kind under a version Kueue v0.16.1 does not serve": {
			in: `apiVersion: kueue.x-k8s.io/v1alpha1
kind: Cohort
metadata: {name: a}
`,
			want: []diag{{At: "t.yaml:1:13", Object: "Cohort/a", Field: "apiVersion", Msg: `Cohort is served as apiVersion kueue.x-k8s.io/v1beta2, not "kueue.x-k8s.io/v1alpha1"`}},
		},
		"Kubernetes kind under an old version": {
			in: `apiVersion: apps/v1beta1
kind: Deployment
metadata: {name: a}
`,
			want: []diag{{At: "t.yaml:1:13", Object: "Deployment/a", Field: "apiVersion", Msg: `Deployment is served as apiVersion apps/v1, not "apps/v1beta1"`}},
		},
		"missing kind": {
			in: `apiVersion: v1
metadata: {name: a}
`,
			want: []diag{{At: "t.yaml:1:1", Field: "kind", Msg: `missing required field "kind"`}},
		},
		"unknown field": {
			in: cqHeader + `  cohortname: research
`,
			want: []diag{{At: "t.yaml:6:3", Object: "ClusterQueue/cq", Field: "spec.cohortname", Msg: `unknown field "cohortname"`}},
		},
		"unknown field in metadata and container": {
			in: `apiVersion: batch/v1
kind: Job
metadata:
  name: j
  labels: {kueue.x-k8s.io/queue-name: q}
  lables: {}
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: c
        image: busybox
        resource: {requests: {cpu: 1}}
`,
			want: []diag{
				{At: "t.yaml:6:3", Object: "Job/default/j", Field: "metadata.lables", Msg: `unknown field "lables"`},
				{At: "t.yaml:14:9", Object: "Job/default/j", Field: "spec.template.spec.containers[0].resource", Msg: `unknown field "resource"`},
			},
		},
		"bad quantity": {
			in: cqHeader + `  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: f
      resources:
      - {name: cpu, nominalQuota: 4 cores}
`,
			want: []diag{{At: "t.yaml:11:35", Object: "ClusterQueue/cq", Field: "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota", Msg: `"4 cores"`}},
		},
		"negative quota": {
			in: cqHeader + `  resourceGroups:
  - coveredResources: [memory]
    flavors:
    - name: f
      resources:
      - name: memory
        nominalQuota: -1Gi
`,
			want: []diag{{At: "t.yaml:12:23", Object: "ClusterQueue/cq", Field: "spec.resourceGroups[0].flavors[0].resources[0].nominalQuota", Msg: "must be greater than or equal to 0, got -1Gi"}},
		},
		"resources count differs from coveredResources": {
			in: cqHeader + `  resourceGroups:
  - coveredResources: [cpu, memory]
    flavors:
    - name: f
      resources:
      - {name: cpu, nominalQuota: 1}
`,
			want: []diag{{At: "t.yaml:11:7", Object: "ClusterQueue/cq", Field: "spec.resourceGroups[0].flavors[0].resources", Msg: "flavors must have the same number of resources as the coveredResources: coveredResources has 2, this flavor has 1"}},
		},
		"resources order differs from coveredResources": {
			in: cqHeader + `  resourceGroups:
  - coveredResources: [cpu, memory]
    flavors:
    - name: f
      resources:
      - {name: memory, nominalQuota: 1Gi}
      - {name: cpu, nominalQuota: 1}
`,
			want: []diag{
				{At: "t.yaml:11:16", Object: "ClusterQueue/cq", Field: "spec.resourceGroups[0].flavors[0].resources[0].name", Msg: `must match the name in coveredResources: expected "cpu" at this position, got "memory"`},
				{At: "t.yaml:12:16", Object: "ClusterQueue/cq", Field: "spec.resourceGroups[0].flavors[0].resources[1].name", Msg: `expected "memory" at this position, got "cpu"`},
			},
		},
		"resource in two groups": {
			in: cqHeader + `  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: f
      resources: [{name: cpu, nominalQuota: 1}]
  - coveredResources: [cpu]
    flavors:
    - name: g
      resources: [{name: cpu, nominalQuota: 1}]
`,
			want: []diag{{At: "t.yaml:11:24", Object: "ClusterQueue/cq", Field: "spec.resourceGroups[1].coveredResources[0]", Msg: `duplicate value "cpu": a resource may appear in only one resource group`}},
		},
		"flavor in two groups": {
			in: cqHeader + `  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: f
      resources: [{name: cpu, nominalQuota: 1}]
  - coveredResources: [memory]
    flavors:
    - name: f
      resources: [{name: memory, nominalQuota: 1}]
`,
			want: []diag{{At: "t.yaml:13:13", Object: "ClusterQueue/cq", Field: "spec.resourceGroups[1].flavors[0].name", Msg: `duplicate value "f": a flavor may appear in only one resource group`}},
		},
		"borrowingLimit and lendingLimit without a cohort": {
			in: cqHeader + `  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: f
      resources:
      - name: cpu
        nominalQuota: 4
        borrowingLimit: 1
        lendingLimit: 1
`,
			want: []diag{
				{At: "t.yaml:13:25", Object: "ClusterQueue/cq", Field: "spec.resourceGroups[0].flavors[0].resources[0].borrowingLimit", Msg: "must be nil when cohort is empty"},
				{At: "t.yaml:14:23", Object: "ClusterQueue/cq", Field: "spec.resourceGroups[0].flavors[0].resources[0].lendingLimit", Msg: "must be nil when cohort is empty"},
			},
		},
		"cohort limits without a parent": {
			in: `apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: org}
spec:
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: f
      resources: [{name: cpu, nominalQuota: 4, lendingLimit: 8}]
`,
			want: []diag{{At: "t.yaml:9:62", Object: "Cohort/org", Field: "spec.resourceGroups[0].flavors[0].resources[0].lendingLimit", Msg: "must be nil when parent is empty"}},
		},
		"lendingLimit above nominalQuota": {
			in: cqHeader + `  cohortName: research
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: f
      resources:
      - {name: cpu, nominalQuota: 4, lendingLimit: 5}
`,
			want: []diag{{At: "t.yaml:12:52", Object: "ClusterQueue/cq", Field: "spec.resourceGroups[0].flavors[0].resources[0].lendingLimit", Msg: "must be less than or equal to the nominalQuota (4)"}},
		},
		"cohort cycle": {
			in: `apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: a}
spec: {parentName: b}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: b}
spec: {parentName: c}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: c}
spec: {parentName: a}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: leaf}
spec: {parentName: a}
`,
			want: []diag{
				{At: "t.yaml:4:20", Object: "Cohort/a", Field: "spec.parentName", Msg: "Cohort cycle through parentName: a -> b -> c -> a"},
				{At: "t.yaml:9:20", Object: "Cohort/b", Field: "spec.parentName", Msg: "b -> c -> a -> b"},
				{At: "t.yaml:14:20", Object: "Cohort/c", Field: "spec.parentName", Msg: "c -> a -> b -> c"},
			},
		},
		"cohort is its own parent": {
			in: `apiVersion: kueue.x-k8s.io/v1beta2
kind: Cohort
metadata: {name: a}
spec: {parentName: a}
`,
			want: []diag{{At: "t.yaml:4:20", Object: "Cohort/a", Field: "spec.parentName", Msg: "a -> a"}},
		},
		"duplicate names": {
			in: cqHeader + `---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: cq}
spec: {namespaceSelector: {}}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: cq, namespace: other}
spec: {clusterQueue: cq}
`,
			want: []diag{{At: "t.yaml:9:18", Object: "ClusterQueue/cq", Field: "metadata.name", Msg: `duplicate ClusterQueue "cq" (first defined at line 3)`}},
		},
		"job and workload job-x collide": {
			in: `apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: job-x, namespace: ns}
spec:
  queueName: q
  podSets: [{name: main, template: {spec: {containers: [{name: c}]}}}]
---
apiVersion: batch/v1
kind: Job
metadata:
  name: x
  namespace: ns
  labels: {kueue.x-k8s.io/queue-name: q}
spec:
  template: {spec: {restartPolicy: Never, containers: [{name: c}]}}
`,
			want: []diag{{At: "t.yaml:11:9", Object: "Job/ns/x", Field: "metadata.name", Msg: `duplicate Workload "ns/job-x": Job "x" becomes this Workload, which is already defined at line 3`}},
		},
		"preference without both TryNextFlavor": {
			// whenCanBorrow keeps its default, MayStopSearch.
			in: cqHeader + `  flavorFungibility:
    whenCanPreempt: TryNextFlavor
    preference: PreemptionOverBorrowing
`,
			want: []diag{{At: "t.yaml:8:17", Object: "ClusterQueue/cq", Field: "spec.flavorFungibility.preference", Msg: `preference "PreemptionOverBorrowing" requires both whenCanBorrow and whenCanPreempt to be TryNextFlavor`}},
		},
		"v1beta2 rejects Borrow": {
			in: cqHeader + `  flavorFungibility: {whenCanBorrow: Borrow}
`,
			want: []diag{{At: "t.yaml:6:38", Object: "ClusterQueue/cq", Field: "spec.flavorFungibility.whenCanBorrow", Msg: `unsupported value "Borrow": supported values: "MayStopSearch", "TryNextFlavor"`}},
		},
		"borrowWithinCohort without reclaimWithinCohort": {
			in: cqHeader + `  preemption:
    withinClusterQueue: LowerPriority
    borrowWithinCohort: {policy: LowerPriority}
`,
			want: []diag{{At: "t.yaml:8:34", Object: "ClusterQueue/cq", Field: "spec.preemption.borrowWithinCohort.policy", Msg: "reclaimWithinCohort=Never and borrowWithinCohort.Policy!=Never"}},
		},
		"workload without pod sets": {
			in: `apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: w}
spec:
  queueName: q
  podSets: []
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: v}
spec:
  queueName: q
`,
			want: []diag{
				{At: "t.yaml:6:12", Object: "Workload/default/w", Field: "spec.podSets", Msg: "must have at least 1 pod set"},
				{At: "t.yaml:12:3", Object: "Workload/default/v", Field: "spec.podSets", Msg: `missing required field "podSets"`},
			},
		},
		"duplicate pod set names": {
			in: `apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: w}
spec:
  queueName: q
  podSets:
  - template: {spec: {containers: [{name: c}]}}
  - name: main
    template: {spec: {containers: [{name: c}]}}
`,
			want: []diag{{At: "t.yaml:8:11", Object: "Workload/default/w", Field: "spec.podSets[1].name", Msg: `duplicate pod set name "main"`}},
		},
		"more than 8 pod sets": {
			in: `apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: w}
spec:
  queueName: q
  podSets:
` + podSetLines(9),
			want: []diag{{At: "t.yaml:7:3", Object: "Workload/default/w", Field: "spec.podSets", Msg: "must have at most 8 pod sets, got 9"}},
		},
		"workload naming no queue": {
			in: `apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: w, namespace: ns}
spec:
  podSets: [{name: main, template: {spec: {containers: [{name: c}]}}}]
`,
			want: []diag{{At: "t.yaml:5:3", Object: "Workload/ns/w", Field: "spec.queueName", Msg: `missing required field "queueName"`}},
		},
		"unknown feature gate": {
			in: `apiVersion: kueueplay/v1alpha1
kind: Scenario
metadata: {name: s}
spec:
  featureGates:
    LendingLimit: false
    PartialAdmision: true
`,
			want: []diag{{At: "t.yaml:7:5", Object: "Scenario/s", Field: "spec.featureGates[PartialAdmision]", Msg: `unknown feature gate "PartialAdmision": not a gate of Kueue v0.16.1 nor of the playground; did you mean "PartialAdmission"?`}},
		},
		"bad duration": {
			in: `apiVersion: kueueplay/v1alpha1
kind: Scenario
metadata: {name: s}
spec:
  cycleDuration: 1 second
  terminationDelay: -1s
`,
			want: []diag{
				{At: "t.yaml:5:18", Object: "Scenario/s", Field: "spec.cycleDuration", Msg: `invalid duration "1 second": use Go duration syntax`},
				{At: "t.yaml:6:21", Object: "Scenario/s", Field: "spec.terminationDelay", Msg: "duration must not be negative, got -1s"},
			},
		},
		"maxCycles out of range": {
			in: `apiVersion: kueueplay/v1alpha1
kind: Scenario
metadata: {name: s}
spec: {maxCycles: 0}
---
apiVersion: kueueplay/v1alpha1
kind: Scenario
metadata: {name: t}
spec: {maxCycles: 1000001}
`,
			want: []diag{
				{At: "t.yaml:4:19", Object: "Scenario/s", Field: "spec.maxCycles", Msg: "must be between 1 and 1000000, got 0"},
				{At: "t.yaml:7:7", Object: "Scenario/t", Field: "kind", Msg: "a file may hold at most one Scenario object"},
			},
		},
		"maxCycles above the limit": {
			in: `apiVersion: kueueplay/v1alpha1
kind: Scenario
spec: {maxCycles: 1000001}
`,
			want: []diag{{At: "t.yaml:3:19", Object: "Scenario", Field: "spec.maxCycles", Msg: "must be between 1 and 1000000, got 1000001"}},
		},
		"expectation needs exactly one of at and cycle": {
			in: `apiVersion: kueueplay/v1alpha1
kind: Scenario
spec:
  expect:
  - {at: end, cycle: 3}
  - pending: []
`,
			want: []diag{
				{At: "t.yaml:5:5", Object: "Scenario", Field: "spec.expect[0]", Msg: "an expectation needs exactly one of at (end or a duration) or cycle, got 2"},
				{At: "t.yaml:6:5", Object: "Scenario", Field: "spec.expect[1]", Msg: "got 0"},
			},
		},
		"expectations and events naming unknown workloads": {
			in: `apiVersion: kueueplay/v1alpha1
kind: Scenario
spec:
  events:
  - {at: 1s, finish: team-a/ghost}
  - {at: 2s, delete: train}
  expect:
  - at: end
    admitted: {team-a/missing: {}}
    pending: [team-a/train]
    messages: {nope: hi}
---
apiVersion: batch/v1
kind: Job
metadata:
  name: train
  namespace: team-a
  labels: {kueue.x-k8s.io/queue-name: q}
spec:
  template: {spec: {restartPolicy: Never, containers: [{name: c}]}}
`,
			want: []diag{
				{At: "t.yaml:5:22", Object: "Scenario", Field: "spec.events[0].finish", Msg: `unknown workload "team-a/ghost"`},
				{At: "t.yaml:6:22", Object: "Scenario", Field: "spec.events[1].delete", Msg: `unknown workload "default/train"`},
				{At: "t.yaml:9:16", Object: "Scenario", Field: "spec.expect[0].admitted[team-a/missing]", Msg: `unknown workload "team-a/missing"`},
				{At: "t.yaml:10:15", Object: "Scenario", Field: "spec.expect[0].pending[0]", Msg: `unknown workload "team-a/train" (Job "team-a/train" becomes Workload "team-a/job-train")`},
				{At: "t.yaml:11:16", Object: "Scenario", Field: "spec.expect[0].messages[nope]", Msg: `unknown workload, Deployment or ReplicaSet "default/nope"`},
			},
		},
		"event with both actions": {
			in: `apiVersion: kueueplay/v1alpha1
kind: Scenario
spec:
  events:
  - {finish: a, delete: a}
`,
			want: []diag{
				{At: "t.yaml:5:5", Object: "Scenario", Field: "spec.events[0]", Msg: "an event needs exactly one of finish, delete or scale, got 2"},
				{At: "t.yaml:5:5", Object: "Scenario", Field: "spec.events[0].at", Msg: `missing required field "at"`},
				{At: "t.yaml:5:14", Object: "Scenario", Field: "spec.events[0].finish", Msg: `unknown workload "default/a"`},
				{At: "t.yaml:5:25", Object: "Scenario", Field: "spec.events[0].delete", Msg: `unknown workload "default/a"`},
			},
		},
		"annotations that are not durations or are negative": {
			in: `apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata:
  name: w
  annotations:
    kueueplay/arrival: soon
    kueueplay/runtime: -10s
    kueueplay/termination-delay: "90"
    kueueplay/arrivel: 1s
spec:
  queueName: q
  podSets: [{name: main, template: {spec: {containers: [{name: c}]}}}]
`,
			want: []diag{
				{At: "t.yaml:6:24", Object: "Workload/default/w", Field: "metadata.annotations[kueueplay/arrival]", Msg: `invalid duration "soon"`},
				{At: "t.yaml:7:24", Object: "Workload/default/w", Field: "metadata.annotations[kueueplay/runtime]", Msg: "duration must not be negative, got -10s"},
				{At: "t.yaml:8:34", Object: "Workload/default/w", Field: "metadata.annotations[kueueplay/termination-delay]", Msg: `invalid duration "90"`},
				{At: "t.yaml:9:24", Object: "Workload/default/w", Field: "metadata.annotations[kueueplay/arrivel]", Msg: `unknown kueueplay annotation "kueueplay/arrivel"`},
			},
		},
		"string field given a number": {
			in: `apiVersion: v1
kind: Namespace
metadata:
  name: ns
  labels: {version: 2}
`,
			want: []diag{{At: "t.yaml:5:21", Object: "Namespace/ns", Field: "metadata.labels[version]", Msg: "expected a string, got the integer 2 (quote it)"}},
		},
		"container requests": {
			in: `apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: w}
spec:
  queueName: q
  podSets:
  - name: main
    template:
      spec:
        containers:
        - name: c
          resources:
            requests: {cpu: "2", pods: "1"}
            limits: {cpu: "1"}
        - name: c
`,
			want: []diag{
				{At: "t.yaml:13:29", Object: "Workload/default/w", Field: "spec.podSets[0].template.spec.containers[0].resources.requests[cpu]", Msg: "requests must not exceed its limits: request 2 is above limit 1"},
				{At: "t.yaml:13:40", Object: "Workload/default/w", Field: "spec.podSets[0].template.spec.containers[0].resources.requests[pods]", Msg: "the key is reserved for internal kueue use"},
				{At: "t.yaml:15:17", Object: "Workload/default/w", Field: "spec.podSets[0].template.spec.containers[1].name", Msg: `duplicate container name "c"`},
			},
		},
		"admission usage not a multiple of count": {
			in: `apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: w}
spec:
  queueName: q
  podSets:
  - {name: main, count: 3, template: {spec: {containers: [{name: c}]}}}
status:
  admission:
    clusterQueue: cq
    podSetAssignments:
    - name: main
      resourceUsage: {cpu: "2"}
    - name: extra
`,
			want: []diag{
				{At: "t.yaml:12:5", Object: "Workload/default/w", Field: "status.admission.podSetAssignments", Msg: "podSetAssignments must have the same number of podSets as the spec: spec has 1, status.admission has 2"},
				{At: "t.yaml:13:28", Object: "Workload/default/w", Field: "status.admission.podSetAssignments[0].resourceUsage[cpu]", Msg: "is not a multiple of 3"},
				{At: "t.yaml:14:13", Object: "Workload/default/w", Field: "status.admission.podSetAssignments[1].name", Msg: `pod set "extra" not found in spec.podSets`},
			},
		},
		"resource policy without strategy": {
			in: `apiVersion: scheduling.x-k8s.io/v1alpha1
kind: ResourcePolicy
metadata: {name: rp, namespace: ns}
spec:
  units:
  - {priority: -1, nodeSelector: {pool: a}}
`,
			want: []diag{
				{At: "t.yaml:5:3", Object: "ResourcePolicy/ns/rp", Field: "spec.strategy", Msg: `missing required field "strategy"`},
				{At: "t.yaml:6:16", Object: "ResourcePolicy/ns/rp", Field: "spec.units[0].priority", Msg: "must be between 0 and 2147483647, got -1"},
				{At: "t.yaml:6:35", Object: "ResourcePolicy/ns/rp", Field: "spec.units[0].nodeSelector.pool", Msg: `unknown field "pool": nodeSelector is a label selector`},
			},
		},
		"placement weights": {
			in: `apiVersion: kueueplay/v1alpha1
kind: Scenario
spec:
  placement:
    weights: {NodeAffinity: -1, ImageLocality: 1}
`,
			want: []diag{
				{At: "t.yaml:5:29", Object: "Scenario", Field: "spec.placement.weights[NodeAffinity]", Msg: "must be between 0 and 100, got -1"},
				{At: "t.yaml:5:33", Object: "Scenario", Field: "spec.placement.weights[ImageLocality]", Msg: `unknown score plugin "ImageLocality"`},
			},
		},
		"label value too long": {
			in: `apiVersion: v1
kind: Namespace
metadata:
  name: ns
  labels: {team: ` + strings.Repeat("a", 64) + `}
`,
			want: []diag{{At: "t.yaml:5:18", Object: "Namespace/ns", Field: "metadata.labels[team]", Msg: "invalid label value: must be no more than 63 characters, got 64"}},
		},
		"name too long": {
			in: `apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: ` + strings.Repeat("a", 254) + `}
`,
			want: []diag{{At: "t.yaml:3:18", Object: "ResourceFlavor/" + strings.Repeat("a", 254), Field: "metadata.name", Msg: "invalid name: must be no more than 253 characters, got 254"}},
		},
		"a 10,000-character name is cut in the object": {
			in: `apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: ` + strings.Repeat("a", 10000) + `}
`,
			want: []diag{{At: "t.yaml:3:18", Object: "ResourceFlavor/" + strings.Repeat("a", 512-len("ResourceFlavor/")) + "…(9503 more characters)", Field: "metadata.name", Msg: "invalid name: must be no more than 253 characters, got 10000"}},
		},
		"control characters and a bidi override are escaped in the object and field": {
			in: "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: \"a\\e[31m\\u202e\", labels: {\"k\\u0007\": v}}\n",
			want: []diag{
				{At: "t.yaml:3:18", Object: `ResourceFlavor/a\x1b[31m\u202e`, Field: "metadata.name", Msg: `invalid name: "a\x1b[31m\u202e" is not a lowercase RFC 1123 subdomain: it must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com')`},
				{At: "t.yaml:3:44", Object: `ResourceFlavor/a\x1b[31m\u202e`, Field: `metadata.labels[k\a]`, Msg: `invalid label key: name part of "k\a" must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`},
			},
		},
		"job name longer than a label value": {
			in: `apiVersion: batch/v1
kind: Job
metadata:
  name: ` + strings.Repeat("j", 64) + `
  labels: {kueue.x-k8s.io/queue-name: q}
spec:
  template: {spec: {restartPolicy: Never, containers: [{name: c}]}}
`,
			want: []diag{{At: "t.yaml:4:9", Object: "Job/default/" + strings.Repeat("j", 64), Field: "metadata.name", Msg: "invalid name: must be no more than 63 characters, got 64"}},
		},
		"nesting too deep": {
			in: `apiVersion: v1
kind: Namespace
metadata:
  name: ns
  annotations: {a: ` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}
`,
			want: []diag{{At: "t.yaml:5:117", Msg: "YAML nesting is deeper than 100 levels (MaxDepth)"}},
		},
		"flow nesting past the raw scan, refused before the YAML parser": {
			in:   "apiVersion: v1\nkind: Namespace\nmetadata: {name: ns}\n---\nx: " + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + "\n",
			want: []diag{{At: "t.yaml:5:1004", Msg: "YAML nesting is deeper than 100 levels (MaxDepth)"}},
		},
		"alias bomb": {
			// managedFields is skipped unread, so the anchors cost nothing
			// until spec merges a6, which expands to 2×10^6 copies of a0.
			in: `apiVersion: kueueplay/v1alpha1
kind: Scenario
metadata:
  managedFields:
  - &a0 {description: x}
  - &a1 {<<: [*a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0]}
  - &a2 {<<: [*a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1]}
  - &a3 {<<: [*a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2]}
  - &a4 {<<: [*a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3]}
  - &a5 {<<: [*a4, *a4, *a4, *a4, *a4, *a4, *a4, *a4, *a4, *a4]}
  - &a6 {<<: [*a5, *a5, *a5, *a5, *a5, *a5, *a5, *a5, *a5, *a5]}
spec:
  <<: [*a6, *a6]
`,
			want: []diag{{At: "t.yaml:6:20", Object: "Scenario", Msg: "YAML alias *a0: aliases may expand to at most 1000000 nodes in total (MaxAliasNodes)"}},
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

// podSetLines returns n pod set entries p0..p<n-1>, one per line.
func podSetLines(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "  - {name: p%d, template: {spec: {containers: [{name: c}]}}}\n", i)
	}
	return b.String()
}

// TestDecodeBounds checks the limits that stop decoding early.
func TestDecodeBounds(t *testing.T) {
	ns := "apiVersion: v1\nkind: Namespace\nmetadata: {name: n}\n"
	cases := map[string]struct {
		in   string
		want []diag
	}{
		"input too large": {
			in:   strings.Repeat("#", MaxInputBytes+1),
			want: []diag{{At: "t.yaml:1:1", Msg: "the file is 33554433 bytes; at most 33554432 bytes (32 MiB, MaxInputBytes) are accepted"}},
		},
		"too many documents": {
			in:   strings.Repeat("---\n{}\n", MaxObjects+1),
			want: []diag{{At: "t.yaml:120001:1", Msg: "more than 60000 documents (MaxObjects)"}},
		},
		"too many objects in lists": {
			in:   "apiVersion: v1\nkind: List\nitems:\n" + strings.Repeat("- {apiVersion: v1, kind: Namespace, metadata: {name: n}}\n", MaxObjects+1),
			want: []diag{{At: "t.yaml:1:1", Msg: "more than 60000 objects (MaxObjects)"}},
		},
		"unknown anchor": {
			in:   ns + "spec: *nope\n",
			want: []diag{{At: "t.yaml:4:7", Msg: "invalid YAML: unknown anchor 'nope' referenced"}},
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
