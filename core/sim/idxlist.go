package sim

import "slices"

// idxList is a sequence of workload indexes (a ClusterQueue's heap, its
// parked set, the workloads holding its quota) stored in chunks that are
// copied on write, so that a State's copy of a queue costs one pointer per
// chunk, not one int per workload, and a change copies one chunk. A chunk
// is written in place only by the State generation that made it
// (idxChunk.gen); any other generation copies it first, as
// State.mutWorkload does for workloads.
//
// The zero value is an empty list.
type idxList struct {
	chunks []*idxChunk
	n      int
	// ver grows at every change: a list with the version it had earlier
	// in its State's history has the same contents.
	ver uint64
	// spare is the last chunk of a list that became empty, kept for
	// the next insertion if its generation still owns it (a parked set
	// empties and fills again all the time).
	spare *idxChunk
}

type idxChunk struct {
	gen int
	v   []int
}

// idxChunkMax is the size at which a chunk splits in two. A chunk's
// array has room for that many, so that inserting into it never moves it.
const idxChunkMax = 128

// newChunkArray returns a chunk's array holding v.
func newChunkArray(v []int) []int {
	return append(make([]int, 0, idxChunkMax), v...)
}

// Len returns the number of indexes.
func (l *idxList) Len() int { return l.n }

// All yields the indexes in order.
func (l *idxList) All(yield func(int) bool) {
	for _, c := range l.chunks {
		for _, w := range c.v {
			if !yield(w) {
				return
			}
		}
	}
}

// At returns the index at position i.
func (l *idxList) At(i int) int {
	for _, c := range l.chunks {
		if i < len(c.v) {
			return c.v[i]
		}
		i -= len(c.v)
	}
	panic("idxList.At: position out of range")
}

// First returns the first index; the list must not be empty.
func (l *idxList) First() int { return l.chunks[0].v[0] }

// Index returns the position of w, or -1.
// Not inlined: one copy of its code serves its callers (the size of
// the page's WebAssembly).
//
//go:noinline
func (l *idxList) Index(w int) int {
	pos := 0
	for _, c := range l.chunks {
		if i := slices.Index(c.v, w); i >= 0 {
			return pos + i
		}
		pos += len(c.v)
	}
	return -1
}

// Contains reports whether w is in the list.
func (l *idxList) Contains(w int) bool { return l.Index(w) >= 0 }

// Slice returns a new slice of the indexes in order.
func (l *idxList) Slice() []int {
	out := make([]int, 0, l.n)
	for _, c := range l.chunks {
		out = append(out, c.v...)
	}
	return out
}

// share returns a list with the same contents whose chunks are shared with
// l: writing either copies the chunk it changes (a generation that does
// not own a chunk never writes it in place).
func (l *idxList) share() idxList {
	return idxList{chunks: slices.Clone(l.chunks), n: l.n, ver: l.ver}
}

// search returns the position where w belongs in a list ordered by cmp
// (the first position whose index is not before w), as
// slices.BinarySearchFunc does.
func (l *idxList) search(w int, cmp func(a, b int) int) int {
	return l.searchBy(func(x int) int { return cmp(x, w) })
}

// searchBy returns the first position whose index x has before(x) >= 0,
// in a list where before is increasing (before(x) compares x with what
// is looked for, which is computed once).
func (l *idxList) searchBy(before func(x int) int) int {
	// The first chunk whose last index is not before the target holds
	// the position.
	lo, hi := 0, len(l.chunks)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if c := l.chunks[m]; before(c.v[len(c.v)-1]) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	pos := 0
	for _, c := range l.chunks[:lo] {
		pos += len(c.v)
	}
	if lo == len(l.chunks) {
		return pos
	}
	v := l.chunks[lo].v
	i, j := 0, len(v)
	for i < j {
		m := int(uint(i+j) >> 1)
		if before(v[m]) < 0 {
			i = m + 1
		} else {
			j = m
		}
	}
	return pos + i
}

// searchKey returns the first position whose index x has key[x] >= k,
// in a list ordered by key: searchBy for a key that is a number, without
// a call per comparison.
func (l *idxList) searchKey(key []int64, k int64) int {
	lo, hi := 0, len(l.chunks)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if c := l.chunks[m]; key[c.v[len(c.v)-1]] < k {
			lo = m + 1
		} else {
			hi = m
		}
	}
	pos := 0
	for _, c := range l.chunks[:lo] {
		pos += len(c.v)
	}
	if lo == len(l.chunks) {
		return pos
	}
	v := l.chunks[lo].v
	i, j := 0, len(v)
	for i < j {
		m := int(uint(i+j) >> 1)
		if key[v[m]] < k {
			i = m + 1
		} else {
			j = m
		}
	}
	return pos + i
}

// mutChunk returns chunk k for writing by generation gen.
func (l *idxList) mutChunk(gen, k int) *idxChunk {
	c := l.chunks[k]
	if c.gen != gen {
		c = &idxChunk{gen: gen, v: newChunkArray(c.v)}
		l.chunks[k] = c
	}
	return c
}

// locate returns the chunk holding position pos and the offset in it; for
// pos == Len, the last chunk and its length (or -1 for an empty list).
func (l *idxList) locate(pos int) (int, int) {
	for k, c := range l.chunks {
		if pos < len(c.v) {
			return k, pos
		}
		pos -= len(c.v)
	}
	if len(l.chunks) == 0 {
		return -1, 0
	}
	k := len(l.chunks) - 1
	return k, len(l.chunks[k].v) + pos
}

// insert puts w at position pos, writing as generation gen.
func (l *idxList) insert(gen, pos, w int) {
	l.ver++
	k, off := l.locate(pos)
	if k < 0 {
		c := l.spare
		if c == nil || c.gen != gen {
			c = &idxChunk{gen: gen, v: make([]int, 0, idxChunkMax)}
		}
		l.spare = nil
		c.v = append(c.v[:0], w)
		l.chunks = append(l.chunks, c)
		l.n = 1
		return
	}
	c := l.mutChunk(gen, k)
	c.v = slices.Insert(c.v, off, w)
	l.n++
	if len(c.v) >= idxChunkMax {
		half := len(c.v) / 2
		tail := &idxChunk{gen: gen, v: newChunkArray(c.v[half:])}
		c.v = c.v[:half]
		l.chunks = slices.Insert(l.chunks, k+1, tail)
	}
}

// insertSorted puts w where it belongs in a list ordered by cmp.
func (l *idxList) insertSorted(gen, w int, cmp func(a, b int) int) {
	l.insert(gen, l.search(w, cmp), w)
}

// deleteAt removes the index at position pos, writing as generation gen.
func (l *idxList) deleteAt(gen, pos int) {
	l.ver++
	k, off := l.locate(pos)
	c := l.mutChunk(gen, k)
	c.v = slices.Delete(c.v, off, off+1)
	l.n--
	if len(c.v) == 0 {
		l.chunks = slices.Delete(l.chunks, k, k+1)
		if l.n == 0 {
			l.spare = c
		}
	}
}

// remove removes w if present and reports whether it was.
func (l *idxList) remove(gen, w int) bool {
	i := l.Index(w)
	if i < 0 {
		return false
	}
	l.deleteAt(gen, i)
	return true
}

// reset makes the list hold ws (in that order), writing as generation
// gen; ws is not kept. It is how many insertions at once are made
// (requeueTree).
func (l *idxList) reset(gen int, ws []int) {
	l.ver++
	if len(l.chunks) > 0 && l.chunks[0].gen == gen {
		l.spare = l.chunks[0]
	}
	clear(l.chunks)
	l.chunks, l.n = l.chunks[:0], 0
	l.appendAll(gen, ws)
}

// appendAll appends ws to the list in new chunks, each filled to half
// the size at which a chunk splits.
func (l *idxList) appendAll(gen int, ws []int) {
	for len(ws) > 0 {
		k := min(len(ws), idxChunkMax/2)
		l.chunks = append(l.chunks, &idxChunk{gen: gen, v: newChunkArray(ws[:k])})
		l.n += k
		ws = ws[k:]
	}
}
