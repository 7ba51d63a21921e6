package dedup

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// flipBits returns fp with d distinct random bits flipped.
func flipBits(rng *rand.Rand, fp Fingerprint, d int) Fingerprint {
	for _, b := range rng.Perm(64)[:d] {
		fp ^= 1 << uint(b)
	}
	return fp
}

// TestIndexMatchesBruteForce checks that Query returns exactly the
// brute-force answer, as a multiset, for several k and block counts, on
// random fingerprints plus clusters of nearby ones and exact repeats, at
// sizes that exercise the pending buffer and several merge levels.
func TestIndexMatchesBruteForce(t *testing.T) {
	tests := []struct {
		k, blocks, n int
	}{
		{k: 0, blocks: 1, n: 3000},
		{k: 0, blocks: 2, n: 3000},
		{k: 1, blocks: 3, n: 5000},
		{k: 3, blocks: 4, n: 5000},
		{k: 3, blocks: 5, n: 20000},
		{k: 3, blocks: 6, n: 5000},
		{k: 6, blocks: 8, n: 10000},
		{k: 12, blocks: 14, n: 2000},
		{k: 5, blocks: 7, n: 5000},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("k=%d/blocks=%d/n=%d", tt.k, tt.blocks, tt.n), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tt.k), uint64(tt.blocks)))
			if raceEnabled {
				tt.n /= 4
			}
			x := NewIndexBlocks(tt.k, tt.blocks)
			var stored []Fingerprint
			centers := make([]Fingerprint, 50)
			for i := range centers {
				centers[i] = Fingerprint(rng.Uint64())
			}
			query := func(q Fingerprint) {
				t.Helper()
				got := x.Query(q, nil)
				var want []Fingerprint
				for _, s := range stored {
					if Distance(s, q) <= tt.k {
						want = append(want, s)
					}
				}
				slices.Sort(got)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Fatalf("after %d adds, Query(%#x) = %d results %#x, want %d %#x", len(stored), q, len(got), got, len(want), want)
				}
			}
			for i := 0; i < tt.n; i++ {
				var fp Fingerprint
				switch r := rng.IntN(10); {
				case r < 5:
					fp = Fingerprint(rng.Uint64())
				case r < 9:
					fp = flipBits(rng, centers[rng.IntN(len(centers))], rng.IntN(2*tt.k+2))
				default:
					if len(stored) > 0 {
						fp = stored[rng.IntN(len(stored))] // a repeat
					}
				}
				x.Add(fp)
				stored = append(stored, fp)
				if i%97 == 0 {
					query(flipBits(rng, centers[rng.IntN(len(centers))], rng.IntN(tt.k+3)))
					query(Fingerprint(rng.Uint64()))
				}
			}
			for range 200 {
				query(flipBits(rng, centers[rng.IntN(len(centers))], rng.IntN(tt.k+3)))
				query(flipBits(rng, stored[rng.IntN(len(stored))], rng.IntN(tt.k+2)))
			}
			if got := x.Len(); got != tt.n {
				t.Errorf("Len() = %d, want %d", got, tt.n)
			}
		})
	}
}

func TestNewIndexTables(t *testing.T) {
	tests := []struct {
		k, blocks, tables int
	}{
		{k: 0, blocks: 2, tables: 1},
		{k: 3, blocks: 5, tables: 10},
		{k: 3, blocks: 4, tables: 4},
		{k: 6, blocks: 8, tables: 28},
	}
	for _, tt := range tests {
		x := NewIndexBlocks(tt.k, tt.blocks)
		if got := x.Tables(); got != tt.tables {
			t.Errorf("NewIndexBlocks(%d, %d).Tables() = %d, want %d", tt.k, tt.blocks, got, tt.tables)
		}
		if got := x.K(); got != tt.k {
			t.Errorf("NewIndexBlocks(%d, %d).K() = %d, want %d", tt.k, tt.blocks, got, tt.k)
		}
	}
	for k, want := range map[int]int{0: 1, 3: 4, 4: 15, 6: 28} {
		if got := NewIndex(k).Tables(); got != want {
			t.Errorf("NewIndex(%d).Tables() = %d, want %d", k, got, want)
		}
	}
}

func TestIndexPanics(t *testing.T) {
	tests := []struct {
		name string
		f    func()
	}{
		{name: "NewIndex(-1)", f: func() { NewIndex(-1) }},
		{name: "NewIndex(MaxK+1)", f: func() { NewIndex(MaxK + 1) }},
		{name: "NewIndexBlocks(3, 3)", f: func() { NewIndexBlocks(3, 3) }},
		{name: "NewIndexBlocks(3, 17)", f: func() { NewIndexBlocks(3, 17) }},
		{name: "NewIndexBlocks(8, 16)", f: func() { NewIndexBlocks(8, 16) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", tt.name)
				}
			}()
			tt.f()
		})
	}
}

// TestIndexConcurrent runs adds and queries at once; with -race it checks
// the locking, and afterwards every added fingerprint must be found.
func TestIndexConcurrent(t *testing.T) {
	x := NewIndex(3)
	const writers, per = 4, 2000
	var wg sync.WaitGroup
	added := make([][]Fingerprint, writers)
	for w := range writers {
		wg.Add(2)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 1))
			for range per {
				fp := Fingerprint(rng.Uint64())
				x.Add(fp)
				added[w] = append(added[w], fp)
			}
		}()
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 2))
			var buf []Fingerprint
			for range per {
				buf = x.Query(Fingerprint(rng.Uint64()), buf[:0])
			}
		}()
	}
	wg.Wait()
	if got := x.Len(); got != writers*per {
		t.Fatalf("Len() = %d, want %d", got, writers*per)
	}
	for _, fps := range added {
		for _, fp := range fps {
			if got := x.Query(fp, nil); !slices.Contains(got, fp) {
				t.Fatalf("Query(%#x) = %#x, want it to contain the added fingerprint", fp, got)
			}
		}
	}
}
