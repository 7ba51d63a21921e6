package trawl

import (
	"context"
	"fmt"

	"github.com/trawl-dev/trawl/fetch"
)

// Exchange is one request and its response as they crossed the wire (see
// fetch.Exchange), named here so that stores need not import package
// fetch.
type Exchange = fetch.Exchange

// ExchangeStore is an optional capability of a Store: a store that
// implements it (store.WARC does) receives every request and response the
// crawler's fetcher exchanges, as they crossed the wire, whatever their
// status: robots.txt, redirects, 304s, 4xx and 5xx included, and pages
// that are never Put (noindex, duplicates); not the POST of WithLogin,
// whose request holds the password. PutExchange is called from
// worker goroutines, concurrently, before the fetch's Page (if any) is
// Put; the Exchange is valid only during the call. An error is handled as
// a Put error. It works with the crawler's own fetcher (not with one given
// by WithFetcher, which the crawler cannot ask for raw bytes).
type ExchangeStore interface {
	PutExchange(ctx context.Context, ex *Exchange) error
}

// exchangeHook returns the fetch.Options.OnExchange that hands exchanges
// to s, after next (the caller's own hook) if any.
func (c *Crawler) exchangeHook(s ExchangeStore, next func(context.Context, *fetch.Exchange)) func(context.Context, *fetch.Exchange) {
	return func(ctx context.Context, ex *fetch.Exchange) {
		if next != nil {
			next(ctx, ex)
		}
		if ctx.Value(loginPostKey{}) != nil {
			return // the login's POST holds the password: not archived
		}
		if err := s.PutExchange(ctx, ex); err != nil {
			add(&c.stats.live.Errors.Store, 1)
			c.log.Warn("store failed", "url", ex.URL, "err", err)
			c.onError(ctx, ex.URL.String(), fmt.Errorf("trawl: store: %w", err))
		}
	}
}
