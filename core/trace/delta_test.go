package trace

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func names(s ...string) []string { return s }

func TestDiffList(t *testing.T) {
	for _, tc := range []struct {
		name     string
		old, new []string
		want     *ListEdit
	}{
		{"equal", names("a", "b"), names("a", "b"), nil},
		{"both empty", nil, names(), nil},
		{"from empty", nil, names("a", "b"), &ListEdit{Ins: []Insert{{0, "a"}, {1, "b"}}}},
		{"to empty", names("a", "b"), nil, &ListEdit{Del: []int{0, 1}}},
		{"head popped, tail entered the cap", names("a", "b", "c"), names("b", "c", "d"),
			&ListEdit{Del: []int{0}, Ins: []Insert{{2, "d"}}}},
		{"two left the front, two entered", names("a", "b", "c", "d", "e"), names("c", "d", "e", "f", "g"),
			&ListEdit{Del: []int{0, 1}, Ins: []Insert{{3, "f"}, {4, "g"}}}},
		{"head popped, nothing entered", names("a", "b", "c"), names("b", "c"), &ListEdit{Del: []int{0}}},
		{"head moved to the end", names("a", "b", "c", "d"), names("b", "c", "d", "a"),
			&ListEdit{Del: []int{0}, Ins: []Insert{{3, "a"}}}},
		{"three left the front", names("a", "b", "c", "d", "e", "f", "g"), names("d", "e", "f", "g"),
			&ListEdit{Del: []int{0, 1, 2}}},
		{"inserted in the middle", names("a", "c"), names("a", "b", "c"), &ListEdit{Ins: []Insert{{1, "b"}}}},
		{"moved to the front", names("a", "b", "c", "d"), names("d", "a", "b", "c"),
			&ListEdit{Del: []int{3}, Ins: []Insert{{0, "d"}}}},
		{"swapped", names("a", "b"), names("b", "a"), &ListEdit{Del: []int{1}, Ins: []Insert{{0, "b"}}}},
		{"replaced", names("a", "b"), names("x", "y"), &ListEdit{Del: []int{0, 1}, Ins: []Insert{{0, "x"}, {1, "y"}}}},
		{"removed from the middle", names("a", "b", "c"), names("a", "c"), &ListEdit{Del: []int{1}}},
		{"two changes between a kept prefix and suffix", names("a", "b", "c", "d", "e"), names("a", "x", "c", "y", "e"),
			&ListEdit{Del: []int{1, 3}, Ins: []Insert{{1, "x"}, {3, "y"}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := diffList(tc.old, tc.new)
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Fatalf("diffList (-want +got):\n%s", d)
			}
			if got == nil {
				return
			}
			out, ok := got.Apply(tc.old)
			if !ok || !slices.Equal(out, tc.new) {
				t.Errorf("Apply(%q) = %q, %t; want %q", tc.old, out, ok, tc.new)
			}
		})
	}
}

func TestListEditApplyRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		old  []string
		edit ListEdit
	}{
		{"delete past the end", names("a"), ListEdit{Del: []int{1}}},
		{"deletes not increasing", names("a", "b"), ListEdit{Del: []int{1, 0}}},
		{"insert past the end", names("a"), ListEdit{Ins: []Insert{{2, "x"}}}},
		{"inserts not increasing", names("a", "b"), ListEdit{Ins: []Insert{{1, "x"}, {0, "y"}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if out, ok := tc.edit.Apply(tc.old); ok {
				t.Errorf("Apply(%q) = %q, want a refusal", tc.old, out)
			}
		})
	}
}

// FuzzListEdit checks that diffList's edit turns any list of unique
// names into any other, and that it never costs more than rewriting the
// list.
func FuzzListEdit(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3}, []byte{1, 2, 3, 4})
	f.Add([]byte{5, 4, 3}, []byte{3, 4, 5})
	f.Add([]byte{}, []byte{9})
	f.Fuzz(func(t *testing.T, a, b []byte) {
		old, new := uniqueNames(a), uniqueNames(b)
		e := diffList(old, new)
		if e == nil {
			if !slices.Equal(old, new) {
				t.Fatalf("no edit from %q to %q", old, new)
			}
			return
		}
		out, ok := e.Apply(old)
		if !ok || !slices.Equal(out, new) {
			t.Fatalf("edit %+v turns %q into %q (%t), want %q", e, old, out, ok, new)
		}
		if l := lcs(old, new); len(e.Del) != len(old)-l || len(e.Ins) != len(new)-l {
			t.Fatalf("edit %+v from %q to %q is not minimal: the lists share %d names in order", e, old, new, l)
		}
		// A differ keeps its scratch space from one diff to the next (a
		// Compactor's): the same edits, there and back.
		var d differ
		if got := d.diffNames(old, new); !reflect.DeepEqual(got, e) {
			t.Fatalf("a reused differ: %+v, want %+v", got, e)
		}
		first := d.diffNames(old, new)
		if got, want := d.diffNames(new, old), diffList(new, old); !reflect.DeepEqual(got, want) {
			t.Fatalf("a reused differ, back: %+v, want %+v", got, want)
		}
		// Edits are carved from shared slabs: a later edit leaves an
		// earlier one as it was.
		if !reflect.DeepEqual(first, e) {
			t.Fatalf("an edit after the next diff: %+v, want %+v", first, e)
		}
	})
}

// lcs is the length of a longest common subsequence (dynamic programming).
func lcs(a, b []string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(cur[j], prev[j+1])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// uniqueNames turns bytes into a list of distinct names, in order.
func uniqueNames(b []byte) []string {
	var out []string
	seen := map[byte]bool{}
	for _, c := range b {
		if !seen[c] {
			seen[c] = true
			out = append(out, fmt.Sprintf("ns/w%d", c))
		}
	}
	return out
}

// TestQueueChangeCounts: a queue change leaves out (0) a count that is its
// list's length after the step, keeps one beyond it (a list at its cap),
// and Replay gives the exact counts back.
func TestQueueChangeCounts(t *testing.T) {
	q := func(pending []string, pendingCount int, admitted []string, admittedCount int) QueueState {
		return QueueState{ClusterQueue: "cq", Active: true, Pending: pending, PendingCount: pendingCount, Admitted: admitted, AdmittedCount: admittedCount}
	}
	for _, tc := range []struct {
		name        string
		before, now QueueState
		want        []QueueChange
	}{
		{"counts of whole lists", q(names("a", "b"), 2, nil, 0), q(names("b"), 1, names("a"), 1),
			[]QueueChange{{Pending: &ListEdit{Del: []int{0}}, Admitted: &ListEdit{Ins: []Insert{{0, "a"}}}}}},
		{"a capped list keeps its count", q(names("a", "b"), 7, nil, 0), q(names("b", "c"), 6, names("a"), 1),
			[]QueueChange{{PendingCount: 6, Pending: &ListEdit{Del: []int{0}, Ins: []Insert{{1, "c"}}}, Admitted: &ListEdit{Ins: []Insert{{0, "a"}}}}}},
		{"a count that changes alone", q(names("a", "b"), 7, nil, 0), q(names("a", "b"), 8, nil, 0),
			[]QueueChange{{PendingCount: 8}}},
		{"a capped list that is whole again", q(names("a", "b"), 3, nil, 0), q(names("a", "b"), 2, nil, 0),
			[]QueueChange{{}}},
		{"emptied", q(names("a"), 1, nil, 0), q(nil, 0, nil, 0), []QueueChange{{Pending: &ListEdit{Del: []int{0}}}}},
		{"unchanged", q(names("a"), 4, nil, 0), q(names("a"), 4, nil, 0), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c Compactor
			steps := []Step{{Index: 0, Queues: []QueueState{tc.before}}, {Index: 1, Queues: []QueueState{tc.now}}}
			tr := &Trace{}
			for _, st := range steps {
				tr.Steps = append(tr.Steps, c.Compact(st))
			}
			if d := cmp.Diff(tc.want, tr.Steps[1].QueueChangeList()); d != "" {
				t.Errorf("QueueChanges (-want +got):\n%s", d)
			}
			_, got := tr.StateAt(1)
			if d := cmp.Diff([]QueueState{tc.now}, got, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("replayed queues (-want +got):\n%s", d)
			}
		})
	}
}

// TestListEditLen: Len is the length of Apply's result, or the old
// length when Apply refuses the edit (as Replay keeps the old list then).
func TestListEditLen(t *testing.T) {
	ins := func(at ...int) []Insert {
		var out []Insert
		for _, a := range at {
			out = append(out, Insert{At: a, Name: "x" + strconv.Itoa(a)})
		}
		return out
	}
	tests := []struct {
		name string
		n    int
		edit *ListEdit
	}{
		{name: "no edit", n: 3},
		{name: "empty edit", n: 3, edit: &ListEdit{}},
		{name: "delete and insert", n: 4, edit: &ListEdit{Del: []int{0, 2}, Ins: ins(0, 1, 4)}},
		{name: "insert past the end", n: 2, edit: &ListEdit{Ins: ins(3)}},
		{name: "insert at the end", n: 2, edit: &ListEdit{Ins: ins(2)}},
		{name: "inserts at the end in a row", n: 2, edit: &ListEdit{Ins: ins(2, 3, 4)}},
		{name: "insert too far after a delete", n: 2, edit: &ListEdit{Del: []int{1}, Ins: ins(2)}},
		{name: "inserts not increasing", n: 3, edit: &ListEdit{Ins: ins(1, 1)}},
		{name: "insert at a negative index", n: 3, edit: &ListEdit{Ins: ins(-1)}},
		{name: "delete out of range", n: 2, edit: &ListEdit{Del: []int{2}}},
		{name: "delete negative", n: 2, edit: &ListEdit{Del: []int{-1}}},
		{name: "deletes not increasing", n: 3, edit: &ListEdit{Del: []int{1, 0}}},
		{name: "delete twice", n: 3, edit: &ListEdit{Del: []int{1, 1}}},
		{name: "delete all, insert into empty", n: 2, edit: &ListEdit{Del: []int{0, 1}, Ins: ins(0, 1)}},
		{name: "into an empty list", n: 0, edit: &ListEdit{Ins: ins(0)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old := make([]string, tt.n)
			for i := range old {
				old[i] = "w" + strconv.Itoa(i)
			}
			want := tt.n
			if tt.edit != nil {
				if out, ok := tt.edit.Apply(old); ok {
					want = len(out)
				}
			}
			if got := tt.edit.Len(tt.n); got != want {
				t.Errorf("Len = %d, want %d (Apply's)", got, want)
			}
		})
	}
}

// TestQueueDelta: queue changes packed (as a Compactor and the JSON
// reader keep them) read back as they were, whichever table numbers
// their names; a step's changes are its QueueChanges, then its
// QueueDelta's; and a change whose numbers do not fit the packing is
// not packed.
func TestQueueDelta(t *testing.T) {
	edit := func(del []int, ins ...Insert) *ListEdit { return &ListEdit{Del: del, Ins: ins} }
	cs := []QueueChange{
		{Queue: 0, PendingCount: 60, Pending: edit([]int{0, 3}, Insert{1, "a"}, Insert{49, "b"}), Parked: edit(nil, Insert{0, "c"})},
		{Queue: 2, AdmittedCount: 51},
		{Queue: 7, Admitted: edit([]int{4}), Terminating: edit(nil, Insert{0, "a"})},
	}
	for _, tc := range []struct {
		name   string
		in     []QueueChange
		packed bool
	}{
		{"none", nil, true},
		{"one of each shape", cs, true},
		{"a count beyond int32", []QueueChange{{Queue: 1, PendingCount: 1 << 40}}, false},
		{"an index beyond int32", []QueueChange{{Queue: 1, Pending: edit([]int{1 << 33})}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, ok := packQueueChanges(tc.in)
			if ok != tc.packed {
				t.Fatalf("packed %t, want %t", ok, tc.packed)
			}
			if !ok {
				return
			}
			if d.Len() != len(tc.in) {
				t.Errorf("Len %d, want %d", d.Len(), len(tc.in))
			}
			st := Step{QueueDelta: d}
			if diff := cmp.Diff(tc.in, st.QueueChangeList(), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("unpacked (-want +got):\n%s", diff)
			}
			var read []QueueChange
			var r QueueChangeReader
			for range 2 { // the reader's space, reused, gives the same
				read = read[:0]
				r.Each(&st, func(c *QueueChange) {
					cp := *c
					for _, e := range []**ListEdit{&cp.Pending, &cp.Parked, &cp.Admitted, &cp.Terminating} {
						if *e != nil {
							*e = &ListEdit{Del: slices.Clone((*e).Del), Ins: slices.Clone((*e).Ins)}
						}
					}
					read = append(read, cp)
				})
				if diff := cmp.Diff(tc.in, read, cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("read (-want +got):\n%s", diff)
				}
			}
		})
	}
	// A Compactor's changes (names numbered in its table of the run's
	// names) and the same read from JSON (numbered in the step's own
	// table) are the same changes; other changes are not.
	var c Compactor
	c.number(names("z", "y", "c"))
	q := func(pending ...string) []QueueState {
		return []QueueState{{ClusterQueue: "cq", Pending: pending, PendingCount: len(pending)}}
	}
	c.Compact(Step{Index: 0, Queues: q("a", "b")})
	compacted := c.Compact(Step{Index: 1, Queues: q("b", "c", "a")})
	read, _ := packQueueChanges(compacted.QueueChangeList())
	if compacted.QueueDelta.Len() != 1 || !compacted.QueueDelta.sameChanges(read) || !read.sameChanges(compacted.QueueDelta) {
		t.Errorf("a Compactor's delta %v and the same changes packed alone %v are not the same changes", compacted.QueueChangeList(), (&Step{QueueDelta: read}).QueueChangeList())
	}
	a, _ := packQueueChanges(cs)
	if !a.sameChanges(a) || a.sameChanges(nil) || !(*QueueDelta)(nil).sameChanges(nil) {
		t.Errorf("sameChanges is not reflexive or does not tell nil")
	}
	other, _ := packQueueChanges(cs[:2])
	if a.sameChanges(other) {
		t.Errorf("sameChanges holds for different changes")
	}
	mixed := Step{QueueChanges: cs[:1], QueueDelta: func() *QueueDelta { d, _ := packQueueChanges(cs[1:]); return d }()}
	if mixed.NumQueueChanges() != len(cs) {
		t.Errorf("NumQueueChanges %d, want %d", mixed.NumQueueChanges(), len(cs))
	}
	if diff := cmp.Diff(cs, mixed.QueueChangeList()); diff != "" {
		t.Errorf("QueueChanges then QueueDelta (-want +got):\n%s", diff)
	}
}
