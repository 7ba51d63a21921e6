package main

import (
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/cluster"
	"github.com/trawl-dev/trawl/urlnorm"
)

// TestOwnerNote: the summary says so when this agent owns none of the
// start URLs' hosts (three documentation sites over three agents left one
// with none), and says nothing for an agent that owns one, for an agent
// alone, or without start URLs.
func TestOwnerNote(t *testing.T) {
	seeds := []string{"http://127.0.2.1/index.html", "http://127.0.2.2/index.html", "http://127.0.2.3/en-US/index.html", "http://127.0.2.1/other.html"}
	ring := cluster.NewRing([]string{"a1", "a2", "a3"}, 0)
	owners := map[string]int{}
	for _, s := range seeds[:3] {
		k, err := urlnorm.KeyString(s)
		if err != nil {
			t.Fatal(err)
		}
		owners[ring.Owner(k)]++
	}
	noted := 0
	for _, a := range []string{"a1", "a2", "a3"} {
		note := ownerNote("c", a, ring, seeds)
		switch {
		case owners[a] == 0 && !strings.Contains(note, "owns none of the 3 hosts of the start URLs among the 3 agents"):
			t.Errorf("%s owns none of the hosts (owners %v); its note is %q", a, owners, note)
		case owners[a] > 0 && note != "":
			t.Errorf("%s owns %d of the hosts; its note is %q, want none", a, owners[a], note)
		}
		if note != "" {
			noted++
		}
	}
	if noted == 0 {
		t.Errorf("every agent owns a host (owners %v): the test shows nothing", owners)
	}
	if note := ownerNote("c", "a1", cluster.NewRing([]string{"a1"}, 0), seeds); note != "" {
		t.Errorf("an agent alone: note %q, want none", note)
	}
	if note := ownerNote("c", "a9", ring, nil); note != "" {
		t.Errorf("no start URLs: note %q, want none", note)
	}
}
