package politeness

import (
	"fmt"
	"testing"
	"time"
)

// ips is a resolver for tests: host → address; hosts not in it do not
// resolve.
type ips map[string]string

func (m ips) key(host string) (string, bool) {
	ip, ok := m[host]
	return ip, ok
}

func TestScheduleIPSteps(t *testing.T) {
	shared := ips{"a": "192.0.2.1", "b": "192.0.2.1", "c": "192.0.2.1", "d": "192.0.2.2"}
	tests := []struct {
		name  string
		cfg   *Config
		steps []step
	}{
		{
			name: "hosts of one IP wait for its delay, shorter than theirs",
			cfg:  &Config{MinDelay: time.Second, Factor: -1, IPDelay: 100 * ms, IPKey: shared.key},
			steps: []step{
				{op: "add", host: "a"},
				{op: "add", host: "b"},
				{op: "add", host: "d"},
				{op: "next", host: "a"},
				{op: "next", host: "d"}, // another IP: not held
				{op: "next", wake: -1},  // b waits for a's IP, which is in flight
				{at: 50 * ms, op: "done", host: "a"},
				{at: 50 * ms, op: "next", wake: 150 * ms},
				{at: 150 * ms, op: "next", host: "b"},
				{at: 160 * ms, op: "done", host: "b"},
				// a's own delay (1s from 50ms) is longer than the IP's.
				{at: 260 * ms, op: "next", wake: 1050 * ms},
				{at: 1050 * ms, op: "next", host: "a"},
			},
		},
		{
			name: "IP concurrency",
			cfg:  &Config{MinDelay: -1, IPDelay: -1, IPConcurrency: 2, IPKey: shared.key},
			steps: []step{
				{op: "add", host: "a"},
				{op: "add", host: "b"},
				{op: "add", host: "c"},
				{op: "next", host: "a"},
				{op: "next", host: "b"},
				{op: "next", wake: -1},
				{at: 10 * ms, op: "done", host: "b"},
				{at: 10 * ms, op: "next", host: "c"},
			},
		},
		{
			name: "contacts with one IP start IPDelay apart under IP concurrency",
			cfg:  &Config{MinDelay: -1, IPDelay: 100 * ms, IPConcurrency: 2, IPKey: shared.key},
			steps: []step{
				{op: "add", host: "a"},
				{op: "add", host: "b"},
				{op: "next", host: "a"},
				{op: "next", wake: 100 * ms},
				{at: 100 * ms, op: "next", host: "b"},
			},
		},
		{
			name: "unresolved hosts are their own server",
			cfg:  &Config{MinDelay: time.Second, IPKey: shared.key},
			steps: []step{
				{op: "add", host: "x"},
				{op: "add", host: "y"},
				{op: "next", host: "x"},
				{op: "next", host: "y"},
			},
		},
		{
			name: "a cancel keeps the rest another host's contact left",
			cfg:  &Config{MinDelay: -1, IPDelay: 100 * ms, IPConcurrency: 2, IPKey: shared.key},
			steps: []step{
				{op: "add", host: "a"},
				{op: "add", host: "b"},
				{op: "add", host: "c"},
				{op: "next", host: "a"},
				{at: 100 * ms, op: "next", host: "b"},
				{at: 110 * ms, op: "done", host: "a"}, // the IP rests until 210ms
				{at: 120 * ms, op: "cancel", host: "b"},
				{at: 130 * ms, op: "next", wake: 210 * ms},
				{at: 210 * ms, op: "next", host: "c"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runSteps(t, tt.cfg, tt.steps) })
	}
}

// A host whose address changes (its DNS entry expired and resolved
// anew) moves to its new server at the end of its contact in flight.
func TestScheduleIPMoves(t *testing.T) {
	m := ips{"a": "192.0.2.1", "b": "192.0.2.1", "c": "192.0.2.2"}
	s := NewSchedule(&Config{MinDelay: -1, IPDelay: time.Second, IPKey: m.key})
	for _, h := range []string{"a", "b", "c"} {
		s.Add(h)
	}
	if ip, ok := s.IP("a"); !ok || ip != "192.0.2.1" {
		t.Fatalf("IP(a) = %q, %v, want 192.0.2.1", ip, ok)
	}
	if h, _, _ := s.Next(t0); h != "a" {
		t.Fatalf("Next = %q, want a", h)
	}
	if h, _, _ := s.Next(t0); h != "c" {
		t.Fatalf("Next = %q, want c", h)
	}
	m["a"] = "192.0.2.2" // a's entry expires and resolves anew
	if ip, _ := s.IP("a"); ip != "192.0.2.1" {
		t.Errorf("IP(a) in flight = %q, want the old address still", ip)
	}
	s.Done("a", at(10*ms), Outcome{})
	if ip, _ := s.IP("a"); ip != "192.0.2.2" {
		t.Errorf("IP(a) after Done = %q, want 192.0.2.2", ip)
	}
	// a now waits for c's server (c in flight); b no longer shares with a
	// but waits out the second the old server rests after a's contact.
	if h, wake, ok := s.Next(at(20 * ms)); ok || !wake.Equal(at(1010*ms)) {
		t.Errorf("Next(+20ms) = %q, %v, wake %v, want none until +1.01s", h, ok, wake)
	}
	s.Done("c", at(30*ms), Outcome{})
	if h, _, _ := s.Next(at(1030 * ms)); h != "b" && h != "a" {
		t.Errorf("Next(+1.03s) = %q, want a or b", h)
	}
	// An address that stops resolving makes the host its own server.
	delete(m, "b")
	s.Done("b", at(1040*ms), Outcome{})
	s.Done("a", at(1040*ms), Outcome{})
	if _, ok := s.IP("b"); ok {
		t.Errorf("IP(b) found a server for a host that no longer resolves")
	}
}

func TestScheduleCrowded(t *testing.T) {
	m := ips{"a": "192.0.2.1", "b": "192.0.2.1", "c": "192.0.2.2"}
	s := NewSchedule(&Config{IPKey: m.key})
	s.Add("a")
	s.Add("c")
	if s.Crowded("a") || s.Crowded("c") {
		t.Errorf("Crowded with one host per server")
	}
	s.Add("b")
	if !s.Crowded("a") || !s.Crowded("b") || s.Crowded("c") {
		t.Errorf("Crowded(a, b, c) = %v, %v, %v, want true, true, false", s.Crowded("a"), s.Crowded("b"), s.Crowded("c"))
	}
	s.Remove("b")
	if s.Crowded("a") {
		t.Errorf("Crowded(a) after b left")
	}
}

// Thousands of hosts on one address (one DNS answer can say so) cost the
// hosts of other servers nothing: they are served at their own pace, and
// the crowded server at its IP's.
func TestScheduleIPCrowdDoesNotStallOthers(t *testing.T) {
	crowd := func(host string) (string, bool) {
		if host[0] == 'x' {
			return "192.0.2.66", true
		}
		return "", false
	}
	const others = 10
	s := NewSchedule(&Config{MinDelay: time.Second, Factor: -1, IPDelay: 100 * ms, IPKey: crowd})
	for i := range 5000 {
		s.Add(fmt.Sprintf("x%d", i))
	}
	for i := range others {
		s.Add(fmt.Sprintf("o%d", i))
	}
	// Each contact takes 10ms; every host always has work.
	served := map[byte]int{}
	now := t0
	end := at(10 * time.Second)
	type lease struct {
		host string
		end  time.Time
	}
	var inflight []lease
	for now.Before(end) {
		host, wake, ok := s.Next(now)
		if ok {
			served[host[0]]++
			inflight = append(inflight, lease{host, now.Add(10 * ms)})
			continue
		}
		// Advance to the earliest of wake and the first contact's end.
		next := wake
		for _, l := range inflight {
			if next.IsZero() || l.end.Before(next) {
				next = l.end
			}
		}
		now = next
		kept := inflight[:0]
		for _, l := range inflight {
			if !l.end.After(now) {
				if _, err := s.Done(l.host, now, Outcome{}); err != nil {
					t.Fatal(err)
				}
				continue
			}
			kept = append(kept, l)
		}
		inflight = kept
	}
	// The others get one contact a second each (every 1.01s); the crowd's
	// IP one every 110ms.
	if got, want := served['o'], others*int(10*time.Second/(1010*ms)); got < want {
		t.Errorf("hosts on servers of their own: %d contacts in 10s, want at least %d", got, want)
	}
	if got, want := served['x'], int(10*time.Second/(110*ms)); got < want || got > want+1 {
		t.Errorf("crowded server: %d contacts in 10s, want %d", got, want)
	}
}
