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
	srv := redistest.Start(t)
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr})
	defer rdb.Close()
	ctx := context.Background()
	k := keys{"pingpong"}
	for _, a := range []string{"a", "b"} {
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
	fp := fpField(frontier.Fingerprint(req.URL))
	val := encodeRevisit(req, req.Host)
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
