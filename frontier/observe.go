package frontier

// Seen reports whether the frontier has accepted rawURL at some point:
// queued now, handed out, or done. A crawler asks it after a Push that
// added nothing, to tell a duplicate URL from one the depth limit or the
// host's budget dropped (those are not remembered). It is safe for
// concurrent use.
func (m *Memory) Seen(rawURL string) bool {
	fp := Fingerprint(rawURL)
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.seen.Contains(fp)
}

// HostsWaiting returns the number of hosts (host groups, with
// politeness.Config.GroupKey) that have a back queue and may take another
// request, ready now or at their next contact time. Hosts whose URLs are
// all still in the front queues are not counted: the frontier keeps about
// three back queues per worker (MemoryOptions.BackQueues). Hosts parked
// while they rest long are counted, so the number can exceed BackQueues.
// It is safe for concurrent use.
func (m *Memory) HostsWaiting() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.sched.Waiting()
}
