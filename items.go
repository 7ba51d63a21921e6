package trawl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
)

// ItemSink receives the items a scraper emits (Element.Emit,
// Crawler.Emit): records it built from pages, such as a product with its
// name and price. The crawler calls PutItem from several goroutines at
// once, so it must be safe for concurrent use. When Run returns, the
// crawler closes the sink if it implements io.Closer, unless it is the
// Store too (closed once, as the Store). store.JSONL and store.CSV are
// ItemSinks; ItemFunc adapts a function.
type ItemSink interface {
	PutItem(ctx context.Context, item any) error
}

// ItemFunc adapts a function to an ItemSink. It must be safe for
// concurrent use.
type ItemFunc func(ctx context.Context, item any) error

// PutItem calls f(ctx, item).
func (f ItemFunc) PutItem(ctx context.Context, item any) error { return f(ctx, item) }

// WithItems sets where emitted items go. Default: none (Emit fails with
// ErrNoItemSink).
func WithItems(sink ItemSink) Option { return func(c *config) { c.items = sink } }

// ErrNoItemSink is returned by Emit when the crawler has no ItemSink.
var ErrNoItemSink = errors.New("trawl: no item sink (use WithItems)")

// Emit gives item to the ItemSink: from Events.OnPage, WithHTML callbacks
// (Element.Emit does the same) or any code running while Run runs. It
// counts the item in Stats.Items.Emitted, or a failure in Stats.Items.Errors, and
// returns the sink's error. It is safe for concurrent use.
func (c *Crawler) Emit(ctx context.Context, item any) error {
	if c.cfg.items == nil {
		return ErrNoItemSink
	}
	if err := c.cfg.items.PutItem(ctx, item); err != nil {
		add(&c.stats.live.Items.Errors, 1)
		c.log.Warn("item sink failed", "err", err)
		return fmt.Errorf("trawl: item: %w", err)
	}
	add(&c.stats.live.Items.Emitted, 1)
	return nil
}

// closeItems closes the item sink at the end of Run, unless it is the
// Store, which Run closes already.
func (c *Crawler) closeItems() error {
	closer, ok := c.cfg.items.(io.Closer)
	if !ok || sameValue(c.cfg.items, c.cfg.store) {
		return nil
	}
	if err := closer.Close(); err != nil {
		return fmt.Errorf("trawl: closing item sink: %w", err)
	}
	return nil
}

// sameValue reports whether a and b hold the same value, without
// panicking on types that cannot be compared (funcs, maps).
func sameValue(a, b any) bool {
	if a == nil || b == nil {
		return false
	}
	ta, tb := reflect.TypeOf(a), reflect.TypeOf(b)
	return ta == tb && ta.Comparable() && a == b
}
