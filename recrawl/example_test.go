package recrawl_test

import (
	"fmt"
	"time"

	"github.com/trawl-dev/trawl/recrawl"
)

// Cho and Garcia-Molina's point: with a fixed budget, revisiting every page
// equally often beats revisiting pages in proportion to how often they
// change, and the optimal allocation beats both by giving up on pages that
// change too fast to keep fresh.
func ExampleAllocate() {
	lambdas := []float64{1.0 / 60, 1.0 / 3600, 1.0 / 86400} // per second: every minute, hour, day
	budget := 3.0 / 3600                                    // three fetches an hour for the three pages
	for _, obj := range []recrawl.Objective{recrawl.Proportional, recrawl.Uniform, recrawl.MaxFreshness} {
		rates := recrawl.Allocate(obj, lambdas, budget, 1e-9, 1)
		fmt.Printf("%-12v mean freshness %.2f\n", obj, recrawl.MeanFreshness(lambdas, rates))
	}
	// Output:
	// proportional mean freshness 0.05
	// uniform      mean freshness 0.54
	// freshness    mean freshness 0.59
}

func ExampleEstimateRegular() {
	// 20 visits an hour apart, 8 of which found the page changed.
	l := recrawl.EstimateRegular(20, 8, time.Hour)
	fmt.Printf("about one change every %v\n", time.Duration(float64(time.Second)/l).Round(time.Minute))
	// Output:
	// about one change every 2h1m0s
}

// A host with a single page and a fetch a minute: the page's first
// revisit comes at 90 % of the budget (the plan keeps a tenth free); once
// it has a history, its rate is the one that maximises its expected
// freshness under what that history says of its change rate, a little
// under the budget while the history is short.
func ExamplePlanner() {
	p := recrawl.NewPlanner(recrawl.Policy{Rate: 1.0 / 60}) // a fetch a minute for this host
	var h recrawl.History
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	texts := []uint64{1, 1, 2, 2, 2, 3}
	for _, text := range texts {
		next, changed := p.Visit("example.com", "https://example.com/news/", &h, recrawl.Visit{
			At: at, Text: text, Simhash: text * 0x9e3779b97f4a7c15,
		})
		fmt.Printf("changed=%v next in %v\n", changed, next.Round(time.Second))
		at = at.Add(next)
	}
	fmt.Println(h.Visits, "visits,", h.Changes, "changes seen")
	// Output:
	// changed=false next in 1m7s
	// changed=false next in 1m19s
	// changed=true next in 1m17s
	// changed=false next in 1m13s
	// changed=false next in 1m11s
	// changed=true next in 1m11s
	// 6 visits, 2 changes seen
}
