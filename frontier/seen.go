package frontier

import "math/bits"

// fpSet is a set of 64-bit fingerprints: open addressing with linear
// probing in one []uint64, 0 marking an empty slot. Fingerprints are
// uniform hashes, so a slot is chosen by Lemire's multiply-shift range
// reduction, which lets the table grow by 1.5× rather than 2×: it
// costs 8 bytes per slot at a load between 0.5 and 0.75, about 13 bytes per
// fingerprint, a third of a map[uint64]struct{}.
type fpSet struct {
	slots   []uint64
	n       int
	hasZero bool
}

func (s *fpSet) len() int {
	if s.hasZero {
		return s.n + 1
	}
	return s.n
}

func (s *fpSet) contains(fp uint64) bool {
	if fp == 0 {
		return s.hasZero
	}
	if len(s.slots) == 0 {
		return false
	}
	for i := s.home(fp); ; i++ {
		if i == len(s.slots) {
			i = 0
		}
		switch s.slots[i] {
		case fp:
			return true
		case 0:
			return false
		}
	}
}

// add inserts fp and reports whether it was absent.
func (s *fpSet) add(fp uint64) bool {
	if fp == 0 {
		added := !s.hasZero
		s.hasZero = true
		return added
	}
	if 4*(s.n+1) > 3*len(s.slots) {
		s.grow()
	}
	for i := s.home(fp); ; i++ {
		if i == len(s.slots) {
			i = 0
		}
		switch s.slots[i] {
		case fp:
			return false
		case 0:
			s.slots[i] = fp
			s.n++
			return true
		}
	}
}

func (s *fpSet) home(fp uint64) int {
	// The odd multiplier spreads fingerprints that are not uniform (in
	// tests, small integers) over the high bits used below.
	hi, _ := bits.Mul64(fp*0x9e3779b97f4a7c15, uint64(len(s.slots)))
	return int(hi)
}

func (s *fpSet) grow() {
	old := s.slots
	s.slots = make([]uint64, max(64, len(old)+len(old)/2))
	s.n = 0
	for _, fp := range old {
		if fp != 0 {
			s.add(fp)
		}
	}
}
