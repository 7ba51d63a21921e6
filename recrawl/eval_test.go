package recrawl

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"
)

// evalWeb is a simulated host of the freshness evaluation: its pages'
// true change rates, from a seed.
type evalWeb struct {
	name  string
	pages int
	rates func(rng *rand.Rand, n int) []float64
}

// withDates is w with honest Last-Modified dates (Sim.HonestDates), as
// crawltest's changing web and many real servers send; evalCell knows it
// by its name.
func withDates(w evalWeb) evalWeb {
	w.name = datesPrefix + strings.TrimPrefix(w.name, "log-uniform ")
	return w
}

const datesPrefix = "dated "

var (
	// The web: log-uniform from 0.0005 to 2 changes a second
	// (3.6 decades), many pages far faster than any budget follows.
	webFast = evalWeb{"log-uniform 0.0005-2/s", 60, func(rng *rand.Rand, n int) []float64 {
		return logUniform(rng, n, 0.0005, 2)
	}}
	// Log-uniform from once in 3 days to every 5 minutes (2.9 decades).
	webSlow = evalWeb{"log-uniform 5min-3d", 200, func(rng *rand.Rand, n int) []float64 {
		return logUniform(rng, n, 1.0/(3*86400), 1.0/300)
	}}
	// The four discrete classes of TestRecrawlFreshness: every 2 minutes,
	// hourly, every 6 hours, every 2 days.
	webClasses = evalWeb{"four classes 2min-2d", 200, func(rng *rand.Rand, n int) []float64 {
		r := simRates(n)
		rng.Shuffle(n, func(i, j int) { r[i], r[j] = r[j], r[i] })
		return r
	}}
	// Most pages never change: 90 % static, the rest log-uniform from
	// hourly to every minute.
	webStatic = evalWeb{"90% never change", 200, func(rng *rand.Rand, n int) []float64 {
		r := make([]float64, n)
		for i := range r {
			if rng.Float64() < 0.1 {
				r[i] = logUniform(rng, 1, 1.0/3600, 1.0/60)[0]
			}
		}
		return r
	}}
)

// evalRow is one cell of the freshness table: mean freshness over seeds of
// each schedule at the default policy's number of fetches.
type evalRow struct {
	web                   string
	budgetX               float64       // budget / total change rate
	horizon               time.Duration // simulated time
	visits                float64       // horizon × budget / pages: revisits per page under uniform
	uniform, proportional float64
	policy, optimum       float64
	fetches, uniFetches   int     // the default policy's, uniform's (mean per seed)
	fastPages             float64 // share of pages the optimum gives nothing (too fast)
	fastFetches           float64 // share of the default policy's fetches they got
	fastFresh             float64 // their freshness under the default policy
	worstSeed             float64 // lowest policy − uniform over the seeds
	used                  float64 // the default policy's fetches / (budget × horizon)
	late                  float64 // the revisits' rate at the end / the revisit share (Planner.Hosts: Used / Budget)
}

func (r evalRow) reach() float64 {
	if r.optimum-r.uniform < 1e-3 {
		return math.NaN()
	}
	return (r.policy - r.uniform) / (r.optimum - r.uniform)
}

// evalCell simulates web at a budget of budgetX times its total change
// rate, for long enough that uniform revisits visit each page visits
// times, with the default Policy; then uniform, proportional and the
// optimal allocation from the true rates with the same number of
// fetches (Sim.Fixed), on the same pages and change times. Freshness is
// averaged over the last three quarters.
func evalCell(w evalWeb, budgetX, visits float64, seeds []uint64, pol Policy) evalRow {
	row := evalRow{web: w.name, budgetX: budgetX, visits: visits, worstSeed: math.Inf(1)}
	var fastN, fastF, fastFetch, allFetch float64
	for _, seed := range seeds {
		rates := w.rates(rand.New(rand.NewPCG(seed, 0xe7a1)), w.pages)
		total := sum(rates)
		if total == 0 {
			total = 1e-6
		}
		budget := budgetX * total
		length := time.Duration(visits * float64(w.pages) / budget * float64(time.Second))
		row.horizon = length
		base := Sim{Rates: rates, Budget: budget, Length: length, Warmup: length / 4, Seed: seed, Policy: pol, HonestDates: strings.HasPrefix(w.name, datesPrefix)}
		got, planner := simulate(base)
		for _, h := range planner.Hosts() {
			row.late += h.Used / h.Budget / float64(len(seeds))
		}
		// The same number of fetches for the fixed schedules: the
		// revisits made after the first pass over the pages.
		rate := float64(got.Fetches-w.pages) / length.Seconds()
		fixed := func(obj Objective) SimResult {
			s := base
			s.Fixed = Allocate(obj, rates, rate, 1e-12, budget)
			return Simulate(s)
		}
		u, p, o := fixed(Uniform), fixed(Proportional), fixed(MaxFreshness)
		k := float64(len(seeds))
		row.policy += got.Freshness / k
		row.uniform += u.Freshness / k
		row.proportional += p.Freshness / k
		row.optimum += o.Freshness / k
		row.fetches += got.Fetches / len(seeds)
		row.used += float64(got.Fetches) / (budget * length.Seconds()) / k
		row.uniFetches += u.Fetches / len(seeds)
		row.worstSeed = min(row.worstSeed, got.Freshness-u.Freshness)
		opt := Allocate(MaxFreshness, rates, rate, 0, budget)
		for i, f := range opt {
			allFetch += float64(got.PageFetches[i])
			if f <= 1e-9 && rates[i] > 0 {
				fastN++
				fastF += got.PageFreshness[i]
				fastFetch += float64(got.PageFetches[i])
			}
		}
	}
	row.fastPages = fastN / float64(w.pages*len(seeds))
	if fastN > 0 {
		row.fastFresh = fastF / fastN
		row.fastFetches = fastFetch / allFetch
	}
	return row
}

func (r evalRow) String() string {
	fast := "-"
	if r.fastPages > 0 {
		fast = fmt.Sprintf("%2.0f%% get %2.0f%%, F %.2f", 100*r.fastPages, 100*r.fastFetches, r.fastFresh)
	}
	reach := "   -"
	if x := r.reach(); !math.IsNaN(x) {
		reach = fmt.Sprintf("%3.0f%%", 100*x)
	}
	return fmt.Sprintf("%-22s %5.1fx %8s %4.0f  %.3f  %.3f  %.3f  %.3f  %s  %+.3f  %3.0f%%  %3.0f%%  %s",
		r.web, r.budgetX, shortDur(r.horizon), r.visits, r.uniform, r.proportional, r.policy, r.optimum, reach, r.worstSeed, 100*r.used, 100*r.late, fast)
}

func shortDur(d time.Duration) string {
	switch {
	case d >= 48*time.Hour:
		return fmt.Sprintf("%.1fd", d.Hours()/24)
	case d >= 2*time.Hour:
		return fmt.Sprintf("%.1fh", d.Hours())
	case d >= 2*time.Minute:
		return fmt.Sprintf("%.0fmin", d.Minutes())
	default:
		return fmt.Sprintf("%.0fs", d.Seconds())
	}
}

const evalHeader = "web                    budget  horizon  vis  unif   prop   policy optim  gap   worst   used   late  pages too fast: share, fetches, freshness"

// TestFreshnessTable is the table of the package doc: every web at
// budgets of 0.1, 1 and 10 times its total change rate, for horizons of
// 10 and 200 uniform revisits per page, 4 seeds each (seeds 101 to 104:
// not those the policy was tuned on); then two held-out webs at 0.3 and
// 3 times, 2 seeds. Set TRAWL_RECRAWL_EVAL=1 to run it (several minutes
// of CPU); TRAWL_RECRAWL_WEB=part runs the webs whose name has part ("dated": the
// log-uniform webs with honest Last-Modified dates), and
// TRAWL_RECRAWL_VISITS=10 the horizon of 10 revisits per page alone.
func TestFreshnessTable(t *testing.T) {
	if os.Getenv("TRAWL_RECRAWL_EVAL") == "" {
		t.Skip("set TRAWL_RECRAWL_EVAL=1 for the freshness table (about a minute)")
	}
	seeds := []uint64{101, 102, 103, 104}
	if s := os.Getenv("TRAWL_RECRAWL_SEEDS"); s == "tune" {
		seeds = []uint64{1, 2, 3}
	}
	var b strings.Builder
	b.WriteString(evalHeader + "\n")
	only := os.Getenv("TRAWL_RECRAWL_WEB") // a part of a web's name: that web alone
	horizon := func(v float64) bool {      // TRAWL_RECRAWL_VISITS=10: that horizon alone
		h := os.Getenv("TRAWL_RECRAWL_VISITS")
		return h == "" || h == fmt.Sprint(v)
	}
	for _, w := range []evalWeb{webFast, webSlow, webClasses, webStatic} {
		if only != "" && !strings.Contains(w.name, only) {
			continue
		}
		for _, bx := range []float64{0.1, 1, 10} {
			for _, visits := range []float64{10, 200} {
				if !horizon(visits) {
					continue
				}
				r := evalCell(w, bx, visits, seeds, Policy{})
				t.Log(r) // as it comes: the table takes minutes
				b.WriteString(r.String() + "\n")
				if r.policy < r.uniform {
					t.Errorf("%s at %.1fx for %v: the default policy %.3f is below uniform %.3f at the same fetches", w.name, bx, r.horizon, r.policy, r.uniform)
				}
			}
		}
	}
	// Held out: webs and budgets the policy was never run on while it
	// was tuned.
	b.WriteString("held out:\n")
	for _, w := range []evalWeb{webBimodal, webWide} {
		if only != "" && !strings.Contains(w.name, only) {
			continue
		}
		for _, bx := range []float64{0.3, 3} {
			for _, visits := range []float64{10, 100} {
				if !horizon(visits) {
					continue
				}
				r := evalCell(w, bx, visits, []uint64{201, 202}, Policy{})
				t.Log(r)
				b.WriteString(r.String() + "\n")
				if r.policy < r.uniform {
					t.Errorf("%s at %.1fx for %v: the default policy %.3f is below uniform %.3f at the same fetches", w.name, bx, r.horizon, r.policy, r.uniform)
				}
			}
		}
	}
	// The same webs with honest Last-Modified dates, which tell the
	// time of each change: over the first ten revisits per page.
	b.WriteString("with honest Last-Modified dates:\n")
	for _, w := range []evalWeb{withDates(webFast), withDates(webSlow)} {
		if only != "" && !strings.Contains(w.name, only) {
			continue
		}
		for _, bx := range []float64{0.1, 1, 10} {
			if !horizon(10) {
				continue
			}
			r := evalCell(w, bx, 10, seeds, Policy{})
			t.Log(r)
			b.WriteString(r.String() + "\n")
			if r.policy < r.uniform {
				t.Errorf("%s at %.1fx for %v: the default policy %.3f is below uniform %.3f at the same fetches", w.name, bx, r.horizon, r.policy, r.uniform)
			}
		}
	}
	t.Log("\n" + b.String())
}

var (
	// Two populations, half the pages around hourly and half around
	// weekly, each log-normal with a standard deviation of half a decade.
	webBimodal = evalWeb{"bimodal log-normal", 300, func(rng *rand.Rand, n int) []float64 {
		r := make([]float64, n)
		for i := range r {
			mu := math.Log(1.0 / 3600)
			if i%2 == 1 {
				mu = math.Log(1.0 / (7 * 86400))
			}
			r[i] = math.Exp(mu + rng.NormFloat64()*math.Ln10/2)
		}
		return r
	}}
	// Log-uniform over four decades, from once in 12 days to every 100 s.
	webWide = evalWeb{"log-uniform 1e-6..1e-2", 300, func(rng *rand.Rand, n int) []float64 {
		return logUniform(rng, n, 1e-6, 1e-2)
	}}
)

// TestFreshnessBeatsUniform is the short guard of the freshness table: on
// small webs (40 pages, 40 uniform revisits each, two seeds), the default
// policy is at least as fresh as uniform revisits with the same number of
// fetches, and on the log-uniform webs it reaches at least half of the
// gap from uniform to the optimum.
func TestFreshnessBeatsUniform(t *testing.T) {
	small := func(w evalWeb) evalWeb { w.pages = 40; return w }
	cells := []struct {
		web     evalWeb
		budgetX float64
		halfGap bool
	}{
		{small(webFast), 0.1, true},
		{small(webFast), 1, true},
		{small(webSlow), 0.3, true},
		{small(webClasses), 0.1, false},
		{small(webStatic), 1, false},
	}
	for _, c := range cells {
		r := evalCell(c.web, c.budgetX, 40, []uint64{11, 12}, Policy{})
		t.Log(r)
		if r.policy < r.uniform {
			t.Errorf("%s at %.1fx: the default policy %.3f is below uniform %.3f at the same fetches", c.web.name, c.budgetX, r.policy, r.uniform)
		}
		if c.halfGap && !(r.reach() >= 0.5) {
			t.Errorf("%s at %.1fx: the default policy %.3f reached %.0f%% of the gap from uniform %.3f to the optimum %.3f, want ≥ 50%%",
				c.web.name, c.budgetX, r.policy, 100*r.reach(), r.uniform, r.optimum)
		}
	}
}

// TestFreshnessShortHistory guards the first hours of a crawl, when
// every estimate rests on a few revisits: the web of issue 33 (60 pages,
// log-uniform rates from 0.0005 to 2 changes a second) and the slower
// log-uniform web at a budget of their total change rate, for 10 uniform
// revisits per page, eight seeds each (21 to 28, not those the policy was
// tuned on). The default policy must be at least as fresh as uniform
// revisits with the same fetches on every seed, and reach half of the gap
// from uniform to the optimum on their mean. (It reached 54 % and 57 %;
// the code before the posterior 51 % and 50 %: a guard against falling
// back, not a measure of the gain, which the freshness table gives.)
func TestFreshnessShortHistory(t *testing.T) {
	for _, w := range []evalWeb{webFast, webSlow} {
		r := evalCell(w, 1, 10, []uint64{21, 22, 23, 24, 25, 26, 27, 28}, Policy{})
		t.Log(r)
		if r.worstSeed < 0 {
			t.Errorf("%s, 10 revisits per page: on one seed the default policy was %.3f less fresh than uniform", w.name, -r.worstSeed)
		}
		if !(r.reach() >= 0.5) {
			t.Errorf("%s, 10 revisits per page: the default policy %.3f reached %.0f%% of the gap from uniform %.3f to the optimum %.3f, want ≥ 50%%",
				w.name, r.policy, 100*r.reach(), r.uniform, r.optimum)
		}
	}
}
