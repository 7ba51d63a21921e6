package frontier

import (
	"container/heap"
	"fmt"
	"net/url"
	"time"

	"github.com/trawl-dev/trawl/urlnorm"
)

// revisit is a URL waiting for its revisit time in a Memory frontier.
type revisit struct {
	at int64 // unix nanoseconds
	e  entry
}

// revisitHeap orders revisits by time, earliest first.
type revisitHeap []revisit

func (h revisitHeap) Len() int           { return len(h) }
func (h revisitHeap) Less(i, j int) bool { return h[i].at < h[j].at }
func (h revisitHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *revisitHeap) Push(x any)        { *h = append(*h, x.(revisit)) }
func (h *revisitHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	old[len(old)-1] = revisit{}
	*h = old[:len(old)-1]
	return x
}

// schedule keeps the leased entry e (its host already released) for a
// revisit at at, with state. Call with m.mu held.
func (m *Memory) schedule(e entry, at time.Time, state []byte) {
	e.retries = 0
	if len(state) > 0 {
		if m.states == nil {
			m.states = make(map[uint64]string)
		}
		m.states[e.fp] = string(state)
	} else {
		delete(m.states, e.fp)
	}
	heap.Push(&m.revisits, revisit{at: at.UnixNano(), e: e})
}

// promote moves the revisits due at now into the highest front queue,
// where the selector finds them first, and returns the time of the next
// one (zero if none). Call with m.mu held.
func (m *Memory) promote(now time.Time) (next time.Time) {
	moved := false
	defer func() {
		if moved {
			m.refill(now)
		}
	}()
	for len(m.revisits) > 0 {
		r := m.revisits[0]
		if r.at > now.UnixNano() {
			return time.Unix(0, r.at)
		}
		heap.Pop(&m.revisits)
		if _, leased := m.leased[r.e.fp]; leased {
			continue // handed out meanwhile (cannot happen: Done schedules)
		}
		r.e.prio = float64(m.k)
		m.pushFront(r.e)
		moved = true
	}
	return time.Time{}
}

// Revisits returns how many URLs wait for their revisit time (see
// Outcome.Revisit); Len does not count them.
func (m *Memory) Revisits() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.revisits)
}

// PushRevisit queues req for a revisit at at (at once if at has passed or
// is zero),
// with req.State, as Done with Outcome.Revisit at and Outcome.State
// req.State would have, whether or not the frontier has seen its URL: a
// distributed frontier that keeps its revisit schedule elsewhere (package
// cluster's, in Redis) hands the revisits that fall due to its local
// Memory with it. The URL counts as seen from then on; Revisits counts it
// until at. The caller must not pass a URL that the frontier holds queued,
// handed out or waiting for a revisit already: PushRevisit does not look
// for it, and the URL would be handed out twice. It fails for a request
// without a host or with more than MaxData bytes of Data.
func (m *Memory) PushRevisit(req Request, at time.Time) error {
	if len(req.Data) > MaxData {
		return fmt.Errorf("frontier: push revisit %q: %d bytes of data, more than %d: %w", req.URL, len(req.Data), MaxData, ErrDataTooLarge)
	}
	host := req.Host
	if host == "" {
		if u, err := url.Parse(req.URL); err == nil {
			host = urlnorm.Key(u)
		}
		if host == "" {
			return fmt.Errorf("frontier: push revisit %q: no host", req.URL)
		}
	}
	fp := Fingerprint(req.URL)
	data := joinData(req.URL, req.Anchor, req.Data)
	m.mu.Lock()
	defer m.mu.Unlock()
	if at.IsZero() {
		at = m.clock.Now()
	}
	hi := m.hosts[host]
	if hi == nil {
		hi = &hostInfo{name: host, id: uint32(len(m.hostList))}
		m.hosts[hi.name] = hi
		m.hostList = append(m.hostList, hi)
	}
	m.seen.Add(fp)
	m.schedule(entry{
		data:      data,
		referrer:  req.Referrer,
		host:      hi,
		fp:        fp,
		prio:      req.Priority,
		depth:     clamp32(req.Depth),
		redirects: clamp16(req.Redirects),
	}, at, req.State)
	m.wake.Broadcast()
	return nil
}
