// Package wakeup is the wait-for-change step the frontiers share: a worker
// in Next that finds no host ready releases the frontier's lock and sleeps
// until Push or Done changes the state, its context ends, or the next host
// becomes ready.
//
// # Concurrency
//
// A Signal is guarded by its owner's lock: call Chan and Broadcast with it
// held. Wait is called with the lock released.
package wakeup

import (
	"context"
	"time"
)

// Signal wakes every waiter at once. The zero value is ready to use.
type Signal struct {
	ch chan struct{} // closed and replaced on change; nil when no one waits
}

// Chan returns the channel that the next Broadcast closes.
func (s *Signal) Chan() <-chan struct{} {
	if s.ch == nil {
		s.ch = make(chan struct{})
	}
	return s.ch
}

// Broadcast wakes the waiters on the channel Chan returned, if any.
func (s *Signal) Broadcast() {
	if s.ch != nil {
		close(s.ch)
		s.ch = nil
	}
}

// Wait blocks until changed is closed, ctx ends (its error is returned), or,
// when wake is not zero, wake is reached on the clock whose After is given
// (now is that clock's current time).
func Wait(ctx context.Context, changed <-chan struct{}, after func(time.Duration) <-chan time.Time, now, wake time.Time) error {
	var timer <-chan time.Time
	if !wake.IsZero() {
		timer = after(wake.Sub(now))
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-changed:
	case <-timer:
	}
	return nil
}
