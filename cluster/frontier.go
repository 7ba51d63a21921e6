package cluster

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/frontier/opic"
	"github.com/trawl-dev/trawl/politeness"
	"github.com/trawl-dev/trawl/urlnorm"
)

// Frontier is the frontier.Frontier of one agent: a local frontier.Memory
// holds the URLs read from the agent's stream, and Redis keeps the rest of
// the crawl's state (see the package documentation). Make one with
// Agent.Frontier.
//
// A Frontier is safe for concurrent use.
type Frontier struct {
	a           *Agent
	local       *frontier.Memory
	policy      politeness.Policy
	minDelay    time.Duration
	hostConc    int                              // leases at once per host in the cluster (Politeness.HostConcurrency)
	ipKey       func(host string) (string, bool) // politeness.Config.IPKey, else partIP; nil: per host only
	partMu      sync.RWMutex                     // guards partIP; a leaf lock (ipKey runs under the local frontier's)
	partIP      map[string]string                // host → the address its URLs came with in the stream
	ipDelay     time.Duration                    // politeness.Config.IPDelay, with its default
	ipLocks     [16]sync.Mutex                   // by address hash: an address's lease taken and released in turn (ipLock)
	onIPFree    func()                           // for tests: an address's last fetch ended, its lease not yet released
	maxDepth    int
	maxPerHost  int
	maxLocal    int
	known       *seenCache
	ledger      atomic.Pointer[opic.Ledger]              // the agent's OPIC accounts (CarryCash); nil without
	cashMu      sync.Mutex                               // guards cash; a leaf lock
	cash        map[string]frontier.Request              // cash notes to send, by URL (see placeCash)
	published   float64                                  // the ledger's History added to the crawl's (heartbeat only)
	onWait      func(host string, wait time.Duration)    // for tests: a host Redis refused
	onAccept    atomic.Pointer[func()]                   // for tests: a stream entry taken in
	onGrant     func(req frontier.Request, at time.Time) // for tests: a host leased, at Redis's time
	waiting     atomic.Int32                             // Next calls waiting for URLs
	revisits    atomic.Int64                             // revisits waiting in the agent's schedule, as last read
	revisitWake atomic.Int64                             // when revisitLoop reads the schedule next (unix ns)
	revisitKick chan struct{}                            // wakes revisitLoop sooner (buffered: 1)

	mu       sync.Mutex
	urls     map[uint64]*entry // URLs in the local frontier, by fingerprint
	ending   map[uint64]int    // URLs whose Done has forgotten them but not yet ended their local lease
	revs     int               // entries of urls that are revisits
	held     map[string]int    // hosts this agent has leases on in Redis: how many
	ipOf     map[uint64]string // URL fingerprint → the address leased for its fetch (politeness per IP)
	ipHeld   map[string]int    // address → this agent's fetches under its lease
	failures map[string]int    // consecutive throttled contacts, by host
	wake     chan struct{}     // closed when the reader adds URLs
	space    chan struct{}     // closed when URLs leave the local frontier

	stop      context.CancelFunc
	wg        sync.WaitGroup
	closeOnce sync.Once
}

// entry is one stream entry of this agent: its URLs still in the local
// frontier. The entry is deleted from the stream when the last is done. A
// revisit taken from the agent's schedule has an entry of its own, with
// no ID.
type entry struct {
	id      string
	left    int
	revisit bool
}

var (
	_ frontier.Frontier  = (*Frontier)(nil)
	_ frontier.Revisiter = (*Frontier)(nil)
	_ opic.Carrier       = (*Frontier)(nil)
)

// CarryCash makes the frontier place the OPIC cash of the URLs pushed to
// it with l, the agent's ledger (opic.Carrier): trawl.New calls it under
// trawl.Priority.OPIC. A link's share of cash travels with its URL, in
// the stream entry, to the agent that owns it, which joins it to its
// ledger, or raises the URL with it if the URL waits in its local
// frontier (see "Importance" in the package documentation).
func (f *Frontier) CarryCash(l *opic.Ledger) { f.ledger.Store(l) }

// seenBits sizes an agent's cache of known URLs: 2^20 slots, 8 MiB.
const seenBits = 20

// Frontier returns the agent's frontier, configured from opts as
// trawl.WithFrontier passes them: the local frontier.Memory takes them
// as they are, except that MaxDepth and MaxPerHost apply to the whole
// crawl (checked in Redis), and the politeness of each host holds in the
// whole cluster: at most Politeness.HostConcurrency requests in flight to
// it at once, starting at least its delay apart, whichever agents send
// them (see "Politeness" in the package documentation). A URL done with
// frontier.Outcome.Revisit waits in the agent's revisit schedule in Redis
// and is handed out again by the agent that owns its host then (see
// "Revisits" in the package documentation), so trawl.WithRecrawl works
// on a cluster. It may be called once per agent. It returns a *Frontier
// as the interface so that the method value a.Frontier is a
// trawl.FrontierFunc.
func (a *Agent) Frontier(opts frontier.MemoryOptions) (frontier.Frontier, error) {
	f := &Frontier{a: a, maxDepth: opts.MaxDepth, maxPerHost: opts.MaxPerHost,
		hostConc: max(opts.Politeness.HostConcurrency, 1),
		urls:     map[uint64]*entry{}, ending: map[uint64]int{}, held: map[string]int{}, failures: map[string]int{},
		ipOf: map[uint64]string{}, ipHeld: map[string]int{},
		wake: make(chan struct{}), space: make(chan struct{}), known: newSeenCache(seenBits),
		cash: map[string]frontier.Request{}, revisitKick: make(chan struct{}, 1)}
	f.maxLocal = a.opts.MaxLocal
	if f.maxLocal <= 0 {
		f.maxLocal = 64 * max(opts.Workers, 1)
	}
	opts.MaxDepth, opts.MaxPerHost = 0, 0
	if k := opts.Politeness.IPKey; k != nil {
		a.ipKey.Store(&k)
		// The local frontier and the address leases take a host's
		// address from this process's resolver, else from the address
		// its URLs came with in the stream (the pushing agent's): a
		// host whose URLs arrive before this process resolved it
		// (another agent's seeds, read before this one's Run) would
		// otherwise join the local frontier with no address, and its
		// first contacts escape the address's politeness.
		f.partIP = map[string]string{}
		f.ipKey = func(host string) (string, bool) {
			if ip, ok := k(host); ok {
				return ip, true
			}
			f.partMu.RLock()
			ip, ok := f.partIP[host]
			f.partMu.RUnlock()
			return ip, ok
		}
		opts.Politeness.IPKey = f.ipKey
		f.ipDelay = opts.Politeness.WithDefaults().IPDelay
	}
	f.policy, f.minDelay = delayPolicy(opts.Politeness)
	f.local = frontier.NewMemory(&opts)
	if !a.front.CompareAndSwap(nil, f) {
		f.local.Close()
		return nil, errors.New("cluster: Frontier called twice")
	}
	ctx, stop := context.WithCancel(context.Background())
	f.stop = stop
	f.wg.Go(func() { f.readLoop(ctx) })
	f.wg.Go(func() { f.cashLoop(ctx) })
	f.wg.Go(func() { f.revisitLoop(ctx) })
	return f, nil
}

// delayPolicy returns the policy a politeness.Schedule with cfg uses, and
// its minimum delay.
func delayPolicy(cfg politeness.Config) (politeness.Policy, time.Duration) {
	c := cfg.WithDefaults()
	return c.Policy, c.MinDelay
}

// Push sends the requests whose URL the crawl has not seen, within the
// depth limit and their host's budget, to the streams of their hosts'
// owners, with their Data, and returns how many it sent. A request whose
// Data is longer than frontier.MaxData is not sent; err reports it
// (frontier.ErrDataTooLarge). Under OPIC (CarryCash), each request's
// Priority is its share of cash, which travels with it; the shares of
// requests for URLs the crawl has queued already go to those URLs (see
// placeCash).
func (f *Frontier) Push(ctx context.Context, reqs ...frontier.Request) (int, error) {
	l := f.ledger.Load()
	lose := func(r *frontier.Request) {
		if l != nil {
			l.Lost(r.Priority)
		}
	}
	if err := ctx.Err(); err != nil {
		for i := range reqs {
			lose(&reqs[i])
		}
		return 0, err
	}
	type cand struct {
		req frontier.Request
		fp  uint64
	}
	var cands []cand
	byHost := map[string][]int{} // indices in cands
	var hosts []string
	seen := map[uint64]int{} // index in cands
	var known []frontier.Request
	var errs []error
	for _, r := range reqs {
		if len(r.Data) > frontier.MaxData {
			errs = append(errs, fmt.Errorf("cluster: push %q: %d bytes of data, more than %d: %w", r.URL, len(r.Data), frontier.MaxData, frontier.ErrDataTooLarge))
			lose(&r)
			continue
		}
		if f.maxDepth > 0 && r.Depth > f.maxDepth {
			lose(&r)
			continue
		}
		if r.Host == "" {
			if u, err := url.Parse(r.URL); err == nil {
				r.Host = urlnorm.Key(u)
			}
			if r.Host == "" {
				errs = append(errs, fmt.Errorf("cluster: push %q: no host", r.URL))
				lose(&r)
				continue
			}
		}
		fp := frontier.Fingerprint(r.URL)
		if i, ok := seen[fp]; ok {
			cands[i].req.Priority += r.Priority // a second link to it: under OPIC, its share adds up
			continue
		}
		if f.known.has(fp) {
			known = append(known, r)
			continue
		}
		seen[fp] = len(cands)
		if byHost[r.Host] == nil {
			hosts = append(hosts, r.Host)
		}
		byHost[r.Host] = append(byHost[r.Host], len(cands))
		cands = append(cands, cand{r, fp})
	}
	if len(hosts) == 0 {
		if l != nil {
			f.placeCash(ctx, l, known)
		}
		return 0, errors.Join(errs...)
	}
	a := f.a
	checks := make([]*redis.Cmd, len(hosts))
	budget := strconv.Itoa(max(f.maxPerHost, 0))
	err := a.retry(ctx, func() error {
		pipe := a.rdb.Pipeline()
		for i, h := range hosts {
			args := make([]any, 0, len(byHost[h])+1)
			args = append(args, budget)
			for _, c := range byHost[h] {
				args = append(args, fpField(cands[c].fp))
			}
			checks[i] = scriptCheck.EvalSha(ctx, pipe, []string{a.keys.urls(h)}, args...)
		}
		_, err := pipe.Exec(ctx)
		return err
	})
	if err != nil {
		for i := range cands {
			lose(&cands[i].req)
		}
		return 0, errors.Join(append(errs, fmt.Errorf("cluster: push: %w", err))...)
	}
	var fresh []frontier.Request
	marks := map[string][]any{}
	for i, h := range hosts {
		flags, err := checks[i].Int64Slice()
		if err != nil || len(flags) != len(byHost[h]) {
			for i := range cands {
				lose(&cands[i].req)
			}
			return 0, errors.Join(append(errs, fmt.Errorf("cluster: push: bad check reply: %v", err))...)
		}
		for j, ci := range byHost[h] {
			c := &cands[ci]
			if flags[j] == 1 {
				fresh = append(fresh, c.req)
				marks[h] = append(marks[h], fpField(c.fp))
			} else { // queued or done already, or over the host's budget
				f.known.add(c.fp)
				known = append(known, c.req)
			}
		}
	}
	if l != nil {
		defer f.placeCash(ctx, l, known) // after the fresh URLs are queued
	}
	if len(fresh) == 0 {
		return 0, errors.Join(errs...)
	}
	// Queue first, then mark: an agent that dies between the two leaves
	// URLs queued but unmarked (which later pushes may queue again; the
	// done marks keep them from being fetched twice), never URLs marked
	// but queued nowhere.
	if err := a.retry(ctx, func() error { return a.send(ctx, fresh, nil) }); err != nil {
		for i := range fresh {
			lose(&fresh[i])
		}
		return 0, errors.Join(append(errs, err)...)
	}
	err = a.retry(ctx, func() error {
		pipe := a.rdb.Pipeline()
		for h, fps := range marks {
			scriptMark.EvalSha(ctx, pipe, []string{a.keys.urls(h)}, fps...)
		}
		_, err := pipe.Exec(ctx)
		return err
	})
	if err != nil {
		errs = append(errs, fmt.Errorf("cluster: push: %w", err))
	} else {
		for _, r := range fresh {
			f.known.add(frontier.Fingerprint(r.URL))
		}
	}
	return len(fresh), errors.Join(errs...)
}

// maxCashNotes bounds the cash notes an agent holds before it sends them.
const maxCashNotes = 1024

// placeCash gives the shares of cash in the Priority of reqs, links to
// URLs the crawl has queued already (Priority.OPIC), to those URLs: a URL
// waiting in the local frontier is raised by its share; the share of one
// this agent owns and took already goes to its virtual page; the others'
// wait in cash notes, one per URL (their shares summed), which cashLoop
// sends every Poll to the streams of the agents that own the URLs, who do
// the same there (see accept). The shares of the seeds are dropped: every
// agent may be given the same seeds, and their cash entered the cluster
// with the push that queued them.
func (f *Frontier) placeCash(ctx context.Context, l *opic.Ledger, reqs []frontier.Request) {
	a := f.a
	ring := a.Ring()
	full := false
	for i := range reqs {
		r := &reqs[i]
		switch {
		case r.Priority <= 0, r.Depth == 0 && r.Referrer == "":
		case f.local.Boost(r.URL, r.Priority):
		case ring.Owner(a.partOf(r, "")) == a.opts.Name && f.local.Seen(r.URL):
			l.Lost(r.Priority)
		default: // only what routes and places the cash
			f.cashMu.Lock()
			n := f.cash[r.URL]
			f.cash[r.URL] = frontier.Request{URL: r.URL, Host: r.Host, Priority: n.Priority + r.Priority}
			full = len(f.cash) >= maxCashNotes
			f.cashMu.Unlock()
		}
	}
	if full {
		f.sendCash(ctx, l)
	}
}

// sendCash sends the cash notes waiting to the streams of the agents that
// own their URLs. Shares it could not send go to the virtual page; once
// the crawl is over, it drops them.
func (f *Frontier) sendCash(ctx context.Context, l *opic.Ledger) {
	select {
	case <-f.a.finished:
		f.cashMu.Lock()
		clear(f.cash)
		f.cashMu.Unlock()
		return
	default:
	}
	f.cashMu.Lock()
	notes := make([]frontier.Request, 0, len(f.cash))
	for _, r := range f.cash {
		notes = append(notes, r)
	}
	clear(f.cash)
	f.cashMu.Unlock()
	if len(notes) == 0 {
		return
	}
	routes := make([]route, len(notes))
	for i := range routes {
		routes[i].cash = true
	}
	a := f.a
	if err := a.retry(ctx, func() error { return a.send(ctx, notes, routes) }); err != nil {
		for i := range notes {
			l.Lost(notes[i].Priority)
		}
		if ctx.Err() == nil {
			a.log.Warn("sending cash to the agents that own its URLs failed", "err", err)
		}
	}
}

// shareHistory adds the history the agent's ledger gained since the last
// heartbeat (the cash of the pages it fetched) to the crawl's, in Redis,
// and gives the ledger the other agents' (opic.Ledger.SetOthers), so that
// importance estimates divide by the cash of every page the cluster
// fetched, as one process's do. The history of a dead agent stays
// counted. The heartbeat calls it.
func (f *Frontier) shareHistory(ctx context.Context) {
	l := f.ledger.Load()
	if l == nil {
		return
	}
	h := l.History()
	total, err := f.a.rdb.IncrByFloat(ctx, f.a.keys.history(), h-f.published).Result()
	if err != nil {
		return // the next heartbeat adds it
	}
	f.published = h
	l.SetOthers(total - h)
}

// cashLoop sends the cash notes waiting, every Poll, under OPIC.
func (f *Frontier) cashLoop(ctx context.Context) {
	t := time.NewTicker(f.a.opts.Poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if l := f.ledger.Load(); l != nil {
			f.sendCash(ctx, l)
		}
	}
}

// readLoop reads the agent's stream into the local frontier, keeping at
// most Options.MaxLocal URLs there.
func (f *Frontier) readLoop(ctx context.Context) {
	a := f.a
	stream := a.keys.stream(a.opts.Name)
	last := "0"
	block := min(a.opts.Lease/4, 250*time.Millisecond)
	ring := a.Ring()
	for ctx.Err() == nil {
		if r := a.Ring(); r != ring {
			ring = r
			if err := f.rebalance(ctx, ring, last); err != nil && ctx.Err() == nil {
				a.log.Warn("passing URLs to their hosts' new owners failed", "err", err)
			}
		}
		f.mu.Lock()
		full := len(f.urls)-f.revs >= f.maxLocal
		space := f.space
		f.mu.Unlock()
		if full {
			t := time.NewTimer(a.opts.Poll) // to see ring changes meanwhile
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-space:
			case <-t.C:
			}
			t.Stop()
			continue
		}
		res, err := a.rdb.XRead(ctx, &redis.XReadArgs{Streams: []string{stream, last},
			Count: int64(a.opts.ReadBatch), Block: block}).Result()
		if err != nil {
			if errors.Is(err, redis.Nil) || ctx.Err() != nil {
				continue
			}
			a.log.Warn("reading the stream failed", "err", err)
			if sleep(ctx, a.opts.Poll) != nil {
				return
			}
			continue
		}
		for _, s := range res {
			for _, m := range s.Messages {
				last = m.ID
				f.accept(ctx, m)
			}
		}
	}
}

// rebalance passes the URLs of the stream entries not read yet (after
// last) whose hosts ring gives to another agent to that agent; the URLs of
// this agent's hosts in those entries go back to its own stream. URLs
// already read into the local frontier stay and are fetched here (the
// host leases in Redis keep their hosts polite meanwhile).
func (f *Frontier) rebalance(ctx context.Context, ring *Ring, last string) error {
	a := f.a
	me := a.opts.Name
	stream := a.keys.stream(me)
	start := "(" + last
	if last == "0" {
		start = "-"
	}
	moved := 0
	for {
		msgs, err := a.rdb.XRangeN(ctx, stream, start, "+", 100).Result()
		if err != nil {
			return err
		}
		if len(msgs) == 0 {
			break
		}
		var ids []string
		var own, others []frontier.Request
		var ownRoutes, otherRoutes []route
		for _, m := range msgs {
			start = "(" + m.ID
			reqs, routes, err := decodeRoutes(fmt.Sprint(m.Values["r"]))
			if err != nil {
				continue // accept drops it when the reader gets to it
			}
			n := len(others)
			for i := range reqs {
				if o := ring.Owner(a.partOf(&reqs[i], routes[i].part)); o != "" && o != me {
					others = append(others, reqs[i])
					otherRoutes = append(otherRoutes, routes[i])
				}
			}
			if len(others) == n {
				continue // all still ours: the entry stays as it is
			}
			for i := range reqs {
				if o := ring.Owner(a.partOf(&reqs[i], routes[i].part)); o == "" || o == me {
					own = append(own, reqs[i])
					ownRoutes = append(ownRoutes, routes[i])
				}
			}
			ids = append(ids, m.ID)
		}
		if len(ids) == 0 {
			continue
		}
		// The moved entries' own URLs go to the end of this agent's
		// stream, where this scan sees them again and leaves them.
		all := append(others, own...)
		if err := a.send(ctx, all, append(otherRoutes, ownRoutes...)); err != nil {
			return err
		}
		if err := a.rdb.XDel(ctx, stream, ids...).Err(); err != nil {
			return err
		}
		moved += len(others)
	}
	if moved > 0 {
		a.log.Info("passed queued URLs to their hosts' new owners", "urls", moved)
	}
	return nil
}

// maxPartIPs bounds the addresses kept from stream entries (partIP): past
// it, hosts this process has not resolved are polite by host until it has.
const maxPartIPs = 100_000

// accept puts the URLs of one stream entry in the local frontier. Under
// OPIC each URL joins the agent's ledger with the cash it came with; the
// cash of a URL the local frontier holds already, and of a cash note,
// raises the URL if it waits there, else goes to the virtual page.
func (f *Frontier) accept(ctx context.Context, m redis.XMessage) {
	reqs, routes, err := decodeRoutes(fmt.Sprint(m.Values["r"]))
	if err != nil {
		f.a.log.Warn("dropping a bad stream entry", "id", m.ID, "err", err)
		f.a.rdb.XDel(ctx, f.a.keys.stream(f.a.opts.Name), m.ID)
		return
	}
	if f.partIP != nil {
		f.partMu.Lock()
		for i, rt := range routes {
			if p := rt.part; p != "" && p != reqs[i].Host && len(f.partIP) < maxPartIPs {
				f.partIP[reqs[i].Host] = p
			}
		}
		f.partMu.Unlock()
	}
	l := f.ledger.Load()
	// All the entry's URLs are counted before any is handed out, so that
	// the entry cannot be deleted while some are still to come.
	e := &entry{id: m.ID}
	var cash []frontier.Request // notes, and URLs the local frontier has
	fresh := reqs[:0]
	f.mu.Lock()
	for i, r := range reqs {
		fp := frontier.Fingerprint(r.URL)
		if routes[i].cash {
			cash = append(cash, r)
			continue
		}
		if _, dup := f.urls[fp]; dup {
			cash = append(cash, r) // the same URL in two entries: one copy is enough
			continue
		}
		f.urls[fp] = e
		e.left++
		fresh = append(fresh, r)
	}
	f.mu.Unlock()
	if l != nil {
		for _, r := range cash {
			if r.Priority != 0 && !f.local.Boost(r.URL, r.Priority) {
				l.Lost(r.Priority)
			}
		}
	}
	for _, r := range fresh {
		fp := frontier.Fingerprint(r.URL)
		share := r.Priority
		if l != nil {
			r.Priority = l.Join(share)
		}
		n, err := f.local.Push(ctx, r)
		if ctx.Err() != nil {
			return // stopping: the entry stays in the stream, unread for the next reader
		}
		if err != nil {
			f.a.log.Warn("dropping a bad URL from the stream", "url", r.URL, "err", err)
		}
		if n == 0 {
			// The local frontier saw it before and finished it.
			if l != nil {
				l.Forget(share)
			}
			f.mu.Lock()
			delete(f.urls, fp)
			e.left--
			f.mu.Unlock()
		}
	}
	if l != nil {
		l.Settle()
	}
	f.mu.Lock()
	empty := e.left == 0 // every URL dropped, or done already, or only cash (a second XDEL is harmless)
	close(f.wake)
	f.wake = make(chan struct{})
	f.mu.Unlock()
	if empty {
		f.a.rdb.XDel(ctx, f.a.keys.stream(f.a.opts.Name), m.ID)
	}
	if fn := f.onAccept.Load(); fn != nil {
		(*fn)()
	}
}

// Next returns a request whose host has fewer than HostConcurrency
// requests in flight in the whole cluster, none of them for the same URL,
// and whose next contact time, in Redis, has come. It returns frontier.ErrEmpty when the
// whole cluster has no URL queued or in flight, or the page limit is
// reached, and the agent's error if it was fenced.
func (f *Frontier) Next(ctx context.Context) (frontier.Request, error) {
	a := f.a
	for {
		if err := a.Err(); err != nil {
			return frontier.Request{}, err
		}
		select {
		case <-a.limit:
			return frontier.Request{}, frontier.ErrEmpty
		case <-a.finished:
			return frontier.Request{}, frontier.ErrEmpty
		default:
		}
		f.mu.Lock()
		wake := f.wake
		f.mu.Unlock()
		req, err := f.local.Next(ctx)
		if errors.Is(err, frontier.ErrEmpty) {
			f.waiting.Add(1)
			select {
			case <-ctx.Done():
				f.waiting.Add(-1)
				return frontier.Request{}, ctx.Err()
			case <-a.fatalCh:
			case <-a.limit:
			case <-a.finished:
			case <-wake:
			}
			f.waiting.Add(-1)
			continue
		}
		if err != nil {
			return frontier.Request{}, err
		}
		if !a.fresh() {
			// No heartbeat for half a lease: wait for one before any
			// contact (see Agent.fresh).
			f.local.Done(req, frontier.Outcome{Requeue: true, CrawlDelay: a.opts.Poll})
			continue
		}
		fp := frontier.Fingerprint(req.URL)
		rv := "0"
		f.mu.Lock()
		if e := f.urls[fp]; e != nil && e.revisit {
			rv = "1"
		}
		f.mu.Unlock()
		var res []int64
		err = a.retry(ctx, func() error { // a lease already ours is granted again
			var err error
			res, err = scriptAcquire.EvalSha(ctx, a.rdb, []string{a.keys.host(req.Host), a.keys.urls(req.Host)},
				a.token, fpField(fp), a.opts.Lease.Milliseconds(), f.minDelay.Milliseconds(), f.hostConc, rv).Int64Slice()
			return err
		})
		if err != nil || len(res) != 2 {
			f.local.Done(req, frontier.Outcome{Requeue: true, NoContact: true})
			if err == nil {
				err = errors.New("bad reply")
			}
			return frontier.Request{}, fmt.Errorf("cluster: leasing host %s: %w", req.Host, err)
		}
		grant := res[1] // Redis's time of the host's lease, if leased
		if res[0] == 1 {
			res, err = f.leaseIP(ctx, req, fp)
			if err != nil {
				return frontier.Request{}, err
			}
		}
		switch res[0] {
		case 1:
			f.mu.Lock()
			f.held[req.Host]++
			f.mu.Unlock()
			if f.onGrant != nil {
				f.onGrant(req, time.UnixMilli(grant))
			}
			return req, nil
		case 0: // fetched already (a second copy, or taken over after its Done)
			f.local.Done(req, frontier.Outcome{NoContact: true})
			f.finish(ctx, fp)
			if l := f.ledger.Load(); l != nil {
				l.Drop(req.Priority)
			}
		default: // the host is busy or resting elsewhere in the cluster
			wait := time.Duration(res[1]) * time.Millisecond
			if res[0] == 3 {
				// The host's leases are all taken (or the URL's, by
				// another agent with a copy of it). A lease runs for
				// Lease, but its holder releases it when its fetch ends,
				// so ask again after Poll, not at the lease's end (an agent
				// used to sit idle for a whole lease, 10 s by default, with
				// URLs of that host queued).
				wait = min(wait, a.opts.Poll)
			}
			if f.onWait != nil {
				f.onWait(req.Host, wait)
			}
			f.local.Done(req, frontier.Outcome{Requeue: true, CrawlDelay: wait})
		}
	}
}

// ipLease names the Redis keys of an address's lease: those of a host
// named "ip ADDRESS" (no host name has a space).
func ipLease(ip string) string { return "ip " + ip }

// leaseIP leases, with politeness per IP, the address of req's host, whose
// lease the agent has just taken, for the fetch of req: the hosts of one
// address have one owner (see Agent.partOf), but for a while after an
// agent joins or dies two agents may both hold some of them, and the lease
// keeps the address's politeness across the cluster then too. It returns
// {1, 0} when leased (or when the host's address is not known), else what
// scriptAcquire says of the address, having released the host with no
// contact.
func (f *Frontier) leaseIP(ctx context.Context, req frontier.Request, fp uint64) ([]int64, error) {
	if f.ipKey == nil {
		return []int64{1, 0}, nil
	}
	ip, ok := f.ipKey(req.Host)
	if !ok {
		return []int64{1, 0}, nil
	}
	a := f.a
	k := ipLease(ip)
	// The lease is the agent's, one for all its fetches to the address:
	// taking it must not fall between Done's count of them reaching zero
	// and its release, which would then delete the lease this fetch holds.
	mu := f.ipLock(ip)
	mu.Lock()
	defer mu.Unlock()
	var res []int64
	err := a.retry(ctx, func() error {
		var err error
		res, err = scriptAcquire.EvalSha(ctx, a.rdb, []string{a.keys.host(k), a.keys.urls(k)},
			a.token, "-", a.opts.Lease.Milliseconds(), f.ipDelay.Milliseconds(), 1, "0").Int64Slice()
		return err
	})
	if err == nil && len(res) != 2 {
		err = errors.New("bad reply")
	}
	if err == nil && res[0] == 1 {
		f.mu.Lock()
		f.ipOf[fp] = ip
		f.ipHeld[ip]++
		f.mu.Unlock()
		return res, nil
	}
	// The host was leased for nothing: release it as it was.
	rerr := a.retry(ctx, func() error {
		return scriptRelease.EvalSha(ctx, a.rdb, []string{a.keys.host(req.Host), a.keys.urls(req.Host)},
			a.token, fpField(fp), -1, "0", f.minDelay.Milliseconds()).Err()
	})
	if err != nil || rerr != nil {
		f.local.Done(req, frontier.Outcome{Requeue: true, NoContact: true})
		return nil, fmt.Errorf("cluster: leasing address %s of host %s: %w", ip, req.Host, errors.Join(err, rerr))
	}
	return res, nil
}

// ipLock returns the lock that orders the taking and the release of ip's
// lease in this agent.
func (f *Frontier) ipLock(ip string) *sync.Mutex {
	return &f.ipLocks[frontier.Fingerprint(ip)%uint64(len(f.ipLocks))]
}

// finish forgets a URL that left the local frontier for good and deletes
// its stream entry if it was the entry's last.
func (f *Frontier) finish(ctx context.Context, fp uint64) {
	if id := f.forget(fp); id != "" {
		f.a.rdb.XDel(ctx, f.a.keys.stream(f.a.opts.Name), id)
	}
}

// forget forgets a URL that left the local frontier for good, signals the
// reader that there is room, and returns its stream entry's ID if it was
// the entry's last URL, else "".
func (f *Frontier) forget(fp uint64) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	e := f.urls[fp]
	if e == nil {
		return ""
	}
	delete(f.urls, fp)
	if e.revisit {
		f.revs--
	}
	close(f.space)
	f.space = make(chan struct{})
	if e.left--; e.left == 0 {
		return e.id
	}
	return ""
}

// Done releases req's host in the local frontier and in Redis, where it
// sets the host's next contact time from out as the local politeness
// schedule does; a finished URL is marked done, and its stream entry is
// deleted when it was the entry's last URL.
func (f *Frontier) Done(req frontier.Request, out frontier.Outcome) error {
	a := f.a
	fp := frontier.Fingerprint(req.URL)
	f.mu.Lock()
	_, ours := f.urls[fp]
	leased := f.held[req.Host] > 0
	f.mu.Unlock()
	if !ours || !leased {
		return fmt.Errorf("cluster: done %q: %w", req.URL, frontier.ErrNotLeased)
	}
	delay := int64(-1)
	f.mu.Lock()
	ip := f.ipOf[fp]
	f.mu.Unlock()
	if ip != "" {
		// Held until the address's lease is released, if this was its
		// last fetch (see leaseIP).
		mu := f.ipLock(ip)
		mu.Lock()
		defer mu.Unlock()
	}
	f.mu.Lock()
	if f.held[req.Host]--; f.held[req.Host] <= 0 {
		delete(f.held, req.Host)
	}
	releaseIP := false
	if ip != "" {
		delete(f.ipOf, fp)
		if f.ipHeld[ip]--; f.ipHeld[ip] <= 0 {
			delete(f.ipHeld, ip)
			releaseIP = true
		}
	}
	if !out.NoContact {
		po := politeness.Outcome{Status: out.Status, Duration: out.Duration, Err: out.Err,
			RetryAfter: out.RetryAfter, CrawlDelay: out.CrawlDelay}
		n := 0
		if po.Throttled() {
			n = f.failures[req.Host] + 1
			f.failures[req.Host] = n
		} else {
			delete(f.failures, req.Host)
		}
		delay = max(f.policy.Delay(politeness.Contact{Host: req.Host, Outcome: po, Failures: n, Jitter: 0.5}), 0).Milliseconds()
	}
	f.mu.Unlock()
	final := !out.Retry && !out.Requeue
	done := "0"
	var id string
	var wasRevisit bool
	if final {
		done = "1"
		f.mu.Lock()
		wasRevisit = f.urls[fp] != nil && f.urls[fp].revisit
		f.ending[fp]++ // until the local frontier's lease ends (see takeDue)
		f.mu.Unlock()
		defer func() {
			f.mu.Lock()
			if f.ending[fp]--; f.ending[fp] <= 0 {
				delete(f.ending, fp)
			}
			f.mu.Unlock()
		}()
		id = f.forget(fp)
	}
	if releaseIP && f.onIPFree != nil {
		f.onIPFree()
	}
	// Done has no context; Redis calls are bounded by the lease.
	ctx, cancel := context.WithTimeout(context.Background(), a.opts.Lease)
	defer cancel()
	var dataErr error
	if final && (!out.Revisit.IsZero() || wasRevisit) {
		// The revisit schedule first, with the stream entry's deletion:
		// if the agent was taken over meanwhile, the URL stays unmarked,
		// for the agent that has its stream entry now.
		var ok bool
		ok, dataErr = f.schedule(ctx, req, out, id)
		if !ok {
			done = "0"
		}
		id = ""
	}
	rerr := a.retry(ctx, func() error {
		pipe := a.rdb.Pipeline()
		scriptRelease.EvalSha(ctx, pipe, []string{a.keys.host(req.Host), a.keys.urls(req.Host)},
			a.token, fpField(fp), delay, done, f.minDelay.Milliseconds())
		if releaseIP {
			ipDelay := f.ipDelay.Milliseconds()
			if out.NoContact {
				ipDelay = -1
			}
			k := ipLease(ip)
			scriptRelease.EvalSha(ctx, pipe, []string{a.keys.host(k), a.keys.urls(k)}, a.token, "-", ipDelay, "0", f.ipDelay.Milliseconds())
		}
		if id != "" {
			pipe.XDel(ctx, a.keys.stream(a.opts.Name), id)
		}
		_, err := pipe.Exec(ctx)
		return err
	})
	if rerr != nil {
		// The URL's state in Redis is unknown: stop, so that the others
		// take this agent's URLs over and finish it.
		a.fail(fmt.Errorf("cluster: done %q: %w", req.URL, rerr))
	}
	// The local frontier's clock for the host starts after Redis's, so
	// the host is not handed out here before Redis allows it. The revisit
	// waits in Redis, not there.
	out.Revisit, out.State = time.Time{}, nil
	if err := f.local.Done(req, out); err != nil {
		return err
	}
	if rerr != nil {
		return fmt.Errorf("cluster: done %q: %w", req.URL, rerr)
	}
	return dataErr
}

// schedule puts req, done with out, in the agent's revisit schedule at
// out.Revisit with out.State, or takes it out of the schedule when out has
// no Revisit, and deletes its stream entry id (if not "") at once. It
// reports whether it did (false: the agent was taken over, or Redis
// failed: the agent stops), and an error wrapping
// frontier.ErrDataTooLarge for an out.Data over frontier.MaxData.
func (f *Frontier) schedule(ctx context.Context, req frontier.Request, out frontier.Outcome, id string) (bool, error) {
	a := f.a
	me := a.opts.Name
	fp := fpField(frontier.Fingerprint(req.URL))
	delay, val := "-", ""
	var dataErr error
	if !out.Revisit.IsZero() {
		// Redis's clock is the one that counts: the revisit is due
		// after the same time from now on it.
		delay = strconv.FormatInt(max(time.Until(out.Revisit), 0).Milliseconds(), 10)
		data, tooLarge := out.NextData(req.Data)
		if tooLarge {
			dataErr = fmt.Errorf("cluster: done %q: %d bytes of data, more than %d: %w", req.URL, len(out.Data), frontier.MaxData, frontier.ErrDataTooLarge)
		}
		r := req
		r.Data, r.State, r.Retries = data, out.State, 0
		val = encodeRevisit(r, f.part(req.Host))
	}
	var n int64
	err := a.retry(ctx, func() error {
		var err error
		n, err = scriptRevisit.EvalSha(ctx, a.rdb, []string{a.keys.revisits(me), a.keys.revisitReqs(me), a.keys.stream(me)},
			fp, delay, val, id).Int64()
		return err
	})
	if err != nil {
		a.fail(fmt.Errorf("cluster: done %q: scheduling its revisit: %w", req.URL, err))
		return false, dataErr
	}
	if n == 0 {
		a.fail(fmt.Errorf("cluster: done %q: %w", req.URL, ErrFenced))
		return false, dataErr
	}
	if !out.Revisit.IsZero() {
		f.kickRevisits(out.Revisit)
	}
	return true, dataErr
}

// part returns the key the URLs of host are shared out by: its address,
// with politeness per IP when it is known, else the host.
func (f *Frontier) part(host string) string {
	if f.ipKey != nil {
		if ip, ok := f.ipKey(host); ok {
			return ip
		}
	}
	return host
}

// Revisits returns how many URLs wait in the agent's revisit schedule in
// Redis for their revisit time; Len does not count them
// (frontier.Revisiter). It asks Redis, and when Redis does not answer
// within Poll, returns the count the agent read last (every Poll at
// most).
func (f *Frontier) Revisits() int {
	a := f.a
	ctx, cancel := context.WithTimeout(context.Background(), a.opts.Poll)
	defer cancel()
	if n, err := a.rdb.ZCount(ctx, a.keys.revisits(a.opts.Name), "1", "+inf").Result(); err == nil {
		f.revisits.Store(n)
	}
	return int(f.revisits.Load())
}

// revisitLoop hands the agent's revisits to its local frontier as they
// fall due, and those of hosts another agent owns now to that agent's
// schedule. It reads the schedule when the next revisit is due, and at
// least every Poll.
func (f *Frontier) revisitLoop(ctx context.Context) {
	a := f.a
	for ctx.Err() == nil {
		wait, err := f.takeDue(ctx)
		if err != nil && ctx.Err() == nil {
			a.log.Warn("reading the revisit schedule failed", "err", err)
		}
		// wait is 0 when more are due than the local frontier has room
		// for: they wait for a Poll.
		if wait <= 0 || wait > a.opts.Poll {
			wait = a.opts.Poll
		}
		f.revisitWake.Store(time.Now().Add(wait).UnixNano())
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		case <-f.revisitKick:
			t.Stop()
		}
	}
}

// kickRevisits wakes revisitLoop if a revisit due at at would otherwise
// be taken late: before the loop's next reading of the schedule.
func (f *Frontier) kickRevisits(at time.Time) {
	if at.UnixNano() >= f.revisitWake.Load() {
		return
	}
	select {
	case f.revisitKick <- struct{}{}:
	default:
	}
}

// takeDue takes the revisits that are due from the agent's schedule, as
// many as the local frontier has room for (Options.MaxLocal revisits
// besides the stream's URLs), and returns the time until the next is due
// (-1: none waits; 0: more are due than it took).
func (f *Frontier) takeDue(ctx context.Context) (time.Duration, error) {
	a := f.a
	me := a.opts.Name
	f.mu.Lock()
	room := f.maxLocal - f.revs // revisits have a room of their own: new URLs must not starve them
	f.mu.Unlock()
	res, err := scriptDue.EvalSha(ctx, a.rdb, []string{a.keys.revisits(me), a.keys.revisitReqs(me)}, max(room, 0)).Slice()
	if err != nil || len(res) < 2 {
		return -1, err
	}
	waiting, _ := res[0].(int64)
	next, _ := res[1].(int64)
	f.revisits.Store(waiting)
	wait := time.Duration(next) * time.Millisecond
	if next < 0 {
		wait = -1
	}
	if len(res) == 2 {
		return wait, nil
	}
	ring := a.Ring()
	var away []revisitMove
	var mine []revisitMove // with val decoded into reqs
	var reqs []frontier.Request
	var drop []string
	for i := 2; i+1 < len(res); i += 2 {
		fp, _ := res[i].(string)
		v, _ := res[i+1].(string)
		req, part, err := decodeRevisit(v)
		if err != nil {
			a.log.Warn("dropping a bad revisit", "err", err)
			drop = append(drop, fp)
			continue
		}
		if o := ring.Owner(a.partOf(&req, part)); o != "" && o != me {
			away = append(away, revisitMove{fp: fp, val: v, owner: o})
			continue
		}
		mine = append(mine, revisitMove{fp: fp})
		reqs = append(reqs, req)
	}
	var moveErr error
	if len(away) > 0 {
		// Hosts another agent owns since the revisit was scheduled (it
		// joined, or this agent's ring is behind): the revisit goes to
		// its schedule, due at once, marked leaving here meanwhile (so
		// that two agents whose rings disagree, sending it to each other,
		// keep one copy); those whose owner is gone, or that Redis did
		// not take, are revisited here.
		fps := make([]any, len(away))
		for i, rv := range away {
			fps[i] = rv.fp
		}
		var orphans []revisitMove
		moveErr = scriptLeave.EvalSha(ctx, a.rdb, []string{a.keys.revisits(me)}, fps...).Err()
		if moveErr == nil {
			orphans, moveErr = a.addRevisits(ctx, away)
		}
		if moveErr != nil {
			orphans = away // revisited here, this time
		}
		var left []any
		var kept []redis.Z
		for _, rv := range orphans {
			req, _, _ := decodeRevisit(rv.val)
			mine = append(mine, revisitMove{fp: rv.fp})
			reqs = append(reqs, req)
			kept = append(kept, redis.Z{Score: -1, Member: rv.fp})
		}
		if len(kept) > 0 && moveErr == nil {
			// Taken here again, not leaving: a copy left at 0 would never
			// be handed out by this agent (scriptDue takes scores of 1 on)
			// if it stopped before revisiting it.
			moveErr = a.rdb.ZAddXX(ctx, a.keys.revisits(me), kept...).Err()
		}
		for _, rv := range away {
			if !slices.ContainsFunc(orphans, func(o revisitMove) bool { return o.fp == rv.fp }) {
				left = append(left, rv.fp)
			}
		}
		if len(left) > 0 {
			if err := scriptDropLeft.EvalSha(ctx, a.rdb, []string{a.keys.revisits(me), a.keys.revisitReqs(me)}, left...).Err(); err != nil && moveErr == nil {
				moveErr = err
			}
		}
	}
	took := false
	for i, rv := range mine {
		req := reqs[i]
		ufp := frontier.Fingerprint(req.URL)
		f.mu.Lock()
		_, held := f.urls[ufp]
		held = held || f.ending[ufp] > 0
		if !held {
			f.urls[ufp] = &entry{left: 1, revisit: true}
			f.revs++
		}
		f.mu.Unlock()
		if held {
			// A copy from the stream (queued twice) is in the local
			// frontier, and will find the URL done and leave; or the
			// last visit's Done has not yet ended its lease there (the
			// revisit was due at once). The revisit waits a Poll.
			scriptUntake.EvalSha(ctx, a.rdb, []string{a.keys.revisits(me)}, rv.fp, a.opts.Poll.Milliseconds())
			continue
		}
		if err := f.local.PushRevisit(req, time.Time{}); err != nil {
			a.log.Warn("dropping a bad revisit", "url", req.URL, "err", err)
			f.mu.Lock()
			delete(f.urls, ufp)
			f.revs--
			f.mu.Unlock()
			drop = append(drop, rv.fp)
			continue
		}
		took = true
	}
	if took {
		f.mu.Lock()
		close(f.wake)
		f.wake = make(chan struct{})
		f.mu.Unlock()
	}
	if len(drop) > 0 {
		pipe := a.rdb.Pipeline()
		pipe.ZRem(ctx, a.keys.revisits(me), anys(drop)...)
		pipe.HDel(ctx, a.keys.revisitReqs(me), drop...)
		if _, err := pipe.Exec(ctx); err != nil {
			return wait, err
		}
	}
	return wait, moveErr
}

// Len returns the number of URLs queued in the local frontier.
func (f *Frontier) Len() int { return f.local.Len() }

// idle reports whether the agent has no URL locally and a worker waits
// in Next for one. Until a worker asks, the agent is not idle: a frontier
// made before its crawl pushed the seeds (trawl.New makes it, Run pushes
// them) would otherwise find every stream empty and end the crawl before
// it began.
func (f *Frontier) idle() bool {
	if f.waiting.Load() == 0 {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.urls) == 0
}

// renew extends the leases of the hosts being fetched from, and of their
// addresses with politeness per IP.
func (f *Frontier) renew(ctx context.Context) {
	f.mu.Lock()
	hosts := make([]string, 0, len(f.held)+len(f.ipHeld))
	for h := range f.held {
		hosts = append(hosts, h)
	}
	for ip := range f.ipHeld {
		hosts = append(hosts, ipLease(ip))
	}
	f.mu.Unlock()
	if len(hosts) == 0 {
		return
	}
	pipe := f.a.rdb.Pipeline()
	for _, h := range hosts {
		scriptRenew.EvalSha(ctx, pipe, []string{f.a.keys.host(h)}, f.a.token, f.a.opts.Lease.Milliseconds())
	}
	pipe.Exec(ctx)
}

// Close stops reading the stream and closes the local frontier. URLs not
// done stay in the agent's stream in Redis.
func (f *Frontier) Close() error {
	var err error
	f.closeOnce.Do(func() {
		f.stop()
		f.wg.Wait()
		err = f.local.Close()
	})
	return err
}
