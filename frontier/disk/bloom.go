package disk

import "math/bits"

// bloom is a Bloom filter over URL fingerprints, in front of the on-disk
// seen set: "no" is certain, "maybe" is checked on disk. It never forgets,
// so it never turns a seen URL into an unseen one; overfilled, it only says
// "maybe" more often.
type bloom struct {
	bits []uint64
	mask uint64 // len(bits)*64 - 1 (a power of two)
	k    int
}

// newBloom sizes a filter for n fingerprints at about 10 bits each (1% false
// "maybe" answers with 7 probes), rounded up to a power of two.
func newBloom(n int) *bloom {
	m := uint64(max(n, 1024)) * 10
	m = 1 << bits.Len64(m-1)
	return &bloom{bits: make([]uint64, m/64), mask: m - 1, k: 7}
}

// probes derives the probe positions from the fingerprint by double hashing.
func probe(fp uint64, i int) uint64 {
	h2 := (fp>>33 | fp<<31) ^ 0x9e3779b97f4a7c15
	return fp + uint64(i)*(h2|1)
}

func (b *bloom) add(fp uint64) {
	for i := range b.k {
		p := probe(fp, i) & b.mask
		b.bits[p>>6] |= 1 << (p & 63)
	}
}

func (b *bloom) mayContain(fp uint64) bool {
	for i := range b.k {
		p := probe(fp, i) & b.mask
		if b.bits[p>>6]&(1<<(p&63)) == 0 {
			return false
		}
	}
	return true
}
