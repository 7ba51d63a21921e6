package trawlcli

import (
	"context"
	"errors"
	"testing"

	"github.com/trawl-dev/trawl"
)

type countStore struct {
	puts, exchanges, closes int
	err                     error
}

func (c *countStore) Put(context.Context, *trawl.Page) error { c.puts++; return c.err }
func (c *countStore) Close() error                           { c.closes++; return c.err }

type countExchangeStore struct{ countStore }

func (c *countExchangeStore) PutExchange(context.Context, *trawl.Exchange) error {
	c.exchanges++
	return c.err
}

func TestCombine(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name         string
		plain, exch  int
		failing      bool
		wantExchange bool
	}{
		{name: "none"},
		{name: "one plain", plain: 1},
		{name: "one exchange", exch: 1, wantExchange: true},
		{name: "two plain", plain: 2},
		{name: "plain and exchange", plain: 1, exch: 1, wantExchange: true},
		{name: "failing", plain: 2, exch: 1, failing: true, wantExchange: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stores []trawl.Store
			var plain []*countStore
			var exch []*countExchangeStore
			for range tt.plain {
				s := &countStore{}
				if tt.failing {
					s.err = boom
				}
				plain, stores = append(plain, s), append(stores, s)
			}
			for range tt.exch {
				s := &countExchangeStore{}
				exch, stores = append(exch, s), append(stores, s)
			}
			st := combine(stores)
			if len(stores) == 0 {
				if st != nil {
					t.Fatalf("combine(none) = %v, want nil", st)
				}
				return
			}
			ex, isEx := st.(trawl.ExchangeStore)
			if isEx != tt.wantExchange {
				t.Fatalf("ExchangeStore %v, want %v", isEx, tt.wantExchange)
			}
			err := st.Put(context.Background(), &trawl.Page{})
			if isEx {
				ex.PutExchange(context.Background(), &trawl.Exchange{})
			}
			if cerr := st.Close(); tt.failing != errors.Is(errors.Join(err, cerr), boom) {
				t.Errorf("errors %v, %v; want boom: %v", err, cerr, tt.failing)
			}
			for _, s := range plain {
				if s.puts != 1 || s.closes != 1 {
					t.Errorf("plain store: %d puts, %d closes; want 1 and 1", s.puts, s.closes)
				}
			}
			for _, s := range exch {
				if s.puts != 1 || s.closes != 1 || s.exchanges != 1 {
					t.Errorf("exchange store: %d puts, %d exchanges, %d closes; want 1 each", s.puts, s.exchanges, s.closes)
				}
			}
		})
	}
}

func BenchmarkCombinedPut(b *testing.B) {
	st := combine([]trawl.Store{&countStore{}, &countExchangeStore{}})
	p := &trawl.Page{}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		st.Put(ctx, p)
	}
}
