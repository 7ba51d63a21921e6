package politeness

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkScheduleNextDone measures one lease and release on a schedule
// with many active hosts, in fake time advancing 1ms per op.
func BenchmarkScheduleNextDone(b *testing.B) {
	for _, bc := range []struct {
		hosts int
		perIP bool
	}{{100, false}, {10_000, false}, {10_000, true}} {
		name := fmt.Sprintf("hosts=%d", bc.hosts)
		cfg := &Config{MinDelay: 50 * time.Millisecond}
		if bc.perIP {
			// Ten hosts an address, as on shared hosting.
			name += "/ip=10hosts"
			cfg.IPDelay = -1
			cfg.IPConcurrency = 4
			cfg.IPKey = func(host string) (string, bool) { return host[:len(host)-len("0.example")], true }
		}
		hosts := bc.hosts
		b.Run(name, func(b *testing.B) {
			s := NewSchedule(cfg)
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
