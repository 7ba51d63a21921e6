package cluster

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/trawl-dev/trawl/frontier"
)

// EncodeBatchForTest encodes requests as a stream entry's value.
func EncodeBatchForTest(reqs []frontier.Request) string { return encodeBatch(reqs) }

// Abandon stops the agent as SIGKILL would: its goroutines end, nothing
// is written to Redis, its registration and stream stay for the others to
// find dead.
func (a *Agent) Abandon() {
	if f := a.front.Load(); f != nil {
		f.stop()
		f.wg.Wait()
	}
	a.stop()
	a.wg.Wait()
	a.closeOnce.Do(func() {})
}

// SetOnWaitForTest makes Next call fn, before it requeues the request, with
// the host and the wait of every request whose host Redis refused (another
// agent holds it, or its next contact time is ahead). Call it before the
// frontier's first Next.
func SetOnWaitForTest(f frontier.Frontier, fn func(host string, wait time.Duration)) {
	f.(*Frontier).onWait = fn
}

// SetOnWatchForTest makes the agent call fn at the end of each round of
// its watch loop, with whether the round found the crawl over.
func (a *Agent) SetOnWatchForTest(fn func(over bool)) { a.onWatch.Store(&fn) }

// SetOnAcceptForTest makes the frontier's stream reader call fn each time
// it has taken in a stream entry: its URLs in the local frontier, its cash
// placed.
func SetOnAcceptForTest(f frontier.Frontier, fn func()) { f.(*Frontier).onAccept.Store(&fn) }

// SetOnGrantForTest makes Next call fn with every request it hands out and
// the time, on Redis's clock, at which Redis leased its host for it. Call
// it before the frontier's first Next.
func SetOnGrantForTest(f frontier.Frontier, fn func(req frontier.Request, at time.Time)) {
	f.(*Frontier).onGrant = fn
}

// LeaseEndsForTest returns the ends, on Redis's clock, of the leases on
// host in crawl's state in Redis, live or run out.
func LeaseEndsForTest(ctx context.Context, rdb redis.UniversalClient, crawl, host string) ([]time.Time, error) {
	m, err := rdb.HGetAll(ctx, keys{crawl}.host(host)).Result()
	if err != nil {
		return nil, err
	}
	var out []time.Time
	for k, v := range m {
		if !strings.HasPrefix(k, "lease ") {
			continue
		}
		ms, err := strconv.ParseInt(strings.Fields(v)[0], 10, 64)
		if err != nil {
			return nil, err
		}
		out = append(out, time.UnixMilli(ms))
	}
	return out, nil
}

// QueueForTest sends reqs to the streams of their hosts' owners as Push
// does, without asking whether the crawl knows them: a URL queued twice,
// as two agents that push it at once may leave it.
func (a *Agent) QueueForTest(ctx context.Context, reqs ...frontier.Request) error {
	return a.send(ctx, reqs, nil)
}

// SetOnIPFreeForTest makes Done call fn when a fetch that was the last of
// the agent's under an address's lease has ended, before the lease is
// released in Redis.
func SetOnIPFreeForTest(f frontier.Frontier, fn func()) { f.(*Frontier).onIPFree = fn }

// ScheduledForTest returns, for each URL in the revisit schedule of any
// agent of crawl, in how many schedules it is, and the number of
// fingerprints in the schedules' sorted sets that have no request.
func ScheduledForTest(ctx context.Context, rdb redis.UniversalClient, crawl string) (map[string]int, int, error) {
	k := keys{crawl}
	out := map[string]int{}
	orphans := 0
	iter := rdb.Scan(ctx, 0, k.revisits("*"), 0).Iterator()
	for iter.Next(ctx) {
		set := iter.Val()
		agent := strings.TrimSuffix(strings.TrimPrefix(set, "trawl:v:{"+crawl+":"), "}")
		fps, err := rdb.ZRange(ctx, set, 0, -1).Result()
		if err != nil {
			return nil, 0, err
		}
		if len(fps) == 0 {
			continue
		}
		vals, err := rdb.HMGet(ctx, k.revisitReqs(agent), fps...).Result()
		if err != nil {
			return nil, 0, err
		}
		for _, v := range vals {
			s, _ := v.(string)
			req, _, err := decodeRevisit(s)
			if err != nil {
				orphans++
				continue
			}
			out[req.URL]++
		}
	}
	return out, orphans, iter.Err()
}

// RevisitKeysForTest returns the names of the Redis keys of an agent's
// revisit schedule: its sorted set and its hash.
func RevisitKeysForTest(crawl, agent string) (set, hash string) {
	k := keys{crawl}
	return k.revisits(agent), k.revisitReqs(agent)
}
