package wakeup

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"
)

func TestBroadcastWakesEveryWaiter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var s Signal
		changed := s.Chan()
		if again := s.Chan(); again != changed {
			t.Fatal("Chan before Broadcast returned a new channel")
		}
		woken := make(chan error, 3)
		for range 3 {
			go func() { woken <- Wait(t.Context(), changed, time.After, time.Now(), time.Time{}) }()
		}
		synctest.Wait()
		if len(woken) != 0 {
			t.Fatalf("%d waiters returned before Broadcast", len(woken))
		}
		s.Broadcast()
		for range 3 {
			if err := <-woken; err != nil {
				t.Errorf("Wait after Broadcast = %v, want nil", err)
			}
		}
		if s.Chan() == changed {
			t.Error("Chan after Broadcast returned the closed channel")
		}
		s.Broadcast()
		s.Broadcast() // with no one waiting: nothing to close twice
	})
}

func TestWaitDeadlineAndContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var s Signal
		start := time.Now()
		if err := Wait(t.Context(), s.Chan(), time.After, start, start.Add(3*time.Second)); err != nil {
			t.Fatalf("Wait until a deadline = %v, want nil", err)
		}
		if got := time.Since(start); got != 3*time.Second {
			t.Errorf("Wait returned after %v, want 3s", got)
		}
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		if err := Wait(ctx, s.Chan(), time.After, time.Now(), time.Time{}); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Wait with an ending context = %v, want context.DeadlineExceeded", err)
		}
	})
}
