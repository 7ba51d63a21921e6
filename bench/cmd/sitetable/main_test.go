package main

import (
	"strings"
	"testing"
)

func TestMedian(t *testing.T) {
	tests := []struct {
		in   []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
	}
	for _, tt := range tests {
		if got := median(tt.in); got != tt.want {
			t.Errorf("median(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// TestTable checks the figures of a site's table: CPU per page, the ratio
// to wget taken per round, and Colly's requests beside its pages.
func TestTable(t *testing.T) {
	runs := []run{
		{Site: "handbook", Crawler: "trawl", Round: 1, Pages: 100, Wall: 1, CPU: 0.10, RSSMB: 20},
		{Site: "handbook", Crawler: "wget", Round: 1, Pages: 100, Wall: 2, CPU: 0.20, RSSMB: 5},
		{Site: "handbook", Crawler: "trawl", Round: 2, Pages: 100, Wall: 1, CPU: 0.30, RSSMB: 22},
		{Site: "handbook", Crawler: "wget", Round: 2, Pages: 100, Wall: 2, CPU: 0.20, RSSMB: 5},
		{Site: "handbook", Crawler: "colly", Round: 1, Pages: 100, Reqs: 400, Wall: 4, CPU: 1.0, RSSMB: 30},
	}
	var b strings.Builder
	table(&b, []site{{"handbook", "127.0.2.3", "/en-US/index.html"}}, []string{"trawl", "wget", "colly"}, runs)
	out := b.String()
	for _, want := range []string{
		"| trawl | 100 | 2.000 (1.000–3.000) | 1.00 (0.50–1.50) | 100 | 21 (22) |",
		"| wget | 100 | 2.000 (2.000–2.000) |  | 50 | 5 (5) |",
		"| colly | 100 (400 requests) | 10.000 (10.000–10.000) | 5.00 (5.00–5.00) | 25 | 30 (30) |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}
