package politeness

import (
	"context"
	"sync"
	"time"
)

// Clock tells the time and makes timers. Inject one to control time in tests;
// inside a testing/synctest bubble the system clock is already fake.
type Clock interface {
	Now() time.Time
	// After returns a channel that receives the time once d has elapsed.
	After(d time.Duration) <-chan time.Time
}

// SystemClock is the Clock of package time, the default when
// Config.Clock is nil.
type SystemClock struct{}

// Now returns time.Now().
func (SystemClock) Now() time.Time { return time.Now() }

// After returns time.After(d).
func (SystemClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// Scheduler is the blocking form of Schedule: Acquire waits until some host
// may be contacted and leases it; Release ends the contact. Add and Remove
// tell it which hosts have work. A Scheduler is safe for concurrent use by
// any number of goroutines; most crawlers call Acquire and Release from each
// worker.
type Scheduler struct {
	mu    sync.Mutex
	s     *Schedule
	clock Clock
	wake  chan struct{} // closed and replaced when the schedule changes; nil when no one waits
}

// NewScheduler returns a Scheduler configured by cfg (nil means defaults).
func NewScheduler(cfg *Config) *Scheduler {
	s := NewSchedule(cfg)
	return &Scheduler{s: s, clock: s.cfg.Clock}
}

// Add records that host has work waiting and wakes Acquire callers.
func (s *Scheduler) Add(host string) {
	s.mu.Lock()
	s.s.Add(host)
	s.broadcast()
	s.mu.Unlock()
}

// Remove records that host has no work waiting.
func (s *Scheduler) Remove(host string) {
	s.mu.Lock()
	s.s.Remove(host)
	s.mu.Unlock()
}

// Acquire blocks until some active host may be contacted, leases it and
// returns it. The caller contacts the host and then calls Release exactly
// once. Acquire returns ctx.Err() if ctx ends first.
func (s *Scheduler) Acquire(ctx context.Context) (string, error) {
	for {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		s.mu.Lock()
		now := s.clock.Now()
		host, wake, ok := s.s.Next(now)
		if ok {
			s.mu.Unlock()
			return host, nil
		}
		if s.wake == nil {
			s.wake = make(chan struct{})
		}
		changed := s.wake
		s.mu.Unlock()
		var timer <-chan time.Time
		if !wake.IsZero() {
			timer = s.clock.After(wake.Sub(now))
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-changed:
		case <-timer:
		}
	}
}

// Release ends the contact with host acquired by Acquire, which ended with
// out; the host's next contact waits for the delay the policy gives. It
// returns ErrNotAcquired if host has no contact in flight.
func (s *Scheduler) Release(host string, out Outcome) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.s.Done(host, s.clock.Now(), out); err != nil {
		return err
	}
	s.broadcast()
	return nil
}

// Cancel releases host after an Acquire that led to no contact, with no
// new delay (see Schedule.Cancel).
func (s *Scheduler) Cancel(host string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.s.Cancel(host, s.clock.Now()); err != nil {
		return err
	}
	s.broadcast()
	return nil
}

// NextContact returns the earliest time host may be contacted again, and
// false if host is unknown.
func (s *Scheduler) NextContact(host string) (time.Time, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.s.NextContact(host)
}

func (s *Scheduler) broadcast() {
	if s.wake != nil {
		close(s.wake)
		s.wake = nil
	}
}
