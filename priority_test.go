package trawl_test

import (
	"testing"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
)

// harvest returns how many of the pages fetched have the given topic.
func harvest(web *crawltest.Web, topic int) (on, all int) {
	for _, u := range web.Log().FetchedPages() {
		all++
		if web.Topic(u) == topic {
			on++
		}
	}
	return on, all
}

// TestPriorityOrderEndToEnd: with a score that prefers one topic, a crawl
// with a page budget fetches far more pages of that topic than breadth-first
// order does, so the scores reach the frontier and its order is honoured.
func TestPriorityOrderEndToEnd(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 4, Hosts: 10, PagesPerHost: 60, Topics: 8})
	const budget = 100
	// The topic closest to a 10% share of the web: rare enough that
	// breadth-first order wastes most of the budget on other topics.
	reachable := web.Reachable(testUA)
	share := map[int]int{}
	for _, u := range reachable {
		share[web.Topic(u)]++
	}
	topic := -1
	for tp, n := range share {
		if topic < 0 || abs(10*n-len(reachable)) < abs(10*share[topic]-len(reachable)) || (abs(10*n-len(reachable)) == abs(10*share[topic]-len(reachable)) && tp < topic) {
			topic = tp
		}
	}
	t.Logf("topic %d: %d of %d reachable pages", topic, share[topic], len(reachable))
	onTopic := func(l *trawl.Link, _ *trawl.Page) float64 {
		if web.Topic(l.URL) == topic {
			return 0.9
		}
		return 0.1
	}

	// One worker and no adaptive delay: the order is the frontier's alone,
	// not the timing of concurrent fetches, so both counts are the same on
	// every run.
	serial := []trawl.Option{trawl.WithWorkers(1), trawl.WithPoliteness(trawl.Politeness{Adaptive: -1})}
	_, _, err := crawl(t, web, append(serial, trawl.WithLimits(trawl.Limits{MaxPages: budget}))...)
	if err != nil {
		t.Fatal(err)
	}
	bfsOn, bfsAll := harvest(web, topic)

	web.ResetLog()
	_, _, err = crawl(t, web, append(serial, trawl.WithLimits(trawl.Limits{MaxPages: budget}), trawl.WithPriority(trawl.Priority{Link: onTopic}))...)
	if err != nil {
		t.Fatal(err)
	}
	prioOn, prioAll := harvest(web, topic)
	t.Logf("pages of topic %d: BFS %d/%d, priority %d/%d", topic, bfsOn, bfsAll, prioOn, prioAll)
	if prioOn < 2*bfsOn || prioOn < share[topic]/2 {
		t.Errorf("priority crawl fetched %d on-topic pages of %d, BFS %d: want at least twice as many", prioOn, prioAll, bfsOn)
	}
}

// TestPriorityStaysPolite: every link to one host scores highest, yet that
// host is never contacted more often than its delay allows, nor against
// robots.txt.
func TestPriorityStaysPolite(t *testing.T) {
	const delay = 20 * time.Millisecond
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 8, Hosts: 6, PagesPerHost: 25, RobotsVariety: true})
	best := web.Hosts()[0]
	score := func(l *trawl.Link, _ *trawl.Page) float64 {
		if info, ok := web.Page(l.URL); ok && info.Host == best {
			return 3.5
		}
		return 1
	}
	_, _, err := crawl(t, web, trawl.WithPoliteness(trawl.Politeness{Delay: delay}), trawl.WithPriority(trawl.Priority{Link: score}), trawl.WithPriority(trawl.Priority{Inlink: 0.01}))
	if err != nil {
		t.Fatal(err)
	}
	log := web.Log()
	if g, ok := log.MinGap()[best]; !ok || g < delay {
		t.Errorf("favoured host %s: smallest gap %v (seen %v), want ≥ %v", best, g, ok, delay)
	}
	for host, n := range log.MaxInFlight() {
		if n > 1 {
			t.Errorf("host %s had %d requests in flight", host, n)
		}
	}
	if v := log.RobotsViolations(testUA); len(v) > 0 {
		t.Errorf("%d robots violations under priority order", len(v))
	}
	missing, _ := diff(log.FetchedPages(), web.Reachable(testUA))
	if len(missing) > 0 {
		t.Errorf("priority crawl without a budget missed %d reachable pages", len(missing))
	}
}

func TestMainTextOnPage(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 6, Hosts: 1, PagesPerHost: 6})
	_, mem, err := crawl(t, web, trawl.WithMainText(trawl.MainText))
	if err != nil {
		t.Fatal(err)
	}
	var html int
	for _, p := range mem.Pages() {
		if p.ContentType != "text/html" {
			continue
		}
		html++
		if p.MainText == "" || len(p.MainText) >= len(p.Text) {
			t.Errorf("%s: MainText has %d bytes, visible text %d: want a non-empty part of it", p.URL, len(p.MainText), len(p.Text))
		}
	}
	if html == 0 {
		t.Fatal("no HTML page stored")
	}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
