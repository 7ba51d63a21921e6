package frontiertest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/politeness"
)

func newMemory(*testing.T) frontier.Frontier {
	return frontier.NewMemory(&frontier.MemoryOptions{Workers: 4})
}

func TestRunMemory(t *testing.T) {
	Run(t, newMemory)
}

// twice hands its first request out a second time.
type twice struct {
	frontier.Frontier
	mu    sync.Mutex
	first *frontier.Request
	done  bool
}

func (f *twice) Next(ctx context.Context) (frontier.Request, error) {
	f.mu.Lock()
	if f.first != nil && !f.done {
		f.done = true
		r := *f.first
		f.mu.Unlock()
		return r, nil
	}
	f.mu.Unlock()
	r, err := f.Frontier.Next(ctx)
	f.mu.Lock()
	if err == nil && f.first == nil {
		f.first = &r
	}
	f.mu.Unlock()
	return r, err
}

func (f *twice) Done(r frontier.Request, out frontier.Outcome) error {
	err := f.Frontier.Done(r, out)
	if errors.Is(err, frontier.ErrNotLeased) {
		return nil // hide the evidence
	}
	return err
}

// leaky forgets to release its first lease.
type leaky struct {
	frontier.Frontier
	mu     sync.Mutex
	leaked bool
}

func (f *leaky) Done(r frontier.Request, out frontier.Outcome) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.leaked && !out.Retry {
		f.leaked = true
		return nil
	}
	return f.Frontier.Done(r, out)
}

// liar reports every pushed request as added.
type liar struct{ frontier.Frontier }

func (f liar) Push(ctx context.Context, reqs ...frontier.Request) (int, error) {
	_, err := f.Frontier.Push(ctx, reqs...)
	return len(reqs), err
}

// forgetful drops Retry: the request is finished instead of requeued.
type forgetful struct{ frontier.Frontier }

func (f forgetful) Done(r frontier.Request, out frontier.Outcome) error {
	out.Retry = false
	return f.Frontier.Done(r, out)
}

// dataless drops Request.Data at Push.
type dataless struct{ frontier.Frontier }

func (f dataless) Push(ctx context.Context, reqs ...frontier.Request) (int, error) {
	reqs = slices.Clone(reqs)
	for i := range reqs {
		reqs[i].Data = nil
	}
	return f.Frontier.Push(ctx, reqs...)
}

// stale ignores Outcome.Data.
type stale struct{ frontier.Frontier }

func (f stale) Done(r frontier.Request, out frontier.Outcome) error {
	out.Data = nil
	return f.Frontier.Done(r, out)
}

// lax cuts Data down to MaxData instead of refusing the request.
type lax struct{ frontier.Frontier }

func (f lax) Push(ctx context.Context, reqs ...frontier.Request) (int, error) {
	reqs = slices.Clone(reqs)
	for i := range reqs {
		reqs[i].Data = reqs[i].Data[:min(len(reqs[i].Data), frontier.MaxData)]
	}
	return f.Frontier.Push(ctx, reqs...)
}

// blind never sees a URL.
type blind struct{ frontier.Frontier }

func (blind) Seen(string) bool { return false }

// naive is a FIFO with a seen set and no notion of hosts: it hands out
// requests of one host concurrently.
type naive struct {
	mu     sync.Mutex
	seen   map[string]bool
	queue  []frontier.Request
	leased map[string]bool
	wake   chan struct{}
}

func newNaive() *naive {
	return &naive{seen: map[string]bool{}, leased: map[string]bool{}, wake: make(chan struct{})}
}

func (f *naive) Push(_ context.Context, reqs ...frontier.Request) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, r := range reqs {
		if f.seen[r.URL] {
			continue
		}
		f.seen[r.URL] = true
		if r.Host == "" {
			r.Host = r.URL[len("http://"):]
			r.Host = r.Host[:len(r.Host)-len(r.Host[slicesIndex(r.Host, '/'):])]
		}
		f.queue = append(f.queue, r)
		n++
	}
	f.broadcast()
	return n, nil
}

func slicesIndex(s string, b byte) int {
	if i := slices.Index([]byte(s), b); i >= 0 {
		return i
	}
	return len(s)
}

func (f *naive) broadcast() {
	close(f.wake)
	f.wake = make(chan struct{})
}

func (f *naive) Next(ctx context.Context) (frontier.Request, error) {
	for {
		f.mu.Lock()
		if len(f.queue) > 0 {
			r := f.queue[0]
			f.queue = f.queue[1:]
			f.leased[r.URL] = true
			f.mu.Unlock()
			return r, nil
		}
		if len(f.leased) == 0 {
			f.mu.Unlock()
			return frontier.Request{}, frontier.ErrEmpty
		}
		wake := f.wake
		f.mu.Unlock()
		select {
		case <-ctx.Done():
			return frontier.Request{}, ctx.Err()
		case <-wake:
		}
	}
}

func (f *naive) Done(r frontier.Request, out frontier.Outcome) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.leased[r.URL] {
		return fmt.Errorf("naive: %w", frontier.ErrNotLeased)
	}
	delete(f.leased, r.URL)
	if out.Retry {
		r.Retries++
		f.queue = append([]frontier.Request{r}, f.queue...)
	}
	f.broadcast()
	return nil
}

func (f *naive) Len() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.queue)
}

func TestChecksCatchBrokenFrontiers(t *testing.T) {
	memory := func() frontier.Frontier {
		return frontier.NewMemory(&frontier.MemoryOptions{Workers: 4, Politeness: politeness.Config{MinDelay: 100 * time.Millisecond}})
	}
	tests := []struct {
		name   string
		broken func() frontier.Frontier
		want   []string // checks that must fail
	}{
		{name: "hands a URL out twice", broken: func() frontier.Frontier { return &twice{Frontier: memory()} }, want: []string{"ExactlyOnce", "Workers"}},
		{name: "leaks a host lease", broken: func() frontier.Frontier { return &leaky{Frontier: memory()} }, want: []string{"Dedup", "ExactlyOnce", "Workers"}},
		{name: "lies about added", broken: func() frontier.Frontier { return liar{memory()} }, want: []string{"Dedup"}},
		{name: "drops retries", broken: func() frontier.Frontier { return forgetful{memory()} }, want: []string{"Retry", "Workers"}},
		{name: "ignores hosts", broken: func() frontier.Frontier { return newNaive() }, want: []string{"Workers"}},
		{name: "drops Data", broken: func() frontier.Frontier { return dataless{memory()} }, want: []string{"Data"}},
		{name: "ignores Outcome.Data", broken: func() frontier.Frontier { return stale{memory()} }, want: []string{"Data"}},
		{name: "cuts Data too large", broken: func() frontier.Frontier { return lax{memory()} }, want: []string{"DataTooLarge"}},
		{name: "sees nothing", broken: func() frontier.Frontier { return blind{memory()} }, want: []string{"Seen"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, c := range checks {
				var err error
				synctest.Test(t, func(t *testing.T) { err = c.fn(tt.broken()) })
				if slices.Contains(tt.want, c.name) && err == nil {
					t.Errorf("check %s passed a frontier that %s, want an error", c.name, tt.name)
				}
				if err != nil {
					t.Logf("check %s: %v", c.name, err)
				}
			}
		})
	}
}
