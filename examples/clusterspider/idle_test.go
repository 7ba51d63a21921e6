package main

import (
	"strings"
	"testing"

	"github.com/trawl-dev/trawl"
)

// TestIdleNote: why an agent fetched nothing.
func TestIdleNote(t *testing.T) {
	seen := trawl.Stats{URLs: trawl.URLStats{Discovered: 3, Duplicate: 3}}
	tests := []struct {
		name     string
		mine     trawl.Stats
		maxPages int64
		cluster  int64
		want     string
	}{
		{name: "fetched", mine: trawl.Stats{Fetch: trawl.FetchStats{Pages: 1}}, want: ""},
		{name: "page limit", mine: seen, maxPages: 30, cluster: 30, want: "reached -max-pages 30"},
		{name: "all seen", mine: seen, cluster: 50, want: "had seen every start URL already"},
		{name: "new seeds, none fetched", mine: trawl.Stats{URLs: trawl.URLStats{Discovered: 3, Duplicate: 1}}, want: ""},
	}
	for _, tt := range tests {
		got := idleNote("c", tt.mine, tt.maxPages, tt.cluster)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%s: idleNote = %q, want %q", tt.name, got, tt.want)
		}
	}
}
