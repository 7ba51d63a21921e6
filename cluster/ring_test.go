package cluster

import (
	"fmt"
	"math"
	"testing"
)

func testHosts(n int) []string {
	hosts := make([]string, n)
	for i := range hosts {
		hosts[i] = fmt.Sprintf("host%d.example.org", i)
	}
	return hosts
}

func agentNames(prefix string, n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("%s%d", prefix, i)
	}
	return names
}

// TestRingEquity checks that 8 agents each own within ±10 % of an eighth
// of 200,000 hosts, for several sets of agent names.
func TestRingEquity(t *testing.T) {
	hosts := testHosts(200_000)
	for _, prefix := range []string{"agent-", "crawler", "node.", "worker-eu-", "x"} {
		t.Run(prefix, func(t *testing.T) {
			r := NewRing(agentNames(prefix, 8), 0)
			count := map[string]int{}
			for _, h := range hosts {
				count[r.Owner(h)]++
			}
			if len(count) != 8 {
				t.Fatalf("%d agents own hosts, want 8", len(count))
			}
			fair := float64(len(hosts)) / 8
			worst := 0.0
			for a, n := range count {
				dev := float64(n)/fair - 1
				worst = max(worst, math.Abs(dev))
				if math.Abs(dev) > 0.10 {
					t.Errorf("agent %s owns %d hosts, %.1f %% off the fair %.0f", a, n, 100*dev, fair)
				}
			}
			t.Logf("worst deviation from a fair share: %.2f %%", 100*worst)
		})
	}
}

// TestRingJoinMovesOnlyTakenHosts checks that a joining agent takes hosts
// only for itself (no host moves between old agents) and about its share,
// and that a leaving agent's hosts are the only ones that move.
func TestRingJoinMovesOnlyTakenHosts(t *testing.T) {
	hosts := testHosts(50_000)
	tests := []struct {
		name   string
		before int
	}{
		{name: "1to2", before: 1},
		{name: "3to4", before: 3},
		{name: "8to9", before: 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old := NewRing(agentNames("a", tt.before), 0)
			joined := append(agentNames("a", tt.before), "newcomer")
			nw := NewRing(joined, 0)
			moved := 0
			for _, h := range hosts {
				was, is := old.Owner(h), nw.Owner(h)
				if was == is {
					continue
				}
				moved++
				if is != "newcomer" {
					t.Fatalf("host %s moved from %s to %s, not to the newcomer", h, was, is)
				}
			}
			want := float64(len(hosts)) / float64(tt.before+1)
			if d := float64(moved)/want - 1; math.Abs(d) > 0.10 {
				t.Errorf("newcomer took %d hosts, want about %.0f (±10 %%)", moved, want)
			}
			// The reverse: the newcomer leaves, and only its hosts move.
			for _, h := range hosts {
				if nw.Owner(h) != "newcomer" && nw.Owner(h) != old.Owner(h) {
					t.Fatalf("host %s owned by %s with the newcomer, %s without", h, nw.Owner(h), old.Owner(h))
				}
			}
		})
	}
}

func TestRingEdges(t *testing.T) {
	if got := NewRing(nil, 0).Owner("h"); got != "" {
		t.Errorf("empty ring: Owner = %q, want \"\"", got)
	}
	r := NewRing([]string{"b", "a", "b"}, 4)
	if r.Len() != 2 {
		t.Errorf("Len = %d, want 2 (duplicates ignored)", r.Len())
	}
	same := NewRing([]string{"a", "b"}, 4)
	for _, h := range testHosts(1000) {
		if r.Owner(h) != same.Owner(h) {
			t.Fatalf("Owner(%q) depends on the order of agents", h)
		}
	}
}

func BenchmarkRingOwner(b *testing.B) {
	for _, n := range []int{8, 100} {
		b.Run(fmt.Sprintf("agents=%d", n), func(b *testing.B) {
			r := NewRing(agentNames("agent-", n), 0)
			hosts := testHosts(1024)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				r.Owner(hosts[i&1023])
				i++
			}
		})
	}
}
