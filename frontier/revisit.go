package frontier

import (
	"container/heap"
	"time"
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
