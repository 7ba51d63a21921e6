package disk

import (
	"fmt"
	"time"

	"github.com/trawl-dev/trawl/frontier"
)

// SaveState stores b (copied) under name, replacing the record there, in
// the same write buffer as the queues (frontier.StateKeeper): the next
// commit (the next Done, Flush, Close, SyncInterval or full buffer) makes
// it durable together with every change made before it, so after a crash
// Open finds the record and the queues as they were at one commit. trawl's
// Crawler saves its OPIC accounts this way before each Done. A record
// longer than frontier.MaxData bytes, or with an empty name, is refused.
func (f *Frontier) SaveState(name string, b []byte) error {
	if name == "" || len(name) > 255 {
		return fmt.Errorf("disk: save state: name %q: want 1 to 255 bytes", name)
	}
	if len(b) > frontier.MaxData {
		return fmt.Errorf("disk: save state %q: %d bytes, more than %d: %w", name, len(b), frontier.MaxData, frontier.ErrDataTooLarge)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.usable(); err != nil {
		return err
	}
	bt := new(batch)
	bt.Set(hostKey(tabState, name), b)
	f.apply(bt)
	if f.timer == nil && f.syncEvery > 0 {
		f.timer = time.AfterFunc(f.syncEvery, f.timedFlush)
	}
	return nil
}

// LoadState returns a copy of the record SaveState stored under name, in
// this process or before the frontier was opened, or nil if there is none.
func (f *Frontier) LoadState(name string) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.usable(); err != nil {
		return nil, err
	}
	v, found, err := f.get(hostKey(tabState, name))
	if err != nil {
		return nil, fmt.Errorf("disk: load state %q: %w", name, err)
	}
	if !found {
		return nil, nil
	}
	if v == nil {
		v = []byte{}
	}
	return v, nil
}
