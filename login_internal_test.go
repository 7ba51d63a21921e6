package trawl

import (
	"errors"
	"net/url"
	"testing"
)

// TestLoginActionAllowed: credentials go to the login page's host (same
// port), to the hosts Login.AllowHosts names, never elsewhere and never
// from https to http.
func TestLoginActionAllowed(t *testing.T) {
	p := &loginPlan{l: Login{AllowHosts: []string{"sso.example.com", "auth.example.com:8443"}}}
	p.u, _ = url.Parse("https://www.example.com/login")
	for _, tt := range []struct {
		action string
		ok     bool
	}{
		{"https://www.example.com/session", true},
		{"https://WWW.example.com:443/session", true},
		{"https://www.example.com:8443/session", false},
		{"http://www.example.com/session", false},
		{"https://evil.example.net/session", false},
		{"https://sso.example.com/session", true},
		{"https://auth.example.com:8443/session", true},
		{"https://auth.example.com/session", false},
		{"javascript:alert(1)", false},
	} {
		u, _ := url.Parse(tt.action)
		err := p.allowed(u)
		if (err == nil) != tt.ok || (err != nil && !errors.Is(err, ErrLogin)) {
			t.Errorf("allowed(%s) = %v, want ok %v", tt.action, err, tt.ok)
		}
	}
}
