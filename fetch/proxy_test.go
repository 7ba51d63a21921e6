package fetch

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"
)

// A proxy on loopback is reached although private networks are refused
// (the user named it), while the guard applies to each request's own host.
func TestProxyGuardsTargetNotProxy(t *testing.T) {
	var hits atomic.Int64
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("via proxy " + r.URL.String() + " accept=" + r.Header.Get("Accept")))
	}))
	defer proxy.Close()
	pu, err := url.Parse(proxy.URL)
	if err != nil {
		t.Fatal(err)
	}
	f := New(&Options{Proxy: http.ProxyURL(pu)})
	defer f.CloseIdleConnections()
	ctx := context.Background()

	tests := []struct {
		name    string
		rawURL  string
		header  http.Header
		want    string // body; "" when refused
		private bool
	}{
		{name: "public IP literal goes through the proxy", rawURL: "http://93.184.216.34/page?q=1",
			want: "via proxy http://93.184.216.34/page?q=1 accept=text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5"},
		{name: "a caller's Accept is kept", rawURL: "http://93.184.216.34/a", header: http.Header{"Accept": {"text/html"}},
			want: "via proxy http://93.184.216.34/a accept=text/html"},
		{name: "private target refused", rawURL: "http://10.1.2.3/", private: true},
		{name: "loopback target refused", rawURL: "http://127.0.0.1:9/x", private: true},
		{name: "IPv6 loopback target refused", rawURL: "http://[::1]:9/x", private: true},
		{name: "localhost refused", rawURL: "http://localhost:9/x", private: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := hits.Load()
			u, _ := url.Parse(tt.rawURL)
			resp, err := f.Fetch(ctx, &Request{URL: u, Header: tt.header})
			if tt.private {
				if !errors.Is(err, ErrPrivateAddress) {
					t.Fatalf("Fetch(%s) = %v, want ErrPrivateAddress", tt.rawURL, err)
				}
				if hits.Load() != before {
					t.Errorf("the proxy was contacted for a refused target")
				}
				return
			}
			if err != nil {
				t.Fatalf("Fetch(%s): %v", tt.rawURL, err)
			}
			if got := string(resp.Body); got != tt.want {
				t.Errorf("body = %q, want %q", got, tt.want)
			}
		})
	}
}

// With AllowPrivateNetworks, a proxy reaches any target; a nil proxy URL
// sends the request directly.
func TestProxyPerRequestChoice(t *testing.T) {
	direct := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte("direct"))
	}))
	defer direct.Close()
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte("proxied " + r.URL.Path))
	}))
	defer proxy.Close()
	pu, _ := url.Parse(proxy.URL)
	f := New(&Options{AllowPrivateNetworks: true, Proxy: func(r *http.Request) (*url.URL, error) {
		if r.URL.Path == "/via" {
			return pu, nil
		}
		return nil, nil
	}})
	defer f.CloseIdleConnections()
	for path, want := range map[string]string{"/via": "proxied /via", "/direct": "direct"} {
		u, _ := url.Parse(direct.URL + path)
		resp, err := f.Fetch(context.Background(), &Request{URL: u})
		if err != nil {
			t.Fatal(err)
		}
		if string(resp.Body) != want {
			t.Errorf("%s: body %q, want %q", path, resp.Body, want)
		}
	}
}
