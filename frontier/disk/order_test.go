package disk

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/politeness"
)

// TestOrderMatchesMemory replays one random sequence of Pushes and Nexts
// on a disk frontier (with tiny in-memory windows, so most entries come
// from disk) and on frontier.Memory, and wants the same handout order:
// the disk frontier is the same Mercator frontier. Reopened half-way, it
// must hand out the same URLs, each once (the order among hosts whose next
// contact times tie is not kept across a reopen, so the interleaving of
// hosts, and with it refill order, may differ). With boosts, each round
// also boosts random URLs, queued or not, on both: Boost must report the
// same on both, and the order follow the boosts alike.
func TestOrderMatchesMemory(t *testing.T) {
	for _, tc := range []struct {
		name     string
		strategy frontier.Strategy
		reopen   bool
		boost    bool
	}{
		{name: "bfs", strategy: frontier.BFS},
		{name: "priority", strategy: frontier.Priority},
		{name: "bfs reopened", strategy: frontier.BFS, reopen: true},
		{name: "priority reopened", strategy: frontier.Priority, reopen: true},
		{name: "priority boosted", strategy: frontier.Priority, boost: true},
		{name: "priority boosted reopened", strategy: frontier.Priority, boost: true, reopen: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			pol := politeness.Config{MinDelay: -1, Factor: -1}
			mem := frontier.NewMemory(&frontier.MemoryOptions{Strategy: tc.strategy, Workers: 2, Politeness: pol})
			dir := t.TempDir()
			opts := &Options{Strategy: tc.strategy, Workers: 2, Politeness: pol, HeadCache: 2, FrontBuffer: 3, SeenFilterURLs: 1024}
			dsk := open(t, dir, opts)
			defer func() { dsk.Close() }()
			rng := rand.New(rand.NewPCG(3, 4))
			var gotMem, gotDisk []string
			step := func(f frontier.Frontier, out *[]string) error {
				r, err := f.Next(ctx)
				if err != nil {
					return err
				}
				*out = append(*out, r.URL)
				return f.Done(r, frontier.Outcome{Status: 200})
			}
			n, boosted := 0, 0
			var pushed []string
			for round := range 40 {
				if tc.reopen && round == 20 {
					if err := dsk.Close(); err != nil {
						t.Fatal(err)
					}
					dsk = open(t, dir, opts)
				}
				var batch []frontier.Request
				for range rng.IntN(12) {
					batch = append(batch, frontier.Request{
						URL:      fmt.Sprintf("http://h%d.test/p%d", rng.IntN(6), n),
						Depth:    1,
						Priority: float64(rng.IntN(500))/100 + float64(n)*1e-6, // no ties: Memory's heaps are not stable
					})
					n++
				}
				for _, r := range batch {
					pushed = append(pushed, r.URL)
				}
				a, _ := mem.Push(ctx, batch...)
				b, _ := dsk.Push(ctx, batch...)
				if a != b {
					t.Fatalf("round %d: Push added %d on disk, %d in memory", round, b, a)
				}
				for range rng.IntN(8) {
					if !tc.boost || n == 0 {
						break
					}
					u := "http://h0.test/never"
					if i := rng.IntN(len(pushed) + 1); i < len(pushed) {
						u = pushed[i]
					}
					delta := float64(rng.IntN(300))/100 + float64(rng.IntN(1000))*1e-9
					bm, bd := mem.Boost(u, delta), dsk.Boost(u, delta)
					if bm != bd {
						t.Fatalf("round %d: Boost(%s) = %v on disk, %v in memory", round, u, bd, bm)
					}
					if bm {
						boosted++
					}
				}
				for range rng.IntN(10) {
					errM := step(mem, &gotMem)
					errD := step(dsk, &gotDisk)
					if errors.Is(errM, frontier.ErrEmpty) != errors.Is(errD, frontier.ErrEmpty) {
						t.Fatalf("round %d: Next error %v on disk, %v in memory", round, errD, errM)
					}
					if errM != nil {
						break
					}
				}
			}
			for step(mem, &gotMem) == nil {
			}
			for step(dsk, &gotDisk) == nil {
			}
			if tc.boost && boosted < 20 {
				t.Errorf("%d boosts found their URL, want at least 20: the test does not test Boost", boosted)
			}
			if tc.reopen {
				if !slices.Equal(sorted(gotDisk), sorted(gotMem)) {
					t.Errorf("handed out %d URLs (%d distinct), Memory %d", len(gotDisk), len(sorted(gotDisk)), len(gotMem))
				}
				return
			}
			if !slices.Equal(gotDisk, gotMem) {
				i := 0
				for i < min(len(gotDisk), len(gotMem)) && gotDisk[i] == gotMem[i] {
					i++
				}
				t.Errorf("handout order differs from Memory's at %d of %d/%d: disk %v, memory %v",
					i, len(gotDisk), len(gotMem), gotDisk[i:min(i+5, len(gotDisk))], gotMem[i:min(i+5, len(gotMem))])
			}
		})
	}
}

func sorted(s []string) []string {
	s = slices.Compact(slices.Sorted(slices.Values(s)))
	return s
}
