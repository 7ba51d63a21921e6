package frontier

import "time"

// sidelined reports whether host, which has a back queue, must wait for
// more than its own turn: it rests long (politeness.Schedule.RestsLong),
// or it shares its IP address with more hosts that have work than the
// address may serve at once (politeness.Schedule.Crowded, with
// politeness.Config.IPKey). Such a host is parked: it leaves the back
// queues that count against MemoryOptions.BackQueues, so that any number
// of them, whatever one DNS answer or one robots.txt says, cannot keep the
// workers from hosts that could be fetched. The schedule still hands it
// out when it is due.
func (m *Memory) sidelined(host string, now time.Time) bool {
	return m.sched.RestsLong(host, now) || m.sched.Crowded(host)
}
