package frontier

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/url"
	"sync"
	"time"

	"github.com/trawl-dev/trawl/frontier/internal/wakeup"
	"github.com/trawl-dev/trawl/internal/fpset"
	"github.com/trawl-dev/trawl/politeness"
	"github.com/trawl-dev/trawl/urlnorm"
)

// Strategy is the order in which a Memory frontier hands out the URLs of one
// front queue. All strategies share the Mercator structure; see MemoryOptions.
type Strategy int

const (
	// BFS hands out URLs first in, first out: breadth-first crawling.
	BFS Strategy = iota
	// DFS hands out URLs last in, first out: depth-first crawling.
	DFS
	// Priority hands out the URL with the highest Request.Priority first
	// (best-first, for focused crawling); Boost raises a queued URL's score.
	Priority
)

// String returns "bfs", "dfs" or "priority".
func (s Strategy) String() string {
	switch s {
	case BFS:
		return "bfs"
	case DFS:
		return "dfs"
	case Priority:
		return "priority"
	}
	return fmt.Sprintf("Strategy(%d)", int(s))
}

// MemoryOptions configures a Memory frontier. A nil *MemoryOptions and zero
// fields take the defaults named on each field.
type MemoryOptions struct {
	// Strategy orders each front queue. Default BFS.
	Strategy Strategy
	// FrontQueues is K, the number of front (priority) queues. A request
	// goes to queue clamp(floor(Priority), 1, K); the selector serves queue
	// i with weight i, so queue K is served K times as often as queue 1.
	// Default 4.
	FrontQueues int
	// Randomized makes the selector draw queues at random with the same
	// weights instead of in smooth weighted round robin.
	Randomized bool
	// Workers is the number of goroutines expected to call Next; it sizes
	// the back queues. Default 1.
	Workers int
	// BackQueues is how many hosts have a back queue at once (Mercator
	// keeps about three per worker), not counting hosts parked while they
	// rest longer than Politeness.MaxDelay (see the package
	// documentation, "The Mercator structure"). Default 3 × Workers.
	BackQueues int
	// MaxDepth drops requests deeper than this at Push. Default 0: no limit.
	MaxDepth int
	// MaxPerHost is the budget of URLs accepted per host over the life of
	// the frontier; Push drops the rest, so a trap host cannot fill the
	// frontier. Default 0: no limit.
	MaxPerHost int
	// Politeness configures the per-host scheduler: minimum delay (default
	// 1s), adaptive factor, the cap on Crawl-delay (MaxCrawlDelay, default
	// 5m), back-off, host concurrency, global rate, host grouping
	// (GroupKey) and the Clock the frontier waits on. Its MaxDelay (default
	// 60s) is also the rest beyond which a host leaves the back queues
	// until it is due.
	Politeness politeness.Config
	// Seed seeds the randomized selector.
	Seed uint64
	// SpillDir, if set, keeps the front queues of a BFS or DFS frontier
	// mostly on disk, as Mercator did: each front queue holds its first
	// block and its last two (128 URLs each) in memory and writes the blocks
	// between them to one temporary file in SpillDir, reading each back
	// when the queue reaches it. A queued URL then costs no memory beyond
	// its seen-set slot, whether the front queues hold a thousand URLs or a
	// hundred million; the file takes about 15 bytes per spilled URL
	// besides its URL and anchor text (a referrer is stored once for a run
	// of URLs from the same page), in slots of whole 4 KiB pages that are
	// reused. Priority front queues are heaps and do not spill. Close
	// removes the file. Default "": no spilling.
	//
	// Only the front queues spill; back queues live in memory. Mercator's
	// refill moves every URL it meets to its host's back queue, so while
	// fewer hosts had URLs than there are back queues (BackQueues, about
	// three per worker) a refill moved the whole front queue to memory,
	// and a crawl of a few sites kept its queue in memory, spill or not.
	// With SpillDir, refill stops at a URL of a host whose back queue
	// holds 64 URLs when no other host is waiting in the front queues, and
	// leaves the URLs of hosts that rest long there (see the package
	// documentation): two hosts with 20,000 URLs each keep at most 65
	// each in memory (TestFewHostsStaySpilled; 40,000 before). While it
	// looks for a host without a back queue, it moves at most 1,024 URLs
	// beyond those 64 (TestHostBehindFullQueuesKeepsURLsSpilled). Under
	// DFS, the URLs found on a host's pages go straight to its back queue
	// (the top of its stack); beyond 64, the oldest go to a spilling
	// deque under it (TestDFSLinksOfACrawledHostSpill: 20,000 links of one
	// page, 419 URLs in memory at most; all 20,003 before).
	SpillDir string
}

// Memory is the in-memory Mercator frontier. K front queues hold URLs by
// priority; a biased selector moves them to back queues, one per host, of
// which about three per worker are kept non-empty; a politeness.Schedule
// picks the host whose next contact time comes first.
//
// Memory is safe for concurrent use. All state is guarded by one mutex held
// only for short, allocation-light critical sections (fingerprints and host
// keys are computed before it is taken; waiting never holds it).
type Memory struct {
	// Immutable after NewMemory.
	strategy   Strategy
	k          int
	randomized bool
	target     int
	maxDepth   int
	maxPerHost int
	clock      politeness.Clock

	mu          sync.Mutex
	sched       *politeness.Schedule
	fifo        []deque     // front queues for BFS and DFS
	heaps       []prioQueue // front queues for Priority
	credit      []int       // smooth weighted round robin state
	frontLen    int
	queued      int  // front + back
	backs       int  // hosts with a back queue, but for the parked ones
	parked      int  // hosts with a back queue that rest long
	scanned     int  // front entries refill passed over since it last found a new host
	scanStopped bool // refill stopped at refillScan (see scanPending)
	frontNew    int  // front entries whose host has no back queue (about: lost spill blocks are not subtracted)
	over        int  // back-queue entries beyond backCap, summed over hosts (counted only when spilling)
	hosts       map[string]*hostInfo
	hostList    []*hostInfo // by hostInfo.id
	sp          *spill      // nil unless SpillDir is set (BFS and DFS)
	seen        fpset.Set
	leased      map[uint64]*hostInfo
	rng         *rand.Rand
	pruneAt     int
	spare       []*ring           // empty back queues kept for reuse, with their buffer
	wake        wakeup.Signal     // closed on change, for Next's waiters
	pushScratch sync.Pool         // idle *pushScratch
	revisits    revisitHeap       // URLs waiting for their revisit time
	states      map[uint64]string // Request.State of revisits, by fingerprint
}

// pushScratch is Push's working space: the entries of a batch and, for
// each, its host key and request.
type pushScratch struct {
	ents   []entry
	extras []pushExtra
}

type pushExtra struct {
	host string
	req  *Request
}

// putPushScratch keeps sc for the next Push, without the requests and
// strings it points to, unless a huge batch grew it.
func (m *Memory) putPushScratch(sc *pushScratch) {
	if cap(sc.ents) > 4096 {
		return
	}
	clear(sc.ents) // entries past len were cleared by the Push that used them
	clear(sc.extras)
	m.pushScratch.Put(sc)
}

// pruneMin is how many hosts the politeness schedule may remember before
// Next prunes the idle ones (about 150 bytes each).
const pruneMin = 1 << 16

// NewMemory returns an empty in-memory frontier configured by opts (nil
// means defaults).
func NewMemory(opts *MemoryOptions) *Memory {
	var o MemoryOptions
	if opts != nil {
		o = *opts
	}
	if o.FrontQueues <= 0 {
		o.FrontQueues = 4
	}
	if o.Workers <= 0 {
		o.Workers = 1
	}
	if o.BackQueues <= 0 {
		o.BackQueues = 3 * o.Workers
	}
	clock := o.Politeness.Clock
	if clock == nil {
		clock = politeness.SystemClock{}
	}
	m := &Memory{
		strategy:   o.Strategy,
		k:          o.FrontQueues,
		randomized: o.Randomized,
		target:     o.BackQueues,
		maxDepth:   o.MaxDepth,
		maxPerHost: o.MaxPerHost,
		clock:      clock,
		sched:      politeness.NewSchedule(&o.Politeness),
		credit:     make([]int, o.FrontQueues),
		hosts:      make(map[string]*hostInfo),
		leased:     make(map[uint64]*hostInfo),
		rng:        rand.New(rand.NewPCG(o.Seed, 0x66726f6e74)),
		pruneAt:    pruneMin,
	}
	if m.strategy == Priority {
		pos := make(map[uint64]slot)
		m.heaps = make([]prioQueue, m.k)
		for i := range m.heaps {
			m.heaps[i] = prioQueue{level: uint32(i), pos: pos}
		}
	} else {
		if o.SpillDir != "" {
			m.sp = &spill{dir: o.SpillDir, hosts: &m.hostList}
		}
		m.fifo = make([]deque, m.k)
		for i := range m.fifo {
			m.fifo[i].sp = m.sp
		}
	}
	return m
}

// level returns the front queue index (0..K-1) for priority p.
func (m *Memory) level(p float64) int {
	if !(p >= 1) { // also NaN
		return 0
	}
	if p >= float64(m.k) {
		return m.k - 1
	}
	return int(math.Floor(p)) - 1
}

// Push adds the requests whose URL was never accepted before and that fit
// the depth limit and the host's budget, and returns how many it added.
// Requests with an empty Host get urlnorm.Key of their parsed URL; a request
// whose URL cannot be parsed or has no host, or whose Data is longer than
// MaxData (ErrDataTooLarge), is skipped and reported in err, which joins
// one error per such request. Push returns ctx.Err() without adding
// anything if ctx has ended.
func (m *Memory) Push(ctx context.Context, reqs ...Request) (added int, err error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	// Work that needs no lock: host keys and fingerprints. Each entry's
	// host key waits in extras, with its request (for the anchor and Data),
	// until the entry is accepted. The two slices are kept between calls
	// (a page's links are one batch, often more than a stack array holds).
	sc, _ := m.pushScratch.Get().(*pushScratch)
	if sc == nil {
		sc = new(pushScratch)
	}
	defer m.putPushScratch(sc)
	ents, extras := sc.ents[:0], sc.extras[:0]
	var errs []error
	for i := range reqs {
		r := &reqs[i]
		if len(r.Data) > MaxData {
			errs = append(errs, fmt.Errorf("frontier: push %q: %d bytes of data, more than %d: %w", r.URL, len(r.Data), MaxData, ErrDataTooLarge))
			continue
		}
		if m.maxDepth > 0 && r.Depth > m.maxDepth {
			continue
		}
		host := r.Host
		if host == "" {
			u, perr := url.Parse(r.URL)
			if perr == nil {
				host = urlnorm.Key(u)
			}
			if host == "" {
				errs = append(errs, fmt.Errorf("frontier: push %q: no host", r.URL))
				continue
			}
		}
		ents = append(ents, entry{
			data:      r.URL, // joined with the anchor and Data once accepted
			referrer:  r.Referrer,
			fp:        Fingerprint(r.URL),
			prio:      r.Priority,
			depth:     clamp32(r.Depth),
			retries:   clamp16(r.Retries),
			redirects: clamp16(r.Redirects),
		})
		extras = append(extras, pushExtra{host, r})
	}
	sc.ents, sc.extras = ents, extras

	m.mu.Lock()
	if len(m.revisits) > 0 {
		m.promote(m.clock.Now()) // due revisits go ahead of the new URLs
	}
	for i := range ents {
		e := &ents[i]
		if m.seen.Contains(e.fp) {
			continue
		}
		hi := m.hosts[extras[i].host]
		if hi == nil {
			hi = &hostInfo{name: extras[i].host, id: uint32(len(m.hostList))}
			m.hosts[hi.name] = hi
			m.hostList = append(m.hostList, hi)
		}
		if m.maxPerHost > 0 && hi.accepted >= m.maxPerHost {
			continue
		}
		hi.accepted++
		m.seen.Add(e.fp)
		e.host = hi
		e.data = joinData(e.data, extras[i].req.Anchor, extras[i].req.Data)
		added++
		if m.strategy == DFS && hi.back != nil && !(hi.parked && m.sp != nil) {
			// The newest URL is the top of its host's stack; going through
			// the front queue would put it under older ones. (Not for a
			// parked host when the front queues spill: its URLs wait in
			// the spill file, see refill.)
			hi.back.pushBack(*e)
			m.deepen(hi)
			m.grewBack(hi)
			m.queued++
			continue
		}
		if hi.back == nil {
			m.scanned = 0 // a host refill may take
		}
		m.pushFront(*e)
	}
	if added > 0 {
		m.refill(time.Time{}) // newBack reads the clock if it needs to
		m.wake.Broadcast()
	}
	m.mu.Unlock()
	return added, errors.Join(errs...)
}

func clamp16(n int) int16 {
	return int16(max(min(n, math.MaxInt16), 0))
}

func clamp32(n int) int32 {
	return int32(min(max(n, math.MinInt32), math.MaxInt32))
}

func (m *Memory) pushFront(e entry) {
	l := m.level(e.prio)
	if m.heaps != nil {
		m.heaps[l].push(e)
	} else {
		m.fifo[l].pushBack(e)
	}
	m.frontLen++
	m.queued++
	m.countFront(e.host, 1)
}

// countFront counts n more (or fewer) front entries of hi.
func (m *Memory) countFront(hi *hostInfo, n int) {
	hi.front += int32(n)
	if hi.back == nil {
		m.frontNew += n
	}
}

// popFront takes the next entry from front queue l, by strategy. It reports
// false if the queue turned out empty: its spilled blocks could not be read
// back (the lost entries are no longer counted; Next reports the error).
func (m *Memory) popFront(l int) (e entry, ok bool) {
	switch {
	case m.heaps != nil:
		e, ok = m.heaps[l].pop(), true
	case m.strategy == DFS:
		e, ok = m.fifo[l].popBack()
	default:
		e, ok = m.fifo[l].popFront()
	}
	if m.sp != nil {
		lost := m.sp.takeLost()
		m.frontLen -= lost
		m.queued -= lost
	}
	if ok {
		m.frontLen--
		m.countFront(e.host, -1)
	}
	return e, ok
}

func (m *Memory) frontQueueLen(l int) int {
	if m.heaps != nil {
		return m.heaps[l].len()
	}
	return m.fifo[l].len()
}

// pickFront is Mercator's biased front-queue selector: among non-empty
// queues, queue l has weight l+1. Call only when frontLen > 0.
func (m *Memory) pickFront() int {
	if m.randomized {
		total := 0
		for l := range m.k {
			if m.frontQueueLen(l) > 0 {
				total += l + 1
			}
		}
		r := m.rng.IntN(total)
		for l := range m.k {
			if m.frontQueueLen(l) > 0 {
				if r -= l + 1; r < 0 {
					return l
				}
			}
		}
	}
	// Smooth weighted round robin (as in nginx): deterministic, and spreads
	// the picks of each queue evenly over a cycle.
	best, total := -1, 0
	for l := range m.k {
		if m.frontQueueLen(l) == 0 {
			continue
		}
		m.credit[l] += l + 1
		total += l + 1
		if best < 0 || m.credit[l] > m.credit[best] {
			best = l
		}
	}
	m.credit[best] -= total
	return best
}

// refill moves URLs from the front queues to back queues until enough hosts
// have one, as in Mercator: take a URL from the selected front queue; if its
// host has a back queue, append it there and take another; otherwise the
// URL starts a back queue for its host. Parked hosts do not count. A zero
// now means the time is not known yet.
//
// When the front queues spill (MemoryOptions.SpillDir), refill keeps the
// queued URLs in the spill file rather than in memory where it can:
//   - When no URL in the front queues is of a host without a back queue,
//     there is no host to take, and refill stops at the first URL of a
//     host whose back queue holds backCap URLs already, leaving it where
//     it was (the order is that of the front queue still). Mercator's
//     refill moves every URL it meets to its host's back queue, which
//     with fewer hosts than back queues is the whole front queue. While
//     a host without a back queue is waiting, refill moves the URLs
//     before its first one to their hosts' back queues, as Mercator does
//     (passing over them would change the order of their hosts' URLs),
//     but only up to overCap URLs beyond backCap in all: then it stops at
//     a full back queue as above, and the waiting host's turn comes as
//     the queues ahead of it drain (TestHostBehindFullQueuesKeepsURLsSpilled:
//     40,001 URLs in memory before this bound, 1,152 with it).
//   - The URLs of a parked host (they would wait out its rest in memory),
//     and, while only parked hosts leave room among the back queues, those
//     of every host with a back queue, go back to the far end of their
//     front queue while refill looks past them for a host without one. It
//     passes over at most refillScan URLs a call and stops once it has
//     passed over twice the front queues' length since it last found a
//     host (Next goes on with it). URLs passed over so may come out after
//     later URLs of their host.
func (m *Memory) refill(now time.Time) {
	m.scanStopped = false
	scan := refillScan
	for m.backs < m.target && m.frontLen > 0 {
		if m.sp != nil && m.scanned >= 2*m.frontLen {
			return
		}
		l := m.pickFront()
		e, ok := m.popFront(l)
		if !ok {
			continue
		}
		if hi := e.host; m.sp != nil && hi.back != nil {
			full := m.backLen(hi) >= backCap
			if full && m.frontNew <= 0 {
				m.returnFront(l, e, false)
				return
			}
			if hi.parked || m.backs+m.parked >= m.target {
				m.returnFront(l, e, true)
				m.scanned++
				if scan--; scan == 0 {
					m.scanStopped = true
					return
				}
				continue
			}
			if full && m.over >= overCap {
				m.returnFront(l, e, false)
				return
			}
		}
		if e.host.back == nil {
			m.scanned = 0
		}
		m.appendBack(e, now)
	}
}

// refillScan bounds the URLs one refill passes over (two deque blocks).
const refillScan = 2 * blockLen

// backCap is how many URLs a back queue holds at most when the front
// queues spill and no host without a back queue is waiting (see refill).
const backCap = 64

// overCap is how many URLs all back queues together may hold beyond
// backCap each while refill looks for a host without a back queue, when
// the front queues spill: once they do, refill stops at the next URL of a
// host whose back queue is full, as it does when there is no such host,
// and takes that URL (and goes on) when the queue has room again.
const overCap = 8 * blockLen

// grewBack counts the entry just added to hi's back queue in over if it
// lies beyond backCap; shrinkBack does the reverse before one is taken.
// Entries in hi.deep do not count: they spill.
func (m *Memory) grewBack(hi *hostInfo) {
	if m.sp != nil && m.backLen(hi)-hi.deepLen() > backCap {
		m.over++
	}
}

func (m *Memory) shrinkBack(hi *hostInfo) {
	if m.sp != nil && m.backLen(hi)-hi.deepLen() > backCap {
		m.over--
	}
}

// deepen keeps hi's back queue, under DFS with SpillDir, at backCap
// entries in memory: the oldest beyond that go to the top of hi.deep,
// whose entries are all older than the back queue's, and whose middle
// blocks spill. Without it a host that has a back queue would keep every
// URL found on its pages in memory, since under DFS those go straight to
// its back queue (Push).
func (m *Memory) deepen(hi *hostInfo) {
	if m.sp == nil || m.strategy != DFS {
		return
	}
	for hi.back.len() > backCap {
		if hi.deep == nil {
			hi.deep = &deque{sp: m.sp}
		}
		hi.deep.pushBack(hi.back.popFront())
	}
}

func (hi *hostInfo) deepLen() int {
	if hi.deep == nil {
		return 0
	}
	return hi.deep.len()
}

// scanPending reports whether refill stopped in the middle of a search for
// a host without a back queue (see refill).
func (m *Memory) scanPending() bool {
	return m.scanStopped && m.backs < m.target && m.frontNew > 0 && m.scanned < 2*m.frontLen
}

// returnFront puts e, just popped from front queue l, back where it was
// (last false), or where that queue pops last (last true): at its back
// under BFS, at its bottom under DFS.
func (m *Memory) returnFront(l int, e entry, last bool) {
	if (m.strategy == DFS) != last {
		m.fifo[l].pushBack(e)
	} else {
		m.fifo[l].pushFront(e)
	}
	m.frontLen++
	m.countFront(e.host, 1)
}

// appendBack appends e, just taken from a front queue, to its host's back
// queue. Under DFS a back queue is a stack whose top is its back: e is older
// than everything there (front queues are stacks too, and newer URLs of a
// host with a back queue go straight to it), so it goes to the bottom.
func (m *Memory) appendBack(e entry, now time.Time) {
	hi := e.host
	if hi.back == nil {
		m.newBack(hi, now)
	}
	switch m.strategy {
	case Priority:
		hi.best.push(e)
	case DFS:
		if hi.deepLen() > 0 { // e is older than everything, hi.deep's too
			hi.deep.pushFront(e)
		} else {
			hi.back.pushFront(e)
			m.deepen(hi)
		}
	default:
		hi.back.pushBack(e)
	}
	m.grewBack(hi)
}

// backLen returns the number of entries in hi's back queue.
func (m *Memory) backLen(hi *hostInfo) int {
	if hi.best != nil {
		return hi.back.len() + hi.best.len()
	}
	return hi.back.len() + hi.deepLen()
}

// newBack gives hi an empty back queue, reusing a spare one with its
// buffer: a back queue often holds a single URL. A host that rests long at
// now (the clock's time when now is zero) gets it parked.
func (m *Memory) newBack(hi *hostInfo, now time.Time) {
	if n := len(m.spare); n > 0 {
		hi.back = m.spare[n-1]
		m.spare[n-1] = nil
		m.spare = m.spare[:n-1]
	} else {
		hi.back = new(ring)
	}
	if m.strategy == Priority {
		// Under Priority a host's back queue is a heap as well: with fewer
		// hosts than back queues, refill moves every URL straight to its
		// host's back queue, and a FIFO there would undo the order.
		hi.best = &prioQueue{pos: make(map[uint64]slot)}
	}
	m.backs++
	m.frontNew -= int(hi.front)
	m.sched.Add(hi.name)
	if now.IsZero() {
		now = m.clock.Now()
	}
	m.park(hi, now)
}

// park takes hi, which has a back queue, out of the hosts that count
// against the target if it rests long at now (its next contact more than
// politeness MaxDelay away): a resting host would keep the workers from
// hosts still in the front queues, and any number of hosts can rest that
// long (Crawl-delay, back-off). It stays in the schedule, which hands it
// out when it is due; Next then counts it again (unpark). The caller
// refills.
func (m *Memory) park(hi *hostInfo, now time.Time) {
	if !hi.parked && m.sidelined(hi.name, now) {
		hi.parked = true
		m.backs--
		m.parked++
	}
}

// parkGroup parks the hosts of host's politeness group (host alone unless
// politeness.Config.GroupKey groups hosts) that have a back queue, after a
// contact that left the group resting long, and refills.
func (m *Memory) parkGroup(host string, now time.Time) {
	for _, h := range m.sched.GroupHosts(host) {
		if hi := m.hosts[h]; hi != nil && hi.back != nil && !hi.parked {
			hi.parked = true
			m.backs--
			m.parked++
		}
	}
	m.refill(now)
}

// unpark counts hi, handed out by the schedule, among the hosts with a
// back queue again.
func (m *Memory) unpark(hi *hostInfo) {
	if hi.parked {
		hi.parked = false
		m.backs++
		m.parked--
	}
}

// dropBack removes hi's empty back queue, keeping it as a spare unless its
// buffer grew large.
func (m *Memory) dropBack(hi *hostInfo) {
	if len(m.spare) < m.target && len(hi.back.buf) <= 4*ringMin {
		m.spare = append(m.spare, hi.back)
	}
	m.unpark(hi)
	hi.back = nil
	hi.best = nil
	hi.deep = nil
	m.backs--
	m.frontNew += int(hi.front)
	m.scanned = 0 // its URLs in the front queues are a new host's now
	m.sched.Remove(hi.name)
}

// takeBack removes the next entry from hi's back queue. It reports false
// if the queue turned out empty: a spilled block of hi.deep could not be
// read back (the lost entries are no longer counted; Next reports the
// error).
func (m *Memory) takeBack(hi *hostInfo) (entry, bool) {
	m.shrinkBack(hi)
	switch m.strategy {
	case Priority:
		if hi.back.len() > 0 {
			return hi.back.popFront(), true // returned by Done: first in line
		}
		return hi.best.pop(), true
	case DFS:
		if hi.back.len() > 0 || hi.deepLen() == 0 {
			return hi.back.popBack(), true
		}
		e, ok := hi.deep.popBack()
		m.queued -= m.sp.takeLost()
		return e, ok
	}
	return hi.back.popFront(), true
}

// returnBack puts e back where takeBack will find it first.
func (m *Memory) returnBack(hi *hostInfo, e entry, now time.Time) {
	if hi.back == nil {
		m.newBack(hi, now)
	}
	switch m.strategy {
	case DFS:
		hi.back.pushBack(e)
		m.deepen(hi)
	default:
		hi.back.pushFront(e)
	}
	m.grewBack(hi)
}

// Next hands out a request whose host may be contacted now, blocking until
// there is one. See Frontier for the contract.
func (m *Memory) Next(ctx context.Context) (Request, error) {
	for {
		if err := ctx.Err(); err != nil {
			return Request{}, err
		}
		m.mu.Lock()
		if m.sp != nil && m.sp.err != nil {
			err := m.sp.err
			m.mu.Unlock()
			return Request{}, err
		}
		now := m.clock.Now()
		due := m.promote(now)
		if m.queued == 0 && len(m.leased) == 0 && len(m.revisits) == 0 {
			m.mu.Unlock()
			return Request{}, ErrEmpty
		}
		if m.scanPending() {
			m.refill(now)
		}
		host, wake, ok := m.sched.Next(now)
		if ok {
			hi := m.hosts[host]
			m.unpark(hi)
			e, ok := m.takeBack(hi)
			if !ok { // its spilled URLs were lost: the frontier fails
				m.dropBack(hi)
				err := m.sp.err
				m.mu.Unlock()
				return Request{}, err
			}
			m.queued--
			if m.backLen(hi) == 0 {
				m.dropBack(hi)
				m.refill(now)
				if m.sched.Hosts() > m.pruneAt {
					m.sched.Prune(now)
					m.pruneAt = 2*m.sched.Hosts() + pruneMin
				}
			}
			m.leased[e.fp] = hi
			req := e.request()
			if s, ok := m.states[e.fp]; ok {
				req.State = []byte(s)
				delete(m.states, e.fp)
			}
			m.mu.Unlock()
			return req, nil
		}
		if !due.IsZero() && (wake.IsZero() || due.Before(wake)) {
			wake = due
		}
		if m.scanPending() {
			m.mu.Unlock() // go on looking for a host without a back queue
			continue
		}
		changed := m.wake.Chan()
		m.mu.Unlock()
		if err := wakeup.Wait(ctx, changed, m.clock.After, now, wake); err != nil {
			return Request{}, err
		}
	}
}

// Done ends the lease of req, a request returned by Next, and schedules its
// host's next contact from out. With out.Retry the request goes back to the
// head of its host's queue with Retries incremented. See Frontier.
func (m *Memory) Done(req Request, out Outcome) error {
	fp := req.fp
	if fp == 0 {
		fp = Fingerprint(req.URL)
	}
	data, tooLarge := out.NextData(req.Data)
	var dataErr error
	if tooLarge {
		dataErr = fmt.Errorf("frontier: done %q: %d bytes of data, more than %d: %w", req.URL, len(out.Data), MaxData, ErrDataTooLarge)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	hi, ok := m.leased[fp]
	if !ok {
		return fmt.Errorf("frontier: done %q: %w", req.URL, ErrNotLeased)
	}
	delete(m.leased, fp)
	now := m.clock.Now()
	if err := out.Release(m.sched, hi.name, now); err != nil {
		return fmt.Errorf("frontier: done %q: %w", req.URL, err)
	}
	if out.Retry || out.Requeue {
		retries := req.Retries
		if out.Retry {
			retries++
		}
		e := entry{
			data:      joinData(req.URL, req.Anchor, data),
			referrer:  req.Referrer,
			host:      hi,
			fp:        fp,
			prio:      req.Priority,
			depth:     clamp32(req.Depth),
			retries:   clamp16(retries),
			redirects: clamp16(req.Redirects),
		}
		if len(req.State) > 0 {
			if m.states == nil {
				m.states = make(map[uint64]string)
			}
			m.states[fp] = string(req.State)
		}
		m.returnBack(hi, e, now)
		m.queued++
	} else if !out.Revisit.IsZero() {
		m.schedule(entry{
			data:      joinData(req.URL, req.Anchor, data),
			referrer:  req.Referrer,
			host:      hi,
			fp:        fp,
			prio:      req.Priority,
			depth:     clamp32(req.Depth),
			redirects: clamp16(req.Redirects),
		}, out.Revisit, out.State)
	}
	if m.sidelined(hi.name, now) {
		m.parkGroup(hi.name, now)
	}
	m.wake.Broadcast()
	return dataErr
}

// Len returns the number of queued requests not yet handed out.
func (m *Memory) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.queued
}

// Leased returns the number of requests handed out and not yet done.
func (m *Memory) Leased() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.leased)
}

// SpillStats describes a frontier's spill file (MemoryOptions.SpillDir).
type SpillStats struct {
	Entries   int   // queued URLs in the file now
	FileBytes int64 // size of the file
	// Err is the first error creating or writing the file, after which the
	// frontier stopped spilling and keeps every URL in memory; nothing is
	// lost. (An error reading the file back loses URLs: Next returns it.)
	Err error
}

// SpillStats returns the state of the spill file; all zero without
// MemoryOptions.SpillDir.
func (m *Memory) SpillStats() SpillStats {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.sp == nil {
		return SpillStats{}
	}
	return SpillStats{Entries: m.sp.spilled, FileBytes: m.sp.end, Err: m.sp.wErr}
}

// Close removes the spill file, if there is one. The frontier must not be
// used afterwards: the URLs in the file are gone. Without SpillDir, Close
// does nothing.
func (m *Memory) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.sp == nil {
		return nil
	}
	return m.sp.close()
}

// Order returns the Strategy the frontier orders its queues by.
func (m *Memory) Order() Strategy { return m.strategy }

// Boost adds delta to the priority of rawURL if it is waiting in a
// Priority frontier (in-link counting: boost a URL each time another page
// links to it): in a front queue it moves to the queue its new priority
// selects; in its host's back queue (a heap under Priority) it moves up
// among the host's URLs. It reports whether it found the URL; it returns
// false under BFS and DFS, for URLs handed out, and for URLs returned by
// Done with Retry or Requeue (those are first in line for their host).
func (m *Memory) Boost(rawURL string, delta float64) bool {
	if m.strategy != Priority {
		return false
	}
	fp := Fingerprint(rawURL)
	var host string
	if u, err := url.Parse(rawURL); err == nil {
		host = urlnorm.Key(u)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if s, ok := m.heaps[0].pos[fp]; ok {
		e := m.heaps[s.level].remove(int(s.index))
		e.prio += delta
		m.heaps[m.level(e.prio)].push(e)
		return true
	}
	// Not in a front queue: maybe waiting in its host's back queue.
	hi := m.hosts[host]
	if hi == nil || hi.best == nil {
		return false
	}
	s, ok := hi.best.pos[fp]
	if !ok {
		return false
	}
	e := hi.best.remove(int(s.index))
	e.prio += delta
	hi.best.push(e)
	return true
}
