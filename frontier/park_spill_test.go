package frontier

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/trawl-dev/trawl/politeness"
)

// inBackQueues counts the entries back queues hold in memory (all but
// the spilled blocks of DFS's deep queues). It panics if Memory.over, kept as they come and go, is not the number of
// them beyond backCap per host.
func (m *Memory) inBackQueues() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n, over := 0, 0
	for _, hi := range m.hosts {
		if hi.back != nil {
			n += m.backLen(hi) - hi.deepLen()
			over += max(m.backLen(hi)-hi.deepLen()-backCap, 0)
			if hi.deep != nil {
				for _, s := range hi.deep.segs {
					if s.b != nil {
						for _, e := range s.b {
							if e.host != nil {
								n++
							}
						}
					}
				}
			}
		}
	}
	if m.sp != nil && over != m.over {
		panic(fmt.Sprintf("frontier: over = %d, but the back queues hold %d URLs beyond backCap", m.over, over))
	}
	return n
}

// TestParkedHostsLeaveSpilledURLsOnDisk: when the front queues spill and a
// host with a back queue is parked (it rests long), the room it leaves is
// for a host without a back queue. Refill must not fill it by moving the
// spilled URLs of the hosts that already have one into their back queues,
// in memory (which is what the first version of parking did, and the soak
// saw as a live heap that grew). Under BFS and DFS, two hosts with 3,000
// URLs each, two back queues: while one host is parked, the back queues
// hold a handful of URLs at every step, the rest stays spilled, and every
// URL is still handed out once. (Once one host is left, fewer hosts than
// back queues, it takes every URL from the front queues, as it would
// without parking.)
func TestParkedHostsLeaveSpilledURLsOnDisk(t *testing.T) {
	for _, strategy := range []Strategy{BFS, DFS} {
		t.Run(fmt.Sprint(strategy), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				const perHost = 3000
				m := NewMemory(&MemoryOptions{
					Strategy: strategy, Workers: 1, BackQueues: 2, SpillDir: t.TempDir(),
					Politeness: politeness.Config{MinDelay: time.Millisecond, Factor: -1},
				})
				defer m.Close()
				ctx := context.Background()
				var reqs []Request
				for i := range perHost {
					for _, h := range []string{"a", "b"} {
						reqs = append(reqs, Request{URL: fmt.Sprintf("http://%s.test/%d", h, i)})
					}
				}
				if _, err := m.Push(ctx, reqs...); err != nil {
					t.Fatal(err)
				}
				r, err := m.Next(ctx)
				if err != nil {
					t.Fatal(err)
				}
				parkedHost := r.Host
				// Its robots.txt asks for an hour: capped at 5 min, more
				// than MaxDelay, so the host is parked.
				if err := m.Done(r, Outcome{Status: 200, Retry: true, CrawlDelay: time.Hour}); err != nil {
					t.Fatal(err)
				}
				if m.parked != 1 {
					t.Fatalf("%d hosts parked after %s's one-hour Crawl-delay, want 1", m.parked, parkedHost)
				}
				if n, spilled := m.inBackQueues(), m.SpillStats().Entries; n > 4 || spilled < perHost {
					t.Fatalf("after parking %s: %d URLs in back queues (want at most 4), %d spilled", parkedHost, n, spilled)
				}
				seen := make(map[string]bool)
				most := 0
				for range 2 * perHost {
					r, err := m.Next(ctx)
					if err != nil {
						t.Fatalf("Next after %d URLs: %v", len(seen), err)
					}
					if seen[r.URL] {
						t.Fatalf("%s handed out twice", r.URL)
					}
					seen[r.URL] = true
					if err := m.Done(r, Outcome{Status: 200}); err != nil {
						t.Fatal(err)
					}
					if m.parked > 0 {
						most = max(most, m.inBackQueues())
					}
				}
				if most > 2*blockLen {
					t.Errorf("back queues held up to %d URLs while a host was parked; want at most %d", most, 2*blockLen)
				}
				if _, err := m.Next(ctx); err != ErrEmpty {
					t.Errorf("Next on a drained frontier = %v, want ErrEmpty", err)
				}
				t.Logf("%v: back queues held at most %d URLs", strategy, most)
			})
		})
	}
}

// TestFewHostsStaySpilled: with fewer hosts than back queues (a crawl of a
// few sites), Mercator's refill would move every queued URL to the back
// queues, in memory, spill or not. With SpillDir, refill stops at a full
// back queue when there is no other host to take: two hosts with 20,000
// URLs each keep at most backCap+1 URLs each in memory at every step, the
// rest spilled, and each host's URLs come out in the order an in-memory
// frontier gives them.
func TestFewHostsStaySpilled(t *testing.T) {
	for _, strategy := range []Strategy{BFS, DFS} {
		t.Run(fmt.Sprint(strategy), func(t *testing.T) {
			const perHost = 20000
			var reqs []Request
			for i := range perHost {
				for _, h := range []string{"a", "b"} {
					reqs = append(reqs, Request{URL: fmt.Sprintf("http://%s.test/%d", h, i), Depth: i % 7})
				}
			}
			want, _ := drainByHost(t, strategy, "", reqs)
			got, most := drainByHost(t, strategy, t.TempDir(), reqs)
			for _, h := range []string{"a.test", "b.test"} {
				if len(got[h]) != perHost || !slices.Equal(got[h], want[h]) {
					t.Errorf("%s: %d URLs, first difference at %d from the in-memory frontier's order", h, len(got[h]), firstDiffString(got[h], want[h]))
				}
			}
			if most > 2*(backCap+1) {
				t.Errorf("back queues held up to %d URLs; want at most %d", most, 2*(backCap+1))
			}
			t.Logf("%v: back queues held at most %d URLs", strategy, most)
		})
	}
}

// drainByHost pushes reqs into a frontier with 6 back queues (spilling
// into spillDir unless it is empty), drains it, and returns the URLs
// handed out by host, in order, and the most URLs its back queues held
// in memory at any step.
func drainByHost(t *testing.T, strategy Strategy, spillDir string, reqs []Request) (map[string][]string, int) {
	t.Helper()
	m := NewMemory(&MemoryOptions{Strategy: strategy, Workers: 2, BackQueues: 6, SpillDir: spillDir, Politeness: noDelayConfig})
	defer m.Close()
	if _, err := m.Push(context.Background(), reqs...); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	most := m.inBackQueues()
	for _, r := range drain(t, m) {
		out[r.Host] = append(out[r.Host], r.URL)
		most = max(most, m.inBackQueues())
	}
	return out, most
}

func firstDiffString(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestHostBehindFullQueuesKeepsURLsSpilled: a host without a back queue
// that waits deep in a spilled front queue, behind the URLs of hosts whose
// back queues are full, must not make refill move every URL before it
// into back queues, in memory. Mercator's refill does: it takes URLs from
// the front until it meets a new host, and the soak saw it as a live heap
// that grew for 30 minutes (a host per back queue, hosts dropping out and
// coming back). Two hosts with 20,000 URLs each, then c.test, and more
// back queues than hosts: the back queues hold at most backCap URLs each
// plus overCap beyond at every step, each host's URLs come out in the
// order an in-memory frontier gives them, and c.test is crawled.
func TestHostBehindFullQueuesKeepsURLsSpilled(t *testing.T) {
	for _, strategy := range []Strategy{BFS, DFS} {
		t.Run(fmt.Sprint(strategy), func(t *testing.T) {
			const perHost = 20000
			var reqs []Request
			add := func(i int) {
				for _, h := range []string{"a", "b"} {
					reqs = append(reqs, Request{URL: fmt.Sprintf("http://%s.test/%d", h, i)})
				}
			}
			// DFS pops the newest first: c.test goes under the others.
			if strategy == DFS {
				reqs = append(reqs, Request{URL: "http://c.test/"})
			}
			for i := range perHost {
				add(i)
			}
			if strategy == BFS {
				reqs = append(reqs, Request{URL: "http://c.test/"})
			}
			want, _ := drainByHost(t, strategy, "", reqs)
			got, most := drainByHost(t, strategy, t.TempDir(), reqs)
			for _, h := range []string{"a.test", "b.test", "c.test"} {
				if len(got[h]) != len(want[h]) || !slices.Equal(got[h], want[h]) {
					t.Errorf("%s: %d URLs (want %d), first difference at %d from the in-memory frontier's order", h, len(got[h]), len(want[h]), firstDiffString(got[h], want[h]))
				}
			}
			if limit := 2*backCap + overCap + 1; most > limit {
				t.Errorf("back queues held up to %d URLs; want at most %d", most, limit)
			}
			t.Logf("%v: back queues held at most %d URLs", strategy, most)
		})
	}
}

// TestDFSLinksOfACrawledHostSpill: under DFS the URLs a host's pages link
// to go straight to the host's back queue once it has one (they are the
// top of its stack). With SpillDir they must not all stay in memory
// there: a host whose first page links to 20,000 URLs keeps at most
// backCap of them in its back queue plus three blocks of its deep queue in
// memory, the rest spilled (20,001 in memory before), and its URLs come
// out in the order an in-memory frontier gives them.
func TestDFSLinksOfACrawledHostSpill(t *testing.T) {
	order := func(spillDir string) ([]string, int, int) {
		m := NewMemory(&MemoryOptions{Strategy: DFS, Workers: 1, SpillDir: spillDir, Politeness: noDelayConfig})
		defer m.Close()
		ctx := context.Background()
		// Two URLs: a.test keeps its back queue while its first page is
		// out, so the page's links go straight to it.
		if _, err := m.Push(ctx, Request{URL: "http://a.test/x"}, Request{URL: "http://a.test/"}); err != nil {
			t.Fatal(err)
		}
		r, err := m.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		out := []string{r.URL}
		var links []Request
		for i := range 20000 {
			links = append(links, Request{URL: fmt.Sprintf("http://a.test/%d", i)})
		}
		// The page's links arrive in two batches, around one that is
		// retried (it goes back to the top of the stack), and a second
		// host's page joins in.
		if _, err := m.Push(ctx, links[:12000]...); err != nil {
			t.Fatal(err)
		}
		if err := m.Done(r, Outcome{Status: 503, Retry: true}); err != nil {
			t.Fatal(err)
		}
		if _, err := m.Push(ctx, append(links[12000:], Request{URL: "http://b.test/"})...); err != nil {
			t.Fatal(err)
		}
		most, spilled := m.inBackQueues(), m.SpillStats().Entries
		for _, r := range drain(t, m) {
			out = append(out, r.URL)
			most = max(most, m.inBackQueues())
		}
		return out, most, spilled
	}
	want, _, _ := order("")
	got, most, spilled := order(t.TempDir())
	if !slices.Equal(got, want) {
		t.Errorf("%d URLs handed out, first difference from the in-memory frontier's order at %d", len(got), firstDiffString(got, want))
	}
	if limit := backCap + 3*blockLen; most > limit {
		t.Errorf("back queues held up to %d URLs in memory; want at most %d", most, limit)
	}
	if spilled < 15000 {
		t.Errorf("%d URLs spilled after the pushes, want most of the 20,000", spilled)
	}
	t.Logf("back queues held at most %d URLs in memory; %d spilled", most, spilled)
}
