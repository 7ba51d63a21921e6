package frontier

import (
	"encoding/binary"
	"strings"
)

// entry is a queued request in its compact form: 64 bytes on 64-bit
// platforms plus the strings it refers to. The host is interned. The URL,
// the anchor text and the request's Data share one string, data (see
// joinData).
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

// joinData returns the entry data for url, anchor and the request's Data,
// in one of three layouts that its last byte tells apart:
//
//   - the URL alone, when there is neither anchor nor Data and the URL
//     holds no NUL byte (the common case: no copy, no cost);
//   - the URL, a NUL and the anchor, when there is an anchor and no Data:
//     the anchor's own NUL bytes (which HTML text never holds) turn into
//     U+FFFD, so the last NUL splits the two and the last byte is not NUL;
//   - otherwise the URL, the anchor (its NULs turned into U+FFFD as well),
//     the Data, the lengths of the anchor and of the Data (4 bytes each,
//     big-endian) and a NUL, which no other layout ends with.
//
// Joining copies the strings into one allocation, so a queued anchor pins
// no page buffer it was cut from, and the caller's Data may change after
// Push.
func joinData(url, anchor string, data []byte) string {
	if strings.IndexByte(anchor, 0) >= 0 {
		anchor = strings.ReplaceAll(anchor, "\x00", "\uFFFD")
	}
	switch {
	case len(data) == 0 && anchor == "" && strings.IndexByte(url, 0) < 0:
		return url
	case len(data) == 0 && anchor != "":
		return url + "\x00" + anchor
	}
	b := make([]byte, 0, len(url)+len(anchor)+len(data)+dataTrailer)
	b = append(b, url...)
	b = append(b, anchor...)
	b = append(b, data...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(anchor)))
	b = binary.BigEndian.AppendUint32(b, uint32(len(data)))
	b = append(b, 0)
	return string(b)
}

// dataTrailer is the length of the end of joinData's third layout.
const dataTrailer = 9

// split returns the URL, anchor text and Data an entry's data holds (see
// joinData).
func (e *entry) split() (url, anchor, data string) {
	s := e.data
	n := len(s)
	if n == 0 || s[n-1] != 0 {
		if i := strings.LastIndexByte(s, 0); i >= 0 {
			return s[:i], s[i+1:], ""
		}
		return s, "", ""
	}
	end := n - dataTrailer
	al := int(be32(s[end:]))
	dl := int(be32(s[end+4:]))
	data = s[end-dl : end]
	anchor = s[end-dl-al : end-dl]
	return s[:end-dl-al], anchor, data
}

func be32(s string) uint32 {
	return uint32(s[0])<<24 | uint32(s[1])<<16 | uint32(s[2])<<8 | uint32(s[3])
}

func (e *entry) request() Request {
	u, anchor, data := e.split()
	r := Request{
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
	if data != "" {
		r.Data = []byte(data)
	}
	return r
}

// hostInfo is the frontier's state for one host.
type hostInfo struct {
	name string
	back *ring // the host's back queue; nil when it has none
	// deep holds the oldest entries of a long back queue under DFS when the
	// front queues spill, below back's (see Memory.deepen): a deque, so
	// its middle blocks go to the spill file.
	deep     *deque
	best     *prioQueue // under Priority, the back queue's entries, best first (back stays empty)
	accepted int        // URLs accepted for this host (the per-host budget)
	id       uint32     // index in Memory.hostList, by which spilled entries name their host
	front    int32      // entries in the front queues (about: see Memory.frontNew)
	// parked: the host has a back queue but rests long (see
	// politeness.Schedule.RestsLong), so it does not count among the
	// Memory.target hosts that compete for workers until it is handed out.
	parked bool
}

// blockLen entries make one deque block: 8 KiB, an allocation size class.
// Blocks keep the slack of a queue under one block, unlike a doubling
// slice, never copy entries, and are the unit a spilling front queue writes
// out (see spill.go).
const blockLen = 128

type block [blockLen]entry

// seg is one block of a deque: in memory (b) or, once spilled, at ref in
// the spill file.
type seg struct {
	b   *block
	ref spillRef
}

// deque is a double-ended queue of entries in fixed-size blocks: a front
// queue. With sp set, the blocks between its first and its last two are
// written to the spill file and read back when a pop reaches them, so a
// front queue holds at most about three blocks in memory however long it
// grows. Front queues push at the back; they pop at the front (BFS) or at
// the back (DFS), and refill puts a URL it passes over back at the end
// that pops last (pushFront under DFS).
type deque struct {
	segs []seg
	head int // index of the first entry in segs[0]
	n    int
	sp   *spill // nil: everything stays in memory
}

func (d *deque) len() int { return d.n }

func (d *deque) pushBack(e entry) {
	pos := d.head + d.n
	if pos/blockLen == len(d.segs) {
		d.segs = append(d.segs, seg{b: new(block)})
		if i := len(d.segs) - 3; i >= 1 && d.sp != nil && d.segs[i].b != nil {
			d.sp.write(&d.segs[i])
		}
	}
	d.segs[pos/blockLen].b[pos%blockLen] = e
	d.n++
}

// pushFront puts e before the first entry. When a new first block is
// needed, the old one, if it is now between the first and the last two,
// is written to the spill file, as pushBack does at the other end.
func (d *deque) pushFront(e entry) {
	if d.n == 0 {
		clear(d.segs) // at most one empty block, in memory
		d.segs, d.head = d.segs[:0], 0
		d.pushBack(e)
		return
	}
	if d.head == 0 {
		d.segs = append(d.segs, seg{})
		copy(d.segs[1:], d.segs)
		d.segs[0] = seg{b: new(block)}
		d.head = blockLen
		if len(d.segs) >= 4 && d.sp != nil && d.segs[1].b != nil {
			d.sp.write(&d.segs[1])
		}
	}
	d.head--
	d.segs[0].b[d.head] = e
	d.n++
}

// load brings segment i back into memory. If the spill file cannot give it
// back, the segment's entries are lost: load drops them (the spill file
// counts them and keeps the error) and reports false.
func (d *deque) load(i int) bool {
	if d.segs[i].b != nil {
		return true
	}
	b, err := d.sp.read(d.segs[i].ref)
	if err == nil {
		d.segs[i] = seg{b: b}
		return true
	}
	// Every segment but the first and the last is full, and only those
	// between them are spilled.
	d.sp.fail(err, blockLen)
	d.segs = append(d.segs[:i], d.segs[i+1:]...)
	d.n -= blockLen
	return false
}

// popFront removes the first entry; ok is false if the queue turned out to
// be empty because a spilled block was lost.
func (d *deque) popFront() (e entry, ok bool) {
	for d.n > 0 && !d.load(0) {
	}
	if d.n == 0 {
		return entry{}, false
	}
	b := d.segs[0].b
	e = b[d.head]
	b[d.head] = entry{}
	d.head++
	d.n--
	if d.head == blockLen {
		d.segs[0] = seg{}
		d.segs = d.segs[1:]
		d.head = 0
	}
	if d.n == 0 {
		d.head = 0
	}
	return e, true
}

// popBack removes the last entry; ok is false if the queue turned out to be
// empty because a spilled block was lost.
func (d *deque) popBack() (e entry, ok bool) {
	for d.n > 0 && !d.load((d.head+d.n-1)/blockLen) {
	}
	if d.n == 0 {
		return entry{}, false
	}
	pos := d.head + d.n - 1
	b := d.segs[pos/blockLen].b
	e = b[pos%blockLen]
	b[pos%blockLen] = entry{}
	d.n--
	if pos%blockLen == 0 {
		d.segs[len(d.segs)-1] = seg{}
		d.segs = d.segs[:len(d.segs)-1]
	}
	if d.n == 0 {
		d.head = 0
		if len(d.segs) > 1 {
			clear(d.segs[1:])
			d.segs = d.segs[:1]
		}
	}
	return e, true
}

// ring is a double-ended queue of entries in one circular slice: a back
// queue. Back queues are many (about three per worker) and short, so they
// grow from a few entries and shrink again, instead of taking a whole block
// each.
type ring struct {
	buf  []entry
	head int
	n    int
}

// ringMin is the smallest buffer a ring allocates.
const ringMin = 4

func (r *ring) len() int { return r.n }

func (r *ring) at(i int) *entry { return &r.buf[(r.head+i)%len(r.buf)] }

// resize moves the entries to a new buffer of size c.
func (r *ring) resize(c int) {
	buf := make([]entry, c)
	for i := range r.n {
		buf[i] = *r.at(i)
	}
	r.buf, r.head = buf, 0
}

// grow makes room for one more entry, growing the buffer by half: back
// queues are many, and their slack is memory held for nothing.
func (r *ring) grow() {
	if r.n == len(r.buf) {
		r.resize(max(len(r.buf)+len(r.buf)/2, ringMin))
	}
}

// shrink cuts the buffer to half again its length when it is at most a
// third full.
func (r *ring) shrink() {
	if len(r.buf) > 2*ringMin && r.n <= len(r.buf)/3 {
		r.resize(max(r.n+r.n/2, ringMin))
	}
}

func (r *ring) pushBack(e entry) {
	r.grow()
	r.n++
	*r.at(r.n - 1) = e
}

func (r *ring) pushFront(e entry) {
	r.grow()
	r.head = (r.head + len(r.buf) - 1) % len(r.buf)
	r.n++
	r.buf[r.head] = e
}

func (r *ring) popFront() entry {
	p := &r.buf[r.head]
	e := *p
	*p = entry{}
	r.head = (r.head + 1) % len(r.buf)
	r.n--
	r.shrink()
	return e
}

func (r *ring) popBack() entry {
	p := r.at(r.n - 1)
	e := *p
	*p = entry{}
	r.n--
	r.shrink()
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
