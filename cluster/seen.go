package cluster

import "sync"

// seenCache remembers URL fingerprints that Redis already holds, so that a
// Push asks Redis only about links this agent has not met before: most
// links of a page lead to URLs the crawl knows. It is lossy and never
// wrong: a direct-mapped table of fingerprints where a new one evicts the
// one in its slot, so a hit means the URL is known to the crawl and a miss
// means "ask Redis". 8 bytes per slot.
type seenCache struct {
	mu    sync.Mutex
	slots []uint64
	mask  uint64
}

// newSeenCache returns a cache of 2^bits slots.
func newSeenCache(bits uint) *seenCache {
	return &seenCache{slots: make([]uint64, 1<<bits), mask: 1<<bits - 1}
}

// slot spreads fingerprints that are not uniform (in tests) over the table.
func (c *seenCache) slot(fp uint64) uint64 { return (fp * 0x9e3779b97f4a7c15) >> 20 & c.mask }

func (c *seenCache) has(fp uint64) bool {
	if fp == 0 {
		return false // 0 marks an empty slot
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.slots[c.slot(fp)] == fp
}

func (c *seenCache) add(fp uint64) {
	c.mu.Lock()
	c.slots[c.slot(fp)] = fp
	c.mu.Unlock()
}
