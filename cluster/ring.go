package cluster

import (
	"slices"
	"strconv"

	"github.com/cespare/xxhash/v2"
)

// DefaultVirtualNodes is the number of points each agent has on a Ring
// unless told otherwise: enough for every agent of 8 to own within ±10 % of
// an eighth of the hosts (TestRingEquity).
const DefaultVirtualNodes = 2048

// Ring assigns hosts to agents by consistent hashing: each agent has
// virtual nodes (points) on a circle of 64-bit hashes, and a host belongs to
// the agent of the first point at or after the host's hash. Adding an agent
// moves only the hosts whose next point is now one of the new agent's;
// removing one moves only its hosts. Hashes are XXH64, stable across
// processes, so every agent computes the same owner from the same members.
//
// A Ring is immutable and safe for concurrent use.
type Ring struct {
	points []uint64
	owner  []int32 // owner[i] indexes agents, for points[i]
	agents []string
}

// NewRing returns the ring of agents (duplicates are ignored), each with
// vnodes points (DefaultVirtualNodes if vnodes <= 0).
func NewRing(agents []string, vnodes int) *Ring {
	if vnodes <= 0 {
		vnodes = DefaultVirtualNodes
	}
	names := slices.Clone(agents)
	slices.Sort(names)
	names = slices.Compact(names)
	type pt struct {
		h uint64
		a int32
	}
	pts := make([]pt, 0, len(names)*vnodes)
	buf := make([]byte, 0, 64)
	for i, a := range names {
		for v := range vnodes {
			buf = append(append(append(buf[:0], a...), '#'), strconv.Itoa(v)...)
			pts = append(pts, pt{xxhash.Sum64(buf), int32(i)})
		}
	}
	// Ties (two agents on one point) go to the smaller name, so every
	// process builds the same ring.
	slices.SortFunc(pts, func(x, y pt) int {
		if x.h != y.h {
			if x.h < y.h {
				return -1
			}
			return 1
		}
		return int(x.a - y.a)
	})
	r := &Ring{points: make([]uint64, len(pts)), owner: make([]int32, len(pts)), agents: names}
	for i, p := range pts {
		r.points[i], r.owner[i] = p.h, p.a
	}
	return r
}

// Agents returns the agents on the ring, sorted.
func (r *Ring) Agents() []string { return slices.Clone(r.agents) }

// Len returns the number of agents on the ring.
func (r *Ring) Len() int { return len(r.agents) }

// Owner returns the agent that owns host, or "" if the ring is empty.
func (r *Ring) Owner(host string) string {
	if len(r.points) == 0 {
		return ""
	}
	h := xxhash.Sum64String(host)
	i, _ := slices.BinarySearch(r.points, h)
	if i == len(r.points) {
		i = 0
	}
	return r.agents[r.owner[i]]
}
