package trawlcli

import (
	"context"
	"errors"

	"github.com/trawl-dev/trawl"
)

// combine returns one store for stores: nil for none, the store itself for
// one, else a store that puts each page in all of them and, when any of
// them takes exchanges, hands exchanges to those that do.
func combine(stores []trawl.Store) trawl.Store {
	switch len(stores) {
	case 0:
		return nil
	case 1:
		return stores[0]
	}
	m := multiStore{stores: stores}
	for _, st := range stores {
		if ex, ok := st.(trawl.ExchangeStore); ok {
			m.exchanges = append(m.exchanges, ex)
		}
	}
	if len(m.exchanges) > 0 {
		return multiExchangeStore{m}
	}
	return m
}

type multiStore struct {
	stores    []trawl.Store
	exchanges []trawl.ExchangeStore
}

func (m multiStore) Put(ctx context.Context, p *trawl.Page) error {
	var errs []error
	for _, st := range m.stores {
		errs = append(errs, st.Put(ctx, p))
	}
	return errors.Join(errs...)
}

func (m multiStore) Close() error {
	var errs []error
	for _, st := range m.stores {
		errs = append(errs, st.Close())
	}
	return errors.Join(errs...)
}

// multiExchangeStore is a multiStore with at least one ExchangeStore.
type multiExchangeStore struct{ multiStore }

func (m multiExchangeStore) PutExchange(ctx context.Context, ex *trawl.Exchange) error {
	var errs []error
	for _, st := range m.exchanges {
		errs = append(errs, st.PutExchange(ctx, ex))
	}
	return errors.Join(errs...)
}
