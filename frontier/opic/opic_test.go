package opic

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestCashIsConserved: in a crawl of a random graph driven through a
// ledger (a map stands for the frontier: URL → priority), the cash of the
// waiting URLs (priority plus what the virtual page gave each) plus the
// virtual page's cash is 1 after every step, each page's cash when taken
// is in [0, 1], and the waiting count the ledger keeps is the map's size.
// Every 101 steps the ledger is encoded and a new one decoded from it, as
// a crawl resumed from a persistent frontier does, and the accounts go on.
func TestCashIsConserved(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 2000
	out := make([][]int, n)
	for p := range out {
		for range rng.IntN(12) {
			out[p] = append(out[p], rng.IntN(n))
		}
	}
	l := NewLedger(0)
	waiting := map[int]float64{}
	done := map[int]bool{}
	for s := range 3 {
		waiting[s] = l.Join(1.0 / 3)
	}
	check := func(step int) {
		t.Helper()
		sum := l.Virtual()
		for _, prio := range waiting {
			sum += prio + l.g
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Fatalf("step %d: waiting URLs and the virtual page hold %.12f, want 1", step, sum)
		}
		if l.waiting != len(waiting) {
			t.Fatalf("step %d: ledger counts %d waiting, frontier holds %d", step, l.waiting, len(waiting))
		}
	}
	check(0)
	for step := 1; len(waiting) > 0; step++ {
		if step%101 == 0 {
			l = roundTrip(t, l)
		}
		// Take the richest, as a best-first frontier would.
		best, bestPrio := -1, math.Inf(-1)
		for p, prio := range waiting {
			if prio > bestPrio || prio == bestPrio && p < best {
				best, bestPrio = p, prio
			}
		}
		delete(waiting, best)
		cash, imp := l.Take(bestPrio)
		if cash < 0 || cash > 1+1e-9 || imp < 0 || imp > 1 {
			t.Fatalf("step %d: page %d has cash %v, importance %v", step, best, cash, imp)
		}
		if step%17 == 0 { // a retry: it goes back with its priority
			waiting[best] = bestPrio
			l.Requeue(cash)
			check(step)
			continue
		}
		done[best] = true
		links := out[best]
		share := 0.0
		if len(links) > 0 {
			share = l.Spend(cash, len(links)) / float64(len(links))
		} else {
			l.Spend(cash, 0)
		}
		for _, q := range links {
			switch _, ok := waiting[q]; {
			case ok:
				waiting[q] += share // Boost
			case done[q]:
				l.Lost(share)
			case q%29 == 0: // a limit drops it after Join
				l.Join(share)
				l.Forget(share)
			default:
				waiting[q] = l.Join(share)
			}
		}
		l.Settle()
		check(step)
	}
}

// TestOthersHistory: a ledger's importance estimates count the pages that
// the other ledgers of the crawl took (SetOthers), as one ledger for the
// whole crawl would.
func TestOthersHistory(t *testing.T) {
	one, a, b := NewLedger(0), NewLedger(0), NewLedger(0)
	one.Take(one.Join(0.5)) // the first page, fetched by b in the cluster
	b.Take(b.Join(0.5))
	a.SetOthers(b.History())
	_, want := one.Take(one.Join(0.25))
	_, got := a.Take(a.Join(0.25))
	if math.Abs(got-want) > 1e-12 || math.Abs(want-0.25/1.5) > 1e-12 {
		t.Errorf("importance with the other ledger's history = %v, one ledger's = %v, want both %v", got, want, 0.25/1.5)
	}
}

// roundTrip returns a new ledger decoded from l's encoding, after
// checking that it has l's accounts.
func roundTrip(t *testing.T, l *Ledger) *Ledger {
	t.Helper()
	b, err := l.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	r := NewLedger(0.5) // the damping comes from the encoding
	if err := r.UnmarshalBinary(b); err != nil {
		t.Fatalf("UnmarshalBinary(MarshalBinary()) = %v", err)
	}
	if r.damping != l.damping || r.g != l.g || r.virtual != l.virtual || r.spent != l.spent || r.waiting != l.waiting {
		t.Fatalf("decoded ledger %+v, encoded %+v", r, l)
	}
	return r
}

// TestLedgerEncoding: what UnmarshalBinary refuses, and SetWaiting.
func TestLedgerEncoding(t *testing.T) {
	l := NewLedger(0)
	p := l.Join(1)
	l.Take(p)
	l.Spend(1, 0)
	b, _ := l.MarshalBinary()
	for _, bad := range [][]byte{nil, b[:len(b)-1], append(b[:len(b):len(b)], 0), append([]byte{9}, b[1:]...)} {
		if err := NewLedger(0).UnmarshalBinary(bad); err == nil {
			t.Errorf("UnmarshalBinary(%x) = nil, want an error", bad)
		}
	}
	r := NewLedger(0)
	if err := r.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if r.History() != 1 || r.Virtual() != 1 {
		t.Errorf("decoded History %v, Virtual %v; want 1 and 1", r.History(), r.Virtual())
	}
	// Two URLs wait in the resumed frontier: Settle gives each half the
	// virtual page's cash.
	r.SetWaiting(2)
	r.Settle()
	if cash, _ := r.Take(0); cash != 0.5 {
		t.Errorf("after SetWaiting(2) and Settle, a URL with priority 0 has cash %v, want 0.5", cash)
	}
}
