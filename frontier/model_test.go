package frontier_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/politeness"
)

// refModel is the reference the randomized test compares Memory against: a
// FIFO per host, a seen set, budgets and ready times, with no cleverness.
type refModel struct {
	maxDepth, maxPerHost int
	delay                func(time.Duration) time.Duration
	seen                 map[string]bool
	accepted             map[string]int
	queue                map[string][]frontier.Request // per host, head first
	inflight             map[string]bool
	ready                map[string]time.Time
	leased               []frontier.Request
}

func (m *refModel) push(r frontier.Request) bool {
	if r.Depth > m.maxDepth || m.seen[r.URL] || m.accepted[r.Host] >= m.maxPerHost {
		return false
	}
	m.seen[r.URL] = true
	m.accepted[r.Host]++
	m.queue[r.Host] = append(m.queue[r.Host], r)
	return true
}

func (m *refModel) queued() int {
	n := 0
	for _, q := range m.queue {
		n += len(q)
	}
	return n
}

// readyAt returns the earliest time some host with queued URLs may be
// contacted, and false if every such host is in flight (or none exists).
func (m *refModel) readyAt() (time.Time, bool) {
	var best time.Time
	found := false
	for h, q := range m.queue {
		if len(q) == 0 || m.inflight[h] {
			continue
		}
		if !found || m.ready[h].Before(best) {
			best, found = m.ready[h], true
		}
	}
	return best, found
}

func TestMemoryMatchesModel(t *testing.T) {
	const sequences, steps = 150, 150
	for seed := range uint64(sequences) {
		synctest.Test(t, func(t *testing.T) {
			if err := compareWithModel(seed, steps); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
		})
	}
}

func compareWithModel(seed uint64, steps int) error {
	rng := rand.New(rand.NewPCG(seed, 0))
	const hosts, paths = 4, 12
	const minDelay, maxDelay, factor = 100 * time.Millisecond, time.Second, 2
	m := &refModel{
		maxDepth:   3,
		maxPerHost: 8,
		delay: func(d time.Duration) time.Duration {
			return min(max(time.Duration(factor*float64(d)), minDelay), maxDelay)
		},
		seen: map[string]bool{}, accepted: map[string]int{}, queue: map[string][]frontier.Request{},
		inflight: map[string]bool{}, ready: map[string]time.Time{},
	}
	f := frontier.NewMemory(&frontier.MemoryOptions{
		FrontQueues: 1,
		BackQueues:  hosts,
		MaxDepth:    m.maxDepth,
		MaxPerHost:  m.maxPerHost,
		Seed:        seed,
		Politeness:  politeness.Config{MinDelay: minDelay, MaxDelay: maxDelay, Factor: factor},
	})
	ctx := context.Background()
	var log []string
	fail := func(format string, args ...any) error {
		return fmt.Errorf("after %v:\n%s", log, fmt.Sprintf(format, args...))
	}
	for range steps {
		switch op := rng.IntN(10); {
		case op < 3: // push a batch
			var batch []frontier.Request
			want := 0
			for range 1 + rng.IntN(3) {
				h := fmt.Sprintf("h%d.test", rng.IntN(hosts))
				r := frontier.Request{
					URL:   fmt.Sprintf("http://%s/%d", h, rng.IntN(paths)),
					Depth: 1 + rng.IntN(4),
				}
				batch = append(batch, r)
				r.Host = h
				if m.push(r) {
					want++
				}
			}
			log = append(log, fmt.Sprintf("push%d", len(batch)))
			got, err := f.Push(ctx, batch...)
			if err != nil || got != want {
				return fail("Push(%v) = %d, %v, want %d", batch, got, err, want)
			}
		case op < 6: // next
			log = append(log, "next")
			start := time.Now()
			at, some := m.readyAt()
			if !some {
				var wantErr error = frontier.ErrEmpty
				if len(m.leased) > 0 {
					wantErr = context.DeadlineExceeded
				}
				tctx, cancel := context.WithTimeout(ctx, time.Hour)
				r, err := f.Next(tctx)
				cancel()
				if !errors.Is(err, wantErr) {
					return fail("Next = %v, %v, want %v", r.URL, err, wantErr)
				}
				continue
			}
			r, err := f.Next(ctx)
			if err != nil {
				return fail("Next: %v", err)
			}
			now := time.Now()
			if wantAt := later(start, at); !now.Equal(wantAt) {
				return fail("Next returned at +%v, want +%v (earliest ready host)", now.Sub(start), wantAt.Sub(start))
			}
			q := m.queue[r.Host]
			if len(q) == 0 || m.inflight[r.Host] || now.Before(m.ready[r.Host]) {
				return fail("Next = %s: host %s not ready (queued %d, in flight %v, ready at %v)", r.URL, r.Host, len(q), m.inflight[r.Host], m.ready[r.Host])
			}
			if q[0].URL != r.URL || q[0].Retries != r.Retries || q[0].Depth != r.Depth {
				return fail("Next = %s (retries %d), want the head of %s's queue %s (retries %d)", r.URL, r.Retries, r.Host, q[0].URL, q[0].Retries)
			}
			m.queue[r.Host] = q[1:]
			m.inflight[r.Host] = true
			m.leased = append(m.leased, r)
		case op < 9: // done
			if len(m.leased) == 0 {
				continue
			}
			i := rng.IntN(len(m.leased))
			r := m.leased[i]
			m.leased = slices.Delete(m.leased, i, i+1)
			out := frontier.Outcome{Status: 200, Duration: time.Duration(rng.IntN(700)) * time.Millisecond, Retry: rng.IntN(5) == 0}
			log = append(log, fmt.Sprintf("done(retry=%v)", out.Retry))
			if err := f.Done(r, out); err != nil {
				return fail("Done(%s): %v", r.URL, err)
			}
			m.inflight[r.Host] = false
			m.ready[r.Host] = time.Now().Add(m.delay(out.Duration))
			if out.Retry {
				r.Retries++
				m.queue[r.Host] = append([]frontier.Request{r}, m.queue[r.Host]...)
			}
			if err := f.Done(r, out); !errors.Is(err, frontier.ErrNotLeased) {
				return fail("second Done(%s) = %v, want ErrNotLeased", r.URL, err)
			}
		default: // let time pass
			d := time.Duration(rng.IntN(400)) * time.Millisecond
			log = append(log, fmt.Sprintf("sleep(%v)", d))
			time.Sleep(d)
		}
		if got, want := f.Len(), m.queued(); got != want {
			return fail("Len() = %d, want %d", got, want)
		}
		if len(log) > 12 {
			log = log[len(log)-12:]
		}
	}
	return nil
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
