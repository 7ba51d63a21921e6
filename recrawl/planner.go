package recrawl

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"
)

// Policy configures a continuous crawl's revisits. The zero Policy is
// valid: maximise freshness, a budget derived from the crawl's politeness,
// revisits between one slot of that budget and 7 days apart.
type Policy struct {
	// Objective is what the schedule optimises. Default MaxFreshness.
	Objective Objective
	// Func, if set, chooses every page's next revisit interval from its
	// History instead of Objective (clamped to [MinInterval,
	// MaxInterval]). It is called from many goroutines at once.
	Func func(h *History) time.Duration
	// Rate is the revisit budget of each host, in fetches per second.
	// Default 0: a crawler derives it from its politeness delay (trawl
	// uses 0.9 per delay, or per robots.txt Crawl-delay when longer,
	// leaving a tenth of the host's fetches for new pages).
	Rate float64
	// MinInterval is the shortest time between two visits of a page.
	// Default 0: one slot of the host's budget (1/Rate; at least a
	// sixteenth of a second, the resolution of a History), so the floor
	// scales with the budget and never keeps a host from spending it. A
	// MinInterval that is set is a hard floor: it may leave a host's
	// budget idle (Planner.Hosts shows it).
	MinInterval time.Duration
	// MaxInterval is the longest: every page is revisited at least this
	// often, however fast it changes or however rarely, so no page
	// starves. Default 7 days.
	MaxInterval time.Duration
	// ChangeDistance is the number of simhash bits by which a page's text
	// may differ and still count as unchanged when its exact fingerprint
	// differs (a clock, a rotating ad line), unless the server's ETag or
	// Last-Modified moved too (then it is an edit). Default 3; negative:
	// any difference in the normalised text is a change.
	ChangeDistance int
	// PriorSpread is the width of the prior on a page's change rate, in
	// decades: the standard deviation of its log-normal prior, centred on
	// the page's group's rate (see the package doc). A page's estimate is
	// the posterior's mean; a narrower prior holds young pages closer to
	// their group. Default 0.7 (1.5 until issue 33's third round).
	PriorSpread float64
	// DefaultRate is the group rate on which the prior of a page with
	// nothing else to go on (no established estimates on its host or
	// directory, no sitemap) is centred, per second. Default 0:
	// the host's planned budget per page, the rate at which uniform
	// revisits would come, so that before the first estimates the
	// schedule is uniform, whatever the time scale of the web.
	DefaultRate float64
	// HeadProbe, when set, makes a revisit of a page whose copy has an
	// ETag or Last-Modified start with a conditional HEAD. A 304, or the
	// copy's validators, reads as unchanged, as a 304 to the GET would,
	// and no GET is sent; otherwise (validators changed or missing, an
	// error status) the GET follows on the host's next turn, so the
	// politeness delay passes between the two. It pays off where the
	// server's validators are trusted and most revisits find the page
	// unchanged but the server answers conditional GETs in full; each
	// changed page then costs two requests, and two of the host's
	// politeness slots, instead of one. Default false: revisits are
	// conditional GETs only.
	HeadProbe bool
}

func (p Policy) withDefaults() Policy {
	if p.MinInterval < 0 {
		p.MinInterval = 0
	}
	if p.MaxInterval <= 0 {
		p.MaxInterval = 7 * 24 * time.Hour
	}
	if p.MaxInterval < max(p.MinInterval, obsUnit) {
		p.MaxInterval = max(p.MinInterval, obsUnit)
	}
	if p.ChangeDistance == 0 {
		p.ChangeDistance = 3
	}
	if p.PriorSpread <= 0 {
		p.PriorSpread = 0.7
	}
	if p.DefaultRate < 0 {
		p.DefaultRate = 0
	}
	return p
}

// Visit is what one fetch of a page found, for Planner.Visit.
type Visit struct {
	At          time.Time // when the answer came
	NotModified bool      // a 304 answer to a conditional GET: unchanged
	// Text and Simhash fingerprint the page's text (for a 200 answer):
	// dedup.ContentFingerprint and dedup.Simhash of its main or visible
	// text. Bytes are not compared: ads and clocks change them.
	Text, Simhash uint64
	ETag          string    // the answer's validators
	LastModified  time.Time // zero if none
	// ChangeFreq and LastMod are what a sitemap said about the page
	// (sitemaps.org changefreq and lastmod); used as a prior on the
	// first visit.
	ChangeFreq string
	LastMod    time.Time
}

// A host's plan allocates headroom × its budget, less what new pages'
// quick first revisits take (at least minShare): revisits that fall due
// at irregular times queue behind each other, and a queue loaded to 100 %
// only grows, stretching every interval (and, with them, saturating the
// estimates of fast-changing pages).
const (
	headroom   = 0.9
	minShare   = 0.5
	quickShare = 0.25 // at most, of the budget, for quick revisits
	// floorShare is the exploration floor of MaxFreshness and MinAge: no
	// page is revisited less often than this share of the uniform rate, so
	// every estimate keeps being corrected. (A quarter until the
	// posterior: over the first ten revisits per page it cost a third of
	// the gain on log-uniform webs; an eighth until the prior narrowed to
	// 0.7 decades.)
	floorShare = 0.0625
	// mixWeight is how many revisits the uniform rate is worth in the
	// safe mix of a page's rate under MinAge (Planner.interval).
	mixWeight = 2
)

// probes reports whether pages whose revisits all found a change get
// quick probes: under MaxFreshness without a Policy.Func.
func (p *Planner) probes() bool {
	return p.policy.Objective == MaxFreshness && p.policy.Func == nil
}

// warmup is how many visits a page's estimate must rest on to feed its
// group's prior, and (less one) how many revisits must all have found a
// change before it is probed or judged too fast.
const warmup = 4

// nBuckets is the resolution of a host's histogram of estimated change
// rates: 8 per decade from 1e-9/s (once in 30 years) to 10/s.
const (
	nBuckets     = 81
	bucketLow    = -9.0 // log10 of the lowest bucket's rate
	bucketPerDec = 8.0
)

func bucketOf(rate float64) uint8 {
	if rate <= 0 {
		return 1
	}
	b := int(math.Round((math.Log10(rate)-bucketLow)*bucketPerDec)) + 1
	return uint8(min(max(b, 1), nBuckets-1))
}

func bucketRate(b int) float64 {
	return math.Pow(10, bucketLow+float64(b-1)/bucketPerDec)
}

// hostPlan is the schedule of one host: how many of its pages have each
// estimated change rate, the budget, and the solved allocation.
type hostPlan struct {
	counts  [nBuckets]int32
	sums    [nBuckets]float64 // Σ rate of the pages in each bucket
	n       int
	rate    float64 // revisit budget per second
	plan    plan
	changes int // updates since the plan was solved
	stale   bool
	fresh   float64 // expected mean freshness under the plan
	solvedN int     // pages when last solved: fresh's weight in Planner.fresh
	ema     float64 // running mean of ln(rate) of the host's established estimates
	learned int     // estimates in ema
	warm    float64 // Σ 1/interval of the quick revisits due, per second
	load    float64 // Σ 1/interval of all the revisits due, per second
	since   int     // visits since the last solve
	adj     float64 // correction of the planned budget, from load
	// spanN counts the revisits since the last solve, made between
	// spanFrom and spanTo (unix seconds): the revisit rate realised,
	// below the plan's when revisits queue behind each other. late is the
	// running correction of the planned budget it gives.
	spanFrom, spanTo float64
	spanN            int
	late             float64
	made             float64 // the revisit rate realised, a running mean over spans

}

// Planner keeps the revisit schedule of a continuous crawl: per host, a
// histogram of its pages' estimated change rates and the allocation of the
// host's fetch budget that the Policy's objective chooses, re-solved as
// estimates change; and per directory a running mean of the estimates, the
// prior for new pages. It holds no per-page state: each page's History
// travels with its URL (in the frontier) and is given to Visit.
//
// Memory: about 1.1 KB per host and 40 per directory prior (at most
// maxDirs of them), nothing per page.
//
// A Planner is safe for concurrent use.
type Planner struct {
	policy Policy
	id     uint32 // tells this planner's counts from a previous process's

	mu    sync.Mutex
	hosts map[string]*hostPlan
	dirs  map[string]*dirPrior
	pages int
	fresh float64 // Σ over hosts of n × expected freshness
}

type dirPrior struct {
	ema float64 // running mean of ln(rate)
	n   int
}

// maxDirs bounds the directory priors kept.
const maxDirs = 1 << 16

// NewPlanner returns a Planner for policy.
func NewPlanner(policy Policy) *Planner {
	return &Planner{
		policy: policy.withDefaults(),
		id:     rand.Uint32() | 1,
		hosts:  make(map[string]*hostPlan),
		dirs:   make(map[string]*dirPrior),
	}
}

// Policy returns the planner's policy, defaults filled in.
func (p *Planner) Policy() Policy { return p.policy }

// SetRate sets host's revisit budget, in fetches per second, unless the
// Policy fixes one. A crawler calls it when it learns the host's delay.
func (p *Planner) SetRate(host string, rate float64) {
	if p.policy.Rate > 0 || rate <= 0 {
		return
	}
	p.mu.Lock()
	hp := p.host(host)
	if hp.rate != rate {
		hp.rate, hp.stale = rate, true
	}
	p.mu.Unlock()
}

func (p *Planner) host(name string) *hostPlan {
	hp := p.hosts[name]
	if hp == nil {
		hp = &hostPlan{rate: p.policy.Rate, stale: true, adj: 1, late: 1}
		if hp.rate <= 0 {
			hp.rate = 0.9 // one fetch a second, politeness's default
		}
		p.hosts[name] = hp
	}
	return hp
}

// Changed reports whether a 200 answer with fingerprints text and sim
// differs from the copy h holds, under the policy's ChangeDistance.
func (p *Planner) Changed(h *History, text, sim uint64) bool {
	if h.Visits == 0 || text == h.Text {
		return false
	}
	d := p.policy.ChangeDistance
	return d < 0 || bitsDiff(sim, h.Simhash) > d
}

// validatorsMoved reports whether v's validators differ from those of the
// copy h holds, both being present.
func validatorsMoved(h *History, v Visit) bool {
	return (h.ETag != "" && v.ETag != "" && h.ETag != v.ETag) ||
		(!h.LastModified.IsZero() && !v.LastModified.IsZero() && !h.LastModified.Equal(v.LastModified))
}

func bitsDiff(a, b uint64) int {
	n := 0
	for x := a ^ b; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// Visit records in h what a fetch of the page at rawURL on host found,
// updates the page's change-rate estimate and the host's schedule, and
// returns how long to wait before the next visit. It reports whether the
// page changed since the previous visit (false on the first).
func (p *Planner) Visit(host, rawURL string, h *History, v Visit) (next time.Duration, changed bool) {
	first := h.Visits == 0
	var realised time.Duration
	if !first {
		interval := v.At.Sub(h.Last)
		realised = interval
		switch {
		case v.NotModified:
			h.NotModified++
		default:
			changed = p.Changed(h, v.Text, v.Simhash)
			if !changed && v.Text != h.Text && validatorsMoved(h, v) {
				// The text differs a little, and the server's
				// validators say the page changed: an edit, not a
				// clock.
				changed = true
			}
		}
		h.observe(interval, changed)
		if changed {
			h.Changes++
		}
		p.checkLastModified(h, v, changed, interval)
	}
	if !v.NotModified {
		h.Text, h.Simhash = v.Text, v.Simhash
		h.ETag, h.LastModified = v.ETag, v.LastModified
	}
	if first {
		h.First = v.At
	}
	h.Visits++
	h.Last = v.At

	p.mu.Lock()
	defer p.mu.Unlock()
	hp := p.host(host)
	if first {
		h.Prior = sitemapRate(v.ChangeFreq, v.LastMod, v.At)
		h.sitemap = h.Prior > 0
		if !h.sitemap {
			h.Prior = p.groupRate(hp, host, rawURL)
		}
	}
	// The page's estimate is the mean of its posterior: a
	// log-normal prior PriorSpread decades wide, centred on its group's
	// rate (its directory's, else its host's, else the budget per page)
	// as it is now, or on what its sitemap said; times the likelihood of
	// its revisits. In log space, since rates span decades and a page
	// that changes rarely is as far from the mean as one that changes
	// often.
	target := h.Prior
	if !h.sitemap {
		target = p.groupRate(hp, host, rawURL)
	}
	q := h.posterior(target, p.policy.PriorSpread*math.Ln10)
	h.Rate = target
	if h.nobs > 0 {
		h.Rate = q.estimate()
	}
	if own, n := h.estimate(); n >= warmup {
		p.learn(host, rawURL, own)
	}
	lowerBound := h.Rate
	if p.probes() && h.tooFast(hp.plan.mu) {
		lowerBound = math.Inf(1) // no probe: it is known to be too fast
		// The page changes too fast to keep fresh, whatever the noise
		// in its estimate (which, when most revisits found a change,
		// rests on its prior's upper tail): even its marginal gain at
		// rate 0, 1/λ, is under the plan's multiplier. Counting it above
		// 1/μ gives it the minimum rate, and its share of the budget to
		// the others.
		h.Rate = max(h.Rate, 2/hp.plan.mu)
	}
	owned := h.owner == p.id && h.bucket != 0
	if owned && realised > 0 {
		// The revisits made: irregular intervals queue behind each
		// other, and a plan that sums to the budget is then not all
		// spent.
		at := float64(v.At.UnixNano()) / 1e9
		if hp.spanN == 0 {
			hp.spanFrom, hp.spanTo = at, at
		}
		hp.spanFrom, hp.spanTo = min(hp.spanFrom, at), max(hp.spanTo, at)
		hp.spanN++
	}
	p.count(hp, h)
	var quick bool
	next, quick = p.interval(hp, h, lowerBound, &q)
	p.issue(hp, h, owned, next, quick)
	return next, changed
}

// checkLastModified keeps h's verdict on the honesty of the page's
// Last-Modified dates and, while they are honest, the Last-Modified
// estimator's sums.
func (p *Planner) checkLastModified(h *History, v Visit, changed bool, interval time.Duration) {
	if h.lm == lmDishonest || v.NotModified {
		if v.NotModified && h.lm != lmDishonest {
			h.lmExp += interval.Seconds()
		}
		return
	}
	lm := v.LastModified
	switch {
	case lm.IsZero() || h.LastModified.IsZero(),
		lm.After(v.At.Add(time.Minute)),                // in the future
		changed != lm.After(h.LastModified),            // the date moved without a change (a server that says "now") or stayed with one
		changed && !lm.After(h.Last.Add(-time.Second)): // a change dated before the last visit
		h.lm = lmDishonest
		h.lmN, h.lmExp = 0, 0
		return
	}
	h.lm = lmHonest
	if changed {
		h.lmN++
		h.lmExp += max(v.At.Sub(lm).Seconds(), 0)
	} else {
		h.lmExp += interval.Seconds()
	}
}

// Forget removes a page from its host's schedule: it is gone (404, 410),
// disallowed, or out of the crawl.
func (p *Planner) Forget(host string, h *History) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if h.owner != p.id || h.bucket == 0 {
		return
	}
	if hp := p.hosts[host]; hp != nil {
		hp.counts[h.bucket]--
		hp.sums[h.bucket] -= float64(h.counted)
		hp.n--
		p.pages--
		if h.planned > 0 {
			hp.load -= h.plannedRate()
			if h.quick {
				hp.warm -= h.plannedRate()
			}
		}
		hp.changes++
		hp.stale = true
	}
	h.bucket = 0
}

// issue records h's next interval, and in hp's load of quick revisits
// (a new page's first ones, probes) the ones that come before the plan
// says; owned says h was this planner's before the visit. Call with p.mu
// held.
func (p *Planner) issue(hp *hostPlan, h *History, owned bool, next time.Duration, quick bool) {
	if owned && h.planned > 0 {
		hp.load -= h.plannedRate()
		if h.quick {
			hp.warm -= h.plannedRate() // the quick revisit just made
		}
	}
	h.planned = uint32(min(max(next/time.Millisecond, 1), math.MaxUint32))
	h.quick = quick
	hp.load += h.plannedRate()
	if quick {
		hp.warm += h.plannedRate()
	}
}

// count moves h to the bucket of its current estimate in hp. Call with
// p.mu held.
func (p *Planner) count(hp *hostPlan, h *History) {
	b := bucketOf(h.Rate)
	if h.owner == p.id && h.bucket != 0 {
		hp.counts[h.bucket]--
		hp.sums[h.bucket] -= float64(h.counted)
	} else {
		hp.n++
		p.pages++
	}
	if h.owner != p.id || h.bucket != b {
		hp.changes++
	}
	hp.counts[b]++
	h.counted = float32(h.Rate)
	hp.sums[b] += float64(h.counted)
	h.owner, h.bucket = p.id, b
}

// interval returns h's next revisit interval under the host's plan,
// solving the plan again first when enough estimates have changed. Call
// with p.mu held.
func (p *Planner) interval(hp *hostPlan, h *History, lowerBound float64, q *posterior) (next time.Duration, quick bool) {
	pol := &p.policy
	minIv := p.minInterval(hp)
	if pol.Func != nil {
		return clampDur(pol.Func(h), minIv, pol.MaxInterval), false
	}
	// Re-solve after a change of budget or page count, and after an
	// eighth of the pages have moved bucket.
	hp.since++
	off := hp.load < 0.97*headroom*hp.rate || hp.load > 1.03*headroom*hp.rate
	if hp.stale || hp.changes > hp.n/16 || (off && hp.since > max(hp.n/8, 16)) || hp.spanN >= max(hp.n/2, 64) {
		p.solve(hp)
	}
	d := pol.MaxInterval
	f := hp.plan.rate(h.Rate)
	switch {
	case q != nil && h.nobs > 0 && p.probes() && hp.plan.mu > 0 && !math.IsInf(lowerBound, 1):
		// The rate that maximises the page's expected freshness under
		// its posterior, less the plan's multiplier per unit of rate:
		// where a young estimate is uncertain, the rates it may be
		// share in the decision as likely as they are.
		f = q.freshRate(hp.plan.mu, hp.plan.fmin, hp.plan.fmax)
	case pol.Objective == MinAge && hp.plan.uniform > 0:
		// The safe mix: a page's rate is the plan's for its estimate
		// and the uniform rate, weighted by how many revisits the
		// estimate rests on against mixWeight. A page whose estimate
		// rests on a few visits is revisited about as uniform revisits
		// would; the weight of uniform falls to 6 % with a full window.
		a := mixWeight / (mixWeight + float64(h.nobs))
		f = a*hp.plan.uniform + (1-a)*f
	}
	if f > 0 {
		d = time.Duration(float64(time.Second) / f)
	}
	if !p.probes() {
		return clampDur(d, minIv, pol.MaxInterval), false
	}
	// Probes may take up to quickShare of the budget (they are accounted
	// in hp.warm until made); past it, pages wait for the plan. One probe
	// may always be pending: it is one fetch, though as a rate it would
	// exceed the share on a slow host.
	probeRoom := func(d time.Duration) bool {
		return d > 0 && (hp.warm+1/max(d, minIv).Seconds() <= quickShare*hp.rate || hp.warm < 1e-9)
	}
	if shortest, all := h.allChanged(warmup - 1); all && !math.IsInf(lowerBound, 1) && shortest/8 < d && shortest > 2*minIv && probeRoom(shortest/8) {
		// Every revisit held found a change: the estimate rests on the
		// prior's upper tail. One probe at an eighth of the shortest
		// interval measures it (a probe that also finds a change makes
		// the next one shorter still, down to MinInterval).
		d = shortest / 8
		quick = true
	}
	return clampDur(d, minIv, pol.MaxInterval), quick
}

// minInterval is the shortest revisit interval of hp's pages: the
// policy's MinInterval, or by default one slot of the host's budget (at
// least the resolution of a History's intervals).
func (p *Planner) minInterval(hp *hostPlan) time.Duration {
	if m := p.policy.MinInterval; m > 0 {
		return m
	}
	d := obsUnit
	if hp.rate > 0 {
		d = max(d, time.Duration(float64(time.Second)/hp.rate))
	}
	return min(d, p.policy.MaxInterval)
}

// tooFast reports whether the page's history rejects, by a likelihood
// ratio test (log-ratio above 1, about 84 % one-sided), that its change
// rate is at most 1/mu: the rate above which the freshness plan gives a
// page nothing. It works when every revisit found a change too, where the
// estimate itself is only a lower bound.
func (h *History) tooFast(mu float64) bool {
	if mu <= 0 || math.IsInf(mu, 0) || int(h.nobs) < warmup-1 {
		return false
	}
	changed := 0
	for i := range int(h.nobs) {
		changed += int(h.obs[i] & 1)
	}
	if 2*changed < int(h.nobs) {
		return false // most revisits found no change: not too fast
	}
	obs := h.Observations()
	logL := func(l float64) float64 {
		s := 0.0
		for _, o := range obs {
			t := max(o.Interval.Seconds(), obsUnit.Seconds())
			if o.Changed {
				s += math.Log(-math.Expm1(-l * t))
			} else {
				s -= l * t
			}
		}
		return s
	}
	// logL is concave in λ: its maximum over λ ≥ 1/μ is at 1/μ when its
	// slope there is not positive, else where the slope is 0.
	slope := func(l float64) float64 {
		s := 0.0
		for _, o := range obs {
			t := max(o.Interval.Seconds(), obsUnit.Seconds())
			if o.Changed {
				s += t / math.Expm1(l*t)
			} else {
				s -= t
			}
		}
		return s
	}
	if slope(1/mu) <= 0 {
		return false
	}
	lo, hi := math.Log(1/mu), math.Log(1e3)
	for range 32 {
		mid := (lo + hi) / 2
		if slope(math.Exp(mid)) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return logL(math.Exp(lo))-logL(1/mu) > 1
}

// allChanged reports whether every revisit the History holds (at least
// atLeast of them) found a change, and the shortest interval among them.
func (h *History) allChanged(atLeast int) (shortest time.Duration, all bool) {
	if int(h.nobs) < max(atLeast, 1) {
		return 0, false
	}
	short := uint32(math.MaxUint32)
	for i := range int(h.nobs) {
		v := h.obs[(int(h.head)+i)%Window]
		if v&1 == 0 {
			return 0, false
		}
		short = min(short, v>>1)
	}
	return time.Duration(short) * obsUnit, true
}

func clampDur(d, lo, hi time.Duration) time.Duration {
	return min(max(d, lo), hi)
}

// solve computes hp's allocation from its histogram.
func (p *Planner) solve(hp *hostPlan) {
	var lambdas, counts [nBuckets]float64
	for b := 1; b < nBuckets; b++ {
		// Each bucket stands for its pages at their mean rate.
		lambdas[b] = bucketRate(b)
		counts[b] = float64(hp.counts[b])
		if c := hp.counts[b]; c > 0 && hp.sums[b] > 0 {
			lambdas[b] = hp.sums[b] / float64(c)
		}
	}
	fmin := 1 / p.policy.MaxInterval.Seconds()
	fmax := 1 / p.minInterval(hp).Seconds()
	// Quick revisits (probes) come out of the
	// budget first.
	// The plan's rates, each from its page's own estimate, do not sum to
	// exactly what the histogram says, and pages revisited under an older
	// plan keep their old intervals until their next visit: adj raises
	// the budget (up to 30 %) while the load actually issued falls short,
	// a few per cent per solve. It never lowers it: while new pages come
	// in, revisits issued early at short intervals overstate the load.
	target := headroom * hp.rate
	if hp.n >= 16 && hp.load > 0 {
		hp.adj = min(max(hp.adj*min(max(math.Sqrt(target/hp.load), 0.95), 1.05), 1), 1.3)
	}
	if hp.spanN >= 32 && hp.spanTo > hp.spanFrom {
		// Plan more while the revisits made fall short of the target,
		// so that they, not only those planned, use the budget; at most
		// the host's capacity less 2 %.
		made := float64(hp.spanN-1) / (hp.spanTo - hp.spanFrom)
		if hp.made == 0 {
			hp.made = made
		}
		hp.made += (made - hp.made) / 4
		hp.late = min(max(hp.late*math.Sqrt(target/made), 1), 0.98/headroom)
		hp.spanN = 0
	} else if hp.spanN >= 32 {
		hp.spanN = 0
	}
	budget := max(min(hp.adj*hp.late, 0.98/headroom)*target-hp.warm, minShare*hp.rate)
	if o := p.policy.Objective; (o == MaxFreshness || o == MinAge) && hp.n > 0 {
		// The exploration floor: every page is revisited at least at
		// floorShare of the uniform rate, so no estimate goes
		// uncorrected because the plan it produced starves its page.
		fmin = max(fmin, min(floorShare*budget/float64(hp.n), fmax))
	}
	hp.plan = makePlan(p.policy.Objective, lambdas[1:], counts[1:], budget, fmin, fmax)
	if hp.n > 0 {
		hp.plan.uniform = min(max(budget/float64(hp.n), fmin), fmax)
	}
	p.fresh -= hp.fresh * float64(hp.solvedN)
	s := 0.0
	for b := 1; b < nBuckets; b++ {
		if c := counts[b]; c > 0 {
			s += c * freshness(lambdas[b], hp.plan.rate(lambdas[b]))
		}
	}
	if hp.n > 0 {
		hp.fresh = s / float64(hp.n)
	} else {
		hp.fresh = 0
	}
	hp.solvedN = hp.n
	p.fresh += hp.fresh * float64(hp.n)
	hp.changes, hp.stale, hp.since = 0, false, 0
}

// Freshness returns the expected mean freshness of the scheduled pages
// under the current plans, from their estimated change rates: the
// crawler's own estimate of the fraction of its copies that are fresh.
func (p *Planner) Freshness() float64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, hp := range p.hosts {
		n += hp.solvedN
	}
	if n == 0 {
		return 0
	}
	return p.fresh / float64(n)
}

// HostBudget is one host's revisit budget and what the schedule does
// with it, from Planner.Hosts. Rates are in fetches per second.
type HostBudget struct {
	Host  string
	Pages int // pages scheduled
	// Budget is the revisit share of the host's budget: 90 % of
	// Policy.Rate or of what its politeness allows.
	Budget float64
	// Planned is what the revisits due ask for: the sum of 1/interval
	// over the host's pages. Below Budget, the plan leaves budget idle
	// (a MinInterval set too long for the host's pages, or too few
	// pages for one slot each).
	Planned float64
	// Used is the rate of the revisits made: a running mean over spans
	// of at least 32 of them, each weighing a quarter (0 until the
	// first). Below Planned when revisits queue behind each other; the
	// plan then asks for more, up to 98 % of the host's capacity, so Used
	// may end a little above Budget.
	Used float64
}

// Hosts returns the revisit budget of every host with scheduled pages,
// ordered by host name. It takes the planner's lock for a time
// proportional to the number of hosts.
func (p *Planner) Hosts() []HostBudget {
	p.mu.Lock()
	out := make([]HostBudget, 0, len(p.hosts))
	for name, hp := range p.hosts {
		if hp.n == 0 {
			continue
		}
		out = append(out, HostBudget{Host: name, Pages: hp.n, Budget: headroom * hp.rate, Planned: max(hp.load, 0), Used: hp.made})
	}
	p.mu.Unlock()
	slices.SortFunc(out, func(a, b HostBudget) int { return strings.Compare(a.Host, b.Host) })
	return out
}

// Pages returns how many pages the planner schedules.
func (p *Planner) Pages() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pages
}

// Interval returns the revisit interval the current plan of host gives a
// page with change rate lambda (per second) whose estimate rests on a full
// window of revisits.
func (p *Planner) Interval(host string, lambda float64) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	h := History{Rate: lambda, Visits: warmup, nobs: Window}
	d, _ := p.interval(p.host(host), &h, lambda, nil)
	return d
}

// groupRate returns the change rate a page of rawURL's group has, for all
// the planner knows: its directory's running mean of established
// estimates, else its host's, else the policy's DefaultRate, else the
// host's planned budget per page (what uniform revisits would give it).
// Call with p.mu held.
func (p *Planner) groupRate(hp *hostPlan, host, rawURL string) float64 {
	if d := p.dirs[dirKey(host, rawURL)]; d != nil && d.n > 0 {
		return math.Exp(d.ema)
	}
	if hp.learned > 0 {
		return math.Exp(hp.ema)
	}
	if r := p.policy.DefaultRate; r > 0 {
		return r
	}
	return headroom * hp.rate / float64(max(hp.n, 1))
}

// learn feeds an established estimate into the directory's and the host's
// running means. Call with p.mu held.
func (p *Planner) learn(host, rawURL string, rate float64) {
	if rate <= 0 {
		rate = 1 / p.policy.MaxInterval.Seconds()
	}
	l := math.Log(rate)
	key := dirKey(host, rawURL)
	d := p.dirs[key]
	if d == nil {
		if len(p.dirs) >= maxDirs {
			return
		}
		d = &dirPrior{ema: l}
		p.dirs[key] = d
	}
	d.n++
	d.ema += (l - d.ema) / float64(min(d.n, 32))
	hp := p.host(host)
	hp.learned++
	hp.ema += (l - hp.ema) / float64(min(hp.learned, 32))
}

// dirKey is host plus the URL's first path segment, "h0.test/news/".
func dirKey(host, rawURL string) string {
	path := rawURL
	if i := strings.Index(path, "://"); i >= 0 {
		path = path[i+3:]
	}
	if i := strings.IndexByte(path, '/'); i >= 0 {
		path = path[i+1:]
	} else {
		path = ""
	}
	if i := strings.IndexAny(path, "/?#"); i >= 0 && path[i] == '/' {
		return host + "/" + path[:i+1]
	}
	return host + "/"
}

// sitemapRate maps a sitemap's changefreq (and lastmod, the time since
// which the page has not changed) to a change rate; 0 when it says nothing.
func sitemapRate(changefreq string, lastmod, now time.Time) float64 {
	var cf float64
	switch strings.ToLower(strings.TrimSpace(changefreq)) {
	case "always":
		cf = 1.0 / 60
	case "hourly":
		cf = 1.0 / 3600
	case "daily":
		cf = 1.0 / 86400
	case "weekly":
		cf = 1.0 / (7 * 86400)
	case "monthly":
		cf = 1.0 / (30 * 86400)
	case "yearly":
		cf = 1.0 / (365 * 86400)
	case "never":
		cf = 1.0 / (10 * 365 * 86400)
	}
	var lm float64
	if !lastmod.IsZero() && !lastmod.After(now) {
		lm = 1 / max(now.Sub(lastmod).Seconds(), 60)
	}
	switch {
	case cf > 0 && lm > 0:
		return math.Sqrt(cf * lm) // both: their geometric mean
	case cf > 0:
		return cf
	}
	return lm
}
