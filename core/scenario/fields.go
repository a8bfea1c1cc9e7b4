package scenario

// knownFields returns every field name the decoder reads, sorted: the
// dictionary that suggestions for a misspelled field come from
// (TestKnownFields keeps it equal to the names the decoder's switches
// accept; -update-fields rewrites this file). A function rather than a
// variable: the package has no package-level variables.
func knownFields() []string {
	return []string{
		"active", "activeDeadlineSeconds", "admission", "admissionChecks", "admissionChecksStrategy", "admissionScope",
		"admitted", "affinity", "allocatable", "annotations", "apiVersion", "args",
		"at", "automountServiceAccountToken", "backoffLimit", "backoffLimitPerIndex", "blockOwnerDeletion", "borrowWithinCohort",
		"borrowingLimit", "capacity", "claims", "clusterQueue", "cohort", "cohortName",
		"command", "completionMode", "completions", "conditions", "configSource", "containers",
		"controller", "count", "coveredResources", "creationTimestamp", "cycle", "cycleDuration",
		"delayedTopologyRequest", "deletionGracePeriodSeconds", "deletionTimestamp", "description", "dnsConfig", "dnsPolicy",
		"effect", "enableServiceLinks", "env", "envFrom", "ephemeralContainers", "events",
		"expect", "externalID", "fairSharing", "featureGates", "finalizers", "finished",
		"flavorFungibility", "flavors", "generateName", "generation", "globalDefault", "group",
		"hostAliases", "hostIPC", "hostNetwork", "hostPID", "hostUsers", "hostname",
		"hostnameOverride", "image", "imagePullPolicy", "imagePullSecrets", "initContainers", "items",
		"key", "kind", "labels", "lastTransitionTime", "lendingLimit", "lifecycle",
		"limits", "livenessProbe", "managedBy", "managedFields", "manualSelector", "matchExpressions",
		"matchFields", "matchLabelKeys", "matchLabels", "matchPolicy", "maxCount", "maxCycles",
		"maxFailedIndexes", "maxPriorityThreshold", "maximumExecutionTimeSeconds", "message", "messages", "metadata",
		"minCount", "minReadySeconds", "name", "namespace", "namespaceSelector", "nodeAffinity",
		"nodeLabels", "nodeName", "nodeSelector", "nodeSelectorTerms", "nodeTaints", "nominalQuota",
		"observedGeneration", "operator", "os", "overhead", "ownerReferences", "parallelism",
		"parentName", "paused", "pending", "placement", "podAffinity", "podAntiAffinity",
		"podCIDR", "podCIDRs", "podFailurePolicy", "podReplacementPolicy", "podSelector", "podSetAssignments",
		"podSets", "pods", "policy", "ports", "preempted", "preemption",
		"preemptionPolicy", "preference", "preferredDuringSchedulingIgnoredDuringExecution", "priority", "priorityClassName", "priorityClassRef",
		"priorityClassSource", "progressDeadlineSeconds", "providerID", "queueName", "queueingStrategy", "readinessGates",
		"readinessProbe", "reason", "reclaimWithinCohort", "replicas", "requests", "requeueAt",
		"requeueState", "requiredDuringSchedulingIgnoredDuringExecution", "resizePolicy", "resourceClaims", "resourceGroups", "resourceUsage",
		"resourceVersion", "resources", "restartPolicy", "restartPolicyRules", "revisionHistoryLimit", "runtimeClassName",
		"schedulerName", "schedulingGates", "securityContext", "selector", "selfLink", "serviceAccount",
		"serviceAccountName", "setHostnameAsFQDN", "shareProcessNamespace", "spec", "startupProbe", "status",
		"stdin", "stdinOnce", "stopPolicy", "strategy", "subdomain", "successPolicy",
		"suspend", "taints", "template", "terminating", "terminationDelay", "terminationGracePeriodSeconds",
		"terminationMessagePath", "terminationMessagePolicy", "timeAdded", "tolerationSeconds", "tolerations", "topologyAssignment",
		"topologyName", "topologyRequest", "topologySpreadConstraints", "ttlSecondsAfterFinished", "tty", "type",
		"uid", "units", "unschedulable", "until", "value", "values",
		"volumeDevices", "volumeMounts", "volumes", "weight", "weights", "whenCanBorrow",
		"whenCanPreempt", "withinClusterQueue", "workingDir", "workloadRef",
	}
}
