package disk

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	bolt "go.etcd.io/bbolt"
)

// The seen set is kept outside bbolt's B+tree, the way Mercator kept its
// URL-seen test on disk: fingerprints are random, so inserting them into a
// B+tree rewrites a page per fingerprint at every commit (the first bbolt
// frontier did, and its commits' heap reached 839 MiB at 3 million URLs).
// Here they are written in the order they arrive and sorted in batches:
//
//   - A commit that accepts new URLs writes their fingerprints as one
//     record under tabSeenLog with a sequence number, in the same bbolt
//     transaction as the URLs themselves: the key grows, so the record is
//     appended to the tree's last page. Until they are in a run, those
//     fingerprints (and those of the write buffer) are also in memory, in
//     a map of at most about runMin entries (and the write buffer's).
//   - When that map has runMin fingerprints committed, they are sorted and
//     written to a run file (seen-ID.run: the fingerprints as big-endian
//     uint64s, ascending), fsynced and renamed into place; the commit that
//     follows lists the run under tabRuns and deletes the log records it
//     covers, in one transaction. A run not listed (the process died
//     between the two) is deleted by the next Open.
//   - Runs are merged like a binary counter: when a run is not at least
//     twice the size of the next newer one, the two are merged into one
//     file, listed in a transaction of its own. So there are about
//     log2(URLs / runMin) runs, and each fingerprint is rewritten that
//     many times.
//   - A lookup (only when the Bloom filter says "maybe") checks the map,
//     then each run: a binary search in an index of every block's first
//     fingerprint (runBlock fingerprints a block, 8 bytes of index per
//     4 KiB of run), and one read of that block.
//
// Memory: the map (runMin entries and the write buffer's, about 2 MiB)
// and the indexes (at 10 million URLs, about 160 KiB); the runs' blocks
// are read through the operating system's page cache, which the kernel
// can reclaim.

const (
	// runMin is how many committed fingerprints make a new run (tests set
	// a smaller one: Options.seenRun).
	runMin = 1 << 16
	// runBlock is how many fingerprints one index entry covers (4 KiB).
	runBlock = 512
	runExt   = ".run"
)

// seenStore is the part of the seen set that is not the Bloom filter.
// Its map is guarded by mu; runs are replaced under mu too, and read
// under its read lock.
type seenStore struct {
	dir    string
	noSync bool
	runMin int

	mu     sync.RWMutex
	recent map[uint64]struct{} // fingerprints not in a run: write buffer and log records
	runs   []*run              // oldest first

	// Guarded by the Frontier's flushMu (one commit at a time).
	logged  [][]uint64 // fingerprints of the log records in bbolt, oldest first
	nlogged int
	logSeq  uint64 // sequence of the next log record
	nextID  uint64 // ID of the next run file
}

// run is one sorted run file.
type run struct {
	path  string
	id    uint64
	n     int
	f     *os.File
	index []uint64 // the first fingerprint of each block of runBlock
}

func newSeenStore(dir string, noSync bool, runSize int) *seenStore {
	if runSize <= 0 {
		runSize = runMin
	}
	return &seenStore{dir: dir, noSync: noSync, runMin: runSize, recent: make(map[uint64]struct{})}
}

func (s *seenStore) runPath(id uint64) string {
	return filepath.Join(s.dir, "seen-"+strconv.FormatUint(id, 10)+runExt)
}

// add records fingerprints accepted by the write buffer.
func (s *seenStore) add(fps []uint64) {
	if len(fps) == 0 {
		return
	}
	s.mu.Lock()
	for _, fp := range fps {
		s.recent[fp] = struct{}{}
	}
	s.mu.Unlock()
}

// has reports whether fp was accepted.
func (s *seenStore) has(fp uint64) (bool, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if _, ok := s.recent[fp]; ok {
		return true, nil
	}
	var block [runBlock * 8]byte
	for i := len(s.runs) - 1; i >= 0; i-- {
		found, err := s.runs[i].has(fp, block[:])
		if err != nil || found {
			return found, err
		}
	}
	return false, nil
}

func (r *run) has(fp uint64, block []byte) (bool, error) {
	// The block that may hold fp is the last whose first fingerprint is
	// at most fp.
	b, _ := slices.BinarySearch(r.index, fp+1) // first block starting after fp
	if b == 0 {
		return false, nil
	}
	b--
	lo := b * runBlock
	cnt := min(runBlock, r.n-lo)
	buf := block[:cnt*8]
	if _, err := r.f.ReadAt(buf, int64(lo)*8); err != nil {
		return false, fmt.Errorf("disk: seen set: read %s: %w", r.path, err)
	}
	i, j := 0, cnt
	for i < j {
		h := int(uint(i+j) >> 1)
		if binary.BigEndian.Uint64(buf[h*8:]) < fp {
			i = h + 1
		} else {
			j = h
		}
	}
	return i < cnt && binary.BigEndian.Uint64(buf[i*8:]) == fp, nil
}

// encodeRuns is the value of the tabRuns key: the runs' IDs and sizes.
func encodeRuns(runs []*run) []byte {
	b := binary.AppendUvarint(nil, uint64(len(runs)))
	for _, r := range runs {
		b = binary.AppendUvarint(b, r.id)
		b = binary.AppendUvarint(b, uint64(r.n))
	}
	return b
}

type runRef struct {
	id uint64
	n  int
}

func decodeRuns(b []byte) ([]runRef, error) {
	n, c := binary.Uvarint(b)
	if c <= 0 || n > uint64(len(b)) {
		return nil, errCorrupt
	}
	b = b[c:]
	refs := make([]runRef, 0, n)
	for range n {
		id, c1 := binary.Uvarint(b)
		if c1 <= 0 {
			return nil, errCorrupt
		}
		cnt, c2 := binary.Uvarint(b[c1:])
		if c2 <= 0 || cnt > 1<<40 {
			return nil, errCorrupt
		}
		b = b[c1+c2:]
		refs = append(refs, runRef{id, int(cnt)})
	}
	if len(b) != 0 {
		return nil, errCorrupt
	}
	return refs, nil
}

func logKey(seq uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{tabSeenLog}, seq)
}

// restore opens the runs listed in tx and reads the log records, calling
// add for every fingerprint (to fill the Bloom filter), and deletes run
// files that are not listed.
func (s *seenStore) restore(tx *bolt.Tx, add func(uint64)) error {
	var refs []runRef
	b := tx.Bucket(bucketName)
	if b != nil {
		if v := b.Get([]byte{tabRuns}); v != nil {
			var err error
			if refs, err = decodeRuns(v); err != nil {
				return fmt.Errorf("reading the seen set's runs: %w", err)
			}
		}
	}
	listed := make(map[uint64]bool, len(refs))
	for _, ref := range refs {
		r, err := s.openRun(ref, add)
		if err != nil {
			return err
		}
		s.runs = append(s.runs, r)
		listed[ref.id] = true
		s.nextID = max(s.nextID, ref.id+1)
	}
	names, err := os.ReadDir(s.dir)
	if err != nil {
		return err
	}
	for _, e := range names {
		if n := e.Name(); strings.HasPrefix(n, "seen-") && strings.HasSuffix(n, runExt+".tmp") {
			// A run being written when the process died.
			if err := os.Remove(filepath.Join(s.dir, n)); err != nil {
				return err
			}
			continue
		}
		id, ok := runID(e.Name())
		if ok && !listed[id] {
			if err := os.Remove(filepath.Join(s.dir, e.Name())); err != nil {
				return err
			}
		}
		if ok {
			s.nextID = max(s.nextID, id+1)
		}
	}
	if b == nil {
		return nil
	}
	c := b.Cursor()
	p := []byte{tabSeenLog}
	for k, v := c.Seek(p); k != nil && k[0] == tabSeenLog; k, v = c.Next() {
		if len(k) != 9 || len(v)%8 != 0 {
			return fmt.Errorf("reading the seen set's log: %w", errCorrupt)
		}
		fps := make([]uint64, len(v)/8)
		for i := range fps {
			fps[i] = binary.BigEndian.Uint64(v[i*8:])
			s.recent[fps[i]] = struct{}{}
			add(fps[i])
		}
		s.logged = append(s.logged, fps)
		s.nlogged += len(fps)
		s.logSeq = binary.BigEndian.Uint64(k[1:]) + 1
	}
	return nil
}

func runID(name string) (uint64, bool) {
	rest, ok := strings.CutPrefix(name, "seen-")
	if !ok {
		return 0, false
	}
	rest, ok = strings.CutSuffix(rest, runExt)
	if !ok {
		return 0, false
	}
	id, err := strconv.ParseUint(rest, 10, 64)
	return id, err == nil
}

// openRun opens a listed run, checks its size, and builds its index.
func (s *seenStore) openRun(ref runRef, add func(uint64)) (*run, error) {
	f, err := os.Open(s.runPath(ref.id))
	if err != nil {
		return nil, fmt.Errorf("the seen set's run %d: %w", ref.id, err)
	}
	st, err := f.Stat()
	if err == nil && st.Size() != int64(ref.n)*8 {
		err = fmt.Errorf("%d bytes, want %d: %w", st.Size(), ref.n*8, errCorrupt)
	}
	r := &run{path: f.Name(), id: ref.id, n: ref.n, f: f}
	if err == nil {
		err = r.scan(func(i int, fp uint64) {
			if i%runBlock == 0 {
				r.index = append(r.index, fp)
			}
			if add != nil {
				add(fp)
			}
		})
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("the seen set's run %s: %w", r.path, err)
	}
	return r, nil
}

// scan calls fn with each fingerprint of r in order.
func (r *run) scan(fn func(i int, fp uint64)) error {
	br := bufio.NewReaderSize(io.NewSectionReader(r.f, 0, int64(r.n)*8), 64<<10)
	var b [8]byte
	prev := uint64(0)
	for i := range r.n {
		if _, err := io.ReadFull(br, b[:]); err != nil {
			return err
		}
		fp := binary.BigEndian.Uint64(b[:])
		if i > 0 && fp <= prev {
			return fmt.Errorf("fingerprints out of order at %d: %w", i, errCorrupt)
		}
		prev = fp
		fn(i, fp)
	}
	return nil
}

// writeRun writes the fingerprints given by next (ascending, each once)
// to a new run file, fsynced, and opens it.
func (s *seenStore) writeRun(n int, next func(yield func(uint64) bool)) (*run, error) {
	id := s.nextID
	s.nextID++
	path := s.runPath(id)
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, err
	}
	r := &run{path: path, id: id, f: f, index: make([]uint64, 0, n/runBlock+1)}
	bw := bufio.NewWriterSize(f, 64<<10)
	var b [8]byte
	next(func(fp uint64) bool {
		if r.n%runBlock == 0 {
			r.index = append(r.index, fp)
		}
		binary.BigEndian.PutUint64(b[:], fp)
		_, err = bw.Write(b[:])
		r.n++
		return err == nil
	})
	if err == nil {
		err = bw.Flush()
	}
	if err == nil && !s.noSync {
		err = f.Sync()
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err == nil && !s.noSync {
		err = syncDir(s.dir)
	}
	if err != nil {
		f.Close()
		os.Remove(tmp)
		return nil, fmt.Errorf("disk: seen set: writing a run: %w", err)
	}
	return r, nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// seenCommit is what a commit writes for the seen set, prepared by
// s.prepare before the transaction and finished by s.committed after it.
type seenCommit struct {
	fps []uint64 // the write buffer's new fingerprints
	cut *run     // a new run of every committed fingerprint and fps, or nil
}

// prepare returns the seen set's part of the commit of fps (the
// fingerprints a write buffer accepted): a log record, or, when enough
// fingerprints are logged, a new run holding them all. Call with the
// Frontier's flushMu held.
func (s *seenStore) prepare(fps []uint64) (seenCommit, error) {
	sc := seenCommit{fps: fps}
	if s.nlogged+len(fps) < s.runMin {
		return sc, nil
	}
	all := make([]uint64, 0, s.nlogged+len(fps))
	for _, l := range s.logged {
		all = append(all, l...)
	}
	all = append(all, fps...)
	slices.Sort(all)
	all = slices.Compact(all)
	r, err := s.writeRun(len(all), func(yield func(uint64) bool) {
		for _, fp := range all {
			if !yield(fp) {
				return
			}
		}
	})
	if err != nil {
		return sc, err
	}
	sc.cut = r
	return sc, nil
}

// write puts the commit's seen-set changes in the transaction's bucket.
func (s *seenStore) write(b *bolt.Bucket, sc seenCommit) error {
	if sc.cut == nil {
		if len(sc.fps) == 0 {
			return nil
		}
		v := make([]byte, 0, len(sc.fps)*8)
		for _, fp := range sc.fps {
			v = binary.BigEndian.AppendUint64(v, fp)
		}
		return b.Put(logKey(s.logSeq), v)
	}
	c := b.Cursor()
	for k, _ := c.Seek([]byte{tabSeenLog}); k != nil && k[0] == tabSeenLog; k, _ = c.Seek([]byte{tabSeenLog}) {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return b.Put([]byte{tabRuns}, encodeRuns(append(slices.Clip(s.runs), sc.cut)))
}

// committed records that the transaction holding sc committed (ok) or
// failed.
func (s *seenStore) committed(sc seenCommit, ok bool) {
	if !ok {
		if sc.cut != nil {
			sc.cut.f.Close()
			os.Remove(sc.cut.path)
		}
		return
	}
	if sc.cut == nil {
		if len(sc.fps) > 0 {
			s.logged = append(s.logged, sc.fps)
			s.nlogged += len(sc.fps)
			s.logSeq++
		}
		return
	}
	s.mu.Lock()
	for _, l := range s.logged {
		for _, fp := range l {
			delete(s.recent, fp)
		}
	}
	for _, fp := range sc.fps {
		delete(s.recent, fp)
	}
	// A map never gives back the space its deleted entries had; a new
	// one holds what is left (the write buffer's fingerprints).
	recent := make(map[uint64]struct{}, len(s.recent))
	for fp := range s.recent {
		recent[fp] = struct{}{}
	}
	s.recent = recent
	s.runs = append(s.runs, sc.cut)
	s.mu.Unlock()
	s.logged, s.nlogged = nil, 0
}

// merge merges the newest runs while a run is less than twice the size
// of the next newer one, each merge listed in a transaction of its own.
// Call with the Frontier's flushMu held.
func (s *seenStore) merge(db *bolt.DB) error {
	for {
		s.mu.RLock()
		n := len(s.runs)
		if n < 2 || s.runs[n-2].n >= 2*s.runs[n-1].n {
			s.mu.RUnlock()
			return nil
		}
		a, b := s.runs[n-2], s.runs[n-1]
		s.mu.RUnlock()
		var merr error
		m, err := s.writeRun(a.n+b.n, func(yield func(uint64) bool) {
			merr = mergeRuns(a, b, yield)
		})
		if err == nil {
			err = merr
		}
		if err != nil {
			if m != nil {
				m.f.Close()
				os.Remove(m.path)
			}
			return fmt.Errorf("disk: seen set: merging runs: %w", err)
		}
		runs := append(slices.Clone(s.runs[:n-2]), m)
		err = db.Update(func(tx *bolt.Tx) error {
			bk, err := tx.CreateBucketIfNotExists(bucketName)
			if err != nil {
				return err
			}
			return bk.Put([]byte{tabRuns}, encodeRuns(runs))
		})
		if err != nil {
			m.f.Close()
			os.Remove(m.path)
			return fmt.Errorf("disk: seen set: listing a merged run: %w", err)
		}
		s.mu.Lock()
		s.runs = runs
		s.mu.Unlock()
		for _, old := range []*run{a, b} {
			old.f.Close()
			os.Remove(old.path)
		}
	}
}

// mergeRuns yields the union of a and b in order.
func mergeRuns(a, b *run, yield func(uint64) bool) error {
	ra := bufio.NewReaderSize(io.NewSectionReader(a.f, 0, int64(a.n)*8), 64<<10)
	rb := bufio.NewReaderSize(io.NewSectionReader(b.f, 0, int64(b.n)*8), 64<<10)
	var buf [8]byte
	read := func(r *bufio.Reader, left *int) (uint64, bool, error) {
		if *left == 0 {
			return 0, false, nil
		}
		*left--
		if _, err := io.ReadFull(r, buf[:]); err != nil {
			return 0, false, err
		}
		return binary.BigEndian.Uint64(buf[:]), true, nil
	}
	na, nb := a.n, b.n
	x, okx, err := read(ra, &na)
	if err != nil {
		return err
	}
	y, oky, err := read(rb, &nb)
	if err != nil {
		return err
	}
	for okx || oky {
		var v uint64
		switch {
		case okx && (!oky || x <= y):
			v = x
			if oky && x == y {
				if y, oky, err = read(rb, &nb); err != nil {
					return err
				}
			}
			if x, okx, err = read(ra, &na); err != nil {
				return err
			}
		default:
			v = y
			if y, oky, err = read(rb, &nb); err != nil {
				return err
			}
		}
		if !yield(v) {
			return errors.New("write failed")
		}
	}
	return nil
}

// close closes the run files.
func (s *seenStore) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.runs {
		r.f.Close()
	}
	s.runs = nil
}
