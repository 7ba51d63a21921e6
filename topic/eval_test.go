package topic_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/extract"
	"github.com/trawl-dev/trawl/maintext"
	"github.com/trawl-dev/trawl/topic"
)

const testUA = "trawltest/1.0 (+https://github.com/trawl-dev/trawl)"

// focus wires a Scorer into a crawl the way examples/focusedspider does:
// the page-score hook learns, scores and classifies each page once, the
// priority hook combines that score (Page.Score) with each link's anchor
// and URL, and the classifier counts the harvest.
type focus struct {
	scorer          *topic.Scorer
	pages, relevant atomic.Int64
}

func (f *focus) pageScore(p *trawl.Page) float64 {
	score, rel := f.scorer.Observe(p.MainText)
	p.Relevant = rel // counted in Stats.Pages.Relevant
	f.pages.Add(1)
	if rel {
		f.relevant.Add(1)
	}
	return score
}

func (f *focus) priority(l *trawl.Link, p *trawl.Page) float64 {
	return f.scorer.LinkScore(p.Score, l.Text, l.URL)
}

func (f *focus) options() []trawl.Option {
	return []trawl.Option{
		trawl.WithMainText(trawl.MainText),
		trawl.WithPriority(trawl.Priority{Page: f.pageScore, Link: f.priority}),
	}
}

// evalWeb is a topic-labelled web and the topic (closest to a 10% share of
// the reachable pages) that the crawls focus on.
type evalWeb struct {
	web       *crawltest.Web
	topic     int
	share     int // reachable pages of the topic
	reachable int
	examples  []string // main text of a few pages of the topic
}

func newEvalWeb(t *testing.T, opts *crawltest.Options) *evalWeb {
	t.Helper()
	web := crawltest.NewTestWeb(t, opts)
	reachable := web.Reachable(testUA)
	share := map[int]int{}
	for _, u := range reachable {
		share[web.Topic(u)]++
	}
	n := len(reachable)
	best := -1
	for tp := range opts.Topics {
		if best < 0 || abs(10*share[tp]-n) < abs(10*share[best]-n) {
			best = tp
		}
	}
	e := &evalWeb{web: web, topic: best, share: share[best], reachable: n}
	// Three pages of the topic, deep in the sorted list, as the user's
	// examples of what they want.
	var on []string
	for _, u := range reachable {
		if web.Topic(u) == best && !strings.HasSuffix(u, "/") {
			on = append(on, u)
		}
	}
	slices.Sort(on)
	for _, u := range on[len(on)/2 : len(on)/2+3] {
		e.examples = append(e.examples, mainText(t, web.Client(), u))
	}
	return e
}

func mainText(t *testing.T, c *http.Client, rawURL string) string {
	t.Helper()
	resp, err := c.Get(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	text, err := maintext.Extract(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// result is one crawl's harvest: on-topic pages (by the web's labels) and,
// in topic-directed crawls, relevant pages (by the scorer's classifier)
// among the pages fetched.
type result struct {
	onTopic, relevant, fetched int
}

// evalRuns is how many crawls each cell of the evaluation table averages.
const evalRuns = 3

func (r result) add(o result) result {
	return result{r.onTopic + o.onTopic, r.relevant + o.relevant, r.fetched + o.fetched}
}

func (r result) rate() float64 {
	if r.fetched == 0 {
		return 0
	}
	return float64(r.onTopic) / float64(r.fetched)
}

// Crawl orders compared by the evaluation.
const (
	orderBFS    = "BFS"
	orderInlink = "in-link"
	orderTopic  = "topic"
)

// run crawls e.web with a budget of pages in the given order and returns
// the harvest.
func (e *evalWeb) run(t *testing.T, order string, budget int, opts ...topic.Option) result {
	t.Helper()
	e.web.ResetLog()
	scorer, err := topic.New("", append([]topic.Option{topic.WithExamples(e.examples...)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	f := &focus{scorer: scorer}
	crawlOpts := []trawl.Option{
		trawl.WithSeeds(e.web.Seeds()...),
		trawl.WithUserAgent(testUA),
		trawl.WithDialContext(e.web.DialContext),
		trawl.WithAllowPrivateNetworks(true),
		trawl.WithFilters(trawl.SameHost(e.web.Seeds()...)),
		trawl.WithWorkers(8),
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}),
		trawl.WithLimits(trawl.Limits{MaxPages: budget}),
		// Links only, as when this test was written: sitemaps would
		// spend the budget on every host's sitemap files and list every
		// page, which is another experiment.
		trawl.WithFollow(extract.Navigation, extract.Frame, extract.Redirect, extract.Form),
	}
	switch order {
	case orderBFS:
	case orderInlink:
		crawlOpts = append(crawlOpts,
			trawl.WithPriority(trawl.Priority{Link: func(*trawl.Link, *trawl.Page) float64 { return 0 }, Inlink: 0.01}))
	case orderTopic:
		crawlOpts = append(crawlOpts, f.options()...)
	}
	c, err := trawl.New(crawlOpts...)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	log := e.web.Log()
	// Priority order must not make the crawl impolite.
	for host, n := range log.MaxInFlight() {
		if n > 1 {
			t.Errorf("%s crawl: host %s had %d requests in flight", order, host, n)
		}
	}
	if v := log.RobotsViolations(testUA); len(v) > 0 {
		t.Errorf("%s crawl: %d robots.txt violations", order, len(v))
	}
	var r result
	for _, u := range log.FetchedPages() {
		r.fetched++
		if e.web.Topic(u) == e.topic {
			r.onTopic++
		}
	}
	r.relevant = int(f.relevant.Load())
	if got := c.Stats().Pages.Relevant; got != f.relevant.Load() {
		t.Errorf("%s crawl: Stats.Pages.Relevant %d, the scorer judged %d pages relevant", order, got, f.relevant.Load())
	}
	return r
}

// TestHarvestRate is issue 9's acceptance test: on a web where about 10% of
// the pages are on the topic, a topic-directed crawl described by three
// example pages reaches at least twice the harvest rate of breadth-first
// order with the same budget. (In-link order is in TestEvaluationTable.)
func TestHarvestRate(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: crawls a synthetic web four times")
	}
	e := newEvalWeb(t, &crawltest.Options{Seed: 3, Hosts: 60, PagesPerHost: 40, Topics: 8})
	t.Logf("topic %d: %d of %d reachable pages (%.1f%%)", e.topic, e.share, e.reachable, 100*float64(e.share)/float64(e.reachable))
	// Concurrent crawls differ from run to run: two of each, summed.
	const budget, runs = 300, 2
	got := map[string]result{}
	for _, order := range []string{orderBFS, orderTopic} {
		for range runs {
			got[order] = got[order].add(e.run(t, order, budget))
		}
		r := got[order]
		t.Logf("%-5s harvest %.3f (%d/%d on topic)", order, r.rate(), r.onTopic, r.fetched)
	}
	bfs, focused := got[orderBFS], got[orderTopic]
	t.Logf("the scorer judged %d of the topic-directed pages relevant", focused.relevant)
	// The budget counts every fetch; the log's pages leave out redirects
	// and errors.
	if focused.fetched < runs*budget*9/10 || bfs.fetched < runs*budget*9/10 {
		t.Fatalf("fetched %d (BFS) and %d (topic) pages in %d crawls each, want about %d", bfs.fetched, focused.fetched, runs, runs*budget)
	}
	if focused.rate() < 2*bfs.rate() {
		t.Errorf("topic-directed harvest %.3f, BFS %.3f: want at least twice BFS", focused.rate(), bfs.rate())
	}
}

// TestEvaluationTable prints the README's table (TRAWL_FOCUS_EVAL=1):
// harvest rates for several budgets and webs.
func TestEvaluationTable(t *testing.T) {
	if os.Getenv("TRAWL_FOCUS_EVAL") == "" {
		t.Skip("set TRAWL_FOCUS_EVAL=1 to print the evaluation table")
	}
	var out strings.Builder
	fmt.Fprintln(&out, "| web (seed) | topic share | budget | BFS | in-link | topic-directed | topic / BFS | best possible | classifier precision / recall |")
	fmt.Fprintln(&out, "|---|---|---|---|---|---|---|---|---|")
	for _, seed := range []int64{3, 5, 7} {
		e := newEvalWeb(t, &crawltest.Options{Seed: seed, Hosts: 60, PagesPerHost: 40, Topics: 8})
		for _, budget := range []int{100, 200, 400, 800} {
			// Concurrent crawls differ from run to run: each cell is
			// the mean of three.
			var bfs, in, tp result
			var prec, rec float64
			for range evalRuns {
				bfs = bfs.add(e.run(t, orderBFS, budget))
				in = in.add(e.run(t, orderInlink, budget))
				tp = tp.add(e.run(t, orderTopic, budget))
				p, r := e.classifierQuality(t, budget)
				prec, rec = prec+p/evalRuns, rec+r/evalRuns
			}
			fmt.Fprintf(&out, "| %d | %.1f%% of %d | %d | %.3f | %.3f | %.3f | %.1f× | %.3f | %.2f / %.2f |\n",
				seed, 100*float64(e.share)/float64(e.reachable), e.reachable, budget,
				bfs.rate(), in.rate(), tp.rate(), tp.rate()/bfs.rate(),
				float64(min(e.share, budget))/float64(budget), prec, rec)
		}
	}
	t.Log("\n" + out.String())
}

// classifierQuality runs a topic-directed crawl and returns the default
// classifier's precision and recall against the web's labels.
func (e *evalWeb) classifierQuality(t *testing.T, budget int) (precision, recall float64) {
	t.Helper()
	e.web.ResetLog()
	scorer, err := topic.New("", topic.WithExamples(e.examples...))
	if err != nil {
		t.Fatal(err)
	}
	f := &focus{scorer: scorer}
	var mu sync.Mutex
	var tp, fp, fn int
	onPage := func(ctx context.Context, p *trawl.Page) {
		rel := scorer.Relevant(p.MainText)
		on := e.web.Topic(p.URL.String()) == e.topic
		mu.Lock()
		defer mu.Unlock()
		switch {
		case rel && on:
			tp++
		case rel:
			fp++
		case on:
			fn++
		}
	}
	c, err := trawl.New(
		trawl.WithSeeds(e.web.Seeds()...), trawl.WithUserAgent(testUA),
		trawl.WithDialContext(e.web.DialContext), trawl.WithAllowPrivateNetworks(true),
		trawl.WithFilters(trawl.SameHost(e.web.Seeds()...)), trawl.WithWorkers(8), trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}),
		trawl.WithLimits(trawl.Limits{MaxPages: budget}), trawl.WithMainText(trawl.MainText),
		trawl.WithPriority(trawl.Priority{Page: f.pageScore}), trawl.WithEvents(trawl.Events{OnPage: onPage}),
		trawl.WithPriority(trawl.Priority{Link: f.priority}),
	)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	return float64(tp) / float64(max(tp+fp, 1)), float64(tp) / float64(max(tp+fn, 1))
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
