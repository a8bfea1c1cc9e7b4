package trace

// A trace's size follows what changed, not what exists. A Full step (step
// 0, every KeyframeInterval-th step, and any step where a row or queue
// appeared, disappeared or changed one of its fixed fields) carries the
// usage of every ClusterQueue and Cohort and every ClusterQueue's queue. A
// step that is not Full carries only what changed since the step before
// it: UsageChanges (the changing values of a row, by its index in the last
// Full step's Usage) and QueueChanges (a queue's counts and the edits that
// turn each of its lists into the new one, by its index in the last Full
// step's Queues). StateAt and Replay rebuild the full state of any step
// from the Full step at or before it; Compactor writes them.

import "slices"

// KeyframeInterval is the most steps between two Full steps, so that
// StateAt replays at most KeyframeInterval-1 steps.
const KeyframeInterval = 64

// UsageChange is a usage row whose values changed in a step that is not
// Full. The row's other fields (node, kind, parent, flavor, resource,
// nominal, subtree quota, held back, limits) are those of row Row of the
// last Full step: a change to any of them makes the step Full.
type UsageChange struct {
	Row         int   `json:"row"`
	Used        int64 `json:"used,omitempty"`
	Terminating int64 `json:"terminating,omitempty"`
	Borrowed    int64 `json:"borrowed,omitempty"`
	Lent        int64 `json:"lent,omitempty"`
	Available   int64 `json:"available,omitempty"`
}

// QueueChange is a ClusterQueue's queue that changed in a step that is not
// Full: its counts, and for each of its lists that changed the edit that
// turns the previous step's list into this one's (nil: unchanged). The
// queue is Queue of the last Full step's Queues; a change of its name,
// Active or InactiveReason makes the step Full. A count is 0 when it is
// the length of its list after the step (every name listed: a count
// within QueueListCap), which is most of them; Replay restores it
// (QueueState counts are exact).
type QueueChange struct {
	Queue            int       `json:"queue"`
	PendingCount     int       `json:"pendingCount,omitempty"`
	ParkedCount      int       `json:"parkedCount,omitempty"`
	AdmittedCount    int       `json:"admittedCount,omitempty"`
	TerminatingCount int       `json:"terminatingCount,omitempty"`
	Pending          *ListEdit `json:"pending,omitempty"`
	Parked           *ListEdit `json:"parked,omitempty"`
	Admitted         *ListEdit `json:"admitted,omitempty"`
	Terminating      *ListEdit `json:"terminating,omitempty"`
}

// ListEdit turns one list of workload names into another: remove the
// names at the indexes Del of the old list (increasing), then insert each
// of Ins at its index At of the new list (increasing).
type ListEdit struct {
	Del []int    `json:"del,omitempty"`
	Ins []Insert `json:"ins,omitempty"`
}

// Insert is one name a ListEdit inserts.
type Insert struct {
	At   int    `json:"at"`
	Name string `json:"name"`
}

// Apply returns the list e turns old into; old is not modified. An edit
// that does not fit old (an index out of range, not increasing) gives
// false: the trace was not written by a Compactor.
func (e *ListEdit) Apply(old []string) ([]string, bool) {
	kept := make([]string, 0, len(old))
	d := 0
	for i, n := range old {
		if d < len(e.Del) && e.Del[d] == i {
			d++
			continue
		}
		kept = append(kept, n)
	}
	if d != len(e.Del) {
		return nil, false
	}
	out := make([]string, 0, len(kept)+len(e.Ins))
	k := 0
	for _, ins := range e.Ins {
		for len(out) < ins.At && k < len(kept) {
			out = append(out, kept[k])
			k++
		}
		if len(out) != ins.At {
			return nil, false
		}
		out = append(out, ins.Name)
	}
	return append(out, kept[k:]...), true
}

// Len is the length of the list e turns a list of n names into (Apply's
// result's), without building it: n itself when e is nil or does not fit
// such a list, as Apply refuses it then and Replay keeps the old list: the deleted indexes increasing and below n, each insert at
// an increasing index that the kept names and earlier inserts reach.
func (e *ListEdit) Len(n int) int {
	if e == nil {
		return n
	}
	prev := -1
	for _, d := range e.Del {
		if d <= prev || d >= n {
			return n
		}
		prev = d
	}
	kept := n - len(e.Del)
	prev = -1
	for k, ins := range e.Ins {
		if ins.At <= prev || ins.At > kept+k {
			return n
		}
		prev = ins.At
	}
	return kept + len(e.Ins)
}

// QueueDelta is a step's queue changes (QueueChange) packed into
// numbers, as a Compactor keeps them: a long run's
// trace holds one per step, and numbers are nothing the garbage
// collector follows, where a QueueChange holds four edits of two lists
// each and every inserted name. Step.EachQueueChange and
// Step.QueueChangeList read it.
type QueueDelta struct {
	// N is the number of changes. Ops holds each in turn: its queue,
	// its four counts, a mask of the lists that have an edit (bit k for
	// list k: pending, parked, admitted, terminating), then for each
	// such list the number of deletions, the deleted indexes, the number
	// of insertions and each insertion's index and name (a number into
	// Names, the run's table of names as far as this step). Readers go
	// through Step.EachQueueChange; the fields are exported so that
	// go-cmp compares them as they are (two runs of the same input number
	// names alike). QueueDelta has no Equal method on purpose: go-cmp
	// looks an Equal method up with reflect's Type.Method, which keeps
	// the method's code address in an unsafe.Pointer on the heap, and in
	// WebAssembly such an address can look like a pointer into a freed
	// span of the heap to the garbage collector ("found bad pointer in Go
	// heap", the crash that golang/go#80472 fixed for itabs; reflect's
	// Method has the same pattern in Go 1.26.8).
	N     int
	Ops   []int32
	Names []string
}

// Len is the number of queue changes d holds (0 for nil).
func (d *QueueDelta) Len() int {
	if d == nil {
		return 0
	}
	return d.N
}

// deltaScratch is the space each unpacks a change into: a change, its
// four edits and their lists.
type deltaScratch struct {
	c     QueueChange
	edits [4]ListEdit
	del   [4][]int
	ins   [4][]Insert
}

// each calls f with every change of d in order, unpacked into sc (f
// must not keep it).
func (d *QueueDelta) each(sc *deltaScratch, f func(c *QueueChange)) {
	var ops []int32
	if d != nil {
		ops = d.Ops
	}
	for range d.Len() {
		c := &sc.c
		*c = QueueChange{Queue: int(ops[0]), PendingCount: int(ops[1]), ParkedCount: int(ops[2]), AdmittedCount: int(ops[3]), TerminatingCount: int(ops[4])}
		mask := ops[5]
		ops = ops[6:]
		for k := range 4 {
			var e *ListEdit
			if mask&(1<<k) != 0 {
				e = &sc.edits[k]
				n := int(ops[0])
				del := sc.del[k][:0]
				for _, x := range ops[1 : 1+n] {
					del = append(del, int(x))
				}
				ops = ops[1+n:]
				n = int(ops[0])
				ins := sc.ins[k][:0]
				for i := range n {
					ins = append(ins, Insert{At: int(ops[1+2*i]), Name: d.Names[ops[2+2*i]]})
				}
				ops = ops[1+2*n:]
				sc.del[k], sc.ins[k] = del, ins
				*e = ListEdit{}
				if len(del) > 0 {
					e.Del = del
				}
				if len(ins) > 0 {
					e.Ins = ins
				}
			}
			*[...]**ListEdit{&c.Pending, &c.Parked, &c.Admitted, &c.Terminating}[k] = e
		}
		f(c)
	}
}

// EachQueueChange calls f with each of st's queue changes in order:
// QueueChanges, then what QueueDelta packs, unpacked into space that the
// next change reuses (f must not keep c or its edits; QueueChangeList
// gives values to keep). A QueueChangeReader does the same for many
// steps, reusing its space from one step to the next.
func (st *Step) EachQueueChange(f func(c *QueueChange)) {
	var r QueueChangeReader
	r.Each(st, f)
}

// QueueChangeReader reads the queue changes of steps (EachQueueChange),
// keeping the space it unpacks them into from one step to the next. Its
// zero value is ready to use.
type QueueChangeReader struct{ sc deltaScratch }

// Each calls f with each of st's queue changes in order, as
// Step.EachQueueChange does.
func (r *QueueChangeReader) Each(st *Step, f func(c *QueueChange)) {
	for i := range st.QueueChanges {
		f(&st.QueueChanges[i])
	}
	st.QueueDelta.each(&r.sc, f)
}

// NumQueueChanges is the number of st's queue changes.
func (st *Step) NumQueueChanges() int { return len(st.QueueChanges) + st.QueueDelta.Len() }

// QueueChangeList returns st's queue changes (QueueChanges, or what
// QueueDelta packs, unpacked), as values the caller may keep.
func (st *Step) QueueChangeList() []QueueChange {
	if st.QueueDelta.Len() == 0 {
		return st.QueueChanges
	}
	out := make([]QueueChange, 0, st.NumQueueChanges())
	st.EachQueueChange(func(c *QueueChange) {
		out = append(out, *c)
		n := &out[len(out)-1]
		for _, e := range [...]**ListEdit{&n.Pending, &n.Parked, &n.Admitted, &n.Terminating} {
			if *e != nil {
				*e = &ListEdit{Del: slices.Clip(slices.Clone((*e).Del)), Ins: slices.Clip(slices.Clone((*e).Ins))}
			}
		}
	})
	return out
}

// QueueLists are a queue's four lists as numbers into a table of names
// (an engine's workloads, each name once), as CompactLists takes them:
// a number compares at the cost of an integer where a name compares
// byte by byte, and a list of numbers holds nothing the garbage
// collector follows.
type QueueLists struct {
	Pending, Parked, Admitted, Terminating []int32
}

// differ computes list edits (diff), keeping its scratch space from one
// list to the next (a Compactor diffs four lists per queue per step).
type differ struct {
	at, prev, tails, keep []int
	kept                  []bool
	pos                   []int32 // diff's index of numbers, all 0 between calls
	del                   []int32 // the deletions of the edit being built
	ins                   []int32 // its insertions: index, then number
	slabs                 slabs
}

// slabs hold the not yet used space that a step's changes are carved
// from (a trace keeps them all: a few allocations per many steps).
// What is carved is never written again, so carving only moves forward;
// a new slab is made when one runs out, and the old one lives as long as
// what was carved from it.
type slabs struct {
	ops    slab[int32]
	deltas slab[QueueDelta]
	usage  slab[UsageChange]
	names  slab[string]
}

// slab is one kind of value's slab. Its arrays double in length, from
// slabLen values (least, for the first) up to 16 times that, so that
// what a slab leaves unused when the next carving does not fit (a
// step's changes vary in length) is small next to it, and a small
// trace does not pay for a large slab.
type slab[T any] struct {
	free []T
	next int
}

// slabLen is how many values a first slab holds (more when one carving
// needs more): a few KB.
const slabLen = 128

// carve returns a copy of s taken from sl (nil for an empty s), with
// its capacity its length so that an append cannot reach its neighbour;
// a new slab has at least least values.
func carve[T any](sl *slab[T], s []T, least int) []T {
	if len(s) == 0 {
		return nil
	}
	out := take(sl, len(s), least)
	copy(out, s)
	return out
}

// take returns n values (n > 0) taken from sl, with capacity n; a new
// slab has at least least values.
func take[T any](sl *slab[T], n, least int) []T {
	if len(sl.free) < n {
		sl.next = min(max(2*sl.next, least), 16*least)
		sl.free = make([]T, max(sl.next, n))
	}
	out := sl.free[:n:n]
	sl.free = sl.free[n:]
	return out
}

// grow returns b resized to n, reusing its array when it is large enough.
func grow[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n)
	}
	return b[:n]
}

// diff computes the edit from old to new (lists of numbers into names)
// in d.del and d.ins; false if they are equal. Numbers are unique within a list (they stand for
// workloads). It keeps the longest run of numbers that appear in both
// lists in the same order (a longest increasing subsequence of their old
// indexes), so that a list that lost its head and gained a tail costs
// two entries, not fifty.
func (d *differ) diff(old, new []int32) bool {
	if len(old) == len(new) && (len(old) == 0 || &old[0] == &new[0]) {
		return false // the same list, reported again
	}
	// The list's first one or two left and the rest moved up, maybe with
	// new names after it (a queue's head admitted): the rest of the old
	// list is then the longest common subsequence, and the only one
	// (numbers are unique, and it is longer than what left), so this is
	// the edit the search below finds, without the search.
	for k := 1; k <= 2 && 2*k < len(old); k++ {
		if rest := old[k:]; len(new) >= len(rest) && slices.Equal(rest, new[:len(rest)]) {
			d.del, d.ins = d.del[:0], d.ins[:0]
			for i := range k {
				d.del = append(d.del, int32(i))
			}
			for j := len(rest); j < len(new); j++ {
				d.ins = append(d.ins, int32(j), new[j])
			}
			return true
		}
	}
	// A common prefix and suffix belong to a longest common subsequence:
	// only the middle needs the search (one admission or one pop touches
	// one place of a list).
	pre := 0
	for pre < len(old) && pre < len(new) && old[pre] == new[pre] {
		pre++
	}
	if pre == len(old) && pre == len(new) {
		return false
	}
	suf := 0
	for suf < len(old)-pre && suf < len(new)-pre && old[len(old)-1-suf] == new[len(new)-1-suf] {
		suf++
	}
	om, nm := old[pre:len(old)-suf], new[pre:len(new)-suf]
	d.del, d.ins = d.del[:0], d.ins[:0]
	if len(om) == 0 || len(nm) == 0 {
		for i := range om {
			d.del = append(d.del, int32(pre+i))
		}
		for j, n := range nm {
			d.ins = append(d.ins, int32(pre+j), n)
		}
		return true
	}
	// at[j] is the index in om of nm[j], or -1: looked up in pos, which
	// holds 1 + the index in om of each number of om (0: none) and is
	// all 0 again after, rather than searched for in om (a list of 50
	// with new names in it would take 50 compares per name).
	at := grow(d.at, len(nm))
	d.at = at
	// pos grows as numbers beyond it are met (in om; a number of nm
	// beyond it is in no list pos describes).
	pos := d.pos
	for i, n := range om {
		if int(n) >= len(pos) {
			grown := make([]int32, max(int(n)+1, 2*len(pos)))
			copy(grown, pos)
			pos, d.pos = grown, grown
		}
		pos[n] = int32(i) + 1
	}
	for j, n := range nm {
		at[j] = -1
		if int(n) < len(pos) {
			at[j] = int(pos[n]) - 1
		}
	}
	for _, n := range om {
		pos[n] = 0
	}
	// Names that kept their order (a list that lost some and gained
	// others, the usual step) are their own longest increasing run: only a
	// move needs the search.
	keep, last := d.keep[:0], -1
	for j, v := range at {
		if v < 0 {
			continue
		}
		if v <= last {
			keep = nil
			break
		}
		last = v
		keep = append(keep, j)
	}
	if keep == nil {
		keep = d.lis(at)
	} else {
		d.keep = keep
	}
	kept := grow(d.kept, len(om))
	d.kept = kept
	clear(kept)
	for _, j := range keep {
		kept[at[j]] = true
	}
	for i := range om {
		if !kept[i] {
			d.del = append(d.del, int32(pre+i))
		}
	}
	k := 0
	for j, n := range nm {
		if k < len(keep) && keep[k] == j {
			k++
			continue
		}
		d.ins = append(d.ins, int32(pre+j), n)
	}
	return true
}

// lis returns the positions j (increasing) of a longest strictly
// increasing subsequence of the non-negative values of a (patience
// sorting); the first such subsequence found, so the result is
// deterministic.
func (d *differ) lis(a []int) []int {
	tails := d.tails[:0] // tails[l] is the position of the smallest tail of an increasing run of length l+1
	prev := grow(d.prev, len(a))
	defer func() { d.tails, d.prev = tails, prev }()
	for j, v := range a {
		if v < 0 {
			continue
		}
		l, _ := slices.BinarySearchFunc(tails, v, func(t, v int) int { return a[t] - v })
		if l > 0 {
			prev[j] = tails[l-1]
		} else {
			prev[j] = -1
		}
		if l == len(tails) {
			tails = append(tails, j)
		} else {
			tails[l] = j
		}
	}
	out := grow(d.keep, len(tails))
	d.keep = out
	if len(tails) > 0 {
		for j, l := tails[len(tails)-1], len(tails)-1; l >= 0; j, l = prev[j], l-1 {
			out[l] = j
		}
	}
	return out
}

// Compactor turns the full steps an engine produces into the steps a
// Trace keeps. Give it every step in order, all with Compact or all with
// CompactLists.
type Compactor struct {
	differ differ
	uc     []UsageChange // a step's changes, before they are carved
	ops    []int32       // its queue changes, packed (QueueDelta)
	usage  []UsageRow
	queues []QueueState
	lists  []QueueLists
	// numbers and names are Compact's table of names (CompactLists is
	// given its own).
	numbers map[string]int32
	names   []string
	since   int
	started bool
}

// Compact returns st as a trace keeps it: Full (st itself) or with its
// usage and queues replaced by what changed since the step given before
// it. st must carry the full usage and queues; Compact keeps them (it
// does not copy them) to compare the next step with.
func (c *Compactor) Compact(st Step) Step {
	lists := make([]QueueLists, len(st.Queues))
	for i := range st.Queues {
		q := &st.Queues[i]
		lists[i] = QueueLists{c.number(q.Pending), c.number(q.Parked), c.number(q.Admitted), c.number(q.Terminating)}
	}
	return c.compact(st, lists, c.names, false)
}

// number is a list of names as numbers into c.names, which it extends.
func (c *Compactor) number(names []string) []int32 {
	if c.numbers == nil {
		c.numbers = map[string]int32{}
	}
	out := make([]int32, len(names))
	for i, n := range names {
		k, ok := c.numbers[n]
		if !ok {
			k = int32(len(c.names))
			c.numbers[n] = k
			c.names = append(c.names, n)
		}
		out[i] = k
	}
	return out
}

// CompactLists is Compact for an engine that numbers its workloads: the
// lists of st's Queues are not read (they may be empty); lists[i] are
// queue i's lists as numbers into names. CompactLists holds st's Usage
// and Queues and lists until the next call (it compares the next step
// with them) and keeps none of them in what it returns: a Full step
// carries copies, its queues' lists named from lists.
func (c *Compactor) CompactLists(st Step, lists []QueueLists, names []string) Step {
	return c.compact(st, lists, names, true)
}

func (c *Compactor) compact(st Step, lists []QueueLists, names []string, copies bool) Step {
	prevU, prevQ, prevL := c.usage, c.queues, c.lists
	c.usage, c.queues, c.lists = st.Usage, st.Queues, lists
	if !c.started || c.since+1 >= KeyframeInterval || !sameUsageLayout(prevU, st.Usage) || !sameQueueLayout(prevQ, st.Queues) {
		c.started, c.since = true, 0
		st.Full = true
		if copies {
			st.Usage = slices.Clone(st.Usage)
			st.Queues = c.named(st.Queues, lists, names)
		}
		return st
	}
	c.since++
	uc := c.uc[:0]
	// The same rows as the last step's (an engine that reports them
	// again when no usage changed: sim's usageRows) changed nothing.
	if !sameArray(st.Usage, prevU) {
		for i := range st.Usage {
			r, p := &st.Usage[i], &prevU[i]
			if r.Used != p.Used || r.Terminating != p.Terminating || r.Borrowed != p.Borrowed || r.Lent != p.Lent || r.Available != p.Available {
				uc = append(uc, UsageChange{Row: i, Used: r.Used, Terminating: r.Terminating, Borrowed: r.Borrowed, Lent: r.Lent, Available: r.Available})
			}
		}
	}
	// The queue changes, packed as QueueDelta reads them.
	ops, n := c.ops[:0], 0
	d := &c.differ
	for i := range st.Queues {
		q, p := &st.Queues[i], &prevQ[i]
		l, pl := &lists[i], &prevL[i]
		if q.PendingCount == p.PendingCount && q.ParkedCount == p.ParkedCount && q.AdmittedCount == p.AdmittedCount && q.TerminatingCount == p.TerminatingCount &&
			sameList(l.Pending, pl.Pending) && sameList(l.Parked, pl.Parked) && sameList(l.Admitted, pl.Admitted) && sameList(l.Terminating, pl.Terminating) {
			continue // the queue reported again, unchanged (diff finds no edit)
		}
		start := len(ops)
		ops = append(ops, int32(i), int32(countBeyond(q.PendingCount, len(l.Pending))), int32(countBeyond(q.ParkedCount, len(l.Parked))),
			int32(countBeyond(q.AdmittedCount, len(l.Admitted))), int32(countBeyond(q.TerminatingCount, len(l.Terminating))), 0)
		var mask int32
		for k := range 4 {
			var before, after []int32
			switch k {
			case 0:
				before, after = pl.Pending, l.Pending
			case 1:
				before, after = pl.Parked, l.Parked
			case 2:
				before, after = pl.Admitted, l.Admitted
			default:
				before, after = pl.Terminating, l.Terminating
			}
			if !d.diff(before, after) {
				continue
			}
			mask |= 1 << k
			ops = append(ops, int32(len(d.del)))
			ops = append(ops, d.del...)
			ops = append(ops, int32(len(d.ins)/2))
			ops = append(ops, d.ins...)
		}
		if mask != 0 || q.PendingCount != p.PendingCount || q.ParkedCount != p.ParkedCount || q.AdmittedCount != p.AdmittedCount || q.TerminatingCount != p.TerminatingCount {
			ops[start+5] = mask
			n++
		} else {
			ops = ops[:start]
		}
	}
	c.uc, c.ops = uc, ops
	st.Usage, st.Queues = nil, nil
	st.UsageChanges = carve(&d.slabs.usage, uc, slabLen)
	if n > 0 {
		// A step's changes are hundreds of numbers: slabs of
		// thousands (16 KB and more).
		st.QueueDelta = d.slabs.delta(QueueDelta{N: n, Ops: carve(&d.slabs.ops, ops, 32*slabLen), Names: names})
	}
	return st
}

// delta returns a copy of q carved from the slabs.
func (s *slabs) delta(q QueueDelta) *QueueDelta {
	out := &take(&s.deltas, 1, slabLen)[0]
	*out = q
	return out
}

// named returns a copy of queues with their lists named from lists.
func (c *Compactor) named(queues []QueueState, lists []QueueLists, names []string) []QueueState {
	out := slices.Clone(queues)
	for i := range out {
		q, l := &out[i], &lists[i]
		q.Pending, q.Parked = c.name(l.Pending, names), c.name(l.Parked, names)
		q.Admitted, q.Terminating = c.name(l.Admitted, names), c.name(l.Terminating, names)
	}
	return out
}

// name is a list of numbers as names, carved from the slabs; nil when
// empty. Not inlined: one copy serves named's four lists (the size of
// the page's WebAssembly).
//
//go:noinline
func (c *Compactor) name(l []int32, names []string) []string {
	if len(l) == 0 {
		return nil
	}
	out := take(&c.differ.slabs.names, len(l), slabLen)
	for i, n := range l {
		out[i] = names[n]
	}
	return out
}

// countBeyond is a count as a QueueChange holds it: 0 when it is the
// length of its list (countOf gives it back).
func countBeyond(n, length int) int {
	if n == length {
		return 0
	}
	return n
}

// countOf is the count a QueueChange's count stands for, given its list
// after the step.
func countOf(n int, list []string) int {
	if n == 0 {
		return len(list)
	}
	return n
}

// sameUsageLayout reports whether two steps' usage rows have the same
// keys in the same order and the same fixed fields.
func sameUsageLayout(a, b []UsageRow) bool {
	if len(a) != len(b) {
		return false
	}
	if sameArray(a, b) {
		return true
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if x.Node != y.Node || x.Kind != y.Kind || x.Parent != y.Parent || x.Flavor != y.Flavor || x.Resource != y.Resource ||
			x.Nominal != y.Nominal || x.SubtreeQuota != y.SubtreeQuota || x.HeldBack != y.HeldBack ||
			!equalPtr(x.BorrowingLimit, y.BorrowingLimit) || !equalPtr(x.LendingLimit, y.LendingLimit) {
			return false
		}
	}
	return true
}

// sameList reports whether a and b are the same list: the same length
// and the same array (what diff reports no edit for without reading
// them).
func sameList(a, b []int32) bool { return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0]) }

// sameArray reports whether a and b are the same rows: the same length
// and the same array.
func sameArray(a, b []UsageRow) bool { return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0]) }

func equalPtr(a, b *int64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

// sameQueueLayout reports whether two steps have the same queues in the
// same order, each as active as before for the same reason.
func sameQueueLayout(a, b []QueueState) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if x.ClusterQueue != y.ClusterQueue || x.Active != y.Active || x.InactiveReason != y.InactiveReason {
			return false
		}
	}
	return true
}

// Replay walks a trace's steps in order and keeps the full usage and
// queues after the current one. Usage and Queues are valid until the
// next call to Next; copy what you keep.
type Replay struct {
	tr     *Trace
	i      int
	usage  []UsageRow
	queues []QueueState
	err    bool
	// usageOnly skips the queues (Queues stays empty): the text format
	// prints usage only.
	usageOnly bool
	changes   QueueChangeReader
}

// NewReplay starts a walk over tr before its first step.
func NewReplay(tr *Trace) *Replay { return &Replay{tr: tr, i: -1} }

// Next moves to the next step; false at the end.
func (r *Replay) Next() bool {
	if r.tr == nil || r.i+1 >= len(r.tr.Steps) {
		return false
	}
	r.i++
	r.apply(&r.tr.Steps[r.i])
	return true
}

// Push applies st as the step after the current one, for steps that come
// one at a time (a Replay made with NewReplay(nil); Next is for a whole
// trace).
func (r *Replay) Push(st *Step) {
	r.i++
	r.apply(st)
}

// Index is the current step's index.
func (r *Replay) Index() int { return r.i }

// Usage is the usage of every ClusterQueue and Cohort after the current
// step.
func (r *Replay) Usage() []UsageRow { return r.usage }

// Queues is every ClusterQueue's queue after the current step.
func (r *Replay) Queues() []QueueState { return r.queues }

// Broken reports whether a step referred to a row, queue or list entry
// that does not exist (a trace not written by a Compactor); what could
// not be applied was skipped.
func (r *Replay) Broken() bool { return r.err }

// IsFull reports whether st carries the full usage and queues: a Full
// step, or a step of a trace written before deltas (every step full).
func (st *Step) IsFull() bool { return st.Full || len(st.Usage) > 0 || len(st.Queues) > 0 }

func (r *Replay) apply(st *Step) {
	if st.IsFull() || r.i == 0 {
		r.usage = append(r.usage[:0], st.Usage...)
		if !r.usageOnly {
			r.queues = append(r.queues[:0], st.Queues...)
		}
		return
	}
	for _, c := range st.UsageChanges {
		if c.Row < 0 || c.Row >= len(r.usage) {
			r.err = true
			continue
		}
		u := &r.usage[c.Row]
		u.Used, u.Terminating, u.Borrowed, u.Lent, u.Available = c.Used, c.Terminating, c.Borrowed, c.Lent, c.Available
	}
	if r.usageOnly {
		return
	}
	r.changes.Each(st, r.applyQueue)
}

// applyQueue applies one queue change to the queues.
func (r *Replay) applyQueue(c *QueueChange) {
	if c.Queue < 0 || c.Queue >= len(r.queues) {
		r.err = true
		return
	}
	q := &r.queues[c.Queue]
	for _, l := range []struct {
		edit *ListEdit
		list *[]string
	}{{c.Pending, &q.Pending}, {c.Parked, &q.Parked}, {c.Admitted, &q.Admitted}, {c.Terminating, &q.Terminating}} {
		if l.edit == nil {
			continue
		}
		if out, ok := l.edit.Apply(*l.list); ok {
			*l.list = out
		} else {
			r.err = true
		}
	}
	q.PendingCount, q.ParkedCount = countOf(c.PendingCount, q.Pending), countOf(c.ParkedCount, q.Parked)
	q.AdmittedCount, q.TerminatingCount = countOf(c.AdmittedCount, q.Admitted), countOf(c.TerminatingCount, q.Terminating)
}

// StateAt returns the full usage and queues after step i (clamped to the
// trace's steps), replayed from the Full step at or before it. The slices
// are the caller's.
func (tr *Trace) StateAt(i int) ([]UsageRow, []QueueState) {
	r := tr.ReplayAt(i)
	return slices.Clone(r.usage), slices.Clone(r.queues)
}

// ReplayAt returns a Replay positioned on step i (clamped to the trace's
// steps), replayed from the Full step at or before it: at most
// KeyframeInterval-1 steps for a trace a Compactor wrote.
func (tr *Trace) ReplayAt(i int) *Replay {
	r := NewReplay(tr)
	if len(tr.Steps) == 0 {
		return r
	}
	i = max(0, min(i, len(tr.Steps)-1))
	k := i
	for k > 0 && !tr.Steps[k].IsFull() {
		k--
	}
	r.i = k - 1
	for r.i < i && r.Next() {
	}
	return r
}

// Slice returns a copy of tr with only steps [from, to] (valid indexes,
// from <= to). Its first step is made Full, with every node's state
// (node rows are deltas too: the first step of a slice lists every
// node, in the trace's order, at its latest row), so the slice reads on
// its own.
func (tr *Trace) Slice(from, to int) *Trace {
	out := *tr
	out.Steps = slices.Clone(tr.Steps[from : to+1])
	first := &out.Steps[0]
	if !first.IsFull() {
		first.Full = true
		first.Usage, first.Queues = tr.StateAt(from)
		first.UsageChanges, first.QueueChanges, first.QueueDelta = nil, nil, nil
	}
	if from == 0 || len(tr.Steps[0].Nodes) == 0 {
		return &out
	}
	latest := map[string]NodeState{}
	for i := 0; i <= from; i++ {
		for _, n := range tr.Steps[i].Nodes {
			latest[n.Node] = n
		}
	}
	nodes := make([]NodeState, 0, len(tr.Steps[0].Nodes))
	for _, n := range tr.Steps[0].Nodes { // step 0 lists every node, in the trace's order
		nodes = append(nodes, latest[n.Node])
	}
	first.Nodes = nodes
	return &out
}
