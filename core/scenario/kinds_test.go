package scenario

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/coretest"
)

// wlView is what the job kind tests compare of a core.Workload: its name,
// queue, priority and pod sets (name, count, per-pod requests).
type wlView struct {
	Key           string // namespace/name
	Queue         string
	Priority      int32
	PriorityClass string
	PodSets       []psView
}

type psView struct {
	Name     string
	Count    int32
	Requests map[core.ResourceName]core.Amount
}

func viewWorkloads(ws []core.Workload) []wlView {
	var out []wlView
	for _, w := range ws {
		v := wlView{Key: w.Key(), Queue: w.Queue, Priority: w.Priority, PriorityClass: w.PriorityClass}
		for _, ps := range w.PodSets {
			v.PodSets = append(v.PodSets, psView{Name: ps.Name, Count: ps.Count, Requests: ps.Requests})
		}
		out = append(out, v)
	}
	return out
}

// kwl builds an expected wlView.
type kwlWrapper struct{ v wlView }

func kwl(key, queue string) *kwlWrapper { return &kwlWrapper{v: wlView{Key: key, Queue: queue}} }

func (w *kwlWrapper) Prio(p int32, class string) *kwlWrapper {
	w.v.Priority, w.v.PriorityClass = p, class
	return w
}

// PS adds a pod set with per-pod requests given as resource, quantity
// pairs.
func (w *kwlWrapper) PS(name string, count int32, req ...string) *kwlWrapper {
	ps := psView{Name: name, Count: count, Requests: map[core.ResourceName]core.Amount{}}
	for i := 0; i+1 < len(req); i += 2 {
		r := core.ResourceName(req[i])
		ps.Requests[r] = coretest.Amount(r, req[i+1])
	}
	w.v.PodSets = append(w.v.PodSets, ps)
	return w
}

func (w *kwlWrapper) Obj() wlView { return w.v }

// kindsPrelude declares the queues and priority classes the inline kind
// tests use.
const kindsPrelude = `apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: lq, namespace: ns}
spec: {clusterQueue: cq}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: default, namespace: ns}
spec: {clusterQueue: cq}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: WorkloadPriorityClass
metadata: {name: wpc-high}
value: 5000
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: pc-mid}
value: 700
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: pc-low}
value: 100
---
` + cqHeader + "---\n"

// TestKindSamples decodes the job manifests of Kueue's documentation
// (testdata/kinds, copied from kubernetes-sigs/kueue v0.16.1
// site/static/examples) and checks the Workload each becomes. The expected
// pod sets follow each integration's PodSets, cited per case.
func TestKindSamples(t *testing.T) {
	cases := map[string]struct {
		file string
		want []wlView
		// queue and ns name the sample's LocalQueue (default user-queue
		// in default); warnings are the other expected warnings.
		queue, ns string
		warnings  []string
	}{
		// jobset_controller.go JobSet.PodSets: one pod set per replicated
		// job, count replicas x min(parallelism, completions).
		"JobSet": {
			file: "sample-jobset.yaml",
			want: []wlView{kwl("default/jobset-sleep-job", "user-queue").
				PS("workers", 1, "cpu", "1", "memory", "200Mi").
				PS("driver", 1, "cpu", "2", "memory", "200Mi").Obj()},
		},
		// kubeflowjob_controller.go KubeflowJob.PodSets, order of
		// pytorchjob_controller.go OrderedReplicaTypes: master, worker.
		"PyTorchJob": {
			file: "sample-pytorchjob.yaml",
			want: []wlView{kwl("default/pytorchjob-pytorch-simple", "user-queue").
				PS("master", 1, "cpu", "1", "memory", "200Mi").
				PS("worker", 1, "cpu", "1", "memory", "200Mi").Obj()},
		},
		// tfjob_controller.go OrderedReplicaTypes: chief, master, ps,
		// worker, evaluator; the sample has PS and Worker.
		"TFJob": {
			file: "sample-tfjob.yaml",
			want: []wlView{kwl("default/tfjob-tensorflow-dist-mnist", "user-queue").
				PS("ps", 1, "cpu", "1", "memory", "200Mi").
				PS("worker", 2, "cpu", "1", "memory", "200Mi").Obj()},
		},
		"XGBoostJob": {
			file: "sample-xgboostjob.yaml",
			want: []wlView{kwl("default/xgboostjob-xgboost-dist-iris-test-train", "user-queue").
				PS("master", 1, "cpu", "500m", "memory", "256Mi").
				PS("worker", 2, "cpu", "500m", "memory", "256Mi").Obj()},
		},
		"PaddleJob": {
			file: "sample-paddlejob.yaml",
			want: []wlView{kwl("default/paddlejob-paddle-simple-cpu", "user-queue").
				PS("worker", 2, "cpu", "1", "memory", "256Mi").Obj()},
		},
		"JAXJob": {
			file: "sample-jaxjob.yaml",
			want: []wlView{kwl("default/jaxjob-jax-simple", "user-queue").
				PS("worker", 2, "cpu", "1", "memory", "200Mi").Obj()},
		},
		// mpijob_controller.go MPIJob.PodSets: launcher, worker.
		"MPIJob": {
			file: "sample-mpijob.yaml",
			want: []wlView{kwl("default/mpijob-pi", "user-queue").
				PS("launcher", 1, "cpu", "1", "memory", "1Gi").
				PS("worker", 2, "cpu", "1", "memory", "1Gi").Obj()},
		},
		// rayjob_controller.go buildPodSetsFromRayJobSpec: head, the worker
		// groups, and (K8sJobMode, the default) the default submitter of
		// getSubmitterTemplate: 500m cpu, 200Mi memory.
		"RayJob": {
			file: "ray-job-sample.yaml",
			want: []wlView{kwl("default/rayjob-rayjob-sample", "user-queue").
				PS("head", 1, "cpu", "1").
				PS("small-group", 1, "cpu", "1").
				PS("submitter", 1, "cpu", "500m", "memory", "200Mi").Obj()},
		},
		// raycluster_controller.go RayCluster.PodSets: head, then workers.
		"RayCluster": {
			file: "ray-cluster-sample.yaml",
			want: []wlView{kwl("default/raycluster-raycluster-complete", "user-queue").
				PS("head", 1, "cpu", "1", "memory", "2G").
				PS("small-group", 1, "cpu", "1", "memory", "1G").Obj()},
		},
		// pod_controller.go constructPodSets: a single Pod is one pod set
		// "main" of count 1.
		"Pod": {
			file: "kueue-pod.yaml",
			want: []wlView{kwl("default/pod-kueue-sleep", "user-queue").PS("main", 1, "cpu", "3").Obj()},
		},
		// constructGroupPodSets: the two Pods have the same role, so one pod
		// set of count 2, named after the role hash (the playground's
		// stand-in, see linkPodGroups); the Workload is named after the
		// group.
		"pod group": {
			file: "kueue-pod-group.yaml",
			want: []wlView{kwl("default/sample-group", "user-queue").PS("562e8da3", 2, "cpu", "3").Obj()},
		},
		// statefulset_webhook.go Default: a pod group of replicas pods with
		// fast admission (constructGroupPodSetsFast).
		"StatefulSet": {
			file: "sample-statefulset.yaml",
			want: []wlView{kwl("default/statefulset-nginx-statefulset", "user-queue").PS("ab86c7bc", 3, "cpu", "100m").Obj()},
		},
		// leaderworkerset_reconciler.go filterWorkloads and podSets: one
		// Workload per group, leader 1 + worker size-1.
		"LeaderWorkerSet": {
			file: "sample-leaderworkerset.yaml",
			want: []wlView{
				kwl("default/leaderworkerset-nginx-leaderworkerset-0", "user-queue").
					PS("leader", 1, "cpu", "100m").PS("worker", 2, "cpu", "200m").Obj(),
				kwl("default/leaderworkerset-nginx-leaderworkerset-1", "user-queue").
					PS("leader", 1, "cpu", "100m").PS("worker", 2, "cpu", "200m").Obj(),
			},
		},
		// appwrapper_controller.go AppWrapper.PodSets over
		// GetComponentPodSpecs; InferPodSets for PyTorchJob (Master,
		// Worker) and Deployment (replicas); declared podSets for a
		// LeaderWorkerSet, a kind InferPodSets does not know.
		"AppWrapper of a PyTorchJob": {
			file: "appwrapper-pytorch-sample.yaml",
			want: []wlView{kwl("default/appwrapper-sample-appwrapper-pytorch-job", "user-queue").
				PS("sample-appwrapper-pytorch-job-0", 1, "cpu", "1").
				PS("sample-appwrapper-pytorch-job-1", 1, "cpu", "1").Obj()},
		},
		"AppWrapper of a Deployment": {
			file: "appwrapper-deployment-sample.yaml",
			want: []wlView{kwl("default/appwrapper-sample-appwrapper-deployment", "user-queue").
				PS("sample-appwrapper-deployment-0", 3, "cpu", "100m").Obj()},
		},
		"AppWrapper of a LeaderWorkerSet": {
			file: "appwrapper-leaderworkerset-sample.yaml",
			want: []wlView{kwl("default/appwrapper-sample-appwrapper-lws", "user-queue").
				PS("sample-appwrapper-lws-0", 2, "cpu", "100m").
				PS("sample-appwrapper-lws-1", 3, "cpu", "200m").Obj()},
		},
		// trainjob_controller.go getChildJobSet: the torch plugin sets the
		// trainer step's count to trainer.numNodes, and jobset
		// Builder.Trainer puts resourcesPerNode on the "node" container.
		"TrainJob on a ClusterTrainingRuntime": {
			file: "trainjob-torch-distributed.yaml",
			want: []wlView{kwl("default/trainjob-pytorch-distributed", "user-queue").
				PS("node", 2, "cpu", "4", "memory", "8Gi", "nvidia.com/gpu", "1").Obj()},
		},
		// Builder.Trainer only touches a container named "node": this
		// runtime's is named "trainer", so resourcesPerNode has no effect
		// (a warning says so).
		"TrainJob on a TrainingRuntime": {
			file:  "trainjob-torch-custom.yaml",
			queue: "team-a-queue", ns: "team-a",
			want:     []wlView{kwl("team-a/trainjob-pytorch-custom", "team-a-queue").PS("node", 1).Obj()},
			warnings: []string{`resourcesPerNode has no effect: the trainer applies it only to a container named "node" of the runtime's trainer step, and TrainingRuntime "torch-custom" has none, so the pod sets keep the runtime's requests`},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			sc := decodeFile(t, "kinds/"+tc.file)
			if diff := cmp.Diff(tc.want, viewWorkloads(sc.Workloads)); diff != "" {
				t.Errorf("Workloads (-want +got):\n%s", diff)
			}
			// The samples' LocalQueue is not part of them: the only other
			// warning is that it does not exist.
			queue, ns := "user-queue", "default"
			if tc.queue != "" {
				queue, ns = tc.queue, tc.ns
			}
			want := append([]string{fmt.Sprintf("LocalQueue %q does not exist in namespace %q: the workload stays pending; paste the LocalQueue (kubectl get localqueues -A -o yaml) or fix the queue name", queue, ns)}, tc.warnings...)
			var got []string
			for _, w := range sc.Warnings {
				got = append(got, w.Message)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestKindConversion checks counts, requests, priority and queue of each
// job kind on inline manifests.
func TestKindConversion(t *testing.T) {
	cases := map[string]struct {
		in   string
		want []wlView
		// warnings are the expected warnings.
		warnings []diag
	}{
		// JobSet.PodSets and PodsCountPerReplica: replicas x
		// min(parallelism, completions); names lowercased
		// (kueue.NewPodSetReference); priority from the first template with
		// priorityClassName (jobframework extractPriorityFromPodSets).
		"JobSet counts and template priority": {
			in: `apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: js, namespace: ns, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  replicatedJobs:
  - name: leader
    template:
      spec:
        template:
          spec:
            containers: [{name: c, resources: {requests: {cpu: "2"}}}]
  - name: workers
    replicas: 3
    template:
      spec:
        parallelism: 4
        completions: 2
        template:
          spec:
            priorityClassName: pc-mid
            containers: [{name: c, resources: {requests: {cpu: 500m}}}]
            initContainers: [{name: i, resources: {requests: {cpu: "1"}}}]
`,
			want: []wlView{kwl("ns/jobset-js", "lq").Prio(700, "pc-mid").
				PS("leader", 1, "cpu", "2").
				PS("workers", 6, "cpu", "1").Obj()},
		},
		"JobSet with the priority-class label and a defaulted queue": {
			in: `apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: js, namespace: ns, labels: {kueue.x-k8s.io/priority-class: wpc-high}}
spec:
  replicatedJobs:
  - name: w
    replicas: 2
    template:
      spec:
        parallelism: 3
        template:
          spec:
            priorityClassName: pc-mid
            containers: [{name: c, resources: {requests: {memory: 1Gi}}}]
`,
			want: []wlView{kwl("ns/jobset-js", "default").Prio(5000, "wpc-high").
				PS("w", 6, "memory", "1Gi").Obj()},
		},
		// jobframework.QueueNameForObject reads the label only;
		// MaxExecTimeSecondsLabel is not simulated.
		"queue-name annotation and max-exec-time label": {
			in: `apiVersion: batch/v1
kind: Job
metadata:
  name: j
  namespace: ns
  labels: {kueue.x-k8s.io/queue-name: lq, kueue.x-k8s.io/max-exec-time-seconds: "60"}
  annotations: {kueue.x-k8s.io/queue-name: other}
spec:
  template: {spec: {restartPolicy: Never, containers: [{name: c}]}}
`,
			want: []wlView{kwl("ns/job-j", "lq").PS("main", 1).Obj()},
			warnings: []diag{
				{At: "t.yaml:37:81", Object: "Job/ns/j", Field: "metadata.labels[kueue.x-k8s.io/max-exec-time-seconds]", Msg: "the maximum execution time is not simulated"},
				{At: "t.yaml:38:44", Object: "Job/ns/j", Field: "metadata.annotations[kueue.x-k8s.io/queue-name]", Msg: "reads the queue from the kueue.x-k8s.io/queue-name label only"},
			},
		},
		"JobSet dependsOn and startupPolicy are not simulated": {
			in: `apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: js, namespace: ns, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  startupPolicy: {startupPolicyOrder: InOrder}
  replicatedJobs:
  - name: a
    template: {spec: {template: {spec: {containers: [{name: c}]}}}}
  - name: b
    dependsOn: [{name: a, status: Ready}]
    template: {spec: {template: {spec: {containers: [{name: c}]}}}}
`,
			want: []wlView{kwl("ns/jobset-js", "lq").PS("a", 1).PS("b", 1).Obj()},
			warnings: []diag{
				{At: "t.yaml:36:39", Object: "JobSet/ns/js", Field: "spec.startupPolicy.startupPolicyOrder", Msg: "startupPolicyOrder InOrder is not simulated"},
				{At: "t.yaml:41:5", Object: "JobSet/ns/js", Field: "spec.replicatedJobs[1].dependsOn", Msg: "dependsOn is not simulated"},
			},
		},
		// KubeflowJob.PriorityClass: runPolicy.schedulingPolicy.priorityClass
		// comes before the templates' priorityClassName; podsCount derefs
		// replicas to 1.
		"PyTorchJob scheduling policy priority, default replicas": {
			in: `apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: pt, namespace: ns, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  runPolicy: {schedulingPolicy: {priorityClass: pc-low}}
  pytorchReplicaSpecs:
    Worker:
      replicas: 4
      template: {spec: {priorityClassName: pc-mid, containers: [{name: pytorch, resources: {requests: {cpu: "3"}}}]}}
    Master:
      template: {spec: {containers: [{name: pytorch, resources: {requests: {cpu: "1"}}}]}}
`,
			want: []wlView{kwl("ns/pytorchjob-pt", "lq").Prio(100, "pc-low").
				PS("master", 1, "cpu", "1").
				PS("worker", 4, "cpu", "3").Obj()},
		},
		// tfjob_controller.go OrderedReplicaTypes; without a scheduling
		// policy, the first replica type (in that order) with a
		// priorityClassName gives the priority.
		"TFJob order and replica priority": {
			in: `apiVersion: kubeflow.org/v1
kind: TFJob
metadata: {name: tf, namespace: ns, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  tfReplicaSpecs:
    Evaluator: {template: {spec: {priorityClassName: pc-low, containers: [{name: tensorflow}]}}}
    Worker: {replicas: 2, template: {spec: {containers: [{name: tensorflow}]}}}
    PS: {replicas: 1, template: {spec: {priorityClassName: pc-mid, containers: [{name: tensorflow}]}}}
    Chief: {template: {spec: {containers: [{name: tensorflow}]}}}
`,
			want: []wlView{kwl("ns/tfjob-tf", "lq").Prio(700, "pc-mid").
				PS("chief", 1).PS("ps", 1).PS("worker", 2).PS("evaluator", 1).Obj()},
		},
		// mpijob_controller.go MPIJob.PriorityClass: schedulingPolicy,
		// then Launcher, then Worker.
		"MPIJob launcher priority": {
			in: `apiVersion: kubeflow.org/v2beta1
kind: MPIJob
metadata: {name: mpi, namespace: ns, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  slotsPerWorker: 1
  mpiReplicaSpecs:
    Worker:
      replicas: 3
      template: {spec: {priorityClassName: pc-low, containers: [{name: w, resources: {limits: {cpu: "2"}}}]}}
    Launcher:
      template: {spec: {priorityClassName: pc-mid, containers: [{name: l}]}}
`,
			want: []wlView{kwl("ns/mpijob-mpi", "lq").Prio(700, "pc-mid").
				PS("launcher", 1).
				PS("worker", 3, "cpu", "2").Obj()},
		},
		"XGBoostJob, PaddleJob and JAXJob": {
			in: `apiVersion: kubeflow.org/v1
kind: XGBoostJob
metadata: {name: x, namespace: ns, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  xgbReplicaSpecs:
    Worker: {replicas: 2, template: {spec: {containers: [{name: xgboost}]}}}
---
apiVersion: kubeflow.org/v1
kind: PaddleJob
metadata: {name: p, namespace: ns, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  paddleReplicaSpecs:
    Master: {template: {spec: {containers: [{name: paddle}]}}}
---
apiVersion: kubeflow.org/v1
kind: JAXJob
metadata: {name: j, namespace: ns, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  jaxReplicaSpecs:
    Worker: {replicas: 8, template: {spec: {containers: [{name: jax, resources: {requests: {example.com/tpu: "4"}}}]}}}
`,
			want: []wlView{
				kwl("ns/xgboostjob-x", "lq").PS("worker", 2).Obj(),
				kwl("ns/paddlejob-p", "lq").PS("master", 1).Obj(),
				kwl("ns/jaxjob-j", "lq").PS("worker", 8, "example.com/tpu", "4").Obj(),
			},
		},
		// buildPodSetsFromRayJobSpec: worker count replicas x numOfHosts;
		// replicas defaults to 0 (KubeRay CRD default); the submitter pod
		// set comes from submitterPodTemplate when set.
		"RayJob hosts, replicas default and custom submitter": {
			in: `apiVersion: ray.io/v1
kind: RayJob
metadata: {name: r, namespace: ns, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  shutdownAfterJobFinishes: true
  submitterPodTemplate:
    spec:
      restartPolicy: Never
      containers: [{name: s, resources: {requests: {cpu: 100m}}}]
  rayClusterSpec:
    headGroupSpec:
      rayStartParams: {}
      template: {spec: {containers: [{name: head, resources: {requests: {cpu: "2"}}}]}}
    workerGroupSpecs:
    - groupName: TPU
      replicas: 2
      numOfHosts: 4
      template: {spec: {priorityClassName: pc-mid, containers: [{name: w, resources: {requests: {cpu: "1"}}}]}}
    - groupName: idle
      template: {spec: {containers: [{name: w}]}}
`,
			want: []wlView{kwl("ns/rayjob-r", "lq").Prio(700, "pc-mid").
				PS("head", 1, "cpu", "2").
				PS("tpu", 8, "cpu", "1").
				PS("idle", 0).
				PS("submitter", 1, "cpu", "100m").Obj()},
		},
		// addSubmitterPodSet: no submitter pod set outside K8sJobMode.
		"RayJob in HTTPMode": {
			in: `apiVersion: ray.io/v1
kind: RayJob
metadata: {name: r, namespace: ns, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  shutdownAfterJobFinishes: true
  submissionMode: HTTPMode
  rayClusterSpec:
    headGroupSpec:
      template: {spec: {containers: [{name: head}]}}
`,
			want: []wlView{kwl("ns/rayjob-r", "lq").PS("head", 1).Obj()},
		},
		"RayJob on an existing cluster is not managed": {
			in: `apiVersion: ray.io/v1
kind: RayJob
metadata: {name: r, namespace: ns, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  clusterSelector: {ray.io/cluster: shared}
`,
			warnings: []diag{{At: "t.yaml:36:20", Object: "RayJob/ns/r", Field: "spec.clusterSelector", Msg: "runs on an existing RayCluster"}},
		},
		"RayCluster elastic autoscaling is not simulated": {
			in: `apiVersion: ray.io/v1
kind: RayCluster
metadata:
  name: rc
  namespace: ns
  labels: {kueue.x-k8s.io/queue-name: lq}
  annotations: {kueue.x-k8s.io/elastic-job: "true"}
spec:
  enableInTreeAutoscaling: true
  headGroupSpec:
    template: {spec: {containers: [{name: head}]}}
  workerGroupSpecs:
  - groupName: w
    replicas: 3
    template: {spec: {containers: [{name: w, resources: {requests: {cpu: "1"}}}]}}
`,
			want:     []wlView{kwl("ns/raycluster-rc", "lq").PS("head", 1).PS("w", 3, "cpu", "1").Obj()},
			warnings: []diag{{At: "t.yaml:40:28", Object: "RayCluster/ns/rc", Field: "spec.enableInTreeAutoscaling", Msg: "Ray autoscaling is not simulated"}},
		},
		// pod_controller.go constructGroupPodSets: Pods in name order,
		// grouped by role (here the kueue.x-k8s.io/role-hash annotation);
		// priority from the first pod set's priorityClassName; the
		// kueueplay annotations of the first Pod in the file.
		"pod group with two roles": {
			in: `apiVersion: v1
kind: Pod
metadata:
  name: b-worker
  namespace: ns
  labels: {kueue.x-k8s.io/queue-name: lq, kueue.x-k8s.io/pod-group-name: g}
  annotations: {kueue.x-k8s.io/pod-group-total-count: "3", kueue.x-k8s.io/role-hash: worker}
spec: {containers: [{name: c, resources: {requests: {cpu: "2"}}}]}
---
apiVersion: v1
kind: Pod
metadata:
  name: a-leader
  namespace: ns
  labels: {kueue.x-k8s.io/queue-name: lq, kueue.x-k8s.io/pod-group-name: g}
  annotations: {kueue.x-k8s.io/pod-group-total-count: "3", kueue.x-k8s.io/role-hash: leader}
spec: {priorityClassName: pc-low, containers: [{name: c, resources: {requests: {cpu: "1"}}}]}
---
apiVersion: v1
kind: Pod
metadata:
  name: c-worker
  namespace: ns
  labels: {kueue.x-k8s.io/queue-name: lq, kueue.x-k8s.io/pod-group-name: g}
  annotations: {kueue.x-k8s.io/pod-group-total-count: "3", kueue.x-k8s.io/role-hash: worker}
spec: {priorityClassName: pc-mid, containers: [{name: c, resources: {requests: {cpu: "2"}}}]}
`,
			want: []wlView{kwl("ns/g", "lq").Prio(100, "pc-low").
				PS("leader", 1, "cpu", "1").PS("worker", 2, "cpu", "2").Obj()},
		},
		// Pod.ConstructComposableWorkload: without fast admission Kueue
		// waits for all the group's pods.
		"pod group missing pods": {
			in: `apiVersion: v1
kind: Pod
metadata:
  name: p0
  namespace: ns
  labels: {kueue.x-k8s.io/queue-name: lq, kueue.x-k8s.io/pod-group-name: g}
  annotations: {kueue.x-k8s.io/pod-group-total-count: "2"}
spec: {containers: [{name: c}]}
`,
			warnings: []diag{{At: "t.yaml:35:9", Object: "Pod/ns/p0", Field: "metadata.annotations[kueue.x-k8s.io/pod-group-total-count]", Msg: `pod group "g" has 1 of its 2 pods in the file`}},
		},
		// constructGroupPodSetsFast: with fast admission the first pod's
		// role counts for the whole group.
		"pod group with fast admission": {
			in: `apiVersion: v1
kind: Pod
metadata:
  name: p0
  namespace: ns
  labels: {kueue.x-k8s.io/pod-group-name: g}
  annotations:
    kueue.x-k8s.io/pod-group-total-count: "4"
    kueue.x-k8s.io/pod-group-fast-admission: "true"
    kueue.x-k8s.io/role-hash: r
spec: {containers: [{name: c, resources: {requests: {memory: 1Gi}}}]}
`,
			// No queue-name label: LocalQueueDefaulting picks "default".
			want: []wlView{kwl("ns/g", "default").PS("r", 4, "memory", "1Gi").Obj()},
		},
		// Pod.Finished and isPodRunnableOrSucceeded: a terminated single
		// Pod has a finished Workload; a Failed Pod is not part of its
		// group (here the group still has its 1 pod).
		"terminated Pods": {
			in: `apiVersion: v1
kind: Pod
metadata: {name: done, namespace: ns, labels: {kueue.x-k8s.io/queue-name: lq}}
spec: {containers: [{name: c}]}
status: {phase: Succeeded}
---
apiVersion: v1
kind: Pod
metadata:
  name: a
  namespace: ns
  labels: {kueue.x-k8s.io/queue-name: lq, kueue.x-k8s.io/pod-group-name: g}
  annotations: {kueue.x-k8s.io/pod-group-total-count: "1", kueue.x-k8s.io/role-hash: r}
spec: {containers: [{name: c}]}
status: {phase: Failed}
---
apiVersion: v1
kind: Pod
metadata:
  name: b
  namespace: ns
  labels: {kueue.x-k8s.io/queue-name: lq, kueue.x-k8s.io/pod-group-name: g}
  annotations: {kueue.x-k8s.io/pod-group-total-count: "1", kueue.x-k8s.io/role-hash: r}
spec: {containers: [{name: c}]}
status: {phase: Running}
`,
			want: []wlView{kwl("ns/g", "lq").PS("r", 1).Obj()},
			warnings: []diag{
				{At: "t.yaml:36:17", Object: "Pod/ns/done", Field: "status.phase", Msg: "the Pod has terminated (phase Succeeded)"},
				{At: "t.yaml:46:17", Object: "Pod/ns/a", Field: "status.phase", Msg: "the Pod has failed"},
			},
		},
		"single Pod with priority class label": {
			in: `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ns, labels: {kueue.x-k8s.io/queue-name: lq, kueue.x-k8s.io/priority-class: wpc-high}}
spec:
  priorityClassName: pc-low
  overhead: {cpu: 100m}
  initContainers: [{name: side, restartPolicy: Always, resources: {requests: {cpu: 500m}}}]
  containers: [{name: c, resources: {requests: {cpu: "1"}}}]
`,
			want: []wlView{kwl("ns/pod-p", "lq").Prio(5000, "wpc-high").PS("main", 1, "cpu", "1600m").Obj()},
		},
		// statefulset_webhook.go: total count = replicas (default 1).
		"StatefulSet default replicas and priority": {
			in: `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: web, namespace: ns, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  selector: {matchLabels: {app: web}}
  serviceName: web
  template:
    metadata: {labels: {app: web}}
    spec: {priorityClassName: pc-mid, containers: [{name: c, resources: {requests: {cpu: "1"}}}]}
`,
			want: []wlView{kwl("ns/statefulset-web", "lq").Prio(700, "pc-mid").PS("841e2a14", 1, "cpu", "1").Obj()},
		},
		// leaderworkerset_webhook.go Default: ApplyDefaultLocalQueue, then
		// one Workload per group (filterWorkloads); size 1 with a leader
		// template leaves a worker pod set of count 0.
		"LeaderWorkerSet in the default LocalQueue": {
			in: `apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: l, namespace: ns}
spec:
  replicas: 2
  leaderWorkerTemplate:
    leaderTemplate: {spec: {priorityClassName: pc-low, containers: [{name: c, resources: {requests: {cpu: "1"}}}]}}
    workerTemplate: {spec: {containers: [{name: c}]}}
`,
			want: []wlView{
				kwl("ns/leaderworkerset-l-0", "default").Prio(100, "pc-low").PS("leader", 1, "cpu", "1").PS("worker", 0).Obj(),
				kwl("ns/leaderworkerset-l-1", "default").Prio(100, "pc-low").PS("leader", 1, "cpu", "1").PS("worker", 0).Obj(),
			},
		},
		// leaderworkerset_reconciler.go podSets: without a leader template,
		// one pod set "main" of count size.
		"LeaderWorkerSet without leader template": {
			in: `apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: l, namespace: ns, labels: {kueue.x-k8s.io/queue-name: lq, kueue.x-k8s.io/priority-class: wpc-high}}
spec:
  startupPolicy: LeaderReady
  leaderWorkerTemplate:
    size: 4
    workerTemplate: {spec: {containers: [{name: c, resources: {requests: {nvidia.com/gpu: "8"}}}]}}
`,
			want:     []wlView{kwl("ns/leaderworkerset-l-0", "lq").Prio(5000, "wpc-high").PS("main", 4, "nvidia.com/gpu", "8").Obj()},
			warnings: []diag{{At: "t.yaml:36:18", Object: "LeaderWorkerSet/ns/l", Field: "spec.startupPolicy", Msg: "startupPolicy LeaderReady is not simulated"}},
		},
		// InferPodSets: a Job's count is min(parallelism, completions); a
		// JobSet's replicas x that; a RayCluster's workers default to 1
		// replica and numOfHosts is not read. GetPodTemplateSpec drops the
		// container restartPolicy, so the sidecar counts as a plain init
		// container: max(500m, 250m) = 500m cpu, not 500m+250m. Pod sets
		// are numbered across components; the Service has none.
		"AppWrapper inference across components": {
			in: `apiVersion: workload.codeflare.dev/v1beta2
kind: AppWrapper
metadata: {name: aw, namespace: ns, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  components:
  - template:
      apiVersion: v1
      kind: Service
      metadata: {name: svc}
      spec: {ports: [{port: 80}]}
  - template:
      apiVersion: batch/v1
      kind: Job
      metadata: {name: j}
      spec:
        parallelism: 5
        completions: 3
        template:
          spec:
            restartPolicy: Never
            priorityClassName: pc-low
            initContainers: [{name: side, restartPolicy: Always, resources: {requests: {cpu: 250m}}}]
            containers: [{name: c, resources: {requests: {cpu: 500m}}}]
  - template:
      apiVersion: jobset.x-k8s.io/v1alpha2
      kind: JobSet
      metadata: {name: js}
      spec:
        replicatedJobs:
        - name: w
          replicas: 2
          template: {spec: {parallelism: 2, template: {spec: {containers: [{name: c}]}}}}
  - template:
      apiVersion: ray.io/v1
      kind: RayCluster
      metadata: {name: rc}
      spec:
        headGroupSpec: {template: {spec: {containers: [{name: h}]}}}
        workerGroupSpecs:
        - groupName: g
          numOfHosts: 4
          template: {spec: {containers: [{name: w}]}}
`,
			want: []wlView{kwl("ns/appwrapper-aw", "lq").Prio(100, "pc-low").
				PS("aw-0", 3, "cpu", "500m").
				PS("aw-1", 4).
				PS("aw-2", 1).
				PS("aw-3", 1).Obj()},
		},
		// The trainer's mpi plugin (EnforceMLPolicy): with
		// runLauncherAsNode, the "node" job gets numNodes-1 pods and the
		// launcher (the trainer step) mlPolicy.numNodes; resourcesPerNode
		// goes to both (Builder.Trainer). An initializer keeps its
		// replicas x parallelism. The runtime's manifest is the trainer's
		// deepspeed_distributed.yaml, trimmed.
		"TrainJob on an MPI runtime with an initializer": {
			in: `apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: ds, namespace: ns, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  runtimeRef: {name: deepspeed}
  trainer:
    numNodes: 4
    resourcesPerNode: {limits: {nvidia.com/gpu: "2"}}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata: {name: deepspeed}
spec:
  mlPolicy:
    numNodes: 1
    mpi: {numProcPerNode: 1, runLauncherAsNode: true}
  template:
    spec:
      replicatedJobs:
      - name: dataset-initializer
        replicas: 2
        template:
          metadata: {labels: {trainer.kubeflow.org/trainjob-ancestor-step: dataset-initializer}}
          spec:
            parallelism: 3
            template: {spec: {containers: [{name: dataset-initializer, resources: {requests: {cpu: "1"}}}]}}
      - name: launcher
        template:
          metadata: {labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}}
          spec:
            template: {spec: {priorityClassName: pc-mid, containers: [{name: node}]}}
      - name: node
        template:
          spec:
            template: {spec: {containers: [{name: node, resources: {requests: {cpu: 500m}}}]}}
`,
			want: []wlView{kwl("ns/trainjob-ds", "lq").Prio(700, "pc-mid").
				PS("dataset-initializer", 6, "cpu", "1").
				PS("launcher", 1, "nvidia.com/gpu", "2").
				PS("node", 3, "nvidia.com/gpu", "2").Obj()},
		},
		// Without mlPolicy (plainml), the trainer step's count is its
		// parallelism, replaced by trainer.numNodes when set.
		"TrainJob on a plain runtime": {
			in: `apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainingRuntime
metadata: {name: plain, namespace: ns}
spec:
  template:
    spec:
      replicatedJobs:
      - name: node
        replicas: 3
        template:
          metadata: {labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}}
          spec:
            parallelism: 2
            template: {spec: {containers: [{name: node, resources: {requests: {cpu: "1"}}}]}}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: a, namespace: ns, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  runtimeRef: {name: plain, kind: TrainingRuntime}
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: b, namespace: ns, labels: {kueue.x-k8s.io/queue-name: lq, kueue.x-k8s.io/priority-class: wpc-high}}
spec:
  runtimeRef: {name: plain, kind: TrainingRuntime}
  trainer: {numNodes: 5}
`,
			want: []wlView{
				kwl("ns/trainjob-a", "lq").PS("node", 2, "cpu", "1").Obj(),
				kwl("ns/trainjob-b", "lq").Prio(5000, "wpc-high").PS("node", 5, "cpu", "1").Obj(),
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			sc, diags := decode(t, kindsPrelude+tc.in)
			if sc == nil {
				t.Fatalf("Decode failed: %v", diags)
			}
			if diff := cmp.Diff(tc.want, viewWorkloads(sc.Workloads)); diff != "" {
				t.Errorf("Workloads (-want +got):\n%s", diff)
			}
			if diff := diffDiags(tc.warnings, compact(sc.Warnings, core.SeverityWarning)); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestKindErrors checks malformed job objects of each kind.
func TestKindErrors(t *testing.T) {
	cases := map[string]struct {
		in   string
		want []diag
	}{
		"JobSet without replicated jobs": {
			in: `apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: js, namespace: ns, labels: {kueue.x-k8s.io/queue-name: lq}}
spec: {network: {enableDNSHostnames: true}}
`,
			want: []diag{{At: "t.yaml:4:7", Object: "JobSet/ns/js", Field: "spec.replicatedJobs", Msg: "a JobSet needs at least one replicated job"}},
		},
		"JobSet duplicate and unknown fields": {
			in: `apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: js, namespace: ns, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  replicatedJobs:
  - name: a
    replica: 2
    template: {spec: {template: {spec: {containers: [{name: c}]}}}}
  - name: a
    template: {spec: {template: {spec: {containers: [{name: c}]}}}}
`,
			want: []diag{
				{At: "t.yaml:7:5", Object: "JobSet/ns/js", Field: "spec.replicatedJobs[0].replica", Msg: `unknown field "replica"`},
				{At: "t.yaml:9:11", Object: "JobSet/ns/js", Field: "spec.replicatedJobs[1].name", Msg: `duplicate replicated job name "a"`},
			},
		},
		"JobSet replicated job without a template": {
			in: `apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: js, namespace: ns, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  replicatedJobs:
  - name: a
    replicas: -1
`,
			want: []diag{
				{At: "t.yaml:6:3", Object: "JobSet/ns/js", Field: "spec.replicatedJobs", Msg: "a JobSet needs at least one replicated job"},
				{At: "t.yaml:6:5", Object: "JobSet/ns/js", Field: "spec.replicatedJobs[0].template", Msg: `missing required field "template"`},
				{At: "t.yaml:7:15", Object: "JobSet/ns/js", Field: "spec.replicatedJobs[0].replicas", Msg: "must be between 0 and"},
			},
		},
		"PyTorchJob with a lowercase replica type": {
			in: `apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: pt, namespace: ns, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  pytorchReplicaSpecs:
    worker: {template: {spec: {containers: [{name: pytorch}]}}}
`,
			want: []diag{
				{At: "t.yaml:6:5", Object: "PyTorchJob/ns/pt", Field: "spec.pytorchReplicaSpecs", Msg: "no replica type has a pod template"},
				{At: "t.yaml:6:5", Object: "PyTorchJob/ns/pt", Field: "spec.pytorchReplicaSpecs[worker]", Msg: `unsupported replica type "worker": supported values: Master, Worker`},
			},
		},
		"TFJob without replica specs, MPIJob replica without template": {
			in: `apiVersion: kubeflow.org/v1
kind: TFJob
metadata: {name: tf, namespace: ns, labels: {kueue.x-k8s.io/queue-name: lq}}
spec: {runPolicy: {cleanPodPolicy: None}}
---
apiVersion: kubeflow.org/v2beta1
kind: MPIJob
metadata: {name: mpi, namespace: ns, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  mpiReplicaSpecs:
    Launcher: {replicas: 1}
`,
			want: []diag{
				{At: "t.yaml:4:7", Object: "TFJob/ns/tf", Field: "spec.tfReplicaSpecs", Msg: `missing required field "tfReplicaSpecs"`},
				{At: "t.yaml:11:5", Object: "MPIJob/ns/mpi", Field: "spec.mpiReplicaSpecs", Msg: "no replica type has a pod template"},
				{At: "t.yaml:11:15", Object: "MPIJob/ns/mpi", Field: "spec.mpiReplicaSpecs[Launcher].template", Msg: `missing required field "template"`},
			},
		},
		"XGBoostJob, PaddleJob and JAXJob replica types": {
			in: `apiVersion: kubeflow.org/v1
kind: XGBoostJob
metadata: {name: x, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  xgbReplicaSpecs:
    Chief: {template: {spec: {containers: [{name: xgboost}]}}}
    Worker: {template: {spec: {containers: [{name: xgboost}]}}}
---
apiVersion: kubeflow.org/v1
kind: PaddleJob
metadata: {name: p, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  paddleReplicaSpecs:
    Master: {replicas: 1, restartPolicy: Sometimes, template: {spec: {containers: [{name: paddle}]}}}
---
apiVersion: kubeflow.org/v1
kind: JAXJob
metadata: {name: j, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  jaxReplicaSpecs:
    Master: {template: {spec: {containers: [{name: jax}]}}}
`,
			want: []diag{
				{At: "t.yaml:6:5", Object: "XGBoostJob/default/x", Field: "spec.xgbReplicaSpecs[Chief]", Msg: `unsupported replica type "Chief": supported values: Master, Worker`},
				{At: "t.yaml:14:42", Object: "PaddleJob/default/p", Field: "spec.paddleReplicaSpecs[Master].restartPolicy", Msg: `unsupported value "Sometimes"`},
				{At: "t.yaml:21:5", Object: "JAXJob/default/j", Field: "spec.jaxReplicaSpecs", Msg: "no replica type has a pod template"},
				{At: "t.yaml:21:5", Object: "JAXJob/default/j", Field: "spec.jaxReplicaSpecs[Master]", Msg: `unsupported replica type "Master": supported values: Worker`},
			},
		},
		"RayJob rules of Kueue's webhook": {
			in: `apiVersion: ray.io/v1
kind: RayJob
metadata: {name: r, namespace: ns, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  rayClusterSpec:
    enableInTreeAutoscaling: true
    headGroupSpec:
      template: {spec: {containers: [{name: head}]}}
    workerGroupSpecs:
    - groupName: head
      template: {spec: {containers: [{name: w}]}}
`,
			want: []diag{
				{At: "t.yaml:5:3", Object: "RayJob/ns/r", Field: "spec.shutdownAfterJobFinishes", Msg: "a kueue managed job should delete the cluster after finishing"},
				{At: "t.yaml:6:30", Object: "RayJob/ns/r", Field: "spec.rayClusterSpec.enableInTreeAutoscaling", Msg: "a kueue managed job can use autoscaling only when"},
				{At: "t.yaml:10:18", Object: "RayJob/ns/r", Field: "spec.rayClusterSpec.workerGroupSpecs[0].groupName", Msg: `"head" is reserved for the head group`},
			},
		},
		"RayJob without a cluster spec, RayCluster without a head": {
			in: `apiVersion: ray.io/v1
kind: RayJob
metadata: {name: r, namespace: ns, labels: {kueue.x-k8s.io/queue-name: lq}}
spec: {shutdownAfterJobFinishes: true, entrypoint: python x.py}
---
apiVersion: ray.io/v1
kind: RayCluster
metadata: {name: rc, namespace: ns, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  workerGroupSpecs:
  - replicas: 1
    template: {spec: {containers: [{name: w}]}}
`,
			want: []diag{
				{At: "t.yaml:4:7", Object: "RayJob/ns/r", Field: "spec.rayClusterSpec", Msg: "rayClusterSpec is required"},
				{At: "t.yaml:10:3", Object: "RayCluster/ns/rc", Field: "spec.headGroupSpec", Msg: `missing required field "headGroupSpec"`},
				{At: "t.yaml:11:5", Object: "RayCluster/ns/rc", Field: "spec.workerGroupSpecs[0].groupName", Msg: `missing required field "groupName"`},
			},
		},
		"pod group metadata": {
			in: `apiVersion: v1
kind: Pod
metadata:
  name: a
  labels: {kueue.x-k8s.io/queue-name: lq, kueue.x-k8s.io/pod-group-name: g}
spec: {containers: [{name: c}]}
---
apiVersion: v1
kind: Pod
metadata:
  name: b
  labels: {kueue.x-k8s.io/queue-name: lq, kueue.x-k8s.io/pod-group-name: h}
  annotations: {kueue.x-k8s.io/pod-group-total-count: "0"}
spec: {containers: [{name: c}]}
---
apiVersion: v1
kind: Pod
metadata:
  name: c
  labels: {kueue.x-k8s.io/queue-name: lq}
  annotations: {kueue.x-k8s.io/pod-group-total-count: "2"}
spec: {containers: [{name: c}]}
`,
			want: []diag{
				{At: "t.yaml:5:74", Object: "Pod/default/a", Field: "metadata.annotations[kueue.x-k8s.io/pod-group-total-count]", Msg: "both the"},
				{At: "t.yaml:13:55", Object: "Pod/default/b", Field: "metadata.annotations[kueue.x-k8s.io/pod-group-total-count]", Msg: "group total count should be an integer greater than zero"},
				{At: "t.yaml:21:55", Object: "Pod/default/c", Field: "metadata.labels[kueue.x-k8s.io/pod-group-name]", Msg: "both the"},
			},
		},
		// validatePodGroupMetadata (pod_controller.go): the pods of a
		// group must agree on queue and total count.
		"pod group disagreement": {
			in: `apiVersion: v1
kind: Pod
metadata:
  name: a
  labels: {kueue.x-k8s.io/queue-name: lq, kueue.x-k8s.io/pod-group-name: g}
  annotations: {kueue.x-k8s.io/pod-group-total-count: "2"}
spec: {containers: [{name: c}]}
---
apiVersion: v1
kind: Pod
metadata:
  name: b
  labels: {kueue.x-k8s.io/queue-name: other, kueue.x-k8s.io/pod-group-name: g}
  annotations: {kueue.x-k8s.io/pod-group-total-count: "2"}
spec: {containers: [{name: c}]}
`,
			want: []diag{{At: "t.yaml:13:39", Object: "Pod/default/b", Field: "metadata.labels[kueue.x-k8s.io/queue-name]", Msg: `pods "a" and "b" of pod group "g" have different queue names`}},
		},
		"StatefulSet selector, restart policy, unknown field": {
			in: `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: web, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  selector: {matchLabels: {app: other}}
  replica: 2
  template:
    metadata: {labels: {app: web}}
    spec: {restartPolicy: Never, containers: [{name: c}]}
`,
			want: []diag{
				{At: "t.yaml:6:3", Object: "StatefulSet/default/web", Field: "spec.replica", Msg: `unknown field "replica"`},
				{At: "t.yaml:8:24", Object: "StatefulSet/default/web", Field: "spec.template.metadata.labels", Msg: "spec.selector does not match the template's labels"},
				{At: "t.yaml:9:27", Object: "StatefulSet/default/web", Field: "spec.template.spec.restartPolicy", Msg: `unsupported value "Never"`},
			},
		},
		"LeaderWorkerSets making too many Workloads": {
			in: `apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: a}
spec:
  replicas: 10001
  leaderWorkerTemplate: {workerTemplate: {spec: {containers: [{name: c}]}}}
` + manyLWS(7),
			want: []diag{
				{At: "t.yaml:5:13", Object: "LeaderWorkerSet/default/a", Field: "spec.replicas", Msg: "must be at most 10000"},
				{At: "t.yaml:54:13", Object: "LeaderWorkerSet/default/b6", Field: "spec.replicas", Msg: "the LeaderWorkerSets of the file make more than 60000 Workloads"},
			},
		},
		"LeaderWorkerSet without worker template, bad size": {
			in: `apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: l, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  leaderWorkerTemplate:
    size: 0
    leaderTemplate: {spec: {containers: [{name: c}]}}
`,
			want: []diag{
				{At: "t.yaml:6:5", Object: "LeaderWorkerSet/default/l", Field: "spec.leaderWorkerTemplate.workerTemplate", Msg: `missing required field "workerTemplate"`},
				{At: "t.yaml:6:11", Object: "LeaderWorkerSet/default/l", Field: "spec.leaderWorkerTemplate.size", Msg: "must be between 1 and"},
			},
		},
		// ValidatePodSets (AppWrapper webhook) and getValueAtPath.
		"AppWrapper declared pod sets disagree, bad path": {
			in: `apiVersion: workload.codeflare.dev/v1beta2
kind: AppWrapper
metadata: {name: aw, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  components:
  - podSets: [{path: template.spec.template, replicas: 2}]
    template:
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: d}
      spec: {replicas: 3, template: {spec: {containers: [{name: c}]}}}
  - podSets: [{path: "template.spec.pods[0]"}]
    template:
      apiVersion: example.com/v1
      kind: Custom
      metadata: {name: x}
      spec: {pods: []}
`,
			want: []diag{
				{At: "t.yaml:6:3", Object: "AppWrapper/default/aw", Field: "spec.components", Msg: "no component has a pod set"},
				{At: "t.yaml:6:22", Object: "AppWrapper/default/aw", Field: "spec.components[0].podSets", Msg: "replica count 2 differs from inferred replica count 3"},
				{At: "t.yaml:12:22", Object: "AppWrapper/default/aw", Field: "spec.components[1]", Msg: `pod set path "template.spec.pods[0]": at path position 'template.spec.pods' out of bounds index '0'`},
			},
		},
		// getChildJobSet: the runtime must exist.
		"TrainJob without its runtime": {
			in: `apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: t, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  runtimeRef: {name: torch-distributed}
  trainer: {numNode: 2}
`,
			want: []diag{
				{At: "t.yaml:5:15", Object: "TrainJob/default/t", Field: "spec.runtimeRef.name", Msg: `ClusterTrainingRuntime "torch-distributed" does not exist in the file`},
				{At: "t.yaml:6:13", Object: "TrainJob/default/t", Field: "spec.trainer.numNode", Msg: `unknown field "numNode"`},
			},
		},
		"TrainJob without a runtime name": {
			in: `apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {name: t, labels: {kueue.x-k8s.io/queue-name: lq}}
spec:
  runtimeRef: {kind: TrainingRuntime}
`,
			want: []diag{{At: "t.yaml:5:15", Object: "TrainJob/default/t", Field: "spec.runtimeRef.name", Msg: `missing required field "name"`}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			sc, diags := decode(t, tc.in)
			if sc != nil {
				t.Fatalf("Decode succeeded, want errors; warnings: %v", sc.Warnings)
			}
			if diff := diffDiags(tc.want, compact(diags, core.SeverityError)); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// manyLWS returns n LeaderWorkerSet documents b0, b1, ... of 10000 groups
// each.
func manyLWS(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `---
apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: b%d}
spec:
  replicas: 10000
  leaderWorkerTemplate: {workerTemplate: {spec: {containers: [{name: c}]}}}
`, i)
	}
	return b.String()
}
