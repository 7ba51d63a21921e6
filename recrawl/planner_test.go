package recrawl

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func TestChangeDetection(t *testing.T) {
	p := NewPlanner(Policy{})
	exact := NewPlanner(Policy{ChangeDistance: -1})
	h := History{Visits: 1, Text: 1, Simhash: 0xff00}
	tests := []struct {
		name      string
		text, sim uint64
		want      bool // default ChangeDistance 3
		wantExact bool
	}{
		{name: "same text", text: 1, sim: 0xff00, want: false, wantExact: false},
		{name: "a clock changed", text: 2, sim: 0xff01, want: false, wantExact: true},
		{name: "three bits", text: 2, sim: 0xff07, want: false, wantExact: true},
		{name: "rewritten", text: 3, sim: 0x00ff, want: true, wantExact: true},
	}
	for _, tt := range tests {
		if got := p.Changed(&h, tt.text, tt.sim); got != tt.want {
			t.Errorf("%s: Changed = %v, want %v", tt.name, got, tt.want)
		}
		if got := exact.Changed(&h, tt.text, tt.sim); got != tt.wantExact {
			t.Errorf("%s: Changed (ChangeDistance -1) = %v, want %v", tt.name, got, tt.wantExact)
		}
	}
	if p.Changed(&History{}, 5, 5) {
		t.Error("a page never visited reads as changed")
	}
}

// visitSeq runs a sequence of visits to one page and returns its history.
func visitSeq(p *Planner, vs []Visit) *History {
	var h History
	for _, v := range vs {
		p.Visit("h.test", "http://h.test/a/1", &h, v)
	}
	return &h
}

func TestLastModifiedHonesty(t *testing.T) {
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	tests := []struct {
		name   string
		visits []Visit
		honest bool
	}{
		{name: "dates move with the content", honest: true, visits: []Visit{
			{At: at(0), Text: 1, Simhash: 1, LastModified: at(-100)},
			{At: at(60), Text: 2, Simhash: ^uint64(1), LastModified: at(30)},
			{At: at(120), NotModified: true},
			{At: at(180), Text: 2, Simhash: ^uint64(1), LastModified: at(30)},
		}},
		{name: "the date is always now", visits: []Visit{
			{At: at(0), Text: 1, Simhash: 1, LastModified: at(0)},
			{At: at(60), Text: 1, Simhash: 1, LastModified: at(60)},
		}},
		{name: "the content changes, the date does not", visits: []Visit{
			{At: at(0), Text: 1, Simhash: 1, LastModified: at(-100)},
			{At: at(60), Text: 2, Simhash: ^uint64(1), LastModified: at(-100)},
		}},
		{name: "no dates", visits: []Visit{
			{At: at(0), Text: 1, Simhash: 1},
			{At: at(60), Text: 2, Simhash: ^uint64(1)},
		}},
		{name: "a date in the future", visits: []Visit{
			{At: at(0), Text: 1, Simhash: 1, LastModified: at(-100)},
			{At: at(60), Text: 2, Simhash: ^uint64(1), LastModified: at(600)},
		}},
		{name: "a change dated before the last visit", visits: []Visit{
			{At: at(0), Text: 1, Simhash: 1, LastModified: at(-100)},
			{At: at(60), Text: 2, Simhash: ^uint64(1), LastModified: at(-50)},
		}},
	}
	for _, tt := range tests {
		h := visitSeq(NewPlanner(Policy{}), tt.visits)
		if got := h.HonestLastModified(); got != tt.honest {
			t.Errorf("%s: HonestLastModified = %v, want %v", tt.name, got, tt.honest)
		}
	}
}

func TestVisitCounts(t *testing.T) {
	p := NewPlanner(Policy{})
	var h History
	sims := []uint64{1, 1, ^uint64(0), ^uint64(0)}
	var changes []bool
	for i, s := range sims {
		_, ch := p.Visit("h.test", "http://h.test/x", &h, Visit{At: t0.Add(time.Duration(i) * time.Hour), Text: s, Simhash: s})
		changes = append(changes, ch)
	}
	_, ch := p.Visit("h.test", "http://h.test/x", &h, Visit{At: t0.Add(5 * time.Hour), NotModified: true})
	changes = append(changes, ch)
	want := []bool{false, false, true, false, false}
	for i := range want {
		if changes[i] != want[i] {
			t.Errorf("visit %d: changed = %v, want %v", i, changes[i], want[i])
		}
	}
	if h.Visits != 5 || h.Changes != 1 || h.NotModified != 1 || len(h.Observations()) != 4 {
		t.Errorf("history: %d visits, %d changes, %d not modified, %d observations; want 5, 1, 1, 4",
			h.Visits, h.Changes, h.NotModified, len(h.Observations()))
	}
	if p.Pages() != 1 {
		t.Errorf("Pages = %d, want 1", p.Pages())
	}
	p.Forget("h.test", &h)
	p.Forget("h.test", &h) // twice is harmless
	if p.Pages() != 0 {
		t.Errorf("Pages after Forget = %d, want 0", p.Pages())
	}
}

// No page starves: whatever its estimate, every interval is within
// [MinInterval, MaxInterval].
func TestIntervalsBounded(t *testing.T) {
	for _, obj := range []Objective{MaxFreshness, MinAge, Uniform, Proportional} {
		p := NewPlanner(Policy{Objective: obj, Rate: 0.1, MinInterval: time.Minute, MaxInterval: 24 * time.Hour})
		rng := rand.New(rand.NewPCG(1, 2))
		for i := range 200 {
			var h History
			// Pages that never change, and pages that change at every visit.
			for v := range 8 {
				x := uint64(0)
				if i%2 == 1 {
					x = rng.Uint64()
				}
				d, _ := p.Visit("h.test", "http://h.test/p", &h, Visit{At: t0.Add(time.Duration(v) * time.Hour), Text: x, Simhash: x})
				if d < time.Minute || d > 24*time.Hour {
					t.Fatalf("%v: interval %v outside [1m, 24h]", obj, d)
				}
			}
		}
	}
}

func TestPolicyFunc(t *testing.T) {
	p := NewPlanner(Policy{
		MinInterval: time.Minute,
		Func: func(h *History) time.Duration {
			return time.Duration(h.Visits) * 30 * time.Second
		},
	})
	var h History
	var got []time.Duration
	for i := range 3 {
		d, _ := p.Visit("h.test", "http://h.test/", &h, Visit{At: t0.Add(time.Duration(i) * time.Hour)})
		got = append(got, d)
	}
	want := []time.Duration{time.Minute, time.Minute, 90 * time.Second} // the first clamped to MinInterval
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("visit %d: interval %v, want %v", i, got[i], want[i])
		}
	}
}

func TestPriors(t *testing.T) {
	p := NewPlanner(Policy{DefaultRate: 1e-5})
	// A sitemap's changefreq sets the first visit's prior.
	var h History
	p.Visit("h.test", "http://h.test/news/1", &h, Visit{At: t0, ChangeFreq: "hourly"})
	if h.Prior != 1.0/3600 {
		t.Errorf("prior from changefreq hourly = %g, want %g", h.Prior, 1.0/3600)
	}
	var h2 History
	p.Visit("h.test", "http://h.test/news/2", &h2, Visit{At: t0, LastMod: t0.Add(-2 * time.Hour)})
	if h2.Prior != 1.0/7200 {
		t.Errorf("prior from lastmod 2h ago = %g, want %g", h2.Prior, 1.0/7200)
	}
	// Without one: the default, until the directory has established
	// estimates; then the directory's.
	var h3 History
	p.Visit("h.test", "http://h.test/blog/1", &h3, Visit{At: t0})
	if h3.Prior != 1e-5 {
		t.Errorf("prior with nothing known = %g, want the default 1e-5", h3.Prior)
	}
	rng := rand.New(rand.NewPCG(5, 5))
	for i := range 10 {
		var h History
		at := t0
		for range 12 {
			x := rng.Uint64() // changes at every visit, every 10 minutes
			p.Visit("h.test", "http://h.test/blog/"+string(rune('a'+i)), &h, Visit{At: at, Text: x, Simhash: x})
			at = at.Add(10 * time.Minute)
		}
	}
	var h4 History
	p.Visit("h.test", "http://h.test/blog/new", &h4, Visit{At: t0})
	if h4.Prior < 1.0/1800 {
		t.Errorf("prior in a directory of fast pages = %g, want above %g", h4.Prior, 1.0/1800)
	}
	var h5 History
	p.Visit("h.test", "http://h.test/other/new", &h5, Visit{At: t0})
	if h5.Prior < 1.0/1800 {
		t.Errorf("prior on a host of fast pages = %g, want the host's, above %g", h5.Prior, 1.0/1800)
	}
}

func TestDirKey(t *testing.T) {
	tests := []struct{ url, want string }{
		{"http://h.test/", "h.test/"},
		{"http://h.test/a/b/c", "h.test/a/"},
		{"http://h.test/page.html", "h.test/"},
		{"http://h.test/a?x=/y", "h.test/"},
		{"http://h.test", "h.test/"},
	}
	for _, tt := range tests {
		if got := dirKey("h.test", tt.url); got != tt.want {
			t.Errorf("dirKey(%q) = %q, want %q", tt.url, got, tt.want)
		}
	}
}

func TestHistoryRoundTrip(t *testing.T) {
	p := NewPlanner(Policy{})
	rng := rand.New(rand.NewPCG(9, 9))
	var h History
	for i := range 40 { // past Window: the ring wraps
		x := rng.Uint64() >> (rng.IntN(2) * 64 / 2)
		p.Visit("h.test", "http://h.test/", &h, Visit{At: t0.Add(time.Duration(i) * time.Hour), Text: x, Simhash: x,
			ETag: `"v1"`, LastModified: t0.Add(-time.Hour)})
	}
	b, err := h.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var got History
	if err := got.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	b2, _ := got.MarshalBinary()
	if string(b) != string(b2) {
		t.Errorf("re-encoding differs:\n%x\n%x", b, b2)
	}
	if got.Visits != h.Visits || got.ETag != h.ETag || !got.Last.Equal(h.Last) || got.Text != h.Text ||
		len(got.Observations()) != Window || got.Observations()[0] != h.Observations()[0] {
		t.Errorf("round trip lost data: %+v", got)
	}
	t.Logf("encoded history of %d visits: %d bytes", h.Visits, len(b))
	for i := range len(b) {
		if err := new(History).UnmarshalBinary(b[:i]); err == nil {
			t.Errorf("UnmarshalBinary of %d of %d bytes succeeded", i, len(b))
		}
	}
}

func FuzzHistoryUnmarshal(f *testing.F) {
	var h History
	p := NewPlanner(Policy{})
	for i := range 5 {
		p.Visit("h", "http://h/", &h, Visit{At: t0.Add(time.Duration(i) * time.Hour), Text: uint64(i), Simhash: uint64(i * 7777), ETag: "x"})
		b, _ := h.MarshalBinary()
		f.Add(b)
	}
	f.Add([]byte{1})
	f.Fuzz(func(t *testing.T, b []byte) {
		var h History
		if err := h.UnmarshalBinary(b); err != nil {
			return
		}
		// What decodes re-encodes to something that decodes the same.
		b2, err := h.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var h2 History
		if err := h2.UnmarshalBinary(b2); err != nil {
			t.Fatalf("re-encoded history does not decode: %v", err)
		}
		b3, _ := h2.MarshalBinary()
		if string(b2) != string(b3) {
			t.Fatal("encoding not stable")
		}
		_ = h.Observations()
	})
}

// simRates is the simulated web of the freshness table: a quarter of the
// pages change every 2 minutes (too fast to keep fresh at the budget), a
// quarter hourly, a quarter every 6 hours and a quarter every 2 days.
func simRates(n int) []float64 {
	rates := make([]float64, n)
	for i := range rates {
		rates[i] = 1 / []float64{120, 3600, 6 * 3600, 2 * 86400}[i%4]
	}
	return rates
}

// The estimator-driven schedule against uniform revisits and the analytic
// optimum (the optimal allocation from the true rates, at the same budget), in simulation: 200
// pages, one fetch a minute, a week, freshness averaged after the first
// day. Set TRAWL_RECRAWL_EVAL=1 for the log-uniform web too.
func TestSimulatedFreshness(t *testing.T) {
	webs := []struct {
		name  string
		rates []float64
	}{{"four classes", simRates(200)}}
	if os.Getenv("TRAWL_RECRAWL_EVAL") != "" {
		webs = append(webs, struct {
			name  string
			rates []float64
		}{"log-uniform 5 min to 3 days", logUniform(rand.New(rand.NewPCG(7, 7)), 200, 1.0/(3*86400), 1.0/300)})
	}
	for _, w := range webs {
		fmin, fmax := 1/(7*86400.0), 1/60.0
		// Both schedules plan headroom (90 %) of the host's capacity: the
		// optimum is for that budget.
		optimum := MeanFreshness(w.rates, Allocate(MaxFreshness, w.rates, headroom/60, fmin, fmax))
		var u, est, h SimResult
		const seeds = 3
		for seed := range uint64(seeds) {
			base := Sim{Rates: w.rates, Budget: 1.0 / 60, Length: 7 * 24 * time.Hour, Warmup: 24 * time.Hour, Seed: seed}
			uniform := base
			uniform.Policy.Objective = Uniform
			honest := base
			honest.HonestDates = true
			for _, r := range []struct {
				sum *SimResult
				sim Sim
			}{{&u, uniform}, {&est, base}, {&h, honest}} {
				got := Simulate(r.sim)
				r.sum.Freshness += got.Freshness / seeds
				r.sum.Fetches += got.Fetches
			}
		}
		reach := (est.Freshness - u.Freshness) / (optimum - u.Freshness)
		t.Logf("%s (mean of %d runs): uniform %.3f (%d fetches), estimated %.3f (%d), with honest dates %.3f (%d), optimum %.3f; reached %.0f%% of the gap",
			w.name, seeds, u.Freshness, u.Fetches, est.Freshness, est.Fetches, h.Freshness, h.Fetches, optimum, 100*reach)
		if est.Fetches > u.Fetches {
			t.Errorf("%s: the schedule made %d fetches, uniform %d: not the same budget", w.name, est.Fetches, u.Fetches)
		}
		if w.name == "four classes" && reach < 0.5 {
			t.Errorf("%s: the schedule reached %.0f%% of the gap from uniform to the optimum, want ≥ 50%%", w.name, 100*reach)
		}
	}
}

// The default floor (one slot of the host's budget) lets a host of few
// pages spend its budget; a MinInterval that is set is a hard floor, and
// Hosts shows the budget it leaves idle.
func TestBudgetUsed(t *testing.T) {
	for _, tt := range []struct {
		name    string
		minIv   time.Duration
		planned float64 // want Planned ≈ this share of Budget
	}{
		{name: "default floor", planned: 1},
		{name: "one second", minIv: time.Second, planned: 5 / 9.0}, // 5 pages, once a second each, of 9/s
	} {
		p := NewPlanner(Policy{Rate: 10, MinInterval: tt.minIv})
		hs := make([]History, 5)
		at := t0
		for range 20 {
			for i := range hs {
				x := uint64(i)
				p.Visit("h.test", "http://h.test/p", &hs[i], Visit{At: at, Text: x, Simhash: x})
				at = at.Add(100 * time.Millisecond)
			}
		}
		hb := p.Hosts()
		if len(hb) != 1 || hb[0].Host != "h.test" || hb[0].Pages != 5 || math.Abs(hb[0].Budget-9) > 1e-9 {
			t.Fatalf("%s: Hosts = %+v, want h.test, 5 pages, budget 9/s", tt.name, hb)
		}
		if got := hb[0].Planned / hb[0].Budget; math.Abs(got-tt.planned) > 0.1 {
			t.Errorf("%s: planned %.2f/s of a budget of %.2f/s (%.2f), want %.2f", tt.name, hb[0].Planned, hb[0].Budget, got, tt.planned)
		}
	}
}

// A History encoded before intervals were held in sixteenths of a second
// (version 1: seconds) decodes with its intervals intact.
func TestHistoryVersion1(t *testing.T) {
	var h History
	h.Visits = 2
	h.observe(60*time.Second/16, true) // held as 60 units, as version 1 held 60 s
	h.planned = 90
	b, err := h.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	b[0] = 1
	var got History
	if err := got.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if obs := got.Observations(); len(obs) != 1 || obs[0] != (Observation{Interval: time.Minute, Changed: true}) {
		t.Errorf("version 1 observations = %v, want one of 1m0s, changed", obs)
	}
	if got.planned != 90_000 {
		t.Errorf("version 1 planned interval = %d ms, want 90000", got.planned)
	}
}

// Interval follows the plan: on a host of pages that change at various
// rates, a page that changes every few minutes is revisited more often
// than one that changes daily, and one far too fast to follow (every
// second, at a fetch a minute for 100 pages) only at the exploration
// floor.
func TestIntervalFollowsPlan(t *testing.T) {
	p := NewPlanner(Policy{Rate: 1.0 / 60})
	rng := rand.New(rand.NewPCG(3, 3))
	rates := logUniform(rng, 100, 1.0/86400, 1.0/600)
	hs := make([]History, len(rates))
	at := t0
	for range 12 {
		for i := range hs {
			x := uint64(i)<<32 | uint64(at.Sub(t0)/time.Duration(float64(time.Second)/rates[i]))
			p.Visit("h.test", "http://h.test/p", &hs[i], Visit{At: at, Text: x, Simhash: x})
			at = at.Add(time.Minute)
		}
	}
	daily, hourly, fast := p.Interval("h.test", 1.0/86400), p.Interval("h.test", 1.0/3600), p.Interval("h.test", 1)
	uniform := time.Duration(float64(len(rates)) / (headroom / 60) * float64(time.Second))
	if !(hourly < daily && fast > 2*uniform) {
		t.Errorf("intervals: daily %v, hourly %v, every second %v (uniform %v); want hourly < daily and every second beyond twice uniform", daily, hourly, fast, uniform)
	}
}
