package flavor

import (
	"slices"
	"strings"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/trace"
)

// Words remembers the sentences the flavor search's results are written
// in, which depend only on a few quantities: a long run writes the same
// few hundred of them hundreds of thousands of times. The search itself
// records codes (trace.Reason); Words writes them when a message or a
// trace needs the words. The zero value is ready; a nil *Words remembers
// nothing. It holds one entry per distinct sentence met, each written
// once instead of at every use. A Words must not be used by two
// goroutines at once.
//
// It also shares the one-reason lists the search records: a reason met
// again gets the list made the first time (its capacity is its length, so
// appending to it copies it; the trace never changes a list).
type Words struct {
	amounts map[amountKey]string
	// reasons are what is remembered of each reason met; recent holds
	// the entries found last, by a hash that costs less than the map's
	// (of the amounts and the names' lengths and last bytes).
	reasons   map[Reason]*reasonEntry
	recent    *[reasonSlots]recentEntry
	resources map[core.ResourceName][]string
	parts     map[[2]string]string
	// messages are the pod set messages written last (podSetMessage).
	messages *[recentLen]messageEntry
	// joined are the messages of several reasons (PodSetAssignment.Message),
	// by their text; buf is where a message is written to look it up.
	joined   map[string]string
	buf      []byte
	requests map[amountKey][]trace.Quantity
	// Slabs the search's trace lists are carved from (the trace keeps
	// them): a few allocations per many lists instead of one each.
	groups      []trace.GroupAttempt
	attempts    []trace.FlavorAttempt
	decisions   []trace.PodSetDecision
	reasonLists []Reason
	reserved    []trace.Quantity
	lasts       []lastSpace
	// lastStates are the resume states kept last, by a hash of what
	// they hold (keepLast).
	lastStates  *[recentLen]*LastState
	preemptions []preemptionSpace
	// attemptLists are the lists of flavor attempts kept last, by a
	// hash of what they hold (keepAttempts).
	attemptLists *[recentLen][]trace.FlavorAttempt
	// decisionLists are the lists of pod set decisions kept last
	// (KeepPodSetDecisions).
	decisionLists *[recentLen][]trace.PodSetDecision
	// quantityLists are the reserved quantities kept last
	// (KeepQuantities).
	quantityLists *[recentLen][]trace.Quantity
	// noCandidates are the descriptions of searches for one
	// flavor-resource that found no candidates (NoCandidates), beyond
	// the first scanNoCandidates.
	noCandidates map[core.FlavorResource]*trace.Preemption
	// firstNoCandidates are the first few of them, which NoCandidates
	// finds by comparing names (cheaper than hashing them: the names
	// are mostly the very strings of the specs, equal at their first
	// byte's address).
	firstNoCandidates []noCandidatesEntry
}

// slabLen is how many values a slab holds (more when one list needs
// more): a few KB, so that a small run does not pay for a large slab.
const slabLen = 64

// take returns an empty list with room for n values, carved from *slab:
// appending up to n stays in its space, appending more copies it, so it
// never reaches its neighbour. What is carved is not handed out again:
// the slab only moves forward.
func take[T any](slab *[]T, n int) []T {
	if n == 0 {
		return []T{} // empty, not nil: a list the JSON writes as []
	}
	if len(*slab) < n {
		*slab = make([]T, max(slabLen, n))
	}
	out := (*slab)[:0:n]
	*slab = (*slab)[n:]
	return out
}

// PodSetDecisions returns an empty list with room for n pod set
// decisions, carved from w's slab (made when w is nil).
func (w *Words) PodSetDecisions(n int) []trace.PodSetDecision {
	if n == 0 {
		return nil
	}
	if w == nil {
		return make([]trace.PodSetDecision, 0, n)
	}
	return take(&w.decisions, n)
}

// lastSpace returns a zero lastSpace, carved from w's slab (made when w
// is nil).
func (w *Words) lastSpace() *lastSpace {
	if w == nil {
		return &lastSpace{}
	}
	if len(w.lasts) == 0 {
		w.lasts = make([]lastSpace, slabLen)
	}
	ls := &w.lasts[0]
	w.lasts = w.lasts[1:]
	return ls
}

// keepLast returns the resume state ls holds as a LastState that
// outlives the Space: ls's own when it is not the Space's (Assign writes
// the state of several pod sets apart); else prev when it is equal (a head judged again
// the same way), else one equal to it kept recently (the heads of a
// queue at one generation often stop at the same flavor), else a copy
// carved from w's slab (made when w is nil). A LastState is never
// changed once kept.
func (w *Words) keepLast(ls, space *lastSpace, prev *LastState) *LastState {
	cur := &ls.last
	if ls != space {
		return cur
	}
	if sameLast(cur, prev) {
		return prev
	}
	var slot **LastState
	if w != nil {
		h := uint64(cur.Generation)<<8 + uint64(len(cur.TriedFlavorIdx))
		for _, ts := range cur.TriedFlavorIdx {
			h = h*31 + uint64(len(ts))
			for _, t := range ts {
				h = h*31 + uint64(t.Idx+2) + uint64(len(t.Resource))<<16
			}
		}
		if w.lastStates == nil {
			w.lastStates = &[recentLen]*LastState{}
		}
		slot = &w.lastStates[mix(h)]
		if sameLast(cur, *slot) {
			return *slot
		}
	}
	out := w.lastSpace()
	out.last.Generation = cur.Generation
	switch {
	case len(cur.TriedFlavorIdx) == 0 && cur.TriedFlavorIdx != nil: // no pod sets
		out.last.TriedFlavorIdx = out.lastIdx[:0]
	case cur.TriedFlavorIdx != nil: // one pod set (Assign writes others apart)
		switch ts := cur.TriedFlavorIdx[0]; {
		case len(ts) > len(out.tried):
			out.lastIdx[0] = ts // a list of its own
		case ts != nil:
			n := copy(out.tried[:], ts)
			out.lastIdx[0] = out.tried[:n:n]
		}
		out.last.TriedFlavorIdx = out.lastIdx[:1:1]
	}
	if slot != nil {
		*slot = &out.last
	}
	return &out.last
}

// sameLast reports whether a and b are equal resume states, nil and
// empty lists told apart (a kept state is the very one the caller
// would have had).
func sameLast(a, b *LastState) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Generation != b.Generation || len(a.TriedFlavorIdx) != len(b.TriedFlavorIdx) || (a.TriedFlavorIdx == nil) != (b.TriedFlavorIdx == nil) {
		return false
	}
	for i, ts := range a.TriedFlavorIdx {
		us := b.TriedFlavorIdx[i]
		if len(ts) != len(us) || (ts == nil) != (us == nil) {
			return false
		}
		for k := range ts {
			if ts[k] != us[k] {
				return false
			}
		}
	}
	return true
}

// preemptionSpace is a preemption's description with room for its
// passes (at most two), in one allocation.
type preemptionSpace struct {
	p      trace.Preemption
	passes [2]trace.PreemptionPass
}

// Preemption returns an empty description of a preemption search whose
// Passes has room for two passes, carved from w's slab (made when w is
// nil).
func (w *Words) Preemption() *trace.Preemption {
	var sp *preemptionSpace
	if w == nil {
		sp = &preemptionSpace{}
	} else {
		if len(w.preemptions) == 0 {
			w.preemptions = make([]preemptionSpace, slabLen)
		}
		sp = &w.preemptions[0]
		w.preemptions = w.preemptions[1:]
	}
	sp.p.Passes = sp.passes[:0]
	return &sp.p
}

// NoCandidates returns the description remembered for a preemption
// search for fr alone that found no candidates, or nil. Such a search's
// description says only that (its resources, one pass without steps,
// its summary), the same every time: one is shared, since the trace never
// changes a description.
func (w *Words) NoCandidates(fr core.FlavorResource) *trace.Preemption {
	if w == nil {
		return nil
	}
	for i := range w.firstNoCandidates {
		if w.firstNoCandidates[i].fr == fr {
			return w.firstNoCandidates[i].tr
		}
	}
	if len(w.firstNoCandidates) < scanNoCandidates {
		return nil // not in the map either: the first are in the list
	}
	return w.noCandidates[fr]
}

// noCandidatesEntry is a description NoCandidates returns, and its
// flavor-resource.
type noCandidatesEntry struct {
	fr core.FlavorResource
	tr *trace.Preemption
}

// scanNoCandidates is how many descriptions Words keeps in a list
// before the others go to a map.
const scanNoCandidates = 8

// RememberNoCandidates remembers tr as the description of a search for
// fr alone that found no candidates (nothing when w is nil).
func (w *Words) RememberNoCandidates(fr core.FlavorResource, tr *trace.Preemption) {
	if w == nil {
		return
	}
	for i := range w.firstNoCandidates {
		if w.firstNoCandidates[i].fr == fr {
			w.firstNoCandidates[i].tr = tr
			return
		}
	}
	if len(w.firstNoCandidates) < scanNoCandidates {
		w.firstNoCandidates = append(w.firstNoCandidates, noCandidatesEntry{fr, tr})
		return
	}
	if w.noCandidates == nil {
		w.noCandidates = map[core.FlavorResource]*trace.Preemption{}
	}
	w.noCandidates[fr] = tr
}

// groupAttempts is PodSetDecisions for a pod set's group attempts.
func (w *Words) groupAttempts(n int) []trace.GroupAttempt {
	if w == nil {
		return make([]trace.GroupAttempt, 0, n)
	}
	return take(&w.groups, n)
}

// keepAttempts returns a group's flavor attempts, written in buf (a
// Space's) or, when they outgrew it, apart: a list of the same attempts
// kept earlier (a waiting head is judged the same way cycle after
// cycle), else a copy carved from w's slab (made when w is nil). A list
// is shared when its attempts name no preemption targets (a new list per
// oracle answer); their reasons are shared lists already (appendBoth).
func (w *Words) keepAttempts(atts []trace.FlavorAttempt, buf *[4]trace.FlavorAttempt) []trace.FlavorAttempt {
	if len(atts) == 0 || &atts[0] != &buf[0] {
		return atts // none, or a list of its own (findFlavor writes one attempt at least)
	}
	var slot *[]trace.FlavorAttempt
	if w != nil {
		h := uint64(len(atts))
		for i := range atts {
			a := &atts[i]
			if a.PreemptionTargets != nil {
				h = 0
				break
			}
			h = h*31 + uint64(a.Index+a.Borrowing<<4+len(a.Mode)<<8+len(a.Rule)<<16+len(a.Reasons)<<24)
			if len(a.Reasons) > 0 {
				h += uint64(a.Reasons[0].Amount) << 28
			}
		}
		if h != 0 {
			if w.attemptLists == nil {
				w.attemptLists = &[recentLen][]trace.FlavorAttempt{}
			}
			slot = &w.attemptLists[mix(h)]
			if sameAttempts(*slot, atts) {
				return *slot
			}
		}
	}
	out := append(w.flavorAttempts(len(atts)), atts...)
	if slot != nil {
		*slot = out
	}
	return out
}

// sameGroups reports whether two lists hold equal group attempts,
// attempts shared (keepAttempts).
func sameGroups(a, b []trace.GroupAttempt) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if x.StartIndex != y.StartIndex || x.Resume != y.Resume || x.ResumedAfter != y.ResumedAfter ||
			x.Reset != y.Reset || x.BorrowingFirst != y.BorrowingFirst || x.Chosen != y.Chosen ||
			x.PreferenceNote != y.PreferenceNote || x.TriedIndex != y.TriedIndex || x.Unavailable != y.Unavailable ||
			!slices.Equal(x.Resources, y.Resources) || !sameList(x.Attempts, y.Attempts) {
			return false
		}
	}
	return true
}

// KeepPodSetDecisions returns a list equal to ds (which the caller
// writes again, and whose group attempts may be in a Space): one kept
// recently when equal (a waiting head is judged the same way cycle after
// cycle), compared field by field with the requests and flavor attempts
// by identity (Request and keepAttempts share them), else a copy carved
// from w's slab with copies of its group attempts (made when w is nil).
func (w *Words) KeepPodSetDecisions(ds []trace.PodSetDecision) []trace.PodSetDecision {
	if len(ds) == 0 {
		return nil
	}
	var slot *[]trace.PodSetDecision
	if w != nil {
		h := uint64(len(ds))
		for i := range ds {
			d := &ds[i]
			h = h*31 + uint64(int(d.Count)+len(d.PodSet)<<16+len(d.Mode)<<24+len(d.Message)<<32+len(d.Groups)<<48+len(d.Requests)<<56)
			if len(d.Requests) > 0 {
				h += uint64(d.Requests[0].Amount) << 8
			}
			for k := range d.Groups {
				g := &d.Groups[k]
				h = h*31 + uint64(g.StartIndex+(g.TriedIndex+1)<<8+len(g.Attempts)<<16+len(g.Chosen)<<24)
			}
		}
		if w.decisionLists == nil {
			w.decisionLists = &[recentLen][]trace.PodSetDecision{}
		}
		slot = &w.decisionLists[mix(h)]
		if samePodSetDecisions(*slot, ds) {
			return *slot
		}
	}
	out := append(w.PodSetDecisions(len(ds)), ds...)
	for i := range out {
		if gs := out[i].Groups; len(gs) > 0 {
			out[i].Groups = append(w.groupAttempts(cap(gs)), gs...)
		}
	}
	if slot != nil {
		*slot = out
	}
	return out
}

// samePodSetDecisions reports whether a and b hold equal decisions,
// requests and flavor attempts shared.
func samePodSetDecisions(a, b []trace.PodSetDecision) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if x.PodSet != y.PodSet || x.Count != y.Count || x.Mode != y.Mode || x.Message != y.Message ||
			!sameList(x.Requests, y.Requests) || !sameGroups(x.Groups, y.Groups) {
			return false
		}
	}
	return true
}

// KeepQuantities returns a list equal to qs (which the caller writes
// again): one kept recently when equal (a 64-slot table by hash), else
// a copy carved from w's slab (a new list when w is nil). It returns
// nil for an empty list.
func (w *Words) KeepQuantities(qs []trace.Quantity) []trace.Quantity {
	if len(qs) == 0 {
		return nil
	}
	if w == nil {
		return append(make([]trace.Quantity, 0, len(qs)), qs...)
	}
	h := uint64(len(qs))
	for i := range qs {
		h = h*31 + uint64(qs[i].Amount) + uint64(len(qs[i].Flavor)+len(qs[i].Resource)<<8)<<48
	}
	if w.quantityLists == nil {
		w.quantityLists = &[recentLen][]trace.Quantity{}
	}
	slot := &w.quantityLists[mix(h)]
	if slices.Equal(*slot, qs) {
		return *slot
	}
	out := append(take(&w.reserved, len(qs)), qs...)
	*slot = out
	return out
}

// flavorAttempts is PodSetDecisions for a group's flavor attempts.
func (w *Words) flavorAttempts(n int) []trace.FlavorAttempt {
	if w == nil {
		return make([]trace.FlavorAttempt, 0, n)
	}
	return take(&w.attempts, n)
}

// sameAttempts reports whether a kept list holds attempts equal to b's,
// reasons shared (appendBoth).
func sameAttempts(a, b []trace.FlavorAttempt) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if x.Flavor != y.Flavor || x.Index != y.Index || x.Mode != y.Mode || x.Borrowing != y.Borrowing ||
			x.Continue != y.Continue || x.Rule != y.Rule || x.Best != y.Best ||
			x.PreemptionTargets != nil || y.PreemptionTargets != nil || !sameList(x.Reasons, y.Reasons) {
			return false
		}
	}
	return true
}

// sameList reports whether a and b are the same list (the same elements
// in the same memory), which the trace never changes.
func sameList[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// mix is h's slot in a table of recentLen.
func mix(h uint64) int {
	h *= 0x9e3779b97f4a7c15
	return int(h>>58) & (recentLen - 1)
}

// reasonEntry is what Words remembers of one reason: its words and the
// one-reason lists made of it (the pod set's and the trace's), each made
// on first use. A list's capacity is its length, so appending to it
// copies it; the trace never changes a list.
type reasonEntry struct {
	words string
	list  []Reason
	trace []trace.Reason
}

// recentLen is how many entries Words.recent holds (a power of two).
const recentLen = 64

type recentEntry struct {
	_ [0]func() // not comparable: no equality code for it
	r Reason
	e *reasonEntry
}

// entry returns r's entry, made first if new.
// Not inlined: one copy of its code serves its callers (the size of
// the page's WebAssembly).
//
//go:noinline
func (w *Words) entry(r Reason) *reasonEntry {
	if w.recent == nil {
		w.recent = &[reasonSlots]recentEntry{}
	}
	c := &w.recent[recentSlot(&r)]
	if c.e != nil && c.r == r {
		return c.e
	}
	e := w.reasons[r]
	if e == nil {
		if w.reasons == nil {
			w.reasons = map[Reason]*reasonEntry{}
		}
		e = &reasonEntry{}
		w.reasons[r] = e
	}
	c.r, c.e = r, e
	return e
}

// recentSlot is r's place in Words.recent: a hash of its amounts, its
// names' lengths and its flavor's last byte, which reads no name whole.
func recentSlot(r *Reason) int {
	h := uint64(r.Amount+r.Assumed<<7+r.Capacity<<14) ^ uint64(len(r.Flavor))<<40 ^ uint64(len(r.Resource))<<48 ^ uint64(len(r.Code)+len(r.Detail))<<56
	if n := len(r.Flavor); n > 0 {
		h ^= uint64(r.Flavor[n-1]) << 32
	}
	h *= 0x9e3779b97f4a7c15
	return int(h>>(64-reasonBits)) & (reasonSlots - 1)
}

// reasonBits is log2 of reasonSlots, the size of Words.recent: a
// waiting head's reasons differ mostly in how much it lacks, and a long
// run meets a few hundred of them at a time.
const (
	reasonBits  = 9
	reasonSlots = 1 << reasonBits
)

// appendBoth is append(rs, r) and append(ts, r's trace reason), each
// sharing its list when it is empty: one look-up of r serves both. A
// full rs (a shared list is) moves to room when it has space for one
// more (rs is then room's), else to a slab.
func (w *Words) appendBoth(rs []Reason, ts []trace.Reason, r Reason, room []Reason) ([]Reason, []trace.Reason) {
	var e *reasonEntry
	if w != nil && (len(rs) == 0 || len(ts) == 0) {
		e = w.entry(r)
	}
	switch {
	case e == nil || len(rs) > 0:
		if len(rs) > 0 && len(rs) == cap(rs) {
			switch {
			case len(rs) < cap(room):
				rs = append(room[:0], rs...)
			case w != nil:
				rs = append(take(&w.reasonLists, 2*len(rs)), rs...)
			}
		}
		rs = append(rs, r)
	default:
		if e.list == nil {
			e.list = []Reason{r}
		}
		rs = e.list
	}
	switch {
	case e == nil || len(ts) > 0:
		ts = append(ts, r.Reason)
	default:
		if e.trace == nil {
			e.trace = []trace.Reason{r.Reason}
		}
		ts = e.trace
	}
	return rs, ts
}

type amountKey struct {
	r core.ResourceName
	v core.Amount
}

// Amount is core.FormatAmount(r, v), remembered.
func (w *Words) Amount(r core.ResourceName, v core.Amount) string {
	if w == nil {
		return core.FormatAmount(r, v)
	}
	k := amountKey{r, v}
	s, ok := w.amounts[k]
	if !ok {
		if w.amounts == nil {
			w.amounts = map[amountKey]string{}
		}
		s = core.FormatAmount(r, v)
		w.amounts[k] = s
	}
	return s
}

// reason is r in Kueue's words (trace.Reason.Text), remembered.
func (w *Words) reason(r *Reason) string {
	if w == nil {
		return r.Text(string(r.Flavor))
	}
	e := w.entry(*r)
	if e.words == "" {
		e.words = r.Text(string(r.Flavor))
	}
	return e.words
}

// resource is []string{string(r)}, shared: the trace never changes a
// list.
func (w *Words) resource(r core.ResourceName) []string {
	if w == nil {
		return []string{string(r)}
	}
	l, ok := w.resources[r]
	if !ok {
		if w.resources == nil {
			w.resources = map[core.ResourceName][]string{}
		}
		l = []string{string(r)}
		w.resources[r] = l
	}
	return l[:1:1]
}

// messageEntry is a pod set's message remembered (podSetMessage): the
// pod set's name and reasons, its message and the part of the
// assignment's message about it.
type messageEntry struct {
	name    string
	reasons []Reason
	joined  string
	part    string
}

// podSetMessage returns the part of Assignment.Message about pod set p
// (which has reasons, no error) and sets p's message, from a message
// remembered for the same name and reasons when there is one (a 64-slot
// table by hash): a waiting head's reasons are often the ones it had,
// and their words are then not looked up, sorted and joined again.
func (w *Words) podSetMessage(p *PodSetAssignment) string {
	if w == nil {
		return w.podSetPart(p.Name, p.Message(w))
	}
	h := uint64(len(p.Name)) + uint64(len(p.Reasons))<<8
	for i := range p.Reasons {
		r := &p.Reasons[i]
		h = h*31 + uint64(r.Amount+r.Assumed<<7+r.Capacity<<14) + uint64(len(r.Code)+len(r.Flavor)<<8+len(r.Resource)<<16+len(r.Detail)<<24)<<32
		if n := len(r.Flavor); n > 0 {
			h += uint64(r.Flavor[n-1]) << 56
		}
	}
	if w.messages == nil {
		w.messages = &[recentLen]messageEntry{}
	}
	m := &w.messages[mix(h)]
	if m.part != "" && m.name == p.Name && slices.Equal(m.reasons, p.Reasons) {
		if p.joined == "" {
			p.joined = m.joined
		}
		return m.part
	}
	joined := p.Message(w)
	*m = messageEntry{name: p.Name, reasons: append(m.reasons[:0], p.Reasons...), joined: joined, part: w.podSetPart(p.Name, joined)}
	return m.part
}

// podSetPart is the part of Assignment.Message about pod set name, whose
// message is msg, remembered.
func (w *Words) podSetPart(name, msg string) string {
	format := func() string { return "couldn't assign flavors to pod set " + name + ": " + msg }
	if w == nil {
		return format()
	}
	k := [2]string{name, msg}
	s, ok := w.parts[k]
	if !ok {
		if w.parts == nil {
			w.parts = map[[2]string]string{}
		}
		s = format()
		w.parts[k] = s
	}
	return s
}

// Request is a pod set's one request, v of r, as the trace lists it
// (with its text), shared: the trace never changes a list.
func (w *Words) Request(r core.ResourceName, v core.Amount) []trace.Quantity {
	k := amountKey{r, v}
	var l []trace.Quantity
	ok := false
	if w != nil {
		l, ok = w.requests[k]
	}
	if !ok {
		l = []trace.Quantity{{Resource: string(r), Amount: v, Text: w.Amount(r, v)}}
		if w != nil {
			if w.requests == nil {
				w.requests = map[amountKey][]trace.Quantity{}
			}
			w.requests[k] = l
		}
	}
	return l[:1:1]
}

// join is strings.Join(words, ", "), remembered: the same reasons met
// again give the string made the first time.
func (w *Words) join(words []string) string {
	if w == nil {
		return strings.Join(words, ", ")
	}
	b := w.buf[:0]
	for i, s := range words {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, s...)
	}
	w.buf = b
	if s, ok := w.joined[string(b)]; ok { // the conversion allocates nothing
		return s
	}
	if w.joined == nil {
		w.joined = map[string]string{}
	}
	s := string(b)
	w.joined[s] = s
	return s
}
