package recrawl

import (
	"encoding/binary"
	"errors"
	"math"
	"time"
	"unsafe"
)

// Window is how many of a page's most recent revisits its History keeps
// for the estimators: enough for the ±20 % accuracy the package promises
// after 20 visits, and a bound on memory (4 bytes per revisit). Older
// revisits are forgotten, so an estimate follows a page whose rate drifts.
const Window = 32

// obsUnit is the resolution of the intervals a History holds: a
// sixteenth of a second, fine enough for a host that allows ten fetches a
// second.
const obsUnit = time.Second / 16

// maxObs is the longest interval an observation stores, in obsUnit (2³¹
// − 1 of them, 4.2 years); longer ones are clamped.
const maxObs = 1<<31 - 1

// History is what a continuous crawl remembers about one page: its visits,
// the changes they saw, its validators and its current change-rate
// estimate. Policy.Func receives it. The zero History is a page never
// visited. A History is a value owned by one goroutine at a time; the
// Planner updates it in Visit.
type History struct {
	First, Last  time.Time // first and latest visit
	Visits       int       // visits that got an answer (200 or 304)
	Changes      int       // revisits that found the page changed
	NotModified  int       // revisits answered 304
	ETag         string    // validators of the latest copy, for conditional GET
	LastModified time.Time
	Text         uint64 // exact fingerprint of the latest copy's text (dedup.ContentFingerprint)
	Simhash      uint64 // its simhash (dedup.Simhash)
	// Rate is the current estimate of the page's change rate, per second:
	// the mean of its posterior, the prior included (see the package
	// doc).
	Rate float64
	// Prior is the rate the page's directory, host or sitemap suggested
	// when it was first visited, per second; 0 if none.
	Prior float64

	obs   [Window]uint32 // revisits, oldest first from head: interval in seconds << 1 | changed
	nobs  uint8          // observations held
	head  uint8          // index of the oldest
	lm    lmState
	lmN   uint32  // visits that saw a change, with honest Last-Modified
	lmExp float64 // seconds observed without change (Last-Modified estimator)

	planned uint32 // the interval planned at the latest visit, milliseconds
	quick   bool   // planned is a quick revisit (a probe), counted in the host's load
	sitemap bool   // Prior came from the page's sitemap entry

	counted float32 // the rate it is counted with there
	bucket  uint8   // the planner bucket the page is counted in, 0 for none
	owner   uint32  // the planner that counted it
}

// plannedRate is 1/planned, in revisits per second.
func (h *History) plannedRate() float64 { return 1000 / float64(h.planned) }

// lmState says whether a page's Last-Modified dates have been consistent
// with what its content did.
type lmState uint8

const (
	lmUnknown lmState = iota
	lmHonest
	lmDishonest
)

// Observations returns the revisits the History holds, oldest first (at
// most Window).
func (h *History) Observations() []Observation {
	out := make([]Observation, 0, h.nobs)
	for i := range int(h.nobs) {
		v := h.obs[(int(h.head)+i)%Window]
		out = append(out, Observation{Interval: time.Duration(v>>1) * obsUnit, Changed: v&1 == 1})
	}
	return out
}

// HonestLastModified reports whether the page's Last-Modified dates have
// agreed with its content at every revisit so far (and there was one).
func (h *History) HonestLastModified() bool { return h.lm == lmHonest }

// observe appends a revisit to the window.
func (h *History) observe(interval time.Duration, changed bool) {
	s := int64(interval / obsUnit)
	if interval > 0 && s == 0 {
		s = 1 // shorter revisits still count as an interval
	}
	v := uint32(min(max(s, 0), maxObs)) << 1
	if changed {
		v |= 1
	}
	if int(h.nobs) < Window {
		h.obs[(int(h.head)+int(h.nobs))%Window] = v
		h.nobs++
		return
	}
	h.obs[h.head] = v
	h.head = uint8((int(h.head) + 1) % Window)
}

// estimate returns the change rate the visit history alone gives, and how
// many visits' worth of evidence it rests on.
func (h *History) estimate() (rate float64, n int) {
	if h.lm == lmHonest && h.lmExp > 0 {
		// Honest dates say when each change happened: the better estimate.
		if h.lmN == 0 {
			return 0.5 / h.lmExp, int(h.nobs)
		}
		return EstimateLastModified(int(h.lmN), time.Duration(h.lmExp*float64(time.Second))), int(h.nobs)
	}
	obs := h.Observations()
	r := EstimateIrregular(obs)
	if r == 0 && len(obs) > 0 {
		// No change seen: the estimators say 0, which no schedule should
		// believe after a few visits. Half a change in the time observed
		// (the posterior mean under Jeffreys' prior) falls as the page
		// stays unchanged, and keeps it in the plan meanwhile.
		var t time.Duration
		for _, o := range obs {
			t += o.Interval
		}
		if t > 0 {
			r = 0.5 / t.Seconds()
		}
	}
	return r, len(obs)
}

// MarshalBinary encodes the History (for a persistent frontier); about 30
// bytes plus the validators and 1 to 5 bytes per held revisit.
func (h *History) MarshalBinary() ([]byte, error) {
	return h.AppendBinary(nil)
}

// historyVersion is the first byte of an encoded History. Version 1 held
// the intervals in seconds, 2 the planned one in milliseconds and the
// observed ones in obsUnit.
const historyVersion = 2

// AppendBinary appends the encoding of h to b.
func (h *History) AppendBinary(b []byte) ([]byte, error) {
	b = append(b, historyVersion)
	b = binary.AppendVarint(b, unixOrZero(h.First))
	b = binary.AppendVarint(b, unixOrZero(h.Last))
	b = binary.AppendUvarint(b, uint64(h.Visits))
	b = binary.AppendUvarint(b, uint64(h.Changes))
	b = binary.AppendUvarint(b, uint64(h.NotModified))
	b = binary.AppendUvarint(b, uint64(len(h.ETag)))
	b = append(b, h.ETag...)
	b = binary.AppendVarint(b, unixOrZero(h.LastModified))
	b = binary.LittleEndian.AppendUint64(b, h.Text)
	b = binary.LittleEndian.AppendUint64(b, h.Simhash)
	b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(h.Rate)))
	b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(h.Prior)))
	flags := byte(h.lm)
	if h.quick {
		flags |= 0x80
	}
	if h.sitemap {
		flags |= 0x40
	}
	b = append(b, flags, h.bucket)
	b = binary.LittleEndian.AppendUint32(b, h.owner)
	b = binary.LittleEndian.AppendUint32(b, math.Float32bits(h.counted))
	b = binary.AppendUvarint(b, uint64(h.planned))
	b = binary.AppendUvarint(b, uint64(h.lmN))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(h.lmExp))
	b = append(b, h.nobs)
	for i := range int(h.nobs) {
		b = binary.AppendUvarint(b, uint64(h.obs[(int(h.head)+i)%Window]))
	}
	return b, nil
}

func unixOrZero(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.Unix()
}

func timeOrZero(s int64) time.Time {
	if s == 0 {
		return time.Time{}
	}
	return time.Unix(s, 0)
}

// errCorrupt is returned for an encoding that cannot be decoded.
var errCorrupt = errors.New("recrawl: corrupt history encoding")

// UnmarshalBinary decodes a History encoded by MarshalBinary. Times come
// back with one-second precision.
func (h *History) UnmarshalBinary(b []byte) error {
	d := decoder{b: b}
	version := d.byte()
	if version != historyVersion && version != 1 {
		return errCorrupt
	}
	var out History
	out.First = timeOrZero(d.varint())
	out.Last = timeOrZero(d.varint())
	out.Visits = int(d.uvarint())
	out.Changes = int(d.uvarint())
	out.NotModified = int(d.uvarint())
	out.ETag = string(d.bytes(int(d.uvarint())))
	out.LastModified = timeOrZero(d.varint())
	out.Text = d.u64()
	out.Simhash = d.u64()
	out.Rate = float64(math.Float32frombits(d.u32()))
	out.Prior = float64(math.Float32frombits(d.u32()))
	flags := d.byte()
	out.lm, out.quick, out.sitemap = lmState(flags&0x3f), flags&0x80 != 0, flags&0x40 != 0
	out.bucket = d.byte()
	out.owner = d.u32()
	out.counted = math.Float32frombits(d.u32())
	out.planned = uint32(min(d.uvarint(), math.MaxUint32))
	if version == 1 {
		out.planned = uint32(min(uint64(out.planned)*1000, math.MaxUint32))
	}
	out.lmN = uint32(d.uvarint())
	out.lmExp = math.Float64frombits(d.u64())
	n := int(d.byte())
	if n > Window || out.lm > lmDishonest {
		return errCorrupt
	}
	for i := range n {
		v := d.uvarint()
		if v > math.MaxUint32 {
			return errCorrupt
		}
		if version == 1 && v>>1 > 0 {
			v = min(v>>1*uint64(time.Second/obsUnit), maxObs)<<1 | v&1
		}
		out.obs[i] = uint32(v)
	}
	out.nobs = uint8(n)
	if d.err || len(d.b) != 0 {
		return errCorrupt
	}
	*h = out
	return nil
}

// decoder reads an encoding, remembering the first error.
type decoder struct {
	b   []byte
	err bool
}

func (d *decoder) byte() byte {
	if len(d.b) < 1 {
		d.err = true
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) bytes(n int) []byte {
	if n < 0 || len(d.b) < n {
		d.err = true
		return nil
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.err = true
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = true
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) u64() uint64 {
	b := d.bytes(8)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint64(b)
}

func (d *decoder) u32() uint32 {
	b := d.bytes(4)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint32(b)
}

// sizeofHistory is the in-memory size of a History without its ETag's
// bytes.
func sizeofHistory() int { return int(unsafe.Sizeof(History{})) }
