package trawl

import (
	"fmt"
	"log/slog"
	"slices"
	"sync"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/frontier/opic"
)

// opicState is the crawl's OPIC accounts (Priority.OPIC): the ledger, and
// the frontier's Boost and Seen, which the requests' cash goes through;
// or, when the frontier is an opic.Carrier (carried), only the ledger:
// the frontier places the pushed requests' cash itself.
//
// A frontier that is a frontier.StateKeeper (disk.Frontier) keeps the
// ledger's accounts too: save stores them before each Done, so that they
// are committed with it, and when Run returns; a crawl resumed from the
// frontier starts from them (resumed), its seeds bringing no new cash.
type opicState struct {
	ledger  *opic.Ledger
	boost   frontier.Booster
	seen    frontier.SeenChecker
	carried bool

	keep    frontier.StateKeeper // nil: the accounts die with the process
	saving  sync.Mutex           // one save at a time, so the last one stored is the newest
	resumed bool                 // the ledger came from keep
}

// opicRecord names the ledger's record in a frontier.StateKeeper.
const opicRecord = "opic"

// resume makes the frontier keep the ledger's accounts if it can, and
// restores the ones it kept, if any: the accounts of the crawl that left
// the frontier's queues as they are. The URLs waiting are the frontier's
// (the saved count missed those in flight when the last process ended;
// and a frontier whose process ended before its first commit with the
// accounts holds URLs none were saved for).
func (o *opicState) resume(f frontier.Frontier) error {
	k, ok := f.(frontier.StateKeeper)
	if !ok {
		return nil
	}
	o.keep = k
	b, err := k.LoadState(opicRecord)
	if err != nil {
		return fmt.Errorf("trawl: Priority.OPIC: reading the frontier's saved accounts: %w", err)
	}
	if b != nil {
		if err := o.ledger.UnmarshalBinary(b); err != nil {
			return fmt.Errorf("trawl: Priority.OPIC: the frontier's saved accounts: %w", err)
		}
		o.resumed = true
	}
	o.ledger.SetWaiting(f.Len())
	return nil
}

// save gives the ledger's accounts to the frontier that keeps them. A
// failure is logged: the crawl goes on, and a resumed one would start
// from older accounts.
func (o *opicState) save(log *slog.Logger) {
	if o.keep == nil {
		return
	}
	o.saving.Lock()
	defer o.saving.Unlock()
	b, _ := o.ledger.MarshalBinary() // never fails
	if err := o.keep.SaveState(opicRecord, b); err != nil {
		log.Warn("the frontier did not keep the OPIC accounts", "err", err)
	}
}

// ended settles the cash of a visit that is over: a URL going back to the
// frontier (a retry) keeps it; otherwise cash its links or its redirect
// did not take goes to the virtual page, which hands it on to every
// waiting URL.
func (o *opicState) ended(v *visit) {
	switch {
	case v.out.Retry || v.out.Requeue:
		o.ledger.Requeue(v.cash)
	case !v.spent:
		o.ledger.Spend(v.cash, 0)
	}
	o.ledger.Settle()
}

// split sets the Priority of each request in lists, the links a page
// with the visit's cash hands it on to, to its share of the cash: equal
// shares, or in proportion to 1 + the link's score when Priority.Link
// scored them (Priority holds the score on entry).
func (o *opicState) split(v *visit, scored bool, lists ...[]frontier.Request) {
	n, total := 0, 0.0
	for _, l := range lists {
		n += len(l)
		for i := range l {
			total += 1 + max(l[i].Priority, 0)
		}
	}
	out := o.ledger.Spend(v.cash, n)
	v.spent = true
	for _, l := range lists {
		for i := range l {
			if scored {
				l[i].Priority = out * (1 + max(l[i].Priority, 0)) / total
			} else {
				l[i].Priority = out / float64(n)
			}
		}
	}
}

// joined is a request that joined the ledger in admit, with its share.
type joined struct {
	i     int
	share float64
}

// admit turns the shares of cash in kept's Priority, requests about to be
// pushed, into the frontier's priorities: a URL the frontier holds gets
// its share by Boost, and one it took already (or a repeat in kept) gives
// it to the virtual page; a new URL joins the ledger. It appends the
// joined requests to js, for forget. When the frontier carries the cash,
// the shares stay in Priority for it to place.
func (o *opicState) admit(kept []frontier.Request, js []joined) []joined {
	if o.carried {
		return js
	}
	var first map[string]bool // the URLs of kept so far, for long batches
	if len(kept) > 16 {
		first = make(map[string]bool, len(kept))
	}
	for i := range kept {
		r := &kept[i]
		share := r.Priority
		r.Priority = 0
		if o.boost.Boost(r.URL, share) {
			continue
		}
		var again bool
		if first != nil {
			again = first[r.URL]
			first[r.URL] = true
		} else {
			again = slices.ContainsFunc(kept[:i], func(q frontier.Request) bool { return q.URL == r.URL })
		}
		if again || o.seen.Seen(r.URL) {
			o.ledger.Lost(share)
			continue
		}
		r.Priority = o.ledger.Join(share)
		js = append(js, joined{i, share})
	}
	return js
}

// forget gives back the cash of the joined requests the frontier did not
// take (a depth or host limit dropped them).
func (o *opicState) forget(kept []frontier.Request, js []joined) {
	for _, j := range js {
		if !o.seen.Seen(kept[j.i].URL) {
			o.ledger.Forget(j.share)
		}
	}
}

// lost gives the shares of reqs, links the crawl will not offer after
// all, to the virtual page.
func (o *opicState) lost(reqs []frontier.Request) {
	for i := range reqs {
		o.ledger.Lost(reqs[i].Priority)
	}
}
