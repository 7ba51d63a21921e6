package politeness

import (
	"container/heap"
	"errors"
	"math"
	"math/rand/v2"
	"time"

	"golang.org/x/time/rate"
)

// ErrNotAcquired is returned by Done and Release for a host that has no
// contact in flight.
var ErrNotAcquired = errors.New("politeness: host not acquired")

// Config configures a Schedule or a Scheduler. The zero Config is valid and
// polite; zero fields take the defaults named on each field.
type Config struct {
	// MinDelay is the minimum time between the end of one contact with a
	// host and the start of the next. Default 1s; a negative value means no
	// minimum (for tests and for sites you own).
	MinDelay time.Duration
	// MaxDelay caps the adaptive delay (it never caps Crawl-delay or
	// back-off). Default 60s, and never less than MinDelay. It is also the
	// longest rest a host has in the ordinary course (see RestsLong):
	// frontiers take a host resting longer out of the hosts that compete
	// for workers until it is due.
	MaxDelay time.Duration
	// MaxCrawlDelay caps the robots.txt Crawl-delay honoured
	// (Outcome.CrawlDelay), before any Policy sees it. RFC 9309 does not
	// define Crawl-delay; a host may ask for any value (a day, say), and a
	// crawler that waited so long would hold that host's URLs for the
	// whole crawl. Default DefaultMaxCrawlDelay, 5 minutes,
	// as Heritrix (see the package documentation, "Crawl-delay"); a host
	// resting that long leaves the hosts that compete for workers until it
	// is due (RestsLong), so it delays no other host. A
	// negative value means no cap (the robots package still bounds what it
	// parses at 24h). It does not cap back-off or Retry-After (BackoffMax
	// does).
	MaxCrawlDelay time.Duration
	// Factor multiplies the duration of the last fetch (Mercator's adaptive
	// heuristic). Default 10; a negative value disables the adaptive delay.
	Factor float64
	// HostConcurrency is how many contacts with one host (or group) may be
	// in flight at once. Default 1.
	HostConcurrency int
	// BackoffBase is the first back-off after a throttled contact (429, 503
	// or a timeout); it doubles with each consecutive one. Default 2s.
	BackoffBase time.Duration
	// BackoffMax caps back-off and Retry-After. Default 10m.
	BackoffMax time.Duration
	// Rate caps contacts per second across all hosts, through a
	// golang.org/x/time/rate limiter with burst Burst. Default 0: no cap.
	Rate rate.Limit
	// Burst is the burst of the global rate limiter. Default 1.
	Burst int
	// Policy, if set, replaces the delay policy built from the fields above
	// (MinDelay, MaxDelay, Factor, BackoffBase, BackoffMax); see Max.
	Policy Policy
	// GroupKey, if set, maps a host to the key of the server it shares
	// politeness with, typically its resolved IP address, so hosts on one
	// server share one next-contact time and one concurrency limit. It is
	// called once per host, with the scheduler's lock held, so it must be
	// fast: resolve addresses beforehand or cache them. Default: each host
	// is its own group.
	GroupKey func(host string) string
	// Clock tells the time to a Scheduler (the Schedule core takes the time
	// as a parameter). Default: the system clock.
	Clock Clock
	// Seed seeds the jitter of back-off. Default 0, which is a valid seed:
	// schedules are deterministic for a given seed.
	Seed uint64
}

// WithDefaults returns cfg with zero fields replaced by their defaults, the
// "none" values (negative) resolved, and Policy built from the fields when
// it is nil: the configuration a Schedule runs with. A frontier that
// schedules hosts its own way (package cluster) takes its delay policy
// from it.
func (cfg Config) WithDefaults() Config { return cfg.withDefaults() }

// withDefaults returns cfg with zero fields replaced by defaults and the
// "none" values (negative) replaced by zero.
func (cfg Config) withDefaults() Config {
	switch {
	case cfg.MinDelay == 0:
		cfg.MinDelay = time.Second
	case cfg.MinDelay < 0:
		cfg.MinDelay = 0
	}
	if cfg.MaxDelay <= 0 {
		cfg.MaxDelay = 60 * time.Second
	}
	cfg.MaxDelay = max(cfg.MaxDelay, cfg.MinDelay)
	if cfg.Factor == 0 {
		cfg.Factor = 10
	}
	switch {
	case cfg.MaxCrawlDelay == 0:
		cfg.MaxCrawlDelay = DefaultMaxCrawlDelay
	case cfg.MaxCrawlDelay < 0:
		cfg.MaxCrawlDelay = math.MaxInt64
	}
	if cfg.HostConcurrency <= 0 {
		cfg.HostConcurrency = 1
	}
	if cfg.BackoffBase <= 0 {
		cfg.BackoffBase = 2 * time.Second
	}
	if cfg.BackoffMax <= 0 {
		cfg.BackoffMax = 10 * time.Minute
	}
	if cfg.Burst <= 0 {
		cfg.Burst = 1
	}
	if cfg.Clock == nil {
		cfg.Clock = SystemClock{}
	}
	if cfg.Policy == nil {
		ps := []Policy{Fixed(cfg.MinDelay), CrawlDelayUpTo(cfg.MaxCrawlDelay)}
		if cfg.Factor > 0 {
			ps = append(ps, Adaptive(cfg.Factor, cfg.MinDelay, cfg.MaxDelay))
		}
		ps = append(ps, Backoff(cfg.BackoffBase, cfg.BackoffMax))
		cfg.Policy = Max(ps...)
	}
	return cfg
}

// Schedule is the time-parameterized core of the per-host scheduler: a heap
// of host groups keyed by their earliest next-contact time. Every method that
// depends on time takes it as a parameter, so tests are step tables with no
// clock at all. Hosts enter the heap when they have work (Add) and leave it
// when they have none (Remove) or while their group is at its concurrency
// limit. Their timing outlives Remove; Prune forgets idle hosts.
//
// A Schedule is not safe for concurrent use; Scheduler wraps one with a lock
// and a clock. The frontier package embeds a Schedule under its own lock.
type Schedule struct {
	cfg    Config
	hosts  map[string]*hostState
	groups map[string]*group
	heap   groupHeap
	seq    uint64
	lim    *rate.Limiter
	rng    *rand.Rand
}

type hostState struct {
	g      *group
	active bool // the host has work waiting (Add without Remove)
}

type group struct {
	key       string
	next      time.Time // earliest next contact
	lastDelay time.Duration
	inflight  int
	failures  int
	hosts     []string // active hosts, served round robin
	rr        int
	refs      int    // hosts in the schedule that map to this group
	index     int    // position in the heap; -1 when not in it
	seq       uint64 // tie-break: equal times are served first come, first served
}

// NewSchedule returns an empty Schedule configured by cfg (nil means the
// zero Config, which is polite).
func NewSchedule(cfg *Config) *Schedule {
	var c Config
	if cfg != nil {
		c = *cfg
	}
	c = c.withDefaults()
	s := &Schedule{
		cfg:    c,
		hosts:  make(map[string]*hostState),
		groups: make(map[string]*group),
		rng:    rand.New(rand.NewPCG(c.Seed, 0x7472617761)),
	}
	if c.Rate > 0 && c.Rate != rate.Inf {
		s.lim = rate.NewLimiter(c.Rate, c.Burst)
	}
	return s
}

func (s *Schedule) state(host string) *hostState {
	if hs := s.hosts[host]; hs != nil {
		return hs
	}
	key := host
	if s.cfg.GroupKey != nil {
		key = s.cfg.GroupKey(host)
	}
	g := s.groups[key]
	if g == nil {
		g = &group{key: key, index: -1, lastDelay: s.cfg.MinDelay}
		s.groups[key] = g
	}
	g.refs++
	hs := &hostState{g: g}
	s.hosts[host] = hs
	return hs
}

// Add records that host has work waiting. It becomes eligible for Next at
// its next-contact time (at once for a host never contacted). Adding an
// active host again does nothing.
func (s *Schedule) Add(host string) {
	hs := s.state(host)
	if hs.active {
		return
	}
	hs.active = true
	hs.g.hosts = append(hs.g.hosts, host)
	s.fix(hs.g)
}

// Remove records that host has no work waiting; Next will not return it
// until it is added again. Its timing (next contact, back-off) is kept.
func (s *Schedule) Remove(host string) {
	hs := s.hosts[host]
	if hs == nil || !hs.active {
		return
	}
	hs.active = false
	g := hs.g
	for i, h := range g.hosts {
		if h == host {
			g.hosts[i] = g.hosts[len(g.hosts)-1]
			g.hosts = g.hosts[:len(g.hosts)-1]
			break
		}
	}
	s.fix(g)
}

// Prune forgets hosts that have no work waiting, no contact in flight, no
// back-off pending and a next-contact time not after now, so a long crawl
// over many hosts does not keep them all. Forgetting them changes nothing:
// such a host would be contacted at once anyway. It returns how many hosts
// it forgot.
func (s *Schedule) Prune(now time.Time) int {
	n := 0
	for host, hs := range s.hosts {
		g := hs.g
		if hs.active || g.inflight > 0 || g.failures > 0 || g.next.After(now) {
			continue
		}
		delete(s.hosts, host)
		n++
		if g.refs--; g.refs == 0 {
			delete(s.groups, g.key)
		}
	}
	return n
}

// Hosts returns the number of hosts the schedule keeps state for.
func (s *Schedule) Hosts() int { return len(s.hosts) }

// Next leases the active host whose group has the earliest next-contact
// time, if that time is not after now and the global rate limit allows a
// contact at now; the lease lasts until Done. Otherwise ok is false and wake
// is the earliest time at which Next may succeed, or the zero Time if no
// host is waiting (then only Add or Done can change that).
func (s *Schedule) Next(now time.Time) (host string, wake time.Time, ok bool) {
	if len(s.heap) == 0 {
		return "", time.Time{}, false
	}
	g := s.heap[0]
	if g.next.After(now) {
		return "", g.next, false
	}
	if s.lim != nil && !s.lim.AllowN(now, 1) {
		need := 1 - s.lim.TokensAt(now)
		d := time.Duration(need / float64(s.lim.Limit()) * float64(time.Second))
		return "", now.Add(max(d, 1)), false
	}
	host = g.hosts[g.rr%len(g.hosts)]
	g.rr++
	g.inflight++
	// With a concurrency limit above one, further contacts may start before
	// this one ends, but not closer together than the last delay.
	g.next = now.Add(g.lastDelay)
	s.seq++
	g.seq = s.seq
	s.fix(g)
	return host, time.Time{}, true
}

// Done ends a contact with host leased by Next: it releases the lease and
// sets the group's next-contact time to now plus the policy's delay for out,
// whose CrawlDelay is first capped at Config.MaxCrawlDelay.
// It returns the delay, or ErrNotAcquired if host has no contact in flight.
func (s *Schedule) Done(host string, now time.Time, out Outcome) (time.Duration, error) {
	hs := s.hosts[host]
	if hs == nil || hs.g.inflight == 0 {
		return 0, ErrNotAcquired
	}
	g := hs.g
	out.CrawlDelay = min(out.CrawlDelay, s.cfg.MaxCrawlDelay)
	if out.Throttled() {
		g.failures++
	} else {
		g.failures = 0
	}
	d := max(s.cfg.Policy.Delay(Contact{
		Host:     host,
		Outcome:  out,
		Failures: g.failures,
		Jitter:   s.rng.Float64(),
	}), 0)
	g.lastDelay = d
	g.inflight--
	if next := now.Add(d); g.inflight == 0 || next.After(g.next) {
		g.next = next
	}
	s.seq++
	g.seq = s.seq
	s.fix(g)
	return d, nil
}

// Cancel ends a contact that Next granted but that never reached the host
// (say, a URL that robots.txt turned out to disallow): the host is released
// with no new delay, ready again at now if nothing else is in flight.
func (s *Schedule) Cancel(host string, now time.Time) error {
	hs := s.hosts[host]
	if hs == nil || hs.g.inflight == 0 {
		return ErrNotAcquired
	}
	g := hs.g
	g.inflight--
	if g.inflight == 0 && g.next.After(now) {
		g.next = now
	}
	s.fix(g)
	return nil
}

// NextContact returns the earliest time host may be contacted again, and
// false if the schedule knows nothing about host (never added).
func (s *Schedule) NextContact(host string) (time.Time, bool) {
	hs := s.hosts[host]
	if hs == nil {
		return time.Time{}, false
	}
	return hs.g.next, true
}

// RestsLong reports whether host must rest longer than Config.MaxDelay
// from now: its group's next contact is more than MaxDelay after now. No
// host rests that long in the ordinary course, since the minimum and the
// adaptive delay are at most MaxDelay; only a Crawl-delay, back-off, a
// Retry-After or a custom Policy make it so. A frontier that keeps a
// bounded number of hosts competing for workers (Mercator's back queues)
// asks it after a contact, and lets a host that rests long give its place
// to another until it is due, so that any number of such hosts cannot
// delay the others. It reports false for a host the schedule does not
// know.
func (s *Schedule) RestsLong(host string, now time.Time) bool {
	hs := s.hosts[host]
	return hs != nil && hs.g.next.Sub(now) > s.cfg.MaxDelay
}

// GroupHosts returns the hosts of host's group (see Config.GroupKey) that
// have work waiting (added and not removed), in no particular order: host
// alone, if it has work, when hosts are not grouped. The slice is the
// caller's. A frontier that takes a host that rests long out of its back
// queues (see RestsLong) takes the others of its group with it: they share
// its next contact.
func (s *Schedule) GroupHosts(host string) []string {
	hs := s.hosts[host]
	if hs == nil {
		return nil
	}
	return append([]string(nil), hs.g.hosts...)
}

// InFlight returns the number of contacts in flight for host's group.
func (s *Schedule) InFlight(host string) int {
	if hs := s.hosts[host]; hs != nil {
		return hs.g.inflight
	}
	return 0
}

// Waiting returns the number of host groups that have work and are below
// their concurrency limit, ready or not.
func (s *Schedule) Waiting() int { return len(s.heap) }

// fix restores the invariant: g is in the heap iff it has active hosts and
// is below its concurrency limit, at the position its time dictates.
func (s *Schedule) fix(g *group) {
	eligible := len(g.hosts) > 0 && g.inflight < s.cfg.HostConcurrency
	switch {
	case eligible && g.index < 0:
		s.seq++
		g.seq = s.seq
		heap.Push(&s.heap, g)
	case eligible:
		heap.Fix(&s.heap, g.index)
	case g.index >= 0:
		heap.Remove(&s.heap, g.index)
	}
}

type groupHeap []*group

func (h groupHeap) Len() int { return len(h) }
func (h groupHeap) Less(i, j int) bool {
	if !h[i].next.Equal(h[j].next) {
		return h[i].next.Before(h[j].next)
	}
	return h[i].seq < h[j].seq
}
func (h groupHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index = i
	h[j].index = j
}
func (h *groupHeap) Push(x any) {
	g := x.(*group)
	g.index = len(*h)
	*h = append(*h, g)
}
func (h *groupHeap) Pop() any {
	old := *h
	g := old[len(old)-1]
	old[len(old)-1] = nil
	g.index = -1
	*h = old[:len(old)-1]
	return g
}
