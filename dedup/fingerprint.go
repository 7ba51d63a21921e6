package dedup

import (
	"math/bits"

	"github.com/cespare/xxhash/v2"
)

// Fingerprint is a 64-bit fingerprint of a URL or a text. Every Fingerprint
// this package computes is stable: the same input gives the same value in every
// process, on every platform and in every release of this module, so
// fingerprints may be persisted and shared between machines.
type Fingerprint uint64

// Distance returns the Hamming distance between a and b: the number of bit
// positions in which they differ, from 0 to 64.
func Distance(a, b Fingerprint) int {
	return bits.OnesCount64(uint64(a ^ b))
}

// URLFingerprint returns the fingerprint of a URL, which should already be
// normalized (see package urlnorm). It is exactly
// xxhash.Sum64String(rawURL) from github.com/cespare/xxhash/v2 (XXH64 with
// seed 0), the function the frontier's seen set uses; this is part of the
// package's stability promise.
func URLFingerprint(rawURL string) Fingerprint {
	return Fingerprint(xxhash.Sum64String(rawURL))
}

// ContentFingerprint returns the exact-content fingerprint of text: the
// XXH64 hash (seed 0) of NormalizeText(text). Texts that differ only in
// whitespace and letter case get the same fingerprint. It does not
// allocate.
func ContentFingerprint(text string) Fingerprint {
	return Fingerprint(hashNormalized(text))
}

// NormalizeText returns the text that ContentFingerprint hashes: every rune
// case-folded (simple folding, so "É" and "é", "Σ" and "ς" agree), every run
// of white space (unicode.IsSpace) replaced by one ASCII space, and leading
// and trailing white space removed. Invalid UTF-8 bytes become U+FFFD.
func NormalizeText(text string) string {
	return string(appendNormalized(nil, text))
}
