package scenario

import (
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/kueueplay/kueueplay/core"
)

// state collects the decoded objects of one file, with the positions the
// cross-object checks (link) need.
type state struct {
	// keys detects duplicate objects: "Kind/name" or "Kind/ns/name";
	// workloadKeys counts its "Workload/..." keys.
	keys         map[string]keyInfo
	workloadKeys int

	scenarioSeen bool
	// scenarioLine is the (shifted) line of the first Scenario's kind.
	scenarioLine int
	scenario     scenarioInfo
	// config is the Kueue Configuration, nil when the file has none.
	config *configInfo

	flavors     []core.ResourceFlavor
	flavorNames map[string]bool
	// flavorTopologies are the topologyName references of flavors, in
	// document order; topologies the Topology objects.
	flavorTopologies []flavorTopology
	topologies       []core.Topology
	clusterQueues    []*cqInfo
	cohorts          []*cohortInfo
	localQueues      []*lqInfo
	namespaces       []core.Namespace
	nodes            []core.Node
	policies         []core.ResourcePolicy
	// podGroups maps "namespace/group" to the Pods of a pod group;
	// podGroupOrder holds the groups in the order of their first Pod.
	podGroups     map[string]*podGroup
	podGroupOrder []*podGroup
	// trainingRuntimes maps "ClusterTrainingRuntime/name" and
	// "TrainingRuntime/namespace/name" to the runtimes of the file;
	// trainJobs holds the TrainJobs, in document order.
	trainingRuntimes map[string]*trainingRuntime
	trainJobs        []*trainJobInfo
	// lwsGroups counts the Workloads of the LeaderWorkerSets so far.
	lwsGroups int
	// ownedPods are the Pods that belong to their controller owner.
	ownedPods []ownedPod
	// deployments holds Deployments and ReplicaSets, in document order;
	// podOwners maps their "namespace/name" to the first one registered.
	deployments []*depInfo
	podOwners   map[string]*depInfo
	// workloads holds the Workload objects and Jobs that fastWorkload does
	// not decode, in document order.
	workloads []*wlInfo
	// fastWorkloads holds the Workloads fastWorkload decodes, in document
	// order, and fastAt where each is written: they have no wlInfo, no
	// label and no key in keys (fastKeys finds them), and the cross-object
	// checks read them here (issue 20: a 176-byte wlInfo, its label and its
	// key were 5 MB of decoding the 15,000-workload file). Each wlInfo's
	// fastBefore says where it goes among them. build gives the Scenario
	// this slice when they are all its workloads. fastCap is the capacity
	// to start it with (stream sets it to the number of documents at most).
	fastWorkloads  []core.Workload
	fastAt         []fastAt
	fastKeys       fastKeys
	fastCap        int
	priorityClass  map[string]*pcInfo
	workloadPClass map[string]*pcInfo
	// defaultPriorityClass is the PriorityClass with globalDefault: true.
	defaultPriorityClass string
}

func newState() *state {
	return &state{
		keys:             map[string]keyInfo{},
		podOwners:        map[string]*depInfo{},
		podGroups:        map[string]*podGroup{},
		trainingRuntimes: map[string]*trainingRuntime{},
		flavorNames:      map[string]bool{},
		priorityClass:    map[string]*pcInfo{},
		workloadPClass:   map[string]*pcInfo{},
		scenario: scenarioInfo{
			sc: core.Scenario{
				CycleDuration: core.DefaultCycleDuration,
				MaxCycles:     core.DefaultMaxCycles,
			},
		},
	}
}

// ref is a name that another object refers to, with where it was written.
type ref struct {
	name string
	node *yaml.Node
	path string
}

// cqInfo is a decoded ClusterQueue and its references.
type cqInfo struct {
	cq      core.ClusterQueue
	label   string
	flavors []ref
}

// cohortInfo is a decoded Cohort and its parent reference.
type cohortInfo struct {
	cohort core.Cohort
	label  string
	parent ref
}

// lqInfo is a decoded LocalQueue.
type lqInfo struct {
	lq    core.LocalQueue
	label string
	cq    ref
	// node is the object, for the missing-clusterQueue warning.
	node *yaml.Node
}

// pcInfo is a PriorityClass or WorkloadPriorityClass.
type pcInfo struct {
	value         int32
	globalDefault bool
	node          *yaml.Node
}

// at is where a node is: its (shifted) line and column, all the state
// keeps of the nodes every Workload has, which the cross-object checks
// read only for positions (issue 20: three kept 176-byte yaml.Nodes per
// Workload were 7.9 MB of decoding the 15,000-workload file). The zero at
// is no position.
type at struct{ line, col int }

// atOf is where n is; the zero at for nil.
func atOf(n *yaml.Node) at {
	if n == nil {
		return at{}
	}
	return at{n.Line, n.Column}
}

// node returns a node at a, for the functions that report about nodes;
// nil for the zero at.
func (a at) node() *yaml.Node {
	if a == (at{}) {
		return nil
	}
	return &yaml.Node{Line: a.line, Column: a.col}
}

// wref is a ref a Workload keeps: the name, where it is written, and the
// field path.
type wref struct {
	name string
	at   at
	path string
}

// wlInfo is a decoded Workload, or a Job that becomes one.
type wlInfo struct {
	wl    *core.Workload
	label string
	// queue is spec.queueName (or the Job's queue-name label).
	queue wref
	// objAt is where the object's mapping is; nameAt its metadata.name.
	objAt, nameAt at
	// latest is the latest lastTransitionTime of any condition: the file's
	// virtual time 0 is the latest over all workloads (linkTimes).
	latest *time.Time
	// job is set for Jobs (any job kind Kueue queues: batch/v1 Job,
	// JobSet, ...).
	job bool

	// uid is the object's metadata.uid; owner its controller
	// ownerReference (Workload objects: the job that owns it).
	uid   string
	owner *ownerRef
	// mergedInto is the Workload object that is this job's workload (its
	// controller ownerReference names the job); the job is then dropped.
	mergedInto *wlInfo

	// dropped workloads are left out of the Scenario (finished, or a Job
	// Kueue does not manage).
	dropped bool
	// fastBefore is how many of state.fastWorkloads come before it in
	// document order (addWorkload sets it).
	fastBefore int

	wlMore
}

// clone returns a copy of w with a Workload of its own (the slices and
// maps in them are shared).
func (w *wlInfo) clone() *wlInfo {
	c := *w
	wl := *w.wl
	c.wl = &wl
	return &c
}

// wlMore is the part of a wlInfo that only Jobs and Workload objects with
// a status use.
type wlMore struct {
	// admittedAt is the QuotaReserved condition's lastTransitionTime.
	admittedAt *time.Time
	// evicted is the Evicted=True condition; evictedAt its time.
	evicted   *core.Eviction
	evictedAt *time.Time
	// requeueAt is status.requeueState.requeueAt.
	requeueAt     *time.Time
	requeueAtNode *yaml.Node
	// admissionCQ is status.admission.clusterQueue.
	admissionCQ ref

	// Jobs only.
	jobName string
	// jobGroup and jobKind are the API group ("batch", "jobset.x-k8s.io")
	// and kind of the job object, for matching the controller
	// ownerReference of a pasted Workload or Pod to it.
	jobGroup, jobKind string
	// podGroup is set for the Workload of a pod group: jobKind is "Pod",
	// jobName the group name, and groupPods the names of its Pods, in name
	// order (each Pod is an owner of the Workload), filled in link.
	podGroup     bool
	groupPods    []string
	noQueueLabel bool
	// wpc is the kueue.x-k8s.io/priority-class label; pc the pod template's
	// priorityClassName.
	wpc, pc ref
}

// depInfo is a decoded Deployment or ReplicaSet.
type depInfo struct {
	dep   core.Deployment
	label string
	// node is the object's mapping; nameNode its metadata.name.
	node, nameNode *yaml.Node
	// replicas is spec.replicas as written (node nil when defaulted).
	replicas ref
	// proto is the Workload of one pod when Kueue may queue them (nil
	// without a pod template); linkQueuedDeployments decides and makes
	// workloads, the Workload of each pod ever created, in index order.
	proto     *wlInfo
	workloads []*wlInfo
	// owner is the object's controller ownerReference; ownedBy is set on a
	// ReplicaSet whose owner is a Deployment of the input, which stands
	// for it (linkDeploymentOwners): the ReplicaSet is left out.
	owner   *ownerRef
	ownedBy *depInfo
	// adopted are the Workload objects of the input whose Pod belongs to
	// this owner (a pasted cluster's pod workloads), with their pods'
	// names; podsInInput counts the owner's Pods in the input.
	adopted     []adoptedPod
	podsInInput int
}

// adoptedPod is a pasted Workload of a queued Deployment's pod.
type adoptedPod struct {
	w   *wlInfo
	pod string
}

// scenarioInfo is the decoded Scenario object with the references of its
// events and expectations, checked once every object is known.
type scenarioInfo struct {
	sc    core.Scenario
	label string
	refs  []wlRef
	// nodeRefs are the node names of expect[].pods.
	nodeRefs []ref
	// scales are the scale events, for the MaxDeploymentPods bound.
	scales []scaleRef
}

// refKind says what an event or expectation reference may name.
type refKind int

const (
	// refWorkload: a workload (finish, delete, admitted, pending, ...).
	refWorkload refKind = iota
	// refOwner: a workload, Deployment or ReplicaSet (pods, messages).
	refOwner
	// refScalable: a Deployment or ReplicaSet (scale).
	refScalable
)

// wlRef is a workload (or, by kind, a pod owner) named in an event or
// expectation, normalised to "namespace/name".
type wlRef struct {
	name string
	kind refKind
	node *yaml.Node
	path string
}

// scaleRef is a scale event: its target and where its replicas are
// written.
type scaleRef struct {
	target   string
	replicas int32
	node     *yaml.Node
	path     string
}

// workload is w's Workload, or with w nil fastWorkloads[i]; workloadAt
// is its label and its object's position, for a diagnostic.
func (st *state) workload(w *wlInfo, i int) *core.Workload {
	if w != nil {
		return w.wl
	}
	return &st.fastWorkloads[i]
}

func (st *state) workloadAt(w *wlInfo, i int) (string, *yaml.Node) {
	if w != nil {
		return w.label, w.objAt.node()
	}
	return fastLabel(&st.fastWorkloads[i]), st.fastAt[i].obj()
}

// addWorkload appends w to the workloads.
func (st *state) addWorkload(w *wlInfo) {
	w.fastBefore = len(st.fastWorkloads)
	st.workloads = append(st.workloads, w)
}

// build assembles the Scenario.
func (st *state) build() *core.Scenario {
	sc := st.scenario.sc
	sc.Flavors = st.flavors
	sc.Topologies = st.topologies
	for _, c := range st.clusterQueues {
		sc.ClusterQueues = append(sc.ClusterQueues, c.cq)
	}
	for _, c := range st.cohorts {
		sc.Cohorts = append(sc.Cohorts, c.cohort)
	}
	for _, q := range st.localQueues {
		sc.LocalQueues = append(sc.LocalQueues, q.lq)
	}
	sc.Namespaces = st.namespaces
	kept := len(st.fastWorkloads)
	for _, w := range st.workloads {
		if !w.dropped {
			kept++
		}
	}
	// index maps a kept workload to its index in sc.Workloads, for the
	// Deployments.
	var index map[*wlInfo]int
	if len(st.deployments) > 0 {
		index = make(map[*wlInfo]int, kept-len(st.fastWorkloads))
	}
	if kept > 0 && kept == len(st.fastWorkloads) {
		sc.Workloads = st.fastWorkloads[:kept:kept]
	} else {
		// In document order: each wlInfo after the fast path's Workloads
		// before it.
		sc.Workloads = make([]core.Workload, 0, kept)
		fast := 0
		for _, w := range st.workloads {
			sc.Workloads = append(sc.Workloads, st.fastWorkloads[fast:w.fastBefore]...)
			fast = w.fastBefore
			if !w.dropped {
				if index != nil {
					index[w] = len(sc.Workloads)
				}
				sc.Workloads = append(sc.Workloads, *w.wl)
			}
		}
		sc.Workloads = append(sc.Workloads, st.fastWorkloads[fast:]...)
	}
	sc.Nodes = st.nodes
	for _, dp := range st.deployments {
		if dp.ownedBy != nil {
			continue // its Deployment stands for it
		}
		dep := dp.dep
		for _, w := range dp.workloads {
			if i, ok := index[w]; ok {
				dep.Workloads = append(dep.Workloads, i)
			}
		}
		sc.Deployments = append(sc.Deployments, dep)
	}
	sc.ResourcePolicies = st.policies
	return &sc
}
