//go:build !linux

package disk

import bolt "go.etcd.io/bbolt"

// unmapResident does nothing where the madvise advice that drops a
// memory map's resident pages (Linux's MADV_DONTNEED) is not used.
func unmapResident(*bolt.DB) error { return nil }
