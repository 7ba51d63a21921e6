package disk

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"time"

	"github.com/trawl-dev/trawl/frontier/internal/wire"
)

// Key space. Every key starts with one byte naming its table.
const (
	tabMeta    = 'm' // m                        → meta (sequence, strategy, front counts)
	tabSeenLog = 'l' // l seq(8)                 → fingerprints (8 bytes each): the seen set's log (seen.go)
	tabRuns    = 'r' // r                        → the seen set's run files (seen.go)
	tabFront   = 'f' // f level(1) order(8) seq(8) → entry: front queues
	tabBack    = 'b' // b host 0x00 order(8) seq(8) → entry: back queues, one per host
	tabNext    = 't' // t host                   → next contact, Unix nanoseconds
	tabBudget  = 'a' // a host                   → URLs accepted for host (MaxPerHost)
	tabRevisit = 'v' // v at(8) fp(8)           → entry: URLs waiting for their revisit time
	tabIndex   = 'i' // i fp(8)                  → the key of the URL's entry in a queue (Priority only: Boost)
	tabState   = 'c' // c name                   → a record of the crawler's state (SaveState)
	tabIndexed = 'j' // j                        → empty: tabIndex holds every queued URL (Priority)
)

var errCorrupt = errors.New("disk: corrupt record")

// entry is a queued request as stored.
type entry struct {
	url, host, referrer, anchor string
	state                       string // frontier.Request.State of a revisit (encoded only when it or data is set)
	data                        string // frontier.Request.Data (encoded last, only when set)
	prio                        float64
	depth, retries, redirects   int
	fp                          uint64
}

// encode appends the stored form of e to b: depth, retries and redirects
// (varints), priority (8 bytes), URL, host, referrer and anchor
// (length-prefixed), then, only when set, the state and the Data
// (length-prefixed; the state, empty or not, precedes a Data). Records
// written before Data existed end after the anchor or the state and
// decode as entries without Data; the format version (metaVersion) did
// not change.
func (e *entry) encode(b []byte) []byte {
	b = binary.AppendVarint(b, int64(e.depth))
	b = binary.AppendVarint(b, int64(e.retries))
	b = binary.AppendVarint(b, int64(e.redirects))
	b = binary.BigEndian.AppendUint64(b, math.Float64bits(e.prio))
	b = wire.AppendString(b, e.url)
	b = wire.AppendString(b, e.host)
	b = wire.AppendString(b, e.referrer)
	b = wire.AppendString(b, e.anchor)
	if e.state != "" || e.data != "" {
		b = wire.AppendString(b, e.state)
	}
	if e.data != "" {
		b = wire.AppendString(b, e.data)
	}
	return b
}

func decodeEntry(b []byte) (entry, error) {
	r := wire.NewReader(b)
	var e entry
	e.depth = int(r.Varint())
	e.retries = int(r.Varint())
	e.redirects = int(r.Varint())
	e.prio = math.Float64frombits(r.Uint64())
	e.url = r.String()
	e.host = r.String()
	e.referrer = r.String()
	e.anchor = r.String()
	if r.Len() > 0 {
		e.state = r.String()
	}
	if r.Len() > 0 {
		e.data = r.String()
	}
	if r.Bad() || r.Len() > 0 {
		return e, errCorrupt
	}
	return e, nil
}

func revisitKey(at time.Time, fp uint64) []byte {
	k := make([]byte, 17)
	k[0] = tabRevisit
	binary.BigEndian.PutUint64(k[1:], uint64(max(at.UnixNano(), 0)))
	binary.BigEndian.PutUint64(k[9:], fp)
	return k
}

// revisitTime returns the time of a revisit key.
func revisitTime(k []byte) (time.Time, bool) {
	if len(k) != 17 || k[0] != tabRevisit {
		return time.Time{}, false
	}
	return time.Unix(0, int64(binary.BigEndian.Uint64(k[1:]))), true
}

func indexKey(fp uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{tabIndex}, fp)
}

// seqOf returns the sequence number that ends a front or back queue key.
func seqOf(k []byte) uint64 {
	return binary.BigEndian.Uint64(k[len(k)-8:])
}

func frontKey(level int, order, seq uint64) []byte {
	k := make([]byte, 18)
	k[0] = tabFront
	k[1] = byte(level)
	binary.BigEndian.PutUint64(k[2:], order)
	binary.BigEndian.PutUint64(k[10:], seq)
	return k
}

func frontPrefix(level int) []byte { return []byte{tabFront, byte(level)} }

func backPrefix(host string) []byte {
	k := make([]byte, 0, len(host)+2)
	k = append(k, tabBack)
	k = append(k, host...)
	return append(k, 0)
}

func backKey(host string, order, seq uint64) []byte {
	return binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(backPrefix(host), order), seq)
}

// hostOfBackKey returns the host of a back-queue key.
func hostOfBackKey(k []byte) (string, bool) {
	if len(k) < 18 || k[0] != tabBack || k[len(k)-17] != 0 {
		return "", false
	}
	return string(k[1 : len(k)-17]), true
}

func hostKey(tab byte, host string) []byte {
	return append([]byte{tab}, host...)
}

// prefixEnd returns the smallest key greater than every key with prefix p.
func prefixEnd(p []byte) []byte {
	end := bytes.Clone(p)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}

// successor returns the smallest key greater than k.
func successor(k []byte) []byte {
	return append(bytes.Clone(k), 0)
}

// sortableFloat maps a float64 to a uint64 with the same order (NaN last).
func sortableFloat(f float64) uint64 {
	if f != f {
		return math.MaxUint64
	}
	b := math.Float64bits(f)
	if b>>63 != 0 {
		return ^b
	}
	return b | 1<<63
}

// meta is the part of the state that is not in the tables: the sequence
// counter and the front queue lengths, written with every batch that
// changes them.
type meta struct {
	version  byte
	strategy byte
	seq      uint64
	front    []int64
}

const metaVersion = 1

func (m *meta) encode() []byte {
	b := []byte{m.version, m.strategy, byte(len(m.front))}
	b = binary.BigEndian.AppendUint64(b, m.seq)
	for _, n := range m.front {
		b = binary.BigEndian.AppendUint64(b, uint64(n))
	}
	return b
}

func decodeMeta(b []byte) (meta, error) {
	if len(b) < 11 {
		return meta{}, errCorrupt
	}
	m := meta{version: b[0], strategy: b[1], seq: binary.BigEndian.Uint64(b[3:])}
	k := int(b[2])
	if len(b) != 11+8*k {
		return meta{}, errCorrupt
	}
	for i := range k {
		m.front = append(m.front, int64(binary.BigEndian.Uint64(b[11+8*i:])))
	}
	return m, nil
}
