package flavor

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/trace"
)

// TestTake checks that lists carved from one slab never reach each
// other: each filled to its room, and one filled past it, leave the
// others as they were.
func TestTake(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rooms []int
		over  int // the list appended past its room
	}{
		{"small lists in one slab", []int{1, 2, 3}, 1},
		{"a list larger than a slab", []int{2, slabLen + 5, 1}, 2},
		{"lists spilling into a second slab", []int{slabLen - 1, 2, 3}, 0},
		{"an empty list among others", []int{2, 0, 2}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var slab []int
			var lists, want [][]int
			for i, n := range tc.rooms {
				l := take(&slab, n)
				if l == nil || len(l) != 0 || cap(l) != n {
					t.Fatalf("take(%d) = len %d cap %d (nil %t), want an empty list with room for %d", n, len(l), cap(l), l == nil, n)
				}
				var w []int
				for j := range n {
					l = append(l, 100*i+j)
					w = append(w, 100*i+j)
				}
				lists, want = append(lists, l), append(want, w)
			}
			lists[tc.over] = append(lists[tc.over], -1, -2)
			want[tc.over] = append(want[tc.over], -1, -2)
			if d := cmp.Diff(want, lists); d != "" {
				t.Errorf("carved lists (-want +got):\n%s", d)
			}
		})
	}
}

// TestAppendReason checks that lists grown from a shared one-reason
// list (moved to a slab) leave it and each other as they were.
func TestAppendReason(t *testing.T) {
	reason := func(f string, amount int64) Reason {
		return Reason{Flavor: core.FlavorName(f), Reason: trace.Reason{Code: trace.ReasonInsufficientQuota, Resource: "cpu", Amount: core.Amount(amount)}}
	}
	a, b, c, d := reason("a", 1), reason("b", 2), reason("c", 3), reason("d", 4)
	for _, tc := range []struct {
		name  string
		words *Words
	}{
		{"remembered words", &Words{}},
		{"no words", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := tc.words
			ab := w.appendReason(w.appendReason(nil, a), b)
			ac := w.appendReason(w.appendReason(nil, a), c)
			acd := w.appendReason(ac, d)
			abc := w.appendReason(ab, c)
			got := [][]Reason{w.appendReason(nil, a), ab, ac, acd, abc}
			want := [][]Reason{{a}, {a, b}, {a, c}, {a, c, d}, {a, b, c}}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("reason lists (-want +got):\n%s", d)
			}
		})
	}
}
