// Package preempt finds the workloads to evict so that a workload fits in
// its ClusterQueue: Kueue v0.16.1's classical preemption
// (pkg/scheduler/preemption/preemption.go, classical/*.go, common/*.go),
// the preemption oracle the flavor assigner asks
// (preemption_oracle.go), and, for the playground's
// RefreshAssignmentsDuringSchedulingCycle gate (KEP-4378), the claims
// several preemptors may make on one target.
//
// Everything works on a Snapshot: the cycle's quota tree and the workloads
// that hold quota in each ClusterQueue. A search removes candidates from
// the tree while it looks for a fitting set and restores the tree before
// it returns, as Kueue does with its snapshot.
package preempt

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/flavor"
	"github.com/kueueplay/kueueplay/core/quota"
	"github.com/kueueplay/kueueplay/core/trace"
)

// Preemption reasons (kueue.InClusterQueueReason and friends).
const (
	ReasonInClusterQueue                = "InClusterQueue"
	ReasonInCohortReclamation           = "InCohortReclamation"
	ReasonInCohortReclaimWhileBorrowing = "InCohortReclaimWhileBorrowing"
)

// Stamp is a virtual time with a sequence number that orders stamps at the
// same time (the simulation creates and admits workloads strictly one after
// the other).
type Stamp struct {
	At  time.Duration
	Seq int
}

// Compare orders stamps by time, then sequence.
func (a Stamp) Compare(b Stamp) int {
	if c := cmp.Compare(a.At, b.At); c != 0 {
		return c
	}
	return cmp.Compare(a.Seq, b.Seq)
}

// Workload is a workload that holds quota (admitted, or evicted and still
// terminating), as preemption sees it.
type Workload struct {
	// Index identifies the workload for the caller.
	Index        int
	Key          string
	Node         int // its ClusterQueue's node in the tree
	ClusterQueue string
	Priority     int32
	// QueueTime is the queue-order timestamp (workload.Ordering).
	QueueTime Stamp
	// Reserved is when its quota was reserved (the QuotaReserved
	// condition's lastTransitionTime).
	Reserved Stamp
	// Evicted is true while it terminates after an eviction.
	Evicted bool
	Usage   map[core.FlavorResource]core.Amount
}

// Snapshot is what a search reads: the quota tree (changed during a search
// and restored before it returns) and the holders of every ClusterQueue.
type Snapshot struct {
	Tree *quota.Tree
	// Queues are the ClusterQueue specs by tree node (nil for cohorts).
	Queues []*core.ClusterQueue
	// Holders are the workloads holding quota, by tree node, by key.
	Holders [][]*Workload
	// HoldersOf, if set, gives a node's holders instead of Holders
	// (which is then not read), so that a snapshot describes only the
	// ClusterQueues its searches look at. It must give the same list for
	// a node every time it is asked while the snapshot is in use.
	HoldersOf func(node int) []*Workload
	// Claimed is the usage of each workload (by Index) that preemptors
	// claimed earlier in the cycle; nil when claims are not tracked
	// (RefreshAssignmentsDuringSchedulingCycle off). The tree has already
	// lost the claimed usage.
	Claimed map[int]map[core.FlavorResource]core.Amount
	// Names, if set, remembers the "flavor/resource" names the trace of a
	// search writes, from one search (and one cycle) to the next.
	Names map[core.FlavorResource][]string
	// Words, if set, is where the descriptions of searches are carved
	// from (flavor.Words).
	Words *flavor.Words
}

// name is fr's "flavor/resource" name, remembered in s.Names if set.
func (s *Snapshot) name(fr core.FlavorResource) string { return s.names(fr)[0] }

// names is []string{fr's name}, remembered in s.Names if set: shared,
// since the trace never changes a list.
func (s *Snapshot) names(fr core.FlavorResource) []string {
	n, ok := s.Names[fr]
	if !ok {
		n = []string{string(fr.Flavor) + "/" + string(fr.Resource)}
		if s.Names != nil {
			s.Names[fr] = n
		}
	}
	return n[:1:1]
}

// holders returns node's holders (Holders, or HoldersOf when set).
func (s *Snapshot) holders(node int) []*Workload {
	if s.HoldersOf != nil {
		return s.HoldersOf(node)
	}
	return s.Holders[node]
}

// remaining is what removing w still frees: its usage minus what was
// claimed of it.
func (s *Snapshot) remaining(w *Workload) map[core.FlavorResource]core.Amount {
	c := s.Claimed[w.Index]
	if len(c) == 0 {
		return w.Usage
	}
	out := make(map[core.FlavorResource]core.Amount, len(w.Usage))
	for fr, v := range w.Usage {
		out[fr] = v - c[fr]
	}
	return out
}

// Preemptor is the workload that needs room.
type Preemptor struct {
	Key       string
	Node      int
	Queue     *core.ClusterQueue
	Priority  int32
	QueueTime Stamp
	// Usage is the quota the preemptor's assignment needs.
	Usage map[core.FlavorResource]core.Amount
	// Need are the flavor-resources whose assignment mode is Preempt.
	Need map[core.FlavorResource]bool
}

// Target is a workload chosen for eviction.
type Target struct {
	W      *Workload
	Reason string
	// Frees is what removing it frees in the snapshot (its usage, minus
	// what other preemptors claimed of it).
	Frees map[core.FlavorResource]core.Amount
}

// variant is classical.preemptionVariant.
type variant int

const (
	never variant = iota
	withinCQ
	hierarchicalReclaim
	reclaimWithoutBorrowing
	reclaimWhileBorrowing
)

func (v variant) reason() string {
	switch v {
	case withinCQ:
		return ReasonInClusterQueue
	case reclaimWhileBorrowing:
		return ReasonInCohortReclaimWhileBorrowing
	default:
		return ReasonInCohortReclamation
	}
}

type candidate struct {
	w *Workload
	// lca is the root of the subtree the candidate was found in (the
	// lowest common ancestor with the preemptor), -1 for the own queue.
	lca   int
	v     variant
	list  string
	frees map[core.FlavorResource]core.Amount
}

type search struct {
	s *Snapshot
	p *Preemptor
	// usage and need are the preemptor's Usage and Need as lists, each
	// flavor-resource numbered in the tree once (the hot loops index
	// the tree's slices instead of hashing names).
	usage, need quantities
	// record is set when the search is described for the trace: only
	// then are the reasons for skipping candidates written out.
	record bool
	// cands in iteration order.
	cands          []*candidate
	noOtherQueues  bool
	noHierarchical bool
	// fitNode is the lowest node (the preemptor's ClusterQueue or an
	// ancestor) whose quota the request fits in, for the trace.
	fitNode int
}

// quantity is an amount of one flavor-resource and its number in the tree
// (quota.Tree.ID).
type quantity struct {
	_  [0]func() // not comparable: no equality code for it
	fr core.FlavorResource
	id int
	v  core.Amount
}

// quantities is a short list held in place (so that a search, which
// holds two, is not allocated), or a longer one apart.
type quantities struct {
	n    int
	arr  [2]quantity
	more []quantity
}

// list returns the quantities.
// Not inlined: one copy of its code serves its callers (the size of
// the page's WebAssembly).
//
//go:noinline
func (q *quantities) list() []quantity {
	if q.more != nil {
		return q.more
	}
	return q.arr[:q.n]
}

// add appends x.
// Not inlined: one copy of its code serves its callers (the size of
// the page's WebAssembly).
//
//go:noinline
func (q *quantities) add(x quantity) {
	switch {
	case q.more != nil:
		q.more = append(q.more, x)
	case q.n < len(q.arr):
		q.arr[q.n] = x
		q.n++
	default:
		q.more = append(append(make([]quantity, 0, 2*len(q.arr)), q.arr[:]...), x)
	}
}

// borrowWithinCohortForbidden mirrors classical.IsBorrowingWithinCohortForbidden.
func borrowWithinCohortForbidden(q *core.ClusterQueue) (bool, *int32) {
	b := q.Preemption.BorrowWithinCohort
	if b == "" || b == core.PreemptionNever {
		return true, nil
	}
	return false, q.Preemption.MaxPriorityThreshold
}

// satisfies mirrors preemptioncommon.SatisfiesPreemptionPolicy.
func (p *Preemptor) satisfies(w *Workload, policy core.PreemptionPolicy) bool {
	lower := p.Priority > w.Priority
	switch policy {
	case core.PreemptionLowerPriority:
		return lower
	case core.PreemptionLowerOrNewerEqualPriority:
		return lower || (p.Priority == w.Priority && p.QueueTime.Compare(w.QueueTime) < 0)
	}
	return policy == core.PreemptionAny
}

// uses mirrors classical.WorkloadUsesResources: the workload holds a
// flavor-resource that needs preemption (and, when claims are tracked,
// some of it is left to claim).
func (s *Snapshot) uses(frees map[core.FlavorResource]core.Amount, need []quantity) bool {
	for _, n := range need {
		if v, ok := frees[n.fr]; ok && (s.Claimed == nil || v > 0) {
			return true
		}
	}
	return false
}

// withinNominal mirrors schdcache.IsWithinNominalInResources.
// Not inlined: one copy of its code serves its callers (the size of
// the page's WebAssembly).
//
//go:noinline
func (s *Snapshot) withinNominal(node int, need []quantity) bool {
	t := s.Tree
	for _, n := range need {
		if t.UsedID(node, n.id) > t.SubtreeQuotaID(node, n.id) {
			return false
		}
	}
	return true
}

// classify mirrors classical.classifyPreemptionVariant. The words of
// why are written by why, only for a search that is described.
func (se *search) classify(w *Workload, frees map[core.FlavorResource]core.Amount, advantage bool) variant {
	p, q := se.p, se.p.Queue
	if !se.s.uses(frees, se.need.list()) {
		return never
	}
	same := w.Node == p.Node
	policy := q.Preemption.ReclaimWithinCohort
	if same {
		policy = q.Preemption.WithinClusterQueue
	}
	if !p.satisfies(w, policy) {
		return never
	}
	if same {
		return withinCQ
	}
	return se.crossVariant(w, advantage)
}

// why says why classify made c a candidate. It reads what classify read:
// c's workload and variant, the preemptor's policies and priority, and
// se.fitNode, which is final once a hierarchical-reclaim candidate is
// found (hierarchical sets it before it collects them).
func (se *search) why(c *candidate) string {
	p, q, w, v := se.p, se.p.Queue, c.w, c.v
	if v == withinCQ {
		return fmt.Sprintf("same ClusterQueue; withinClusterQueue %s allows it (priority %d vs %d)", q.Preemption.WithinClusterQueue, w.Priority, p.Priority)
	}
	policy := q.Preemption.ReclaimWithinCohort
	where := fmt.Sprintf("ClusterQueue %s uses more than its nominal quota; reclaimWithinCohort %s allows it (priority %d vs %d)", w.ClusterQueue, policy, w.Priority, p.Priority)
	_, threshold := borrowWithinCohortForbidden(q)
	switch {
	case v == hierarchicalReclaim:
		fit := "the preemptor's nominal quota"
		if se.fitNode >= 0 && se.fitNode != p.Node {
			fit = "the quota of cohort " + se.s.Tree.Nodes[se.fitNode].Name
		}
		return where + fmt.Sprintf("; the request fits in %s, so it is reclaimed whatever the priority", fit)
	case v == reclaimWhileBorrowing:
		return where + "; borrowWithinCohort LowerPriority lets the preemptor take it while borrowing"
	case q.Preemption.BorrowWithinCohort == "" || q.Preemption.BorrowWithinCohort == core.PreemptionNever:
		return where + "; borrowWithinCohort is Never, so it is taken only if the preemptor then stays within its nominal quota"
	case w.Priority >= p.Priority:
		return where + "; its priority is not lower, so it is taken only if the preemptor then stays within its nominal quota"
	default: // above the threshold
		return where + fmt.Sprintf("; its priority is above maxPriorityThreshold %d, so it is taken only if the preemptor then stays within its nominal quota", *threshold)
	}
}

// crossVariant is classify's variant for a candidate in another
// ClusterQueue, without the words.
func (se *search) crossVariant(w *Workload, advantage bool) variant {
	if advantage {
		return hierarchicalReclaim
	}
	forbidden, threshold := borrowWithinCohortForbidden(se.p.Queue)
	if forbidden || w.Priority >= se.p.Priority || (threshold != nil && w.Priority > *threshold) {
		return reclaimWithoutBorrowing
	}
	return reclaimWhileBorrowing
}

func (se *search) fromQueue(node, lca int, advantage bool, list string) []*candidate {
	var out []*candidate
	for _, w := range se.s.holders(node) {
		frees := se.s.remaining(w)
		v := se.classify(w, frees, advantage)
		if v == never {
			continue
		}
		out = append(out, &candidate{w: w, lca: lca, v: v, list: list, frees: frees})
	}
	return out
}

// fitsInQuota mirrors schdcache.QuantitiesFitInQuota. It writes what is
// left of req into rest's array, which may be req's own.
func (s *Snapshot) fitsInQuota(node int, req, rest []quantity) (bool, []quantity) {
	t := s.Tree
	fits := true
	rest = rest[:0]
	for _, r := range req {
		if t.UsedID(node, r.id)+r.v > t.SubtreeQuotaID(node, r.id) {
			fits = false
		}
		rest = append(rest, quantity{fr: r.fr, id: r.id, v: max(0, r.v-t.LocalAvailableID(node, r.id))})
	}
	return fits, rest
}

// hierarchical mirrors classical.collectCandidatesForHierarchicalReclaim:
// walking from the preemptor's parent to the root, the ClusterQueues of
// each new subtree that use more than their nominal quota give candidates;
// once the request fits in the quota of a subtree, candidates from it on
// are hierarchical-reclaim candidates, before that priority candidates.
func (se *search) hierarchical() (hier, prio []*candidate) {
	p, t := se.p, se.s.Tree
	if t.Nodes[p.Node].Parent < 0 || p.Queue.Preemption.ReclaimWithinCohort == core.PreemptionNever {
		return nil, nil
	}
	var buf [2]quantity
	advantage, rest := se.s.fitsInQuota(p.Node, se.usage.list(), buf[:0])
	se.fitNode = -1
	if advantage {
		se.fitNode = p.Node
	}
	prev := -1
	for root := t.Nodes[p.Node].Parent; root >= 0; root = t.Nodes[root].Parent {
		if advantage {
			hier = se.inSubtree(root, root, prev, true, hier)
		} else {
			prio = se.inSubtree(root, root, prev, false, prio)
		}
		var fits bool
		fits, rest = se.s.fitsInQuota(root, rest, rest)
		if fits && !advantage {
			se.fitNode = root
		}
		advantage = advantage || fits
		prev = root
	}
	return hier, prio
}

// inSubtree mirrors classical.collectCandidatesInSubtree.
func (se *search) inSubtree(cur, root, skip int, advantage bool, out []*candidate) []*candidate {
	t := se.s.Tree
	for _, c := range t.Nodes[cur].ChildCohorts {
		if c == skip || se.s.withinNominal(c, se.need.list()) {
			continue
		}
		out = se.inSubtree(c, root, skip, advantage, out)
	}
	list := "cohort"
	if advantage {
		list = "hierarchicalReclaim"
	}
	for _, c := range t.Nodes[cur].ChildClusterQueues {
		if c == se.p.Node || se.s.withinNominal(c, se.need.list()) {
			continue
		}
		out = append(out, se.fromQueue(c, root, advantage, list)...)
	}
	return out
}

// order mirrors preemptioncommon.CandidatesOrdering: evicted first, other
// ClusterQueues before the preemptor's, lower priority, more recently
// admitted, then name (Kueue compares UIDs last; the playground uses the
// name so the order is total and reproducible).
func (se *search) order(a, b *candidate) int {
	if a.w.Evicted != b.w.Evicted {
		if a.w.Evicted {
			return -1
		}
		return 1
	}
	aOwn, bOwn := a.w.Node == se.p.Node, b.w.Node == se.p.Node
	if aOwn != bOwn {
		if bOwn {
			return -1
		}
		return 1
	}
	if c := cmp.Compare(a.w.Priority, b.w.Priority); c != 0 {
		return c
	}
	if c := b.w.Reserved.Compare(a.w.Reserved); c != 0 {
		return c
	}
	return cmp.Compare(a.w.Key, b.w.Key)
}

// init mirrors classical.NewCandidateIterator, for the request in
// se.usage and se.need. The caller holds the search, so neither it nor
// the preemptor is allocated.
func (se *search) init(s *Snapshot, p *Preemptor) {
	se.s, se.p = s, p
	var same []*candidate
	if p.Queue.Preemption.WithinClusterQueue != core.PreemptionNever {
		same = se.fromQueue(p.Node, -1, false, "clusterQueue")
	}
	hier, prio := se.hierarchical()
	for _, l := range [][]*candidate{same, prio, hier} {
		slices.SortFunc(l, se.order)
	}
	split := func(l []*candidate) ([]*candidate, []*candidate) {
		i := 0
		for i < len(l) && l[i].w.Evicted {
			i++
		}
		return l[:i], l[i:]
	}
	eh, nh := split(hier)
	ep, np := split(prio)
	es, ns := split(same)
	for _, l := range [][]*candidate{eh, ep, es, nh, np, ns} {
		se.cands = append(se.cands, l...)
	}
	se.noOtherQueues = len(hier) == 0 && len(prio) == 0
	se.noHierarchical = len(hier) == 0
}

// lists sets se.usage and se.need to p's Usage and Need.
func (se *search) lists(t *quota.Tree, p *Preemptor) {
	for fr, v := range p.Usage {
		se.usage.add(quantity{fr: fr, id: t.ID(fr), v: v})
	}
	for fr := range p.Need {
		se.need.add(quantity{fr: fr, id: t.ID(fr)})
	}
}

// valid mirrors candidateIterator.candidateIsValid, re-checked against the
// simulated snapshot when the candidate is reached.
func (se *search) valid(c *candidate, allowBorrowing bool) (bool, string) {
	if c.w.Node == se.p.Node {
		return true, ""
	}
	if allowBorrowing && c.v == reclaimWithoutBorrowing {
		return false, "may only be taken if the preemptor does not borrow, and this pass lets it borrow"
	}
	if se.s.withinNominal(c.w.Node, se.need.list()) {
		if !se.record {
			return false, ""
		}
		return false, fmt.Sprintf("ClusterQueue %s no longer uses more than its nominal quota", c.w.ClusterQueue)
	}
	t := se.s.Tree
	for n := t.Nodes[c.w.Node].Parent; n >= 0 && n != c.lca; n = t.Nodes[n].Parent {
		if se.s.withinNominal(n, se.need.list()) {
			if !se.record {
				return false, ""
			}
			return false, "cohort " + t.Nodes[n].Name + " no longer uses more than its quota"
		}
	}
	return true, ""
}

// fits mirrors preemption.workloadFits.
func (se *search) fits(allowBorrowing bool) bool {
	t := se.s.Tree
	for _, u := range se.usage.list() {
		if !allowBorrowing && t.BorrowingWithID(se.p.Node, u.id, u.v) {
			return false
		}
		if u.v > t.AvailableID(se.p.Node, u.id) {
			return false
		}
	}
	return true
}

// underNominal mirrors queueUnderNominalInResourcesNeedingPreemption.
func (se *search) underNominal() bool {
	t, node := se.s.Tree, se.p.Node
	for _, n := range se.need.list() {
		if t.UsedID(node, n.id) >= t.Nominal(node, n.id) {
			return false
		}
	}
	return true
}

func (s *Snapshot) remove(c *candidate) { s.Tree.RemoveUsageMap(c.w.Node, c.frees) }
func (s *Snapshot) add(c *candidate)    { s.Tree.AddUsageMap(c.w.Node, c.frees) }

// Targets returns the workloads to evict so that p fits, or none
// (Preemptor.GetTargets → classicalPreemptions). With record set it also
// describes the search for the trace. The snapshot is unchanged when it
// returns.
func Targets(s *Snapshot, p *Preemptor, record bool) ([]Target, *trace.Preemption) {
	var se search
	se.lists(s.Tree, p)
	return se.targets(s, p, record)
}

// targets is Targets for the request in se.usage and se.need.
func (se *search) targets(s *Snapshot, p *Preemptor, record bool) ([]Target, *trace.Preemption) {
	se.init(s, p)
	return se.run(p, record)
}

// run tries the candidates init found (classicalPreemptions after
// NewCandidateIterator), for preemptor p, which asks what init's
// preemptor asked. It changes nothing in se but p and record, so that
// a search run again on the same snapshot finds the same targets.
func (se *search) run(p *Preemptor, record bool) ([]Target, *trace.Preemption) {
	if need := se.need.list(); record && len(se.cands) == 0 && len(need) == 1 {
		// Without candidates a search for one flavor-resource is
		// described the same way every time (one pass, no steps).
		if tr := se.s.Words.NoCandidates(need[0].fr); tr != nil {
			return nil, tr
		}
		out, tr := se.pass(p, record)
		se.s.Words.RememberNoCandidates(need[0].fr, tr)
		return out, tr
	}
	return se.pass(p, record)
}

// pass is run, with every description written afresh.
func (se *search) pass(p *Preemptor, record bool) ([]Target, *trace.Preemption) {
	s := se.s
	se.p, se.record = p, record
	// Every candidate removed is added back before pass returns.
	version := s.Tree.Version()
	var tr *trace.Preemption
	if record {
		// The description and its passes (at most two) in one space.
		tr = s.Words.Preemption()
		if need := se.need.list(); len(need) == 1 { // p.Need's one key
			tr.Resources = s.names(need[0].fr)
		} else {
			for _, fr := range quota.SortedKeys(p.Need) {
				tr.Resources = append(tr.Resources, s.name(fr))
			}
		}
		for _, c := range se.cands {
			tc := trace.Candidate{Workload: c.w.Key, ClusterQueue: c.w.ClusterQueue, Priority: c.w.Priority,
				Evicted: c.w.Evicted, List: c.list, Reason: c.v.reason(), Why: se.why(c)}
			if len(s.Claimed[c.w.Index]) > 0 {
				tc.Claimable = Quantities(c.frees)
			}
			tr.Candidates = append(tr.Candidates, tc)
		}
	}
	forbidden, _ := borrowWithinCohortForbidden(p.Queue)
	var passes []bool
	switch {
	case se.noOtherQueues || (forbidden && !se.underNominal()):
		passes = []bool{true}
	case forbidden && se.noHierarchical:
		passes = []bool{false, true}
	default:
		passes = []bool{true, false}
	}
	for _, allow := range passes {
		var pass *trace.PreemptionPass
		if record {
			tr.Passes = append(tr.Passes, trace.PreemptionPass{AllowBorrowing: allow})
			pass = &tr.Passes[len(tr.Passes)-1]
		}
		var taken []*candidate
		for _, c := range se.cands {
			if ok, why := se.valid(c, allow); !ok {
				if pass != nil {
					step(pass, c, "skipped", why)
				}
				continue
			}
			s.remove(c)
			taken = append(taken, c)
			if pass != nil {
				step(pass, c, "removed", "")
			}
			if se.fits(allow) {
				taken = se.fillBack(taken, allow, pass)
				for _, t := range taken {
					s.add(t)
				}
				s.Tree.Restored(version)
				if pass != nil {
					pass.Fits = true
				}
				out := make([]Target, len(taken))
				for i, t := range taken {
					out[i] = Target{W: t.w, Reason: t.v.reason(), Frees: t.frees}
				}
				if record {
					tr.Summary = summary(out, allow)
					for _, t := range out {
						tr.Targets = append(tr.Targets, trace.Target{Workload: t.W.Key, ClusterQueue: t.W.ClusterQueue, Reason: t.Reason, AlreadyEvicted: t.W.Evicted})
					}
				}
				return out, tr
			}
		}
		for _, t := range taken {
			s.add(t)
		}
		s.Tree.Restored(version)
	}
	if record {
		if len(se.cands) == 0 {
			tr.Summary = "no workload may be preempted: no candidates under the ClusterQueue's preemption policies"
		} else {
			tr.Summary = "even removing every valid candidate does not make room: no targets"
		}
	}
	return nil, tr
}

// step records what a pass did with candidate c.
// Not inlined: one copy of its code serves its callers (the size of
// the page's WebAssembly).
//
//go:noinline
func step(pass *trace.PreemptionPass, c *candidate, action, why string) {
	pass.Steps = append(pass.Steps, trace.CandidateStep{Workload: c.w.Key, Action: action, Why: why})
}

// fillBack mirrors preemption.fillBackWorkloads: from the second-to-last
// removed candidate backwards, put each one back and keep it out of the
// targets if the preemptor still fits. The last one is never re-tested.
// The swap with the last element is Kueue's and decides the targets'
// order.
func (se *search) fillBack(taken []*candidate, allow bool, pass *trace.PreemptionPass) []*candidate {
	for i := len(taken) - 2; i >= 0; i-- {
		c := taken[i]
		se.s.add(c)
		if se.fits(allow) {
			taken[i] = taken[len(taken)-1]
			taken = taken[:len(taken)-1]
			if pass != nil {
				step(pass, c, "givenBack", "the preemptor still fits with it back: not needed")
			}
		} else {
			se.s.remove(c)
			if pass != nil {
				step(pass, c, "kept", "the preemptor does not fit with it back")
			}
		}
	}
	return taken
}

func summary(ts []Target, allow bool) string {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.W.Key
	}
	how := "while staying within its nominal quota"
	if allow {
		how = "borrowing allowed"
	}
	return fmt.Sprintf("evicting %s makes room (%s)", strings.Join(names, ", "), how)
}

// Quantities lists a usage map sorted, for the trace.
func Quantities(m map[core.FlavorResource]core.Amount) []trace.Quantity {
	var out []trace.Quantity
	for _, fr := range quota.SortedKeys(m) {
		out = append(out, trace.Quantity{Flavor: string(fr.Flavor), Resource: string(fr.Resource), Amount: m[fr], Text: core.FormatAmount(fr.Resource, m[fr])})
	}
	return out
}

// Oracle answers the flavor assigner's question "could preemption make
// room for this much of this flavor-resource?" for one workload
// (preemption.PreemptionOracle.SimulatePreemption): the same search as
// Targets, for that flavor-resource alone. It keeps the searches it made
// for its preemptor (a workload, by key: one entry of a cycle) while the
// tree stays as they found it, and answers TargetsOne from one when it
// is asked the same question again (Kueue searches twice: the flavor
// assigner's oracle, then Preemptor.GetTargets for the chosen flavors,
// on the same snapshot).
type Oracle struct {
	S *Snapshot
	// P is the preemptor; its Usage and Need are not read: each question
	// is the request.
	P Preemptor
	// p is the question's preemptor (P), held here so that asking
	// allocates none.
	p Preemptor
	// asked are the first searches made for p at the tree's version at
	// (n of them): each was run, so the tree is as it found it.
	asked [maxAsked]search
	n     int
	at    uint64
}

// maxAsked is how many searches an Oracle keeps: a workload's flavor
// search asks about one flavor-resource per flavor it tries that does
// not fit (one or two, usually; a question that finds no kept search is
// searched afresh).
const maxAsked = 2

// SimulatePreemption returns ModeNoCandidates when no targets are found,
// ModePreempt when some target is in the preemptor's own ClusterQueue,
// ModeReclaim when all are elsewhere; with the borrowing level after the
// targets' removal.
func (o *Oracle) SimulatePreemption(fr core.FlavorResource, q core.Amount) flavor.OracleResult {
	t := o.S.Tree
	if NoCandidatesPossible(t, o.P.Node, o.P.Queue) {
		return NoCandidatesAnswer(t, o.P.Node, fr, q)
	}
	if o.n > 0 && (o.at != t.Version() || o.p.Key != o.P.Key) {
		o.asked, o.n = [maxAsked]search{}, 0 // what the searches held is not kept
	}
	o.at = t.Version()
	o.p = o.P
	p := &o.p
	var se search
	w := quantity{fr: fr, id: t.ID(fr), v: q}
	se.usage.add(w)
	se.need.add(quantity{fr: fr, id: w.id})
	targets, _ := se.targets(o.S, p, false)
	if o.n < maxAsked {
		o.asked[o.n] = se
		o.n++
	}
	if len(targets) == 0 {
		b, _ := t.LowestSubtreeThatFitsID(p.Node, w.id, q)
		return flavor.OracleResult{Mode: flavor.ModeNoCandidates, Borrowing: b}
	}
	version := t.Version()
	res := flavor.OracleResult{Mode: flavor.ModeReclaim, Targets: make([]string, 0, len(targets))}
	for _, tg := range targets {
		t.RemoveUsageMap(tg.W.Node, tg.Frees)
		res.Targets = append(res.Targets, tg.W.Key)
		if tg.W.Node == p.Node {
			res.Mode = flavor.ModePreempt
		}
	}
	res.Borrowing, _ = t.LowestSubtreeThatFitsID(p.Node, w.id, q)
	for _, tg := range targets {
		t.AddUsageMap(tg.W.Node, tg.Frees)
	}
	t.Restored(version) // the targets are back
	return res
}

// NoCandidatesPossible reports whether no search for a workload of
// ClusterQueue q, at tree node node, can find a candidate, whatever the
// snapshot holds: candidates come from its own ClusterQueue unless
// withinClusterQueue is Never (classical.collectSameQueueCandidates),
// and from the rest of its hierarchy only when it has a parent and
// reclaimWithinCohort is not Never
// (classical.collectCandidatesForHierarchicalReclaim). Kueue's oracle
// then answers NoCandidates (PreemptionOracle.SimulatePreemption on an
// empty getTargets) and GetTargets finds none: the answer follows from
// the policies, without a search.
// Not inlined: one copy of its code serves its callers (the size of
// the page's WebAssembly).
//
//go:noinline
func NoCandidatesPossible(t *quota.Tree, node int, q *core.ClusterQueue) bool {
	return q.Preemption.WithinClusterQueue == core.PreemptionNever &&
		(t.Nodes[node].Parent < 0 || q.Preemption.ReclaimWithinCohort == core.PreemptionNever)
}

// NoCandidatesAnswer is the oracle's answer when its search finds no
// candidates (PreemptionOracle.SimulatePreemption): ModeNoCandidates,
// with the borrowing level of the lowest subtree that fits q of fr on
// the tree as it is (classical.FindHeightOfLowestSubtreeThatFits).
func NoCandidatesAnswer(t *quota.Tree, node int, fr core.FlavorResource, q core.Amount) flavor.OracleResult {
	b, _ := t.LowestSubtreeThatFitsID(node, t.ID(fr), q)
	return flavor.OracleResult{Mode: flavor.ModeNoCandidates, Borrowing: b}
}

// TargetsOne is Targets(s, p, record) for a preemptor whose assignment
// uses v of fr alone, which needs preemption: p's Usage and Need are not
// read (they would be {fr: v} and {fr}). When o was asked that question
// (by p, at s's tree as it is), its search's candidates serve: the
// passes are run again (they find the same targets) to describe them.
// o may be nil.
func (o *Oracle) TargetsOne(s *Snapshot, p *Preemptor, fr core.FlavorResource, v core.Amount, record bool) ([]Target, *trace.Preemption) {
	if record && NoCandidatesPossible(s.Tree, p.Node, p.Queue) {
		// The description of a search without candidates, when one was
		// made for fr (run).
		if tr := s.Words.NoCandidates(fr); tr != nil {
			return nil, tr
		}
	}
	if o != nil && o.S == s && o.n > 0 && o.at == s.Tree.Version() && o.p.Key == p.Key {
		for i := range o.asked[:o.n] {
			if se := &o.asked[i]; se.usage.arr[0].fr == fr && se.usage.arr[0].v == v {
				return se.run(p, record)
			}
		}
	}
	var se search
	id := s.Tree.ID(fr)
	se.usage.add(quantity{fr: fr, id: id, v: v})
	se.need.add(quantity{fr: fr, id: id})
	return se.targets(s, p, record)
}

// Claims computes, for KEP-4378's claimed-usage tracking, how much of each
// target the preemptor claims. The seed says a preemptor claims "only the
// usage it needs"; the playground reads that as: per flavor-resource, the
// preemptor covers as much of its request as it can from its targets'
// usage, target by target in order, and never claims more of a target
// than what actually becomes capacity for it (the least amount whose
// removal gives the preemptor that much more available capacity). What it
// still lacks comes from capacity that is free now. So a preemptor that has
// to wait for a target anyway leaves free capacity to others, and no claim
// frees capacity that only the target's own queue could use (which would
// let another entry be admitted into quota the terminating target still
// holds). The snapshot is unchanged when it returns.
func Claims(s *Snapshot, p *Preemptor, targets []Target) []map[core.FlavorResource]core.Amount {
	t := s.Tree
	out := make([]map[core.FlavorResource]core.Amount, len(targets))
	for i := range out {
		out[i] = map[core.FlavorResource]core.Amount{}
	}
	for _, fr := range quota.SortedKeys(p.Usage) {
		want := p.Usage[fr]
		for i, tg := range targets {
			rem := tg.Frees[fr]
			if rem <= 0 || want <= 0 {
				continue
			}
			base := t.Available(p.Node, fr)
			gain := func(x core.Amount) core.Amount {
				t.RemoveUsage(tg.W.Node, fr, x)
				g := t.Available(p.Node, fr) - base
				t.AddUsage(tg.W.Node, fr, x)
				return g
			}
			goal := min(gain(rem), want)
			if goal <= 0 {
				continue
			}
			// The least x in [1, rem] with gain(x) >= goal (gain is
			// monotone: removing usage never lowers what is available).
			lo, hi := core.Amount(1), rem
			for lo < hi {
				mid := lo + (hi-lo)/2
				if gain(mid) >= goal {
					hi = mid
				} else {
					lo = mid + 1
				}
			}
			out[i][fr] = lo
			want -= goal
			t.RemoveUsage(tg.W.Node, fr, lo)
		}
	}
	for i, tg := range targets {
		t.AddUsageMap(tg.W.Node, out[i])
	}
	return out
}
