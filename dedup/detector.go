package dedup

import (
	"strconv"
	"sync"
)

// Kind says how a checked text relates to the texts checked before it.
type Kind uint8

// The kinds of Match.
const (
	// New means no earlier text matches.
	New Kind = iota
	// Exact means an earlier text has the same ContentFingerprint.
	Exact
	// Near means an earlier text is a near duplicate: their simhashes are
	// within Hamming distance K and their estimated shingle Jaccard
	// similarity is at least the threshold.
	Near
)

// String returns "new", "exact" or "near".
func (k Kind) String() string {
	switch k {
	case New:
		return "new"
	case Exact:
		return "exact"
	case Near:
		return "near"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Match is the verdict of Detector.Check.
type Match struct {
	// Kind is New, Exact or Near.
	Kind Kind
	// Of is the id of the earlier text matched; empty for New.
	Of string
	// Similarity is the estimated Jaccard similarity of the shingle sets for
	// Near, 1 for Exact and 0 for New.
	Similarity float64
}

// A Detector recognises exact and near-duplicate texts among those it has
// been shown. Check is the method most callers want. A Detector is safe for
// concurrent use: sketching runs in parallel, and the lookup and recording
// are serialised.
type Detector struct {
	cfg      config
	minWords int
	sketcher sync.Pool // of *Sketcher

	mu       sync.Mutex
	cur, old *generation
	seq      int64
	cands    []Fingerprint
}

// generation is one half of a Detector's memory: when the current generation
// is full, the old one is dropped and the current one becomes old.
type generation struct {
	exact    map[Fingerprint]string
	bySim    map[Fingerprint][]int32 // simhash -> entries
	index    *Index
	ids      []string
	seqs     []int64
	sketches []uint32 // entry i is sketches[i*m : (i+1)*m]
}

func newGeneration(k int) *generation {
	return &generation{
		exact: make(map[Fingerprint]string),
		bySim: make(map[Fingerprint][]int32),
		index: NewIndex(k),
	}
}

// NewDetector returns an empty Detector configured by opts (see Option).
func NewDetector(opts ...Option) *Detector {
	cfg := newConfig(opts)
	d := &Detector{cfg: cfg, minWords: max(cfg.minWords, cfg.shingleSize), cur: newGeneration(cfg.k)}
	d.sketcher.New = func() any { return newSketcher(cfg) }
	return d
}

// Check records text under id and reports whether it is New, an Exact
// duplicate of an earlier text (same ContentFingerprint) or a Near duplicate
// of one (Similarity is then the estimated Jaccard similarity of their
// shingle sets). Among several near duplicates it names the most similar,
// and among equally similar ones the earliest.
//
// Exact duplicates are not recorded again: later copies keep matching the
// first id. New texts and near duplicates are recorded. Texts with fewer
// than MinWords words (see WithMinWords) take part in exact matching only.
// Ids are not interpreted; an id may be reused.
func (d *Detector) Check(id, text string) Match {
	s := d.sketcher.Get().(*Sketcher)
	sig := s.Sketch(text)
	d.sketcher.Put(s)

	d.mu.Lock()
	defer d.mu.Unlock()
	gens := [2]*generation{d.cur, d.old}
	for _, g := range gens {
		if g == nil {
			continue
		}
		if of, ok := g.exact[sig.Exact]; ok {
			return Match{Kind: Exact, Of: of, Similarity: 1}
		}
	}
	m := Match{Kind: New}
	eligible := sig.Words >= d.minWords && len(sig.MinHash) > 0
	if eligible {
		var bestSeq int64
		size := d.cfg.sketchSize
		for _, g := range gens {
			if g == nil {
				continue
			}
			d.cands = g.index.Query(sig.Simhash, d.cands[:0])
			for _, c := range d.cands {
				for _, e := range g.bySim[c] {
					sk := Sketch(g.sketches[int(e)*size : (int(e)+1)*size])
					j := sk.Jaccard(sig.MinHash)
					if j < d.cfg.threshold || j < m.Similarity {
						continue
					}
					if j == m.Similarity && g.seqs[e] > bestSeq {
						continue
					}
					m = Match{Kind: Near, Of: g.ids[e], Similarity: j}
					bestSeq = g.seqs[e]
				}
			}
		}
	}
	d.record(id, sig, eligible)
	return m
}

func (d *Detector) record(id string, sig Signature, eligible bool) {
	if d.cfg.maxEntries > 0 && len(d.cur.exact) >= d.cfg.maxEntries/2 {
		d.old, d.cur = d.cur, newGeneration(d.cfg.k)
	}
	g := d.cur
	g.exact[sig.Exact] = id
	if !eligible {
		return
	}
	e := int32(len(g.ids))
	g.ids = append(g.ids, id)
	d.seq++
	g.seqs = append(g.seqs, d.seq)
	g.sketches = append(g.sketches, sig.MinHash...)
	if _, ok := g.bySim[sig.Simhash]; !ok {
		g.index.Add(sig.Simhash)
	}
	g.bySim[sig.Simhash] = append(g.bySim[sig.Simhash], e)
}

// Len returns the number of texts the Detector currently remembers (exact
// duplicates are not counted; with WithMaxEntries, forgotten texts are not
// either).
func (d *Detector) Len() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := len(d.cur.exact)
	if d.old != nil {
		n += len(d.old.exact)
	}
	return n
}
