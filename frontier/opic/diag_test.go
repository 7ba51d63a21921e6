package opic_test

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/internal/linkgraph"
	"github.com/trawl-dev/trawl/politeness"
)

// This file decomposes the gap between OPIC and the oracle (issue 37,
// point 2). It crawls in a model of frontier.Memory under Priority with
// per-host politeness (simCrawl: the same front queue, back queues and
// schedule, in simulated seconds) in which the key that picks the URL
// giving a host its back queue (the front queue's order) and the key
// that orders a host's URLs (its back queue's) may differ: hybrid orders
// tell how much of the oracle's lead comes from which URLs the front
// queue hands to back queues and how much from the order within a host.
// The tests are opt-in: TRAWL_OPIC_DIAG=1 runs them on TestOPICTable's
// webs (seeds 1-3), TRAWL_OPIC_DIAG=11 on seeds 11-15, e.g.
//
//	TRAWL_OPIC_DIAG=1 go test -run TestOPICDiag -v -timeout 30m ./frontier/opic
//
// Measured on 2026-12-08 (share of the gap from breadth-first order to
// the oracle closed, over the 18 webs × 3 points of TestOPICTable):
//
//   - The model is Memory: breadth-first and oracle orders fetch the same
//     pages; OPIC's share of the PageRank differs by −0.03 to +0.02 (ties
//     between equal shares break otherwise), closing a median 23 % of the
//     gap (−6 % to 43 %) against Memory's 25 % (−16 % to 51 %).
//   - The front queue is everything: oracle priorities in the front queue
//     and OPIC's in the back queues close a median 100 % (70 % to 111 %);
//     the front queue's oracle order with first-in-first-out back queues
//     99 %; OPIC's front queue with the oracle's back queues 28 %. A back
//     queue holds only the URLs that came out of the front queue before
//     the next host's, so it drains quickly, and the crawl is about best-
//     first in the front queue's order.
//   - OPIC's cash ranks the waiting URLs by PageRank hardly better than
//     chance: Spearman's correlation 0.16 after 1 % of the pages, about 0
//     after 5, 10 and 20 %; the top 1 % of them by cash hold 7-10 % of the
//     PageRank of the top 1 % by PageRank. The cash the fetched in-linkers
//     would hand on if theirs were their PageRank ("true cash") ranks them
//     at 0.74-0.78 and, as an order, closes a median 62 % (−23 % to 85 %):
//     the one-step estimate is good, the fetched pages' cash is not (its
//     correlation with their PageRank is 0.13; the importance estimate's
//     0.15). A page is fetched when its cash is the highest, so its cash
//     then says more about when than about how important; and most of an
//     important page's in-links arrive after it was fetched.
//   - Even the PageRank of the graph discovered so far (recomputed each
//     time 5 % more pages were fetched, and handed on through links in
//     between; it needs the graph, so it is no OPIC) closes a median 33 %
//     (−25 % to 53 %): an order that knows the whole graph discovered
//     does not come near half the gap at every point either, on these
//     webs; the oracle's lead rests on in-links not discovered yet.
//   - No change to the ledger or to the choice of host came near half the
//     gap (TestOPICDiagHybrids; median, min, max, seeds 1-3, then 11-15):
//     the virtual page's cash handed out in proportion to cash, 27 %
//     (−18 %, 59 %), 24 % (−27 %, 60 %); to the URLs that joined since the
//     last fetch, 24 % (−14 %, 54 %), 22 % (−19 %, 52 %); not handed out at
//     all, 17 % (−60 %, 50 %), 10 % (−25 %, 49 %); a page's cash split among
//     its links to URLs not fetched only, 24 % (−14 %, 43 %), 24 % (−11 %,
//     45 %); damping 1, 25 % (−17 %, 50 %), 26 % (3 %, 52 %); damping 0.5,
//     19 %, 19 %; ties broken newest first, 24 % (−4 %, 47 %); fetched pages
//     kept in the frontier and fetched again when their cash is the
//     highest (each fetch counted), −48 %, −45 %; the host that gets a
//     free back queue chosen by its waiting URLs' total cash, −65 %, −69 %
//     (all its URLs moved: −81 %, −84 %), by their number −81 %, −89 % (with
//     oracle priorities too). OPIC itself: 23 % (−6 %, 43 %), 23 % (−3 %,
//     43 %). Through Memory (TestOPICDiagMemory), the nearest: OPIC 25 %
//     (−16 %, 51 %), 23 % (−8 %, 53 %); damping 1, 28 % (−6 %, 51 %), 25 %
//     (−14 %, 60 %); the virtual page's cash in proportion to cash, 27 %
//     (−54 %, 54 %), 23 % (−17 %, 60 %); no lost shares, 26 % (−15 %, 47 %),
//     23 % (−22 %, 58 %).
//
// keyKind is a source of priorities.
type keyKind int

const (
	keyFIFO      keyKind = iota // first in, first out (breadth-first)
	keyOPIC                     // the OPIC ledger's priority
	keyOracle                   // the final PageRank
	keyTrueCash                 // the cash the fetched pages that link to the URL would hand on if theirs were their PageRank
	keyLinkCash                 // the ledger's cash without what the virtual page gave
	keyInlink                   // links from fetched pages (strict order)
	keyImpShares                // the sum over fetched in-linkers of their importance estimate when fetched over their links
	keyWShares                  // the same with their cash times the URLs waiting then
	keyRate                     // the ledger's cash over the cash spent since the URL joined: the rate at which it gained cash
	keyKnownPR                  // PageRank of the graph discovered so far, recomputed as the crawl goes (needs the graph: a reference, not OPIC)
)

func (k keyKind) String() string {
	return [...]string{"fifo", "opic", "oracle", "true cash", "link cash", "in-links", "importance shares", "cash×waiting shares", "cash rate", "known PageRank"}[k]
}

// iheap is a max-heap of pages by key (ties: first in first out), with
// positions kept in a slice shared by all heaps (a page is in one at a
// time).
type iheap struct {
	items []int32
	key   func(p int32) float64
	lifo  bool // ties: last in, first out
	seq   []int64
	pos   []int32
}

func (h *iheap) less(a, b int32) bool { // a before b
	ka, kb := h.key(a), h.key(b)
	if ka != kb {
		return ka > kb
	}
	if h.lifo {
		return h.seq[a] > h.seq[b]
	}
	return h.seq[a] < h.seq[b]
}

func (h *iheap) swap(i, j int) {
	h.items[i], h.items[j] = h.items[j], h.items[i]
	h.pos[h.items[i]] = int32(i)
	h.pos[h.items[j]] = int32(j)
}

func (h *iheap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(h.items[i], h.items[p]) {
			break
		}
		h.swap(i, p)
		i = p
	}
}

func (h *iheap) down(i int) {
	n := len(h.items)
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if r := c + 1; r < n && h.less(h.items[r], h.items[c]) {
			c = r
		}
		if !h.less(h.items[c], h.items[i]) {
			return
		}
		h.swap(i, c)
		i = c
	}
}

func (h *iheap) push(p int32) {
	h.items = append(h.items, p)
	h.pos[p] = int32(len(h.items) - 1)
	h.up(len(h.items) - 1)
}

func (h *iheap) pop() int32 {
	p := h.items[0]
	last := len(h.items) - 1
	h.swap(0, last)
	h.items = h.items[:last]
	if last > 0 {
		h.down(0)
	}
	return p
}

func (h *iheap) fix(p int32) {
	i := int(h.pos[p])
	h.up(i)
	h.down(int(h.pos[p]))
}

// simOpts configures simCrawl.
type simOpts struct {
	front, back keyKind
	backQueues  int
	// hostPick picks the next host for a free back queue otherwise than
	// by the best URL in the front queue: 1, the host whose waiting URLs
	// hold the most cash, moving them all to its back queue; 2, the same
	// host, moving its best URL by the front key; 3, the host with the
	// most waiting URLs, moving its best URL.
	hostPick int
	// trace, if set, is called after every fetch with the number fetched.
	trace func(s *simState, fetched int)
	// The ledger: damping (0: 0.85); mult: the virtual page hands its cash
	// to the waiting URLs in proportion to their cash, not equally;
	// noLost: a page's cash is split among its links to URLs not fetched
	// yet only.
	damping      float64
	mult, noLost bool
	// revisit keeps fetched pages in the frontier, where links raise them
	// as any waiting URL (the paper's OPIC: a page is visited again when
	// its cash is high); every fetch counts against the budget.
	revisit bool
	// newcomers: the virtual page hands its cash to the URLs that joined
	// after the last fetch, equally, rather than to every waiting URL.
	newcomers bool
	// lifoTies breaks ties in the front queue last in, first out.
	lifoTies bool
	// rateEps is keyRate's ε (default 0.01).
	rateEps float64
}

// simLedger is opic.Ledger with the variants of simOpts.
type simLedger struct {
	damping  float64
	mult     bool
	g, s     float64 // additive G, multiplicative scale
	virtual  float64
	waitCash float64
	waiting  int
	spent    float64
}

func (l *simLedger) cashOf(prio float64) float64 {
	if l.mult {
		return prio * l.s
	}
	return prio + l.g
}

// delta returns what a share adds to a priority.
func (l *simLedger) delta(share float64) float64 {
	l.waitCash += share
	if l.mult {
		return share / l.s
	}
	return share
}

func (l *simLedger) Join(share float64) float64 {
	l.waiting++
	if l.mult {
		return l.delta(share)
	}
	return l.delta(share) - l.g
}

func (l *simLedger) Take(prio float64) float64 {
	l.waiting--
	c := max(l.cashOf(prio), 0)
	l.waitCash -= c
	l.spent += c
	return c
}

func (l *simLedger) Spend(c float64, n int) float64 {
	if n <= 0 {
		l.virtual += c
		return 0
	}
	out := l.damping * c
	l.virtual += c - out
	return out
}

func (l *simLedger) Lost(share float64) { l.virtual += share }

func (l *simLedger) Settle() {
	if l.waiting == 0 || l.virtual <= 0 {
		return
	}
	if l.mult && l.waitCash > 1e-300 {
		l.s *= (l.waitCash + l.virtual) / l.waitCash
	} else if l.mult {
		return
	} else {
		l.g += l.virtual / float64(l.waiting)
	}
	l.waitCash += l.virtual
	l.virtual = 0
}

// simState is the model frontier of simCrawl.
type simState struct {
	g       *graph
	pr      []float64
	ledger  *simLedger
	prio    []float64 // the ledger's priority of each waiting page
	where   []int8    // 0 unseen, 1 front, 2 back queue, 3 fetched
	seq     []int64
	front   *iheap
	back    map[int32]*iheap
	next    map[int32]int64 // host → next contact (s)
	hseq    map[int32]int64 // host → schedule sequence
	active  []int32         // hosts with a back queue
	n       int64
	waitH   map[int32]float64 // host → sum of the priorities of its front URLs (hostPick)
	trueC   []float64         // keyTrueCash
	gJoin   []float64         // G when the page joined (keyLinkCash)
	inl     []float64         // keyInlink
	impS    []float64         // keyImpShares
	wS      []float64         // keyWShares
	hJoin   []float64         // the ledger's spent cash when the URL joined (keyRate)
	rateEps float64
	knownPR []float64 // keyKnownPR
}

func (s *simState) key(k keyKind) func(p int32) float64 {
	switch k {
	case keyOPIC:
		return func(p int32) float64 { return s.prio[p] }
	case keyOracle:
		return func(p int32) float64 { return s.pr[p] }
	case keyTrueCash:
		return func(p int32) float64 { return s.trueC[p] }
	case keyLinkCash:
		return func(p int32) float64 { return s.prio[p] + s.gJoin[p] }
	case keyInlink:
		return func(p int32) float64 { return s.inl[p] }
	case keyImpShares:
		return func(p int32) float64 { return s.impS[p] }
	case keyWShares:
		return func(p int32) float64 { return s.wS[p] }
	case keyKnownPR:
		return func(p int32) float64 { return s.knownPR[p] }
	case keyRate:
		return func(p int32) float64 {
			return s.ledger.cashOf(s.prio[p]) / (s.ledger.spent - s.hJoin[p] + s.rateEps)
		}
	}
	return func(p int32) float64 { return 0 } // ties: FIFO
}

// simCrawl crawls g from page 0 in the model and returns the pages in the
// order fetched.
func simCrawl(g *graph, pr []float64, o simOpts, budget int) []int32 {
	n := g.n()
	s := &simState{
		g: g, pr: pr, ledger: &simLedger{damping: cmp.Or(o.damping, 0.85), mult: o.mult, s: 1},
		prio: make([]float64, n), where: make([]int8, n), seq: make([]int64, n),
		back: map[int32]*iheap{}, next: map[int32]int64{}, hseq: map[int32]int64{},
		waitH: map[int32]float64{},
		trueC: make([]float64, n), gJoin: make([]float64, n), inl: make([]float64, n),
		impS: make([]float64, n), wS: make([]float64, n), hJoin: make([]float64, n),
		rateEps: cmp.Or(o.rateEps, 0.01),
	}
	pos := make([]int32, n)
	s.front = &iheap{key: s.key(o.front), seq: s.seq, pos: pos, lifo: o.lifoTies}
	backKey := s.key(o.back)
	var now int64
	var clock int64 // schedule sequence
	hostOf := func(p int32) int32 { return g.host[p] }
	frontHosts := map[int32]*iheap{} // hostPick > 0: host → its front pages
	pushFront := func(p int32) {
		s.where[p] = 1
		if o.hostPick > 0 {
			h := hostOf(p)
			fh := frontHosts[h]
			if fh == nil {
				fh = &iheap{key: s.key(o.front), seq: s.seq, pos: pos}
				frontHosts[h] = fh
			}
			fh.push(p)
			s.waitH[h] += s.prio[p]
			return
		}
		s.front.push(p)
	}
	addBack := func(p int32) {
		h := hostOf(p)
		b := s.back[h]
		if b == nil {
			b = &iheap{key: backKey, seq: s.seq, pos: pos}
			s.back[h] = b
			s.active = append(s.active, h)
			clock++
			s.hseq[h] = clock
		}
		s.where[p] = 2
		b.push(p)
	}
	refill := func() {
		for len(s.active) < o.backQueues {
			if o.hostPick > 0 {
				// The host without a back queue whose waiting URLs hold
				// the most cash (or are the most) gets one.
				best, bestSum := int32(-1), math.Inf(-1)
				for h, fh := range frontHosts {
					k := len(fh.items)
					if k == 0 || s.back[h] != nil {
						continue
					}
					// prio is cash − G: add G per URL.
					sum := s.waitH[h]
					if s.ledger.mult {
						sum *= s.ledger.s
					} else {
						sum += float64(k) * s.ledger.g
					}
					if o.hostPick == 3 {
						sum = float64(k)
					}
					if sum > bestSum || sum == bestSum && h < best {
						best, bestSum = h, sum
					}
				}
				if best < 0 {
					return
				}
				fh := frontHosts[best]
				for len(fh.items) > 0 {
					p := fh.pop()
					s.waitH[best] -= s.prio[p]
					addBack(p)
					if o.hostPick != 1 {
						break
					}
				}
				continue
			}
			if len(s.front.items) == 0 {
				return
			}
			addBack(s.front.pop())
		}
	}
	push := func(p int32) {
		s.n++
		s.seq[p] = s.n
		pushFront(p)
	}
	boost := func(p int32, share float64) bool {
		var d float64
		if w := s.where[p]; w == 1 || w == 2 {
			d = s.ledger.delta(share)
		}
		switch s.where[p] {
		case 1:
			s.prio[p] += d
			if o.hostPick > 0 {
				s.waitH[hostOf(p)] += d
				frontHosts[hostOf(p)].fix(p)
			} else {
				s.front.fix(p)
			}
			return true
		case 2:
			s.prio[p] += d
			s.back[hostOf(p)].fix(p)
			return true
		}
		return false
	}
	s.prio[0] = s.ledger.Join(1)
	push(0)
	refill()
	var fetched, joined []int32
	nextPR, rekey := 0, false
	s.knownPR = make([]float64, n)
	heapify := func(h *iheap) {
		for i := len(h.items)/2 - 1; i >= 0; i-- {
			h.down(i)
		}
	}
	for len(fetched) < budget {
		if o.front == keyKnownPR && len(fetched) >= nextPR {
			// PageRank of the pages known (fetched or waiting) and the
			// links of the fetched ones, every 5 % more pages fetched.
			known := make([][]int32, n)
			in := make([]bool, n)
			for p, w := range s.where {
				in[p] = w != 0
				if w == 3 {
					known[p] = g.out[p]
				}
			}
			s.knownPR = linkgraph.PageRank(known, in)
			nextPR = max(len(fetched)+10, len(fetched)*21/20)
			rekey = true
		}
		if o.front == keyRate || o.back == keyRate || rekey {
			rekey = false
			heapify(s.front)
			for _, b := range s.back {
				heapify(b)
			}
		}
		// The schedule: the active host with the earliest next contact
		// (then the lowest sequence).
		bi := -1
		for i, h := range s.active {
			if bi < 0 {
				bi = i
				continue
			}
			b := s.active[bi]
			if s.next[h] < s.next[b] || s.next[h] == s.next[b] && s.hseq[h] < s.hseq[b] {
				bi = i
			}
		}
		if bi < 0 {
			break
		}
		h := s.active[bi]
		if s.next[h] > now {
			now = s.next[h]
		}
		clock++
		s.hseq[h] = clock
		s.next[h] = now + 1
		b := s.back[h]
		p := b.pop()
		s.where[p] = 3
		if len(b.items) == 0 {
			delete(s.back, h)
			s.active = slices.Delete(s.active, bi, bi+1)
			refill()
		}
		fetched = append(fetched, p)
		h0 := s.ledger.spent
		w0 := s.ledger.waiting
		cash := s.ledger.Take(s.prio[p])
		share := 0.0
		k := len(g.out[p])
		if o.noLost {
			k = 0
			for _, q := range g.out[p] {
				if s.where[q] != 3 {
					k++
				}
			}
		}
		if k > 0 {
			share = s.ledger.Spend(cash, k) / float64(k)
		} else {
			s.ledger.Spend(cash, 0)
		}
		for _, q := range g.out[p] {
			if s.where[q] != 3 {
				s.trueC[q] += 0.85 * pr[p] / float64(len(g.out[p]))
				// Between computations, a link hands on its share of the
				// known PageRank of its page.
				s.knownPR[q] += 0.85 * s.knownPR[p] / float64(len(g.out[p]))
				s.impS[q] += cash / (1 + h0) / float64(len(g.out[p]))
				s.wS[q] += cash * float64(w0) / float64(len(g.out[p]))
				s.inl[q]++
			}
			if boost(q, share) {
				continue
			}
			if s.where[q] != 0 {
				s.ledger.Lost(share)
				continue
			}
			s.prio[q] = s.ledger.Join(share)
			s.hJoin[q] = s.ledger.spent
			joined = append(joined, q)
			s.gJoin[q] = s.ledger.g
			push(q)
		}
		refill()
		if o.newcomers && len(joined) > 0 && s.ledger.virtual > 0 {
			// The virtual page's cash goes to the URLs that joined now.
			v := s.ledger.virtual / float64(len(joined))
			s.ledger.virtual = 0
			for _, q := range joined {
				boost(q, v)
			}
		}
		joined = joined[:0]
		if o.revisit {
			// The page stays in the frontier, with no cash: its links
			// raise it, and it is fetched again when it holds the most.
			s.prio[p] = s.ledger.Join(0)
			s.n++
			s.seq[p] = s.n
			pushFront(p)
		}
		s.ledger.Settle()
		if o.trace != nil {
			o.trace(s, len(fetched))
		}
	}
	return fetched
}

// gapStats summarises shares of the gap closed: median, min, max.
type gapStats []float64

func (s gapStats) String() string {
	if len(s) == 0 {
		return "-"
	}
	c := slices.Clone(s)
	sort.Float64s(c)
	return fmt.Sprintf("median %.2f, min %.2f, max %.2f (n=%d)", c[len(c)/2], c[0], c[len(c)-1], len(c))
}

// diagCell is one web and number of back queues of TestOPICTable.
type diagCell struct {
	hosts, pages int
	seed         uint64
	workers      int
}

func diagCells(seeds []uint64) []diagCell {
	var cells []diagCell
	for _, size := range []struct{ hosts, pages int }{{60, 6000}, {300, 30000}, {1000, 100000}} {
		for _, workers := range []int{1, 8} {
			for _, seed := range seeds {
				cells = append(cells, diagCell{size.hosts, size.pages, seed, workers})
			}
		}
	}
	return cells
}

func diagSeeds(t *testing.T) []uint64 {
	v := os.Getenv("TRAWL_OPIC_DIAG")
	if v == "" {
		t.Skip("set TRAWL_OPIC_DIAG=1 (seeds 1-3) or =11 (seeds 11-15) for the diagnosis of the OPIC evaluation")
	}
	if v == "11" {
		return []uint64{11, 12, 13, 14, 15}
	}
	return []uint64{1, 2, 3}
}

// TestOPICDiagHybrids crawls the webs of TestOPICTable in the model with
// hybrid orders and reports the share of the gap from breadth-first order
// to the oracle that each closes.
func TestOPICDiagHybrids(t *testing.T) {
	seeds := diagSeeds(t)
	type variant struct {
		name string
		o    simOpts
	}
	variants := []variant{
		// The references (the first two are the gap's ends).
		{"bfs", simOpts{front: keyFIFO, back: keyFIFO}},
		{"oracle", simOpts{front: keyOracle, back: keyOracle}},
		{"opic", simOpts{front: keyOPIC, back: keyOPIC}},
		// Front queue against back queue.
		{"front oracle, back opic", simOpts{front: keyOracle, back: keyOPIC}},
		{"front opic, back oracle", simOpts{front: keyOPIC, back: keyOracle}},
		{"front fifo, back oracle", simOpts{front: keyFIFO, back: keyOracle}},
		{"front oracle, back fifo", simOpts{front: keyOracle, back: keyFIFO}},
		// Other estimates from the fetched in-linkers.
		{"true cash", simOpts{front: keyTrueCash, back: keyTrueCash}},
		{"in-links (strict)", simOpts{front: keyInlink, back: keyInlink}},
		{"importance shares", simOpts{front: keyImpShares, back: keyImpShares}},
		{"cash×waiting shares", simOpts{front: keyWShares, back: keyWShares}},
		// The host that gets a free back queue.
		{"opic, hosts by total cash", simOpts{front: keyOPIC, back: keyOPIC, hostPick: 1}},
		{"opic, host by total cash, best URL", simOpts{front: keyOPIC, back: keyOPIC, hostPick: 2}},
		{"opic, host by most URLs, best URL", simOpts{front: keyOPIC, back: keyOPIC, hostPick: 3}},
		{"oracle, host by most URLs, best", simOpts{front: keyOracle, back: keyOracle, hostPick: 3}},
		// The ledger.
		{"opic, link cash only", simOpts{front: keyLinkCash, back: keyLinkCash}},
		{"opic, virtual by cash", simOpts{front: keyOPIC, back: keyOPIC, mult: true}},
		{"opic, virtual to newcomers", simOpts{front: keyOPIC, back: keyOPIC, newcomers: true}},
		{"opic, no lost shares", simOpts{front: keyOPIC, back: keyOPIC, noLost: true}},
		{"opic, virtual by cash, no lost", simOpts{front: keyOPIC, back: keyOPIC, mult: true, noLost: true}},
		{"opic, damping 1", simOpts{front: keyOPIC, back: keyOPIC, damping: 1}},
		{"opic, damping 0.5", simOpts{front: keyOPIC, back: keyOPIC, damping: 0.5}},
		{"opic, virtual by cash, damping 1", simOpts{front: keyOPIC, back: keyOPIC, mult: true, damping: 1}},
		{"opic, virtual by cash, damping 0.95", simOpts{front: keyOPIC, back: keyOPIC, mult: true, damping: 0.95}},
		{"opic, virtual by cash, damping 0.7", simOpts{front: keyOPIC, back: keyOPIC, mult: true, damping: 0.7}},
		{"opic, ties newest first", simOpts{front: keyOPIC, back: keyOPIC, lifoTies: true}},
		{"opic, revisits", simOpts{front: keyOPIC, back: keyOPIC, revisit: true}},
	}
	if os.Getenv("TRAWL_OPIC_DIAG_SLOW") != "" { // 6 minutes and more
		variants = append(variants, variant{"known PageRank (needs the graph)", simOpts{front: keyKnownPR, back: keyKnownPR}})
		variants = append(variants,
			variant{"opic, cash rate", simOpts{front: keyRate, back: keyRate}},
			variant{"opic, cash rate ε 0.001", simOpts{front: keyRate, back: keyRate, rateEps: 0.001}},
			variant{"opic, cash rate ε 0.1", simOpts{front: keyRate, back: keyRate, rateEps: 0.1}})
	}
	if only := os.Getenv("TRAWL_OPIC_DIAG_ONLY"); only != "" {
		// The references, and the variants whose name holds only.
		variants = slices.DeleteFunc(variants, func(v variant) bool {
			return v.name != "bfs" && v.name != "oracle" && v.name != "opic" && !strings.Contains(v.name, only)
		})
	}
	gaps := make([]gapStats, len(variants))
	for _, c := range diagCells(seeds) {
		g := genGraph(c.seed, c.hosts, c.pages)
		in := g.reachable(0)
		pr := g.pageRank(in)
		n := 0
		for _, ok := range in {
			if ok {
				n++
			}
		}
		var at []int
		for _, f := range evalPoints {
			at = append(at, int(f*float64(n)))
		}
		res := make([][]float64, len(variants))
		var line strings.Builder
		for i, v := range variants {
			v.o.backQueues = 3 * c.workers
			res[i] = capturedOnce(simCrawl(g, pr, v.o, at[len(at)-1]), pr, at)
			fmt.Fprintf(&line, " %s %s;", v.name, fmtShares(res[i]))
		}
		if testing.Verbose() && os.Getenv("TRAWL_OPIC_DIAG_CELLS") != "" {
			t.Logf("%d hosts seed %d %d queues:%s", c.hosts, c.seed, 3*c.workers, line.String())
		}
		for i := range variants {
			for j := range at {
				bfs, orc := res[0][j], res[1][j]
				gaps[i] = append(gaps[i], (res[i][j]-bfs)/(orc-bfs))
			}
		}
	}
	for i, v := range variants {
		t.Logf("%-32s gap closed: %v", v.name, gaps[i])
	}
}

// capturedOnce is captured, counting each page once.
func capturedOnce(fetched []int32, pr []float64, at []int) []float64 {
	var got []float64
	done := map[int32]bool{}
	sum, i := 0.0, 0
	for _, k := range at {
		for ; i < k && i < len(fetched); i++ {
			if p := fetched[i]; !done[p] {
				done[p] = true
				sum += pr[p]
			}
		}
		got = append(got, sum)
	}
	return got
}

// spearman returns the rank correlation of x and y.
func spearman(x, y []float64) float64 {
	rank := func(v []float64) []float64 {
		idx := make([]int, len(v))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] < v[idx[b]] })
		r := make([]float64, len(v))
		for i := 0; i < len(idx); {
			j := i
			for j < len(idx) && v[idx[j]] == v[idx[i]] {
				j++
			}
			for k := i; k < j; k++ {
				r[idx[k]] = float64(i+j-1) / 2
			}
			i = j
		}
		return r
	}
	rx, ry := rank(x), rank(y)
	var mx, my float64
	for i := range rx {
		mx += rx[i]
		my += ry[i]
	}
	mx /= float64(len(rx))
	my /= float64(len(ry))
	var sxy, sxx, syy float64
	for i := range rx {
		sxy += (rx[i] - mx) * (ry[i] - my)
		sxx += (rx[i] - mx) * (rx[i] - mx)
		syy += (ry[i] - my) * (ry[i] - my)
	}
	return sxy / math.Sqrt(sxx*syy)
}

// topShare returns the PageRank of the k pages with the highest key over
// that of the k with the highest PageRank.
func topShare(key, pr []float64, k int) float64 {
	best := func(v []float64) float64 {
		idx := make([]int, len(v))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] > v[idx[b]] })
		sum := 0.0
		for _, i := range idx[:min(k, len(idx))] {
			sum += pr[i]
		}
		return sum
	}
	return best(key) / best(pr)
}

// TestOPICDiagRanks crawls in OPIC order in the model and reports, at 1,
// 5, 10 and 20 % of the pages, how well each key ranks the waiting URLs
// by PageRank: Spearman's correlation, and the PageRank of the top 1 % of
// the pages by the key over that of the top 1 % by PageRank.
func TestOPICDiagRanks(t *testing.T) {
	seeds := diagSeeds(t)
	keys := []keyKind{keyOPIC, keyLinkCash, keyTrueCash, keyInlink, keyFIFO}
	type acc struct{ rho, top [4]gapStats }
	res := map[keyKind]*acc{}
	for _, k := range keys {
		res[k] = &acc{}
	}
	for _, c := range diagCells(seeds) {
		if c.workers != 1 {
			continue
		}
		g := genGraph(c.seed, c.hosts, c.pages)
		in := g.reachable(0)
		pr := g.pageRank(in)
		n := 0
		for _, ok := range in {
			if ok {
				n++
			}
		}
		points := []int{n / 100, n / 20, n / 10, n / 5}
		trace := func(s *simState, fetched int) {
			i := slices.Index(points, fetched)
			if i < 0 {
				return
			}
			var ws []int32
			for p, w := range s.where {
				if w == 1 || w == 2 {
					ws = append(ws, int32(p))
				}
			}
			y := make([]float64, len(ws))
			for j, p := range ws {
				y[j] = pr[p]
			}
			for _, k := range keys {
				f := s.key(k)
				x := make([]float64, len(ws))
				for j, p := range ws {
					x[j] = f(p)
					if k == keyFIFO {
						x[j] = -float64(s.seq[p])
					}
				}
				res[k].rho[i] = append(res[k].rho[i], spearman(x, y))
				res[k].top[i] = append(res[k].top[i], topShare(x, y, n/100))
			}
		}
		simCrawl(g, pr, simOpts{front: keyOPIC, back: keyOPIC, backQueues: 3, trace: trace}, points[3])
	}
	for _, k := range keys {
		for i, f := range []string{"1", "5", "10", "20"} {
			t.Logf("%-10s after %2s%%: rank correlation %v; top 1%% %v", k, f, res[k].rho[i], res[k].top[i])
		}
	}
}

// TestOPICDiagFetchedCash reports, for the pages an OPIC crawl in the
// model fetched (the first 20 %), the rank correlation of their PageRank
// with their cash when fetched, with that cash times the number of URLs
// waiting then, and with that cash over one plus the cash of the pages
// fetched before (the ledger's importance estimate).
func TestOPICDiagFetchedCash(t *testing.T) {
	seeds := diagSeeds(t)
	var rc, rw, ri gapStats
	for _, c := range diagCells(seeds) {
		if c.workers != 1 {
			continue
		}
		g := genGraph(c.seed, c.hosts, c.pages)
		in := g.reachable(0)
		pr := g.pageRank(in)
		n := 0
		for _, ok := range in {
			if ok {
				n++
			}
		}
		var cash, cashW, imp, ys []float64
		var last float64
		trace := func(s *simState, fetched int) {
			h := s.ledger.spent
			c := h - last
			last = h
			w := 0
			for _, x := range s.where {
				if x == 1 || x == 2 {
					w++
				}
			}
			cash = append(cash, c)
			cashW = append(cashW, c*float64(w))
			imp = append(imp, c/(1+h-c))
			ys = append(ys, 0)
		}
		fetched := simCrawl(g, pr, simOpts{front: keyOPIC, back: keyOPIC, backQueues: 3, trace: trace}, n/5)
		for i, p := range fetched {
			ys[i] = pr[p]
		}
		rc = append(rc, spearman(cash, ys))
		rw = append(rw, spearman(cashW, ys))
		ri = append(ri, spearman(imp, ys))
	}
	t.Logf("cash when fetched: %v", rc)
	t.Logf("cash × URLs waiting: %v", rw)
	t.Logf("importance estimate: %v", ri)
}

// TestOPICDiagHosts reports, after 5, 10 and 20 % of the pages, how many
// hosts each order fetched from, and the PageRank it fetched in home
// pages and in other pages.
func TestOPICDiagHosts(t *testing.T) {
	seeds := diagSeeds(t)
	orders := []simOpts{{front: keyFIFO, back: keyFIFO}, {front: keyOPIC, back: keyOPIC}, {front: keyOracle, back: keyOracle}, {front: keyTrueCash, back: keyTrueCash}, {front: keyInlink, back: keyInlink}}
	for _, c := range diagCells(seeds) {
		g := genGraph(c.seed, c.hosts, c.pages)
		in := g.reachable(0)
		pr := g.pageRank(in)
		n := 0
		for _, ok := range in {
			if ok {
				n++
			}
		}
		home := make([]bool, g.n())
		seenHost := map[int32]bool{}
		for p := range g.n() {
			if !seenHost[g.host[p]] {
				seenHost[g.host[p]] = true
				home[p] = true
			}
		}
		var line strings.Builder
		for _, o := range orders {
			o.backQueues = 3 * c.workers
			fetched := simCrawl(g, pr, o, n/5)
			fmt.Fprintf(&line, " %v:", o.front)
			for _, f := range evalPoints {
				k := int(f * float64(n))
				hs := map[int32]bool{}
				var ph, po float64
				for _, p := range fetched[:k] {
					hs[g.host[p]] = true
					if home[p] {
						ph += pr[p]
					} else {
						po += pr[p]
					}
				}
				fmt.Fprintf(&line, " %d/%.3f/%.3f", len(hs), ph, po)
			}
			line.WriteString(";")
		}
		t.Logf("%d hosts seed %d %d queues (hosts/home PR/other PR):%s", c.hosts, c.seed, 3*c.workers, line.String())
	}
}

// TestOPICDiagModel checks the model against frontier.Memory: it crawls
// each web of TestOPICTable in breadth-first, OPIC and oracle order both
// ways and reports the largest difference in the PageRank fetched, and
// the share of the gap each closes, measured through frontier.Memory.
func TestOPICDiagModel(t *testing.T) {
	seeds := diagSeeds(t)
	pairs := []struct {
		o  order
		so simOpts
	}{
		{orderBFS, simOpts{front: keyFIFO, back: keyFIFO}},
		{orderOPIC, simOpts{front: keyOPIC, back: keyOPIC}},
		{orderOracle, simOpts{front: keyOracle, back: keyOracle}},
	}
	diff := map[order]gapStats{}
	var memGap, simGap gapStats
	for _, c := range diagCells(seeds) {
		g := genGraph(c.seed, c.hosts, c.pages)
		res, n := evaluate(t, g, c.workers)
		in := g.reachable(0)
		pr := g.pageRank(in)
		var at []int
		for _, f := range evalPoints {
			at = append(at, int(f*float64(n)))
		}
		simRes := map[order][]float64{}
		for _, p := range pairs {
			p.so.backQueues = 3 * c.workers
			simRes[p.o] = capturedOnce(simCrawl(g, pr, p.so, at[len(at)-1]), pr, at)
			for j := range at {
				diff[p.o] = append(diff[p.o], simRes[p.o][j]-res[p.o][j])
			}
		}
		for j := range at {
			memGap = append(memGap, (res[orderOPIC][j]-res[orderBFS][j])/(res[orderOracle][j]-res[orderBFS][j]))
			simGap = append(simGap, (simRes[orderOPIC][j]-simRes[orderBFS][j])/(simRes[orderOracle][j]-simRes[orderBFS][j]))
		}
	}
	for _, p := range pairs {
		t.Logf("%-24s model − Memory: %v", p.o, diff[p.o])
	}
	t.Logf("OPIC's share of the gap, Memory: %v", memGap)
	t.Logf("OPIC's share of the gap, model:  %v", simGap)
}

// memoryOPIC is crawl's OPIC order with the ledger variants of o (damping,
// mult, noLost; priorities from simLedger), through frontier.Memory.
func memoryOPIC(t *testing.T, g *graph, o simOpts, workers, budget int) []int32 {
	var fetched []int32
	synctest.Test(t, func(t *testing.T) {
		m := frontier.NewMemory(&frontier.MemoryOptions{
			Strategy: frontier.Priority, Workers: workers,
			Politeness: politeness.Config{MinDelay: time.Second, Factor: -1},
		})
		ctx := context.Background()
		l := &simLedger{damping: cmp.Or(o.damping, 0.85), mult: o.mult, s: 1}
		if _, err := m.Push(ctx, frontier.Request{URL: g.url(0), Priority: l.Join(1)}); err != nil {
			t.Fatal(err)
		}
		var reqs []frontier.Request
		done := make([]bool, g.n())
		for len(fetched) < budget {
			r, err := m.Next(ctx)
			if err == frontier.ErrEmpty {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			p := pageOf(r.URL)
			fetched = append(fetched, p)
			if err := m.Done(r, frontier.Outcome{Status: 200}); err != nil {
				t.Fatal(err)
			}
			done[p] = true
			cash := l.Take(r.Priority)
			k := len(g.out[p])
			if o.noLost {
				k = 0
				for _, q := range g.out[p] {
					if !done[q] {
						k++
					}
				}
			}
			share := 0.0
			if k > 0 {
				share = l.Spend(cash, k) / float64(k)
			} else {
				l.Spend(cash, 0)
			}
			reqs = reqs[:0]
			for _, q := range g.out[p] {
				u := g.url(q)
				d := share
				if l.mult {
					d = share / l.s
				}
				if m.Boost(u, d) {
					l.waitCash += share
					continue
				}
				if m.Seen(u) {
					l.Lost(share)
					continue
				}
				reqs = append(reqs, frontier.Request{URL: u, Depth: r.Depth + 1, Priority: l.Join(share)})
			}
			if _, err := m.Push(ctx, reqs...); err != nil {
				t.Fatal(err)
			}
			l.Settle()
		}
	})
	return fetched
}

// TestOPICDiagMemory measures the ledger variants of TestOPICDiagHybrids
// that came nearest through frontier.Memory, as TestOPICTable does.
func TestOPICDiagMemory(t *testing.T) {
	seeds := diagSeeds(t)
	variants := []struct {
		name string
		o    simOpts
	}{
		{"opic", simOpts{}},
		{"opic, virtual by cash", simOpts{mult: true}},
		{"opic, damping 1", simOpts{damping: 1}},
		{"opic, virtual by cash, damping 1", simOpts{mult: true, damping: 1}},
		{"opic, no lost shares", simOpts{noLost: true}},
	}
	gaps := make([]gapStats, len(variants))
	for _, c := range diagCells(seeds) {
		g := genGraph(c.seed, c.hosts, c.pages)
		res, n := evaluate(t, g, c.workers)
		pr := g.pageRank(g.reachable(0))
		var at []int
		for _, f := range evalPoints {
			at = append(at, int(f*float64(n)))
		}
		for i, v := range variants {
			got := captured(memoryOPIC(t, g, v.o, c.workers, at[len(at)-1]), pr, at)
			for j := range at {
				bfs, orc := res[orderBFS][j], res[orderOracle][j]
				gaps[i] = append(gaps[i], (got[j]-bfs)/(orc-bfs))
			}
		}
	}
	for i, v := range variants {
		t.Logf("%-32s gap closed: %v", v.name, gaps[i])
	}
}
