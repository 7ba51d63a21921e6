package politeness

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkScheduleNextDone measures one lease and release on a schedule
// with many active hosts, in fake time advancing 1ms per op.
func BenchmarkScheduleNextDone(b *testing.B) {
	for _, hosts := range []int{100, 10_000} {
		b.Run(fmt.Sprintf("hosts=%d", hosts), func(b *testing.B) {
			s := NewSchedule(&Config{MinDelay: 50 * time.Millisecond})
			for i := range hosts {
				s.Add(fmt.Sprintf("h%d.example", i))
			}
			now := t0
			b.ReportAllocs()
			for b.Loop() {
				now = now.Add(time.Millisecond)
				host, wake, ok := s.Next(now)
				if !ok {
					now = wake
					host, _, _ = s.Next(now)
				}
				if _, err := s.Done(host, now, Outcome{Status: 200, Duration: time.Millisecond}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
