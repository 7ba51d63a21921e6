package frontier

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"os"

	"github.com/trawl-dev/trawl/frontier/internal/wire"
)

// spill is the file that holds the middle of the front queues when
// MemoryOptions.SpillDir is set, as Mercator kept its queues on disk with
// buffers at both ends. Each spilled block is encoded (see encodeBlock) into
// a slot of whole 4 KiB pages; a slot read back is free for the next block
// of its size, so the file stays near the largest amount spilled at once
// (blocks of similar URLs take slots of the same size). The file is
// created on the first spill and removed at once where the system allows
// (it lives on, unnamed, until closed), else by Close.
//
// All methods are called under Memory.mu.
type spill struct {
	dir   string
	hosts *[]*hostInfo // Memory.hostList: entries name their host by index

	f    *os.File
	name string    // path still to remove at close, if any
	end  int64     // file size: where a new slot goes
	free [][]int64 // free slot offsets by size class

	buf []byte // encoding scratch

	spilled int   // entries in the file now
	lost    int   // entries lost to read errors, not yet taken by Memory
	err     error // first read error: the frontier lost entries
	wErr    error // first write error: spilling stopped
	closed  bool
}

// spillRef locates a spilled block.
type spillRef struct {
	off  int64
	size int32 // encoded bytes
}

// spillPage is the unit of slot sizes: an encoded block of 128 entries
// with short URLs takes about 9 KiB, a 12 KiB slot.
const spillPage = 4096

// class returns the size class of an encoded block of n bytes (its slot is
// class+1 pages) and its slot size.
func class(n int) (int, int64) {
	pages := max((n+spillPage-1)/spillPage, 1)
	return pages - 1, int64(pages) * spillPage
}

// write encodes s's block into the file and replaces it there by a
// reference. If the file cannot be created or written, spilling stops for
// good (the error is kept for Memory.SpillStats) and the block stays in
// memory.
func (sp *spill) write(s *seg) {
	if sp.wErr != nil || sp.closed {
		return
	}
	if sp.f == nil {
		f, err := os.CreateTemp(sp.dir, "trawl-frontier-*.spill")
		if err != nil {
			sp.wErr = fmt.Errorf("frontier: spill: %w", err)
			return
		}
		sp.f, sp.name = f, f.Name()
		if os.Remove(sp.name) == nil {
			sp.name = ""
		}
	}
	sp.buf = encodeBlock(sp.buf[:0], s.b)
	c, size := class(len(sp.buf))
	for len(sp.free) <= c {
		sp.free = append(sp.free, nil)
	}
	var off int64
	if n := len(sp.free[c]); n > 0 {
		off = sp.free[c][n-1]
		sp.free[c] = sp.free[c][:n-1]
	} else {
		off = sp.end
		sp.end += size
	}
	if _, err := sp.f.WriteAt(sp.buf, off); err != nil {
		sp.free[c] = append(sp.free[c], off)
		sp.wErr = fmt.Errorf("frontier: spill: %w", err)
		return
	}
	*s = seg{ref: spillRef{off: off, size: int32(len(sp.buf))}}
	sp.spilled += blockLen
}

// read returns the block at ref and frees its slot.
func (sp *spill) read(ref spillRef) (*block, error) {
	if sp.closed {
		return nil, errors.New("frontier: spill: read after Close")
	}
	if cap(sp.buf) < int(ref.size) {
		sp.buf = make([]byte, ref.size)
	}
	buf := sp.buf[:ref.size]
	if _, err := sp.f.ReadAt(buf, ref.off); err != nil {
		return nil, fmt.Errorf("frontier: spill: read %d bytes at %d: %w", ref.size, ref.off, err)
	}
	b, err := decodeBlock(buf, *sp.hosts)
	if err != nil {
		return nil, fmt.Errorf("frontier: spill: block at %d: %w", ref.off, err)
	}
	c, _ := class(int(ref.size))
	sp.free[c] = append(sp.free[c], ref.off)
	sp.spilled -= blockLen
	return b, nil
}

// fail records that n spilled entries could not be read back.
func (sp *spill) fail(err error, n int) {
	if sp.err == nil {
		sp.err = err
	}
	sp.spilled -= n
	sp.lost += n
}

// takeLost returns the entries lost since the last call.
func (sp *spill) takeLost() int {
	n := sp.lost
	sp.lost = 0
	return n
}

// close closes and, if still named, removes the file.
func (sp *spill) close() error {
	if sp.closed {
		return nil
	}
	sp.closed = true
	if sp.f == nil {
		return nil
	}
	err := sp.f.Close()
	if sp.name != "" {
		if rerr := os.Remove(sp.name); err == nil {
			err = rerr
		}
	}
	return err
}

// Entry flags in the spill encoding.
const (
	flagPrio     = 1 << iota // priority follows (else 0)
	flagRetries              // retries and redirects follow (else 0, 0)
	flagReferrer             // a new referrer follows (else the previous entry's)
)

// encodeBlock appends the encoding of a full block to dst (package wire's
// conventions): a CRC-32C of the rest, then per entry a flag byte, the
// fingerprint (8 bytes), the host's index, the depth (varints), the
// priority (8 bytes, if not 0), the retries and redirects (if not 0), the
// data and, when it differs from the previous entry's, the referrer
// (length-prefixed). Links of one page are queued together, so most
// entries share their neighbour's referrer and store it once.
func encodeBlock(dst []byte, b *block) []byte {
	dst = append(dst, 0, 0, 0, 0)
	var prev string
	for i := range b {
		e := &b[i]
		var flags byte
		if e.prio != 0 {
			flags |= flagPrio
		}
		if e.retries != 0 || e.redirects != 0 {
			flags |= flagRetries
		}
		if i == 0 || e.referrer != prev {
			flags |= flagReferrer
		}
		dst = append(dst, flags)
		dst = binary.BigEndian.AppendUint64(dst, e.fp)
		dst = binary.AppendUvarint(dst, uint64(e.host.id))
		dst = binary.AppendVarint(dst, int64(e.depth))
		if flags&flagPrio != 0 {
			dst = binary.BigEndian.AppendUint64(dst, math.Float64bits(e.prio))
		}
		if flags&flagRetries != 0 {
			dst = binary.AppendUvarint(dst, uint64(e.retries))
			dst = binary.AppendUvarint(dst, uint64(e.redirects))
		}
		dst = wire.AppendString(dst, e.data)
		if flags&flagReferrer != 0 {
			dst = wire.AppendString(dst, e.referrer)
			prev = e.referrer
		}
	}
	binary.BigEndian.PutUint32(dst, crc32.Checksum(dst[4:], castagnoli))
	return dst
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

var errCorrupt = errors.New("corrupt block")

// decodeBlock decodes a block encoded by encodeBlock. Entries with the same
// referrer share one string again.
func decodeBlock(src []byte, hosts []*hostInfo) (*block, error) {
	if len(src) < 4 || binary.BigEndian.Uint32(src) != crc32.Checksum(src[4:], castagnoli) {
		return nil, errCorrupt
	}
	r := wire.NewReader(src[4:])
	b := new(block)
	var referrer string
	for i := range b {
		e := &b[i]
		flags := r.Byte()
		e.fp = r.Uint64()
		id := r.Uvarint()
		if id >= uint64(len(hosts)) {
			return nil, errCorrupt
		}
		e.host = hosts[id]
		e.depth = int32(r.Varint())
		if flags&flagPrio != 0 {
			e.prio = math.Float64frombits(r.Uint64())
		}
		if flags&flagRetries != 0 {
			e.retries = int16(r.Uvarint())
			e.redirects = int16(r.Uvarint())
		}
		e.data = r.String()
		if flags&flagReferrer != 0 {
			referrer = r.String()
		}
		e.referrer = referrer
	}
	if r.Bad() || r.Len() != 0 {
		return nil, errCorrupt
	}
	return b, nil
}
