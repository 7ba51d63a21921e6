package politeness

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

func TestSchedulerAcquireWaitsForDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := NewScheduler(&Config{MinDelay: 2 * time.Second, Factor: -1})
		s.Add("a")
		ctx := context.Background()
		start := time.Now()
		host, err := s.Acquire(ctx)
		if err != nil || host != "a" {
			t.Fatalf("Acquire = %q, %v, want a", host, err)
		}
		time.Sleep(300 * time.Millisecond) // the fetch
		if err := s.Release("a", Outcome{Duration: 300 * time.Millisecond}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Acquire(ctx); err != nil {
			t.Fatal(err)
		}
		if got, want := time.Since(start), 2300*time.Millisecond; got != want {
			t.Errorf("second Acquire returned after %v, want %v", got, want)
		}
	})
}

func TestSchedulerAcquireWakesOnAddAndRelease(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := NewScheduler(&Config{MinDelay: -1, Factor: -1})
		got := make(chan string)
		go func() {
			h, err := s.Acquire(context.Background())
			if err != nil {
				t.Error(err)
			}
			got <- h
		}()
		synctest.Wait()
		select {
		case h := <-got:
			t.Fatalf("Acquire returned %q with no host added", h)
		default:
		}
		s.Add("a")
		if h := <-got; h != "a" {
			t.Fatalf("Acquire = %q, want a", h)
		}
		// a is in flight: a second Acquire waits for Release.
		go func() {
			h, _ := s.Acquire(context.Background())
			got <- h
		}()
		synctest.Wait()
		select {
		case h := <-got:
			t.Fatalf("Acquire returned %q while the only host was in flight", h)
		default:
		}
		if err := s.Release("a", Outcome{}); err != nil {
			t.Fatal(err)
		}
		if h := <-got; h != "a" {
			t.Fatalf("Acquire = %q, want a", h)
		}
	})
}

func TestSchedulerAcquireContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := NewScheduler(nil)
		s.Add("a")
		if _, err := s.Acquire(context.Background()); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		start := time.Now()
		if _, err := s.Acquire(ctx); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Acquire = %v, want DeadlineExceeded", err)
		}
		if d := time.Since(start); d != time.Minute {
			t.Errorf("Acquire gave up after %v, want 1m", d)
		}
		if err := s.Release("b", Outcome{}); !errors.Is(err, ErrNotAcquired) {
			t.Errorf("Release(b) = %v, want ErrNotAcquired", err)
		}
	})
}

// TestSchedulerWorkers runs W workers over H hosts and checks the two rules
// every contact must obey: one contact per host at a time, and the delay
// between the end of one and the start of the next.
func TestSchedulerWorkers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const workers, hosts, contacts = 4, 6, 300
		const minDelay = 500 * time.Millisecond
		s := NewScheduler(&Config{MinDelay: minDelay, Factor: 2, MaxDelay: 5 * time.Second})
		names := []string{"a", "b", "c", "d", "e", "f"}[:hosts]
		for _, h := range names {
			s.Add(h)
		}
		var mu sync.Mutex
		busy := map[string]bool{}
		ready := map[string]time.Time{}
		n := 0
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				for i := 0; ; i++ {
					mu.Lock()
					if n >= contacts {
						mu.Unlock()
						return
					}
					n++
					mu.Unlock()
					h, err := s.Acquire(context.Background())
					if err != nil {
						t.Error(err)
						return
					}
					now := time.Now()
					mu.Lock()
					if busy[h] {
						t.Errorf("host %s handed out while in flight", h)
					}
					if now.Before(ready[h]) {
						t.Errorf("host %s contacted at %v, before %v", h, now, ready[h])
					}
					busy[h] = true
					mu.Unlock()
					d := time.Duration(w*37+i*11) % 400 * time.Millisecond
					time.Sleep(d)
					mu.Lock()
					busy[h] = false
					ready[h] = time.Now().Add(min(max(2*d, minDelay), 5*time.Second))
					mu.Unlock()
					if err := s.Release(h, Outcome{Duration: d}); err != nil {
						t.Error(err)
					}
				}
			})
		}
		wg.Wait()
	})
}

// manualClock is a Clock whose time moves only when the test says so.
type manualClock struct {
	mu      sync.Mutex
	now     time.Time
	waiters []manualTimer
}

type manualTimer struct {
	at time.Time
	c  chan time.Time
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	c.waiters = append(c.waiters, manualTimer{at: c.now.Add(d), c: ch})
	return ch
}

func (c *manualClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.waiters[:0]
	for _, w := range c.waiters {
		if w.at.After(c.now) {
			kept = append(kept, w)
			continue
		}
		w.c <- c.now
	}
	c.waiters = kept
}

func TestSchedulerInjectedClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clock := &manualClock{now: t0}
		s := NewScheduler(&Config{MinDelay: 10 * time.Second, Clock: clock})
		s.Add("a")
		if _, err := s.Acquire(context.Background()); err != nil {
			t.Fatal(err)
		}
		if err := s.Release("a", Outcome{}); err != nil {
			t.Fatal(err)
		}
		if next, _ := s.NextContact("a"); !next.Equal(at(10 * time.Second)) {
			t.Fatalf("NextContact(a) = %v, want %v", next, at(10*time.Second))
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			if _, err := s.Acquire(context.Background()); err != nil {
				t.Error(err)
			}
		}()
		synctest.Wait() // Acquire is waiting on the clock
		clock.Advance(9 * time.Second)
		synctest.Wait()
		select {
		case <-done:
			t.Fatal("Acquire returned 1s before the host's next contact")
		default:
		}
		clock.Advance(time.Second)
		<-done
	})
}
