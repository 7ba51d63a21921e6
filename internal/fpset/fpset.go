// Package fpset is a set of 64-bit fingerprints (uniform hashes) in about
// 13 bytes each: open addressing with linear probing in one []uint64, 0
// marking an empty slot. The frontier's seen set (every URL accepted) and
// the crawler's record of page texts (the trap rule for repeated pages)
// are such sets; a map[uint64]struct{} takes 24 to 38 bytes per entry.
//
// A slot is chosen by Lemire's multiply-shift range reduction of the
// fingerprint, which lets the table grow by 1.5× rather than 2×: it costs
// 8 bytes per slot at a load between 0.5 and 0.75, about 13 bytes per
// fingerprint on average (BenchmarkSet reports bytes/fp for both: 11.6
// against 32.1 for 147,332 fingerprints, 13.2 against 24.5 for 193,345).
//
// # Concurrency
//
// A Set is not safe for concurrent use; its users hold their own lock.
package fpset

import "math/bits"

// Set is a set of uint64 fingerprints. The zero Set is empty and ready to
// use.
type Set struct {
	slots   []uint64
	n       int
	hasZero bool
}

// Len returns the number of fingerprints in the set.
func (s *Set) Len() int {
	if s.hasZero {
		return s.n + 1
	}
	return s.n
}

// Contains reports whether fp is in the set.
func (s *Set) Contains(fp uint64) bool {
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

// Add inserts fp and reports whether it was absent.
func (s *Set) Add(fp uint64) bool {
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

// Bytes returns the memory the set holds: its table, 8 bytes a slot.
func (s *Set) Bytes() int { return 8 * cap(s.slots) }

func (s *Set) home(fp uint64) int {
	// The odd multiplier spreads fingerprints that are not uniform (in
	// tests, small integers) over the high bits used below.
	hi, _ := bits.Mul64(fp*0x9e3779b97f4a7c15, uint64(len(s.slots)))
	return int(hi)
}

func (s *Set) grow() {
	old := s.slots
	s.slots = make([]uint64, max(64, len(old)+len(old)/2))
	s.n = 0
	for _, fp := range old {
		if fp != 0 {
			s.Add(fp)
		}
	}
}
