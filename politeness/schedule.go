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
	// IPKey, if set, keys politeness by server as well as by host, in two
	// levels as BUbiNG does: it returns the key of the server a host's
	// name resolves to (its IP address), or ok false when that is not
	// known (the name does not resolve, or not yet), and the host is then
	// its own server. The hosts of one server keep their own timing
	// (delay, Crawl-delay, back-off, HostConcurrency) and share the
	// server's: at most IPConcurrency contacts in flight, each starting at
	// least IPDelay after the end of the server's previous one. A host may
	// be contacted when its own next-contact time and its server's have
	// passed and both in-flight limits allow. IPKey is called with the
	// lock held when a host joins and whenever a host is added or
	// released with nothing in flight, so a host whose address changed
	// moves to its new server at its next contact's end: it must not
	// block (read a cache; resolve elsewhere). With GroupKey too, a group
	// belongs to the server of the host of the group last added or
	// released. Default nil: politeness per host only.
	IPKey func(host string) (ip string, ok bool)
	// IPDelay is the least time between the end of one contact with a
	// server (see IPKey) and the start of the next, whichever of its hosts
	// they are for. It may be shorter than MinDelay: one site is spared by
	// its own delay, and the IP delay spares the machine that serves many.
	// Default DefaultIPDelay (250ms); a negative value means none.
	IPDelay time.Duration
	// IPConcurrency is how many contacts with one server (see IPKey) may
	// be in flight at once, over all its hosts. Default 1: no two
	// contacts with one IP address at once.
	IPConcurrency int
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
	switch {
	case cfg.IPDelay == 0:
		cfg.IPDelay = DefaultIPDelay
	case cfg.IPDelay < 0:
		cfg.IPDelay = 0
	}
	if cfg.IPConcurrency <= 0 {
		cfg.IPConcurrency = 1
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

// DefaultIPDelay is the IP delay (Config.IPDelay) when none is set: a
// server that hosts many sites gets a request at most every quarter of a
// second from the crawl (and one at a time, Config.IPConcurrency), while
// each of its sites still rests its own delay (1s by default). So a server
// with up to four sites sees no slower a crawl than host politeness alone
// gives it, and one with a thousand is not hit a thousand times a second.
const DefaultIPDelay = 250 * time.Millisecond

// Schedule is the time-parameterized core of the per-host scheduler: a heap
// of servers keyed by their earliest next-contact time, each with a heap of
// its host groups (a server is one group unless Config.IPKey groups hosts
// by address). Every method that depends on time takes it as a parameter,
// so tests are step tables with no clock at all. Hosts enter the heap when
// they have work (Add) and leave it when they have none (Remove) or while
// their group or server is at its concurrency limit. Their timing outlives
// Remove; Prune forgets idle hosts.
//
// A Schedule is not safe for concurrent use; Scheduler wraps one with a lock
// and a clock. The frontier package embeds a Schedule under its own lock.
type Schedule struct {
	cfg     Config
	hosts   map[string]*hostState
	groups  map[string]*group
	servers map[string]*server // shared servers (Config.IPKey), by key
	heap    serverHeap
	waiting int // groups in their server's heap
	seq     uint64
	lim     *rate.Limiter
	rng     *rand.Rand
}

type hostState struct {
	g      *group
	active bool // the host has work waiting (Add without Remove)
}

// group is the host level: one host, or the hosts Config.GroupKey joins.
type group struct {
	key       string
	next      time.Time // earliest next contact
	lastDelay time.Duration
	inflight  int
	failures  int
	hosts     []string // active hosts, served round robin
	rr        int
	refs      int     // hosts in the schedule that map to this group
	index     int     // position in its server's heap; -1 when not in it
	seq       uint64  // tie-break: equal times are served first come, first served
	srv       *server // &solo, or a shared server
	solo      server  // the group's own server, when it has no shared one
}

// server is the IP level: a shared server (key != "") holds the groups
// whose hosts resolve to one address, with its own delay and concurrency
// limit; a group's solo server (key "") holds that group alone and adds
// no constraint of its own.
type server struct {
	key      string
	next     time.Time // earliest next contact the server level allows
	rest     time.Time // end of the latest contact plus the IP delay
	inflight int
	active   int       // groups with active hosts
	groups   groupHeap // groups with work below their own limit, by next
	refs     int       // groups that belong to it
	index    int       // position in Schedule.heap; -1 when not in it
	at       time.Time // ready(), as of the last fixServer: the heap's key
	seq      uint64    // the first group's seq, as of the last fixServer
}

// ready returns when the first group of srv may be contacted: both its own
// time and the server's have passed. Call only when srv has groups.
func (srv *server) ready() time.Time {
	if t := srv.groups[0].next; t.After(srv.next) {
		return t
	}
	return srv.next
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
		cfg:     c,
		hosts:   make(map[string]*hostState),
		groups:  make(map[string]*group),
		servers: make(map[string]*server),
		rng:     rand.New(rand.NewPCG(c.Seed, 0x7472617761)),
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
		g.solo.index = -1
		g.srv = &g.solo
		g.solo.refs = 1
		s.groups[key] = g
		s.rekey(g, host)
	}
	g.refs++
	hs := &hostState{g: g}
	s.hosts[host] = hs
	return hs
}

// rekey moves g, which has nothing in flight, to the server host resolves
// to now (Config.IPKey), if that changed. The caller fixes g.
func (s *Schedule) rekey(g *group, host string) {
	if s.cfg.IPKey == nil || g.inflight > 0 {
		return
	}
	key, ok := s.cfg.IPKey(host)
	if !ok {
		key = ""
	}
	if key == g.srv.key {
		return
	}
	old := g.srv
	if g.index >= 0 {
		heap.Remove(&old.groups, g.index)
		s.waiting--
	}
	if len(g.hosts) > 0 {
		old.active--
	}
	old.refs--
	s.fixServer(old)
	if old.key != "" && old.refs == 0 && old.inflight == 0 && len(old.groups) == 0 {
		// Its rest is forgotten with it: a server none of whose hosts
		// resolves to it any more is not contacted through them.
		delete(s.servers, old.key)
	}
	srv := &g.solo
	if key != "" {
		srv = s.servers[key]
		if srv == nil {
			srv = &server{key: key, index: -1}
			s.servers[key] = srv
		}
	}
	srv.refs++
	if len(g.hosts) > 0 {
		srv.active++
	}
	g.srv = srv
}

// Add records that host has work waiting. It becomes eligible for Next at
// its next-contact time (at once for a host never contacted) and its
// server's. Adding an active host again does nothing.
func (s *Schedule) Add(host string) {
	hs := s.state(host)
	if hs.active {
		return
	}
	hs.active = true
	g := hs.g
	s.rekey(g, host)
	if len(g.hosts) == 0 {
		g.srv.active++
	}
	g.hosts = append(g.hosts, host)
	s.fix(g)
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
	if len(g.hosts) == 0 {
		g.srv.active--
	}
	s.fix(g)
}

// Prune forgets hosts that have no work waiting, no contact in flight, no
// back-off pending and a next-contact time not after now, so a long crawl
// over many hosts does not keep them all, and servers none of whose hosts
// it keeps whose IP delay has passed. Forgetting them changes nothing:
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
			g.srv.refs--
		}
	}
	for key, srv := range s.servers {
		if srv.refs == 0 && srv.inflight == 0 && !srv.rest.After(now) {
			delete(s.servers, key)
		}
	}
	return n
}

// Hosts returns the number of hosts the schedule keeps state for.
func (s *Schedule) Hosts() int { return len(s.hosts) }

// Next leases the active host whose group has the earliest next-contact
// time, if that time and its server's are not after now, and the global
// rate limit allows a contact at now; the lease lasts until Done.
// Otherwise ok is false and wake is the earliest time at which Next may
// succeed, or the zero Time if no host is waiting (then only Add or Done
// can change that).
func (s *Schedule) Next(now time.Time) (host string, wake time.Time, ok bool) {
	if len(s.heap) == 0 {
		return "", time.Time{}, false
	}
	srv := s.heap[0]
	if srv.at.After(now) {
		return "", srv.at, false
	}
	if s.lim != nil && !s.lim.AllowN(now, 1) {
		need := 1 - s.lim.TokensAt(now)
		d := time.Duration(need / float64(s.lim.Limit()) * float64(time.Second))
		return "", now.Add(max(d, 1)), false
	}
	g := srv.groups[0]
	host = g.hosts[g.rr%len(g.hosts)]
	g.rr++
	g.inflight++
	// With a concurrency limit above one, further contacts may start before
	// this one ends, but not closer together than the last delay.
	g.next = now.Add(g.lastDelay)
	s.seq++
	g.seq = s.seq
	srv.inflight++
	if srv.key != "" {
		srv.next = later(srv.next, now.Add(s.cfg.IPDelay))
	}
	s.fix(g)
	return host, time.Time{}, true
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// Done ends a contact with host leased by Next: it releases the lease and
// sets the group's next-contact time to now plus the policy's delay for out,
// whose CrawlDelay is first capped at Config.MaxCrawlDelay, and its
// server's (Config.IPKey) to now plus Config.IPDelay.
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
	srv := g.srv
	srv.inflight--
	if srv.key != "" {
		srv.rest = later(srv.rest, now.Add(s.cfg.IPDelay))
		if srv.inflight == 0 {
			srv.next = srv.rest
		} else {
			srv.next = later(srv.next, srv.rest)
		}
	}
	s.seq++
	g.seq = s.seq
	s.rekey(g, host)
	s.fix(g)
	return d, nil
}

// Cancel ends a contact that Next granted but that never reached the host
// (say, a URL that robots.txt turned out to disallow): the host is released
// with no new delay, ready again at now if nothing else is in flight (and
// its server, at the end of its last contact plus the IP delay).
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
	srv := g.srv
	srv.inflight--
	if srv.inflight == 0 {
		srv.next = srv.rest
	}
	s.rekey(g, host)
	s.fix(g)
	return nil
}

// NextContact returns the earliest time host may be contacted again (its
// own next contact, or its server's when that is later), and false if the
// schedule knows nothing about host (never added).
func (s *Schedule) NextContact(host string) (time.Time, bool) {
	hs := s.hosts[host]
	if hs == nil {
		return time.Time{}, false
	}
	return later(hs.g.next, hs.g.srv.next), true
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

// Crowded reports whether host shares its server (Config.IPKey) with more
// host groups that have work than Config.IPConcurrency lets in flight at
// once, so that it waits for its server's turn besides its own. A
// frontier that keeps a bounded number of hosts competing for workers
// treats such a host as one that rests long (see RestsLong): any number of
// hosts on one address, which one DNS answer can give, then take no more
// places from the hosts of other servers than the server's own contacts.
// It reports false for a host on a server of its own and for one the
// schedule does not know.
func (s *Schedule) Crowded(host string) bool {
	hs := s.hosts[host]
	return hs != nil && hs.g.srv.key != "" && hs.g.srv.active > s.cfg.IPConcurrency
}

// IP returns the key of the server host is kept under (see Config.IPKey),
// and false when host is its own server: no IPKey, an address not known,
// or a host the schedule does not know.
func (s *Schedule) IP(host string) (ip string, ok bool) {
	if hs := s.hosts[host]; hs != nil && hs.g.srv.key != "" {
		return hs.g.srv.key, true
	}
	return "", false
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
// their concurrency limit, ready or not (their server may be at its
// limit).
func (s *Schedule) Waiting() int { return s.waiting }

// fix restores the invariant: g is in its server's heap iff it has active
// hosts and is below its concurrency limit, at the position its time
// dictates; then fixes the server.
func (s *Schedule) fix(g *group) {
	eligible := len(g.hosts) > 0 && g.inflight < s.cfg.HostConcurrency
	h := &g.srv.groups
	switch {
	case eligible && g.index < 0:
		s.seq++
		g.seq = s.seq
		heap.Push(h, g)
		s.waiting++
	case eligible:
		heap.Fix(h, g.index)
	case g.index >= 0:
		heap.Remove(h, g.index)
		s.waiting--
	}
	s.fixServer(g.srv)
}

// fixServer restores the invariant of the top heap: srv is in it iff it
// has groups waiting and is below its concurrency limit (a solo server
// has none of its own).
func (s *Schedule) fixServer(srv *server) {
	eligible := len(srv.groups) > 0 && (srv.key == "" || srv.inflight < s.cfg.IPConcurrency)
	if eligible {
		srv.at, srv.seq = srv.ready(), srv.groups[0].seq
	}
	switch {
	case eligible && srv.index < 0:
		heap.Push(&s.heap, srv)
	case eligible:
		heap.Fix(&s.heap, srv.index)
	case srv.index >= 0:
		heap.Remove(&s.heap, srv.index)
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

// serverHeap orders servers by when their first group may be contacted,
// then by that group's turn (first come, first served).
type serverHeap []*server

func (h serverHeap) Len() int { return len(h) }
func (h serverHeap) Less(i, j int) bool {
	if !h[i].at.Equal(h[j].at) {
		return h[i].at.Before(h[j].at)
	}
	return h[i].seq < h[j].seq
}
func (h serverHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index = i
	h[j].index = j
}
func (h *serverHeap) Push(x any) {
	srv := x.(*server)
	srv.index = len(*h)
	*h = append(*h, srv)
}
func (h *serverHeap) Pop() any {
	old := *h
	srv := old[len(old)-1]
	old[len(old)-1] = nil
	srv.index = -1
	*h = old[:len(old)-1]
	return srv
}
