package disk

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

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

// ErrFormat is returned by Open when dir holds a frontier this version
// cannot read: one written by trawl before the store moved from pebble to
// bbolt (see "Format" in the package documentation).
var ErrFormat = errors.New("disk: directory holds a frontier in another format")

// storeFile is the bbolt file in a frontier's directory.
const storeFile = "frontier.bbolt"

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
	// WriteBuffer bounds, in bytes, the changes held in memory before
	// they are committed to the store: a Push that leaves more waits for
	// a commit. Default 4 MiB. A Push also commits past 1,024 changed
	// keys (a new URL changes one or two), which bounds the heap of a
	// commit whatever the buffer's size.
	WriteBuffer int

	// SyncInterval bounds how long an accepted Push may stay in memory
	// only: SyncInterval after a Push the changes held are committed to
	// the store and fsynced. Done and Flush always commit. Default 1s;
	// negative: only Done, Flush, Close and WriteBuffer commit.
	SyncInterval time.Duration

	// noSync, for tests that time no disk, commits without fsync.
	noSync bool
	// seenRun, for tests, is the seen set's run size (default runMin).
	seenRun int
}

// Frontier is a persistent Mercator frontier on a bbolt store with a
// write buffer in front of it. See the package documentation for its
// layout, durability and memory use.
//
// A Frontier is safe for concurrent use. Its state is guarded by one
// mutex; each operation's changes go to the write buffer under it (so
// commits hold operations in their real order), and the commit that makes
// Done durable is waited for outside it.
type Frontier struct {
	db *bolt.DB // nil after Close (written under flushMu and mu)

	// Immutable after Open.
	strategy    frontier.Strategy
	k           int
	target      int
	maxDepth    int
	maxPerHost  int
	headCache   int
	frontBuffer int
	syncEvery   time.Duration
	writeBuffer int
	clock       politeness.Clock

	// flushMu makes one commit at a time; taken before mu.
	flushMu sync.Mutex
	// unmapped is when flush last dropped the resident pages of bbolt's
	// memory map (unmapResident); under flushMu.
	unmapped time.Time

	mu         sync.Mutex
	err        error // sticky: a failed read or commit leaves memory and disk apart
	commitErr  error // a commit failed: nothing more may be committed
	closed     bool
	pending    *memtable   // changes not yet committed, newest
	committing *memtable   // changes being committed by flush (nil if none)
	gen        uint64      // generation of pending; each flush takes one
	durable    uint64      // the last generation committed
	timer      *time.Timer // commits SyncInterval after a Push, if armed
	sched      *politeness.Schedule
	levels     []level
	credit     []int
	seq        uint64
	frontLen   int
	queued     int
	backs      map[string]*backQueue
	parked     int // back queues in backs that are parked
	leased     map[uint64]*lease
	seen       *bloom
	seenSt     *seenStore // the seen set behind the Bloom filter (seen.go)
	budget     map[string]int
	rest       map[string]time.Time // hosts resting at Open: their next contact
	deferred   []string             // hosts with a back queue waiting in rest
	revisits   int                  // URLs stored under tabRevisit
	indexed    bool                 // every queued URL's key is in tabIndex (Priority, since the first Boost)
	pruneAt    int
	wake       wakeup.Signal // closed on change, for Next's waiters
}

var (
	_ frontier.Frontier    = (*Frontier)(nil)
	_ frontier.Revisiter   = (*Frontier)(nil)
	_ frontier.Flusher     = (*Frontier)(nil)
	_ frontier.Booster     = (*Frontier)(nil)
	_ frontier.SeenChecker = (*Frontier)(nil)
	_ frontier.Orderer     = (*Frontier)(nil)
	_ frontier.StateKeeper = (*Frontier)(nil)
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
	if o.WriteBuffer <= 0 {
		o.WriteBuffer = 4 << 20
	}
	if o.SyncInterval == 0 {
		o.SyncInterval = time.Second
	}
	clock := o.Politeness.Clock
	if clock == nil {
		clock = politeness.SystemClock{}
	}
	db, err := openStore(dir, o.noSync)
	if err != nil {
		return nil, err
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
		writeBuffer: o.WriteBuffer,
		clock:       clock,
		pending:     newMemtable(),
		gen:         1,
		sched:       politeness.NewSchedule(&o.Politeness),
		levels:      make([]level, o.FrontQueues),
		credit:      make([]int, o.FrontQueues),
		backs:       make(map[string]*backQueue),
		leased:      make(map[uint64]*lease),
		seen:        newBloom(o.SeenFilterURLs),
		seenSt:      newSeenStore(dir, o.noSync, o.seenRun),
		rest:        make(map[string]time.Time),
		pruneAt:     pruneMin,
	}
	if f.maxPerHost > 0 {
		f.budget = make(map[string]int)
	}
	if err := f.restore(); err != nil {
		db.Close()
		f.seenSt.close()
		return nil, err
	}
	if err := f.flush(f.gen); err != nil { // the meta of a new frontier, stale host times
		db.Close()
		f.seenSt.close()
		return nil, err
	}
	// Opening read every page of the file (bbolt rebuilds its free list,
	// restore reads the queues' keys): drop them from the resident set.
	f.unmapped = time.Now()
	_ = unmapResident(db)
	return f, nil
}

// openStore opens (or creates) the bbolt file in dir, refusing a
// directory that holds a pebble store (a frontier of an older trawl).
func openStore(dir string, noSync bool) (*bolt.DB, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("disk: open %s: %w", dir, err)
	}
	names, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("disk: open %s: %w", dir, err)
	}
	for _, e := range names {
		if n := e.Name(); n == "CURRENT" || strings.HasPrefix(n, "MANIFEST-") {
			return nil, fmt.Errorf("disk: open %s: it holds a pebble store (%s), written by a trawl older than the bbolt store; "+
				"finish that crawl with the trawl that wrote it, or start this one in a new directory: %w", dir, n, ErrFormat)
		}
	}
	db, err := bolt.Open(filepath.Join(dir, storeFile), 0o644, &bolt.Options{
		Timeout:        100 * time.Millisecond, // the file lock: another process has the frontier open
		NoFreelistSync: true,                   // rebuilt at open: commits write less
		FreelistType:   bolt.FreelistMapType,
		NoSync:         noSync,
	})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("disk: open %s: in use by another Frontier (bbolt's file lock): %w", dir, err)
	}
	if err != nil {
		return nil, fmt.Errorf("disk: open %s: %w", dir, err)
	}
	return db, nil
}

// writeFreelist commits the store once more with bbolt's free list
// written, which commits skip (Options.NoFreelistSync: a free list can be
// megabytes, and a Done commits). The next Open then reads the list
// instead of rebuilding it by reading every page of the file, which would
// bring the whole file into the process's resident set (1.3 GB at 10
// million URLs queued). After a crash, Open rebuilds it. Call with the
// last commit done and no other transaction running.
func writeFreelist(db *bolt.DB) error {
	db.NoFreelistSync = false
	defer func() { db.NoFreelistSync = true }()
	return db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketName)
		if b == nil {
			return nil
		}
		// bbolt writes the free list with a commit that changes something.
		v := b.Get([]byte{tabMeta})
		if v == nil {
			return nil
		}
		return b.Put([]byte{tabMeta}, bytes.Clone(v))
	})
}

// scan calls fn for every key with prefix p, in order, in the merged view
// of the write buffer and bbolt. Call with f.mu held.
func (f *Frontier) scan(p []byte, fn func(k, v []byte) error) error {
	return f.db.View(func(tx *bolt.Tx) error {
		it := newIter(tx, f.pending, f.committing, p, prefixEnd(p))
		for k, v, ok := it.next(); ok; k, v, ok = it.next() {
			if err := fn(k, v); err != nil {
				return err
			}
		}
		return nil
	})
}

// get returns the value of key in the merged view (nil if absent). The
// value is a copy. Call with f.mu held.
func (f *Frontier) get(key []byte) (val []byte, found bool, err error) {
	err = f.scan(key, func(k, v []byte) error {
		if !found && bytes.Equal(k, key) {
			val, found = bytes.Clone(v), true
		}
		return errStop
	})
	if errors.Is(err, errStop) {
		err = nil
	}
	return val, found, err
}

var errStop = errors.New("stop")

func (f *Frontier) restore() error {
	v, found, err := f.get([]byte{tabMeta})
	switch {
	case err != nil:
		return fmt.Errorf("disk: %w", err)
	case !found:
		m := f.meta()
		b := new(batch)
		b.Set([]byte{tabMeta}, m.encode())
		f.apply(b)
	default:
		m, err := decodeMeta(v)
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
	err = f.db.View(func(tx *bolt.Tx) error { return f.seenSt.restore(tx, f.seen.add) })
	if err != nil {
		return fmt.Errorf("disk: reading seen set: %w", err)
	}
	now := f.clock.Now()
	stale := new(batch)
	err = f.scan([]byte{tabNext}, func(k, v []byte) error {
		if len(v) != 8 {
			return errCorrupt
		}
		t := time.Unix(0, int64(binary.BigEndian.Uint64(v)))
		if t.After(now) {
			f.rest[string(k[1:])] = t
		} else {
			stale.Delete(k)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("disk: reading host times: %w", err)
	}
	f.apply(stale)
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
	if f.strategy == frontier.Priority {
		if _, f.indexed, err = f.get([]byte{tabIndexed}); err != nil {
			return fmt.Errorf("disk: %w", err)
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

// apply puts the changes of b in the write buffer, where every read sees
// them at once. Call with f.mu held.
func (f *Frontier) apply(b *batch) {
	for _, o := range b.ops {
		f.pending.put(o.key, o.val, o.del)
	}
	if len(b.fps) > 0 {
		f.pending.fps = append(f.pending.fps, b.fps...)
		f.pending.size += 8 * len(b.fps)
		f.seenSt.add(b.fps)
	}
}

// full reports whether the write buffer holds more than the bound, in
// bytes or in keys. Call with f.mu held.
//
// The bound in keys bounds the commit's heap: bbolt copies every B+tree
// page a commit touches into the heap, and under Priority the front
// queues' keys land all over their levels, a page each (at 4 MiB a
// commit, TestScale under Priority peaked at 663 MiB of RSS at a million
// URLs). Keys appended in order share pages, so the bound costs them only
// more commits.
func (f *Frontier) full() bool {
	return f.pending.size > f.writeBuffer || f.pending.n > maxCommitKeys
}

// maxCommitKeys is the most keys a Push leaves in the write buffer.
const maxCommitKeys = 1024

// timedFlush commits what the write buffer holds, SyncInterval after a
// Push armed it.
func (f *Frontier) timedFlush() {
	f.mu.Lock()
	f.timer = nil
	gen, closed := f.gen, f.closed
	f.mu.Unlock()
	if closed {
		return // Close commits
	}
	if err := f.flush(gen); err != nil {
		f.mu.Lock()
		if f.err == nil {
			f.err = err // the next call returns it
		}
		f.mu.Unlock()
	}
}

// flush returns when the changes of write-buffer generation gen (and all
// before) are committed to bbolt and fsynced: at once if they are, else
// after committing the write buffer in one transaction. Concurrent calls
// share a commit: one commits, and the others find their generation
// committed or commit, together, what arrived meanwhile. Call without
// f.mu held.
func (f *Frontier) flush(gen uint64) error {
	f.flushMu.Lock()
	defer f.flushMu.Unlock()
	f.mu.Lock()
	if f.durable >= gen {
		f.mu.Unlock()
		return nil
	}
	if f.commitErr != nil || f.db == nil {
		err := f.commitErr
		f.mu.Unlock()
		if err == nil {
			err = ErrClosed // closed by a crash in tests; Close commits
		}
		return err
	}
	m, done := f.pending, f.gen
	f.committing, f.pending = m, newMemtable()
	f.gen++
	f.mu.Unlock()

	err := commit(f.db, f.seenSt, m)
	if now := time.Now(); err == nil && now.Sub(f.unmapped) >= unmapEvery {
		// Keep the resident set to what the frontier needs (see
		// unmapResident); a failure costs memory, not data.
		f.unmapped = now
		_ = unmapResident(f.db)
	}

	f.mu.Lock()
	defer f.mu.Unlock()
	f.committing = nil
	if err != nil {
		f.commitErr = fmt.Errorf("disk: commit: %w", err)
		f.err = f.commitErr
		return f.err
	}
	f.durable = done
	return nil
}

func (f *Frontier) usable() error {
	if f.closed {
		return ErrClosed
	}
	return f.err
}

// unmapEvery is how often, at most, a flush drops the resident pages of
// bbolt's memory map.
const unmapEvery = 250 * time.Millisecond

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
	b := new(batch)
	var local map[uint64]bool // accepted by this call, not yet in the store
	var buf []byte
	for i := range ents {
		e := &ents[i]
		if f.seen.mayContain(e.fp) {
			if local[e.fp] {
				continue
			}
			seen, err := f.seenSt.has(e.fp)
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
			b.Set(hostKey(tabBudget, e.host), binary.AppendUvarint(nil, uint64(f.budget[e.host])))
		}
		if local == nil {
			local = make(map[uint64]bool, len(ents))
		}
		local[e.fp] = true
		f.seen.add(e.fp)
		b.fps = append(b.fps, e.fp)
		f.seq++
		l := f.levelOf(e.prio)
		key := frontKey(l, f.order(e.prio, f.seq), f.seq)
		buf = e.encode(buf[:0])
		b.Set(key, buf)
		if f.indexed {
			b.Set(indexKey(e.fp), key)
		}
		f.levels[l].w.insert(item{key: key, e: *e}, f.frontBuffer)
		f.levels[l].n++
		f.frontLen++
		f.queued++
		added++
	}
	if added > 0 {
		m := f.meta()
		b.Set([]byte{tabMeta}, m.encode())
	}
	f.apply(b)
	if f.timer == nil && f.syncEvery > 0 && added > 0 {
		f.timer = time.AfterFunc(f.syncEvery, f.timedFlush)
	}
	var flushGen uint64
	if added > 0 {
		if err := f.refill(); err != nil {
			f.mu.Unlock()
			return added, err
		}
		f.wake.Broadcast()
		if f.full() {
			flushGen = f.gen
		}
	}
	f.mu.Unlock()
	if flushGen != 0 {
		if err := f.flush(flushGen); err != nil {
			errs = append(errs, err)
		}
	}
	return added, errors.Join(errs...)
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
	err := f.db.View(func(tx *bolt.Tx) error {
		it := newIter(tx, f.pending, f.committing, lower, prefixEnd(p))
		for key, val, ok := it.next(); ok && n > 0; key, val, ok = it.next() {
			e, err := decodeEntry(val)
			if err != nil {
				return err
			}
			e.fp = frontier.Fingerprint(e.url)
			k := bytes.Clone(key)
			*loaded = k
			if skip != nil && skip(e.fp) {
				continue
			}
			dst = append(dst, item{key: k, e: e})
			n--
		}
		return nil
	})
	if err != nil && !errors.Is(err, errCorrupt) {
		err = fmt.Errorf("disk: %w", err)
	}
	return dst, err
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
	b := new(batch)
	var buf []byte
	for len(f.backs)-f.parked < f.target && f.frontLen > 0 {
		it, err := f.popFront(f.pickFront())
		if err != nil {
			return err
		}
		b.Delete(it.key)
		bq := f.backs[it.e.host]
		if bq == nil {
			bq = f.newBack(it.e.host)
		}
		f.seq++
		key := backKey(it.e.host, f.backOrder(it.e.prio, f.seq), f.seq)
		buf = it.e.encode(buf[:0])
		b.Set(key, buf)
		if f.indexed {
			b.Set(indexKey(it.e.fp), key)
		}
		bq.n++
		bq.w.insert(item{key: key, e: it.e}, f.headCache)
	}
	m := f.meta()
	b.Set([]byte{tabMeta}, m.encode())
	f.apply(b)
	return nil
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
	b := new(batch)
	if out.Retry || out.Requeue {
		it := ls.it
		if out.Retry {
			it.e.retries++
		}
		if data, _ := out.NextData(nil); data != nil {
			it.e.data = string(data)
		}
		b.Set(it.key, it.e.encode(nil))
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
		b.Delete(ls.it.key)
		if f.indexed {
			b.Delete(indexKey(fp))
		}
		if !out.Revisit.IsZero() {
			e := ls.it.e
			e.retries, e.state = 0, string(out.State)
			if data, _ := out.NextData(nil); data != nil {
				e.data = string(data)
			}
			b.Set(revisitKey(out.Revisit, fp), e.encode(nil))
			f.revisits++
		}
	}
	if t, ok := f.sched.NextContact(ls.host); ok {
		b.Set(hostKey(tabNext, ls.host), binary.BigEndian.AppendUint64(nil, uint64(t.UnixNano())))
	}
	f.apply(b)
	var err error
	if f.sched.RestsLong(ls.host, now) {
		err = f.parkGroup(ls.host)
	}
	f.wake.Broadcast()
	gen := f.gen
	f.mu.Unlock()
	if err != nil {
		return err
	}
	return errors.Join(f.flush(gen), dataErr)
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
	b := new(batch)
	moved := 0
	l := f.k - 1
	err = f.scan([]byte{tabRevisit}, func(k, v []byte) error {
		at, good := revisitTime(k)
		if !good {
			return errCorrupt
		}
		if at.After(now) {
			next = at
			return errStop
		}
		e, err := decodeEntry(v)
		if err != nil {
			return err
		}
		e.fp = frontier.Fingerprint(e.url)
		e.prio = float64(f.k)
		b.Delete(k)
		f.seq++
		key := frontKey(l, f.order(e.prio, f.seq), f.seq)
		b.Set(key, e.encode(nil))
		if f.indexed {
			b.Set(indexKey(e.fp), key)
		}
		f.levels[l].w.insert(item{key: key, e: e}, f.frontBuffer)
		f.levels[l].n++
		f.frontLen++
		f.queued++
		f.revisits--
		moved++
		return nil
	})
	if err != nil && !errors.Is(err, errStop) {
		// The moves made stay in memory with their batch unapplied:
		// memory and store are apart.
		if !errors.Is(err, errCorrupt) {
			err = fmt.Errorf("disk: %w", err)
		}
		f.err = err
		return time.Time{}, err
	}
	if moved == 0 {
		return next, nil
	}
	m := f.meta()
	b.Set([]byte{tabMeta}, m.encode())
	f.apply(b)
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

// Flush makes every change so far durable: it commits the write buffer
// to the store, fsynced. The crawler calls it when Run returns.
func (f *Frontier) Flush() error {
	f.mu.Lock()
	if err := f.usable(); err != nil {
		f.mu.Unlock()
		if errors.Is(err, ErrClosed) {
			return nil
		}
		return err
	}
	gen := f.gen
	f.mu.Unlock()
	return f.flush(gen)
}

// Close flushes the frontier and closes its store. Requests still leased
// stay stored and are handed out again by the next Open. Close is
// idempotent; other methods return ErrClosed after it.
func (f *Frontier) Close() error {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return nil
	}
	f.closed = true
	if f.timer != nil {
		f.timer.Stop()
		f.timer = nil
	}
	f.wake.Broadcast()
	gen := f.gen
	f.mu.Unlock()

	err := f.flush(gen)
	f.flushMu.Lock()
	defer f.flushMu.Unlock()
	f.mu.Lock()
	defer f.mu.Unlock()
	if err == nil {
		err = writeFreelist(f.db)
	}
	if cerr := f.db.Close(); cerr != nil {
		err = errors.Join(err, cerr)
	}
	f.db = nil
	f.seenSt.close()
	if err != nil {
		return fmt.Errorf("disk: close: %w", err)
	}
	return nil
}
