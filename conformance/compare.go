package conformance

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
	"sigs.k8s.io/kueue/pkg/workload"

	"github.com/kueueplay/kueueplay/core/sim"
)

// view is what the harness compares of one workload, on either side.
type view struct {
	// Status is notCreated, pending, admitted, terminating, finished or
	// deleted.
	Status string
	// Queue says where a pending workload waits: "queued" (in its
	// ClusterQueue's heap: a head candidate), "parked" (inadmissible until
	// something in its cohort changes) or "" (in no queue: inactive, or
	// its LocalQueue or ClusterQueue is missing).
	Queue string
	// Admission is the ClusterQueue and, per pod set, each resource's
	// flavor, for admitted and terminating workloads.
	Admission string
	// Reason is why a terminating workload was evicted: the Preempted
	// condition's reason, or the Evicted condition's when it was not
	// preempted (LocalQueueStopped, ClusterQueueStopped).
	Reason string
	// Message is the pending message (QuotaReserved=False) of a pending
	// workload, or the eviction message of a terminating one.
	Message string
}

func (v view) String() string {
	var b strings.Builder
	b.WriteString(v.Status)
	if v.Queue != "" {
		b.WriteString(" (" + v.Queue + ")")
	}
	if v.Admission != "" {
		b.WriteString(" in " + v.Admission)
	}
	if v.Reason != "" {
		b.WriteString(", evicted: " + v.Reason)
	}
	if v.Message != "" {
		fmt.Fprintf(&b, ", message %q", v.Message)
	}
	return b.String()
}

// oursView is the engine's side.
func oursView(s *sim.State, w *sim.Workload) view {
	v := view{Status: w.Status.String()}
	switch w.Status {
	case sim.Pending:
		switch {
		case w.InHeap:
			v.Queue = "queued"
		case w.Parked:
			v.Queue = "parked"
		}
		// A pasted eviction's message, kept after the release, carries
		// the preemptor's real UID.
		v.Message = normalizeMessage(w.Message)
	case sim.Admitted, sim.Terminating:
		if a := w.Admission; a != nil {
			var ps []string
			for _, p := range a.PodSets {
				ps = append(ps, podSetString(p.Name, p.Count, p.Flavors))
			}
			v.Admission = fmt.Sprintf("%s (%s)", a.ClusterQueue, strings.Join(ps, "; "))
		}
		if w.Status == sim.Terminating {
			switch {
			case w.Preempted != nil:
				v.Reason = w.Preempted.Reason
			case w.Drained != nil:
				v.Reason = w.Drained.Reason
			case w.Spec.Eviction != nil:
				// Pasted with Evicted=True (the harness writes that
				// condition, and no Preempted one, on Kueue's side).
				v.Reason = w.Spec.Eviction.Reason
			}
			// A pasted eviction message carries the preemptor's real UID.
			v.Message = normalizeMessage(w.Message)
		}
	}
	return v
}

// queuePlacement is where Kueue's queue manager holds each pending
// workload.
type queuePlacement struct{ queued, parked map[string]bool }

func (w *world) placement() queuePlacement {
	p := queuePlacement{queued: map[string]bool{}, parked: map[string]bool{}}
	for _, wls := range w.queues.Dump() {
		for _, k := range wls {
			p.queued[string(k)] = true
		}
	}
	for _, wls := range w.queues.DumpInadmissible() {
		for _, k := range wls {
			p.parked[string(k)] = true
		}
	}
	return p
}

// comparer compares the two sides step after step, looking at each step
// only at the workloads that can have changed on either side since the
// step before, when they agreed on every workload:
//
//   - on the engine's side, those whose *sim.Workload is not the one the
//     last comparison saw: with Observe, sim.Run gives every step a copy
//     of the State in which a workload is copied before it is changed
//     (State.mutWorkload) and a State seen by Observe is never changed
//     again, so an unchanged pointer is an unchanged workload;
//   - on Kueue's side, those the informer passed to the workload
//     controller since (world.touched: every change of an API object
//     moves its resourceVersion), and those that moved in or out of a
//     ClusterQueue's heap or its inadmissible list (the queue manager's
//     dumps, compared with the last step's).
//
// The other workloads show both sides what they showed at the step
// before, where the two agreed. full compares every workload: the
// initial step, and once more at the end of a run (run checks that it
// finds nothing the steps missed).
type comparer struct {
	// seen is the engine's workload each index was last compared as.
	seen []*sim.Workload
	// placement is Kueue's queue placement at the last comparison.
	placement queuePlacement
	// index is the engine's index of each workload key.
	index map[string]int
}

func newComparer(s *sim.State) *comparer {
	c := &comparer{seen: make([]*sim.Workload, s.NumWorkloads()), index: make(map[string]int, s.NumWorkloads())}
	for i, wl := range s.All() {
		c.index[wl.Key] = i
	}
	return c
}

// compare lists the workloads on which the two sides disagree, by key.
func (c *comparer) compare(s *sim.State, w *world, created map[string]bool, full bool) ([]Difference, error) {
	p := w.placement()
	dirty := make(map[int]bool)
	mark := func(k string) {
		if i, ok := c.index[k]; ok {
			dirty[i] = true
		}
	}
	for i := range s.NumWorkloads() {
		if full || s.Workload(i) != c.seen[i] {
			dirty[i] = true
		}
	}
	for k := range w.touched {
		mark(k.String())
	}
	clear(w.touched)
	for _, pair := range [][2]map[string]bool{{p.queued, c.placement.queued}, {p.parked, c.placement.parked}} {
		for k := range pair[0] {
			if !pair[1][k] {
				mark(k)
			}
		}
		for k := range pair[1] {
			if !pair[0][k] {
				mark(k)
			}
		}
	}
	c.placement = p
	var diffs []Difference
	for i := range dirty {
		wl := s.Workload(i)
		c.seen[i] = wl
		ours := oursView(s, wl)
		theirs, err := w.view(wl.Key, created[wl.Key], p)
		if err != nil {
			return nil, err
		}
		if ours != theirs {
			diffs = append(diffs, Difference{Workload: wl.Key, Ours: ours.String(), Kueue: theirs.String()})
		}
	}
	slices.SortFunc(diffs, func(a, b Difference) int { return strings.Compare(a.Workload, b.Workload) })
	return diffs, nil
}

// uidInMessage matches the preemptor's identity in Kueue's eviction
// message. The playground's workloads have no UID (the API server assigns
// them), so the engine writes UNKNOWN where Kueue writes the UID the
// harness gave the preemptor; the comparison writes both the same way.
var uidInMessage = regexp.MustCompile(`\(UID: [^,()]*, JobUID: ([^()]*)\)`)

func normalizeMessage(m string) string {
	return uidInMessage.ReplaceAllString(m, "(UID: UNKNOWN, JobUID: $1)")
}

// kueueView is Kueue's side, read from the client (the API objects) and
// the queue manager.
func (w *world) view(wlKey string, created bool, p queuePlacement) (view, error) {
	wl, ok, err := w.get(wlKey)
	if err != nil {
		return view{}, err
	}
	switch {
	case !ok && created:
		return view{Status: "deleted"}, nil
	case !ok:
		return view{Status: "notCreated"}, nil
	case workload.IsFinished(wl):
		return view{Status: "finished"}, nil
	}
	if workload.HasQuotaReservation(wl) && wl.Status.Admission != nil {
		v := view{Status: "admitted", Admission: admissionString(wl.Status.Admission)}
		if ev := apimeta.FindStatusCondition(wl.Status.Conditions, kueue.WorkloadEvicted); ev != nil && ev.Status == metav1.ConditionTrue {
			v.Status = "terminating"
			v.Message = normalizeMessage(ev.Message)
			if pc := apimeta.FindStatusCondition(wl.Status.Conditions, kueue.WorkloadPreempted); pc != nil && pc.Status == metav1.ConditionTrue {
				v.Reason = pc.Reason
			} else {
				v.Reason = ev.Reason
			}
		}
		return v, nil
	}
	v := view{Status: "pending"}
	switch {
	case p.queued[wlKey]:
		v.Queue = "queued"
	case p.parked[wlKey]:
		v.Queue = "parked"
	}
	if c := apimeta.FindStatusCondition(wl.Status.Conditions, kueue.WorkloadQuotaReserved); c != nil && c.Status == metav1.ConditionFalse {
		v.Message = normalizeMessage(c.Message)
	}
	return v, nil
}

func admissionString(a *kueue.Admission) string {
	var ps []string
	for _, p := range a.PodSetAssignments {
		ps = append(ps, podSetString(string(p.Name), ptr.Deref(p.Count, 0), p.Flavors))
	}
	return fmt.Sprintf("%s (%s)", a.ClusterQueue, strings.Join(ps, "; "))
}

// podSetString is one admitted pod set as both sides show it: its name,
// count and the flavor of each resource, by resource name.
func podSetString[R, F ~string](name string, count int32, flavors map[R]F) string {
	var rs []string
	for r, f := range flavors {
		rs = append(rs, fmt.Sprintf("%s=%s", r, f))
	}
	slices.Sort(rs)
	return fmt.Sprintf("%s×%d: %s", name, count, strings.Join(rs, " "))
}
