package main

import (
	"testing"
	"time"

	"github.com/trawl-dev/trawl/crawltest"
)

func TestCheckHost(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	req := func(start, end int) crawltest.Request {
		r := crawltest.Request{Start: ms(start)}
		if end >= 0 {
			r.End = ms(end)
		}
		return r
	}
	tests := []struct {
		name  string
		reqs  []crawltest.Request
		limit int
		delay time.Duration
		want  hostCheck
	}{
		{name: "one request", reqs: []crawltest.Request{req(0, 5)}, limit: 1, delay: time.Second,
			want: hostCheck{maxInFlight: 1}},
		{name: "polite gaps", reqs: []crawltest.Request{req(0, 5), req(105, 110), req(210, 215)}, limit: 1, delay: 100 * time.Millisecond,
			want: hostCheck{maxInFlight: 1, minGap: 100 * time.Millisecond, gapped: true}},
		{name: "short gap", reqs: []crawltest.Request{req(0, 5), req(50, 55), req(200, 205)}, limit: 1, delay: 100 * time.Millisecond,
			want: hostCheck{violations: 1, maxInFlight: 1, minGap: 45 * time.Millisecond, gapped: true}},
		{name: "overlap over the limit", reqs: []crawltest.Request{req(0, 10), req(2, 12), req(4, 14)}, limit: 2,
			want: hostCheck{violations: 1, maxInFlight: 3, gapped: true}},
		{name: "two at once within the limit", reqs: []crawltest.Request{req(0, 10), req(2, 12), req(10, 20)}, limit: 2,
			want: hostCheck{maxInFlight: 2, gapped: true}},
		{name: "a request that never ended", reqs: []crawltest.Request{req(0, -1), req(500, 510)}, limit: 1, delay: 100 * time.Millisecond,
			want: hostCheck{violations: 1, maxInFlight: 2, gapped: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := checkHost(tc.reqs, tc.limit, tc.delay); got != tc.want {
				t.Errorf("checkHost(%s) = %+v, want %+v", tc.name, got, tc.want)
			}
		})
	}
}
