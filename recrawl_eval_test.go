package trawl_test

import (
	"context"
	"os"
	"testing"
	"testing/synctest"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/recrawl"
)

// freshnessWebRate gives crawltest pages four classes of change rate: a
// quarter change every 2 minutes (too fast to keep fresh at the budget), a
// quarter hourly, a quarter every 6 hours and a quarter every 2 days.
func freshnessWebRate(h, id int) float64 {
	return 1 / []float64{120, 3600, 6 * 3600, 2 * 86400}[id%4]
}

// freshnessRun crawls a changing crawltest web continuously for length of
// simulated time with policy, one fetch a minute at most (Politeness.Delay), and
// returns the time-averaged freshness of the copies over [warmup, length]
// (a copy is fresh from its fetch, 200 or 304, until the page's next
// change), the number of pages, their true rates, and the fetch rates over
// the window: of the measured pages, and of all requests (the budget
// spent, on the web's other URLs too: feeds, sitemaps, pages found late).
func freshnessRun(t *testing.T, seed int64, policy recrawl.Policy, length, warmup time.Duration) (fresh float64, rates []float64, fetchRate, allRate float64, st trawl.Stats) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) {
		web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: seed, Hosts: 1, PagesPerHost: 120, InMemory: true, ChangeRate: freshnessWebRate})
		start := time.Now()
		c, err := trawl.New(
			trawl.WithSeeds(web.Seeds()...),
			trawl.WithUserAgent(testUA),
			trawl.WithDialContext(web.DialContext),
			trawl.WithAllowPrivateNetworks(true),
			trawl.WithFilters(trawl.SameHost(web.Seeds()...)),
			trawl.WithWorkers(2),
			trawl.WithPoliteness(trawl.Politeness{Delay: time.Minute}),
			trawl.WithPoliteness(trawl.Politeness{Adaptive: -1}),
			trawl.WithRecrawl(policy),
		)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), length)
		defer cancel()
		c.Run(ctx)
		st = c.Stats()
		end := start.Add(length)
		from := start.Add(warmup)

		fetches := map[string][]time.Time{}
		inWindow, allInWindow := 0, 0
		for _, r := range web.Log().Requests() {
			if r.Start.After(from) {
				allInWindow++
			}
			if _, ok := web.Page(r.URL); !ok || (r.Status != 200 && r.Status != 304) {
				continue
			}
			fetches[r.URL] = append(fetches[r.URL], r.Start)
			if r.Start.After(from) {
				inWindow++
			}
		}
		var freshTime time.Duration
		for u, fs := range fetches {
			info, _ := web.Page(u)
			if !fs[0].Before(from) {
				continue // found late: not part of the measured set
			}
			rates = append(rates, info.ChangeRate)
			for i, f := range fs {
				until := end
				if i+1 < len(fs) {
					until = fs[i+1]
				}
				if ch, _ := web.Changes(u, f, until); len(ch) > 0 {
					until = ch[0]
				}
				a, b := f, until
				if a.Before(from) {
					a = from
				}
				if b.After(end) {
					b = end
				}
				if b.After(a) {
					freshTime += b.Sub(a)
				}
			}
		}
		fresh = freshTime.Seconds() / (end.Sub(from).Seconds() * float64(len(rates)))
		fetchRate = float64(inWindow) / end.Sub(from).Seconds()
		allRate = float64(allInWindow) / end.Sub(from).Seconds()
	})
	return fresh, rates, fetchRate, allRate, st
}

// TestRecrawlFreshness is the end-to-end evidence for WithRecrawl: a
// crawltest web of 120 pages whose change rates are known (four classes,
// from every 2 minutes to every 2 days), crawled continuously in simulated
// time with one fetch a minute, two days, freshness averaged over the
// second day, on three webs (crawltest seeds 1 to 3). Pooled over them,
// the estimator-driven schedule must beat uniform revisits at the same
// fetch budget and reach at least half of the gap to the analytic optimum
// (the optimal allocation of that budget from the true rates). One web
// alone is noisy: about 90 pages over a day, where the whole gap is 0.04.
// The table is in the recrawl package documentation; set
// TRAWL_RECRAWL_EVAL=1 for a week instead of two days.
func TestRecrawlFreshness(t *testing.T) {
	length, warmup := 48*time.Hour, 24*time.Hour
	if os.Getenv("TRAWL_RECRAWL_EVAL") != "" {
		length = 7 * 24 * time.Hour
	}
	pol := recrawl.Policy{MinInterval: time.Minute, MaxInterval: 7 * 24 * time.Hour}
	uni := pol
	uni.Objective = recrawl.Uniform
	const fmin, fmax = 1 / (7 * 86400.0), 1 / 60.0
	var sumU, sumE, sumO float64
	const webs = 3
	for seed := int64(1); seed <= webs; seed++ {
		uFresh, rates, uRate, uAll, uSt := freshnessRun(t, seed, uni, length, warmup)
		eFresh, _, eRate, eAll, eSt := freshnessRun(t, seed, pol, length, warmup)
		optimum := recrawl.MeanFreshness(rates, recrawl.Allocate(recrawl.MaxFreshness, rates, uRate, fmin, fmax))
		t.Logf("web %d, %d pages, %v simulated (measured after %v):", seed, len(rates), length, warmup)
		t.Logf("  uniform revisits:   freshness %.3f at %.1f fetches/h; %d fetches, %d 304s", uFresh, uRate*3600, uSt.Fetch.Pages, uSt.Fetch.NotModified())
		t.Logf("  estimated schedule: freshness %.3f at %.1f fetches/h (estimated by the crawler %.3f); %d fetches, %d 304s, %d changes seen",
			eFresh, eRate*3600, eSt.Recrawl.Freshness, eSt.Fetch.Pages, eSt.Fetch.NotModified(), eSt.Recrawl.Changes)
		t.Logf("  optimum at %.1f fetches/h: %.3f; reached %.0f%% of the gap", uRate*3600, optimum, 100*(eFresh-uFresh)/(optimum-uFresh))
		// The budget is what each spent in all (the schedule spends less
		// than uniform on URLs that never change, more on the pages).
		if eAll > uAll*1.02 {
			t.Errorf("web %d: the schedule made %.1f requests/h, uniform %.1f/h: not the same budget", seed, eAll*3600, uAll*3600)
		}
		sumU, sumE, sumO = sumU+uFresh, sumE+eFresh, sumO+optimum
	}
	reach := (sumE - sumU) / (sumO - sumU)
	t.Logf("mean of %d webs: uniform %.3f, estimated schedule %.3f, optimum %.3f: %.0f%% of the gap", webs, sumU/webs, sumE/webs, sumO/webs, 100*reach)
	if sumE <= sumU || reach < 0.5 {
		t.Errorf("mean freshness: estimated schedule %.3f, uniform %.3f, optimum %.3f: want the schedule above uniform by at least half the gap",
			sumE/webs, sumU/webs, sumO/webs)
	}
}
