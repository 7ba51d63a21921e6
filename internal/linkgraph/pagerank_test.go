package linkgraph

import (
	"math"
	"testing"
)

// TestPageRank checks PageRank on graphs whose ranks are known: a cycle
// (every page equal), a star (the centre holds most), and a page with no
// links (its rank spread over all).
func TestPageRank(t *testing.T) {
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-6 } // 100 iterations
	cycle := PageRank([][]int{{1}, {2}, {0}}, []bool{true, true, true})
	for p, r := range cycle {
		if !near(r, 1.0/3) {
			t.Errorf("cycle: page %d has %v, want 1/3", p, r)
		}
	}
	// Pages 1..3 link to 0, and 0 to all of them.
	star := PageRank([][]int32{{1, 2, 3}, {0}, {0}, {0}}, []bool{true, true, true, true})
	// Stationary: c = 0.15/4 + 0.85*(3 l), l = 0.15/4 + 0.85*c/3.
	c := (0.15/4 + 0.85*3*0.15/4) / (1 - 0.85*0.85)
	if !near(star[0], c) {
		t.Errorf("star: centre has %v, want %v", star[0], c)
	}
	sum := 0.0
	for _, r := range star {
		sum += r
	}
	if !near(sum, 1) {
		t.Errorf("star: ranks sum to %v, want 1", sum)
	}
	// Page 1 has no links; page 2 is outside the subgraph.
	dang := PageRank([][]int{{1}, {}, {0}}, []bool{true, true, false})
	if dang[2] != 0 {
		t.Errorf("a page outside the subgraph has %v, want 0", dang[2])
	}
	// r0 = 0.075 + 0.85 r1/2, r1 = 0.075 + 0.85 (r0 + r1/2), r0 + r1 = 1.
	r1 := (1 - 0.075) / (1 + 0.425)
	if !near(dang[1], r1) || !near(dang[0]+dang[1], 1) {
		t.Errorf("dangling: ranks %v, want page 1 at %v and a sum of 1", dang[:2], r1)
	}
}
