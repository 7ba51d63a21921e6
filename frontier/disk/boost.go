package disk

import (
	"bytes"
	"fmt"
	"slices"
	"time"

	"github.com/trawl-dev/trawl/frontier"
)

// Order returns the Strategy the frontier's queues are ordered by.
func (f *Frontier) Order() frontier.Strategy { return f.strategy }

// Boost adds delta to the priority of rawURL if it waits in the frontier
// under frontier.Priority, and reports whether it did, as frontier.Memory
// does: in a front queue the URL moves to the queue its new priority
// selects, in its host's back queue it moves up among the host's URLs.
// It returns false under BFS and DFS, for a URL never pushed, handed out
// and not yet done, done, waiting for its revisit time, or returned by
// Done with Retry or Requeue and not yet handed out again (those are
// first in line for their host; after Close and Open they wait in their
// back queue like the others and can be boosted).
//
// The boost is durable as a Push is: it goes to the write buffer, which
// the next Done, Flush, Close, SyncInterval or full buffer commits (see
// "Durability" in the package documentation), so a kill -9 loses the
// boosts made since the last commit, with the Pushes.
//
// Boost finds the URL through an index from each queued URL's
// fingerprint to its key (see "Boost and OPIC" in the package
// documentation). The first Boost a Priority frontier is given writes it
// for every URL queued, and from then on Push, Next and Done keep it, in
// this process and after the frontier is opened again; so a frontier
// never boosted (a crawl ordered by link scores alone) pays nothing for
// it.
func (f *Frontier) Boost(rawURL string, delta float64) bool {
	if f.strategy != frontier.Priority {
		return false
	}
	fp := frontier.Fingerprint(rawURL)
	f.mu.Lock()
	if f.usable() != nil {
		f.mu.Unlock()
		return false
	}
	var err error
	built := !f.indexed
	if built {
		err = f.indexQueues() // whatever this call finds: from now on the index is kept
	}
	ok := false
	if err == nil && f.leased[fp] == nil && f.seen.mayContain(fp) {
		ok, err = f.boost(fp, delta)
	}
	if err != nil {
		f.err = err
		f.mu.Unlock()
		return false
	}
	var flushGen uint64
	if ok || built {
		if f.timer == nil && f.syncEvery > 0 {
			f.timer = time.AfterFunc(f.syncEvery, f.timedFlush)
		}
		if f.full() {
			flushGen = f.gen
		}
	}
	f.mu.Unlock()
	if flushGen != 0 {
		_ = f.flush(flushGen) // a failure is sticky: the next call returns it
	}
	return ok
}

// indexQueues writes the index Boost reads, an entry for every queued
// URL, and the mark that says it is whole, to the write buffer (read in
// windows of maxCommitKeys entries; the buffer holds them all until they
// are committed together, about 150 bytes of memory a queued URL). The
// first Boost calls it; Open reads the mark. Call with f.mu held.
func (f *Frontier) indexQueues() error {
	for _, p := range [][]byte{{tabFront}, {tabBack}} {
		var after []byte
		for {
			items, err := f.load(p, &after, maxCommitKeys, nil, nil)
			if err != nil {
				return err
			}
			b := new(batch)
			for _, it := range items {
				b.Set(indexKey(it.e.fp), it.key)
			}
			f.apply(b)
			if len(items) < maxCommitKeys {
				break
			}
		}
	}
	b := new(batch)
	b.Set([]byte{tabIndexed}, nil)
	f.apply(b)
	f.indexed = true
	return nil
}

// boost moves the entry of fp to its key for its priority plus delta, if
// it waits in a front or back queue. Call with f.mu held.
func (f *Frontier) boost(fp uint64, delta float64) (bool, error) {
	ikey := indexKey(fp)
	key, found, err := f.get(ikey)
	if err != nil || !found {
		return false, err
	}
	val, found, err := f.get(key)
	if err != nil || !found {
		return false, err // stale: the entry is gone (Done by a trawl without the index)
	}
	e, err := decodeEntry(val)
	if err != nil {
		return false, fmt.Errorf("disk: boost: %w", err)
	}
	e.fp = frontier.Fingerprint(e.url)
	if e.fp != fp {
		return false, nil
	}
	seq := seqOf(key)
	b := new(batch)
	var nkey []byte
	switch key[0] {
	case tabFront:
		from := int(key[1])
		if from >= f.k {
			return false, fmt.Errorf("disk: boost: front queue %d of %d: %w", from, f.k, errCorrupt)
		}
		e.prio += delta
		to := f.levelOf(e.prio)
		nkey = frontKey(to, f.order(e.prio, seq), seq)
		f.levels[from].w.remove(key)
		f.levels[from].n--
		f.levels[to].n++
		f.levels[to].w.insert(item{key: nkey, e: e}, f.frontBuffer)
		if from != to {
			m := f.meta()
			b.Set([]byte{tabMeta}, m.encode())
		}
	case tabBack:
		host, ok := hostOfBackKey(key)
		bq := f.backs[host]
		if !ok || bq == nil {
			return false, fmt.Errorf("disk: boost: back queue key of no back queue: %w", errCorrupt)
		}
		if slices.ContainsFunc(bq.retry, func(r item) bool { return r.e.fp == fp }) {
			return false, nil // first in line already, as in frontier.Memory
		}
		e.prio += delta
		nkey = backKey(host, f.backOrder(e.prio, seq), seq)
		bq.w.remove(key)
		bq.w.insert(item{key: nkey, e: e}, f.headCache)
	default:
		return false, fmt.Errorf("disk: boost: index names key %q: %w", key, errCorrupt)
	}
	b.Delete(key)
	b.Set(nkey, e.encode(nil))
	b.Set(ikey, nkey)
	f.apply(b)
	return true, nil
}

// remove drops the entry stored under key from the window, if it holds
// it. Every stored key of the queue not after loaded is in buf[pos:], so
// the window's bounds stay true.
func (w *window) remove(key []byte) {
	rest := w.buf[w.pos:]
	i, found := slices.BinarySearchFunc(rest, key, func(it item, k []byte) int { return bytes.Compare(it.key, k) })
	if !found {
		return
	}
	i += w.pos
	copy(w.buf[i:], w.buf[i+1:])
	w.buf[len(w.buf)-1] = item{}
	w.buf = w.buf[:len(w.buf)-1]
}

// Seen reports whether rawURL was ever accepted by Push (queued, handed
// out, done or waiting for a revisit), in this process or before the
// frontier was last opened (frontier.SeenChecker). A "maybe" from the
// Bloom filter is answered from the seen set on disk.
func (f *Frontier) Seen(rawURL string) bool {
	fp := frontier.Fingerprint(rawURL)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.usable() != nil || !f.seen.mayContain(fp) {
		return false
	}
	seen, err := f.seenSt.has(fp)
	if err != nil {
		f.err = err
		return false
	}
	return seen
}
