// Package scenario decodes and validates a kueueplay scenario file: a
// multi-document YAML stream of the Kubernetes and Kueue manifests users
// already have (ResourceFlavors, ClusterQueues, Cohorts, LocalQueues,
// Workloads, WorkloadPriorityClasses, the job kinds Kueue queues, apps/v1
// Deployments and ReplicaSets, Namespaces, Nodes, PriorityClasses,
// ResourcePolicies), at most one Kueue Configuration (config.kueue.x-k8s.io,
// alone or in Kueue's manager ConfigMap; see config.go) and at most one
// kueueplay/v1alpha1 Scenario object with the simulation settings, events
// and expectations. DecodeFiles takes the same objects spread over several
// inputs (`kubectl apply -f a.yaml -f b.yaml`) as one scenario. JSON (what
// `kubectl get -o json` prints) is accepted as the YAML it is.
//
// Each job kind becomes the Workload Kueue v0.16.1's integration for it
// would create (one file per kind; each cites the integration's PodSets):
// batch/v1 Job (workload.go), jobset.x-k8s.io/v1alpha2 JobSet (jobset.go),
// ray.io/v1 RayJob and RayCluster (ray.go), kubeflow.org/v1 PyTorchJob,
// TFJob, XGBoostJob, PaddleJob, JAXJob and kubeflow.org/v2beta1 MPIJob
// (kubeflow.go), trainer.kubeflow.org/v1alpha1 TrainJob (built from its
// ClusterTrainingRuntime or TrainingRuntime, which the file must hold,
// trainjob.go), workload.codeflare.dev/v1beta2 AppWrapper (the pod sets of
// its components, appwrapper.go), leaderworkerset.x-k8s.io/v1
// LeaderWorkerSet (one Workload per group, leaderworkerset.go), apps/v1
// StatefulSet (one pod group, statefulset.go), and v1 Pods with the
// queue-name label, alone or as a pod group (pod-group-name label and
// pod-group-total-count annotation: one Workload for the group, pod.go).
// What they share is in jobs.go. The Workload is named
// "<lowercase kind>-<name>" (a LeaderWorkerSet's
// "leaderworkerset-<name>-<group index>", a pod group's the group name);
// Kueue appends a hash of the object's UID, which the playground leaves out
// to keep names readable.
//
// Deployments and ReplicaSets whose pods Kueue queues (a queue-name label,
// which Kueue's Deployment webhook copies into the pod template, or the
// namespace's LocalQueue "default") become one single-pod Workload per pod
// they ever create, as Kueue's pod integration makes them
// (deployment.go: podWorkload, linkQueuedDeployments); the engine creates
// and deletes them with the replica count. Other Deployments and
// ReplicaSets are pod owners placed without quota.
//
// Decode walks go.yaml.in/yaml/v3's node tree by hand, so every diagnostic
// carries the line and column of the node it is about. Decoding is strict:
// a field that is not a real field of the Kubernetes type is an error, while
// real fields the playground does not interpret (most of ObjectMeta,
// status, most of PodSpec and Container, most of JobSpec and
// DeploymentSpec) are accepted and skipped without being read, so that
// `kubectl get -o yaml` output decodes.
//
// Validation mirrors what the API server and Kueue v0.16.1 would do with the
// same objects: CRD schema rules (enums, defaults, list sizes, CEL
// XValidation rules) and Kueue's validating webhooks
// (pkg/webhooks/*_webhook.go). What Kueue accepts but then leaves pending or
// inactive (a LocalQueue naming a missing ClusterQueue, a ClusterQueue
// naming a missing ResourceFlavor, ...) is a warning, not an error.
//
// The package is pure: no I/O, no clock, no package-level variables.
package scenario
