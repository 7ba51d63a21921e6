package cluster

import (
	"log/slog"
	"slices"
	"strconv"
	"testing"
	"time"
)

// TestSeeKeepsRingForSameMembers: the members' set in Redis comes ordered
// by heartbeat, which changes from one beat to the next; the ring is
// rebuilt (and "membership changed" logged, and the frontier's URLs
// rerouted) only when the set of live agents changes, not their order.
func TestSeeKeepsRingForSameMembers(t *testing.T) {
	a := &Agent{opts: Options{Lease: time.Second}, log: slog.New(slog.DiscardHandler)}
	const now = int64(1_000_000)
	beat := func(names ...string) { // names in heartbeat order, the oldest first
		var flat []any
		for i, n := range names {
			flat = append(flat, n, strconv.FormatInt(now-int64(len(names)-i), 10))
		}
		a.see([]any{now, flat})
	}
	beat("a", "b", "c")
	first := a.ring.Load()
	if first == nil || !slices.Equal(first.Agents(), []string{"a", "b", "c"}) {
		t.Fatalf("ring after the first beat: %v", first)
	}
	beat("c", "a", "b")
	beat("b", "c", "a")
	if a.ring.Load() != first {
		t.Errorf("ring rebuilt for the same three agents in another heartbeat order: %v", a.ring.Load().Agents())
	}
	beat("c", "a")
	if r := a.ring.Load(); r == first || !slices.Equal(r.Agents(), []string{"a", "c"}) {
		t.Errorf("ring after b left: %v, want a new ring of a and c", r.Agents())
	}
}
