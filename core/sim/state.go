package sim

import (
	"cmp"
	"slices"
	"time"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/flavor"
	"github.com/kueueplay/kueueplay/core/preempt"
	"github.com/kueueplay/kueueplay/core/quota"
	"github.com/kueueplay/kueueplay/core/trace"
)

// Status is the one state a workload is in.
type Status int

const (
	NotCreated Status = iota
	Pending
	Admitted
	Terminating
	Finished
	Deleted
)

func (s Status) String() string {
	return [...]string{"notCreated", "pending", "admitted", "terminating", "finished", "deleted"}[s]
}

// Workload is the engine's view of one workload. Values reachable from a
// State are never modified in place once a Step has returned: a Step copies
// a workload before changing it (copy on write, see State.mutWorkload).
type Workload struct {
	Spec *core.Workload
	Key  string
	// Seq is the creation order: arrival time, then document order. It is
	// the queue-order timestamp tie-break.
	Seq int
	// ClusterQueue is the queue's ClusterQueue, empty when the LocalQueue
	// or the ClusterQueue does not exist.
	ClusterQueue string
	Status       Status
	// Message is the current pending message (QuotaReserved=False).
	Message string
	// Explanation is the playground's extra words about Message.
	Explanation string
	// Last is where the previous flavor assignment stopped (resume state).
	Last *flavor.LastState
	// ResetReason says why Last was cleared, for the trace.
	ResetReason trace.ResetReason
	// Queue placement of a pending workload.
	InHeap bool
	Parked bool

	Admission  *Admission
	AdmittedAt time.Duration
	// AdmitSeq orders admissions at the same time: workloads that start
	// admitted without a lastTransitionTime in document order, then every
	// admission the simulation makes in processing order (the order their
	// pods are created in). It is 0 for workloads that start admitted with
	// a lastTransitionTime, so equal given times fall through to the name.
	// Preemption does not tell apart the admissions of one cycle
	// (reservedStamp).
	AdmitSeq int
	// FinishAt is when an admitted workload with a runtime finishes.
	FinishAt *time.Duration
	// Preemptions counts how often the workload was evicted by preemption.
	Preemptions int
	// Preempted is set from an eviction by preemption until the workload
	// is admitted again (the Preempted condition is True meanwhile).
	Preempted *Preemption
	// Drained is set when the workload was evicted because its LocalQueue
	// or ClusterQueue has stopPolicy HoldAndDrain. It stays set after the
	// release: Kueue leaves such a workload with Requeued=False, so the
	// queue manager never requeues it while the queue is stopped.
	Drained *Drain
	// ScaledIn is set on an evicted (terminating) pod workload of a
	// queued Deployment when a scale-in deleted the pod that replaces its
	// pod: on release it is deleted instead of queued again.
	ScaledIn bool
	// ReleaseAt is when a terminating workload releases its quota.
	ReleaseAt *time.Duration

	gen int
}

// Admission is the quota an admitted (or terminating) workload holds. It
// is never modified once made, and the admissions of one ClusterQueue
// with the same pod set, flavors and usage are one value
// (State.admissionOf).
type Admission struct {
	ClusterQueue string
	PodSets      []AdmittedPodSet
	Usage        map[core.FlavorResource]core.Amount

	// queue is ClusterQueue's index, -1 when the input has no such
	// ClusterQueue. flavors and quota are what the trace says of it
	// (admissionFlavors, usageQuantities), written once with it.
	queue   int
	flavors []trace.PodSetFlavors
	quota   []trace.Quantity
}

// newAdmission makes an admission to ClusterQueue cq (by name) from its
// pod sets and usage, with its trace forms.
func (s *State) newAdmission(cq string, podSets []AdmittedPodSet, usage map[core.FlavorResource]core.Amount) *Admission {
	a := &Admission{ClusterQueue: cq, PodSets: podSets, Usage: usage, queue: s.QueueIndex(cq)}
	a.flavors = buildAdmissionFlavors(podSets)
	a.quota = s.usageQuantities(usage)
	return a
}

// admissionOf returns the admission of assignment a to queue qi. Equal
// admissions are one value, kept by the State Run changes in place (a
// copy made by Step, which takes one step, keeps none): a run admits a
// few kinds of workloads thousands of times. They are
// found by their key (the queue, each pod set's name, count and
// flavors, and the usage), written in a buffer the lookup does not keep.
func (s *State) admissionOf(qi int, a *flavor.Assignment) *Admission {
	sl := s.slabs()
	var key []byte
	if sl.size > 1 {
		key = appendKeyInt(sl.admissionKey[:0], int64(qi))
		for i := range a.PodSets {
			p := &a.PodSets[i]
			key = appendKeyInt(appendKeyString(key, p.Name), int64(p.Count))
			key = appendKeyInt(key, int64(len(p.Flavors)))
			for _, f := range p.Flavors {
				key = appendKeyString(appendKeyString(key, string(f.Resource)), string(f.Flavor))
			}
		}
		for _, u := range a.Usage {
			key = appendKeyString(appendKeyString(key, string(u.FR.Flavor)), string(u.FR.Resource))
			key = appendKeyInt(key, int64(u.Amount))
		}
		sl.admissionKey = key
		if adm, ok := sl.admissions[string(key)]; ok {
			return adm
		}
	}
	podSets := make([]AdmittedPodSet, 0, len(a.PodSets))
	for i := range a.PodSets {
		p := &a.PodSets[i]
		aps := AdmittedPodSet{Name: p.Name, Count: p.Count, Flavors: make(map[core.ResourceName]core.FlavorName, len(p.Flavors))}
		for _, f := range p.Flavors {
			aps.Flavors[f.Resource] = f.Flavor
		}
		podSets = append(podSets, aps)
	}
	adm := s.newAdmission(s.Queues[qi].Spec.Name, podSets, a.Usage.Map())
	if key != nil {
		if sl.admissions == nil {
			sl.admissions = map[string]*Admission{}
		}
		sl.admissions[string(key)] = adm
	}
	return adm
}

// appendKeyString appends s to a key, after its length: no two lists of
// strings give one key. Not inlined: one copy of its code serves its
// callers (the size of the page's WebAssembly).
//
//go:noinline
func appendKeyString(key []byte, s string) []byte {
	return append(appendKeyInt(key, int64(len(s))), s...)
}

// appendKeyInt appends v to a key in 8 bytes.
//
//go:noinline
func appendKeyInt(key []byte, v int64) []byte {
	return append(key, byte(v), byte(v>>8), byte(v>>16), byte(v>>24), byte(v>>32), byte(v>>40), byte(v>>48), byte(v>>56))
}

// AdmittedPodSet is the flavors of one admitted pod set.
type AdmittedPodSet struct {
	Name    string
	Count   int32
	Flavors map[core.ResourceName]core.FlavorName
}

// Preemption records the last eviction of a workload by preemption.
type Preemption struct {
	At     time.Duration
	Reason string
	By     string
}

// Drain records an eviction by a stopped queue (stopPolicy HoldAndDrain):
// the workload controller's reconcileOnLocalQueueActiveState or
// reconcileOnClusterQueueActiveState.
type Drain struct {
	At time.Duration
	// Reason is the Evicted condition's reason, LocalQueueStopped or
	// ClusterQueueStopped, and Message its message.
	Reason, Message string
	// LocalQueue is set (namespace/name) for LocalQueueStopped,
	// ClusterQueue for ClusterQueueStopped.
	LocalQueue, ClusterQueue string
}

// ClusterQueue is the engine's view of one ClusterQueue and its queue.
type ClusterQueue struct {
	Spec *core.ClusterQueue
	Node int
	// Active is false when a flavor is missing or stopPolicy is not None.
	Active         bool
	InactiveReason string
	// Generation is AllocatableResourceGeneration: it grows when an
	// admitted workload leaves the queue, and resets the resume state.
	Generation int64
	// Heap holds pending workload indexes in queue order (priority, then
	// creation). Parked holds inadmissible ones, sorted by key. Both are
	// copied on write in chunks (idxList).
	Heap   idxList
	Parked idxList
	// Sticky is the BestEffortFIFO head that is waiting for its
	// preemptions, or -1.
	Sticky int
	// Holding are the workloads that hold quota in this ClusterQueue
	// (admitted or terminating), by index.
	Holding idxList

	gen int
	// ver grows at every mutQueue: a queue with the version it had at the
	// last report has not changed since (queueStates).
	ver uint64
}

// State is the whole simulated world at one virtual time. A State is
// immutable once returned by Step; Step works on a copy.
type State struct {
	Scenario *core.Scenario
	Gates    core.FeatureGates
	Now      time.Duration
	Cycles   int
	// Steps counts the steps taken so far.
	Steps int

	Tree   *quota.Tree
	Queues []*ClusterQueue
	// workloads is a copy-on-write vector in chunks, so that cloning a
	// State costs len/chunkSize pointers, not one per workload.
	workloads []*chunk
	numWL     int
	// shifted has bit i set when workload i's queue-order timestamp is
	// not its creation (queueTime: preempted while borrowing); a copy
	// of the State copies it.
	shifted []uint64
	// numShifted is how many bits of shifted are set: with none, the
	// heaps are in the order of static.created alone.
	numShifted int
	// running are the admitted workloads with a runtime, by finish time.
	running []int
	// terminating are the evicted workloads, by release time.
	terminating []int
	// lastClaims are the KEP-4378 claims of the last cycle, for the
	// invariant checker.
	lastClaims []trace.Claim
	// reportedStates is what the last step reported of the queues,
	// reportedLists their lists as workload numbers, and reportedParts
	// what each queue's state was computed from (its version and the
	// sources of its parts), so that queueStates reuses the state of a
	// queue whose version did not move and the parts of one whose heap
	// moved. Without a reportSpace they are replaced, never modified.
	reportedStates []trace.QueueState
	reportedLists  []trace.QueueLists
	reportedParts  []queueParts
	// reportedRows is what the last step reported of the usage, and
	// rowsAt what it was computed from: the tree's usage version and
	// termVer (usageRows reports the same rows again while both hold).
	reportedRows []trace.UsageRow
	rowsAt       [2]uint64
	// termVer counts the changes to terminating (setTerminating).
	termVer uint64
	// space is where the next report is written (Run without Observe);
	// nil for a State that Step copies.
	space *reportSpace
	// scratch is the space a cycle reuses (cycleScratch).
	scratch *cycleScratch
	// noMemo turns the flavor search's memo off (searchMemo), for the
	// tests that compare runs with and without it.
	noMemo bool
	// frNames remembers the preemption trace's "flavor/resource" names;
	// a State's own (a copy starts without).
	frNames map[core.FlavorResource][]string
	// holders caches each queue's holders as preemption sees them
	// (holdersOf); a copy of the State copies the slice.
	holders []holderCache

	// place is the placement layer (nil without Nodes), copied on write.
	place *placeState
	// nodeVer is each node's place.Cluster version at the last report
	// (placementRows), nil before the first; replaced, never modified.
	nodeVer []uint64
	// initialEvents and initialPlacements are what New did (workloads
	// that start admitted, their pods placed, or finished when the pods
	// cannot start), for the initial step.
	initialEvents     []trace.Event
	initialPlacements []trace.Placement

	// Static lookups, shared by every State of a run.
	static *static
	// words remembers the flavor search's sentences; a State's own (a
	// copy starts without), made on first use.
	words *flavor.Words

	// carve is where the State's steps carve what they hand out
	// and the trace keeps, and the space they reuse; a State's own (a
	// copy starts without: two States carving from one array would
	// overlap), made on first use.
	carve *stepSlabs
	// copied is set on a State made by clone (stepSlabs.size).
	copied bool

	// nextEvent indexes static.events: the first one not applied yet.
	nextEvent int
	admitSeq  int
	gen       int
}

// static holds what never changes during a run.
type static struct {
	cqIndex map[string]int
	wlIndex map[string]int
	flavors map[core.FlavorName]*core.ResourceFlavor
	// namespaces are the labels of the declared namespaces and of the
	// workloads' undeclared ones (implicitNamespaceLabels).
	namespaces map[string]map[string]string
	// localQ is each workload's LocalQueue (nil when it does not
	// exist), by index: resolved once, not looked up by a key built at
	// every arrival.
	localQ []*core.LocalQueue
	// events are the scenario's scheduled events and the arrivals, in the
	// order they are applied (see scheduledEvents).
	events []scheduled
	// usage is the order of the usage rows (usageRows).
	usage *usageLayout
	// keys are the workloads' keys, by index: a report's lists read
	// them without loading each Workload.
	keys []string
	// prio is each workload's priority, by index (heapKeyOf).
	prio []int32
	// created is each workload's place in the heap order while its
	// queue-order timestamp is its creation (not shifted), by index:
	// -priority × 2^32 + Seq. Seq orders by arrival, then document
	// order, and is unique, so it stands for the whole timestamp and
	// the name never decides; one load per workload compared in the
	// heap's searches instead of four.
	created []int64
	// keyRank is each workload's place in key order (equal keys, equal
	// places), by index: the parked sets' order, compared as numbers.
	keyRank []int64
	// labels are each workload's namespace's labels (namespaceLabels),
	// by index.
	labels []map[string]string
	// selectsAll is, by ClusterQueue, whether its namespaceSelector is
	// empty (it matches every namespace: requeueTree does not ask).
	selectsAll []bool
	// treeQueues are, by ClusterQueue, the ClusterQueues of its cohort
	// tree in the order requeueTree visits them (cohortTreeQueues).
	treeQueues [][]int
	// pastedSeqs is the last AdmitSeq given to a workload that starts
	// admitted (reservedStamp).
	pastedSeqs int
}

type scheduledKind int

const (
	// Removals (finishes and deletions) are applied before arrivals at the
	// same time.
	kindRemoval scheduledKind = iota
	kindArrival
	// kindBackoff queues a pending workload pasted with
	// status.requeueState.requeueAt when its backoff ends (wl is its
	// index); it is applied with the arrivals.
	kindBackoff
	// Deployments and ReplicaSets are created after the workloads that
	// arrive at the same time, and scaled after that.
	kindDeployment
	kindScale
)

type scheduled struct {
	at   time.Duration
	kind scheduledKind
	// event is set for removals.
	event *core.Event
	// wl is the workload index for arrivals, the Deployment index for
	// kindDeployment.
	wl int
	// doc is the document order within the kind.
	doc int
}

// clone returns a shallow copy that owns nothing yet: slices of pointers
// are copied, pointed-to values are copied on first write.
func (s *State) clone() *State {
	n := *s
	n.gen = s.gen + 1
	n.words = nil
	n.scratch = nil
	n.space = nil
	n.frNames = nil
	n.carve = nil
	n.copied = true
	n.Tree = s.Tree.Clone()
	n.Queues = slices.Clone(s.Queues)
	n.workloads = slices.Clone(s.workloads)
	n.running = slices.Clone(s.running)
	n.shifted = slices.Clone(s.shifted)
	n.holders = slices.Clone(s.holders)
	n.terminating = slices.Clone(s.terminating)
	n.forgetPrevious()
	return &n
}

// forgetPrevious drops what only the previous step's State describes,
// before a step changes s (in place, or a copy made by clone).
func (s *State) forgetPrevious() {
	s.lastClaims = nil
	s.initialEvents, s.initialPlacements = nil, nil
}

// stepSlabs are a State's slabs and scratch space (State.carve): what a
// step hands out to the trace (the keys of a requeue event, a runtime,
// the step's events) is carved from arrays made a few KB at a time, not
// allocated one by one, and what a step only uses while it runs is
// reused.
type stepSlabs struct {
	keys      growingSlab[string]
	durations []time.Duration
	events    growingSlab[trace.Event]
	// heads and decisions are a cycle's: some 30 of each a cycle at the
	// scalability test's size, half of a long trace's memory.
	heads     growingSlab[trace.Head]
	decisions growingSlab[trace.Decision]
	// Scratch: the step's events while it runs (carved at its end), the
	// workloads that end or release at once, the keys a requeue moves,
	// a heap being merged.
	stepEvents []trace.Event
	due        []int
	moved      []string
	merged     []int
	// admissions are the admissions made so far, by key, and
	// admissionKey the space a key is written in (admissionOf).
	admissions   map[string]*Admission
	admissionKey []byte
	// size is how many values a slab is made with: stepSlabLen for the
	// State Run changes in place, 1 for a copy made by Step, which
	// takes one step (a slab is then a list of its own, as before
	// slabs, and no admission is kept).
	size int
}

// slabs returns the State's slabs, made on first use.
func (s *State) slabs() *stepSlabs {
	if s.carve == nil {
		s.carve = &stepSlabs{size: stepSlabLen}
		if s.copied {
			s.carve.size = 1
		}
	}
	return s.carve
}

// stepSlabLen is how many values a slab holds (more when one list needs
// more): a few KB.
const stepSlabLen = 128

// growingSlab is what a State carves the lists its steps hand out to
// the trace from. What is carved is not handed out again: the slab only
// moves forward, and the GC frees an array when nothing carved from it
// is kept. Its arrays double in length, from the State's slab size up
// to maxSlabLen values, so that what is left unused at the end of each
// is small next to it: a cycle takes some 30 heads and decisions, which
// a slab of 128 holds four times with an eighth unused (the waste of
// the allocator's size class that an array of 30 has too), and one of
// 2,048 sixty-eight times with 8 unused. A short run makes small slabs
// only.
type growingSlab[T any] struct {
	free []T
	next int
}

// maxSlabLen is the longest a growingSlab's array gets.
const maxSlabLen = 2048

// room returns an empty slice with room for n values (nil when n is 0)
// carved from the slab: its capacity is n, so that an append beyond n
// cannot reach its neighbour.
func (g *growingSlab[T]) room(n, size int) []T {
	if n == 0 {
		return nil
	}
	if len(g.free) < n {
		g.next = min(max(2*g.next, size), maxSlabLen)
		g.free = make([]T, max(g.next, n))
	}
	out := g.free[:0:n]
	g.free = g.free[n:]
	return out
}

// copyOf returns a copy of v (nil for an empty v) carved from the slab.
func (g *growingSlab[T]) copyOf(v []T, size int) []T {
	return append(g.room(len(v), size), v...)
}

// duration returns a pointer to a copy of d carved from the State's slab.
// Not inlined: one copy of its code serves its callers (the size of
// the page's WebAssembly).
//
//go:noinline
func (s *State) duration(d time.Duration) *time.Duration {
	sl := s.slabs()
	if len(sl.durations) == 0 {
		sl.durations = make([]time.Duration, sl.size)
	}
	p := &sl.durations[0]
	sl.durations = sl.durations[1:]
	*p = d
	return p
}

const chunkSize = 64

type chunk struct {
	gen   int
	items [chunkSize]*Workload
}

// Workload returns workload i (in document order). The result must not be
// modified. (The index is divided unsigned: a shift and a mask, where a
// signed division by 64 costs a correction for negative numbers, in the
// most called function of a run.)
func (s *State) Workload(i int) *Workload {
	return s.workloads[uint(i)/chunkSize].items[uint(i)%chunkSize]
}

// NumWorkloads returns how many workloads the scenario has.
func (s *State) NumWorkloads() int { return s.numWL }

// All iterates over every workload with its index.
func (s *State) All() func(yield func(int, *Workload) bool) {
	return func(yield func(int, *Workload) bool) {
		for i := range s.numWL {
			if !yield(i, s.Workload(i)) {
				return
			}
		}
	}
}

// appendWorkload adds a workload while building the initial State.
func (s *State) appendWorkload(w *Workload) {
	if s.numWL%chunkSize == 0 {
		s.workloads = append(s.workloads, &chunk{gen: s.gen})
	}
	s.workloads[s.numWL/chunkSize].items[s.numWL%chunkSize] = w
	s.static.keys = append(s.static.keys, w.Key)
	s.numWL++
}

// mutWorkload returns workload i, copied first (with its chunk) if an
// earlier State shares it.
func (s *State) mutWorkload(i int) *Workload {
	c := s.workloads[i/chunkSize]
	if c.gen != s.gen {
		cc := *c
		cc.gen = s.gen
		s.workloads[i/chunkSize] = &cc
		c = &cc
	}
	w := c.items[i%chunkSize]
	if w.gen != s.gen {
		wc := *w
		wc.gen = s.gen
		c.items[i%chunkSize] = &wc
		w = &wc
	}
	return w
}

// setRunning records or forgets the finish time of workload i.
func (s *State) setRunning(i int) {
	s.running = deleteIndex(s.running, i)
	w := s.Workload(i)
	if w.Status != Admitted || w.FinishAt == nil {
		return
	}
	pos, _ := slices.BinarySearchFunc(s.running, i, func(a, b int) int {
		wa, wb := s.Workload(a), s.Workload(b)
		if c := cmp.Compare(*wa.FinishAt, *wb.FinishAt); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	s.running = slices.Insert(s.running, pos, i)
}

// deleteIndex removes i, if present, from l, where it is at most once.
//
//go:noinline
func deleteIndex(l []int, i int) []int {
	if k := slices.Index(l, i); k >= 0 {
		return slices.Delete(l, k, k+1)
	}
	return l
}

// setTerminating records or forgets the release time of workload i.
func (s *State) setTerminating(i int) {
	s.termVer++
	s.terminating = deleteIndex(s.terminating, i)
	w := s.Workload(i)
	if w.Status != Terminating || w.ReleaseAt == nil {
		return
	}
	pos, _ := slices.BinarySearchFunc(s.terminating, i, func(a, b int) int {
		wa, wb := s.Workload(a), s.Workload(b)
		if c := cmp.Compare(*wa.ReleaseAt, *wb.ReleaseAt); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	s.terminating = slices.Insert(s.terminating, pos, i)
}

// hold adds or removes workload i from the holders of queue qi.
func (s *State) hold(qi, i int, holds bool) {
	h := &s.Queues[qi].Holding
	pos := h.search(i, cmp.Compare[int])
	found := pos < h.Len() && h.At(pos) == i
	if found == holds {
		return
	}
	q := s.mutQueue(qi)
	if holds {
		q.Holding.insert(s.gen, pos, i)
	} else {
		q.Holding.deleteAt(s.gen, pos)
	}
}

// mutQueue returns ClusterQueue i, copied first if shared.
func (s *State) mutQueue(i int) *ClusterQueue {
	q := s.Queues[i]
	if q.gen != s.gen {
		c := *q
		c.gen = s.gen
		c.Heap = q.Heap.share()
		c.Parked = q.Parked.share()
		c.Holding = q.Holding.share()
		s.Queues[i] = &c
		q = &c
	}
	q.ver++
	return q
}

// QueueIndex returns the index of a ClusterQueue, or -1.
// Not inlined: one copy of its code serves its callers (the size of
// the page's WebAssembly).
//
//go:noinline
func (s *State) QueueIndex(name string) int {
	if i, ok := s.static.cqIndex[name]; ok {
		return i
	}
	return -1
}

// WorkloadIndex returns the index of a workload by "namespace/name", or -1.
// Not inlined: one copy of its code serves its callers (the size of
// the page's WebAssembly).
//
//go:noinline
func (s *State) WorkloadIndex(key string) int {
	if i, ok := s.static.wlIndex[key]; ok {
		return i
	}
	return -1
}

// queueLess is the ClusterQueue heap order (queue.queueOrderingFunc):
// higher priority first, then the earlier queue-order timestamp, then
// name. The sticky workload, when set, is taken before all of them by pop.
func (s *State) queueLess(a, b int) int {
	if !s.isShifted(a) && !s.isShifted(b) {
		return cmp.Compare(s.static.created[a], s.static.created[b])
	}
	ka, kb := s.heapKeyOf(a), s.heapKeyOf(b)
	return ka.compare(&kb)
}

// isShifted reports whether workload i's queue-order timestamp is not
// its creation (setShifted).
func (s *State) isShifted(i int) bool { return s.shifted[i>>6]&(1<<(i&63)) != 0 }

// heapKey is what queueLess compares of a workload when one of the two
// is shifted: a search for one workload's place computes its key once.
type heapKey struct {
	priority int32
	time     preempt.Stamp
	key      string
}

func (s *State) heapKeyOf(i int) heapKey {
	return heapKey{priority: s.static.prio[i], time: s.queueTime(s.Workload(i)), key: s.static.keys[i]}
}

// setShifted records whether workload i's queue-order timestamp is its
// creation, after its Preempted changed.
func (s *State) setShifted(i int) {
	w := s.Workload(i)
	was := s.isShifted(i)
	if s.queueTime(w) != (preempt.Stamp{At: w.Spec.Arrival, Seq: w.Seq}) {
		s.shifted[i>>6] |= 1 << (i & 63)
		if !was {
			s.numShifted++
		}
	} else {
		s.shifted[i>>6] &^= 1 << (i & 63)
		if was {
			s.numShifted--
		}
	}
}

func (a *heapKey) compare(b *heapKey) int {
	if c := cmp.Compare(b.priority, a.priority); c != 0 {
		return c
	}
	if c := a.time.Compare(b.time); c != 0 {
		return c
	}
	return cmp.Compare(a.key, b.key)
}

// heapInsert puts workload w in queue q's heap (q written by s's
// generation), in queue order.
func (s *State) heapInsert(q *ClusterQueue, w int) {
	var at int
	if created := s.static.created; s.numShifted == 0 {
		// No timestamp is shifted: the order is created's.
		at = q.Heap.searchKey(created, created[w])
	} else if !s.isShifted(w) {
		cw := created[w]
		at = q.Heap.searchBy(func(x int) int {
			if !s.isShifted(x) {
				return cmp.Compare(created[x], cw)
			}
			return s.queueLess(x, w)
		})
	} else {
		kw := s.heapKeyOf(w)
		at = q.Heap.searchBy(func(x int) int {
			kx := s.heapKeyOf(x)
			return kx.compare(&kw)
		})
	}
	q.Heap.insert(s.gen, at, w)
}

// queueTime is the workload's queue-order timestamp
// (workload.Ordering.GetQueueOrderTimestamp): its creation (arrival, then
// document order: each workload is created strictly after the one
// before). With PrioritySortingWithinCohort off, a workload preempted with
// reason InCohortReclaimWhileBorrowing and not admitted since uses the
// preemption time plus 1ms, so it queues after its preemptor.
func (s *State) queueTime(w *Workload) preempt.Stamp {
	if p := w.Preempted; p != nil && p.Reason == preempt.ReasonInCohortReclaimWhileBorrowing &&
		!s.Gates.Enabled(core.GatePrioritySortingWithinCohort) {
		return preempt.Stamp{At: p.At + time.Millisecond, Seq: w.Seq}
	}
	return preempt.Stamp{At: w.Spec.Arrival, Seq: w.Seq}
}

// queueOrder compares queue-order timestamps, then names.
func (s *State) queueOrder(wa, wb *Workload) int {
	if c := s.queueTime(wa).Compare(s.queueTime(wb)); c != 0 {
		return c
	}
	return cmp.Compare(wa.Key, wb.Key)
}

// pushHeap inserts workload w into queue q's heap in order, unless present.
// A workload's InHeap and Parked say whether a heap or a parked set holds
// it (CheckInvariants checks it), so no list is searched for it.
func (s *State) pushHeap(qi, w int) {
	q := s.mutQueue(qi)
	if s.Workload(w).InHeap {
		return
	}
	s.heapInsert(q, w)
	wl := s.mutWorkload(w)
	wl.InHeap, wl.Parked = true, false
}

// park moves workload w to queue q's inadmissible set.
func (s *State) park(qi, w int) {
	q := s.mutQueue(qi)
	if s.Workload(w).Parked {
		return
	}
	rank := s.static.keyRank
	q.Parked.insert(s.gen, q.Parked.searchKey(rank, rank[w]), w)
	wl := s.mutWorkload(w)
	wl.InHeap, wl.Parked = false, true
}

// removeFromQueue takes workload w out of queue qi entirely.
func (s *State) removeFromQueue(qi, w int) {
	q := s.Queues[qi]
	wl := s.Workload(w)
	if !wl.InHeap && !wl.Parked && q.Sticky != w {
		return
	}
	q = s.mutQueue(qi)
	if wl.InHeap {
		q.Heap.remove(s.gen, w)
	}
	if wl.Parked {
		q.Parked.remove(s.gen, w)
	}
	if q.Sticky == w {
		q.Sticky = -1
	}
	m := s.mutWorkload(w)
	m.InHeap, m.Parked = false, false
}

// pop takes the head of queue qi: the sticky workload if it is in the
// heap, else the first in queue order (ClusterQueue.Pop).
func (s *State) pop(qi int) int {
	q := s.Queues[qi]
	if q.Heap.Len() == 0 {
		return -1
	}
	q = s.mutQueue(qi)
	at := 0
	if q.Sticky >= 0 {
		if i := q.Heap.Index(q.Sticky); i >= 0 {
			at = i
		}
	}
	w := q.Heap.At(at)
	q.Heap.deleteAt(s.gen, at)
	s.mutWorkload(w).InHeap = false
	return w
}

// head returns the workload pop would return, without popping, or -1.
func (s *State) head(qi int) int {
	q := s.Queues[qi]
	if q.Heap.Len() == 0 {
		return -1
	}
	if q.Sticky >= 0 && q.Heap.Contains(q.Sticky) {
		return q.Sticky
	}
	return q.Heap.First()
}

// requeueTree moves the parked workloads of every ClusterQueue in the
// cohort tree of queue qi (just qi without a cohort) back to their heaps,
// except those whose namespace the queue's selector does not match
// (Manager.QueueAssociatedInadmissibleWorkloadsAfter, requeueWorkloadsCQ,
// ClusterQueue.QueueInadmissibleWorkloads). It returns the keys moved, by
// queue (cohortTreeQueues) and within a queue by key (the parked set's
// order). A queue's moved workloads are merged into its heap at once. The
// keys are carved from the State's slab (nil when none moved).
func (s *State) requeueTree(qi int) []string {
	if s.scratch == nil {
		s.scratch = &cycleScratch{}
	}
	sc, sl := s.scratch, s.slabs()
	stay, move, moved := sc.stay, sc.move, sl.moved[:0]
	defer func() { sc.stay, sc.move, sl.moved = stay, move, moved }()
	keys := s.static.keys
	for _, q := range s.static.treeQueues[qi] {
		cq := s.Queues[q]
		if cq.Parked.Len() == 0 {
			continue
		}
		stay, move = stay[:0], move[:0]
		for _, c := range cq.Parked.chunks {
			for _, w := range c.v {
				wl := s.Workload(w)
				// A drained workload has Requeued=False:
				// ClusterQueue.backoffWaitingTimeExpired keeps it in the
				// inadmissible set.
				if wl.Drained != nil || !s.static.selectsAll[q] && !cq.Spec.NamespaceSelector.Matches(s.static.labels[w]) {
					stay = append(stay, w)
					continue
				}
				move = append(move, w)
			}
		}
		if len(move) == 0 {
			continue
		}
		m := s.mutQueue(q)
		m.Parked.reset(s.gen, stay) // still by key
		for _, w := range move {
			moved = append(moved, keys[w])
			wl := s.mutWorkload(w)
			wl.InHeap, wl.Parked = true, false
		}
		if len(move) <= 4 || len(move)*8 < m.Heap.Len() {
			// A few, against the heap: one by one.
			for _, w := range move {
				s.heapInsert(m, w)
			}
			continue
		}
		// Many: the heap made anew, sorted.
		all := sl.merged[:0]
		for _, c := range m.Heap.chunks {
			all = append(all, c.v...)
		}
		all = append(all, move...)
		slices.SortFunc(all, s.queueLess)
		m.Heap.reset(s.gen, all)
		sl.merged = all
	}
	return sl.keys.copyOf(moved, sl.size)
}

// cohortTreeQueues lists the ClusterQueues requeueTree(qi) visits: qi
// alone without a cohort, else every ClusterQueue of its cohort tree,
// each cohort's own before its child cohorts'.
func (s *State) cohortTreeQueues(qi int) []int {
	node := s.Queues[qi].Node
	if s.Tree.Nodes[node].Parent < 0 {
		return []int{qi}
	}
	// Depth first, a cohort's child cohorts in their order.
	var queues []int
	stack := []int{s.Tree.Root(node)}
	for len(stack) > 0 {
		n := &s.Tree.Nodes[stack[len(stack)-1]]
		stack = stack[:len(stack)-1]
		for _, c := range n.ChildClusterQueues {
			queues = append(queues, s.QueueIndex(s.Tree.Nodes[c].Name))
		}
		for k := len(n.ChildCohorts) - 1; k >= 0; k-- {
			stack = append(stack, n.ChildCohorts[k])
		}
	}
	return queues
}

// namespaceLabels returns a namespace's labels. A namespace the scenario
// does not declare exists implicitly with only the label the API server
// puts on every namespace, kubernetes.io/metadata.name.
func (s *State) namespaceLabels(ns string) map[string]string {
	if l, ok := s.static.namespaces[ns]; ok {
		return l
	}
	return implicitNamespaceLabels(ns)
}

// implicitNamespaceLabels are the labels of a namespace the scenario does
// not declare (New records them for the workloads' namespaces).
func implicitNamespaceLabels(ns string) map[string]string {
	return map[string]string{"kubernetes.io/metadata.name": ns}
}
