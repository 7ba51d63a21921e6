package frontier_test

import (
	"context"
	"testing"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/politeness"
)

func TestMemorySeenAndHostsWaiting(t *testing.T) {
	ctx := context.Background()
	m := frontier.NewMemory(&frontier.MemoryOptions{MaxPerHost: 2, Workers: 2,
		Politeness: politeness.Config{MinDelay: -1}})
	if got := m.HostsWaiting(); got != 0 {
		t.Errorf("HostsWaiting of an empty frontier = %d", got)
	}
	n, err := m.Push(ctx,
		frontier.Request{URL: "http://a.test/1"}, frontier.Request{URL: "http://a.test/2"},
		frontier.Request{URL: "http://a.test/3"}, // over a.test's budget
		frontier.Request{URL: "http://b.test/1"}, frontier.Request{URL: "http://c.test/1"})
	if err != nil || n != 4 {
		t.Fatalf("Push = %d, %v; want 4", n, err)
	}
	tests := []struct {
		url  string
		want bool
	}{
		{url: "http://a.test/1", want: true},
		{url: "http://a.test/3", want: false}, // dropped by the budget: not remembered
		{url: "http://c.test/1", want: true},
		{url: "http://d.test/", want: false},
	}
	for _, tt := range tests {
		if got := m.Seen(tt.url); got != tt.want {
			t.Errorf("Seen(%q) = %v, want %v", tt.url, got, tt.want)
		}
	}
	if got := m.HostsWaiting(); got != 3 {
		t.Errorf("HostsWaiting = %d, want 3", got)
	}
	req, err := m.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.HostsWaiting(); got != 2 {
		t.Errorf("HostsWaiting with %s's host leased = %d, want 2", req.URL, got)
	}
	if err := m.Done(req, frontier.Outcome{Status: 200}); err != nil {
		t.Fatal(err)
	}
	if !m.Seen(req.URL) {
		t.Errorf("Seen(%q) = false after it was done", req.URL)
	}
}
