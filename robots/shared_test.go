package robots_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trawl-dev/trawl/robots"
)

// mapShared is a robots.Shared in memory that remembers the TTLs it got.
type mapShared struct {
	mu   sync.Mutex
	data map[string][]byte
	ttl  map[string]time.Duration
}

func newMapShared() *mapShared {
	return &mapShared{data: map[string][]byte{}, ttl: map[string]time.Duration{}}
}

func (m *mapShared) Load(_ context.Context, u string) ([]byte, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.data[u]
	return b, ok, nil
}

func (m *mapShared) Save(_ context.Context, u string, b []byte, ttl time.Duration) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.data[u], m.ttl[u] = b, ttl
	return nil
}

func TestSharedFetch(t *testing.T) {
	tests := []struct {
		name     string
		status   int
		location string
		body     string
		err      error
		wantTTL  time.Duration // 0: not saved
	}{
		{name: "200", status: 200, body: "User-agent: *\nDisallow: /private\n", wantTTL: robots.DefaultTTL},
		{name: "404", status: 404, body: "not found", wantTTL: robots.DefaultTTL},
		{name: "redirect", status: 301, location: "http://b.test/robots.txt", wantTTL: robots.DefaultTTL},
		{name: "503", status: 503, wantTTL: robots.DefaultErrorTTL},
		{name: "429", status: 429, wantTTL: robots.DefaultErrorTTL},
		{name: "network error", err: errors.New("connection refused")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			fetch := func(ctx context.Context, u *url.URL) (*http.Response, error) {
				calls++
				if tt.err != nil {
					return nil, tt.err
				}
				h := http.Header{}
				if tt.location != "" {
					h.Set("Location", tt.location)
				}
				return &http.Response{StatusCode: tt.status, Header: h, Body: io.NopCloser(strings.NewReader(tt.body))}, nil
			}
			s := newMapShared()
			u, _ := url.Parse("http://a.test/robots.txt")
			for round := range 2 { // two crawlers sharing s
				f := robots.SharedFetch(fetch, s, nil)
				resp, err := f(context.Background(), u)
				if tt.err != nil {
					if err == nil {
						t.Fatalf("round %d: no error, want %v", round, tt.err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("round %d: %v", round, err)
				}
				body, _ := io.ReadAll(resp.Body)
				if resp.StatusCode != tt.status || resp.Header.Get("Location") != tt.location || string(body) != tt.body {
					t.Errorf("round %d: got %d %q %q, want %d %q %q", round, resp.StatusCode,
						resp.Header.Get("Location"), body, tt.status, tt.location, tt.body)
				}
			}
			wantCalls := 1
			if tt.wantTTL == 0 {
				wantCalls = 2
			}
			if calls != wantCalls {
				t.Errorf("fetched %d times by two crawlers, want %d", calls, wantCalls)
			}
			if got := s.ttl[u.String()]; got != tt.wantTTL {
				t.Errorf("saved for %v, want %v", got, tt.wantTTL)
			}
		})
	}
}

// TestSharedFetchCache checks that two Caches sharing a store fetch
// robots.txt once between them and obey the same rules.
func TestSharedFetchCache(t *testing.T) {
	calls := 0
	fetch := func(ctx context.Context, u *url.URL) (*http.Response, error) {
		calls++
		return &http.Response{StatusCode: 200, Header: http.Header{},
			Body: io.NopCloser(strings.NewReader("User-agent: *\nDisallow: /private\n"))}, nil
	}
	s := newMapShared()
	u, _ := url.Parse("http://a.test/private/page.html")
	for i := range 2 {
		c := robots.NewCache(robots.SharedFetch(fetch, s, nil), nil)
		rules, err := c.Rules(context.Background(), u)
		if err != nil {
			t.Fatal(err)
		}
		if rules.Allowed("bot", u.String()) {
			t.Errorf("cache %d allows %s", i, u)
		}
	}
	if calls != 1 {
		t.Errorf("robots.txt fetched %d times, want 1", calls)
	}
}

// FuzzSharedEntry feeds arbitrary stored bytes to SharedFetch: a bad entry
// is fetched again (never a panic), a good one answers without a fetch.
func FuzzSharedEntry(f *testing.F) {
	f.Add([]byte("200\n\nUser-agent: *\nDisallow: /\n"))
	f.Add([]byte("301\nhttp://b.test/robots.txt\n"))
	f.Add([]byte("20x\n\n"))
	f.Add([]byte("200"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := newMapShared()
		u, _ := url.Parse("http://a.test/robots.txt")
		s.data[u.String()] = data
		fetched := false
		fetch := func(ctx context.Context, u *url.URL) (*http.Response, error) {
			fetched = true
			return &http.Response{StatusCode: 404, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(""))}, nil
		}
		resp, err := robots.SharedFetch(fetch, s, nil)(context.Background(), u)
		if err != nil {
			t.Fatal(err)
		}
		if !fetched && (resp.StatusCode < 100 || resp.StatusCode > 999) {
			t.Fatalf("entry %q answered with status %d", data, resp.StatusCode)
		}
	})
}
