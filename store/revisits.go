package store

import (
	"crypto/sha256"
	"time"
)

// revisitRef is what a revisit record says of the first response with its
// payload: that record's ID, its target URI and its date.
type revisitRef struct {
	id   [16]byte // the UUID of its WARC-Record-ID
	date int64    // Unix nanoseconds, UTC
	uri  string
}

func (r *revisitRef) recordID() string {
	id := r.id
	return uuidURN(&id)
}

func (r *revisitRef) when() time.Time { return time.Unix(0, r.date).UTC() }

// revisitKey is what makes two responses one payload for the revisit
// index: the SHA-256 (its first 20 bytes) of the payload's digest (raw
// SHA-1) and the host (and port) of the URL, so that a host's payload is
// never recorded as a copy of another host's: a hostile host cannot make
// the archive of another site's page a pointer to its own record, whatever
// a reader of that record makes of its bytes (issue 32). Hashing the two
// keeps an entry of the index the size it was with the digest alone
// (BenchmarkRevisitIndex: 182 bytes with a 60-byte URL, against 226 with
// the host beside the digest).
func revisitKey(sum [20]byte, host string) [20]byte {
	var b [20 + 256]byte
	in := append(append(b[:0], sum[:]...), host...)
	k := sha256.Sum256(in)
	return [20]byte(k[:20])
}

// revisitIndex maps revisit keys (see revisitKey) to the first response
// with each, remembering at most limit of them: when full, the digest
// remembered longest ago is forgotten for the new one (a later copy of
// its payload is then written in full, as a new first). An entry takes
// about 120 bytes beside the URL's (BenchmarkRevisitIndex). It is not
// safe for concurrent use: the WARC store's mutex guards it.
type revisitIndex struct {
	first map[[20]byte]revisitRef
	order [][20]byte // the digests in the order they were added, a ring once full
	next  int        // where the ring's oldest digest is
	limit int        // 0 or less: no bound
}

func newRevisitIndex(limit int) *revisitIndex {
	return &revisitIndex{first: make(map[[20]byte]revisitRef), limit: limit}
}

// firstOrAdd returns the first response with key (see revisitKey), or
// adds ref as that first and returns false.
func (x *revisitIndex) firstOrAdd(sum [20]byte, ref revisitRef) (revisitRef, bool) {
	if first, ok := x.first[sum]; ok {
		return first, true
	}
	x.first[sum] = ref
	switch {
	case x.limit <= 0:
	case len(x.order) < x.limit:
		x.order = append(x.order, sum)
	default:
		delete(x.first, x.order[x.next])
		x.order[x.next] = sum
		x.next = (x.next + 1) % x.limit
	}
	return revisitRef{}, false
}
