package frontier

import "strings"

// entry is a queued request in its compact form: 64 bytes on 64-bit
// platforms plus the strings it refers to. The host is interned. The URL
// and the anchor text share one string, data (see joinAnchor).
type entry struct {
	data      string
	referrer  string
	host      *hostInfo
	fp        uint64
	prio      float64
	depth     int32
	retries   int16
	redirects int16
}

// joinAnchor returns the entry data for url and anchor: the URL alone, or,
// when there is an anchor or the URL holds a NUL byte, the URL, a NUL and
// the anchor with its own NUL bytes (which HTML text never holds) turned
// into U+FFFD, so that the last NUL splits the two. Joining copies both
// strings into one allocation, so a queued anchor pins no page buffer it
// was cut from.
func joinAnchor(url, anchor string) string {
	if anchor == "" && strings.IndexByte(url, 0) < 0 {
		return url
	}
	if strings.IndexByte(anchor, 0) >= 0 {
		anchor = strings.ReplaceAll(anchor, "\x00", "\uFFFD")
	}
	return url + "\x00" + anchor
}

func (e *entry) request() Request {
	u, anchor := e.data, ""
	if i := strings.LastIndexByte(u, 0); i >= 0 {
		u, anchor = u[:i], u[i+1:]
	}
	return Request{
		URL:       u,
		Host:      e.host.name,
		Depth:     int(e.depth),
		Priority:  e.prio,
		Referrer:  e.referrer,
		Anchor:    anchor,
		Retries:   int(e.retries),
		Redirects: int(e.redirects),
		fp:        e.fp,
	}
}

// hostInfo is the frontier's state for one host.
type hostInfo struct {
	name     string
	back     *deque     // the host's back queue; nil when it has none
	best     *prioQueue // under Priority, the back queue's entries, best first (back stays empty)
	accepted int        // URLs accepted for this host (the per-host budget)
}

// blockLen entries make one deque block: 8 KiB, an allocation size class. Blocks keep the slack of a queue under one block,
// unlike a doubling slice, and never copy entries.
const blockLen = 128

type block [blockLen]entry

// deque is a double-ended queue of entries in fixed-size blocks.
type deque struct {
	blocks []*block
	head   int // index of the first entry in blocks[0]
	n      int
}

func (d *deque) len() int { return d.n }

func (d *deque) pushBack(e entry) {
	pos := d.head + d.n
	if pos/blockLen == len(d.blocks) {
		d.blocks = append(d.blocks, new(block))
	}
	d.blocks[pos/blockLen][pos%blockLen] = e
	d.n++
}

func (d *deque) pushFront(e entry) {
	if d.n == 0 && len(d.blocks) > 0 {
		clear(d.blocks[1:])
		d.blocks = d.blocks[:1]
		d.head = blockLen
	}
	if d.head == 0 {
		d.blocks = append(d.blocks, nil)
		copy(d.blocks[1:], d.blocks)
		d.blocks[0] = new(block)
		d.head = blockLen
	}
	d.head--
	d.blocks[0][d.head] = e
	d.n++
}

func (d *deque) popFront() entry {
	b := d.blocks[0]
	e := b[d.head]
	b[d.head] = entry{}
	d.head++
	d.n--
	if d.head == blockLen {
		d.blocks[0] = nil
		d.blocks = d.blocks[1:]
		d.head = 0
	}
	if d.n == 0 {
		d.head = 0
	}
	return e
}

func (d *deque) popBack() entry {
	pos := d.head + d.n - 1
	b := d.blocks[pos/blockLen]
	e := b[pos%blockLen]
	b[pos%blockLen] = entry{}
	d.n--
	if pos%blockLen == 0 {
		d.blocks[len(d.blocks)-1] = nil
		d.blocks = d.blocks[:len(d.blocks)-1]
	}
	if d.n == 0 {
		d.head = 0
		if len(d.blocks) > 1 {
			clear(d.blocks[1:])
			d.blocks = d.blocks[:1]
		}
	}
	return e
}

// prioQueue is a max-heap of entries by priority. pos, shared by all the
// priority queues of a frontier, maps each entry's fingerprint to its place
// so Boost can find it.
type prioQueue struct {
	level uint32
	items []entry
	pos   map[uint64]slot
}

type slot struct {
	level uint32
	index uint32
}

func (q *prioQueue) len() int { return len(q.items) }

func (q *prioQueue) set(i int, e entry) {
	q.items[i] = e
	q.pos[e.fp] = slot{level: q.level, index: uint32(i)}
}

func (q *prioQueue) push(e entry) {
	q.items = append(q.items, e)
	q.up(len(q.items)-1, e)
}

func (q *prioQueue) pop() entry {
	return q.remove(0)
}

func (q *prioQueue) remove(i int) entry {
	e := q.items[i]
	delete(q.pos, e.fp)
	last := len(q.items) - 1
	x := q.items[last]
	q.items[last] = entry{}
	q.items = q.items[:last]
	if i < last {
		q.down(i, x)
		if q.items[i].fp == x.fp {
			q.up(i, x)
		}
	}
	if cap(q.items) > 64 && len(q.items) < cap(q.items)/4 {
		q.items = append([]entry(nil), q.items...)
	}
	return e
}

// up places e, which belongs at index i or above.
func (q *prioQueue) up(i int, e entry) {
	for i > 0 {
		p := (i - 1) / 2
		if q.items[p].prio >= e.prio {
			break
		}
		q.set(i, q.items[p])
		i = p
	}
	q.set(i, e)
}

// down places e, which belongs at index i or below.
func (q *prioQueue) down(i int, e entry) {
	n := len(q.items)
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if r := c + 1; r < n && q.items[r].prio > q.items[c].prio {
			c = r
		}
		if q.items[c].prio <= e.prio {
			break
		}
		q.set(i, q.items[c])
		i = c
	}
	q.set(i, e)
}
