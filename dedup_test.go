package trawl_test

import (
	"context"
	"sync"
	"testing"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/dedup"
)

// TestDuplicateDetection scores the crawler's duplicate verdicts against
// the web's ground truth: exact copies must all be caught and attributed to
// a page of their group (precision and recall 1.0); near duplicates (same
// article, other boilerplate) at precision ≥ 0.98 and recall ≥ 0.95; and
// duplicates are not stored.
func TestDuplicateDetection(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 12, Hosts: 12, PagesPerHost: 60})
	group := map[string]int{} // page -> duplicate group, exact and near merged
	exact := map[string]bool{}
	for i, g := range web.ExactDuplicates() {
		for _, u := range g {
			group[u] = i + 1
			exact[u] = true
		}
	}
	next := len(group) + 1000
	for _, g := range web.NearDuplicates() {
		id := next
		next++
		// A near group's original may have exact copies: same group.
		if gid, ok := group[g[0]]; ok {
			id = gid
		}
		for _, u := range g {
			if _, ok := group[u]; !ok {
				group[u] = id
			}
		}
	}

	var mu sync.Mutex
	verdict := map[string]dedup.Match{}
	c, mem, err := crawl(t, web,
		trawl.WithDuplicateDetection(dedup.NewDetector(), trawl.DuplicatePolicy{}),
		trawl.WithEvents(trawl.Events{OnPage: func(_ context.Context, p *trawl.Page) {
			if p.ContentType == "text/html" {
				mu.Lock()
				verdict[p.URL.String()] = p.Duplicate
				mu.Unlock()
			}
		}}),
	)
	if err != nil {
		t.Fatal(err)
	}

	// Per group, the first fetched member is the original; every other
	// fetched member is a duplicate to find.
	members := map[int][]string{}
	for u, g := range group {
		if _, fetched := verdict[u]; fetched {
			members[g] = append(members[g], u)
		}
	}
	var exactWant, exactGot, nearWant, nearGot, falsePos, flagged int
	for _, us := range members {
		if len(us) < 2 {
			continue
		}
		var flaggedInGroup int
		for _, u := range us {
			if verdict[u].Kind != dedup.New {
				flaggedInGroup++
			}
		}
		want := len(us) - 1
		isExact := true
		for _, u := range us {
			isExact = isExact && exact[u]
		}
		if isExact {
			exactWant += want
			exactGot += min(flaggedInGroup, want)
		} else {
			nearWant += want
			nearGot += min(flaggedInGroup, want)
		}
	}
	for u, m := range verdict {
		if m.Kind == dedup.New {
			continue
		}
		flagged++
		if g, ok := group[u]; !ok || group[m.Of] != g {
			falsePos++
			t.Logf("false duplicate: %s marked %v of %s", u, m.Kind, m.Of)
		}
		if m.Kind == dedup.Exact && !exact[u] && group[u] == 0 {
			t.Errorf("%s marked an exact duplicate of %s, which it is not", u, m.Of)
		}
	}
	if exactWant == 0 || nearWant == 0 {
		t.Fatalf("the test web has %d exact and %d near duplicates fetched: too few to measure", exactWant, nearWant)
	}
	precision := float64(flagged-falsePos) / float64(flagged)
	t.Logf("exact: %d/%d found; near: %d/%d found; flagged %d, %d false (precision %.3f)",
		exactGot, exactWant, nearGot, nearWant, flagged, falsePos, precision)
	if exactGot != exactWant {
		t.Errorf("exact duplicates found %d of %d, want all", exactGot, exactWant)
	}
	if r := float64(nearGot) / float64(nearWant); r < 0.95 {
		t.Errorf("near-duplicate recall %.3f (%d/%d), want ≥ 0.95", r, nearGot, nearWant)
	}
	if precision < 0.98 {
		t.Errorf("duplicate precision %.3f, want ≥ 0.98", precision)
	}

	st := c.Stats()
	if st.Pages.ExactDuplicates+st.Pages.NearDuplicates != int64(flagged) {
		t.Errorf("Stats count %d+%d duplicates, pages say %d", st.Pages.ExactDuplicates, st.Pages.NearDuplicates, flagged)
	}
	for _, p := range mem.Pages() {
		if p.Duplicate.Kind != dedup.New {
			t.Errorf("duplicate %s was stored", p.URL)
		}
	}
}
