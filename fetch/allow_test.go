package fetch

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"testing"
)

// The guard with an allow list and with AllowPrivateNetworks: metadata
// addresses stay refused unless named; a prefix lets its addresses through
// and no others. The dial hook records what would be dialed; nothing is
// dialed for real.
func TestGuardAllowNetworks(t *testing.T) {
	tests := []struct {
		name    string
		opts    Options
		addr    string
		allowed bool
	}{
		{name: "private: metadata refused", opts: Options{AllowPrivateNetworks: true}, addr: "169.254.169.254:80"},
		{name: "private: IPv6 metadata refused", opts: Options{AllowPrivateNetworks: true}, addr: "[fd00:ec2::254]:80"},
		{name: "private: link-local refused", opts: Options{AllowPrivateNetworks: true}, addr: "169.254.1.1:80"},
		{name: "private: Alibaba metadata refused", opts: Options{AllowPrivateNetworks: true}, addr: "100.100.100.200:80"},
		{name: "private: loopback allowed", opts: Options{AllowPrivateNetworks: true}, addr: "127.0.0.1:80", allowed: true},
		{name: "private: RFC 1918 allowed", opts: Options{AllowPrivateNetworks: true}, addr: "10.0.0.1:80", allowed: true},
		{name: "metadata named", opts: Options{AllowPrivateNetworks: true, AllowNetworks: []netip.Prefix{netip.MustParsePrefix("169.254.169.254/32")}}, addr: "169.254.169.254:80", allowed: true},
		{name: "prefix: loopback allowed", opts: Options{AllowNetworks: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}, addr: "127.0.0.2:80", allowed: true},
		{name: "prefix: other private refused", opts: Options{AllowNetworks: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}, addr: "10.0.0.1:80"},
		{name: "prefix: metadata refused", opts: Options{AllowNetworks: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}, addr: "169.254.169.254:80"},
		{name: "default: loopback refused", addr: "127.0.0.1:80"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var dialed []string
			o := tt.opts
			o.DialContext = func(_ context.Context, _, addr string) (net.Conn, error) {
				dialed = append(dialed, addr)
				return nil, errors.New("no network in tests")
			}
			d := newDialer(o)
			_, err := d.DialContext(context.Background(), "tcp", tt.addr)
			refused := errors.Is(err, ErrPrivateAddress)
			if refused == tt.allowed || (len(dialed) > 0) != tt.allowed {
				t.Errorf("dial %s: err %v, dialed %v; want allowed %v", tt.addr, err, dialed, tt.allowed)
			}
		})
	}
}
