package sim

import (
	"slices"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/flavor"
	"github.com/kueueplay/kueueplay/core/quota"
	"github.com/kueueplay/kueueplay/core/trace"
)

// searchMemo is what one of a ClusterQueue's recent flavor searches read
// and what it found (State.assign), so that a head that would be searched
// the way one of them was, with nothing the search depends on changed, is
// not searched again. Most heads of a long run are such heads: they do
// not fit, cannot preempt, and the quota they would take did not move
// since a head of the same shape failed the same way; under
// BestEffortFIFO the heads take turns (each goes to the inadmissible
// list after its attempt), so the head before of the same shape is
// mostly another workload.
//
// The search (flavor.Assign) reads: the pod set's name, count and
// per-pod requests, its node selector, affinity and tolerations (a
// workload with any of these is matched by its spec alone), the resume
// state (Last, compared by value: a LastState is never changed once
// made; one older than the queue's generation only as such) and, without
// one, why it was reset (ResetReason: findFlavor reads it only then), the
// ClusterQueue's spec,
// plan and generation, the ResourceFlavors and the gates (fixed during a
// run), the tree's shape (fixed), and the usage of the queue's
// flavor-resources on its node and each of its ancestors: AvailableID,
// PotentialAvailableID, Nominal and LowestSubtreeThatFitsID
// (resource_node.go's available, potentialAvailable, and
// FindHeightOfLowestSubtreeThatFits) read nothing else. The key holds
// that usage cell by cell (each flavor-resource of the queue's resource
// groups, on each node of its path). The preemption oracle reads more
// (every holder of the cohort): a search that asked it is not kept
// (lazyOracle.searched); its policy-only answer (NoCandidatesPossible)
// reads the path alone. Workloads of several pod sets are not kept.
//
// The memos live in the cycle's scratch space, which a copy of the State
// starts without, and are not used with
// RefreshAssignmentsDuringSchedulingCycle (whose searches also read the
// cycle's claims).
type searchMemo struct {
	valid bool
	// The key. spec is the workload's; plain tells that its pod set has
	// no node selector, affinity or tolerations, and then name, count
	// and reqs (per pod, sorted) are what is compared instead.
	spec  *core.Workload
	plain bool
	name  string
	count int32
	reqs  []flavor.Request
	last  *flavor.LastState
	reset trace.ResetReason
	gen   int64
	plan  *flavor.Plan
	// cells are the usage of the queue's flavor-resources on each node
	// of its path (queueMemo.cur) when the search ran, fp its
	// fingerprint.
	cells []core.Amount
	fp    uint64
	// The search's result: the assignment (its lists in the memo's own
	// Space, which only the memo's next search writes over), its
	// message, resume state and mode, and the decision's pod sets (kept
	// by the Words: the trace shares equal lists anyway).
	a       flavor.Assignment
	msg     string
	newLast *flavor.LastState
	// regen is newLast at another generation (resumeAt).
	regen   *flavor.LastState
	mode    flavor.Mode
	podSets []trace.PodSetDecision
}

// memoSlots is how many searches a queue remembers: the heads of the
// usual queues come in a few shapes.
const memoSlots = 8

// queueMemo is a ClusterQueue's recent searches, each with the Space its
// assignment is written in; next is the slot the next new search takes.
//
// ids are the tree numbers of the flavor-resources of the queue's
// resource groups (for spec cq at tree width width), and cur the usage
// they have now on each node of the queue's path, read once per head.
type queueMemo struct {
	slots  [memoSlots]searchMemo
	spaces [memoSlots]flavor.Space
	next   int
	cq     *core.ClusterQueue
	width  int
	ids    []int
	cur    []core.Amount
	// fp is a fingerprint of cur, which a slot's is compared with first.
	fp uint64
}

// plainPodSet reports whether the flavor search reads nothing of ps
// but its name, count and requests.
func plainPodSet(ps *core.PodSet) bool {
	return len(ps.NodeSelector) == 0 && len(ps.RequiredAffinity) == 0 && len(ps.Tolerations) == 0
}

// memoIDs returns the tree numbers of the flavor-resources of cq's
// resource groups, in dst.
func memoIDs(dst []int, t *quota.Tree, cq *core.ClusterQueue) []int {
	dst = dst[:0]
	for gi := range cq.ResourceGroups {
		g := &cq.ResourceGroups[gi]
		for _, f := range g.Flavors {
			for _, r := range g.CoveredResources {
				dst = append(dst, t.ID(core.FlavorResource{Flavor: f.Name, Resource: r}))
			}
		}
	}
	return dst
}

// find returns the memo of queue q whose search, for workload w (its
// sorted per-pod requests reqs) with plan p, would find the same now on
// tree t, or nil; and when there is none, the memo and Space the search
// is to take (keep).
func (qm *queueMemo) find(t *quota.Tree, w *Workload, reqs []flavor.Request, q *ClusterQueue, p *flavor.Plan) (hit, victim *searchMemo, space *flavor.Space) {
	if qm.cq != q.Spec || qm.width != t.Width() {
		// Another spec or tree: the slots' cells are of other
		// flavor-resources.
		qm.cq, qm.width, qm.ids = q.Spec, t.Width(), memoIDs(qm.ids, t, q.Spec)
		for i := range qm.slots {
			qm.slots[i].valid = false
		}
	}
	cur, fp := qm.cur[:0], uint64(0)
	for n := q.Node; n >= 0; n = t.Nodes[n].Parent {
		for _, id := range qm.ids {
			v := t.UsedID(n, id)
			cur, fp = append(cur, v), fp*0x9E3779B97F4A7C15+uint64(v)
		}
	}
	qm.cur, qm.fp = cur, fp
	for i := range qm.slots {
		if m := &qm.slots[i]; m.valid && m.fp == fp && slices.Equal(m.cells, cur) && m.holds(w, reqs, q, p) {
			return m, nil, nil
		}
	}
	i := qm.next
	qm.next = (i + 1) % memoSlots
	return nil, &qm.slots[i], &qm.spaces[i]
}

// holds reports whether m's search, made on a tree with the usage the
// tree has now (find compared it), would find the same for workload w of
// queue q with plan p.
func (m *searchMemo) holds(w *Workload, reqs []flavor.Request, q *ClusterQueue, p *flavor.Plan) bool {
	if m.spec != w.Spec {
		ps := &w.Spec.PodSets[0]
		if !m.plain || !plainPodSet(ps) || m.name != ps.Name || m.count != ps.Count || !slices.Equal(m.reqs, reqs) {
			return false
		}
	}
	return m.plan == p && sameResume(m.last, m.reset, m.gen, w.Last, w.ResetReason, q.Generation)
}

// keep records in m the key of a search for workload w of queue q with
// plan p on the tree find read (before the search: the result is set
// after it, and m made valid, when the search read no more than the
// key).
func (qm *queueMemo) keep(m *searchMemo, w *Workload, reqs []flavor.Request, q *ClusterQueue, p *flavor.Plan) {
	ps := &w.Spec.PodSets[0]
	m.valid, m.regen = false, nil
	m.spec, m.plain, m.name, m.count = w.Spec, plainPodSet(ps), ps.Name, ps.Count
	m.reqs = append(m.reqs[:0], reqs...)
	m.last, m.reset = w.Last, w.ResetReason
	m.gen, m.plan = q.Generation, p
	m.cells, m.fp = append(m.cells[:0], qm.cur...), qm.fp
}

// sameResume reports whether a search at ClusterQueue generation gb
// from resume state b (reset for reason rb) finds what one at generation
// ga from a (reset for ra) found, but for the generation its resume
// state records (searchMemo.resumeAt). A state older than its search's
// generation is dropped whatever it holds (the search reports only that
// it was: ResumeGeneration); the reason a state was reset is read only
// without one (findFlavor); and a state of the search's generation is
// read whole (two equal ones have one generation, which their searches
// had).
func sameResume(a *flavor.LastState, ra trace.ResetReason, ga int64, b *flavor.LastState, rb trace.ResetReason, gb int64) bool {
	staleA, staleB := a != nil && ga > a.Generation, b != nil && gb > b.Generation
	switch {
	case staleA || staleB:
		return staleA && staleB
	case a == nil || b == nil:
		return a == b && ra == rb
	}
	return sameLast(a, b)
}

// resumeAt returns the resume state m's search would have left at
// generation gen: its own, with gen for its generation (the only part of
// a search's result the generation changes, when sameResume holds).
func (m *searchMemo) resumeAt(gen int64) *flavor.LastState {
	if gen == m.gen {
		return m.newLast
	}
	if m.regen == nil || m.regen.Generation != gen {
		m.regen = &flavor.LastState{TriedFlavorIdx: m.newLast.TriedFlavorIdx, Generation: gen}
	}
	return m.regen
}

// memoOf returns queue qi's memos (nil when the run keeps none).
func (s *State) memoOf(qi int) *queueMemo {
	sc := s.scratch
	if s.noMemo {
		return nil
	}
	if sc.memos == nil {
		sc.memos = make([]queueMemo, len(s.Queues))
	}
	return &sc.memos[qi]
}
