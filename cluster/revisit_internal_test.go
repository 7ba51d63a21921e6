package cluster

import (
	"context"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/internal/redistest"
)

// TestRevisitSentBackAndForth replays, script by script, two agents whose
// rings disagree about a host, each taking its revisit when due and
// sending it to the other at once: one copy must be left, in one of the
// two schedules. (With an add that skipped a URL the schedule had, and a
// removal that did not look, each added it to the other as a no-op, then
// removed it from itself: the revisit was lost.)
func TestRevisitSentBackAndForth(t *testing.T) {
	ctx := context.Background()
	rdb, k, fp, val := revisitRig(t, "pingpong", "a", "b")
	add := func(to string) {
		t.Helper()
		n, err := scriptAddRevisits.EvalSha(ctx, rdb, []string{k.revisits(to), k.revisitReqs(to), k.stream(to)}, fp, 0, val).Int64()
		if err != nil || n != 1 {
			t.Fatalf("adding to %s: %d, %v", to, n, err)
		}
	}
	take := func(a string) {
		t.Helper()
		res, err := scriptDue.EvalSha(ctx, rdb, []string{k.revisits(a), k.revisitReqs(a)}, 10).Slice()
		if err != nil || len(res) != 4 {
			t.Fatalf("%s took %v, %v; want the revisit", a, res, err)
		}
		if err := scriptLeave.EvalSha(ctx, rdb, []string{k.revisits(a)}, fp).Err(); err != nil {
			t.Fatal(err)
		}
	}
	dropLeft := func(a string) {
		t.Helper()
		if err := scriptDropLeft.EvalSha(ctx, rdb, []string{k.revisits(a), k.revisitReqs(a)}, fp).Err(); err != nil {
			t.Fatal(err)
		}
	}
	add("a")  // a's schedule has it, due at once
	take("a") // a takes it, and sends it to b, its owner by a's ring
	add("b")
	take("b") // before a removes it, b takes it, and sends it to a, its owner by b's ring
	add("a")  // it replaces a's leaving copy
	dropLeft("b")
	dropLeft("a") // a's copy is not leaving any more: it stays
	count := 0
	for _, a := range []string{"a", "b"} {
		zs, err := rdb.ZRangeWithScores(ctx, k.revisits(a), 0, -1).Result()
		if err != nil {
			t.Fatal(err)
		}
		for _, z := range zs {
			v, err := rdb.HGet(ctx, k.revisitReqs(a), z.Member.(string)).Result()
			if err != nil {
				t.Fatalf("%s's schedule has the revisit without its request: %v", a, err)
			}
			if got, _, err := decodeRevisit(v); err != nil || string(got.State) != "history" {
				t.Errorf("%s's copy: %+v, %v; want the request with its State", a, got, err)
			}
			if z.Score <= 0 {
				t.Errorf("%s's copy has score %v: taken or leaving, so never handed out again", a, z.Score)
			}
			count++
		}
	}
	if count != 1 {
		t.Errorf("%d copies of the revisit in the two schedules, want 1", count)
	}
}

// TestAddDuringTakeOver replays the race that lost revisits when an agent
// died (TestClusterRecrawlFreshness caught it about once in ten runs under
// load): the agent taking the dead one over has read a revisit and added
// it to its new owner's schedule, but not yet removed it from the dead
// one's; the new owner, whose ring still names the dead agent as the
// host's owner, takes it and sends it back there. Finding its copy there,
// the add used to succeed, the sender dropped its own, the taker removed
// the dead one's: no schedule had it. With the takeover's fence the add
// is refused, and the sender keeps it, taken (it revisits it itself).
func TestAddDuringTakeOver(t *testing.T) {
	ctx := context.Background()
	rdb, k, fp, val := revisitRig(t, "race", "dead", "b")
	add := func(to string) int64 {
		t.Helper()
		n, err := scriptAddRevisits.EvalSha(ctx, rdb, []string{k.revisits(to), k.revisitReqs(to), k.stream(to)}, fp, 0, val).Int64()
		if err != nil {
			t.Fatalf("adding to %s: %v", to, err)
		}
		return n
	}
	if add("dead") != 1 {
		t.Fatal("the dead agent's schedule refused the revisit before any takeover")
	}
	// The takeover begins: the fence, then a batch read and added where
	// it goes.
	if err := rdb.HSet(ctx, k.revisitReqs("dead"), fenceField, "1").Err(); err != nil {
		t.Fatal(err)
	}
	if add("b") != 1 {
		t.Fatal("b's schedule refused the moved revisit")
	}
	// b takes it, due at once, and sends it to the dead agent.
	res, err := scriptDue.EvalSha(ctx, rdb, []string{k.revisits("b"), k.revisitReqs("b")}, 10).Slice()
	if err != nil || len(res) != 4 {
		t.Fatalf("b took %v, %v; want the revisit", res, err)
	}
	if err := scriptLeave.EvalSha(ctx, rdb, []string{k.revisits("b")}, fp).Err(); err != nil {
		t.Fatal(err)
	}
	if n := add("dead"); n != 0 {
		t.Fatalf("adding to a schedule being taken over = %d, want 0 (refused)", n)
	}
	// Refused: b keeps it, taken (as takeDue does with an orphan).
	if err := rdb.ZAddXX(ctx, k.revisits("b"), redis.Z{Score: -1, Member: fp}).Err(); err != nil {
		t.Fatal(err)
	}
	// The takeover removes the batch it moved.
	if err := rdb.ZRem(ctx, k.revisits("dead"), fp).Err(); err != nil {
		t.Fatal(err)
	}
	if err := rdb.HDel(ctx, k.revisitReqs("dead"), fp).Err(); err != nil {
		t.Fatal(err)
	}
	// A late Done of the dead agent (it was only slow) changes nothing.
	n, err := scriptRevisit.EvalSha(ctx, rdb, []string{k.revisits("dead"), k.revisitReqs("dead"), k.stream("dead")}, fp, "1000", val, "").Int64()
	if err != nil || n != 0 {
		t.Errorf("a revisit scheduled by the agent being taken over = %d, %v; want 0 (fenced)", n, err)
	}
	copies := 0
	for _, a := range []string{"dead", "b"} {
		zs, err := rdb.ZRangeWithScores(ctx, k.revisits(a), 0, -1).Result()
		if err != nil {
			t.Fatal(err)
		}
		for _, z := range zs {
			copies++
			if a != "b" || z.Score >= 0 {
				t.Errorf("%s's schedule has the revisit at score %v, want b's, taken (negative)", a, z.Score)
			}
		}
	}
	if copies != 1 {
		t.Errorf("%d copies of the revisit in the two schedules, want 1", copies)
	}
}

// revisitRig starts a Redis with the scripts loaded and the streams of the
// named agents of crawl, for tests that replay the revisit scripts step by
// step, and returns a revisit's fingerprint and encoded request (a page
// with its history).
func revisitRig(t *testing.T, crawl string, agents ...string) (*redis.Client, keys, string, string) {
	t.Helper()
	srv := redistest.Start(t)
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr})
	t.Cleanup(func() { rdb.Close() })
	ctx := context.Background()
	k := keys{crawl}
	for _, a := range agents {
		if err := rdb.XGroupCreateMkStream(ctx, k.stream(a), "trawl", "$").Err(); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range scripts {
		if err := s.Load(ctx, rdb).Err(); err != nil {
			t.Fatal(err)
		}
	}
	req := frontier.Request{URL: "http://h.test/p", Host: "h.test", State: []byte("history")}
	return rdb, k, fpField(frontier.Fingerprint(req.URL)), encodeRevisit(req, req.Host)
}
