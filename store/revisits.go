package store

import "time"

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
// index: the payload's digest (raw SHA-1), and the host (and port) of the
// URL, so that a host's payload is never recorded as a copy of another
// host's: a hostile host cannot make the archive of another site's page a
// pointer to its own record, whatever a reader of that record makes of
// its bytes (issue 32).
type revisitKey struct {
	sum  [20]byte
	host string
}

// revisitIndex maps revisit keys to the first response with each, remembering at most limit of them: when full, the digest
// remembered longest ago is forgotten for the new one (a later copy of
// its payload is then written in full, as a new first). An entry takes
// about 120 bytes beside the URL's (BenchmarkRevisitIndex). It is not
// safe for concurrent use: the WARC store's mutex guards it.
type revisitIndex struct {
	first map[revisitKey]revisitRef
	order []revisitKey // the keys in the order they were added, a ring once full
	next  int          // where the ring's oldest digest is
	limit int          // 0 or less: no bound
}

func newRevisitIndex(limit int) *revisitIndex {
	return &revisitIndex{first: make(map[revisitKey]revisitRef), limit: limit}
}

// firstOrAdd returns the first response with key's payload on key's host,
// or adds ref as that first and returns false.
func (x *revisitIndex) firstOrAdd(key revisitKey, ref revisitRef) (revisitRef, bool) {
	if first, ok := x.first[key]; ok {
		return first, true
	}
	x.first[key] = ref
	switch {
	case x.limit <= 0:
	case len(x.order) < x.limit:
		x.order = append(x.order, key)
	default:
		delete(x.first, x.order[x.next])
		x.order[x.next] = key
		x.next = (x.next + 1) % x.limit
	}
	return revisitRef{}, false
}
