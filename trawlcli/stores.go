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
	var err error
	for _, st := range m.stores {
		if e := st.Put(ctx, p); e != nil {
			err = errors.Join(err, e)
		}
	}
	return err
}

func (m multiStore) Close() error {
	var err error
	for _, st := range m.stores {
		if e := st.Close(); e != nil {
			err = errors.Join(err, e)
		}
	}
	return err
}

// multiExchangeStore is a multiStore with at least one ExchangeStore.
type multiExchangeStore struct{ multiStore }

func (m multiExchangeStore) PutExchange(ctx context.Context, ex *trawl.Exchange) error {
	var err error
	for _, st := range m.exchanges {
		if e := st.PutExchange(ctx, ex); e != nil {
			err = errors.Join(err, e)
		}
	}
	return err
}
