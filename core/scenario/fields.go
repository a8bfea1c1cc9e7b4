package scenario

// knownFields returns every field name the decoder reads, sorted: the
// dictionary that suggestions for a misspelled field come from
// (TestKnownFields keeps it equal to the names the decoder's switches
// accept; -update-fields rewrites this file). A function rather than a
// variable: the package has no package-level variables.
func knownFields() []string {
	return []string{
		"active", "activeDeadlineSeconds", "admission", "admissionChecks", "admissionChecksStrategy", "admissionFairSharing",
		"admissionScope", "admitted", "affinity", "allocatable", "annotations", "apiVersion",
		"args", "at", "automountServiceAccountToken", "backoffLimit", "backoffLimitPerIndex", "binaryData",
		"blockOwnerDeletion", "borrowWithinCohort", "borrowingLimit", "capacity", "claims", "clientConnection",
		"clusterQueue", "cohort", "cohortName", "command", "completionMode", "completions",
		"conditions", "configSource", "containers", "controller", "count", "coveredResources",
		"creationTimestamp", "cycle", "cycleDuration", "data", "delayedTopologyRequest", "deletionGracePeriodSeconds",
		"deletionTimestamp", "description", "deviceClassMappings", "dnsConfig", "dnsPolicy", "effect",
		"enableServiceLinks", "env", "envFrom", "ephemeralContainers", "events", "excludeResourcePrefixes",
		"expect", "externalID", "fairSharing", "featureGates", "finalizers", "finished",
		"flavorFungibility", "flavors", "generateName", "generation", "globalDefault", "group",
		"health", "hostAliases", "hostIPC", "hostNetwork", "hostPID", "hostUsers",
		"hostname", "hostnameOverride", "image", "imagePullPolicy", "imagePullSecrets", "immutable",
		"initContainers", "input", "integrations", "internalCertManagement", "items", "key",
		"kind", "labels", "lastTransitionTime", "leaderElection", "lendingLimit", "lifecycle",
		"limits", "livenessProbe", "manageJobsWithoutQueueName", "managedBy", "managedFields", "managedJobsNamespaceSelector",
		"manualSelector", "matchExpressions", "matchFields", "matchLabelKeys", "matchLabels", "matchPolicy",
		"maxCount", "maxCycles", "maxFailedIndexes", "maxPriorityThreshold", "maximumExecutionTimeSeconds", "message",
		"messages", "metadata", "metrics", "minCount", "minReadySeconds", "multiKueue",
		"multiplyBy", "name", "namespace", "namespaceSelector", "nodeAffinity", "nodeLabels",
		"nodeName", "nodeSelector", "nodeSelectorTerms", "nodeTaints", "nominalQuota", "objectRetentionPolicies",
		"observedGeneration", "operator", "os", "outputs", "overhead", "ownerReferences",
		"parallelism", "parentName", "paused", "pending", "placement", "podAffinity",
		"podAntiAffinity", "podCIDR", "podCIDRs", "podFailurePolicy", "podReplacementPolicy", "podSelector",
		"podSetAssignments", "podSets", "pods", "policy", "ports", "pprofBindAddress",
		"preempted", "preemption", "preemptionPolicy", "preference", "preferredDuringSchedulingIgnoredDuringExecution", "priority",
		"priorityClassName", "priorityClassRef", "priorityClassSource", "progressDeadlineSeconds", "providerID", "queueName",
		"queueVisibility", "queueingStrategy", "readinessGates", "readinessProbe", "reason", "reclaimWithinCohort",
		"replicas", "requests", "requeueAt", "requeueState", "requiredDuringSchedulingIgnoredDuringExecution", "resizePolicy",
		"resourceClaims", "resourceGroups", "resourceUsage", "resourceVersion", "resources", "restartPolicy",
		"restartPolicyRules", "revisionHistoryLimit", "runtimeClassName", "schedulerName", "schedulingGates", "securityContext",
		"selector", "selfLink", "serviceAccount", "serviceAccountName", "setHostnameAsFQDN", "shareProcessNamespace",
		"spec", "startupProbe", "status", "stdin", "stdinOnce", "stopPolicy",
		"strategy", "subdomain", "successPolicy", "suspend", "taints", "template",
		"terminating", "terminationDelay", "terminationGracePeriodSeconds", "terminationMessagePath", "terminationMessagePolicy", "timeAdded",
		"tls", "tolerationSeconds", "tolerations", "topologyAssignment", "topologyName", "topologyRequest",
		"topologySpreadConstraints", "transformations", "ttlSecondsAfterFinished", "tty", "type", "uid",
		"units", "unschedulable", "until", "value", "values", "volumeDevices",
		"volumeMounts", "volumes", "waitForPodsReady", "webhook", "weight", "weights",
		"whenCanBorrow", "whenCanPreempt", "withinClusterQueue", "workingDir", "workloadRef",
	}
}
