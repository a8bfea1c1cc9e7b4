package scenario

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kueueplay/kueueplay/core"
)

// ignorePos drops positions where a test is about values.
func ignorePos() cmp.Option {
	return cmp.Options{
		cmpopts.IgnoreFields(core.ClusterQueue{}, "Pos"),
		cmpopts.IgnoreFields(core.Cohort{}, "Pos"),
		cmpopts.IgnoreFields(core.LocalQueue{}, "Pos"),
		cmpopts.IgnoreFields(core.ResourceFlavor{}, "Pos"),
		cmpopts.IgnoreFields(core.Workload{}, "Pos"),
		cmpopts.IgnoreFields(core.Namespace{}, "Pos"),
		cmpopts.IgnoreFields(core.Node{}, "Pos"),
		cmpopts.IgnoreFields(core.Deployment{}, "Pos"),
		cmpopts.IgnoreFields(core.ResourcePolicy{}, "Pos"),
		cmpopts.IgnoreFields(core.ResourcePolicyUnit{}, "Pos"),
		cmpopts.IgnoreFields(core.Event{}, "Pos"),
		cmpopts.IgnoreFields(core.Expectation{}, "Pos"),
	}
}

// TestDecodeWarnings covers what Kueue accepts but leaves pending or
// inactive: each is a positioned warning, and the file still decodes.
func TestDecodeWarnings(t *testing.T) {
	cases := map[string]struct {
		in   string
		want []diag
	}{
		"workload whose LocalQueue does not exist": {
			in: `apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: w, namespace: ns}
spec:
  queueName: ghost
  podSets: [{template: {spec: {containers: [{name: c}]}}}]
`,
			want: []diag{{At: "t.yaml:5:14", Object: "Workload/ns/w", Field: "spec.queueName", Msg: `LocalQueue "ghost" does not exist in namespace "ns": the workload stays pending`}},
		},
		"LocalQueue whose ClusterQueue does not exist": {
			in: `apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: q, namespace: ns}
spec:
  clusterQueue: ghost
`,
			want: []diag{{At: "t.yaml:5:17", Object: "LocalQueue/ns/q", Field: "spec.clusterQueue", Msg: `ClusterQueue "ghost" does not exist: workloads submitted to this LocalQueue stay pending`}},
		},
		"ClusterQueue naming a missing flavor and no namespaceSelector": {
			in: `apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: real}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq}
spec:
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: real
      resources: [{name: cpu, nominalQuota: 1}]
    - name: ghost
      resources: [{name: cpu, nominalQuota: 1}]
`,
			want: []diag{
				{At: "t.yaml:9:3", Object: "ClusterQueue/cq", Field: "spec.namespaceSelector", Msg: "ClusterQueue has no namespaceSelector, so it admits workloads from no namespace (Kueue treats a missing selector as matching nothing); set namespaceSelector: {} to admit all namespaces"},
				{At: "t.yaml:14:13", Object: "ClusterQueue/cq", Field: "spec.resourceGroups[0].flavors[1].name", Msg: `ResourceFlavor "ghost" does not exist: Kueue keeps the ClusterQueue inactive (FlavorNotFound)`},
			},
		},
		"namespaceSelector null is no selector": {
			in: `apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq}
spec:
  namespaceSelector: null
`,
			want: []diag{{At: "t.yaml:5:3", Object: "ClusterQueue/cq", Field: "spec.namespaceSelector", Msg: "admits workloads from no namespace"}},
		},
		"Job without queue-name label": {
			in: `apiVersion: batch/v1
kind: Job
metadata: {name: j, namespace: ns}
spec:
  template: {spec: {restartPolicy: Never, containers: [{name: c}]}}
`,
			want: []diag{{At: "t.yaml:1:1", Object: "Job/ns/j", Field: "metadata.labels[kueue.x-k8s.io/queue-name]", Msg: "Job has no kueue.x-k8s.io/queue-name label; Kueue does not manage it"}},
		},
		"Job template with restartPolicy Always": {
			in: `apiVersion: batch/v1
kind: Job
metadata:
  name: j
  labels: {kueue.x-k8s.io/queue-name: q}
spec:
  template: {spec: {containers: [{name: c}]}}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: q}
spec: {clusterQueue: cq}
---
` + cqHeader,
			want: []diag{{At: "t.yaml:7:13", Object: "Job/default/j", Field: "spec.template.spec.restartPolicy", Msg: "Kubernetes rejects a Job whose pod template has restartPolicy Always (the default); set OnFailure or Never"}},
		},
		"finished workload is left out": {
			in: `apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: w}
spec:
  queueName: q
  podSets: [{template: {spec: {containers: [{name: c}]}}}]
status:
  conditions:
  - {type: Finished, status: "True", reason: Succeeded, message: done}
`,
			want: []diag{{At: "t.yaml:9:12", Object: "Workload/default/w", Field: "status.conditions", Msg: "the Workload has finished (condition Finished is True)"}},
		},
		"fields that are real but not simulated": {
			in: cqHeader + `  admissionChecksStrategy:
    admissionChecks: [{name: prov}]
`,
			want: []diag{{At: "t.yaml:6:3", Object: "ClusterQueue/cq", Field: "spec.admissionChecksStrategy", Msg: "admission checks are not simulated"}},
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

// TestWarningsAlsoInError checks that warnings are listed in the
// DiagnosticsError too, in position order.
func TestWarningsAlsoInError(t *testing.T) {
	_, diags := decode(t, `apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq}
spec:
  stopPolicy: Paused
`)
	want := []core.Diagnostic{
		{Pos: core.Pos{File: testFile, Line: 5, Col: 3}, Severity: core.SeverityWarning, Object: "ClusterQueue/cq", Field: "spec.namespaceSelector",
			Message: "ClusterQueue has no namespaceSelector, so it admits workloads from no namespace (Kueue treats a missing selector as matching nothing); set namespaceSelector: {} to admit all namespaces"},
		{Pos: core.Pos{File: testFile, Line: 5, Col: 15}, Severity: core.SeverityError, Object: "ClusterQueue/cq", Field: "spec.stopPolicy",
			Message: `unsupported value "Paused": supported values: "None", "Hold", "HoldAndDrain"`},
	}
	if diff := cmp.Diff(want, diags); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

// TestKubectlList decodes what `kubectl get clusterqueues,localqueues,workloads
// -o yaml` prints: a v1 List with managedFields, uids, status and so on.
func TestKubectlList(t *testing.T) {
	sc := decodeFile(t, "kubectl-list.yaml")
	cpu3, mem := core.Amount(3000), core.Amount(600*1024*1024)
	admittedAt := time.Duration(0)
	want := &core.Scenario{
		CycleDuration: core.DefaultCycleDuration,
		MaxCycles:     core.DefaultMaxCycles,
		ClusterQueues: []core.ClusterQueue{{
			Name: "cluster-queue",
			ResourceGroups: []core.ResourceGroup{{
				CoveredResources: []core.ResourceName{"cpu", "memory"},
				Flavors: []core.FlavorQuotas{{
					Name: "default-flavor",
					Resources: []core.ResourceQuota{
						{Name: "cpu", Nominal: 9000},
						{Name: "memory", Nominal: 36 << 30},
					},
				}},
			}},
			NamespaceSelector: &core.LabelSelector{},
			QueueingStrategy:  core.BestEffortFIFO,
			Preemption: core.Preemption{
				WithinClusterQueue:  core.PreemptionLowerPriority,
				ReclaimWithinCohort: core.PreemptionNever,
				BorrowWithinCohort:  core.PreemptionNever,
			},
			FlavorFungibility: core.FlavorFungibility{WhenCanBorrow: core.MayStopSearch, WhenCanPreempt: core.TryNextFlavor},
			StopPolicy:        "None",
			Pos:               core.Pos{File: "kubectl-list.yaml", Line: 5, Col: 3},
		}},
		LocalQueues: []core.LocalQueue{{
			Namespace: "default", Name: "user-queue", ClusterQueue: "cluster-queue", StopPolicy: "None",
			Pos: core.Pos{File: "kubectl-list.yaml", Line: 80, Col: 3},
		}},
		Workloads: []core.Workload{{
			Namespace: "default",
			Name:      "job-sample-job-8f2c1",
			Queue:     "user-queue",
			PodSets: []core.PodSet{{
				Name:            "main",
				Count:           3,
				Requests:        map[core.ResourceName]core.Amount{"cpu": 1000, "memory": 200 << 20},
				NonZeroRequests: map[core.ResourceName]core.Amount{"cpu": 1000, "memory": 200 << 20},
			}},
			Active: true,
			Admission: &core.Admission{
				ClusterQueue: "cluster-queue",
				PodSets: []core.PodSetAdmission{{
					Name:          "main",
					Flavors:       map[core.ResourceName]core.FlavorName{"cpu": "default-flavor", "memory": "default-flavor"},
					ResourceUsage: map[core.ResourceName]core.Amount{"cpu": cpu3, "memory": mem},
					Count:         3,
				}},
			},
			AdmittedAt: &admittedAt,
			Pos:        core.Pos{File: "kubectl-list.yaml", Line: 108, Col: 3},
		}},
		Warnings: []core.Diagnostic{{
			Pos:      core.Pos{File: "kubectl-list.yaml", Line: 44, Col: 15},
			Severity: core.SeverityWarning,
			Object:   "ClusterQueue/cluster-queue",
			Field:    "spec.resourceGroups[0].flavors[0].name",
			Message:  `ResourceFlavor "default-flavor" does not exist: Kueue keeps the ClusterQueue inactive (FlavorNotFound) and admits nothing through it`,
		}},
	}
	if diff := cmp.Diff(want, sc); diff != "" {
		t.Errorf("Decode (-want +got):\n%s", diff)
	}
}

// TestV1beta1Conversion checks that v1beta1 objects get v1beta2 meaning.
func TestV1beta1Conversion(t *testing.T) {
	sc := decodeFile(t, "v1beta1.yaml")
	two, one, five := core.Amount(2000), core.Amount(1000), core.Amount(5000)
	threshold := int32(100)
	wantCQ := []core.ClusterQueue{{
		Name:   "team-a",
		Cohort: "research", // spec.cohort
		ResourceGroups: []core.ResourceGroup{{
			CoveredResources: []core.ResourceName{"cpu"},
			Flavors: []core.FlavorQuotas{{
				Name:      "on-demand",
				Resources: []core.ResourceQuota{{Name: "cpu", Nominal: 4000, BorrowingLimit: &two, LendingLimit: &one}},
			}},
		}},
		NamespaceSelector: &core.LabelSelector{MatchLabels: map[string]string{"team": "a"}},
		QueueingStrategy:  core.BestEffortFIFO,
		Preemption: core.Preemption{
			WithinClusterQueue:   core.PreemptionNever,
			ReclaimWithinCohort:  core.PreemptionAny,
			BorrowWithinCohort:   core.PreemptionLowerPriority,
			MaxPriorityThreshold: &threshold,
		},
		// Borrow and Preempt are deprecated aliases of MayStopSearch.
		FlavorFungibility: core.FlavorFungibility{WhenCanBorrow: core.MayStopSearch, WhenCanPreempt: core.MayStopSearch},
		StopPolicy:        "None",
	}}
	if diff := cmp.Diff(wantCQ, sc.ClusterQueues, ignorePos()); diff != "" {
		t.Errorf("ClusterQueues (-want +got):\n%s", diff)
	}
	// A Cohort's lendingLimit may exceed its nominal quota.
	wantCohorts := []core.Cohort{{
		Name:   "research",
		Parent: "org",
		ResourceGroups: []core.ResourceGroup{{
			CoveredResources: []core.ResourceName{"cpu"},
			Flavors: []core.FlavorQuotas{{
				Name:      "on-demand",
				Resources: []core.ResourceQuota{{Name: "cpu", Nominal: 2000, LendingLimit: &five}},
			}},
		}},
	}}
	if diff := cmp.Diff(wantCohorts, sc.Cohorts, ignorePos()); diff != "" {
		t.Errorf("Cohorts (-want +got):\n%s", diff)
	}
	wantWL := []core.Workload{
		{
			Namespace: "team-a", Name: "train", Queue: "main",
			Priority: 1000, PriorityClass: "high",
			PodSets: []core.PodSet{{
				Name: "main", Count: 2,
				Requests:        map[core.ResourceName]core.Amount{"cpu": 500},
				NonZeroRequests: map[core.ResourceName]core.Amount{"cpu": 500, "memory": 200 << 20},
			}},
			Active: true,
		},
		{
			// priorityClassName without priorityClassSource does not survive
			// the conversion; the priority does.
			Namespace: "team-a", Name: "legacy", Queue: "main",
			Priority: 7,
			PodSets: []core.PodSet{{
				Name: "workers", Count: 1,
				// limits stand in for absent requests.
				Requests:        map[core.ResourceName]core.Amount{"cpu": 2000},
				NonZeroRequests: map[core.ResourceName]core.Amount{"cpu": 2000, "memory": 200 << 20},
			}},
			Active: false,
		},
	}
	if diff := cmp.Diff(wantWL, sc.Workloads, ignorePos()); diff != "" {
		t.Errorf("Workloads (-want +got):\n%s", diff)
	}
	if len(sc.Warnings) != 0 {
		t.Errorf("unexpected warnings: %v", sc.Warnings)
	}
}

// TestJobConversion checks Job -> Workload: requests with init containers,
// sidecars, overhead and pod-level resources; counts; and the three
// priority sources.
func TestJobConversion(t *testing.T) {
	sc := decodeFile(t, "jobs.yaml")
	arrival, runtime, delay := 5*time.Second, 90*time.Second, 200*time.Millisecond
	want := []core.Workload{
		{
			Namespace: "ml", Name: "job-sidecars", Queue: "main",
			// The priority-class label wins over priorityClassName.
			Priority: 5000, PriorityClass: "urgent",
			PodSets: []core.PodSet{{
				Name:  "main",
				Count: 4, // min(parallelism 4, completions 10)
				// cpu: max(3, 0.5+2, 1+1+0.5) + 0.25 overhead.
				// memory: max(1Gi, 128Mi+3Gi, 2Gi+1Gi+128Mi) + 64Mi.
				Requests: map[core.ResourceName]core.Amount{
					"cpu":             3250,
					"memory":          3<<30 + 128<<20 + 64<<20,
					"example.com/gpu": 1,
				},
				NodeSelector: map[string]string{"cloud.example.com/capacity": "on-demand"},
				RequiredAffinity: []core.NodeSelectorTerm{{MatchExpressions: []core.NodeSelectorRequirement{
					{Key: "zone", Operator: "In", Values: []string{"a", "b"}},
				}}},
				Tolerations: []core.Toleration{{Key: "cloud.example.com/spot", Operator: "Exists", Effect: "NoSchedule"}},
				Labels: map[string]string{
					"app":                          "trainer",
					"batch.kubernetes.io/job-name": "sidecars",
					"job-name":                     "sidecars",
				},
				PreferredAffinity: []core.PreferredSchedulingTerm{{
					Weight:     20,
					Preference: core.NodeSelectorTerm{MatchExpressions: []core.NodeSelectorRequirement{{Key: "disk", Operator: "Exists"}}},
				}},
				NonZeroRequests: map[core.ResourceName]core.Amount{"cpu": 3250, "memory": 3<<30 + 128<<20 + 64<<20},
			}},
			Active:           true,
			Arrival:          arrival,
			Runtime:          &runtime,
			TerminationDelay: &delay,
		},
		{
			Namespace: "ml", Name: "job-short", Queue: "main",
			Priority: 900, PriorityClass: "batch-high", // priorityClassName
			PodSets: []core.PodSet{{
				Name: "main", Count: 2, // completions below parallelism
				Requests: map[core.ResourceName]core.Amount{"cpu": 100},
				Labels: map[string]string{
					"batch.kubernetes.io/job-name": "short", "job-name": "short",
				},
				NonZeroRequests: map[core.ResourceName]core.Amount{"cpu": 100, "memory": 200 << 20},
			}},
			Active: true,
		},
		{
			Namespace: "ml", Name: "job-single", Queue: "main",
			Priority: 10, PriorityClass: "cluster-default", // globalDefault
			PodSets: []core.PodSet{{
				Name: "main", Count: 1,
				// Pod-level requests replace the containers' memory.
				Requests: map[core.ResourceName]core.Amount{"cpu": 2000, "memory": 8 << 30},
				Labels: map[string]string{
					"batch.kubernetes.io/job-name": "single", "job-name": "single",
				},
				// The idle container scores as 100m cpu.
				NonZeroRequests: map[core.ResourceName]core.Amount{"cpu": 2100, "memory": 8 << 30},
			}},
			Active: true,
		},
	}
	if diff := cmp.Diff(want, sc.Workloads, ignorePos()); diff != "" {
		t.Errorf("Workloads (-want +got):\n%s", diff)
	}
	wantWarnings := []diag{
		{At: "jobs.yaml:8:22", Object: "LocalQueue/ml/main", Field: "spec.clusterQueue", Msg: `ClusterQueue "cq" does not exist`},
		{At: "jobs.yaml:119:1", Object: "Job/ml/unmanaged", Field: "metadata.labels[kueue.x-k8s.io/queue-name]", Msg: "Job has no kueue.x-k8s.io/queue-name label"},
	}
	if diff := diffDiags(wantWarnings, compact(sc.Warnings, core.SeverityWarning)); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

// TestPodRequests checks the Kubernetes request formula on its own.
func TestPodRequests(t *testing.T) {
	c := func(r rlist) containerReqs { return containerReqs{req: r} }
	side := func(r rlist) containerReqs { return containerReqs{req: r, sidecar: true} }
	cases := map[string]struct {
		containers, inits  []containerReqs
		podLevel, overhead rlist
		nonMissing         rlist
		want               rlist
	}{
		"sum of containers": {
			containers: []containerReqs{c(rlist{"cpu": 1000}), c(rlist{"cpu": 500, "memory": 10})},
			want:       rlist{"cpu": 1500, "memory": 10},
		},
		"init container larger than containers": {
			containers: []containerReqs{c(rlist{"cpu": 1000})},
			inits:      []containerReqs{c(rlist{"cpu": 4000})},
			want:       rlist{"cpu": 4000},
		},
		"sidecar adds to containers and to later init containers": {
			containers: []containerReqs{c(rlist{"cpu": 1000})},
			inits:      []containerReqs{side(rlist{"cpu": 1000}), c(rlist{"cpu": 2500})},
			want:       rlist{"cpu": 3500},
		},
		"sidecar started after an init container does not add to it": {
			containers: []containerReqs{c(rlist{"cpu": 1000})},
			inits:      []containerReqs{c(rlist{"cpu": 2500}), side(rlist{"cpu": 1000})},
			want:       rlist{"cpu": 2500},
		},
		"pod-level requests replace cpu and memory only": {
			containers: []containerReqs{c(rlist{"cpu": 1000, "memory": 5, "example.com/gpu": 1})},
			podLevel:   rlist{"cpu": 3000, "memory": 7, "example.com/gpu": 9},
			overhead:   rlist{"cpu": 100},
			want:       rlist{"cpu": 3100, "memory": 7, "example.com/gpu": 1},
		},
		"scheduler defaults fill in what a container does not request": {
			containers: []containerReqs{c(rlist{"cpu": 0}), c(rlist{})},
			nonMissing: rlist{"cpu": 100, "memory": 200},
			want:       rlist{"cpu": 100, "memory": 400},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, over := podRequests(tc.containers, tc.inits, tc.podLevel, tc.overhead, tc.nonMissing)
			if over {
				t.Fatal("unexpected overflow")
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("podRequests (-want +got):\n%s", diff)
			}
		})
	}
}

// TestScenarioObject checks the Scenario object's fields and defaults.
func TestScenarioObject(t *testing.T) {
	ns := `---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: train-1, namespace: team-a}
spec:
  queueName: q
  podSets: [{template: {spec: {containers: [{name: c}]}}}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: train-2}
spec:
  queueName: q
  podSets: [{template: {spec: {containers: [{name: c}]}}}]
`
	hour, thirty, forty, zero := time.Hour, 30*time.Second, 40*time.Second, time.Duration(0)
	three := 3
	cases := map[string]struct {
		in   string
		want *core.Scenario
	}{
		"no Scenario object": {
			in: "",
			want: &core.Scenario{
				CycleDuration: core.DefaultCycleDuration,
				MaxCycles:     core.DefaultMaxCycles,
			},
		},
		"every field": {
			in: `apiVersion: kueueplay/v1alpha1
kind: Scenario
metadata:
  name: spot-fallback
spec:
  description: Free text shown in the UI.
  featureGates: {LendingLimit: false, FlavorFungibilityPreferenceAsNamed: true}
  cycleDuration: 500ms
  terminationDelay: 2s
  until: 1h
  maxCycles: 500
  placement:
    weights: {ResourcePolicy: 51, NodeResourcesFit: 0}
  events:
  - {at: 30s, finish: team-a/train-1}
  - {at: 40s, delete: train-2}
  expect:
  - at: end
    admitted:
      team-a/train-1: {main: {cpu: on-demand, memory: on-demand}}
      train-2: {}
    messages:
      team-a/train-1: "insufficient unused quota"
  - at: 0s
    pending: [team-a/train-1]
    terminating: []
  - cycle: 3
    finished: [train-2]
    preempted: [default/train-2]
`,
			want: &core.Scenario{
				Name:             "spot-fallback",
				Description:      "Free text shown in the UI.",
				Gates:            core.FeatureGates{"LendingLimit": false, "FlavorFungibilityPreferenceAsNamed": true},
				CycleDuration:    500 * time.Millisecond,
				TerminationDelay: 2 * time.Second,
				Until:            &hour,
				MaxCycles:        500,
				Placement:        &core.PlacementSpec{Weights: map[core.ScorePlugin]int{"ResourcePolicy": 51, "NodeResourcesFit": 0}},
				Events: []core.Event{
					{At: thirty, Kind: core.EventFinish, Workload: "team-a/train-1"},
					{At: forty, Kind: core.EventDelete, Workload: "default/train-2"},
				},
				Expect: []core.Expectation{
					{
						When: core.ExpectationPoint{End: true},
						Admitted: map[string]map[string]map[core.ResourceName]core.FlavorName{
							"team-a/train-1":  {"main": {"cpu": "on-demand", "memory": "on-demand"}},
							"default/train-2": {},
						},
						Messages: map[string]string{"team-a/train-1": "insufficient unused quota"},
					},
					{
						When:        core.ExpectationPoint{At: &zero},
						Pending:     []string{"team-a/train-1"},
						Terminating: []string{},
					},
					{
						When:      core.ExpectationPoint{Cycle: &three},
						Finished:  []string{"default/train-2"},
						Preempted: []string{"default/train-2"},
					},
				},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			sc, diags := decode(t, tc.in+ns)
			if sc == nil {
				t.Fatalf("Decode failed: %v", diags)
			}
			sc.Workloads, sc.Warnings = nil, nil
			if diff := cmp.Diff(tc.want, sc, ignorePos()); diff != "" {
				t.Errorf("Decode (-want +got):\n%s", diff)
			}
		})
	}
}

// TestNodesAndResourcePolicies checks the placement inputs.
func TestNodesAndResourcePolicies(t *testing.T) {
	sc, diags := decode(t, `apiVersion: v1
kind: Node
metadata:
  name: od-1
  labels: {tier: ondemand}
spec:
  unschedulable: true
  taints:
  - {key: dedicated, value: ml, effect: NoSchedule}
status:
  capacity: {cpu: "8", memory: 32Gi, pods: "110"}
  allocatable: {cpu: 7500m, memory: 30Gi, pods: "110", nvidia.com/gpu: "2"}
  conditions: [{type: Ready, status: "True"}]
---
apiVersion: v1
kind: Node
metadata: {name: sp-1}
status:
  capacity: {cpu: "4"}
---
apiVersion: scheduling.x-k8s.io/v1alpha1
kind: ResourcePolicy
metadata: {name: web, namespace: ml}
spec:
  podSelector:
    matchExpressions:
    - {key: app, operator: In, values: [web, api]}
  matchLabelKeys: [batch.kubernetes.io/job-name]
  matchPolicy: {ignoreTerminatingPod: true}
  strategy: prefer
  units:
  - name: ondemand
    priority: 5
    maxCount: 2
    nodeSelector: {matchLabels: {tier: ondemand}}
  - priority: 2
    maxCount: 0
    nodeSelector: {matchLabels: {tier: spot}}
---
apiVersion: scheduling.sigs.x-k8s.io/v1alpha1
kind: ResourcePolicy
metadata: {name: all}
spec:
  strategy: required
  units: [{}]
`)
	if sc == nil {
		t.Fatalf("Decode failed: %v", diags)
	}
	wantNodes := []core.Node{
		{
			Name:          "od-1",
			Labels:        map[string]string{"tier": "ondemand"},
			Taints:        []core.Taint{{Key: "dedicated", Value: "ml", Effect: "NoSchedule"}},
			Unschedulable: true,
			Allocatable:   map[core.ResourceName]core.Amount{"cpu": 7500, "memory": 30 << 30, "pods": 110, "nvidia.com/gpu": 2},
		},
		{Name: "sp-1", Allocatable: map[core.ResourceName]core.Amount{"cpu": 4000}},
	}
	if diff := cmp.Diff(wantNodes, sc.Nodes, ignorePos()); diff != "" {
		t.Errorf("Nodes (-want +got):\n%s", diff)
	}
	wantPolicies := []core.ResourcePolicy{
		{
			Namespace: "ml", Name: "web",
			PodSelector: core.LabelSelector{MatchExpressions: []core.LabelSelectorRequirement{
				{Key: "app", Operator: "In", Values: []string{"web", "api"}},
			}},
			MatchLabelKeys:       []string{"batch.kubernetes.io/job-name"},
			IgnoreTerminatingPod: true,
			Strategy:             core.ResourcePolicyPrefer,
			Units: []core.ResourcePolicyUnit{
				{Name: "ondemand", Priority: 5, MaxCount: ptr(int32(2)), NodeSelector: core.LabelSelector{MatchLabels: map[string]string{"tier": "ondemand"}}},
				{Priority: 2, MaxCount: ptr(int32(0)), NodeSelector: core.LabelSelector{MatchLabels: map[string]string{"tier": "spot"}}},
			},
		},
		{
			Namespace: "default", Name: "all",
			Strategy: core.ResourcePolicyRequired,
			Units:    []core.ResourcePolicyUnit{{}},
		},
	}
	if diff := cmp.Diff(wantPolicies, sc.ResourcePolicies, ignorePos()); diff != "" {
		t.Errorf("ResourcePolicies (-want +got):\n%s", diff)
	}
}

// TestAdmissionTimes checks the virtual epoch: the latest QuotaReserved
// time of the file is 0, earlier ones are negative offsets, and workloads
// without a timestamp keep AdmittedAt nil.
func TestAdmissionTimes(t *testing.T) {
	wl := func(name, condition string) string {
		return `---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: ` + name + `}
spec:
  queueName: q
  podSets: [{count: 2, template: {spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}}}]
status:
  admission:
    clusterQueue: cq
    podSetAssignments: [{flavors: {cpu: f}, resourceUsage: {cpu: "2"}}]
` + condition
	}
	in := wl("early", `  conditions:
  - {type: QuotaReserved, status: "True", lastTransitionTime: "2025-03-04T09:00:00Z"}
`) + wl("late", `  conditions:
  - {type: QuotaReserved, status: "True", lastTransitionTime: 2025-03-04T10:01:30+01:00}
`) + wl("latest", `  conditions:
  - {type: QuotaReserved, status: "True", lastTransitionTime: "2025-03-04T09:02:00Z"}
`) + wl("untimed", "")
	sc, diags := decode(t, in)
	if sc == nil {
		t.Fatalf("Decode failed: %v", diags)
	}
	got := map[string]*time.Duration{}
	for _, w := range sc.Workloads {
		got[w.Name] = w.AdmittedAt
		want := &core.Admission{ClusterQueue: "cq", PodSets: []core.PodSetAdmission{{
			Name: "main", Count: 2,
			Flavors:       map[core.ResourceName]core.FlavorName{"cpu": "f"},
			ResourceUsage: map[core.ResourceName]core.Amount{"cpu": 2000},
		}}}
		if diff := cmp.Diff(want, w.Admission); diff != "" {
			t.Errorf("%s: Admission (-want +got):\n%s", w.Name, diff)
		}
	}
	want := map[string]*time.Duration{
		"early":   ptr(-2 * time.Minute),
		"late":    ptr(-30 * time.Second), // 09:01:30Z
		"latest":  ptr(time.Duration(0)),
		"untimed": nil,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("AdmittedAt (-want +got):\n%s", diff)
	}
}

// TestLocalQueueDefaulting checks Kueue's LocalQueueDefaulting (Beta, on in
// v0.16): a Job without the queue-name label goes to the LocalQueue named
// "default" of its namespace when there is one.
func TestLocalQueueDefaulting(t *testing.T) {
	sc, diags := decode(t, `apiVersion: batch/v1
kind: Job
metadata: {name: j, namespace: ns}
spec:
  template: {spec: {restartPolicy: Never, containers: [{name: c}]}}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: default, namespace: ns}
spec: {clusterQueue: cq}
---
`+cqHeader)
	if sc == nil {
		t.Fatalf("Decode failed: %v", diags)
	}
	if len(sc.Workloads) != 1 || sc.Workloads[0].Queue != "default" || sc.Workloads[0].Name != "job-j" {
		t.Errorf("Workloads = %+v, want job-j in queue default", sc.Workloads)
	}
	if len(sc.Warnings) != 0 {
		t.Errorf("unexpected warnings: %v", sc.Warnings)
	}
}

// TestLendingLimitGate checks that Kueue validates lendingLimit only while
// the LendingLimit gate is on (validateFlavorQuotas).
func TestLendingLimitGate(t *testing.T) {
	in := `apiVersion: kueueplay/v1alpha1
kind: Scenario
spec: {featureGates: {LendingLimit: false}}
---
` + cqHeader + `  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: f
      resources: [{name: cpu, nominalQuota: 1, lendingLimit: 5}]
`
	sc, diags := decode(t, in)
	if sc == nil {
		t.Fatalf("Decode failed: %v", diags)
	}
	five := core.Amount(5000)
	want := []core.ResourceQuota{{Name: "cpu", Nominal: 1000, LendingLimit: &five}}
	if diff := cmp.Diff(want, sc.ClusterQueues[0].ResourceGroups[0].Flavors[0].Resources); diff != "" {
		t.Errorf("quotas (-want +got):\n%s", diff)
	}
}

// TestNamespaces checks that declared Namespaces get the
// kubernetes.io/metadata.name label the API server sets.
func TestNamespaces(t *testing.T) {
	sc, diags := decode(t, `apiVersion: v1
kind: Namespace
metadata:
  name: team-a
  labels: {team: a, kubernetes.io/metadata.name: wrong}
  uid: 1c9d
spec: {finalizers: [kubernetes]}
status: {phase: Active}
`)
	if sc == nil {
		t.Fatalf("Decode failed: %v", diags)
	}
	want := []core.Namespace{{
		Name:   "team-a",
		Labels: map[string]string{"team": "a", "kubernetes.io/metadata.name": "team-a"},
		Pos:    core.Pos{File: testFile, Line: 1, Col: 1},
	}}
	if diff := cmp.Diff(want, sc.Namespaces); diff != "" {
		t.Errorf("Namespaces (-want +got):\n%s", diff)
	}
}

// TestYAMLFeatures checks merge keys and aliases within the budget.
func TestYAMLFeatures(t *testing.T) {
	sc, diags := decode(t, `apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata:
  name: spot
  managedFields: [&labels {tier: spot, zone: a}]
spec:
  nodeLabels:
    <<: *labels
    zone: b
`)
	if sc == nil {
		t.Fatalf("Decode failed: %v", diags)
	}
	want := map[string]string{"tier": "spot", "zone": "b"}
	if diff := cmp.Diff(want, sc.Flavors[0].NodeLabels); diff != "" {
		t.Errorf("NodeLabels (-want +got):\n%s", diff)
	}
}

// TestUnsupportedKinds checks that objects the playground does not simulate
// are one warning each, at their kind, and that the rest of the input runs
// (issue 19: a single AdmissionCheck in a kubectl List used to fail the
// whole file).
func TestUnsupportedKinds(t *testing.T) {
	in := `apiVersion: v1
kind: List
items:
- apiVersion: kueue.x-k8s.io/v1beta2
  kind: AdmissionCheck
  metadata: {name: prov}
  spec: {controllerName: kueue.x-k8s.io/provisioning-request}
- apiVersion: apiextensions.k8s.io/v1
  kind: CustomResourceDefinition
  metadata: {name: clusterqueues.kueue.x-k8s.io}
- apiVersion: rbac.authorization.k8s.io/v1
  kind: ClusterRole
  metadata: {name: batch-admin}
- apiVersion: v1
  kind: Service
  metadata: {name: web, namespace: apps}
- apiVersion: v1
  kind: LimitRange
  metadata: {name: defaults, namespace: team-a}
- apiVersion: kubeflow.org/v1
  kind: MPIJob
  metadata: {name: mpi, namespace: ns}
- apiVersion: kueue.x-k8s.io/v1beta2
  kind: ResourceFlavor
  metadata: {name: default-flavor}
`
	sc, diags := decode(t, in)
	if sc == nil {
		t.Fatalf("Decode failed: %v", diags)
	}
	want := []diag{
		{At: "t.yaml:5:9", Object: "AdmissionCheck/prov", Field: "kind", Msg: "kueue.x-k8s.io/v1beta2 AdmissionCheck is not simulated: the playground ignores it; admission checks are not simulated: the playground admits a workload once quota is reserved, where Kueue waits for its ClusterQueue's checks to be Ready"},
		{At: "t.yaml:9:9", Object: "CustomResourceDefinition/clusterqueues.kueue.x-k8s.io", Field: "kind", Msg: "apiextensions.k8s.io/v1 CustomResourceDefinition is not simulated: the playground ignores it"},
		{At: "t.yaml:12:9", Object: "ClusterRole/batch-admin", Field: "kind", Msg: "rbac.authorization.k8s.io/v1 ClusterRole is not simulated: the playground ignores it"},
		{At: "t.yaml:15:9", Object: "Service/apps/web", Field: "kind", Msg: "v1 Service is not simulated: the playground ignores it"},
		{At: "t.yaml:18:9", Object: "LimitRange/team-a/defaults", Field: "kind", Msg: "v1 LimitRange is not simulated: the playground ignores it; Kueue applies a LimitRange's default requests"},
		{At: "t.yaml:21:9", Object: "MPIJob/ns/mpi", Field: "kind", Msg: "kubeflow.org/v1 MPIJob is not simulated: the playground ignores it; Kueue v0.16.1 queues kubeflow.org/v2beta1 MPIJobs only"},
	}
	if diff := diffDiags(want, compact(diags, core.SeverityWarning)); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	if got := len(sc.Flavors); got != 1 {
		t.Errorf("got %d flavors, want the 1 ResourceFlavor of the list", got)
	}
	for _, d := range diags {
		if len(d.Message) > 300 {
			t.Errorf("message of %d bytes, want a short one: %s", len(d.Message), d.Message)
		}
	}
}

// TestGenerateName checks that metadata.generateName (Kueue's
// jobs/sample-job.yaml uses it) gives a deterministic name: the prefix and
// five characters of the API server's alphabet, different for each object
// with the same prefix, the same on every decode.
func TestGenerateName(t *testing.T) {
	job := `apiVersion: batch/v1
kind: Job
metadata:
  generateName: sample-job-
  namespace: default
  labels: {kueue.x-k8s.io/queue-name: user-queue}
spec:
  template: {spec: {restartPolicy: Never, containers: [{name: c, resources: {requests: {cpu: "1"}}}]}}
`
	in := job + "---\n" + job
	names := func() []string {
		sc, diags := decode(t, in)
		if sc == nil {
			t.Fatalf("Decode failed: %v", diags)
		}
		var out []string
		for _, w := range sc.Workloads {
			out = append(out, w.Name)
		}
		return out
	}
	got := names()
	if len(got) != 2 || got[0] == got[1] {
		t.Fatalf("workload names %q, want two different names", got)
	}
	name := regexp.MustCompile(`^job-sample-job-[bcdfghjklmnpqrstvwxz2456789]{5}$`)
	for _, n := range got {
		if !name.MatchString(n) {
			t.Errorf("workload name %q does not match %s", n, name)
		}
	}
	if diff := cmp.Diff(got, names()); diff != "" {
		t.Errorf("names differ between two decodes (-first +second):\n%s", diff)
	}
	// Neither name nor generateName is still an error that says what to do.
	_, diags := decode(t, "apiVersion: v1\nkind: Namespace\nmetadata: {labels: {a: b}}\n")
	want := []diag{{At: "t.yaml:3:11", Object: "Namespace/(unnamed)", Field: "metadata.name", Msg: `missing required field "name": set metadata.name (or metadata.generateName`}}
	if diff := diffDiags(want, compact(diags, core.SeverityError)); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

// TestOwnerReferences checks that a Workload whose controller
// ownerReference names a job of the input is that job's workload (issue 19:
// `kubectl get jobs,workloads -o yaml` of one running 2-CPU Job replayed as
// 4 CPUs used).
func TestOwnerReferences(t *testing.T) {
	setup := `apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: q, namespace: ns}
spec: {clusterQueue: cq}
---
`
	job := func(uid, runtime string) string {
		ann := ""
		if runtime != "" {
			ann = ", annotations: {kueueplay/runtime: " + runtime + "}"
		}
		return `apiVersion: batch/v1
kind: Job
metadata: {name: train, namespace: ns, uid: "` + uid + `", labels: {kueue.x-k8s.io/queue-name: q}` + ann + `}
spec:
  template: {spec: {restartPolicy: Never, containers: [{name: c, resources: {requests: {cpu: "1"}}}]}}
---
`
	}
	workload := func(ownerKind, ownerUID string) string {
		return `apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata:
  name: job-train-5d2c1
  namespace: ns
  ownerReferences:
  - {apiVersion: batch/v1, kind: ` + ownerKind + `, name: train, uid: "` + ownerUID + `", controller: true, blockOwnerDeletion: true}
spec:
  queueName: q
  podSets: [{name: main, count: 1, template: {spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}}}]
`
	}
	ten := 10 * time.Minute
	cases := map[string]struct {
		in          string
		want        []string
		wantRuntime *time.Duration
		warnings    []diag
	}{
		"a Workload owned by a Job of the input is its workload": {
			in:   setup + job("u1", "") + workload("Job", "u1"),
			want: []string{"ns/job-train-5d2c1"},
		},
		"without uids the owner's kind and name decide": {
			in:   setup + job("", "") + workload("Job", ""),
			want: []string{"ns/job-train-5d2c1"},
		},
		"the job's kueueplay annotations carry over": {
			in:          setup + job("u1", "10m") + workload("Job", "u1"),
			want:        []string{"ns/job-train-5d2c1"},
			wantRuntime: &ten,
		},
		"an owner of another kind is not this Job": {
			in:   setup + job("u1", "") + workload("JobSet", "u1"),
			want: []string{"ns/job-train", "ns/job-train-5d2c1"},
		},
		"different uids are different objects": {
			in:   setup + job("u1", "") + workload("Job", "u2"),
			want: []string{"ns/job-train", "ns/job-train-5d2c1"},
			warnings: []diag{{At: "t.yaml:18:5", Object: "Workload/ns/job-train-5d2c1", Field: "metadata.ownerReferences",
				Msg: `the controller ownerReference names Job "train" with uid "u2", but the Job in this input has uid "u1"`}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			sc, diags := decode(t, tc.in)
			if sc == nil {
				t.Fatalf("Decode failed: %v", diags)
			}
			var got []string
			for _, w := range sc.Workloads {
				got = append(got, w.Namespace+"/"+w.Name)
			}
			slices.Sort(got)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("workloads (-want +got):\n%s", diff)
			}
			if tc.wantRuntime != nil {
				if rt := sc.Workloads[0].Runtime; rt == nil || *rt != *tc.wantRuntime {
					t.Errorf("runtime %v, want %v", rt, *tc.wantRuntime)
				}
			}
			var warns []diag
			for _, w := range compact(diags, core.SeverityWarning) {
				if w.Field == "metadata.ownerReferences" {
					warns = append(warns, w)
				}
			}
			if diff := diffDiags(tc.warnings, warns); diff != "" {
				t.Errorf("ownerReference warnings (-want +got):\n%s", diff)
			}
		})
	}
	// The kubectl dump of one running 2-CPU Job: one workload, admitted,
	// holding 2 CPUs.
	sc := decodeFile(t, "../../../testdata/real/kubectl/job-and-its-workload.yaml")
	if len(sc.Workloads) != 1 || sc.Workloads[0].Admission == nil {
		t.Fatalf("got %d workloads, want 1 admitted: %+v", len(sc.Workloads), sc.Workloads)
	}
	if got := sc.Workloads[0].Admission.PodSets[0].ResourceUsage[core.ResourceCPU]; got != 2000 {
		t.Errorf("admitted cpu %d milli, want 2000", got)
	}
}

// TestTopologyAwareScheduling checks that everything asking for TAS gets
// the same "not simulated" warning where it is written, and that Topology
// objects are validated like the CRD does (issue 19, point 12).
func TestTopologyAwareScheduling(t *testing.T) {
	const notSimulated = "topology-aware scheduling is not simulated: "
	cases := map[string]struct {
		in       string
		warnings []diag
		errors   []diag
	}{
		"TAS annotation on a Job's pod template": {
			in: `apiVersion: batch/v1
kind: Job
metadata: {name: j, labels: {kueue.x-k8s.io/queue-name: q}}
spec:
  template:
    metadata:
      annotations: {kueue.x-k8s.io/podset-required-topology: cloud.provider.com/topology-rack}
    spec: {restartPolicy: Never, containers: [{name: c}]}
`,
			warnings: []diag{{At: "t.yaml:7:62", Object: "Job/default/j", Field: "spec.template.metadata.annotations[kueue.x-k8s.io/podset-required-topology]",
				Msg: notSimulated + "the annotation kueue.x-k8s.io/podset-required-topology is ignored"}},
		},
		"topologyRequest on a Workload's pod set": {
			in: `apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: w}
spec:
  queueName: q
  podSets:
  - name: main
    count: 1
    topologyRequest: {required: cloud.provider.com/topology-rack}
    template: {spec: {containers: [{name: c}]}}
`,
			warnings: []diag{{At: "t.yaml:9:5", Object: "Workload/default/w", Field: "spec.podSets[0].topologyRequest", Msg: notSimulated + "the topologyRequest is ignored"}},
		},
		"invalid Topology levels": {
			in: `apiVersion: kueue.x-k8s.io/v1beta2
kind: Topology
metadata: {name: t}
spec:
  levels:
  - nodeLabel: kubernetes.io/hostname
  - nodeLabel: rack
  - nodeLabel: rack
`,
			warnings: []diag{{At: "t.yaml:2:7", Object: "Topology/t", Field: "kind", Msg: notSimulated + `Topology "t" only makes the ClusterQueues whose flavors name it active`}},
			errors: []diag{
				{At: "t.yaml:6:16", Object: "Topology/t", Field: "spec.levels[0].nodeLabel", Msg: "the kubernetes.io/hostname label can only be used at the lowest level of topology"},
				{At: "t.yaml:8:5", Object: "Topology/t", Field: "spec.levels[2]", Msg: `must be unique: node label "rack" is used by an earlier level`},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, diags := decode(t, tc.in)
			var warns []diag
			for _, w := range compact(diags, core.SeverityWarning) {
				if strings.Contains(w.Msg, "topolog") {
					warns = append(warns, w)
				}
			}
			if diff := diffDiags(tc.warnings, warns); diff != "" {
				t.Errorf("TAS warnings (-want +got):\n%s", diff)
			}
			if diff := diffDiags(tc.errors, compact(diags, core.SeverityError)); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// TestOverCommitted checks the warning for pasted admissions that use more
// than a ClusterQueue or Cohort can hold (issue 19, point 9).
func TestOverCommitted(t *testing.T) {
	cq := func(name, cohort, nominal, borrowingLimit string) string {
		extra := ""
		if borrowingLimit != "" {
			extra = ", borrowingLimit: \"" + borrowingLimit + "\""
		}
		return `apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: ` + name + `}
spec:
  cohortName: "` + cohort + `"
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu]
    flavors: [{name: rf, resources: [{name: cpu, nominalQuota: "` + nominal + `"` + extra + `}]}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: q, namespace: ` + name + `}
spec: {clusterQueue: ` + name + `}
---
`
	}
	admitted := func(ns string, cpus int) string {
		return fmt.Sprintf(`apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: w, namespace: %s}
spec:
  queueName: q
  podSets: [{name: main, count: %d, template: {spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}}}]
status:
  admission: {clusterQueue: %s, podSetAssignments: [{name: main, count: %d, flavors: {cpu: rf}}]}
---
`, ns, cpus, ns, cpus)
	}
	const rf = "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: rf}\n---\n"
	cases := map[string]struct {
		in   string
		want []diag
	}{
		"within the quota": {
			in: rf + cq("a", "", "4", "") + admitted("a", 4),
		},
		"a ClusterQueue without a cohort beyond its nominal quota": {
			in:   rf + cq("a", "", "2", "") + admitted("a", 3),
			want: []diag{{At: "t.yaml:5:1", Object: "ClusterQueue/a", Msg: "over-committed: the admitted workloads of the input use 3 of cpu in flavor rf here, more than the 2 it can hold (its nominal quota, with no cohort to borrow from)"}},
		},
		"borrowing within the cohort is not over-committed": {
			in: rf + cq("a", "pool", "2", "") + cq("b", "pool", "2", "") + admitted("a", 4),
		},
		"a cohort beyond the quota of its tree": {
			in:   rf + cq("a", "pool", "2", "") + cq("b", "pool", "2", "") + admitted("a", 3) + admitted("b", 2),
			want: []diag{{At: "t.yaml:5:1", Object: "Cohort/pool", Msg: "use 5 of cpu in flavor rf here, more than the 4 it can hold (the quota of its whole tree)"}},
		},
		"beyond the borrowing limit": {
			in:   rf + cq("a", "pool", "2", "1") + cq("b", "pool", "8", "") + admitted("a", 4),
			want: []diag{{At: "t.yaml:5:1", Object: "ClusterQueue/a", Msg: "use 4 of cpu in flavor rf here, more than the 3 it can hold (quota 2 plus borrowingLimit 1)"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			sc, diags := decode(t, tc.in)
			if sc == nil {
				t.Fatalf("Decode failed: %v", diags)
			}
			var got []diag
			for _, w := range compact(diags, core.SeverityWarning) {
				if strings.Contains(w.Msg, "over-committed") {
					got = append(got, w)
				}
			}
			if diff := diffDiags(tc.want, got); diff != "" {
				t.Errorf("over-commitment warnings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestActionableMessages checks that the messages issue 19 (point 10)
// found unhelpful say what is wrong and what to do.
func TestActionableMessages(t *testing.T) {
	const admittedWorkload = `apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: w, namespace: team}
spec:
  queueName: q
  podSets: [{name: main, count: 1, template: {spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}}}]
status:
  admission: {clusterQueue: cq, podSetAssignments: [{name: main, count: 1, flavors: {cpu: rf}}]}
`
	cases := map[string]struct {
		in       string
		errors   []diag
		warnings []diag
	}{
		"a workloads-only dump: the admitted workload keeps its admission": {
			in: admittedWorkload,
			warnings: []diag{
				{At: "t.yaml:5:14", Object: "Workload/team/w", Field: "spec.queueName", Msg: `LocalQueue "q" does not exist in namespace "team": the workload keeps its admission, but it could not be queued again after an eviction; paste the LocalQueues too`},
				{At: "t.yaml:8:29", Object: "Workload/team/w", Field: "status.admission.clusterQueue", Msg: `ClusterQueue "cq" of the admission is not in the input: the workload is shown admitted, but its usage counts against no quota; paste the ClusterQueues too`},
			},
		},
		"a missing WorkloadPriorityClass is a warning, like a missing LocalQueue": {
			in: `apiVersion: batch/v1
kind: Job
metadata:
  name: j
  labels:
    kueue.x-k8s.io/queue-name: q
    kueue.x-k8s.io/priority-class: high
spec:
  template: {spec: {restartPolicy: Never, priorityClassName: gold, containers: [{name: c}]}}
`,
			warnings: []diag{
				{At: "t.yaml:7:36", Object: "Job/default/j", Field: "metadata.labels[kueue.x-k8s.io/priority-class]", Msg: `WorkloadPriorityClass "high" does not exist: Kueue cannot create the Workload for this Job, which stays suspended, so the playground leaves it out; paste the WorkloadPriorityClass`},
			},
		},
		"fair sharing weights are read but not simulated": {
			in:       "apiVersion: kueue.x-k8s.io/v1beta2\nkind: Cohort\nmetadata: {name: org}\nspec:\n  fairSharing: {weight: \"2\"}\n",
			warnings: []diag{{At: "t.yaml:5:17", Object: "Cohort/org", Field: "spec.fairSharing.weight", Msg: "fair sharing is not simulated, so the weight changes nothing here"}},
		},
		"the queue name written as an annotation": {
			in: "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: j\n  annotations: {kueue.x-k8s.io/queue-name: q}\nspec:\n  template: {spec: {restartPolicy: Never, containers: [{name: c}]}}\n",
			warnings: []diag{
				{At: "t.yaml:1:1", Object: "Job/default/j", Field: "metadata.labels[kueue.x-k8s.io/queue-name]", Msg: "Job has no kueue.x-k8s.io/queue-name label; Kueue does not manage it"},
				{At: "t.yaml:5:44", Object: "Job/default/j", Field: "metadata.annotations[kueue.x-k8s.io/queue-name]", Msg: "Kueue v0.16 reads the queue from the kueue.x-k8s.io/queue-name label only; this annotation is ignored: move it to metadata.labels"},
			},
		},
		"v1beta1's cohort in a v1beta2 ClusterQueue": {
			in:     "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: a}\nspec:\n  namespaceSelector: {}\n  cohort: pool\n",
			errors: []diag{{At: "t.yaml:6:3", Object: "ClusterQueue/a", Field: "spec.cohort", Msg: `unknown field "cohort" in kueue.x-k8s.io/v1beta2: use "cohortName"`}},
		},
		"v1beta2's cohortName in a v1beta1 ClusterQueue": {
			in:     "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata: {name: a}\nspec:\n  namespaceSelector: {}\n  cohortName: pool\n",
			errors: []diag{{At: "t.yaml:6:3", Object: "ClusterQueue/a", Field: "spec.cohortName", Msg: `unknown field "cohortName" in kueue.x-k8s.io/v1beta1: use "cohort"`}},
		},
		"a misspelled field gets the nearest known one": {
			in:     "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: a}\nspec:\n  namespaceSelector: {}\n  queueingStrategey: StrictFIFO\n",
			errors: []diag{{At: "t.yaml:6:3", Object: "ClusterQueue/a", Field: "spec.queueingStrategey", Msg: `unknown field "queueingStrategey"; did you mean "queueingStrategy"?`}},
		},
		"two objects without --- between them": {
			in: "apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\napiVersion: v1\nkind: Namespace\n",
			errors: []diag{
				{At: "t.yaml:4:1", Field: "apiVersion", Msg: `duplicate field "apiVersion" (first set at line 1); if a new object starts here, separate it from the one before with a line "---" above line 4`},
				{At: "t.yaml:5:1", Field: "kind", Msg: `duplicate field "kind" (first set at line 2); if a new object starts here, separate it from the one before with a line "---" above line 4`},
			},
		},
		"a tab in the indentation": {
			in:     "apiVersion: v1\nkind: Namespace\nmetadata:\n  \tname: a\n",
			errors: []diag{{At: "t.yaml:4:3", Msg: "invalid YAML: found character that cannot start any token; the line has a tab character: YAML indentation must use spaces, not tabs"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, diags := decode(t, tc.in)
			if diff := diffDiags(tc.errors, compact(diags, core.SeverityError)); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			if tc.warnings != nil {
				if diff := diffDiags(tc.warnings, compact(diags, core.SeverityWarning)); diff != "" {
					t.Errorf("warnings (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// TestPastedStates checks what the decoder reads of the states Kueue
// continues (issue 19, point 7): Evicted=True with the quota still held,
// an admitted inactive workload, status.requeueState.requeueAt, all in
// virtual time from the latest condition timestamp of the file.
func TestPastedStates(t *testing.T) {
	wl := func(name, spec, status string) string {
		return `---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: ` + name + `}
spec:
  queueName: q
` + spec + `  podSets: [{count: 1, template: {spec: {containers: [{name: c}]}}}]
status:
` + status
	}
	const admitted = "  admission: {clusterQueue: cq, podSetAssignments: [{flavors: {cpu: f}}]}\n"
	in := wl("evicted", "", admitted+`  conditions:
  - {type: QuotaReserved, status: "True", lastTransitionTime: "2026-01-01T09:00:00Z"}
  - {type: Evicted, status: "True", reason: Preempted, message: preempted, lastTransitionTime: "2026-01-01T09:59:50Z"}
`) + wl("inactive", "  active: false\n", admitted) +
		wl("backoff", "", `  requeueState: {count: 2, requeueAt: "2026-01-01T10:01:00Z"}
  conditions:
  - {type: Requeued, status: "False", reason: PodsReadyTimeout, lastTransitionTime: "2026-01-01T10:00:00Z"}
`) + wl("released", "", `  conditions:
  - {type: Evicted, status: "True", reason: Preempted, lastTransitionTime: "2026-01-01T09:30:00Z"}
`)
	sc, diags := decode(t, in)
	if sc == nil {
		t.Fatalf("Decode failed: %v", diags)
	}
	type state struct {
		Eviction   *core.Eviction
		RequeueAt  *time.Duration
		AdmittedAt *time.Duration
	}
	got := map[string]state{}
	for _, w := range sc.Workloads {
		got[w.Name] = state{w.Eviction, w.RequeueAt, w.AdmittedAt}
	}
	want := map[string]state{
		"evicted":  {Eviction: &core.Eviction{Reason: "Preempted", Message: "preempted", At: -10 * time.Second}, AdmittedAt: ptr(-time.Hour)},
		"inactive": {Eviction: &core.Eviction{Reason: "Deactivated", Message: "The workload is deactivated"}},
		"backoff":  {RequeueAt: ptr(time.Minute)},
		"released": {},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pasted states (-want +got):\n%s", diff)
	}
}

// TestOwnedPods checks that a Pod belongs to its controller owner (issue
// 19, point 1): the Pods of a pasted Job are not queued again.
func TestOwnedPods(t *testing.T) {
	const job = `apiVersion: batch/v1
kind: Job
metadata: {name: train, namespace: ns, labels: {kueue.x-k8s.io/queue-name: q}}
spec:
  template: {spec: {restartPolicy: Never, containers: [{name: c, resources: {requests: {cpu: "1"}}}]}}
---
`
	const pod = `apiVersion: v1
kind: Pod
metadata:
  name: train-abcde
  namespace: ns
  labels: {kueue.x-k8s.io/queue-name: q}
  ownerReferences: [{apiVersion: batch/v1, kind: Job, name: train, controller: true}]
spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}
`
	cases := map[string]struct {
		in       string
		want     []string
		warnings []diag
	}{
		"the Job is in the input: its Pod is counted with it": {
			in:   job + pod,
			want: []string{"ns/job-train"},
		},
		"the Job is not in the input: the Pod is left out, with a warning": {
			in: pod,
			warnings: []diag{{At: "t.yaml:7:21", Object: "Pod/ns/train-abcde", Field: "metadata.ownerReferences",
				Msg: `the Pod belongs to Job "train", which is not in the input: Kueue counts it through that Job's Workload, so the playground leaves the Pod out`}},
		},
		"a Pod without an owner is its own workload": {
			in:   strings.Replace(pod, "  ownerReferences: [{apiVersion: batch/v1, kind: Job, name: train, controller: true}]\n", "", 1),
			want: []string{"ns/pod-train-abcde"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			sc, diags := decode(t, tc.in)
			if sc == nil {
				t.Fatalf("Decode failed: %v", diags)
			}
			var got []string
			for _, w := range sc.Workloads {
				got = append(got, w.Namespace+"/"+w.Name)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("workloads (-want +got):\n%s", diff)
			}
			var warns []diag
			for _, w := range compact(diags, core.SeverityWarning) {
				if w.Field == "metadata.ownerReferences" {
					warns = append(warns, w)
				}
			}
			if diff := diffDiags(tc.warnings, warns); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestOwnedJobs checks that a job object owned by another job kind (a
// JobSet's Jobs) is not queued on its own.
func TestOwnedJobs(t *testing.T) {
	const jobset = `apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: js, namespace: ns, labels: {kueue.x-k8s.io/queue-name: q}}
spec:
  replicatedJobs:
  - name: workers
    template: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, resources: {requests: {cpu: "1"}}}]}}}}
---
`
	const child = `apiVersion: batch/v1
kind: Job
metadata:
  name: js-workers-0
  namespace: ns
  ownerReferences: [{apiVersion: jobset.x-k8s.io/v1alpha2, kind: JobSet, name: js, controller: true}]
spec:
  template: {spec: {restartPolicy: Never, containers: [{name: c, resources: {requests: {cpu: "1"}}}]}}
`
	cases := map[string]struct {
		in       string
		want     []string
		warnings []diag
	}{
		"the JobSet is in the input": {
			in:   jobset + child,
			want: []string{"ns/jobset-js"},
		},
		"the JobSet is not in the input": {
			in: child,
			warnings: []diag{{At: "t.yaml:6:21", Object: "Job/ns/js-workers-0", Field: "metadata.ownerReferences",
				Msg: `this Job belongs to JobSet "js", which is not in the input: Kueue counts it through that JobSet's Workload`}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			sc, diags := decode(t, tc.in)
			if sc == nil {
				t.Fatalf("Decode failed: %v", diags)
			}
			var got []string
			for _, w := range sc.Workloads {
				got = append(got, w.Namespace+"/"+w.Name)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("workloads (-want +got):\n%s", diff)
			}
			var warns []diag
			for _, w := range compact(diags, core.SeverityWarning) {
				if w.Field == "metadata.ownerReferences" || strings.Contains(w.Msg, "queue-name") {
					warns = append(warns, w)
				}
			}
			if diff := diffDiags(tc.warnings, warns); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestIsObjectKey checks the test register uses to take the current
// object's label as its key.
func TestIsObjectKey(t *testing.T) {
	for _, c := range []struct {
		name, k, kind, namespace, obj string
		want                          bool
	}{
		{"namespaced", "Workload/ns/w", "Workload", "ns", "w", true},
		{"cluster-scoped", "ClusterQueue/cq", "ClusterQueue", "", "cq", true},
		{"other kind", "Job/ns/w", "Workload", "ns", "w", false},
		{"kind prefix only", "WorkloadX/ns/w", "Workload", "ns", "w", false},
		{"other namespace", "Workload/nsx/w", "Workload", "ns", "w", false},
		{"namespace and name run together", "Workload/ns/w", "Workload", "n", "s/w", false},
		{"defaulted namespace in the label", "Workload/default/w", "Workload", "", "w", false},
		{"other name", "Workload/ns/w2", "Workload", "ns", "w", false},
		{"unnamed label", "Workload/ns/(unnamed)", "Workload", "ns", "w", false},
		{"empty", "", "Workload", "ns", "w", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := isObjectKey(c.k, c.kind, c.namespace, c.obj); got != c.want {
				t.Errorf("isObjectKey(%q, %q, %q, %q) = %v, want %v", c.k, c.kind, c.namespace, c.obj, got, c.want)
			}
		})
	}
}
