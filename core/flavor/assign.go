package flavor

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/quota"
	"github.com/kueueplay/kueueplay/core/trace"
)

// Oracle tells the assigner whether preemption could make room for
// quantity of fr and the borrowing level after the simulated removal of the
// targets (flavorassigner.preemptionOracle).
type Oracle interface {
	SimulatePreemption(fr core.FlavorResource, quantity core.Amount) OracleResult
}

// OracleResult is the oracle's answer: ModeNoCandidates, ModePreempt or
// ModeReclaim, the borrowing level after the simulated removal of the
// targets, and the targets' names (for the trace, which may keep the
// list: a new one per answer).
type OracleResult struct {
	Mode      PreemptionMode
	Borrowing int
	Targets   []string
}

// LastState is where the previous attempt stopped, per pod set and
// resource, and the ClusterQueue generation it was computed at
// (workload.AssignmentClusterQueueState). -1 means the last flavor of the
// group was reached.
type LastState struct {
	// TriedFlavorIdx is, per pod set, the index tried last for each
	// assigned resource, sorted by resource.
	TriedFlavorIdx [][]Tried
	Generation     int64
}

// Tried is the index of the flavor tried last for one resource.
type Tried struct {
	Resource core.ResourceName
	Idx      int
}

// PendingFlavors reports whether some resource has flavors left to try
// (AssignmentClusterQueueState.PendingFlavors).
func (s *LastState) PendingFlavors() bool {
	if s == nil {
		return false
	}
	for _, ts := range s.TriedFlavorIdx {
		for _, t := range ts {
			if t.Idx != -1 {
				return true
			}
		}
	}
	return false
}

// next returns the flavor index to start from for (pod set, resource)
// (AssignmentClusterQueueState.NextFlavorToTryForPodSetResource).
func (s *LastState) next(ps int, res core.ResourceName) int {
	if s == nil || ps >= len(s.TriedFlavorIdx) {
		return 0
	}
	idx, ok := s.tried(ps, res)
	if !ok {
		return 0
	}
	return idx + 1
}

// reachedLast reports whether the previous attempt reached the last
// flavor for (pod set, resource).
func (s *LastState) reachedLast(ps int, res core.ResourceName) bool {
	if s == nil || ps >= len(s.TriedFlavorIdx) {
		return false
	}
	idx, ok := s.tried(ps, res)
	return ok && idx == -1
}

// tried returns the index tried last for (pod set, resource), if any.
// Not inlined: one copy of its code serves its callers (the size of
// the page's WebAssembly).
//
//go:noinline
func (s *LastState) tried(ps int, res core.ResourceName) (int, bool) {
	for _, t := range s.TriedFlavorIdx[ps] {
		if t.Resource == res {
			return t.Idx, true
		}
	}
	return 0, false
}

// Input is everything one assignment reads.
type Input struct {
	ClusterQueue *core.ClusterQueue
	// Node is the ClusterQueue's index in Tree.
	Node int
	Tree *quota.Tree
	// Flavors are the ResourceFlavors that exist.
	Flavors map[core.FlavorName]*core.ResourceFlavor
	PodSets []core.PodSet
	// Requests, if set, are the per-pod requests of the only pod set,
	// sorted by resource (PodRequests): a caller that assigns the same
	// workload again and again keeps them instead of having its map read
	// each time.
	Requests []Request
	// Last is the previous attempt's state, nil for a fresh start.
	Last *LastState
	// ResetReason says why Last is nil when an earlier attempt existed
	// (shown in the trace).
	ResetReason trace.ResetReason
	// Generation is the ClusterQueue's allocatable-resource generation.
	Generation int64
	Gates      core.FeatureGates
	Oracle     Oracle
	// Words, if set, shares the reason lists the search records (see
	// Words).
	Words *Words
	// Space, if set, is the memory the Assignment is written in (see
	// Space); nil: Assign allocates its own.
	Space *Space
	// Plan, if set, is ClusterQueue's Plan, made with Flavors and Gates
	// (NewPlan); nil: Assign makes one.
	Plan *Plan
	// room is where the first group's reasons are written when they
	// outgrow a shared list (Space.reasons), nil once it is taken.
	room []Reason
	// sp is the Space in use (Input.Space or Assign's own).
	sp *Space
}

// Assignment is the result for a whole workload (flavorassigner.Assignment).
type Assignment struct {
	PodSets []PodSetAssignment
	// Borrowing is the highest borrowing level of any assigned flavor.
	Borrowing int
	// Usage is the quota the assignment would use, per flavor-resource, in
	// the order the pod sets' resources were assigned (a flavor-resource
	// appears once).
	Usage     Usage
	LastState *LastState
	// ResumeCleared is set when a previous state was dropped because the
	// ClusterQueue's generation moved on.
	ResumeCleared bool
}

// FRAmount is an amount of one flavor-resource.
type FRAmount struct {
	FR     core.FlavorResource
	Amount core.Amount
}

// Usage is a usage vector as a short list: an assignment has a few
// flavor-resources, which a list holds without a map per head per cycle.
type Usage []FRAmount

// add adds v to fr's amount, appending fr if it is new.
// Not inlined: one copy of its code serves its callers (the size of
// the page's WebAssembly).
//
//go:noinline
func (u Usage) add(fr core.FlavorResource, v core.Amount) Usage {
	for i := range u {
		if u[i].FR == fr {
			u[i].Amount += v
			return u
		}
	}
	return append(u, FRAmount{fr, v})
}

// Get returns fr's amount (0 when absent).
// Not inlined: one copy of its code serves its callers (the size of
// the page's WebAssembly).
//
//go:noinline
func (u Usage) Get(fr core.FlavorResource) core.Amount {
	for i := range u {
		if u[i].FR == fr {
			return u[i].Amount
		}
	}
	return 0
}

// Map returns the usage as a map, for what keeps it (an admission, a
// preemptor).
func (u Usage) Map() map[core.FlavorResource]core.Amount {
	m := make(map[core.FlavorResource]core.Amount, len(u))
	for _, e := range u {
		m[e.FR] = e.Amount
	}
	return m
}

// FlavorAssignment is the flavor chosen for one resource.
type FlavorAssignment struct {
	Flavor    core.FlavorName
	Mode      Mode
	TriedIdx  int
	Borrowing int
}

// Request is one resource's total request of a pod set.
type Request struct {
	Resource core.ResourceName
	Amount   core.Amount
}

// ResourceAssignment is the flavor assigned to one resource.
type ResourceAssignment struct {
	Resource core.ResourceName
	FlavorAssignment
}

// PodSetAssignment is the result for one pod set.
type PodSetAssignment struct {
	Name  string
	Count int32
	// Requests are the pod set's total requests (per pod × count, plus
	// pods when the ClusterQueue covers it), sorted by resource.
	Requests []Request
	// Flavors are the assigned resources' flavors, sorted by resource.
	Flavors []ResourceAssignment
	// Reasons say why the pod set does not fit now (Message writes
	// them).
	Reasons []Reason
	Err     string
	// Groups are the group attempts (the first pod set's in the Space).
	Groups []trace.GroupAttempt
	// joined is Message's text, once written: the engine asks for it
	// twice (the entry's message and its decision).
	joined string
}

// Flavor returns the flavor assigned to res, or nil.
func (p *PodSetAssignment) Flavor(res core.ResourceName) *FlavorAssignment {
	for i := range p.Flavors {
		if p.Flavors[i].Resource == res {
			return &p.Flavors[i].FlavorAssignment
		}
	}
	return nil
}

// fits reports whether the pod set status is a fit (Status.IsFit).
func (p *PodSetAssignment) fits() bool { return p.Err == "" && len(p.Reasons) == 0 }

// Mode is the pod set's representative mode: the worst of its flavors
// (PodSetAssignment.RepresentativeMode).
// Not inlined: one copy of its code serves its callers (the size of
// the page's WebAssembly).
//
//go:noinline
func (p *PodSetAssignment) Mode() Mode {
	if p.fits() {
		return Fit
	}
	if len(p.Flavors) == 0 {
		return NoFit
	}
	m := Fit
	for i := range p.Flavors {
		m = min(m, p.Flavors[i].Mode)
	}
	return m
}

// Reason is one reason a pod set does not fit, as the trace records it,
// with the flavor it is about.
type Reason struct {
	Flavor core.FlavorName
	trace.Reason
}

// Message is the pod set's status message: reasons in words, sorted and
// joined (Status.Message). w remembers the words (nil: none).
func (p *PodSetAssignment) Message(w *Words) string {
	if p.Err != "" {
		return p.Err
	}
	if p.joined != "" {
		return p.joined
	}
	if len(p.Reasons) == 1 {
		p.joined = w.reason(&p.Reasons[0])
		return p.joined
	}
	var buf [4]string
	r := buf[:0]
	for i := range p.Reasons {
		r = append(r, w.reason(&p.Reasons[i]))
	}
	slices.Sort(r)
	p.joined = w.join(r)
	return p.joined
}

// Mode is the assignment's representative mode, the worst of its pod sets
// (Assignment.RepresentativeMode).
// Not inlined: one copy of its code serves its callers (the size of
// the page's WebAssembly).
//
//go:noinline
func (a *Assignment) Mode() Mode {
	if len(a.PodSets) == 0 {
		return NoFit
	}
	m := Fit
	for i := range a.PodSets {
		m = min(m, a.PodSets[i].Mode())
	}
	return m
}

// Message is the pending message Kueue writes for the assignment
// (Assignment.Message). w remembers the words (nil: none).
func (a *Assignment) Message(w *Words) string {
	var buf [2]string
	parts := buf[:0]
	for i := range a.PodSets {
		ps := &a.PodSets[i]
		if ps.fits() {
			continue
		}
		if ps.Err != "" {
			return fmt.Sprintf("failed to assign flavors to pod set %s: %s", ps.Name, ps.Err)
		}
		parts = append(parts, w.podSetMessage(ps))
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts, "; ")
}

// status accumulates reasons like flavorassigner.Status.
type status struct {
	reasons []Reason
	err     string
}

// Assign assigns flavors to every pod set (FlavorAssigner.Assign and
// assignFlavors). Pod sets are processed in spec order; within a pod set,
// resources in name order (Kueue iterates a map here; the playground fixes
// the order so results are deterministic). One resource group decides the
// flavor of all the resources it covers. As soon as one pod set gets no
// flavor, the assignment stops.
func Assign(in Input) Assignment {
	sp := in.Space
	if sp == nil {
		sp = &Space{}
	}
	if !in.Plan.For(in.ClusterQueue) {
		in.Plan = NewPlan(in.ClusterQueue, in.Flavors, in.Gates)
	}
	ls := &sp.last
	if len(in.PodSets) > 1 {
		ls = in.Words.lastSpace()
	}
	a := in.assign(sp, ls)
	a.LastState = in.Words.keepLast(ls, &sp.last, in.Last)
	return a
}

// assign is Assign, with the resume state written in ls: sp.last for
// one pod set (or none), else a lastSpace of its own.
func (in *Input) assign(sp *Space, ls *lastSpace) Assignment {
	*ls = lastSpace{}
	ls.last.Generation = in.Generation
	in.room = sp.reasons[:0]
	in.sp = sp
	a := Assignment{PodSets: sp.podSets[:0], LastState: &ls.last, Usage: sp.usage[:0]}
	if len(in.PodSets) > len(sp.podSets) {
		a.PodSets = make([]PodSetAssignment, 0, len(in.PodSets))
	} else {
		ls.last.TriedFlavorIdx = ls.lastIdx[:0]
	}
	last := in.Last
	if last != nil && in.Generation > last.Generation {
		last = nil
		a.ResumeCleared = true
	}
	if !in.Plan.fungible {
		last = nil
	}
	coversPods := in.Plan.podsGroup >= 0
	for i := range in.PodSets {
		ps := &in.PodSets[i]
		given := in.Requests != nil && len(in.PodSets) == 1
		n := len(in.Requests)
		if !given {
			n = len(ps.Requests)
		}
		if coversPods {
			n++
		}
		requests := sp.requests[:0]
		if i > 0 || n > len(sp.requests) {
			requests = make([]Request, 0, n)
		}
		if given {
			for _, q := range in.Requests {
				requests = append(requests, Request{q.Resource, q.Amount * core.Amount(ps.Count)})
			}
		} else {
			for r, q := range ps.Requests {
				requests = append(requests, Request{r, q * core.Amount(ps.Count)})
			}
		}
		if coversPods {
			kept := requests[:0]
			for _, q := range requests {
				if q.Resource != core.ResourcePods {
					kept = append(kept, q)
				}
			}
			requests = append(kept, Request{core.ResourcePods, core.Amount(ps.Count)})
		}
		sortRequests(requests)
		psa := PodSetAssignment{
			Name:     ps.Name,
			Count:    ps.Count,
			Requests: requests,
			Groups:   in.groupAttempts(i, sp),
		}
		var st status
		failed := false
		for _, rq := range requests {
			res := rq.Resource
			if rq.Amount == 0 && groupOf(in.ClusterQueue, res) < 0 {
				continue // zero request for a resource the queue does not define
			}
			if psa.Flavor(res) != nil {
				continue
			}
			var dst []ResourceAssignment // where findFlavor writes its choice
			if i == 0 && psa.Flavors == nil {
				dst = sp.flavors[:0]
			}
			flavors, fst, ga := in.findFlavor(i, ps, requests, res, a.Usage, last, a.ResumeCleared, dst)
			in.room = nil // the first group's reasons may be in it
			ga.Attempts = in.Words.keepAttempts(ga.Attempts, &sp.attempts)
			psa.Groups = append(psa.Groups, ga)
			if fst.err != "" || (len(flavors) == 0 && len(requests) > 0) {
				psa.Flavors = nil
				st = fst
				failed = true
				break
			}
			if psa.Flavors == nil {
				psa.Flavors = flavors // findFlavor's own list
			} else {
				psa.Flavors = append(psa.Flavors, flavors...)
			}
			if st.reasons == nil {
				st.reasons = fst.reasons // fst is not used again
			} else {
				st.reasons = append(st.reasons, fst.reasons...)
			}
		}
		fl := psa.Flavors
		insertionSort(len(fl), func(i, j int) bool { return fl[i].Resource < fl[j].Resource },
			func(i, j int) { fl[i], fl[j] = fl[j], fl[i] })
		psa.Reasons, psa.Err = st.reasons, st.err
		// Assignment.append
		var tried []Tried
		switch {
		case i == 0 && len(psa.Flavors) <= len(ls.tried):
			tried = ls.tried[:0:len(psa.Flavors)]
		case len(psa.Flavors) > 0:
			tried = make([]Tried, 0, len(psa.Flavors))
		}
		for k := range psa.Flavors {
			f := &psa.Flavors[k]
			a.Borrowing = max(a.Borrowing, f.Borrowing)
			a.Usage = a.Usage.add(core.FlavorResource{Flavor: f.Flavor, Resource: f.Resource}, requestOf(requests, f.Resource))
			tried = append(tried, Tried{f.Resource, f.TriedIdx})
		}
		a.LastState.TriedFlavorIdx = append(a.LastState.TriedFlavorIdx, tried)
		a.PodSets = append(a.PodSets, psa)
		if failed || psa.Err != "" {
			return a
		}
	}
	return a
}

// PodRequests returns a pod set's per-pod requests sorted by resource
// (Input.Requests).
func PodRequests(ps *core.PodSet) []Request {
	out := make([]Request, 0, len(ps.Requests))
	for r, q := range ps.Requests {
		out = append(out, Request{r, q})
	}
	sortRequests(out)
	return out
}

// sortRequests sorts requests by resource.
func sortRequests(requests []Request) {
	insertionSort(len(requests), func(i, j int) bool { return requests[i].Resource < requests[j].Resource },
		func(i, j int) { requests[i], requests[j] = requests[j], requests[i] })
}

// Space is the memory an assignment of one pod set with at most two
// resources (the usual shape) is written in: its pod set, requests, usage,
// flavors, group attempts and the reasons of its first group (up to two
// flavors). Longer
// lists are allocated apart. A caller that assigns again and again (the
// scheduling cycle, one Space per entry) holds one and passes it in
// Input.Space: an Assign with a Space overwrites the Assignment the
// previous Assign with it returned, so the caller keeps what it needs of
// that one first. The trace shares nothing with a Space (a decision's
// group attempts are copied: Words.KeepPodSetDecisions); the LastState,
// which outlives the cycle, is never in it (Words.keepLast).
type Space struct {
	_        [0]func() // not comparable: no equality code for it
	podSets  [1]PodSetAssignment
	requests [2]Request
	usage    [2]FRAmount
	flavors  [2]ResourceAssignment
	reasons  [2]Reason
	// attempts is where a group's flavor attempts are written before
	// they are kept apart (Words.keepAttempts).
	attempts [4]trace.FlavorAttempt
	// groups is where the first pod set's group attempts are written
	// (the trace keeps copies: Words.KeepPodSetDecisions).
	groups [2]trace.GroupAttempt
	// last is where the resume state is written before it is kept
	// apart (Words.keepLast).
	last lastSpace
}

// groupAttempts returns an empty list for pod set i's group attempts:
// the first pod set's in sp when its groups fit, else carved from
// in.Words.
func (in *Input) groupAttempts(i int, sp *Space) []trace.GroupAttempt {
	if n := len(in.ClusterQueue.ResourceGroups); i == 0 && n <= len(sp.groups) {
		return sp.groups[:0:n]
	}
	return in.Words.groupAttempts(len(in.ClusterQueue.ResourceGroups))
}

// lastSpace is a LastState with room for the resume state of one pod set
// with at most two resources, in one allocation (carved from a Words
// slab).
type lastSpace struct {
	last    LastState
	lastIdx [1][]Tried
	tried   [2]Tried
}

// insertionSort sorts a short list of n elements by insertion (the
// lists have a few elements; a general sort would add its code to the
// page's WebAssembly for each element type, this one is shared).
func insertionSort(n int, less func(i, j int) bool, swap func(i, j int)) {
	for i := 1; i < n; i++ {
		for j := i; j > 0 && less(j, j-1); j-- {
			swap(j, j-1)
		}
	}
}

// SortUsage sorts a usage list by flavor-resource.
func SortUsage(u Usage) {
	insertionSort(len(u), func(i, j int) bool { return u[i].FR.Compare(u[j].FR) < 0 }, func(i, j int) { u[i], u[j] = u[j], u[i] })
}

// requestOf returns res's amount in requests (0 when absent).
func requestOf(requests []Request, res core.ResourceName) core.Amount {
	for _, q := range requests {
		if q.Resource == res {
			return q.Amount
		}
	}
	return 0
}

// groupOf returns the index of the resource group covering res, or -1
// (ClusterQueueSnapshot.RGByResource).
// Not inlined: one copy of its code serves its callers (the size of
// the page's WebAssembly).
//
//go:noinline
func groupOf(cq *core.ClusterQueue, res core.ResourceName) int {
	for i, g := range cq.ResourceGroups {
		if slices.Contains(g.CoveredResources, res) {
			return i
		}
	}
	return -1
}

// labelKeys is the set of node label keys of the group's existing flavors
// (ResourceGroup.LabelKeys).
func (in *Input) labelKeys(g *core.ResourceGroup) map[string]bool {
	keys := map[string]bool{}
	for _, f := range g.Flavors {
		if rf, ok := in.Flavors[f.Name]; ok {
			for k := range rf.NodeLabels {
				keys[k] = true
			}
		}
	}
	return keys
}

// flavorSelector keeps only the node selector keys and affinity
// expressions whose keys some flavor of the group uses; if a term loses all
// its expressions, affinity is dropped (flavorassigner.flavorSelector).
func flavorSelector(ps *core.PodSet, keys map[string]bool) (map[string]string, []core.NodeSelectorTerm) {
	var sel map[string]string
	if len(ps.NodeSelector) > 0 {
		sel = map[string]string{}
		for k, v := range ps.NodeSelector {
			if keys[k] {
				sel[k] = v
			}
		}
	}
	var terms []core.NodeSelectorTerm
	for _, t := range ps.RequiredAffinity {
		var exprs []core.NodeSelectorRequirement
		for _, e := range t.MatchExpressions {
			if keys[e.Key] {
				exprs = append(exprs, e)
			}
		}
		if len(exprs) == 0 {
			terms = nil
			break
		}
		terms = append(terms, core.NodeSelectorTerm{MatchExpressions: exprs})
	}
	return sel, terms
}

// checkFlavor tells whether flavor rf (nil when it does not exist) is
// eligible for the pod set: it exists, its NoSchedule/NoExecute taints are tolerated by the pod's or the
// flavor's tolerations, and its node labels satisfy the pod's selector and
// required affinity (checkFlavorForPodSets).
func (in *Input) checkFlavor(rf *core.ResourceFlavor, ps *core.PodSet, sel map[string]string, terms []core.NodeSelectorTerm) (bool, trace.Reason, error) {
	if rf == nil {
		return false, trace.Reason{Code: trace.ReasonFlavorNotFound}, nil
	}
	if len(rf.NodeTaints) > 0 {
		tols := append(slices.Clone(ps.Tolerations), rf.Tolerations...)
		if t, found := core.FirstUntoleratedTaint(rf.NodeTaints, tols, func(t core.Taint) bool {
			return t.Effect == "NoSchedule" || t.Effect == "NoExecute"
		}); found {
			// Kueue formats the corev1.Taint struct with %s
			// (checkFlavorForPodSets), which prints its fields in braces.
			return false, trace.Reason{Code: trace.ReasonUntoleratedTaint, Detail: fmt.Sprintf("{%s %s %s <nil>}", t.Key, t.Value, t.Effect)}, nil
		}
	}
	if len(sel) == 0 && terms == nil {
		return true, trace.Reason{}, nil // nothing to match (MatchesNodeSelector)
	}
	match, err := core.MatchesNodeSelector(sel, terms, rf.NodeLabels)
	if err != nil {
		return false, trace.Reason{}, err
	}
	if !match {
		return false, trace.Reason{Code: trace.ReasonAffinity}, nil
	}
	return true, trace.Reason{}, nil
}

// findFlavor finds the flavor for every resource of the group that covers
// res (findFlavorForPodSets). Its attempts are written in the Space (the
// caller keeps them apart).
func (in *Input) findFlavor(psIdx int, ps *core.PodSet, requests []Request, res core.ResourceName,
	assumed Usage, last *LastState, resumeCleared bool, dst []ResourceAssignment,
) ([]ResourceAssignment, status, trace.GroupAttempt) {
	var st status
	gi := groupOf(in.ClusterQueue, res)
	if gi < 0 {
		r := trace.Reason{Code: trace.ReasonResourceUnavailable, Resource: string(res)}
		msg := r.Text("")
		st.reasons = append(st.reasons, Reason{Reason: r})
		return nil, st, trace.GroupAttempt{Resources: []string{string(res)}, Unavailable: msg, TriedIndex: -1, Resume: trace.ResumeNoGroup}
	}
	g := &in.ClusterQueue.ResourceGroups[gi]
	// The group's requests, in resource order (requests is sorted).
	var buf [4]Request
	reqs := buf[:0]
	for _, q := range requests {
		if slices.Contains(g.CoveredResources, q.Resource) {
			reqs = append(reqs, q)
		}
	}
	ga := trace.GroupAttempt{TriedIndex: -1}
	if len(reqs) == 1 {
		ga.Resources = in.Words.resource(reqs[0].Resource)
	} else {
		ga.Resources = make([]string, 0, len(reqs))
		for _, q := range reqs {
			ga.Resources = append(ga.Resources, string(q.Resource))
		}
	}
	var sel map[string]string
	var terms []core.NodeSelectorTerm
	if len(ps.NodeSelector) > 0 || len(ps.RequiredAffinity) > 0 {
		sel, terms = flavorSelector(ps, in.labelKeys(g))
	}
	ff := in.ClusterQueue.FlavorFungibility
	ord := in.Plan.order
	fungible := in.Plan.fungible

	start := 0
	if fungible {
		start = last.next(psIdx, res)
	}
	ga.StartIndex = start
	if n := len(g.Flavors) - start; n > 0 {
		ga.Attempts = in.sp.attempts[:0]
	}
	ga.BorrowingFirst = ord == borrowingFirst
	switch {
	case !fungible:
		ga.Resume = trace.ResumeFirstFit
	case start > 0:
		ga.Resume, ga.ResumedAfter = trace.ResumeAfter, string(g.Flavors[start-1].Name)
	case resumeCleared:
		ga.Resume = trace.ResumeGeneration
	case last.reachedLast(psIdx, res):
		ga.Resume = trace.ResumeLastReached
	case last == nil && in.ResetReason != "":
		ga.Resume, ga.Reset = trace.ResumeReset, in.ResetReason
	default:
		ga.Resume = trace.ResumeFirst
	}

	var best []ResourceAssignment
	bestMode := worstGranular()
	bestAt := -1
	attempted := -1
	for idx := start; idx < len(g.Flavors); idx++ {
		attempted = idx
		name := g.Flavors[idx].Name
		att := trace.FlavorAttempt{Flavor: string(name), Index: idx}
		ok, why, err := in.checkFlavor(in.Plan.flavors[gi][idx], ps, sel, terms)
		if err != nil {
			st.err = err.Error()
			att.Mode, att.Rule = ModeNoFit.String(), trace.RuleError
			att.Reasons = []trace.Reason{{Code: trace.ReasonError, Detail: err.Error()}}
			addAttempt(&ga, &att)
			return nil, st, ga
		}
		if !ok {
			st.reasons, att.Reasons = in.Words.appendBoth(st.reasons, nil, Reason{name, why}, in.room)
			att.Mode = ModeNoFit.String()
			att.Continue, att.Rule = true, trace.RuleNotEligible
			addAttempt(&ga, &att)
			continue
		}
		// The flavors of this attempt, made into a map only if it becomes
		// the best (assignmentsOf).
		var picksBuf [4]ResourceAssignment
		picks := picksBuf[:0]
		rep := bestGranular()
		for _, q := range reqs {
			fr := core.FlavorResource{Flavor: name, Resource: q.Resource}
			pm, borrow, targets, reason := in.fitsResourceQuota(fr, assumed.Get(fr), q.Amount)
			if len(att.PreemptionTargets) == 0 {
				att.PreemptionTargets = targets // the oracle's own list
			} else {
				att.PreemptionTargets = append(att.PreemptionTargets, targets...)
			}
			if reason.Code != "" {
				st.reasons, att.Reasons = in.Words.appendBoth(st.reasons, att.Reasons, Reason{name, reason}, in.room)
			}
			mode := Granular{Mode: pm, Borrowing: borrow}
			if isPreferred(rep, mode, ord) {
				rep = mode
			}
			if rep.Mode == ModeNoFit {
				break
			}
			picks = append(picks, ResourceAssignment{q.Resource, FlavorAssignment{Flavor: name, Mode: pm.Public(), Borrowing: borrow}})
		}
		att.Mode = rep.Mode.String()
		if rep.Mode != ModeNoFit {
			att.Borrowing = rep.Borrowing
		}
		if fungible {
			cont, rule := shouldTryNextFlavor(rep, ff)
			att.Continue, att.Rule = cont, rule
			if !cont {
				best, bestMode, bestAt = assignmentsOf(dst, picks), rep, idx
				att.Best = true
				addAttempt(&ga, &att)
				break
			}
			if isPreferred(rep, bestMode, ord) {
				best, bestMode, bestAt = assignmentsOf(dst, picks), rep, idx
				att.Best = true
			}
			addAttempt(&ga, &att)
			continue
		}
		// Legacy first-fit (FlavorFungibility off).
		if rep.Mode > bestMode.Mode {
			best, bestMode, bestAt = assignmentsOf(dst, picks), rep, idx
			att.Best = true
			if rep.Mode == ModeFit {
				att.Rule = trace.RuleFirstFitStop
				addAttempt(&ga, &att)
				ga.Chosen = string(name)
				return best, status{}, ga
			}
		}
		att.Continue, att.Rule = true, trace.RuleFirstFitNext
		addAttempt(&ga, &att)
	}

	if bestAt >= 0 {
		ga.Chosen = string(g.Flavors[bestAt].Name)
		if fungible && ff.Preference != "" {
			ga.PreferenceNote = preferenceNote(ga.Attempts, bestAt, ff, in.Gates)
		} else if fungible && ord != v0161Order(ff) {
			ga.PreferenceNote = fmt.Sprintf("gate %s: preference unset and whenCanBorrow=TryNextFlavor, so flavors that do not borrow are preferred (%s)",
				core.GateFlavorFungibilityImplicitPreferenceDefault, ord)
		}
	}
	if !fungible && best != nil {
		ga.TriedIndex = 0 // Kueue leaves TriedFlavorIdx at its zero value
	}
	if fungible {
		tried := attempted
		if attempted == len(g.Flavors)-1 {
			tried = -1 // reached the last flavor: start from the first next time
		}
		for k := range best {
			best[k].TriedIdx = tried
		}
		if best != nil {
			ga.TriedIndex = tried
		}
		if bestMode.Mode == ModeFit {
			return best, status{}, ga
		}
	}
	return best, st, ga
}

// addAttempt appends att to g's attempts.
// Not inlined: one copy of its code serves its callers (the size of
// the page's WebAssembly).
//
//go:noinline
func addAttempt(g *trace.GroupAttempt, att *trace.FlavorAttempt) {
	g.Attempts = append(g.Attempts, *att)
}

// assignmentsOf copies an attempt's picks, which findFlavor returns, to
// dst's array when they fit (a later best attempt overwrites an earlier
// one's), else to a new one (never nil, even without picks).
// Not inlined: one copy of its code serves its callers (the size of
// the page's WebAssembly).
//
//go:noinline
func assignmentsOf(dst, picks []ResourceAssignment) []ResourceAssignment {
	if cap(dst) < len(picks) {
		dst = make([]ResourceAssignment, 0, len(picks))
	}
	return append(dst[:0:cap(dst)], picks...)
}

// fitsResourceQuota judges one flavor-resource (fitsResourceQuota): NoFit
// beyond the maximum capacity; Fit within what is available; otherwise the
// preemption oracle is asked, if preemption could help (the request fits
// in nominal quota, reclaiming inside the hierarchy may help, or the queue
// may preempt while borrowing).
//
// It returns the mode, the borrowing level, the oracle's targets and the
// reason it does not fit now (code "" when it does).
func (in *Input) fitsResourceQuota(fr core.FlavorResource, assumed, request core.Amount) (PreemptionMode, int, []string, trace.Reason) {
	id := in.Tree.ID(fr)
	available := in.Tree.AvailableID(in.Node, id)
	maxCapacity := in.Tree.PotentialAvailableID(in.Node, id)
	val := assumed + request
	if val > maxCapacity {
		return ModeNoFit, 0, nil, trace.Reason{Code: trace.ReasonAboveMaxCapacity, Resource: string(fr.Resource), Amount: request, Assumed: assumed, Capacity: maxCapacity}
	}
	// Kueue finds the lowest subtree that fits first; it is read only
	// for a fit's borrowing level, and whether the request may reclaim
	// when nothing else sends it to the oracle (whose answer has its own
	// level), so it is found only then.
	if val <= available {
		borrow, _ := in.Tree.LowestSubtreeThatFitsID(in.Node, id, val)
		return ModeFit, borrow, nil, trace.Reason{}
	}
	reason := trace.Reason{Code: trace.ReasonInsufficientQuota, Resource: string(fr.Resource), Amount: val - available}
	oracle := val <= in.Tree.Nominal(in.Node, id) || in.Plan.preemptWhileBorrowing
	var borrow int
	if !oracle {
		var mayReclaim bool
		borrow, mayReclaim = in.Tree.LowestSubtreeThatFitsID(in.Node, id, val)
		oracle = mayReclaim
	}
	if oracle {
		r := in.Oracle.SimulatePreemption(fr, val)
		return r.Mode, r.Borrowing, r.Targets, reason
	}
	return ModeNoFit, borrow, nil, reason
}

// preferenceNote explains the effect of an explicit preference: which
// flavor the other reading of the value would pick, if different.
func preferenceNote(atts []trace.FlavorAttempt, bestAt int, ff core.FlavorFungibility, gates core.FeatureGates) string {
	used := preferenceOrder(ff, gates)
	named := namedOrder(ff)
	old := v0161Order(ff)
	other := old
	if used == old {
		other = named
	}
	if other == used {
		return ""
	}
	alt := pick(atts, other)
	if alt < 0 || alt == bestAt {
		if used == old {
			return fmt.Sprintf("preference %s is applied as in Kueue v0.16.1 (%s, the inverse of its name); here reading it as named would choose the same flavor", ff.Preference, used)
		}
		return ""
	}
	altName := ""
	for _, a := range atts {
		if a.Index == alt {
			altName = a.Flavor
		}
	}
	if used == old {
		return fmt.Sprintf("preference %s is applied as in Kueue v0.16.1 (%s, the inverse of its name); read as named (gate %s) it would choose %s",
			ff.Preference, used, core.GateFlavorFungibilityPreferenceAsNamed, altName)
	}
	return fmt.Sprintf("gate %s: preference %s read as named (%s); Kueue v0.16.1 would choose %s",
		core.GateFlavorFungibilityPreferenceAsNamed, ff.Preference, used, altName)
}

// pick re-runs the choice among the tried flavors with another order.
func pick(atts []trace.FlavorAttempt, ord order) int {
	best := worstGranular()
	at := -1
	for _, a := range atts {
		g := Granular{Mode: parseMode(a.Mode), Borrowing: a.Borrowing}
		if !a.Continue && g.Mode != ModeNoFit {
			return a.Index
		}
		if isPreferred(g, best, ord) {
			best, at = g, a.Index
		}
	}
	return at
}

func parseMode(s string) PreemptionMode {
	for m := ModeNoFit; m <= ModeFit; m++ {
		if m.String() == s {
			return m
		}
	}
	return ModeNoFit
}
