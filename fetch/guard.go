package fetch

import (
	"encoding/binary"
	"net/netip"
)

// isPrivate reports whether the private-network guard refuses a: every
// address that is not global unicast. The rule, documented in the package
// doc under "Private-network guard", is an allow list:
//
//   - IPv4: everything except the blocks of the IANA IPv4 Special-Purpose
//     Address Registry that are not globally reachable (private4).
//   - IPv6: only 2000::/3, minus 2001::/23 (IETF protocol assignments,
//     Teredo 2001::/32 included), 2001:db8::/32 and 3fff::/20
//     (documentation).
//   - IPv6 forms that carry an IPv4 address are judged by that address:
//     IPv4-mapped ::ffff:0:0/96, NAT64 64:ff9b::/96 (RFC 6052) and 6to4
//     2002::/16 (RFC 3056). The other forms are refused whatever they
//     embed: IPv4-compatible ::/96 (deprecated by RFC 4291), local-use NAT64
//     64:ff9b:1::/48 (RFC 8215: where the IPv4 address sits depends on a
//     local choice of prefix length) and Teredo (inside 2001::/23).
//
// The invalid zero Addr is refused.
func isPrivate(a netip.Addr) bool {
	if !a.IsValid() {
		return true
	}
	if a.Is4() {
		return isPrivate4(a.As4())
	}
	b := a.As16()
	hi := binary.BigEndian.Uint64(b[:8])
	lo := binary.BigEndian.Uint64(b[8:])
	switch {
	case hi == 0 && lo>>32 == 0xffff: // ::ffff:0:0/96, IPv4-mapped
		return isPrivate4([4]byte(b[12:]))
	case hi == 0x0064_ff9b_0000_0000 && lo>>32 == 0: // 64:ff9b::/96, NAT64
		return isPrivate4([4]byte(b[12:]))
	case b[0]&0xe0 != 0x20: // outside 2000::/3
		return true
	case b[0] == 0x20 && b[1] == 0x02: // 2002::/16, 6to4
		return isPrivate4([4]byte(b[2:6]))
	case b[0] == 0x20 && b[1] == 0x01 && b[2]&0xfe == 0: // 2001::/23
		return true
	case hi>>32 == 0x2001_0db8: // 2001:db8::/32
		return true
	case hi>>44 == 0x3fff0: // 3fff::/20
		return true
	}
	return false
}

// private4 lists the blocks of the IANA IPv4 Special-Purpose Address
// Registry that are not globally reachable, plus multicast and the former
// class E (which includes the limited broadcast address). 192.0.0.0/24 is
// refused whole, though the registry marks two of its addresses (PCP and
// TURN anycast, 192.0.0.9 and .10) global: no web server lives there.
var private4 = [...]struct{ net, mask uint32 }{
	{0x00000000, 0xff000000}, // 0.0.0.0/8       "this network"
	{0x0a000000, 0xff000000}, // 10.0.0.0/8      private (RFC 1918)
	{0x64400000, 0xffc00000}, // 100.64.0.0/10   shared address space (RFC 6598)
	{0x7f000000, 0xff000000}, // 127.0.0.0/8     loopback
	{0xa9fe0000, 0xffff0000}, // 169.254.0.0/16  link local
	{0xac100000, 0xfff00000}, // 172.16.0.0/12   private (RFC 1918)
	{0xc0000000, 0xffffff00}, // 192.0.0.0/24    IETF protocol assignments
	{0xc0000200, 0xffffff00}, // 192.0.2.0/24    documentation (TEST-NET-1)
	{0xc0586300, 0xffffff00}, // 192.88.99.0/24  6to4 relay anycast (deprecated)
	{0xc0a80000, 0xffff0000}, // 192.168.0.0/16  private (RFC 1918)
	{0xc6120000, 0xfffe0000}, // 198.18.0.0/15   benchmarking
	{0xc6336400, 0xffffff00}, // 198.51.100.0/24 documentation (TEST-NET-2)
	{0xcb007100, 0xffffff00}, // 203.0.113.0/24  documentation (TEST-NET-3)
	{0xe0000000, 0xf0000000}, // 224.0.0.0/4     multicast
	{0xf0000000, 0xf0000000}, // 240.0.0.0/4     reserved, 255.255.255.255 broadcast
}

func isPrivate4(b [4]byte) bool {
	v := binary.BigEndian.Uint32(b[:])
	for _, p := range private4 {
		if v&p.mask == p.net {
			return true
		}
	}
	return false
}

// metadata are the addresses a crawler that may reach private networks
// (Options.AllowPrivateNetworks) still refuses unless Options.AllowNetworks
// names them: link-local addresses, where clouds serve instance metadata
// and credentials, and the other metadata services' addresses:
//   - 169.254.0.0/16 (RFC 3927): AWS, GCP, Azure, OpenStack and
//     DigitalOcean metadata at 169.254.169.254, AWS ECS at 169.254.170.2;
//   - fe80::/10 (RFC 4291) and fd00:ec2::254, AWS's IPv6 metadata service;
//   - 100.100.100.200, Alibaba Cloud's metadata service;
//   - 192.0.0.192, Oracle Cloud's metadata service (legacy);
//   - 168.63.129.16, Azure's WireServer.
var metadata = []netip.Prefix{
	netip.MustParsePrefix("169.254.0.0/16"),
	netip.MustParsePrefix("fe80::/10"),
	netip.MustParsePrefix("fd00:ec2::254/128"),
	netip.MustParsePrefix("100.100.100.200/32"),
	netip.MustParsePrefix("192.0.0.192/32"),
	netip.MustParsePrefix("168.63.129.16/32"),
}

// isMetadata reports whether a is a link-local or cloud metadata address.
func isMetadata(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range metadata {
		if p.Contains(a) {
			return true
		}
	}
	return !a.IsValid()
}
