package trace

// Placement layer (scenarios with Nodes): where the pods of admitted
// workloads and of Deployments go. See package core/place.

// Placement is one attempt to place one pod (one kube-scheduler
// scheduling cycle).
type Placement struct {
	Pod string `json:"pod"` // namespace/name
	// Owner is the workload or Deployment ("namespace/name").
	Owner string `json:"owner"`
	// Policy is the ResourcePolicy that governs the pod, if any, and Group
	// the pod's values of its matchLabelKeys ("key=value, ...").
	Policy string `json:"policy,omitempty"`
	Group  string `json:"group,omitempty"`
	// Node is the chosen node; empty when the pod stays pending.
	Node string `json:"node,omitempty"`
	// Unit is the ResourcePolicy unit the pod counts in on that node
	// (its name, or #index), empty outside every unit.
	Unit string `json:"unit,omitempty"`
	// DeletionCost is the controller.kubernetes.io/pod-deletion-cost the
	// pod gets (governed pods only).
	DeletionCost *int32 `json:"deletionCost,omitempty"`
	// Message explains the outcome: why this node won, or, for a pod that
	// stays pending, kube-scheduler's FitError text ("0/3 nodes are
	// available: ...").
	Message string `json:"message"`
	// Weights are the score plugins' effective weights, by plugin name
	// (placements with node verdicts only).
	Weights []PluginWeight `json:"weights,omitempty"`
	// Feasible is how many nodes passed every filter; Nodes the verdict of
	// each node (feasible ones by total score, best first, then rejected
	// ones by name), at most MaxNodeRows of them; NodesOmitted how many
	// more there were.
	Feasible     int           `json:"feasible"`
	Nodes        []NodeVerdict `json:"nodes,omitempty"`
	NodesOmitted int           `json:"nodesOmitted,omitempty"`
	// Scored is false when scoring was skipped: one feasible node (as
	// kube-scheduler does) or none.
	Scored bool `json:"scored"`
}

// MaxNodeRows bounds Placement.Nodes; the counts in the message and in
// Feasible stay exact.
const MaxNodeRows = 20

// MaxDetailedPlacements is how many placements of one step keep their
// node verdicts (Placement.Nodes); later ones in the step keep their
// outcome, message and counts, with every node in NodesOmitted. Together
// with MaxNodeRows it keeps a trace's size in the number of steps, not
// of pods times nodes.
const MaxDetailedPlacements = 20

// PluginWeight is a score plugin's weight.
type PluginWeight struct {
	Plugin string `json:"plugin"`
	Weight int    `json:"weight"`
}

// NodeVerdict is one node's result for one pod.
type NodeVerdict struct {
	Node string `json:"node"`
	// Filter is the first filter plugin that rejected the node, with its
	// reasons; empty for a feasible node.
	Filter  string   `json:"filter,omitempty"`
	Reasons []string `json:"reasons,omitempty"`
	// Unit is the ResourcePolicy unit the pod would count in on this node.
	Unit string `json:"unit,omitempty"`
	// Scores are each plugin's raw, normalized and weighted score (feasible
	// nodes, when scored), in plugin name order; Total their sum.
	Scores []PluginScore `json:"scores,omitempty"`
	Total  int64         `json:"total"`
}

// PluginScore is one score plugin's score of one node.
type PluginScore struct {
	Plugin     string `json:"plugin"`
	Raw        int64  `json:"raw"`
	Normalized int64  `json:"normalized"`
	Weighted   int64  `json:"weighted"`
	// Skipped is set when the plugin's PreScore skipped it for this pod
	// (no preferred affinity, no governing policy, a best-effort pod): it
	// adds 0.
	Skipped bool `json:"skipped,omitempty"`
}

// UnitCount is one ResourcePolicy unit's pod count (per matchLabelKeys
// group) after a step.
type UnitCount struct {
	Policy string `json:"policy"`
	Unit   string `json:"unit"`
	Group  string `json:"group,omitempty"`
	// Count is every pod placed through the unit; Live leaves terminating
	// pods out.
	Count    int    `json:"count"`
	Live     int    `json:"live"`
	MaxCount *int32 `json:"maxCount,omitempty"`
}

// ScaleDown is a Deployment or ReplicaSet losing pods (a scale event).
type ScaleDown struct {
	Owner string `json:"owner"`
	From  int32  `json:"from"`
	To    int32  `json:"to"`
	// Removed are the pods removed, in the order the ReplicaSet
	// controller ranks them, each with why it went before the ones kept.
	Removed []RemovedPod `json:"removed"`
}

// RemovedPod is one pod a scale-down removes.
type RemovedPod struct {
	Pod          string `json:"pod"`
	Node         string `json:"node,omitempty"`
	DeletionCost *int32 `json:"deletionCost,omitempty"`
	Why          string `json:"why"`
}

// NodeState is one node after a step.
type NodeState struct {
	Node string `json:"node"`
	// Units lists the ResourcePolicy units that select the node
	// ("policy/unit").
	Units []string `json:"units,omitempty"`
	// Allocatable and Requested per resource, in resource name order.
	Resources []NodeResource `json:"resources"`
	// Pods are the pods bound to the node, by name (at most QueueListCap
	// of them); PodCount is exact.
	Pods     []NodePod `json:"pods,omitempty"`
	PodCount int       `json:"podCount"`
}

// NodePod is one pod bound to a node.
type NodePod struct {
	Pod   string `json:"pod"`   // namespace/name
	Owner string `json:"owner"` // the workload or Deployment
	// Unit is the ResourcePolicy unit the pod counts in, in the form of
	// NodeState.Units ("namespace/policy/unit"); empty for a pod no policy
	// governs or placed outside every unit.
	Unit string `json:"unit,omitempty"`
	// DeletionCost is the pod's controller.kubernetes.io/pod-deletion-cost
	// (governed pods only).
	DeletionCost *int32 `json:"deletionCost,omitempty"`
	// Terminating is set for a pod being deleted: it keeps its node until
	// its owner's termination delay ends.
	Terminating bool `json:"terminating,omitempty"`
}

// Policy is one ResourcePolicy of the scenario, as the node view groups
// nodes by its units.
type Policy struct {
	Policy string `json:"policy"` // namespace/name
	// Strategy is "required" or "prefer".
	Strategy string `json:"strategy"`
	// PodSelector and each unit's NodeSelector are written the way
	// kubectl prints label selectors ("app=web,tier in (a,b)"); "" selects
	// everything.
	PodSelector          string   `json:"podSelector"`
	MatchLabelKeys       []string `json:"matchLabelKeys,omitempty"`
	IgnoreTerminatingPod bool     `json:"ignoreTerminatingPod,omitempty"`
	// Units in spec order.
	Units []PolicyUnit `json:"units"`
}

// PolicyUnit is one unit of a ResourcePolicy.
type PolicyUnit struct {
	// Unit is the unit's name, or "#index" when it has none.
	Unit         string `json:"unit"`
	Priority     int32  `json:"priority"`
	MaxCount     *int32 `json:"maxCount,omitempty"`
	NodeSelector string `json:"nodeSelector"`
}

// NodeResource is one resource of a node.
type NodeResource struct {
	Resource    string   `json:"resource"`
	Allocatable Quantity `json:"allocatable"`
	Requested   Quantity `json:"requested"`
}

// PendingPod is a pod that no node could take, with its reason.
type PendingPod struct {
	Pod     string `json:"pod"`
	Owner   string `json:"owner"`
	Message string `json:"message"`
}
