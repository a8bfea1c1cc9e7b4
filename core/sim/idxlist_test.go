package sim

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
)

// TestIdxList checks idxList against a plain slice under random sorted
// inserts, deletions by position and by value, and shares between
// generations: a list shared into a new generation and changed there
// leaves the old one as it was.
func TestIdxList(t *testing.T) {
	cases := map[string]struct {
		seed, ops, values int
	}{
		"small":        {seed: 1, ops: 200, values: 50},
		"a few chunks": {seed: 2, ops: 2000, values: 1000},
		"many chunks":  {seed: 3, ops: 20000, values: 100000},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(tc.seed), 0))
			var l idxList
			var ref []int
			gen := 1
			var snaps []idxList
			var snapRefs [][]int
			for op := range tc.ops {
				switch x := r.IntN(10); {
				case x < 5:
					w := r.IntN(tc.values)
					if slices.Contains(ref, w) {
						continue
					}
					l.insertSorted(gen, w, cmp.Compare[int])
					pos, _ := slices.BinarySearch(ref, w)
					ref = slices.Insert(ref, pos, w)
				case x < 7 && len(ref) > 0:
					pos := r.IntN(len(ref))
					l.deleteAt(gen, pos)
					ref = slices.Delete(ref, pos, pos+1)
				case x == 7 && r.IntN(4) == 0:
					// A batch inserted at once: the list made anew.
					var batch []int
					for range 1 + r.IntN(3*idxChunkMax) {
						if w := r.IntN(tc.values); !slices.Contains(ref, w) && !slices.Contains(batch, w) {
							batch = append(batch, w)
						}
					}
					all := append(l.Slice(), batch...)
					slices.Sort(all)
					l.reset(gen, all)
					ref = slices.Sorted(slices.Values(append(ref, batch...)))
				case x == 7 && r.IntN(3) == 0:
					// Made anew from every other index.
					var keep []int
					for i, w := range ref {
						if i%2 == 0 {
							keep = append(keep, w)
						}
					}
					l.reset(gen, keep)
					ref = keep
				case x < 9:
					w := r.IntN(tc.values)
					got := l.remove(gen, w)
					i := slices.Index(ref, w)
					if got != (i >= 0) {
						t.Fatalf("op %d: remove(%d) = %v, want %v", op, w, got, i >= 0)
					}
					if i >= 0 {
						ref = slices.Delete(ref, i, i+1)
					}
				default:
					// A new generation takes over; keep the old list to
					// check it is never changed again.
					snaps = append(snaps, l)
					snapRefs = append(snapRefs, slices.Clone(ref))
					l = l.share()
					gen++
				}
				if l.Len() != len(ref) {
					t.Fatalf("op %d: Len %d, want %d", op, l.Len(), len(ref))
				}
			}
			if diff := gocmp.Diff(ref, l.Slice()); diff != "" {
				t.Errorf("contents (-want +got):\n%s", diff)
			}
			for i, w := range ref {
				if l.At(i) != w || l.Index(w) != i || !l.Contains(w) {
					t.Fatalf("position %d: At %d, Index(%d) %d", i, l.At(i), w, l.Index(w))
				}
			}
			// searchKey by a key in the list's order: where a value
			// (in the list or not) belongs, as searchBy finds it.
			key := make([]int64, tc.values)
			for w := range key {
				key[w] = int64(w)
			}
			for range 100 {
				w := r.IntN(tc.values)
				want, _ := slices.BinarySearch(ref, w)
				byFunc := l.searchBy(func(x int) int { return cmp.Compare(x, w) })
				if got := l.searchKey(key, int64(w)); got != want || byFunc != want {
					t.Fatalf("searchKey(%d) = %d, searchBy %d, want %d", w, got, byFunc, want)
				}
			}
			var all []int
			l.All(func(w int) bool { all = append(all, w); return true })
			if !slices.Equal(all, ref) {
				t.Errorf("All yields %v, want %v", all, ref)
			}
			for i, s := range snaps {
				if !slices.Equal(s.Slice(), snapRefs[i]) {
					t.Fatalf("generation %d was changed after it was shared", i+1)
				}
			}
			for _, c := range l.chunks {
				if len(c.v) == 0 || len(c.v) >= idxChunkMax {
					t.Fatalf("a chunk of %d indexes", len(c.v))
				}
			}
		})
	}
}
