package store

import (
	"encoding/binary"
	"hash/crc32"
	"math/bits"
	"slices"
)

// fastGzip writes a record as one gzip member whose deflate stream is a
// single block with the fixed Huffman codes of RFC 1951 (3.2.6) and matches
// found by a greedy hash lookup, or stored blocks when that would not be
// smaller. Against klauspost/compress's cheapest modes it trades some size
// for speed: a block with fixed codes needs no code tables built for it
// (what a dynamic block costs a 5 KB record is about half its compression
// time), and a record is its own member, so no table would be reused. See
// the package doc for the figures.
//
// It is used for records held in memory (up to bufferedRecord bytes); the
// streaming path keeps klauspost's writer.
type fastGzip struct {
	table [fgTableSize]int32 // hash of 4 bytes -> position + base
	base  int32              // added to positions, so that the table is never cleared
	out   []byte             // what member appends to
}

const (
	fgTableBits = 13
	fgTableSize = 1 << fgTableBits
	fgWindow    = 32 << 10
	fgMinMatch  = 4
	fgMaxMatch  = 258
)

// fixedLit[c] is the fixed code of literal/length symbol c, bit-reversed
// as it is written, and its length.
var fixedLit = func() (t [288]struct {
	code uint16
	n    uint8
}) {
	for c := range 288 {
		var code, n int
		switch {
		case c < 144:
			code, n = 0x30+c, 8
		case c < 256:
			code, n = 0x190+c-144, 9
		case c < 280:
			code, n = c-256, 7
		default:
			code, n = 0xc0+c-280, 8
		}
		t[c].code = bits.Reverse16(uint16(code)) >> (16 - n)
		t[c].n = uint8(n)
	}
	return t
}()

// fixedLen[l-3] is the code of match length l with its extra bits, as
// written, and their number.
var fixedLen = func() (t [fgMaxMatch - 2]struct {
	bits uint32
	n    uint8
}) {
	base := [...]int{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	extra := [...]int{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	for l := 3; l <= fgMaxMatch; l++ {
		i := len(base) - 1
		for base[i] > l {
			i--
		}
		sym := fixedLit[257+i]
		t[l-3].bits = uint32(sym.code) | uint32(l-base[i])<<sym.n
		t[l-3].n = sym.n + uint8(extra[i])
	}
	return t
}()

// fixedDist[c] is the fixed code of distance d-1 (d from 1 to 256) with
// its extra bits, as written, and their number; fixedDist[256+(d-1)>>7]
// holds the code (only) of larger distances, whose extra bits are the low
// bits of d-1.
var fixedDist = func() (t [512]struct {
	bits uint32
	n    uint8
}) {
	code := func(d int) (uint32, uint8) { // d is the distance - 1
		if d < 4 {
			return uint32(bits.Reverse8(uint8(d)) >> 3), 0
		}
		l := bits.Len32(uint32(d)) - 1 // the top bit
		nb := l - 1
		return uint32(bits.Reverse8(uint8(2*l+(d>>nb)&1)) >> 3), uint8(nb)
	}
	for d := range 256 {
		c, nb := code(d)
		t[d].bits, t[d].n = c|uint32(d&(1<<nb-1))<<5, 5+nb
	}
	for i := 2; i < 256; i++ {
		c, nb := code(i << 7)
		t[256+i].bits, t[256+i].n = c, 5+nb
	}
	return t
}()

// gzipHeader is a gzip member's header as klauspost's writer writes it with
// no name and no time: deflate, no flags, OS unknown.
var gzipHeader = []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255}

// member appends to dst the gzip member holding p.
func (z *fastGzip) member(dst, p []byte) []byte {
	dst = append(dst, gzipHeader...)
	start := len(dst)
	z.out = dst
	if len(p) >= 64 {
		z.deflate(p)
	}
	dst = z.out
	// A stored copy is 5 bytes per 64 KiB more than p: use it when the
	// fixed block was not smaller.
	if stored := len(p) + 5*(len(p)/65535+1); len(p) < 64 || len(dst)-start >= stored {
		dst = appendStored(dst[:start], p)
	}
	return binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(dst, crc32.ChecksumIEEE(p)), uint32(len(p)))
}

// appendStored appends p as stored blocks, the last one final.
func appendStored(dst, p []byte) []byte {
	for {
		n := min(len(p), 65535)
		final := byte(0)
		if n == len(p) {
			final = 1
		}
		dst = append(dst, final, byte(n), byte(n>>8), ^byte(n), ^byte(n>>8))
		dst = append(dst, p[:n]...)
		p = p[n:]
		if final == 1 {
			return dst
		}
	}
}

// deflate appends p (64 bytes or more) to z.out as one final block with
// fixed codes.
func (z *fastGzip) deflate(p []byte) {
	if z.base > 1<<30 {
		z.table, z.base = [fgTableSize]int32{}, 0
	}
	base := z.base + fgWindow + 1 // every entry of earlier calls is out of the window
	z.base = base + int32(len(p))
	out := slices.Grow(z.out, len(p)+len(p)/8+16)
	acc, nacc := uint64(0b011), uint(3) // final, fixed codes
	// flush moves whole 32-bit words of acc to out; acc then holds under
	// 32 bits, room for any code with its extra bits (18 at most).
	flush := func() {
		if nacc >= 32 {
			out = binary.LittleEndian.AppendUint32(out, uint32(acc))
			acc >>= 32
			nacc -= 32
		}
	}
	table := &z.table
	end := len(p) - 8 // matches are compared 8 bytes at a time
	lit := 0          // p[lit:i] are literals not yet written
	for i, skip := 0, 32; i <= end; {
		v := binary.LittleEndian.Uint32(p[i:])
		h := v * 0x1e35a7bd >> (32 - fgTableBits)
		cand := int(table[h] - base)
		table[h] = int32(i) + base
		if cand < 0 || i-cand > fgWindow || binary.LittleEndian.Uint32(p[cand:]) != v {
			i += skip >> 5 // a step that grows while nothing matches, up to 16
			skip = min(skip+1, 16<<5)
			continue
		}
		skip = 32
		// The match's length, longer than a code can say: it is written
		// as several matches at the same distance.
		n := fgMinMatch
		for lim := len(p) - i; ; {
			if n+8 > lim {
				for n < lim && p[cand+n] == p[i+n] {
					n++
				}
				break
			}
			x := binary.LittleEndian.Uint64(p[cand+n:]) ^ binary.LittleEndian.Uint64(p[i+n:])
			if x != 0 {
				n += bits.TrailingZeros64(x) >> 3
				break
			}
			n += 8
		}
		for ; lit < i; lit++ {
			c := fixedLit[p[lit]]
			acc |= uint64(c.code) << nacc
			nacc += uint(c.n)
			flush()
		}
		d := i - cand - 1
		dist := fixedDist[256+d>>7]
		dist.bits |= uint32(d&(1<<(dist.n-5)-1)) << 5
		if d < 256 {
			dist = fixedDist[d]
		}
		i += n
		lit = i
		for n > 0 {
			m := min(n, fgMaxMatch)
			if r := n - m; r > 0 && r < 3 {
				m = n - 3 // what is left must be a match too
			}
			n -= m
			l := fixedLen[m-3]
			acc |= uint64(l.bits) << nacc
			nacc += uint(l.n)
			flush()
			acc |= uint64(dist.bits) << nacc
			nacc += uint(dist.n)
			flush()
		}
	}
	for ; lit < len(p); lit++ {
		c := fixedLit[p[lit]]
		acc |= uint64(c.code) << nacc
		nacc += uint(c.n)
		flush()
	}
	acc |= uint64(fixedLit[256].code) << nacc
	nacc += uint(fixedLit[256].n)
	for nacc > 0 {
		out = append(out, byte(acc))
		acc >>= 8
		nacc -= min(nacc, 8)
	}
	z.out = out
}
