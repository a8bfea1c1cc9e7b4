package scenario

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
)

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestDecodeConfiguration decodes Kueue Configurations, alone and inside
// the manager ConfigMap, and checks what is kept, every warning and every
// error, with positions in the outer file.
func TestDecodeConfiguration(t *testing.T) {
	cases := map[string]struct {
		in       string
		file     string // testdata file used instead of in
		want     *core.Configuration
		gates    core.FeatureGates
		warnings []diag
		errors   []diag
	}{
		"v1beta2 alone (docs: administer cluster quotas)": {
			file: "config/quotas-transformations.yaml",
			want: &core.Configuration{
				Source: "Configuration", APIVersion: "config.kueue.x-k8s.io/v1beta2",
				Pos: core.Pos{File: "t.yaml", Line: 6, Col: 1},
				Transformations: []core.ResourceTransformation{
					{Input: "example.com/gpu-type1", Strategy: core.TransformReplace, Outputs: []core.TransformationOutput{
						{Name: "example.com/credits", Quantity: "10", MilliPerUnit: 10_000},
						{Name: "example.com/gpu-memory", Quantity: "5Gi", MilliPerUnit: 5 << 30 * 1000},
					}},
					{Input: "example.com/gpu-type2", Strategy: core.TransformReplace, Outputs: []core.TransformationOutput{
						{Name: "example.com/credits", Quantity: "40", MilliPerUnit: 40_000},
						{Name: "example.com/gpu-memory", Quantity: "20Gi", MilliPerUnit: 20 << 30 * 1000},
					}},
					{Input: "cpu", Strategy: core.TransformRetain, Outputs: []core.TransformationOutput{
						{Name: "example.com/credits", Quantity: "1", MilliPerUnit: 1000},
					}},
				},
			},
		},
		"v1beta2 as published: the page's invalid YAML is a positioned error": {
			file:   "config/quotas-transformations-as-published.yaml",
			errors: []diag{{At: "t.yaml:7:1", Msg: "invalid YAML: mapping values are not allowed in this context"}},
		},
		"v1beta1 alone, with its enable switches off": {
			in: `apiVersion: config.kueue.x-k8s.io/v1beta1
kind: Configuration
queueVisibility:
  clusterQueues: {maxCount: 10}
  updateIntervalSeconds: 2
waitForPodsReady:
  enable: false
  timeout: 5m
fairSharing:
  enable: false
integrations:
  frameworks: [batch/job]
  podOptions:
    namespaceSelector: {}
resources:
  excludeResourcePrefixes: [example.com/]
featureGates:
  LendingLimit: false
`,
			want: &core.Configuration{
				Source: "Configuration", APIVersion: "config.kueue.x-k8s.io/v1beta1",
				Pos:                     core.Pos{File: "t.yaml", Line: 1, Col: 1},
				ExcludeResourcePrefixes: []string{"example.com/"},
				FeatureGates:            core.FeatureGates{core.GateLendingLimit: false},
			},
			gates: core.FeatureGates{core.GateLendingLimit: false},
		},
		"v1beta1 switches on are warnings": {
			in: `apiVersion: config.kueue.x-k8s.io/v1beta1
kind: Configuration
waitForPodsReady:
  enable: true
fairSharing:
  enable: true
  preemptionStrategies: [LessThanInitialShare]
`,
			want: &core.Configuration{Source: "Configuration", APIVersion: "config.kueue.x-k8s.io/v1beta1", Pos: core.Pos{File: "t.yaml", Line: 1, Col: 1}},
			warnings: []diag{
				{At: "t.yaml:3:1", Object: "Configuration", Field: "waitForPodsReady", Msg: "waitForPodsReady is not simulated"},
				{At: "t.yaml:5:1", Object: "Configuration", Field: "fairSharing", Msg: "fairSharing is not simulated"},
			},
		},
		"inside the ConfigMap exactly as kubectl prints it": {
			file: "config/kubectl-get-cm.yaml",
			want: &core.Configuration{
				Source: "ConfigMap/kueue-system/kueue-manager-config", APIVersion: "config.kueue.x-k8s.io/v1beta2",
				Pos: core.Pos{File: "t.yaml", Line: 41, Col: 7},
			},
			warnings: []diag{
				{At: "t.yaml:12:9", Object: "ConfigMap/kueue-system/kube-root-ca.crt", Field: "kind", Msg: "v1 ConfigMap is not simulated: the playground ignores it (it reads only Kueue's manager ConfigMap, the one with controller_manager_config.yaml)"},
				{At: "t.yaml:51:7", Object: "ConfigMap/kueue-system/kueue-manager-config", Field: "data[controller_manager_config.yaml].manageJobsWithoutQueueName", Msg: "manageJobsWithoutQueueName is not simulated"},
				{At: "t.yaml:56:7", Object: "ConfigMap/kueue-system/kueue-manager-config", Field: "data[controller_manager_config.yaml].waitForPodsReady", Msg: "waitForPodsReady is not simulated"},
			},
		},
		"feature gates from a v1beta1 Configuration in a ConfigMap (docs: installation)": {
			file: "config/feature-gates-v1beta1.yaml",
			want: &core.Configuration{
				Source: "ConfigMap/kueue-system/kueue-manager-config", APIVersion: "config.kueue.x-k8s.io/v1beta1",
				Pos:          core.Pos{File: "t.yaml", Line: 10, Col: 5},
				FeatureGates: core.FeatureGates{"ManagedJobsNamespaceSelectorAlwaysRespected": true},
			},
			gates: core.FeatureGates{"ManagedJobsNamespaceSelectorAlwaysRespected": true},
			warnings: []diag{{At: "t.yaml:13:7", Object: "ConfigMap/kueue-system/kueue-manager-config",
				Field: "data[controller_manager_config.yaml].featureGates[ManagedJobsNamespaceSelectorAlwaysRespected]",
				Msg:   "feature gate ManagedJobsNamespaceSelectorAlwaysRespected=true is not simulated"}},
		},
		"Kueue's default manager configuration: accepted without a warning": {
			file: "config/default-manager-config.yaml",
			want: &core.Configuration{Source: "Configuration", APIVersion: "config.kueue.x-k8s.io/v1beta2", Pos: core.Pos{File: "t.yaml", Line: 2, Col: 1}},
		},
		"an error inside the embedded YAML points at the outer line": {
			in: `apiVersion: v1
kind: ConfigMap
metadata:
  name: kueue-manager-config
  namespace: kueue-system
data:
  controller_manager_config.yaml: |
    apiVersion: config.kueue.x-k8s.io/v1beta2
    kind: Configuration
    resources:
      transformations:
      - input: cpu
        strategy: Keep
        outptus: {}
`,
			errors: []diag{
				{At: "t.yaml:13:19", Object: "ConfigMap/kueue-system/kueue-manager-config", Field: "data[controller_manager_config.yaml].resources.transformations[0].strategy", Msg: `unsupported value "Keep"`},
				{At: "t.yaml:14:9", Object: "ConfigMap/kueue-system/kueue-manager-config", Field: "data[controller_manager_config.yaml].resources.transformations[0].outptus", Msg: `unknown field "outptus"`},
			},
		},
		"a syntax error inside the embedded YAML points at the outer line": {
			in: `apiVersion: v1
kind: ConfigMap
metadata: {name: kueue-manager-config, namespace: kueue-system}
data:
  other: x
  controller_manager_config.yaml: |-

    apiVersion: config.kueue.x-k8s.io/v1beta2
    kind: Configuration
    featureGates: {LendingLimit: true
`,
			errors: []diag{{At: "t.yaml:10:5", Object: "ConfigMap/kueue-system/kueue-manager-config", Field: "data[controller_manager_config.yaml]", Msg: "invalid YAML in controller_manager_config.yaml: did not find expected ',' or '}'"}},
		},
		"a quoted embedded string: positions are the string's": {
			in: `apiVersion: v1
kind: ConfigMap
metadata: {name: kueue-manager-config, namespace: kueue-system}
data:
  controller_manager_config.yaml: "apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\nhealth: {port: 1}\n"
`,
			errors: []diag{{At: "t.yaml:5:35", Object: "ConfigMap/kueue-system/kueue-manager-config", Field: "data[controller_manager_config.yaml].health.port", Msg: `unknown field "port"`}},
		},
		"the embedded YAML must be a Configuration": {
			in: `apiVersion: v1
kind: ConfigMap
metadata: {name: kueue-manager-config, namespace: kueue-system}
data:
  controller_manager_config.yaml: |
    apiVersion: kueue.x-k8s.io/v1beta2
    kind: ClusterQueue
`,
			errors: []diag{{At: "t.yaml:7:11", Object: "ConfigMap/kueue-system/kueue-manager-config", Field: "data[controller_manager_config.yaml].kind", Msg: `controller_manager_config.yaml must hold a Kueue Configuration`}},
		},
		"other ConfigMaps are not read, with the not-simulated warning": {
			in: `apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: team-a}
data: {a: b}
immutable: true
`,
			warnings: []diag{{At: "t.yaml:2:7", Object: "ConfigMap/team-a/settings", Field: "kind", Msg: "v1 ConfigMap is not simulated: the playground ignores it"}},
		},
		"two Configurations: an error on the second": {
			in: `apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
---
apiVersion: v1
kind: ConfigMap
metadata: {name: kueue-manager-config, namespace: kueue-system}
data:
  controller_manager_config.yaml: |
    apiVersion: config.kueue.x-k8s.io/v1beta2
    kind: Configuration
`,
			errors: []diag{{At: "t.yaml:8:3", Object: "ConfigMap/kueue-system/kueue-manager-config", Field: "data[controller_manager_config.yaml]", Msg: "the input may hold at most one Kueue Configuration; the first is Configuration at line 1"}},
		},
		"unknown fields are errors, like every kind": {
			in: `apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
metadata: {name: c}
queueVisibility: {}
webhook: {port: 9443, tlsPort: 1}
`,
			errors: []diag{
				{At: "t.yaml:3:1", Object: "Configuration", Field: "metadata", Msg: `unknown field "metadata"`},
				{At: "t.yaml:4:1", Object: "Configuration", Field: "queueVisibility", Msg: `unknown field "queueVisibility"`},
				{At: "t.yaml:5:23", Object: "Configuration", Field: "webhook.tlsPort", Msg: `unknown field "tlsPort"`},
			},
		},
		"one warning for each setting that changes scheduling but is not simulated": {
			in: `apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
manageJobsWithoutQueueName: true
managedJobsNamespaceSelector:
  matchLabels: {kueue: enabled}
waitForPodsReady:
  timeout: 5m
  requeuingStrategy: {timestamp: Eviction, backoffLimitCount: 5}
integrations:
  frameworks: [jobset.x-k8s.io/jobset]
multiKueue:
  gcInterval: 1m
fairSharing:
  preemptionStrategies: [LessThanOrEqualToFinalShare]
admissionFairSharing:
  usageHalfLifeTime: 168h
resources:
  deviceClassMappings:
  - name: example.com/gpu
    deviceClassNames: [gpu.example.com]
featureGates:
  PartialAdmission: true
  TopologyAwareScheduling: false
  HierarchicalCohorts: false
  VisibilityOnDemand: false
`,
			want: &core.Configuration{
				Source: "Configuration", APIVersion: "config.kueue.x-k8s.io/v1beta2", Pos: core.Pos{File: "t.yaml", Line: 1, Col: 1},
				FeatureGates: core.FeatureGates{"PartialAdmission": true, "TopologyAwareScheduling": false, "HierarchicalCohorts": false, "VisibilityOnDemand": false},
			},
			gates: core.FeatureGates{"PartialAdmission": true, "TopologyAwareScheduling": false, "HierarchicalCohorts": false, "VisibilityOnDemand": false},
			warnings: []diag{
				{At: "t.yaml:3:1", Object: "Configuration", Field: "manageJobsWithoutQueueName", Msg: "manageJobsWithoutQueueName is not simulated"},
				{At: "t.yaml:4:1", Object: "Configuration", Field: "managedJobsNamespaceSelector", Msg: "managedJobsNamespaceSelector is not simulated"},
				{At: "t.yaml:6:1", Object: "Configuration", Field: "waitForPodsReady", Msg: "waitForPodsReady is not simulated"},
				{At: "t.yaml:10:3", Object: "Configuration", Field: "integrations.frameworks", Msg: "integrations.frameworks without batch/job is not simulated"},
				{At: "t.yaml:11:1", Object: "Configuration", Field: "multiKueue", Msg: "multiKueue is not simulated"},
				{At: "t.yaml:13:1", Object: "Configuration", Field: "fairSharing", Msg: "fairSharing is not simulated"},
				{At: "t.yaml:15:1", Object: "Configuration", Field: "admissionFairSharing", Msg: "admissionFairSharing is not simulated"},
				{At: "t.yaml:18:3", Object: "Configuration", Field: "resources.deviceClassMappings", Msg: "deviceClassMappings is not simulated"},
				{At: "t.yaml:22:3", Object: "Configuration", Field: "featureGates[PartialAdmission]", Msg: "feature gate PartialAdmission=true is not simulated"},
				{At: "t.yaml:24:3", Object: "Configuration", Field: "featureGates[HierarchicalCohorts]", Msg: "feature gate HierarchicalCohorts=false is not simulated"},
			},
		},
		"pod and deployment integrations: the Deployment's pods are queued, no warning": {
			in: readTestdata(t, "config/default-manager-config.yaml") + `---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: q, namespace: team-a}
spec: {clusterQueue: cq}
---
` + cqHeader + `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: team-a}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web, kueue.x-k8s.io/queue-name: q}}
    spec: {containers: [{name: c, resources: {requests: {cpu: 1}}}]}
`,
			want: &core.Configuration{Source: "Configuration", APIVersion: "config.kueue.x-k8s.io/v1beta2", Pos: core.Pos{File: "t.yaml", Line: 2, Col: 1}},
		},
		"frameworks without a pod integration": {
			in: `apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
integrations:
  frameworks: [batch/job, jobset.x-k8s.io/jobset]
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: team-a, labels: {kueue.x-k8s.io/queue-name: q}}
spec: {containers: [{name: c}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: team-a, labels: {kueue.x-k8s.io/queue-name: q}}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c}]}
`,
			want: &core.Configuration{Source: "Configuration", APIVersion: "config.kueue.x-k8s.io/v1beta2", Pos: core.Pos{File: "t.yaml", Line: 1, Col: 1}},
			warnings: []diag{
				{At: "t.yaml:4:3", Object: "Configuration", Field: "integrations.frameworks", Msg: "and that is not simulated for Pods: Kueue would not queue the Pods of the input"},
				{At: "t.yaml:8:76", Object: "Pod/team-a/p", Field: "metadata.labels[kueue.x-k8s.io/queue-name]", Msg: `LocalQueue "q" does not exist`},
				{At: "t.yaml:13:78", Object: "Deployment/team-a/web", Field: "metadata.labels[kueue.x-k8s.io/queue-name]", Msg: "the Configuration's integrations.frameworks (line 4) enables no pod integration: Kueue does not queue the pods of this Deployment, so they are placed without quota"},
			},
		},
		"transformations are validated as Kueue does": {
			in: `apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
resources:
  transformations:
  - input: cpu
    outputs: {example.com/credits: -1}
  - input: cpu
  - strategy: Replace
  - input: "bad name!"
`,
			errors: []diag{
				{At: "t.yaml:6:36", Object: "Configuration", Field: "resources.transformations[0].outputs[example.com/credits]", Msg: "must be greater than or equal to 0"},
				{At: "t.yaml:7:12", Object: "Configuration", Field: "resources.transformations[1].input", Msg: `duplicate transformation input "cpu"`},
				{At: "t.yaml:8:5", Object: "Configuration", Field: "resources.transformations[2].input", Msg: `missing required field "input"`},
				{At: "t.yaml:9:12", Object: "Configuration", Field: "resources.transformations[3].input", Msg: "invalid resource name"},
			},
		},
		"an unknown gate suggests the nearest name": {
			in: `apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
featureGates:
  TopologyAwareSchedulng: true
`,
			errors: []diag{{At: "t.yaml:4:3", Object: "Configuration", Field: "featureGates[TopologyAwareSchedulng]",
				Msg: `unknown feature gate "TopologyAwareSchedulng": not a gate of Kueue v0.16.1 nor of the playground; did you mean "TopologyAwareScheduling"?`}},
		},
		"the Scenario object's gates override the Configuration's": {
			in: `apiVersion: kueueplay/v1alpha1
kind: Scenario
metadata: {name: s}
spec:
  featureGates: {LendingLimit: true, PrioritySortingWithinCohort: false}
---
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
featureGates: {LendingLimit: false, FlavorFungibility: false}
`,
			want: &core.Configuration{
				Source: "Configuration", APIVersion: "config.kueue.x-k8s.io/v1beta2", Pos: core.Pos{File: "t.yaml", Line: 7, Col: 1},
				FeatureGates: core.FeatureGates{core.GateLendingLimit: false, core.GateFlavorFungibility: false},
			},
			gates: core.FeatureGates{core.GateLendingLimit: true, core.GatePrioritySortingWithinCohort: false, core.GateFlavorFungibility: false},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			in := tc.in
			if tc.file != "" {
				in = readTestdata(t, tc.file)
			}
			sc, diags := decode(t, in)
			if diff := diffDiags(tc.errors, compact(diags, core.SeverityError)); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			if diff := diffDiags(tc.warnings, compact(diags, core.SeverityWarning)); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
			if sc == nil {
				return
			}
			if diff := cmp.Diff(tc.want, sc.Configuration); diff != "" {
				t.Errorf("Configuration (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.gates, sc.Gates); diff != "" {
				t.Errorf("Gates (-want +got):\n%s", diff)
			}
		})
	}
}

// TestConfigurationRequests checks the requests Kueue would count against
// quota once the Configuration's excluded prefixes and transformations are
// applied, for Jobs and Workload objects, wherever the Configuration is in
// the file.
func TestConfigurationRequests(t *testing.T) {
	job := func(name, requests string) string {
		return `---
apiVersion: batch/v1
kind: Job
metadata: {name: ` + name + `, namespace: default, labels: {kueue.x-k8s.io/queue-name: q}}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, resources: ` + requests + `}]
`
	}
	type reqs = map[core.ResourceName]core.Amount
	cases := map[string]struct {
		in       string
		want     reqs
		pod      reqs // PodRequests; nil when unchanged
		warnings []diag
	}{
		"docs example: a Pod's effective requests for quota": {
			in: readTestdata(t, "config/quotas-transformations.yaml") +
				job("j", `{requests: {cpu: 1, memory: 100Gi}, limits: {example.com/gpu-type1: 2, example.com/gpu-type2: 1}}`),
			want: reqs{"cpu": 1000, "memory": 100 << 30, "example.com/gpu-memory": 30 << 30, "example.com/credits": 61},
			pod:  reqs{"cpu": 1000, "memory": 100 << 30, "example.com/gpu-type1": 2, "example.com/gpu-type2": 1},
		},
		"the Configuration may come after the workloads": {
			in: job("j", `{requests: {cpu: 500m, example.com/foo: 3}}`) + "---\n" +
				readTestdata(t, "config/quotas-exclude.yaml"),
			want: reqs{"cpu": 500},
			pod:  reqs{"cpu": 500, "example.com/foo": 3},
		},
		"multiplyBy (docs: using HAMi)": {
			in: readTestdata(t, "config/hami.yaml") +
				job("j", `{limits: {nvidia.com/gpu: 2, nvidia.com/gpumem: 1024, nvidia.com/gpucores: 30}}`),
			want: reqs{"nvidia.com/gpu": 2, "nvidia.com/total-gpumem": 2048, "nvidia.com/total-gpucores": 60},
			pod:  reqs{"nvidia.com/gpu": 2, "nvidia.com/gpumem": 1024, "nvidia.com/gpucores": 30},
		},
		"cpu input counts in whole cores, rounded up; Retain keeps the multiplied input": {
			in: `apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
resources:
  transformations:
  - input: cpu
    multiplyBy: example.com/n
    outputs: {example.com/credits: 1500m, memory: 1Ki}
` + job("j", `{requests: {cpu: 500m, example.com/n: 3}}`),
			want: reqs{"cpu": 1500, "example.com/n": 3, "example.com/credits": 3, "memory": 2048},
			pod:  reqs{"cpu": 500, "example.com/n": 3},
		},
		"an output the pod also requests: added, with a warning": {
			in: `apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
resources:
  transformations:
  - input: example.com/gpu
    strategy: Replace
    outputs: {cpu: 2}
` + job("j", `{requests: {cpu: 1, example.com/gpu: 1}}`),
			want:     reqs{"cpu": 3000},
			pod:      reqs{"cpu": 1000, "example.com/gpu": 1},
			warnings: []diag{{At: "t.yaml:9:1", Object: "Job/default/j", Msg: `pod set "main" requests "cpu", which the Configuration's resources.transformations also output`}},
		},
		"a Workload object's pod sets are transformed too": {
			in: readTestdata(t, "config/quotas-exclude.yaml") + `---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: j, namespace: default}
spec:
  queueName: q
  podSets:
  - name: main
    count: 1
    template: {spec: {containers: [{name: c, resources: {requests: {cpu: 1, example.com/x: 1}}}]}}
`,
			want: reqs{"cpu": 1000},
			pod:  reqs{"cpu": 1000, "example.com/x": 1},
		},
		"untouched requests keep PodRequests nil": {
			in:   readTestdata(t, "config/quotas-exclude.yaml") + job("j", `{requests: {cpu: 1}}`),
			want: reqs{"cpu": 1000},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			sc, diags := decode(t, tc.in)
			if diff := diffDiags(nil, compact(diags, core.SeverityError)); diff != "" {
				t.Fatalf("errors (-want +got):\n%s", diff)
			}
			var warns []diag
			for _, w := range compact(diags, core.SeverityWarning) {
				if strings.Contains(w.Msg, "LocalQueue") || strings.Contains(w.Msg, "queue") && !strings.Contains(w.Msg, "transformations") {
					continue // the workloads name a LocalQueue the file does not have
				}
				warns = append(warns, w)
			}
			if diff := diffDiags(tc.warnings, warns); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
			if len(sc.Workloads) != 1 {
				t.Fatalf("got %d workloads, want 1", len(sc.Workloads))
			}
			ps := sc.Workloads[0].PodSets[0]
			if diff := cmp.Diff(tc.want, ps.Requests); diff != "" {
				t.Errorf("Requests (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.pod, ps.PodRequests); diff != "" {
				t.Errorf("PodRequests (-want +got):\n%s", diff)
			}
		})
	}
}

// TestConfigurationChangesAdmission runs scenarios whose outcome depends on
// the Configuration: without it a workload requests a resource its
// ClusterQueue does not cover and stays pending; with it the resource is
// excluded or transformed into one the ClusterQueue covers, and the
// workload is admitted.
func TestConfigurationChangesAdmission(t *testing.T) {
	const world = `apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: default}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq}
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu, example.com/credits]
    flavors:
    - name: default
      resources:
      - {name: cpu, nominalQuota: 4}
      - {name: example.com/credits, nominalQuota: 25}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: q, namespace: default}
spec: {clusterQueue: cq}
---
apiVersion: batch/v1
kind: Job
metadata: {name: train, namespace: default, labels: {kueue.x-k8s.io/queue-name: q}}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, resources: {requests: {cpu: 2}, limits: {example.com/gpu-type1: 2}}}]
`
	cases := map[string]struct {
		config  string
		status  string
		message string
	}{
		"without a Configuration: the gpu is not covered": {
			status:  "pending",
			message: "example.com/gpu-type1",
		},
		"excluded prefix": {
			config: readTestdata(t, "config/quotas-exclude.yaml"),
			status: "admitted",
		},
		"transformation into covered credits": {
			config: `apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
resources:
  transformations:
  - input: example.com/gpu-type1
    strategy: Replace
    outputs: {example.com/credits: 10}
`,
			status: "admitted",
		},
		"transformation asking more credits than the quota": {
			config: `apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
resources:
  transformations:
  - input: example.com/gpu-type1
    strategy: Replace
    outputs: {example.com/credits: 13}
`,
			status:  "pending",
			message: "example.com/credits",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			in := world
			if tc.config != "" {
				in += "---\n" + tc.config
			}
			sc, err := Decode(testFile, []byte(in))
			if err != nil {
				t.Fatal(err)
			}
			tr := sim.Run(sc, sim.Options{})
			if len(tr.Workloads) != 1 {
				t.Fatalf("got %d workloads, want 1", len(tr.Workloads))
			}
			ws := tr.Workloads[0]
			if diff := cmp.Diff(tc.status, string(ws.Status)); diff != "" {
				t.Errorf("status (-want +got):\n%s", diff)
			}
			if !strings.Contains(ws.Message, tc.message) {
				t.Errorf("message %q does not mention %q", ws.Message, tc.message)
			}
		})
	}
}

// TestConfigurationInTrace checks the trace header: the Configuration a
// run used, where it came from and the settings in effect.
func TestConfigurationInTrace(t *testing.T) {
	cases := map[string]struct {
		in   string
		want []string
	}{
		"no Configuration: no header line": {
			in:   "apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n",
			want: nil,
		},
		"a ConfigMap's Configuration with every summarised setting": {
			in: `apiVersion: v1
kind: ConfigMap
metadata: {name: kueue-manager-config, namespace: kueue-system}
data:
  controller_manager_config.yaml: |
    apiVersion: config.kueue.x-k8s.io/v1beta1
    kind: Configuration
    resources:
      excludeResourcePrefixes: [example.com/, vendor.io/]
      transformations:
      - input: nvidia.com/gpumem
        strategy: Replace
        multiplyBy: nvidia.com/gpu
        outputs: {nvidia.com/total-gpumem: "1"}
      - input: cpu
        outputs: {example.com/credits: 500m, a.io/b: 2}
    featureGates: {LendingLimit: false, VisibilityOnDemand: false}
`,
			want: []string{
				"# configuration ConfigMap/kueue-system/kueue-manager-config config.kueue.x-k8s.io/v1beta1 at t.yaml:6:5",
				"#   excludeResourcePrefixes example.com/ vendor.io/",
				"#   transformation nvidia.com/gpumem*nvidia.com/gpu Replace {nvidia.com/total-gpumem: 1}",
				"#   transformation cpu Retain {a.io/b: 2, example.com/credits: 500m}",
				"#   gates LendingLimit=false VisibilityOnDemand=false",
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			sc, err := Decode(testFile, []byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			if err := trace.Format(&b, sim.Run(sc, sim.Options{})); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, line := range strings.Split(b.String(), "\n") {
				if strings.HasPrefix(line, "# configuration") || strings.HasPrefix(line, "#   excludeResourcePrefixes") ||
					strings.HasPrefix(line, "#   transformation") || strings.HasPrefix(line, "#   gates") {
					got = append(got, line)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("header (-want +got):\n%s", diff)
			}
		})
	}
}
