package store

import (
	"context"
	"sync"

	"github.com/trawl-dev/trawl"
)

// Memory keeps every stored page in memory, in the order stored. It is safe
// for concurrent use. The zero value is ready to use.
type Memory struct {
	mu     sync.Mutex
	pages  []*trawl.Page
	closed bool
}

// Put appends p.
func (m *Memory) Put(_ context.Context, p *trawl.Page) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.pages = append(m.pages, p)
	return nil
}

// Close marks the store closed; pages stay readable.
func (m *Memory) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	return nil
}

// Closed reports whether Close was called.
func (m *Memory) Closed() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.closed
}

// Pages returns the stored pages in the order stored.
func (m *Memory) Pages() []*trawl.Page {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]*trawl.Page(nil), m.pages...)
}

// URLs returns the stored pages' URLs in the order stored.
func (m *Memory) URLs() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]string, len(m.pages))
	for i, p := range m.pages {
		out[i] = p.URL.String()
	}
	return out
}

// Func adapts a function to a trawl.Store; Close does nothing. The function
// must be safe for concurrent use.
type Func func(ctx context.Context, p *trawl.Page) error

// Put calls f(ctx, p).
func (f Func) Put(ctx context.Context, p *trawl.Page) error { return f(ctx, p) }

// Close does nothing and returns nil.
func (f Func) Close() error { return nil }
