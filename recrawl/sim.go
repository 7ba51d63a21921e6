package recrawl

import (
	"container/heap"
	"math/rand/v2"
	"time"
)

// Sim describes a simulated host for Simulate: pages that change as
// Poisson processes with known rates, a fetch budget, and a revisit
// policy, in simulated time. It is how the package measures its schedules
// without a network, and how a user can try a Policy on their own rates.
type Sim struct {
	Rates  []float64     // change rate of each page, per second
	Budget float64       // fetches per second the host allows
	Length time.Duration // simulated time
	Warmup time.Duration // freshness is averaged over [Warmup, Length]
	Seed   uint64
	// Policy chooses the revisits through a Planner (with Rate = Budget)
	// unless Fixed is set.
	Policy Policy
	// Fixed, if set, revisits page i every 1/Fixed[i] seconds instead
	// (an allocation computed from the true rates, such as Allocate's).
	Fixed []float64
	// HonestDates gives the pages honest Last-Modified dates, which the
	// Planner's estimator then uses.
	HonestDates bool
}

// SimResult is what Simulate measured.
type SimResult struct {
	Freshness float64   // time-averaged fraction of fresh copies over [Warmup, Length]
	Fetches   int       // fetches made
	Estimates []float64 // each page's final estimated change rate (Planner runs only)
	// PageFetches and PageFreshness are each page's fetches and its
	// time-averaged freshness over [Warmup, Length].
	PageFetches   []int
	PageFreshness []float64
}

// Simulate runs s: every page is first fetched at time 0 (in page order,
// at the budget's pace), then revisited when the policy says, one fetch
// per 1/Budget seconds at most; a revisit that falls due while the host is
// busy waits for the next free slot, earliest due first, as in a polite
// frontier. A fetch makes the copy fresh until the page's next change.
func Simulate(s Sim) SimResult {
	r, _ := simulate(s)
	return r
}

// simulate is Simulate, and returns the Planner it ran (nil with Fixed).
func simulate(s Sim) (SimResult, *Planner) {
	n := len(s.Rates)
	var planner *Planner
	if s.Fixed == nil {
		pol := s.Policy
		pol.Rate = s.Budget
		planner = NewPlanner(pol)
	}
	type page struct {
		// rng draws the page's change times: one stream per page, so
		// that every schedule run with the same Seed sees the same
		// changes, whatever the order of its fetches.
		rng        *rand.Rand
		hist       History
		nextChange float64 // seconds
		lastChange float64
		fetched    float64 // when the copy was taken, -1 before
		version    int
	}
	pages := make([]page, n)
	for i := range pages {
		pages[i].fetched = -1
		pages[i].rng = rand.New(rand.NewPCG(s.Seed, 0x73696d<<32|uint64(i)))
		pages[i].nextChange = expo(pages[i].rng, s.Rates[i])
		pages[i].lastChange = -1e9
	}
	end := s.Length.Seconds()
	warm := s.Warmup.Seconds()
	slot := 1 / s.Budget
	var res SimResult
	res.PageFetches = make([]int, n)
	res.PageFreshness = make([]float64, n)
	// freshTime adds the time page i's copy was fresh within [from, to].
	freshTime := func(i int, from, to float64) {
		p := &pages[i]
		if p.fetched < 0 {
			return
		}
		a := max(from, warm)
		b := min(to, p.nextChange, end)
		if b > a {
			res.PageFreshness[i] += b - a
		}
	}
	due := &dueHeap{}
	for i := range n {
		heap.Push(due, dueItem{at: 0, page: i})
	}
	t := 0.0
	base := time.Unix(1_700_000_000, 0)
	for due.Len() > 0 {
		it := heap.Pop(due).(dueItem)
		t = max(t, it.at)
		if t > end {
			break
		}
		p := &pages[it.page]
		// Close the copy's fresh span, then bring the page's change
		// process up to t.
		freshTime(it.page, p.fetched, t)
		for p.nextChange <= t {
			p.lastChange = p.nextChange
			p.version++
			p.nextChange += expo(p.rng, s.Rates[it.page])
		}
		p.fetched = t
		res.Fetches++
		res.PageFetches[it.page]++
		var interval float64
		if planner != nil {
			v := Visit{At: base.Add(time.Duration(t * float64(time.Second))), Text: mix(uint64(p.version)), Simhash: mix(uint64(p.version) + 1<<32)}
			if s.HonestDates {
				lm := p.lastChange
				if lm < 0 {
					lm = -1
				}
				v.LastModified = base.Add(time.Duration(lm * float64(time.Second))).Truncate(time.Second)
			}
			next, _ := planner.Visit("sim", "http://sim/p", &p.hist, v)
			interval = next.Seconds()
		} else {
			interval = 1 / s.Fixed[it.page]
		}
		heap.Push(due, dueItem{at: t + interval, page: it.page})

		t += slot
	}
	for i := range pages {
		freshTime(i, pages[i].fetched, end)
	}
	if span := end - warm; span > 0 {
		for i := range res.PageFreshness {
			res.PageFreshness[i] /= span
			res.Freshness += res.PageFreshness[i] / float64(n)
		}
	}
	if planner != nil {
		res.Estimates = make([]float64, n)
		for i := range pages {
			res.Estimates[i] = pages[i].hist.Rate
		}
	}
	return res, planner
}

// mix is splitmix64's finaliser: distinct versions get unrelated
// fingerprints.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

func expo(rng *rand.Rand, rate float64) float64 {
	if rate <= 0 {
		return 1e300
	}
	return rng.ExpFloat64() / rate
}

type dueItem struct {
	at   float64
	page int
}

type dueHeap []dueItem

func (h dueHeap) Len() int { return len(h) }
func (h dueHeap) Less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	return h[i].page < h[j].page
}
func (h dueHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *dueHeap) Push(x any)   { *h = append(*h, x.(dueItem)) }
func (h *dueHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
