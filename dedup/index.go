package dedup

import (
	"fmt"
	"math/bits"
	"slices"
	"sync"
)

// An Index stores simhash fingerprints and finds every stored fingerprint
// within Hamming distance k of a query without scanning them all, with the
// permuted-tables scheme of Manku, Jain and Das Sarma, "Detecting
// Near-Duplicates for Web Crawling" (WWW 2007).
//
// The 64 bits are cut into B blocks. Two fingerprints at distance at most k
// differ in at most k blocks, so at least B-k blocks agree exactly
// (pigeonhole). For every choice of B-k blocks the Index keeps one table of
// the fingerprints with their bits permuted so that the chosen blocks come
// first, sorted; a query looks up, in each table, the few fingerprints that
// share its chosen blocks and checks their distance. NewIndexBlocks trades
// memory (C(B, k) tables of 8 bytes per fingerprint) against the candidates
// checked per query (about n/2^(64(B-k)/B) per table); NewIndex picks B (for
// k = 3: 4 tables keyed on 16 bits, 32 bytes per fingerprint).
//
// Each table is a small log-structured merge tree of sorted runs (size ratio
// 8), so that Add costs amortised O(tables · log n) element moves and a
// query O(tables · log n) lookups plus the candidates; large runs carry a
// directory on their top bits, so that a lookup costs a few cache misses.
// The most recent additions wait in a short unsorted buffer that queries
// scan.
//
// An Index is a multiset: a fingerprint added twice is reported twice. It is
// safe for concurrent use; queries run in parallel with each other, and Add
// excludes them (an Add that merges large runs holds the lock for longer).
type Index struct {
	mu      sync.RWMutex
	k       int
	blocks  int
	tables  []table
	pending []uint64 // newest fingerprints, not yet in the tables, unsorted
	first   []uint16 // first[agreeing-block mask] = first table whose key blocks all agree
	start   []int    // start[b] = lowest bit of block b
	size    []int    // size[b] = bits in block b
	n       int
	scratch []uint64
}

const (
	pendingMax = 64  // fingerprints buffered before they enter the tables
	level0Max  = 512 // capacity of the first run; each next run is 8 times larger
)

// move copies one block of bits from position src to position dst.
type move struct {
	mask     uint64
	src, dst uint8
}

type table struct {
	perm, inv []move
	keyShift  uint8 // permuted >> keyShift is the table key
	levels    []run
}

// run is one sorted level of a table. Large runs carry a directory: dir[b]
// is the index of the first value whose top dirBits bits are >= b, so that a
// lookup touches a few cache lines instead of binary-searching megabytes.
type run struct {
	vals    []uint64
	dir     []uint32
	dirBits uint8
}

// dirMin is the length from which a run gets a directory.
const dirMin = 1024

// index rebuilds r's directory after r.vals changed.
func (r *run) index() {
	if len(r.vals) < dirMin {
		r.dir, r.dirBits = r.dir[:0], 0
		return
	}
	b := uint8(bits.Len(uint(len(r.vals) / 32))) // about 16 values per bucket
	r.dirBits = b
	n := 1<<b + 1
	if cap(r.dir) < n {
		r.dir = make([]uint32, n)
	}
	r.dir = r.dir[:n]
	shift := 64 - b
	bucket := 0
	for i, v := range r.vals {
		for top := int(v >> shift); bucket <= top; bucket++ {
			r.dir[bucket] = uint32(i)
		}
	}
	for ; bucket < n; bucket++ {
		r.dir[bucket] = uint32(len(r.vals))
	}
}

// search returns an index at or before the first value >= v and after every
// value of a smaller directory bucket: with a directory, the start of v's
// bucket (callers skip the few smaller values); without, the exact position.
func (r *run) search(v uint64) int {
	if r.dirBits == 0 {
		i, _ := slices.BinarySearch(r.vals, v)
		return i
	}
	return int(r.dir[v>>(64-r.dirBits)])
}

// span is one run's share of a query: where its candidates start and the
// range of permuted values to accept.
type span struct {
	table, level uint32
	start        int
	lo, hi, pq   uint64
}

func permute(x uint64, ms []move) uint64 {
	var y uint64
	for _, m := range ms {
		y |= (x >> m.src & m.mask) << m.dst
	}
	return y
}

// NewIndex returns an empty Index that finds fingerprints within Hamming
// distance k, 0 <= k <= MaxK. It uses k+1 blocks (k+1 tables keyed on at
// least 16 bits) for k <= 3 and k+2 blocks (C(k+2, 2) tables keyed on two
// blocks) above, which measured fastest for indexes of one to ten million
// fingerprints. It panics if k is out of range.
func NewIndex(k int) *Index {
	if k < 0 || k > MaxK {
		panic(fmt.Sprintf("dedup: NewIndex(%d): k must be between 0 and %d", k, MaxK))
	}
	if k <= 3 {
		return NewIndexBlocks(k, k+1)
	}
	return NewIndexBlocks(k, k+2)
}

// NewIndexBlocks returns an empty Index for distance k that cuts fingerprints
// into blocks blocks and keeps C(blocks, k) tables. It panics unless
// 0 <= k <= MaxK, k < blocks <= 16 and C(blocks, k) <= 1024.
func NewIndexBlocks(k, blocks int) *Index {
	if k < 0 || k > MaxK || blocks <= k || blocks > 16 || binomial(blocks, k) > 1024 {
		panic(fmt.Sprintf("dedup: NewIndexBlocks(%d, %d): want 0 <= k <= %d, k < blocks <= 16 and at most 1024 tables", k, blocks, MaxK))
	}
	// Block b covers bits [start[b], start[b]+size[b]), block 0 the highest.
	size := make([]int, blocks)
	start := make([]int, blocks)
	top := 64
	for b := range size {
		size[b] = 64 / blocks
		if b < 64%blocks {
			size[b]++
		}
		top -= size[b]
		start[b] = top
	}
	x := &Index{k: k, blocks: blocks, first: make([]uint16, 1<<blocks)}
	x.start = start
	x.size = size
	keep := blocks - k
	var sets []uint32
	for set := uint32(0); set < 1<<blocks; set++ {
		if bits.OnesCount32(set) != keep {
			continue
		}
		// Order: the kept blocks, then the others, highest first.
		var t table
		dst, keyBits := 64, 0
		for pass := 0; pass < 2; pass++ {
			for b := 0; b < blocks; b++ {
				if (set>>b&1 == 1) != (pass == 0) {
					continue
				}
				dst -= size[b]
				m := uint64(1)<<size[b] - 1
				t.perm = append(t.perm, move{mask: m, src: uint8(start[b]), dst: uint8(dst)})
				t.inv = append(t.inv, move{mask: m, src: uint8(dst), dst: uint8(start[b])})
				if pass == 0 {
					keyBits += size[b]
				}
			}
		}
		t.keyShift = uint8(64 - keyBits)
		x.tables = append(x.tables, t)
		sets = append(sets, set)
	}
	for z := range x.first {
		x.first[z] = uint16(len(sets)) // no table: fewer than blocks-k blocks agree
		for i, set := range sets {
			if uint32(z)&set == set {
				x.first[z] = uint16(i)
				break
			}
		}
	}
	return x
}

func binomial(n, k int) int {
	c := 1
	for i := 0; i < k; i++ {
		c = c * (n - i) / (i + 1)
	}
	return c
}

// agreeMask returns the set of blocks in which a and b agree.
func (x *Index) agreeMask(a, b uint64) int {
	d := a ^ b
	z := 0
	for i, st := range x.start {
		if d>>uint(st)&(uint64(1)<<x.size[i]-1) == 0 {
			z |= 1 << i
		}
	}
	return z
}

// K returns the Hamming distance the Index searches within.
func (x *Index) K() int { return x.k }

// Tables returns the number of permuted tables, C(blocks, k).
func (x *Index) Tables() int { return len(x.tables) }

// Len returns the number of fingerprints added.
func (x *Index) Len() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.n
}

// Add stores fp.
func (x *Index) Add(fp Fingerprint) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.n++
	x.pending = append(x.pending, uint64(fp))
	if len(x.pending) >= pendingMax {
		x.flush()
	}
}

// flush moves the pending fingerprints into every table.
func (x *Index) flush() {
	for ti := range x.tables {
		t := &x.tables[ti]
		pend := x.scratch[:0]
		for _, fp := range x.pending {
			pend = append(pend, permute(fp, t.perm))
		}
		slices.Sort(pend)
		x.scratch = pend
		if len(t.levels) == 0 {
			t.levels = append(t.levels, run{})
		}
		t.levels[0].vals = mergeInto(t.levels[0].vals, pend)
		// Cascade: a level over its limit is merged into the next one.
		l, limit := 0, level0Max
		for len(t.levels[l].vals) > limit {
			if l+1 == len(t.levels) {
				t.levels = append(t.levels, run{})
			}
			t.levels[l+1].vals = mergeInto(t.levels[l+1].vals, t.levels[l].vals)
			t.levels[l].vals = t.levels[l].vals[:0]
			t.levels[l].index()
			l, limit = l+1, limit*8
		}
		t.levels[l].index()
	}
	x.pending = x.pending[:0]
}

// mergeInto merges the sorted slice src into the sorted slice dst, growing
// dst in place (backwards merge), and returns dst.
func mergeInto(dst, src []uint64) []uint64 {
	i, j := len(dst)-1, len(src)-1
	dst = slices.Grow(dst, len(src))[:len(dst)+len(src)]
	for w := len(dst) - 1; j >= 0; w-- {
		if i >= 0 && dst[i] > src[j] {
			dst[w] = dst[i]
			i--
		} else {
			dst[w] = src[j]
			j--
		}
	}
	return dst
}

// Query appends to dst every stored fingerprint within Hamming distance K of
// fp, in no particular order, and returns the extended slice. It allocates
// nothing when dst has room.
func (x *Index) Query(fp Fingerprint, dst []Fingerprint) []Fingerprint {
	q := uint64(fp)
	x.mu.RLock()
	defer x.mu.RUnlock()
	for _, c := range x.pending {
		if bits.OnesCount64(c^q) <= x.k {
			dst = append(dst, Fingerprint(c))
		}
	}
	// Two passes over batches of (table, run) pairs: first find where each
	// run's candidates start, then scan them. The first pass's loads do not
	// depend on each other, so the processor overlaps their cache misses.
	var batch [64]span
	nb := 0
	flush := func() {
		for _, sp := range batch[:nb] {
			t := &x.tables[sp.table]
			vals := t.levels[sp.level].vals
			for i := sp.start; i < len(vals) && vals[i] <= sp.hi; i++ {
				if vals[i] < sp.lo || bits.OnesCount64(vals[i]^sp.pq) > x.k {
					continue
				}
				c := permute(vals[i], t.inv)
				// Report c from the first table in which it is a candidate only.
				if int(x.first[x.agreeMask(c, q)]) == int(sp.table) {
					dst = append(dst, Fingerprint(c))
				}
			}
		}
		nb = 0
	}
	for ti := range x.tables {
		t := &x.tables[ti]
		pq := permute(q, t.perm)
		low := uint64(1)<<t.keyShift - 1
		lo, hi := pq&^low, pq|low
		for ri := range t.levels {
			if nb == len(batch) {
				flush()
			}
			r := &t.levels[ri]
			i := r.search(lo)
			if i < len(r.vals) && r.vals[i] <= hi {
				// Touching vals[i] here starts its cache miss early.
				batch[nb] = span{table: uint32(ti), level: uint32(ri), start: i, lo: lo, hi: hi, pq: pq}
				nb++
			}
		}
	}
	flush()
	return dst
}

// Bytes returns the approximate number of bytes of memory the Index holds
// for its fingerprints (the capacity of its runs and buffers).
func (x *Index) Bytes() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	n := 8 * (cap(x.pending) + cap(x.scratch))
	for _, t := range x.tables {
		for _, r := range t.levels {
			n += 8*cap(r.vals) + 4*cap(r.dir)
		}
	}
	return n
}
