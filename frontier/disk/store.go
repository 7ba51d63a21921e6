package disk

import (
	"bytes"
	"math/rand/v2"

	bolt "go.etcd.io/bbolt"
)

// The store under a Frontier is one bbolt bucket (bucketName) holding the
// key space of codec.go, with a write buffer in front of it: changes go to
// a memtable, which readers see at once, and a flush commits the memtable
// in one bbolt transaction (fsynced). Reads look at the memtable being
// filled, then at the one being committed, then at bbolt. See "Durability"
// in the package documentation for when a flush happens.

// bucketName is the bbolt bucket that holds the frontier.
var bucketName = []byte("trawl-frontier")

// memtable is a sorted map of pending changes (a skip list): a set or a
// delete per key, the latest winning. It is not safe for concurrent use;
// the Frontier's mutex guards the one being filled, and the one being
// committed is not changed.
type memtable struct {
	head  mnode
	level int
	n     int      // keys
	size  int      // approximate bytes held, for the flush bound
	fps   []uint64 // fingerprints of the URLs accepted (the seen set's, kept apart: seen.go)
}

type mnode struct {
	key, val []byte
	del      bool
	next     []*mnode
	tower    [2]*mnode // next's array when the node has at most 2 levels (15 in 16 do)
}

const (
	maxLevel = 24
	// nodeOverhead approximates a node's memory beyond its key and value:
	// the node, its slice headers and about 1.33 next pointers.
	nodeOverhead = 96
)

func newMemtable() *memtable {
	return &memtable{head: mnode{next: make([]*mnode, maxLevel)}, level: 1}
}

// seek returns the first node whose key is at least key, filling prev
// (when not nil) with the last node before it at each level.
func (m *memtable) seek(key []byte, prev *[maxLevel]*mnode) *mnode {
	x := &m.head
	for l := m.level - 1; l >= 0; l-- {
		for x.next[l] != nil && bytes.Compare(x.next[l].key, key) < 0 {
			x = x.next[l]
		}
		if prev != nil {
			prev[l] = x
		}
	}
	return x.next[0]
}

// put records a set (del false) or a delete of key. It keeps key and val.
func (m *memtable) put(key, val []byte, del bool) {
	var prev [maxLevel]*mnode
	if n := m.seek(key, &prev); n != nil && bytes.Equal(n.key, key) {
		m.size += len(val) - len(n.val)
		n.val, n.del = val, del
		return
	}
	lvl := 1
	for lvl < maxLevel && rand.Uint32()&3 == 0 {
		lvl++
	}
	if lvl > m.level {
		for l := m.level; l < lvl; l++ {
			prev[l] = &m.head
		}
		m.level = lvl
	}
	n := &mnode{key: key, val: val, del: del}
	if lvl <= len(n.tower) {
		n.next = n.tower[:lvl]
	} else {
		n.next = make([]*mnode, lvl)
	}
	for l := range lvl {
		n.next[l] = prev[l].next[l]
		prev[l].next[l] = n
	}
	m.n++
	m.size += len(key) + len(val) + nodeOverhead
}

// batch collects the changes of one operation, applied to the memtable
// together (so that a flush never holds half an operation) or not at all.
type batch struct {
	ops  []op
	fps  []uint64 // fingerprints the seen set gains
	slab []byte   // copies of the keys and values, carved from few allocations
}

type op struct {
	key, val []byte
	del      bool
}

// Set records key → val; it copies both.
func (b *batch) Set(key, val []byte) {
	b.ops = append(b.ops, op{key: b.copy(key), val: b.copy(val)})
}

// Delete records the deletion of key; it copies key.
func (b *batch) Delete(key []byte) {
	b.ops = append(b.ops, op{key: b.copy(key), del: true})
}

// copy returns a copy of p in b's slab.
// Copies share the slab's arrays, which are never written again.
func (b *batch) copy(p []byte) []byte {
	if cap(b.slab)-len(b.slab) < len(p) {
		// The memtable keeps the slab as long as it keeps any copy in it,
		// so a small batch (a Done deleting one key) gets a small slab:
		// 4 KiB for each would pin 100 times the bytes it holds.
		b.slab = make([]byte, 0, max(min(2*cap(b.slab), 4096), 128, len(p)))
	}
	n := len(b.slab)
	b.slab = append(b.slab, p...)
	return b.slab[n:len(b.slab):len(b.slab)]
}

func (b *batch) Empty() bool { return len(b.ops) == 0 && len(b.fps) == 0 }

// iter walks the keys in [lo, hi) of the merged view: the memtable being
// filled over the one being committed over bbolt, deletes hiding keys.
// Its keys and values are valid until the read transaction ends.
type iter struct {
	hi     []byte // nil: no upper bound
	mem    [2]*mnode
	c      *bolt.Cursor
	ck, cv []byte
}

func newIter(tx *bolt.Tx, fill, committing *memtable, lo, hi []byte) *iter {
	it := &iter{hi: hi}
	for i, m := range [2]*memtable{fill, committing} {
		if m != nil && m.n > 0 {
			it.mem[i] = it.bound(m.seek(lo, nil))
		}
	}
	if b := tx.Bucket(bucketName); b != nil {
		it.c = b.Cursor()
		it.ck, it.cv = it.c.Seek(lo)
		if !it.in(it.ck) {
			it.ck = nil
		}
	}
	return it
}

func (it *iter) in(k []byte) bool {
	return k != nil && (it.hi == nil || bytes.Compare(k, it.hi) < 0)
}

func (it *iter) bound(n *mnode) *mnode {
	if n != nil && !it.in(n.key) {
		return nil
	}
	return n
}

// next returns the next live key and its value.
func (it *iter) next() (k, v []byte, ok bool) {
	for {
		var least []byte
		for _, n := range it.mem {
			if n != nil && (least == nil || bytes.Compare(n.key, least) < 0) {
				least = n.key
			}
		}
		if it.ck != nil && (least == nil || bytes.Compare(it.ck, least) < 0) {
			least = it.ck
		}
		if least == nil {
			return nil, nil, false
		}
		// The newest layer holding least wins; every layer moves past it.
		var val []byte
		del, found := false, false
		for i, n := range it.mem {
			if n != nil && bytes.Equal(n.key, least) {
				if !found {
					val, del, found = n.val, n.del, true
				}
				it.mem[i] = it.bound(n.next[0])
			}
		}
		if it.ck != nil && bytes.Equal(it.ck, least) {
			if !found {
				val = it.cv
			}
			if it.ck, it.cv = it.c.Next(); !it.in(it.ck) {
				it.ck = nil
			}
		}
		if !del {
			return least, val, true
		}
	}
}

// commit writes the changes of m to bbolt in one transaction, which
// bbolt fsyncs before it returns, with the seen set's part of them (see
// seen.go); then it merges the seen set's runs if they need it. s may be
// nil for a store without a seen set (tests of the write buffer alone).
func commit(db *bolt.DB, s *seenStore, m *memtable) error {
	if m.n == 0 && len(m.fps) == 0 {
		return nil
	}
	var sc seenCommit
	if s != nil {
		var err error
		if sc, err = s.prepare(m.fps); err != nil {
			return err
		}
	}
	err := db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketName)
		if err != nil {
			return err
		}
		// Most of what is written is appended in key order (the queues'
		// keys and the seen set's log grow with a sequence number), which
		// leaves pages split at bbolt's default 50 % half empty for good.
		b.FillPercent = 0.9
		for n := m.head.next[0]; n != nil; n = n.next[0] {
			if n.del {
				err = b.Delete(n.key)
			} else {
				val := n.val
				if val == nil {
					val = []byte{} // bbolt stores an empty value; nil is kept for deletes
				}
				err = b.Put(n.key, val)
			}
			if err != nil {
				return err
			}
		}
		if s != nil {
			return s.write(b, sc)
		}
		return nil
	})
	if s == nil {
		return err
	}
	s.committed(sc, err == nil)
	if err != nil {
		return err
	}
	return s.merge(db)
}
