package politeness

import (
	"context"
	"errors"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// Outcome describes how one contact with a host ended. The zero Outcome is a
// successful contact that took no measurable time.
type Outcome struct {
	Status     int           // HTTP status code; 0 when there was no response
	Duration   time.Duration // how long the fetch took
	Err        error         // transport error, if any
	RetryAfter time.Duration // from a Retry-After header (see ParseRetryAfter); 0 if none
	CrawlDelay time.Duration // the host's robots.txt Crawl-delay; 0 if none
}

// Throttled reports whether the outcome asks the crawler to back off: a 429
// (Too Many Requests) or 503 (Service Unavailable) response, or an error that
// is a timeout (context.DeadlineExceeded, os.ErrDeadlineExceeded, or any error
// in the chain with a Timeout() bool method that returns true, such as a
// net.Error).
func (o Outcome) Throttled() bool {
	if o.Status == http.StatusTooManyRequests || o.Status == http.StatusServiceUnavailable {
		return true
	}
	return isTimeout(o.Err)
}

func isTimeout(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded) {
		return true
	}
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// Contact is what a Policy sees when a contact with a host ends.
type Contact struct {
	Host    string
	Outcome Outcome
	// Failures counts consecutive throttled outcomes (see Outcome.Throttled)
	// for the host's group, including this one; 0 after a contact that was
	// not throttled.
	Failures int
	// Jitter is a uniform random number in [0, 1) drawn by the scheduler for
	// this contact, so that policies stay deterministic functions of their
	// input and need no random source or lock of their own.
	Jitter float64
}

// A Policy decides how long a host must rest after a contact before it may be
// contacted again. A scheduler calls Delay with its lock held, once per
// contact; Delay must not block. Negative delays count as zero.
type Policy interface {
	Delay(c Contact) time.Duration
}

// PolicyFunc adapts an ordinary function to the Policy interface.
type PolicyFunc func(c Contact) time.Duration

// Delay returns f(c).
func (f PolicyFunc) Delay(c Contact) time.Duration { return f(c) }

// Fixed returns a Policy that always waits d: the configured minimum delay.
func Fixed(d time.Duration) Policy {
	return PolicyFunc(func(Contact) time.Duration { return d })
}

// CrawlDelay returns a Policy that waits the host's robots.txt Crawl-delay,
// as reported in Outcome.CrawlDelay. It does not cap it itself: a Schedule
// (and so a Scheduler) caps Outcome.CrawlDelay at Config.MaxCrawlDelay
// (default DefaultMaxCrawlDelay, 5m) before any policy sees it; a caller
// that runs a Policy without a Schedule applies its own cap.
func CrawlDelay() Policy {
	return PolicyFunc(func(c Contact) time.Duration { return c.Outcome.CrawlDelay })
}

// DefaultMaxCrawlDelay is the Crawl-delay honoured at most by default (see
// Config.MaxCrawlDelay).
const DefaultMaxCrawlDelay = 5 * time.Minute

// CrawlDelayUpTo returns a Policy that waits the host's robots.txt
// Crawl-delay, at most maxDelay.
func CrawlDelayUpTo(maxDelay time.Duration) Policy {
	return PolicyFunc(func(c Contact) time.Duration { return min(c.Outcome.CrawlDelay, maxDelay) })
}

// Adaptive returns Mercator's heuristic: wait factor times the duration of the
// last fetch, clamped to [minDelay, maxDelay], so slow servers are visited
// less often. For example with factor 10 a fetch that took 300ms yields 3s.
func Adaptive(factor float64, minDelay, maxDelay time.Duration) Policy {
	return PolicyFunc(func(c Contact) time.Duration {
		d := time.Duration(factor * float64(c.Outcome.Duration))
		return min(max(d, minDelay), maxDelay)
	})
}

// Backoff returns a Policy for servers that push back. After n consecutive
// throttled contacts (Contact.Failures) it waits base·2^(n-1), capped at
// maxDelay, with "equal jitter": a uniform value in [d/2, d). Whenever the
// outcome carries a Retry-After it waits at least that long, also capped at
// maxDelay. It returns 0 for a contact that was not throttled and has no
// Retry-After.
func Backoff(base, maxDelay time.Duration) Policy {
	return PolicyFunc(func(c Contact) time.Duration {
		var d time.Duration
		if c.Failures > 0 {
			d = base
			for i := 1; i < c.Failures && d < maxDelay; i++ {
				d *= 2
			}
			d = min(d, maxDelay)
			d = d/2 + time.Duration(c.Jitter*float64(d/2))
		}
		if ra := min(c.Outcome.RetryAfter, maxDelay); ra > d {
			d = ra
		}
		return d
	})
}

// Max returns a Policy that waits the longest of the delays of ps. It is the
// way to compose policies: the default policy is
// Max(Fixed(min), CrawlDelay(), Adaptive(factor, min, max), Backoff(base, cap)).
func Max(ps ...Policy) Policy {
	ps = append([]Policy(nil), ps...)
	return PolicyFunc(func(c Contact) time.Duration {
		var d time.Duration
		for _, p := range ps {
			d = max(d, p.Delay(c))
		}
		return d
	})
}

// ParseRetryAfter parses the value of a Retry-After header (RFC 9110 section
// 10.2.3), either delay-seconds ("120") or an HTTP-date ("Wed, 21 Oct 2015
// 07:28:00 GMT"), and returns how long to wait from now. A date in the past
// gives 0. ok is false when the value is neither form.
func ParseRetryAfter(value string, now time.Time) (d time.Duration, ok bool) {
	value = strings.TrimSpace(value)
	if value == "" {
		return 0, false
	}
	if value[0] >= '0' && value[0] <= '9' {
		secs, err := strconv.ParseUint(value, 10, 64)
		if err != nil {
			var numErr *strconv.NumError
			if errors.As(err, &numErr) && errors.Is(numErr.Err, strconv.ErrRange) {
				return time.Duration(1<<63 - 1), true
			}
			return 0, false
		}
		const maxSecs = uint64(1<<63-1) / uint64(time.Second)
		if secs > maxSecs {
			return time.Duration(1<<63 - 1), true
		}
		return time.Duration(secs) * time.Second, true
	}
	t, err := http.ParseTime(value)
	if err != nil {
		return 0, false
	}
	return max(t.Sub(now), 0), true
}
