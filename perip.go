package trawl

import (
	"context"
	"net"
	"net/netip"
	"net/url"
	"sync"
	"time"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/urlnorm"
)

// IPResolver is implemented by fetchers that resolve host names the way
// they connect: fetch.HTTP resolves through its DNS cache. LookupIP returns
// the addresses host resolves to and when that answer expires (zero: never,
// for an IP literal). With Politeness.PerIP the crawler keys politeness by
// the address it gives; a fetcher given with WithFetcher must implement it
// for that. It must be safe for concurrent use.
type IPResolver interface {
	LookupIP(ctx context.Context, host string) (addrs []netip.Addr, expires time.Time, err error)
}

// Bounds of the resolution before admission (Politeness.PerIP).
const (
	// maxPrimed is how many hosts not yet resolved one batch of URLs
	// (a page's links) resolves before it is queued; the others are
	// queued unresolved and resolved after their first fetch.
	maxPrimed = 64
	// primeParallel is how many of them resolve at once.
	primeParallel = 8
	// lookupTimeout bounds one resolution.
	lookupTimeout = 5 * time.Second
	// unresolvedTTL is how long a name that did not resolve stays polite
	// by host alone before it is tried again.
	unresolvedTTL = time.Minute
)

// ipKeys is the crawler's map from politeness keys (host[:port]) to the IP
// address each resolves to, for politeness.Config.IPKey, which the
// frontier calls under its lock: key only reads the map. The workers fill
// it: prime before a batch of URLs is queued, refresh after a fetch is
// released, both through the fetcher's DNS cache. It is safe for
// concurrent use.
type ipKeys struct {
	r   IPResolver
	now func() time.Time

	mu sync.RWMutex
	m  map[string]ipEntry
}

type ipEntry struct {
	ip      string    // "" when the name did not resolve
	expires time.Time // zero: never (an IP literal)
}

func newIPKeys(r IPResolver) *ipKeys {
	return &ipKeys{r: r, now: time.Now, m: make(map[string]ipEntry)}
}

// key returns the address host resolves to, as last resolved, and false
// if it was not resolved or did not resolve: the host is then its own
// server. It never blocks on DNS.
func (k *ipKeys) key(host string) (string, bool) {
	k.mu.RLock()
	e := k.m[host]
	k.mu.RUnlock()
	return e.ip, e.ip != ""
}

// stale reports whether host needs resolving: never resolved, or its
// answer expired.
func (k *ipKeys) stale(host string, now time.Time) bool {
	k.mu.RLock()
	e, ok := k.m[host]
	k.mu.RUnlock()
	return !ok || !e.expires.IsZero() && !now.Before(e.expires)
}

// resolve resolves host through the fetcher's DNS cache and records the
// answer: the lowest address, so that a server whose DNS rotates its
// addresses keeps one key.
func (k *ipKeys) resolve(ctx context.Context, host string) {
	name := host
	if h, _, err := net.SplitHostPort(host); err == nil {
		name = h
	}
	lctx, cancel := context.WithTimeout(ctx, lookupTimeout)
	addrs, expires, err := k.r.LookupIP(lctx, name)
	cancel()
	e := ipEntry{expires: expires}
	if err != nil || len(addrs) == 0 {
		if ctx.Err() != nil {
			return // the crawl is stopping: keep what was known
		}
		e.expires = k.now().Add(unresolvedTTL)
	} else {
		low := addrs[0].Unmap()
		for _, a := range addrs[1:] {
			if a = a.Unmap(); a.Less(low) {
				low = a
			}
		}
		e.ip = low.String()
	}
	k.mu.Lock()
	if len(k.m) >= maxIPEntries {
		now := k.now()
		for h, old := range k.m {
			if !old.expires.IsZero() && !now.Before(old.expires) {
				delete(k.m, h)
			}
		}
	}
	k.m[host] = e
	k.mu.Unlock()
}

// maxIPEntries is the size beyond which recording an answer first drops
// the expired ones (a name whose entry is dropped is resolved again when
// its URLs are queued or fetched).
const maxIPEntries = 100_000

// prime resolves the hosts of reqs that need it, at most maxPrimed of
// them, primeParallel at a time, before the caller queues reqs: the
// worker that found the URLs waits, the frontier does not. It sets the
// Host of requests that have none (the frontier would derive the same).
func (k *ipKeys) prime(ctx context.Context, reqs []frontier.Request) {
	now := k.now()
	var todo []string
	var seen map[string]bool
	for i := range reqs {
		r := &reqs[i]
		if r.Host == "" {
			u, err := url.Parse(r.URL)
			if err != nil {
				continue
			}
			r.Host = urlnorm.Key(u)
		}
		if r.Host == "" || !k.stale(r.Host, now) || seen[r.Host] {
			continue
		}
		if seen == nil {
			seen = make(map[string]bool)
		}
		seen[r.Host] = true
		if todo = append(todo, r.Host); len(todo) == maxPrimed {
			break
		}
	}
	if len(todo) == 1 {
		k.resolve(ctx, todo[0])
		return
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, primeParallel)
	for _, h := range todo {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			k.resolve(ctx, h)
		})
	}
	wg.Wait()
}

// refresh resolves host again if its answer expired (or it was never
// resolved): the worker that fetched it calls it after it released the
// host (so the lookup holds neither the host nor its address), and the
// frontier moves a host whose address changed when its next contact ends.
func (k *ipKeys) refresh(ctx context.Context, host string) {
	if host != "" && k.stale(host, k.now()) {
		k.resolve(ctx, host)
	}
}
