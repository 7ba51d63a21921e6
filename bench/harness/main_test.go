package main

import "testing"

func TestDiscovered(t *testing.T) {
	tests := []struct {
		name, crawler, out string
		want               int64
	}{
		{name: "sitespider summary", crawler: "trawl",
			out:  "crawled 10 pages in 1s (10.0 pages/s), 100 bytes\nurls: 120 discovered, 20 duplicates, 3 filtered, 0 denied by robots.txt (1 robots.txt fetches), 0 still queued\n",
			want: 100},
		{name: "driver result line", crawler: "colly", out: "result fetched=10 discovered=42 elapsed=1.000\n", want: 42},
		{name: "sitespider summary", crawler: "trawl", out: "urls: 191679 distinct URLs queued, from 5000000 links and redirects in scope (4808321 of them to a URL already seen); 0 filtered, 0 denied by robots.txt (1000 robots.txt fetches), 0 still queued\n", want: 191679},
		{name: "sitespider variant", crawler: "trawl-default", out: "urls: 5 discovered, 1 duplicates, 0 filtered\n", want: 4},
		{name: "nothing", crawler: "gocrawl", out: "driver: no seeds\n", want: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := discovered(tc.crawler, tc.out); got != tc.want {
				t.Errorf("discovered(%q, %q) = %d, want %d", tc.crawler, tc.out, got, tc.want)
			}
		})
	}
}
