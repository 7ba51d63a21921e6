package politeness_test

import (
	"context"
	"fmt"
	"time"

	"github.com/trawl-dev/trawl/politeness"
)

// The Schedule core takes the time as a parameter, so its rules can be
// stepped through without a clock.
func ExampleSchedule() {
	s := politeness.NewSchedule(&politeness.Config{MinDelay: time.Second, Factor: 10})
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s.Add("example.com")

	host, _, ok := s.Next(t0)
	fmt.Println(host, ok)

	// The fetch took 400ms: Mercator's heuristic rests the host 10 × 400ms.
	d, _ := s.Done(host, t0.Add(400*time.Millisecond), politeness.Outcome{Status: 200, Duration: 400 * time.Millisecond})
	fmt.Println("delay", d)

	_, wake, ok := s.Next(t0.Add(time.Second))
	fmt.Println(ok, "until", wake.Sub(t0))

	// A 429 with Retry-After: 30 rests the host 30 seconds.
	host, _, _ = s.Next(wake)
	ra, _ := politeness.ParseRetryAfter("30", wake)
	d, _ = s.Done(host, wake, politeness.Outcome{Status: 429, RetryAfter: ra})
	fmt.Println("delay", d)
	// Output:
	// example.com true
	// delay 4s
	// false until 4.4s
	// delay 30s
}

// A Scheduler blocks in Acquire until some host may be contacted.
func ExampleScheduler() {
	s := politeness.NewScheduler(&politeness.Config{MinDelay: -1}) // no delay: a test server
	s.Add("a.example")
	s.Add("b.example")
	ctx := context.Background()
	for range 2 {
		host, err := s.Acquire(ctx)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("fetch from", host)
		if err := s.Release(host, politeness.Outcome{Status: 200}); err != nil {
			fmt.Println(err)
		}
	}
	// Output:
	// fetch from a.example
	// fetch from b.example
}
