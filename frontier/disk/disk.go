package disk

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"net/url"
	"sync"
	"time"

	"github.com/cockroachdb/pebble"
	"github.com/cockroachdb/pebble/vfs"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/frontier/internal/wakeup"
	"github.com/trawl-dev/trawl/politeness"
	"github.com/trawl-dev/trawl/urlnorm"
)

// ErrClosed is returned by every method of a Frontier after Close.
var ErrClosed = errors.New("disk: frontier closed")

// ErrMismatch is returned by Open when dir holds a frontier made with a
// different Strategy or number of front queues: its queues are ordered for
// those, and reading them otherwise would hand URLs out in the wrong order.
var ErrMismatch = errors.New("disk: options do not match the stored frontier")

// Options configures a Frontier. A nil *Options and zero fields take the
// defaults named on each field. The first group mirrors
// frontier.MemoryOptions; the second bounds memory; the last sets
// durability.
type Options struct {
	// Strategy orders each front queue (frontier.BFS, DFS or Priority). It
	// is fixed when the directory is created. Default BFS.
	Strategy frontier.Strategy
	// FrontQueues is K, the number of front (priority) queues, as in
	// frontier.MemoryOptions. Fixed when the directory is created.
	// Default 4.
	FrontQueues int
	// Workers is the number of goroutines expected to call Next. Default 1.
	Workers int
	// BackQueues is how many hosts have a back queue at once, not
	// counting hosts parked while they rest longer than
	// Politeness.MaxDelay (see the package documentation). Default
	// 3 × Workers.
	BackQueues int
	// MaxDepth drops requests deeper than this at Push. Default 0: no limit.
	MaxDepth int
	// MaxPerHost caps the URLs accepted per host over the life of the
	// frontier (persisted). Default 0: no limit.
	MaxPerHost int
	// Politeness configures the per-host scheduler, as for the memory
	// frontier. Its Clock also dates the persisted next-contact times.
	Politeness politeness.Config

	// SeenFilterURLs sizes the Bloom filter in front of the on-disk seen
	// set: about 10 bits per URL, rounded up to a power of two (16 MiB for
	// the default 10,000,000). Beyond that many URLs the filter answers
	// "maybe" more often and Push reads the disk more; it never answers
	// wrongly. Default 10,000,000.
	SeenFilterURLs int
	// HeadCache is how many URLs of each back queue are kept in memory.
	// Default 16.
	HeadCache int
	// FrontBuffer is how many URLs of each front queue are kept in memory.
	// Default 256.
	FrontBuffer int
	// CacheSize is the size of pebble's block cache in bytes. Default 8 MiB.
	CacheSize int64
	// MemTableSize is the size of pebble's memtable in bytes. Default 4 MiB.
	MemTableSize uint64

	// SyncInterval bounds how long an accepted Push may stay unsynced: a
	// Push more than SyncInterval after the last fsync syncs the log. Done
	// and Flush always sync. Default 1s; negative: Push never syncs.
	SyncInterval time.Duration

	fs vfs.FS // for tests: an in-memory filesystem that can lose unsynced writes
}

// Frontier is a persistent Mercator frontier on a pebble store. See the
// package documentation for its layout, durability and memory use.
//
// A Frontier is safe for concurrent use. Its state is guarded by one
// mutex; the store's writes are applied under it (in memory, so the log
// order is the order of the operations) and the fsync that makes Done
// durable is waited for outside it.
type Frontier struct {
	db *pebble.DB // nil after Close (written under mu and life)

	// Immutable after Open.
	strategy    frontier.Strategy
	k           int
	target      int
	maxDepth    int
	maxPerHost  int
	headCache   int
	frontBuffer int
	syncEvery   time.Duration
	clock       politeness.Clock

	// life guards db against Close while a sync runs outside mu.
	life sync.RWMutex

	mu       sync.Mutex
	err      error // sticky: a failed write leaves memory and disk apart
	closed   bool
	sched    *politeness.Schedule
	levels   []level
	credit   []int
	seq      uint64
	frontLen int
	queued   int
	backs    map[string]*backQueue
	parked   int // back queues in backs that are parked
	leased   map[uint64]*lease
	seen     *bloom
	budget   map[string]int
	rest     map[string]time.Time // hosts resting at Open: their next contact
	deferred []string             // hosts with a back queue waiting in rest
	revisits int                  // URLs stored under tabRevisit
	lastSync time.Time
	pruneAt  int
	wake     wakeup.Signal // closed on change, for Next's waiters
}

var (
	_ frontier.Frontier  = (*Frontier)(nil)
	_ frontier.Revisiter = (*Frontier)(nil)
	_ frontier.Flusher   = (*Frontier)(nil)
)

// item is an entry with the key it is stored under.
type item struct {
	key []byte
	e   entry
}

// window holds, sorted, the first entries of one stored queue (a front
// queue, or a host's back queue). Every stored key of the queue not after
// loaded is in buf[pos:] (or leased); keys after it are only on disk.
// When complete, every stored key is in buf[pos:].
type window struct {
	buf      []item
	pos      int
	loaded   []byte
	complete bool
}

// level is one front queue: its length on disk and its window.
type level struct {
	n int
	w window
}

// backQueue is one host's back queue: n entries stored (leases not
// counted), its window, and requests returned by Done with Retry or
// Requeue, which are first in line.
type backQueue struct {
	host  string
	n     int
	w     window
	retry []item
	// parked: the host rests long (or was resting when the frontier was
	// opened), so its back queue does not count against target until the
	// host is handed out.
	parked bool
}

type lease struct {
	host string
	it   item
}

const pruneMin = 1 << 16

type quietLogger struct{}

func (quietLogger) Infof(string, ...any) {}
func (quietLogger) Fatalf(format string, args ...any) {
	panic(fmt.Sprintf("disk: pebble: "+format, args...))
}

// Open opens the frontier stored in dir, creating it if needed, and
// restores its queues, seen set, host budgets and the next-contact times
// of hosts still resting. Requests that were leased and not done when the
// frontier was last used are queued again at the head of their host's
// queue. A nil opts means defaults.
func Open(dir string, opts *Options) (*Frontier, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.FrontQueues <= 0 {
		o.FrontQueues = 4
	}
	if o.FrontQueues > 255 {
		return nil, fmt.Errorf("disk: FrontQueues %d > 255", o.FrontQueues)
	}
	if o.Workers <= 0 {
		o.Workers = 1
	}
	if o.BackQueues <= 0 {
		o.BackQueues = 3 * o.Workers
	}
	if o.SeenFilterURLs <= 0 {
		o.SeenFilterURLs = 10_000_000
	}
	if o.HeadCache <= 0 {
		o.HeadCache = 16
	}
	if o.FrontBuffer <= 0 {
		o.FrontBuffer = 256
	}
	if o.CacheSize <= 0 {
		o.CacheSize = 8 << 20
	}
	if o.MemTableSize == 0 {
		o.MemTableSize = 4 << 20
	}
	if o.SyncInterval == 0 {
		o.SyncInterval = time.Second
	}
	clock := o.Politeness.Clock
	if clock == nil {
		clock = politeness.SystemClock{}
	}
	cache := pebble.NewCache(o.CacheSize)
	defer cache.Unref()
	db, err := pebble.Open(dir, &pebble.Options{
		Cache:        cache,
		MemTableSize: o.MemTableSize,
		Logger:       quietLogger{},
		FS:           o.fs,
	})
	if err != nil {
		return nil, fmt.Errorf("disk: open %s: %w", dir, err)
	}
	f := &Frontier{
		db:          db,
		strategy:    o.Strategy,
		k:           o.FrontQueues,
		target:      o.BackQueues,
		maxDepth:    o.MaxDepth,
		maxPerHost:  o.MaxPerHost,
		headCache:   o.HeadCache,
		frontBuffer: o.FrontBuffer,
		syncEvery:   o.SyncInterval,
		clock:       clock,
		sched:       politeness.NewSchedule(&o.Politeness),
		levels:      make([]level, o.FrontQueues),
		credit:      make([]int, o.FrontQueues),
		backs:       make(map[string]*backQueue),
		leased:      make(map[uint64]*lease),
		seen:        newBloom(o.SeenFilterURLs),
		rest:        make(map[string]time.Time),
		pruneAt:     pruneMin,
	}
	if f.maxPerHost > 0 {
		f.budget = make(map[string]int)
	}
	if err := f.restore(); err != nil {
		db.Close()
		return nil, err
	}
	f.lastSync = clock.Now()
	return f, nil
}

// scan calls fn for every key with prefix p, in order.
func (f *Frontier) scan(p []byte, fn func(k, v []byte) error) error {
	it, err := f.db.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: prefixEnd(p)})
	if err != nil {
		return err
	}
	for ok := it.First(); ok; ok = it.Next() {
		if err := fn(it.Key(), it.Value()); err != nil {
			it.Close()
			return err
		}
	}
	return it.Close()
}

func (f *Frontier) restore() error {
	v, closer, err := f.db.Get([]byte{tabMeta})
	switch {
	case errors.Is(err, pebble.ErrNotFound):
		m := f.meta()
		if err := f.db.Set([]byte{tabMeta}, m.encode(), pebble.Sync); err != nil {
			return fmt.Errorf("disk: %w", err)
		}
	case err != nil:
		return fmt.Errorf("disk: %w", err)
	default:
		m, err := decodeMeta(v)
		closer.Close()
		if err != nil {
			return err
		}
		if m.version != metaVersion {
			return fmt.Errorf("disk: format version %d, want %d: %w", m.version, metaVersion, ErrMismatch)
		}
		if m.strategy != byte(f.strategy) || len(m.front) != f.k {
			return fmt.Errorf("disk: stored strategy %d with %d front queues, opened with %d and %d: %w",
				m.strategy, len(m.front), f.strategy, f.k, ErrMismatch)
		}
		f.seq = m.seq
		for l, n := range m.front {
			f.levels[l].n = int(n)
			f.levels[l].w.complete = n == 0
			f.frontLen += int(n)
		}
		f.queued = f.frontLen
	}
	err = f.scan([]byte{tabSeen}, func(k, _ []byte) error {
		if len(k) != 9 {
			return errCorrupt
		}
		f.seen.add(binary.BigEndian.Uint64(k[1:]))
		return nil
	})
	if err != nil {
		return fmt.Errorf("disk: reading seen set: %w", err)
	}
	now := f.clock.Now()
	stale := f.db.NewBatch()
	defer stale.Close()
	err = f.scan([]byte{tabNext}, func(k, v []byte) error {
		if len(v) != 8 {
			return errCorrupt
		}
		t := time.Unix(0, int64(binary.BigEndian.Uint64(v)))
		if t.After(now) {
			f.rest[string(k[1:])] = t
		} else {
			stale.Delete(k, nil)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("disk: reading host times: %w", err)
	}
	if err := stale.Commit(pebble.NoSync); err != nil {
		return fmt.Errorf("disk: %w", err)
	}
	if f.budget != nil {
		err = f.scan([]byte{tabBudget}, func(k, v []byte) error {
			n, c := binary.Uvarint(v)
			if c <= 0 {
				return errCorrupt
			}
			f.budget[string(k[1:])] = int(n)
			return nil
		})
		if err != nil {
			return fmt.Errorf("disk: reading host budgets: %w", err)
		}
	}
	err = f.scan([]byte{tabRevisit}, func(k, _ []byte) error {
		if _, ok := revisitTime(k); !ok {
			return errCorrupt
		}
		f.revisits++
		return nil
	})
	if err != nil {
		return fmt.Errorf("disk: reading revisits: %w", err)
	}
	var bq *backQueue
	err = f.scan([]byte{tabBack}, func(k, _ []byte) error {
		host, ok := hostOfBackKey(k)
		if !ok {
			return errCorrupt
		}
		if bq == nil || bq.host != host {
			bq = f.newBack(host)
			bq.w.complete = false
		}
		bq.n++
		f.queued++
		return nil
	})
	if err != nil {
		return fmt.Errorf("disk: reading back queues: %w", err)
	}
	return nil
}

func (f *Frontier) meta() meta {
	m := meta{version: metaVersion, strategy: byte(f.strategy), seq: f.seq, front: make([]int64, f.k)}
	for l := range f.levels {
		m.front[l] = int64(f.levels[l].n)
	}
	return m
}

// levelOf returns the front queue index (0..K-1) for priority p.
func (f *Frontier) levelOf(p float64) int {
	if !(p >= 1) {
		return 0
	}
	if p >= float64(f.k) {
		return f.k - 1
	}
	return int(math.Floor(p)) - 1
}

// order returns the sort key of an entry within its front queue.
func (f *Frontier) order(prio float64, seq uint64) uint64 {
	switch f.strategy {
	case frontier.DFS:
		return ^seq
	case frontier.Priority:
		return ^sortableFloat(prio)
	}
	return seq
}

// backOrder returns the sort key of an entry within its back queue: best
// first under Priority (as frontier.Memory), else first moved, first out.
func (f *Frontier) backOrder(prio float64, seq uint64) uint64 {
	if f.strategy == frontier.Priority {
		return ^sortableFloat(prio)
	}
	return seq
}

// apply commits b without waiting for an fsync, under f.mu.
func (f *Frontier) apply(b *pebble.Batch) error {
	defer b.Close()
	if b.Empty() {
		return nil
	}
	if err := b.Commit(pebble.NoSync); err != nil {
		f.err = fmt.Errorf("disk: write: %w", err)
		return f.err
	}
	return nil
}

// sync waits until everything applied so far is on stable storage.
// Concurrent calls share one fsync (pebble's group commit).
func (f *Frontier) sync() error {
	f.life.RLock()
	defer f.life.RUnlock()
	if f.db == nil {
		return nil // closed, and Close synced everything
	}
	if err := f.db.LogData(nil, pebble.Sync); err != nil {
		return fmt.Errorf("disk: sync: %w", err)
	}
	return nil
}

func (f *Frontier) usable() error {
	if f.closed {
		return ErrClosed
	}
	return f.err
}

// Push adds the requests whose URL was never accepted before and that fit
// the depth limit and the host's budget, and returns how many it added.
// Requests with an empty Host get urlnorm.Key of their URL; one that has
// no host, or whose Data is longer than frontier.MaxData
// (frontier.ErrDataTooLarge), is skipped and reported in err. The added requests are written
// to the store's log before Push returns, and synced at least every
// Options.SyncInterval (see the package documentation).
func (f *Frontier) Push(ctx context.Context, reqs ...frontier.Request) (added int, err error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	ents := make([]entry, 0, len(reqs))
	var errs []error
	for i := range reqs {
		r := &reqs[i]
		if len(r.Data) > frontier.MaxData {
			errs = append(errs, fmt.Errorf("disk: push %q: %d bytes of data, more than %d: %w", r.URL, len(r.Data), frontier.MaxData, frontier.ErrDataTooLarge))
			continue
		}
		if f.maxDepth > 0 && r.Depth > f.maxDepth {
			continue
		}
		host := r.Host
		if host == "" {
			if u, perr := url.Parse(r.URL); perr == nil {
				host = urlnorm.Key(u)
			}
			if host == "" {
				errs = append(errs, fmt.Errorf("disk: push %q: no host", r.URL))
				continue
			}
		}
		ents = append(ents, entry{
			url: r.URL, host: host, referrer: r.Referrer, anchor: r.Anchor, data: string(r.Data),
			prio: r.Priority, depth: r.Depth, retries: r.Retries, redirects: r.Redirects,
			fp: frontier.Fingerprint(r.URL),
		})
	}
	if len(ents) == 0 {
		return 0, errors.Join(errs...)
	}

	f.mu.Lock()
	if err := f.usable(); err != nil {
		f.mu.Unlock()
		return 0, err
	}
	b := f.db.NewBatch()
	var local map[uint64]bool // accepted by this call, not yet in the store
	var buf []byte
	for i := range ents {
		e := &ents[i]
		if f.seen.mayContain(e.fp) {
			if local[e.fp] {
				continue
			}
			seen, err := f.onDisk(seenKey(e.fp))
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if seen {
				continue
			}
		}
		if f.budget != nil {
			if f.budget[e.host] >= f.maxPerHost {
				continue
			}
			f.budget[e.host]++
			b.Set(hostKey(tabBudget, e.host), binary.AppendUvarint(nil, uint64(f.budget[e.host])), nil)
		}
		if local == nil {
			local = make(map[uint64]bool, len(ents))
		}
		local[e.fp] = true
		f.seen.add(e.fp)
		b.Set(seenKey(e.fp), nil, nil)
		f.seq++
		l := f.levelOf(e.prio)
		key := frontKey(l, f.order(e.prio, f.seq), f.seq)
		buf = e.encode(buf[:0])
		b.Set(key, buf, nil)
		f.levels[l].w.insert(item{key: key, e: *e}, f.frontBuffer)
		f.levels[l].n++
		f.frontLen++
		f.queued++
		added++
	}
	if added > 0 {
		m := f.meta()
		b.Set([]byte{tabMeta}, m.encode(), nil)
	}
	if err := f.apply(b); err != nil {
		f.mu.Unlock()
		return 0, err
	}
	var syncNow bool
	if added > 0 {
		if err := f.refill(); err != nil {
			f.mu.Unlock()
			return added, err
		}
		f.wake.Broadcast()
		if now := f.clock.Now(); f.syncEvery > 0 && now.Sub(f.lastSync) >= f.syncEvery {
			f.lastSync, syncNow = now, true
		}
	}
	f.mu.Unlock()
	if syncNow {
		if err := f.sync(); err != nil {
			errs = append(errs, err)
		}
	}
	return added, errors.Join(errs...)
}

func (f *Frontier) onDisk(key []byte) (bool, error) {
	_, closer, err := f.db.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("disk: %w", err)
	}
	closer.Close()
	return true, nil
}

// insert adds a newly stored entry to the window if it falls inside it,
// keeping it sorted and at most twice max entries long.
func (w *window) insert(it item, max int) {
	if !w.complete && (w.loaded == nil || bytes.Compare(it.key, w.loaded) > 0) {
		return // only on disk; a later load finds it
	}
	i := len(w.buf)
	for i > w.pos && bytes.Compare(w.buf[i-1].key, it.key) > 0 {
		i--
	}
	w.buf = append(w.buf, item{})
	copy(w.buf[i+1:], w.buf[i:])
	w.buf[i] = it
	if i == len(w.buf)-1 {
		w.loaded = it.key
	}
	if len(w.buf)-w.pos > 2*max {
		keep := w.pos + max
		clear(w.buf[keep:])
		w.buf = w.buf[:keep]
		w.loaded = w.buf[keep-1].key
		w.complete = false
	}
}

// pop takes the first entry of the window's queue, stored under prefix p,
// reading up to max more from disk when the window is empty.
func (f *Frontier) pop(w *window, p []byte, max int, skip func(fp uint64) bool) (item, error) {
	if w.pos == len(w.buf) {
		clear(w.buf)
		w.buf, w.pos = w.buf[:0], 0
		if !w.complete {
			var err error
			if w.buf, err = f.load(p, &w.loaded, max, w.buf, skip); err != nil {
				f.err = err
				return item{}, err
			}
			w.complete = len(w.buf) < max
		}
		if len(w.buf) == 0 {
			f.err = fmt.Errorf("disk: queue %q: entries counted, none stored: %w", p, errCorrupt)
			return item{}, f.err
		}
	}
	it := w.buf[w.pos]
	w.buf[w.pos] = item{}
	w.pos++
	return it, nil
}

// load reads up to n entries with prefix p after *loaded (from the start
// when nil), appending them to dst and advancing *loaded.
func (f *Frontier) load(p []byte, loaded *[]byte, n int, dst []item, skip func(fp uint64) bool) ([]item, error) {
	lower := p
	if *loaded != nil {
		lower = successor(*loaded)
	}
	it, err := f.db.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: prefixEnd(p)})
	if err != nil {
		return dst, fmt.Errorf("disk: %w", err)
	}
	for ok := it.First(); ok && n > 0; ok = it.Next() {
		e, err := decodeEntry(it.Value())
		if err != nil {
			it.Close()
			return dst, err
		}
		e.fp = frontier.Fingerprint(e.url)
		k := bytes.Clone(it.Key())
		*loaded = k
		if skip != nil && skip(e.fp) {
			continue
		}
		dst = append(dst, item{key: k, e: e})
		n--
	}
	if err := it.Close(); err != nil {
		return dst, fmt.Errorf("disk: %w", err)
	}
	return dst, nil
}

// popFront takes the next entry of front queue l.
func (f *Frontier) popFront(l int) (item, error) {
	lv := &f.levels[l]
	it, err := f.pop(&lv.w, frontPrefix(l), f.frontBuffer, nil)
	if err != nil {
		return item{}, err
	}
	lv.n--
	f.frontLen--
	return it, nil
}

// pickFront is Mercator's biased selector (smooth weighted round robin:
// queue l has weight l+1 among the non-empty ones). Call when frontLen > 0.
func (f *Frontier) pickFront() int {
	best, total := -1, 0
	for l := range f.k {
		if f.levels[l].n == 0 {
			continue
		}
		f.credit[l] += l + 1
		total += l + 1
		if best < 0 || f.credit[l] > f.credit[best] {
			best = l
		}
	}
	f.credit[best] -= total
	return best
}

// refill moves URLs from the front queues to back queues until enough
// hosts have one (parked ones do not count), in one batch.
func (f *Frontier) refill() error {
	if len(f.backs)-f.parked >= f.target || f.frontLen == 0 {
		return nil
	}
	b := f.db.NewBatch()
	var buf []byte
	for len(f.backs)-f.parked < f.target && f.frontLen > 0 {
		it, err := f.popFront(f.pickFront())
		if err != nil {
			b.Close()
			return err
		}
		b.Delete(it.key, nil)
		bq := f.backs[it.e.host]
		if bq == nil {
			bq = f.newBack(it.e.host)
		}
		f.seq++
		key := backKey(it.e.host, f.backOrder(it.e.prio, f.seq), f.seq)
		buf = it.e.encode(buf[:0])
		b.Set(key, buf, nil)
		bq.n++
		bq.w.insert(item{key: key, e: it.e}, f.headCache)
	}
	m := f.meta()
	b.Set([]byte{tabMeta}, m.encode(), nil)
	return f.apply(b)
}

// newBack gives host a back queue and makes it eligible for Next, at once
// or, if it was resting when the frontier was opened, at its next contact.
// A host that rests long, or was resting when the frontier was opened, gets
// its back queue parked: it does not count against target until the host
// is handed out (see frontier.Memory, which does the same).
func (f *Frontier) newBack(host string) *backQueue {
	bq := &backQueue{host: host, w: window{complete: true}}
	f.backs[host] = bq
	now := f.clock.Now()
	if t, ok := f.rest[host]; ok {
		if t.After(now) && f.sched.InFlight(host) == 0 {
			f.deferred = append(f.deferred, host)
			f.park(bq)
			return bq
		}
		delete(f.rest, host)
	}
	f.sched.Add(host)
	if f.sched.RestsLong(host, now) {
		f.park(bq)
	}
	return bq
}

// park takes bq out of the back queues that count against target, and
// drops its window, so that a parked host costs no memory for its URLs,
// whatever their number: they are stored, and the first take after the
// host is due loads them again.
func (f *Frontier) park(bq *backQueue) {
	if bq.parked {
		return
	}
	bq.parked = true
	f.parked++
	bq.w = window{} // not complete, nothing loaded: every stored entry is read again
}

// parkGroup parks the back queues of the hosts of host's politeness group
// (host alone unless politeness.Config.GroupKey groups hosts), after a
// contact that left the group resting long, and refills.
func (f *Frontier) parkGroup(host string) error {
	for _, h := range f.sched.GroupHosts(host) {
		if bq := f.backs[h]; bq != nil {
			f.park(bq)
		}
	}
	return f.refill()
}

// promote moves the deferred hosts whose rest is over into the schedule
// and returns the earliest rest still running (zero if none).
func (f *Frontier) promote(now time.Time) time.Time {
	var wake time.Time
	kept := f.deferred[:0]
	for _, h := range f.deferred {
		t := f.rest[h]
		if !t.After(now) {
			delete(f.rest, h)
			if f.backs[h] != nil {
				f.sched.Add(h)
			}
			continue
		}
		if wake.IsZero() || t.Before(wake) {
			wake = t
		}
		kept = append(kept, h)
	}
	f.deferred = kept
	return wake
}

// Next hands out a request whose host may be contacted now, blocking until
// there is one. See frontier.Frontier for the contract. Next writes
// nothing: a request stays stored in its queue until Done, so one leased
// when the process dies is handed out again after Open.
func (f *Frontier) Next(ctx context.Context) (frontier.Request, error) {
	for {
		if err := ctx.Err(); err != nil {
			return frontier.Request{}, err
		}
		f.mu.Lock()
		if err := f.usable(); err != nil {
			f.mu.Unlock()
			return frontier.Request{}, err
		}
		now := f.clock.Now()
		due, err := f.promoteRevisits(now)
		if err != nil {
			f.mu.Unlock()
			return frontier.Request{}, err
		}
		if f.queued == 0 && len(f.leased) == 0 && f.revisits == 0 {
			f.mu.Unlock()
			return frontier.Request{}, frontier.ErrEmpty
		}
		restWake := f.promote(now)
		if !due.IsZero() && (restWake.IsZero() || due.Before(restWake)) {
			restWake = due
		}
		host, wake, ok := f.sched.Next(now)
		if ok {
			req, err := f.take(host, now)
			f.mu.Unlock()
			return req, err
		}
		if !restWake.IsZero() && (wake.IsZero() || restWake.Before(wake)) {
			wake = restWake
		}
		changed := f.wake.Chan()
		f.mu.Unlock()
		if err := wakeup.Wait(ctx, changed, f.clock.After, now, wake); err != nil {
			return frontier.Request{}, err
		}
	}
}

// take leases the head of host's back queue; the schedule has leased the
// host.
func (f *Frontier) take(host string, now time.Time) (frontier.Request, error) {
	bq := f.backs[host]
	if bq.parked {
		bq.parked = false
		f.parked--
	}
	var it item
	if n := len(bq.retry); n > 0 {
		it = bq.retry[n-1]
		bq.retry[n-1] = item{}
		bq.retry = bq.retry[:n-1]
	} else {
		var err error
		// A stored key may be leased or waiting in retry: with several
		// requests per host in flight, a back queue dropped and made again
		// can have its window start before such a key.
		skip := func(fp uint64) bool {
			if f.leased[fp] != nil {
				return true
			}
			for _, r := range bq.retry {
				if r.e.fp == fp {
					return true
				}
			}
			return false
		}
		if it, err = f.pop(&bq.w, backPrefix(host), f.headCache, skip); err != nil {
			return frontier.Request{}, err
		}
	}
	bq.n--
	f.queued--
	f.leased[it.e.fp] = &lease{host: host, it: it}
	if bq.n == 0 {
		delete(f.backs, host)
		f.sched.Remove(host)
		if err := f.refill(); err != nil {
			return frontier.Request{}, err
		}
		if f.sched.Hosts() > f.pruneAt {
			f.sched.Prune(now)
			f.pruneAt = 2*f.sched.Hosts() + pruneMin
		}
	}
	e := &it.e
	req := frontier.Request{
		URL: e.url, Host: e.host, Depth: e.depth, Priority: e.prio,
		Referrer: e.referrer, Anchor: e.anchor, Retries: e.retries, Redirects: e.redirects,
		State: []byte(e.state),
	}
	if e.data != "" {
		req.Data = []byte(e.data)
	}
	return req, nil
}

// Done ends the lease of req and schedules its host's next contact from
// out, as frontier.Frontier says. Unless out asks for a Retry or Requeue,
// the request leaves the store; either way the change and the host's next
// contact time are synced to stable storage before Done returns. The
// request's Data is the one stored with it (or out.Data): Done does not
// read req.Data.
func (f *Frontier) Done(req frontier.Request, out frontier.Outcome) error {
	fp := frontier.Fingerprint(req.URL)
	var dataErr error
	if len(out.Data) > frontier.MaxData {
		dataErr = fmt.Errorf("disk: done %q: %d bytes of data, more than %d: %w", req.URL, len(out.Data), frontier.MaxData, frontier.ErrDataTooLarge)
	}
	f.mu.Lock()
	if err := f.usable(); err != nil {
		f.mu.Unlock()
		return err
	}
	ls, ok := f.leased[fp]
	if !ok {
		f.mu.Unlock()
		return fmt.Errorf("disk: done %q: %w", req.URL, frontier.ErrNotLeased)
	}
	delete(f.leased, fp)
	now := f.clock.Now()
	if err := out.Release(f.sched, ls.host, now); err != nil {
		f.mu.Unlock()
		return fmt.Errorf("disk: done %q: %w", req.URL, err)
	}
	b := f.db.NewBatch()
	if out.Retry || out.Requeue {
		it := ls.it
		if out.Retry {
			it.e.retries++
		}
		if data, _ := out.NextData(nil); data != nil {
			it.e.data = string(data)
		}
		b.Set(it.key, it.e.encode(nil), nil)
		bq := f.backs[ls.host]
		if bq == nil {
			// Its stored keys: this one, in retry, unless the host is
			// parked, which leaves every key to be read again.
			bq = f.newBack(ls.host)
		}
		bq.retry = append(bq.retry, it) // a stack: the latest first
		bq.n++
		f.queued++
	} else {
		b.Delete(ls.it.key, nil)
		if !out.Revisit.IsZero() {
			e := ls.it.e
			e.retries, e.state = 0, string(out.State)
			if data, _ := out.NextData(nil); data != nil {
				e.data = string(data)
			}
			b.Set(revisitKey(out.Revisit, fp), e.encode(nil), nil)
			f.revisits++
		}
	}
	if t, ok := f.sched.NextContact(ls.host); ok {
		b.Set(hostKey(tabNext, ls.host), binary.BigEndian.AppendUint64(nil, uint64(t.UnixNano())), nil)
	}
	err := f.apply(b)
	if err == nil && f.sched.RestsLong(ls.host, now) {
		err = f.parkGroup(ls.host)
	}
	f.wake.Broadcast()
	f.lastSync = now
	f.mu.Unlock()
	if err != nil {
		return err
	}
	return errors.Join(f.sync(), dataErr)
}

// Revisits returns how many URLs wait for their revisit time
// (frontier.Outcome.Revisit); Len does not count them.
func (f *Frontier) Revisits() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.revisits
}

// promoteRevisits moves the revisits due at now from their table to the
// highest front queue, where the selector finds them first, in one batch,
// and returns the time of the next one (zero if none). Call with f.mu
// held.
func (f *Frontier) promoteRevisits(now time.Time) (next time.Time, err error) {
	if f.revisits == 0 {
		return time.Time{}, nil
	}
	it, err := f.db.NewIter(&pebble.IterOptions{LowerBound: []byte{tabRevisit}, UpperBound: prefixEnd([]byte{tabRevisit})})
	if err != nil {
		return time.Time{}, fmt.Errorf("disk: %w", err)
	}
	b := f.db.NewBatch()
	moved := 0
	l := f.k - 1
	for ok := it.First(); ok; ok = it.Next() {
		at, good := revisitTime(it.Key())
		if !good {
			it.Close()
			b.Close()
			return time.Time{}, errCorrupt
		}
		if at.After(now) {
			next = at
			break
		}
		e, derr := decodeEntry(it.Value())
		if derr != nil {
			it.Close()
			b.Close()
			return time.Time{}, derr
		}
		e.fp = frontier.Fingerprint(e.url)
		e.prio = float64(f.k)
		b.Delete(it.Key(), nil)
		f.seq++
		key := frontKey(l, f.order(e.prio, f.seq), f.seq)
		b.Set(key, e.encode(nil), nil)
		f.levels[l].w.insert(item{key: key, e: e}, f.frontBuffer)
		f.levels[l].n++
		f.frontLen++
		f.queued++
		f.revisits--
		moved++
	}
	if cerr := it.Close(); cerr != nil {
		b.Close()
		return time.Time{}, fmt.Errorf("disk: %w", cerr)
	}
	if moved == 0 {
		b.Close()
		return next, nil
	}
	m := f.meta()
	b.Set([]byte{tabMeta}, m.encode(), nil)
	if err := f.apply(b); err != nil {
		return time.Time{}, err
	}
	return next, f.refill()
}

// Len returns the number of queued requests not yet handed out.
func (f *Frontier) Len() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.queued
}

// Leased returns the number of requests handed out and not yet done.
func (f *Frontier) Leased() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.leased)
}

// Flush makes every change so far durable: it waits for an fsync of the
// store's log. The crawler calls it when Run returns.
func (f *Frontier) Flush() error {
	f.mu.Lock()
	if err := f.usable(); err != nil {
		f.mu.Unlock()
		if errors.Is(err, ErrClosed) {
			return nil
		}
		return err
	}
	f.lastSync = f.clock.Now()
	f.mu.Unlock()
	return f.sync()
}

// Close flushes the frontier and closes its store. Requests still leased
// stay stored and are handed out again by the next Open. Close is
// idempotent; other methods return ErrClosed after it.
func (f *Frontier) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return nil
	}
	f.closed = true
	f.wake.Broadcast()
	f.life.Lock()
	defer f.life.Unlock()
	err := f.db.LogData(nil, pebble.Sync)
	if cerr := f.db.Close(); cerr != nil {
		err = errors.Join(err, cerr)
	}
	f.db = nil
	if err != nil {
		return fmt.Errorf("disk: close: %w", err)
	}
	return nil
}
