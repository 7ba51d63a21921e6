package politeness

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"testing"
	"time"
)

func TestPolicies(t *testing.T) {
	tests := []struct {
		name   string
		policy Policy
		c      Contact
		want   time.Duration
	}{
		{name: "fixed", policy: Fixed(time.Second), want: time.Second},
		{name: "crawl-delay", policy: CrawlDelay(), c: Contact{Outcome: Outcome{CrawlDelay: 7 * time.Second}}, want: 7 * time.Second},
		{name: "adaptive", policy: Adaptive(10, time.Second, time.Minute), c: Contact{Outcome: Outcome{Duration: 250 * ms}}, want: 2500 * ms},
		{name: "adaptive below min", policy: Adaptive(10, time.Second, time.Minute), c: Contact{Outcome: Outcome{Duration: 10 * ms}}, want: time.Second},
		{name: "adaptive above max", policy: Adaptive(10, time.Second, time.Minute), c: Contact{Outcome: Outcome{Duration: time.Hour}}, want: time.Minute},
		{name: "backoff none", policy: Backoff(time.Second, time.Minute), want: 0},
		{name: "backoff 1 no jitter", policy: Backoff(time.Second, time.Minute), c: Contact{Failures: 1}, want: 500 * ms},
		{name: "backoff 1 jitter", policy: Backoff(time.Second, time.Minute), c: Contact{Failures: 1, Jitter: 0.5}, want: 750 * ms},
		{name: "backoff 3", policy: Backoff(time.Second, time.Minute), c: Contact{Failures: 3}, want: 2 * time.Second},
		{name: "backoff capped", policy: Backoff(time.Second, time.Minute), c: Contact{Failures: 200, Jitter: 0.999}, want: 30*time.Second + 29970*ms},
		{name: "retry-after above backoff", policy: Backoff(time.Second, time.Minute), c: Contact{Failures: 1, Outcome: Outcome{RetryAfter: 9 * time.Second}}, want: 9 * time.Second},
		{name: "retry-after capped", policy: Backoff(time.Second, time.Minute), c: Contact{Outcome: Outcome{RetryAfter: time.Hour}}, want: time.Minute},
		{name: "max", policy: Max(Fixed(time.Second), CrawlDelay(), Fixed(3*time.Second)), c: Contact{Outcome: Outcome{CrawlDelay: 2 * time.Second}}, want: 3 * time.Second},
		{name: "max empty", policy: Max(), want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.policy.Delay(tt.c); got != tt.want {
				t.Errorf("Delay(%+v) = %v, want %v", tt.c, got, tt.want)
			}
		})
	}
}

type timeoutErr struct{ timeout bool }

func (e timeoutErr) Error() string { return "timeout?" }
func (e timeoutErr) Timeout() bool { return e.timeout }

func TestOutcomeThrottled(t *testing.T) {
	tests := []struct {
		out  Outcome
		want bool
	}{
		{out: Outcome{Status: 200}, want: false},
		{out: Outcome{Status: 404}, want: false},
		{out: Outcome{Status: 500}, want: false},
		{out: Outcome{Status: 429}, want: true},
		{out: Outcome{Status: 503}, want: true},
		{out: Outcome{Err: errors.New("connection refused")}, want: false},
		{out: Outcome{Err: fmt.Errorf("fetch: %w", context.DeadlineExceeded)}, want: true},
		{out: Outcome{Err: fmt.Errorf("read: %w", os.ErrDeadlineExceeded)}, want: true},
		{out: Outcome{Err: &net.OpError{Op: "dial", Err: timeoutErr{timeout: true}}}, want: true},
		{out: Outcome{Err: timeoutErr{timeout: false}}, want: false},
		{out: Outcome{Err: context.Canceled}, want: false},
	}
	for _, tt := range tests {
		if got := tt.out.Throttled(); got != tt.want {
			t.Errorf("%+v.Throttled() = %v, want %v", tt.out, got, tt.want)
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2015, 10, 21, 7, 28, 0, 0, time.UTC)
	tests := []struct {
		value  string
		want   time.Duration
		wantOK bool
	}{
		{value: "120", want: 2 * time.Minute, wantOK: true},
		{value: " 0 ", want: 0, wantOK: true},
		{value: "Wed, 21 Oct 2015 07:30:00 GMT", want: 2 * time.Minute, wantOK: true},
		{value: "Wednesday, 21-Oct-15 07:29:00 GMT", want: time.Minute, wantOK: true},
		{value: "Wed Oct 21 07:28:30 2015", want: 30 * time.Second, wantOK: true},
		{value: "Wed, 21 Oct 2015 07:00:00 GMT", want: 0, wantOK: true},
		{value: "99999999999999999999999", want: time.Duration(1<<63 - 1), wantOK: true},
		{value: "9999999999999", want: time.Duration(1<<63 - 1), wantOK: true},
		{value: "", wantOK: false},
		{value: "-5", wantOK: false},
		{value: "1.5", wantOK: false},
		{value: "soon", wantOK: false},
	}
	for _, tt := range tests {
		got, ok := ParseRetryAfter(tt.value, now)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("ParseRetryAfter(%q) = %v, %v, want %v, %v", tt.value, got, ok, tt.want, tt.wantOK)
		}
	}
}

func FuzzParseRetryAfter(f *testing.F) {
	for _, s := range []string{"120", "Wed, 21 Oct 2015 07:28:00 GMT", "", "x", "1e3"} {
		f.Add(s)
	}
	now := time.Date(2015, 10, 21, 7, 28, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, value string) {
		d, ok := ParseRetryAfter(value, now)
		if d < 0 {
			t.Errorf("ParseRetryAfter(%q) = %v, negative", value, d)
		}
		if !ok && d != 0 {
			t.Errorf("ParseRetryAfter(%q) = %v, false: want 0 when not ok", value, d)
		}
	})
}
