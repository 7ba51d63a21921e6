package urlnorm

import (
	"errors"
	"net/url"
	"strings"
	"testing"
)

func TestNormalizeDefaultRules(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{name: "lowercase scheme", in: "HTTP://example.com/", want: "http://example.com/"},
		{name: "lowercase host", in: "http://ExAmPlE.CoM/", want: "http://example.com/"},
		{name: "path case kept", in: "http://h/A/b/C", want: "http://h/A/b/C"},
		{name: "empty path", in: "http://h", want: "http://h/"},
		{name: "default http port", in: "http://h:80/", want: "http://h/"},
		{name: "default https port", in: "https://h:443/", want: "https://h/"},
		{name: "port with leading zeros", in: "http://h:0080/", want: "http://h/"},
		{name: "other port kept", in: "http://h:8080/", want: "http://h:8080/"},
		{name: "https port on http kept", in: "http://h:443/", want: "http://h:443/"},
		{name: "fragment removed", in: "http://h/a#top", want: "http://h/a"},
		{name: "empty query removed", in: "http://h/a?", want: "http://h/a"},
		{name: "empty query and fragment", in: "http://h/a?#x", want: "http://h/a"},
		{name: "query order kept", in: "http://h/?b=2&a=1", want: "http://h/?b=2&a=1"},
		{name: "dot segments", in: "http://h/a/./b/../c", want: "http://h/a/c"},
		{name: "dot segments above root", in: "http://h/../../a", want: "http://h/a"},
		{name: "encoded dot segments", in: "http://h/a/%2e%2E/b/%2e", want: "http://h/b/"},
		{name: "trailing dot dir", in: "http://h/a/b/..", want: "http://h/a/"},
		{name: "decode unreserved", in: "http://h/%41%62%7e%2D%5f%2e%30", want: "http://h/Ab~-_.0"},
		{name: "decode unreserved in query", in: "http://h/?q=%7Euser", want: "http://h/?q=~user"},
		{name: "reserved slash kept", in: "http://h/a%2Fb", want: "http://h/a%2Fb"},
		{name: "reserved equals kept", in: "http://h/a%3db?x=%3D%26", want: "http://h/a%3Db?x=%3D%26"},
		{name: "uppercase escapes", in: "http://h/%c3%a9?%c3%a9", want: "http://h/%C3%A9?%C3%A9"},
		{name: "lone percent", in: "http://h/100%?p=5%", want: "http://h/100%25?p=5%25"},
		{name: "bad escape", in: "http://h/%zz", want: "http://h/%25zz"},
		{name: "space encoded", in: "http://h/a b?c d", want: "http://h/a%20b?c%20d"},
		{name: "non-ASCII path", in: "http://h/café", want: "http://h/caf%C3%A9"},
		{name: "pipe in path encoded", in: "http://h/a|b^c", want: "http://h/a%7Cb%5Ec"},
		{name: "brackets in path kept", in: "http://h/a[1]", want: "http://h/a[1]"},
		{name: "pipe in query kept", in: "http://h/?a=|", want: "http://h/?a=|"},
		{name: "quote in query", in: "http://h/?a='", want: "http://h/?a=%27"},
		{name: "IDN to punycode", in: "http://Bücher.example/", want: "http://xn--bcher-kva.example/"},
		{name: "percent-encoded IDN", in: "https://%e2%98%83/", want: "https://xn--n3h/"},
		{name: "trailing dot", in: "http://example.com./a", want: "http://example.com/a"},
		{name: "IPv4 hex", in: "http://0x7f.1/", want: "http://127.0.0.1/"},
		{name: "IPv4 number", in: "http://3232235777/", want: "http://192.168.1.1/"},
		{name: "IPv6", in: "http://[0:0::1]:81/", want: "http://[::1]:81/"},
		{name: "whitespace trimmed", in: "  http://h/a \n", want: "http://h/a"},
		{name: "tabs and newlines removed", in: "ht\ttp://h/a\nb", want: "http://h/ab"},
		{name: "backslashes", in: "http:\\\\h\\a\\b", want: "http://h/a/b"},
		{name: "userinfo removed", in: "http://User:P%40ss@h/", want: "http://h/"},
		{name: "userinfo with sub-delims removed", in: "http:=@h", want: "http://h/"},
		{name: "underscore host", in: "http://a_b.example/", want: "http://a_b.example/"},
		{name: "punycode label kept", in: "http://a.XN--pokxncvks/", want: "http://a.xn--pokxncvks/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Normalize(tt.in)
			if err != nil || got != tt.want {
				t.Errorf("Normalize(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestNormalizeOptions(t *testing.T) {
	tests := []struct {
		name string
		opt  Option
		in   string
		want string
	}{
		{name: "sort query", opt: WithSortQuery(true), in: "http://h/?b=2&a=1&&a=0", want: "http://h/?a=1&a=0&b=2"},
		{name: "sort query off", opt: WithSortQuery(false), in: "http://h/?b=2&a=1", want: "http://h/?b=2&a=1"},
		{name: "tracking", opt: WithRemoveTracking(true), in: "http://h/?id=7&UTM_Source=x&gclid=1&fbclid=2", want: "http://h/?id=7"},
		{name: "tracking only", opt: WithRemoveTracking(true), in: "http://h/p?utm_medium=x", want: "http://h/p"},
		{name: "tracking keeps sessions", opt: WithRemoveTracking(true), in: "http://h/?sid=1", want: "http://h/?sid=1"},
		{name: "session query", opt: WithRemoveSessionIDs(true), in: "http://h/?PHPSESSID=ab&p=2&ASPSESSIONIDQQ=x", want: "http://h/?p=2"},
		{name: "session path param", opt: WithRemoveSessionIDs(true), in: "http://h/a;jsessionid=F00?p=2", want: "http://h/a?p=2"},
		{name: "session path param mid", opt: WithRemoveSessionIDs(true), in: "http://h/a;JSESSIONID=F00/b", want: "http://h/a/b"},
		{name: "index.html", opt: WithRemoveDirectoryIndex(true), in: "http://h/a/index.html", want: "http://h/a/"},
		{name: "Default.aspx", opt: WithRemoveDirectoryIndex(true), in: "http://h/Default.aspx?x=1", want: "http://h/?x=1"},
		{name: "index not last", opt: WithRemoveDirectoryIndex(true), in: "http://h/index.html/a", want: "http://h/index.html/a"},
		{name: "fold www", opt: WithFoldWWW(true), in: "http://WWW.example.com/", want: "http://example.com/"},
		{name: "fold www keeps www.com", opt: WithFoldWWW(true), in: "http://www.com/", want: "http://www.com/"},
		{name: "fold www twice", opt: WithFoldWWW(true), in: "http://www.www.example.com/", want: "http://example.com/"},
		{name: "session param on dot segment", opt: WithRemoveSessionIDs(true), in: "http://h/a/..;jsessionid=1", want: "http://h/a/..;jsessionid=1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := New(tt.opt).Normalize(tt.in)
			if err != nil || got != tt.want {
				t.Errorf("Normalize(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestNormalizeErrors(t *testing.T) {
	tests := []struct {
		in   string
		want error
	}{
		{in: "mailto:a@example.com", want: ErrScheme},
		{in: "javascript:void(0)", want: ErrScheme},
		{in: "ftp://example.com/", want: ErrScheme},
		{in: "data:text/plain,x", want: ErrScheme},
		{in: "/relative", want: ErrInvalid},
		{in: "", want: ErrInvalid},
		{in: "http://", want: ErrInvalid},
		{in: "http://h:99999/", want: ErrInvalid},
		{in: "http://h:8a/", want: ErrInvalid},
		{in: "http://a b/", want: ErrInvalid},
		{in: "http://[::1/", want: ErrInvalid},
		{in: "http://1.2.3.4.5/", want: ErrInvalid},
		{in: "http://a..b/", want: ErrInvalid},
		{in: "http://a*b/", want: ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := Normalize(tt.in)
			if !errors.Is(err, tt.want) {
				t.Errorf("Normalize(%q) = %q, %v; want error wrapping %v", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestResolveString(t *testing.T) {
	base, err := url.Parse("http://Example.com/dir/page.html?x=1#top")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		ref  string
		want string
	}{
		{ref: "other.html", want: "http://example.com/dir/other.html"},
		{ref: "../up", want: "http://example.com/up"},
		{ref: "../../../../up", want: "http://example.com/up"},
		{ref: "/abs?q=1", want: "http://example.com/abs?q=1"},
		{ref: "?q=2", want: "http://example.com/dir/page.html?q=2"},
		{ref: "#frag", want: "http://example.com/dir/page.html?x=1"},
		{ref: "", want: "http://example.com/dir/page.html?x=1"},
		{ref: ".", want: "http://example.com/dir/"},
		{ref: "//cdn.example.org/a.js", want: "http://cdn.example.org/a.js"},
		{ref: "https://Other.org:443/x", want: "https://other.org/x"},
		{ref: "  sp ace.html\n", want: "http://example.com/dir/sp%20ace.html"},
		{ref: "a\tb", want: "http://example.com/dir/ab"},
		{ref: "\\\\evil.com\\x", want: "http://evil.com/x"},
		{ref: "http:rel", want: "http://example.com/dir/rel"},
		{ref: "café", want: "http://example.com/dir/caf%C3%A9"},
		{ref: "//bücher.example/", want: "http://xn--bcher-kva.example/"},
		{ref: "%7Euser/", want: "http://example.com/dir/~user/"},
	}
	var n Normalizer
	for _, tt := range tests {
		t.Run(tt.ref, func(t *testing.T) {
			got, err := n.ResolveString(base, tt.ref)
			if err != nil || got != tt.want {
				t.Errorf("ResolveString(%q, %q) = %q, %v; want %q", base, tt.ref, got, err, tt.want)
			}
			slow, err := n.resolveSlow(base, tt.ref)
			if err != nil || slow != tt.want {
				t.Errorf("resolveSlow(%q, %q) = %q, %v; want %q", base, tt.ref, slow, err, tt.want)
			}
		})
	}
	for _, ref := range []string{"mailto:x@y", "javascript:alert(1)", "tel:+1"} {
		if got, err := n.ResolveString(base, ref); !errors.Is(err, ErrScheme) {
			t.Errorf("ResolveString(%q, %q) = %q, %v; want ErrScheme", base, ref, got, err)
		}
	}
	if got, err := n.ResolveString(nil, "rel"); !errors.Is(err, ErrInvalid) {
		t.Errorf("ResolveString(nil, %q) = %q, %v; want ErrInvalid", "rel", got, err)
	}
}

func TestNormalizeURLDoesNotMutate(t *testing.T) {
	u, err := url.Parse("HTTP://Example.com:80/a/../b?#f")
	if err != nil {
		t.Fatal(err)
	}
	before := *u
	got, err := New(allOptions...).NormalizeURL(u)
	if err != nil {
		t.Fatal(err)
	}
	if *u != before {
		t.Errorf("NormalizeURL modified its argument: %+v, was %+v", *u, before)
	}
	if want := "http://example.com/b"; got.String() != want {
		t.Errorf("NormalizeURL(%q) = %q, want %q", before.String(), got, want)
	}
}

func TestResolveRoundTrip(t *testing.T) {
	// Serializations net/url would re-encode go through Opaque.
	tests := []string{
		"http://h/a|b", "http://h/100%", "http://h/a^b?c#d", "http://u%zz@h/",
	}
	for _, in := range tests {
		u, err := Resolve(nil, in)
		if err != nil {
			t.Errorf("Resolve(nil, %q): %v", in, err)
			continue
		}
		if u.String() != in {
			t.Errorf("Resolve(nil, %q).String() = %q, want %q", in, u.String(), in)
		}
		if u.Host != "h" {
			t.Errorf("Resolve(nil, %q).Host = %q, want %q", in, u.Host, "h")
		}
	}
}

func TestKey(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{in: "http://Example.COM/a", want: "example.com"},
		{in: "http://example.com:80/a", want: "example.com"},
		{in: "https://example.com:443/a", want: "example.com"},
		{in: "http://example.com:443/a", want: "example.com:443"},
		{in: "https://Example.com:8443/a", want: "example.com:8443"},
		{in: "http://[::1]:80/", want: "[::1]"},
		{in: "http://[::1]:8080/", want: "[::1]:8080"},
		{in: "http://h:/", want: "h"},
	}
	for _, tt := range tests {
		u, err := url.Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := Key(u); got != tt.want {
			t.Errorf("Key(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for _, tt := range []struct{ in, want string }{
		{in: "HTTP://User@Bücher.example:80/", want: "xn--bcher-kva.example"},
		{in: "https://h.example:8443/x", want: "h.example:8443"},
	} {
		if got, err := KeyString(tt.in); err != nil || got != tt.want {
			t.Errorf("KeyString(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	if _, err := KeyString("mailto:x@y"); !errors.Is(err, ErrScheme) {
		t.Errorf("KeyString(%q) error = %v, want ErrScheme", "mailto:x@y", err)
	}
}

func TestAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counts in -short mode are not needed")
	}
	base, err := url.Parse("https://www.example.com/news/2024/article.html")
	if err != nil {
		t.Fatal(err)
	}
	var n Normalizer
	for _, ref := range []string{"../sport/index.html", "/about?lang=en", "https://cdn.example.org/x.js"} {
		allocs := testing.AllocsPerRun(100, func() {
			if _, err := n.ResolveString(base, ref); err != nil {
				t.Fatal(err)
			}
		})
		if allocs > 1 {
			t.Errorf("ResolveString(%q, %q) allocates %v times, want 1", base, ref, allocs)
		}
	}
	if allocs := testing.AllocsPerRun(100, func() { _ = Key(base) }); allocs != 0 {
		t.Errorf("Key(%q) allocates %v times, want 0", base, allocs)
	}
}

func TestLimits(t *testing.T) {
	base, err := url.Parse("http://h/")
	if err != nil {
		t.Fatal(err)
	}
	var n Normalizer
	for _, ref := range []string{
		"/" + strings.Repeat("a", MaxRefLength),
		"//" + strings.Repeat("a@", maxAtSigns+1) + "h/",
		"http://" + strings.Repeat("a@", maxAtSigns+1) + "h/",
	} {
		if got, err := n.ResolveString(base, ref); !errors.Is(err, ErrInvalid) {
			t.Errorf("ResolveString(%q, %.20q...) = %q, %v; want ErrInvalid", base, ref, got, err)
		}
		if _, err := Resolve(base, ref); !errors.Is(err, ErrInvalid) {
			t.Errorf("Resolve(%q, %.20q...) error = %v; want ErrInvalid", base, ref, err)
		}
	}
	ok := "/" + strings.Repeat("a", MaxRefLength-len("http://h/"))
	if _, err := n.ResolveString(base, ok); err != nil {
		t.Errorf("ResolveString(%q, %d bytes): %v", base, len(ok), err)
	}
}

func TestResolveStringOddBases(t *testing.T) {
	tests := []struct {
		base *url.URL
		ref  string
		want string
	}{
		{base: &url.URL{Scheme: "http", Host: "h", Path: "/a/.."}, ref: "x", want: "http://h/x"},
		{base: &url.URL{Scheme: "http", Host: "h", Path: "/a/./b"}, ref: "x", want: "http://h/a/x"},
		{base: &url.URL{Scheme: "http", Host: "H:80", Path: "/a b/c"}, ref: "d", want: "http://h/a%20b/d"},
		{base: &url.URL{Scheme: "http", Host: "h", Path: "/a%b"}, ref: "", want: "http://h/a%25b"},
		{base: &url.URL{Scheme: "http", Host: "h", Path: "/é", RawQuery: "q=é"}, ref: "#f", want: "http://h/%C3%A9?q=%C3%A9"},
		{base: &url.URL{Scheme: "https", Host: "h", Path: "/a", User: url.User("u")}, ref: "b", want: "https://h/b"},
		{base: &url.URL{Scheme: "http", Host: "1.2.3.4", Path: "/a/b"}, ref: "../c", want: "http://1.2.3.4/c"},
	}
	var n Normalizer
	for _, tt := range tests {
		got, err := n.ResolveString(tt.base, tt.ref)
		if err != nil || got != tt.want {
			t.Errorf("ResolveString(%q, %q) = %q, %v; want %q", tt.base, tt.ref, got, err, tt.want)
		}
	}
}

func TestFastPathIPv4(t *testing.T) {
	base, _ := url.Parse("http://127.0.3.17:40123/dir/page.html")
	n := New()
	tests := []struct {
		ref  string
		fast bool // canonical dotted quads take the fast path
	}{
		{ref: "other.html", fast: true},
		{ref: "http://10.0.0.1/x", fast: true},
		{ref: "http://10.0.0.1:80/x", fast: true},
		{ref: "//192.168.1.255:8080/y?q", fast: true},
		{ref: "http://010.0.0.1/x"},  // octal part
		{ref: "http://0x7f.0.0.1/x"}, // hex part
		{ref: "http://127.1/x"},      // short form
		{ref: "http://256.0.0.1/x"},  // out of range: an error
		{ref: "http://1.2.3.4./x"},   // trailing dot
		{ref: "http://1.2.3.4.5/x"},  // five parts: an error
		{ref: "http://4294967295/x"}, // one number
	}
	for _, tt := range tests {
		got, err := n.ResolveString(base, tt.ref)
		slow, slowErr := n.resolveSlow(base, tt.ref)
		if got != slow || (err == nil) != (slowErr == nil) {
			t.Errorf("ResolveString(%q) = %q, %v; slow path %q, %v", tt.ref, got, err, slow, slowErr)
		}
		_, fast, _ := n.resolveFast(base, tt.ref)
		if fast != tt.fast {
			t.Errorf("resolveFast(%q) handled = %v, want %v", tt.ref, fast, tt.fast)
		}
	}
}
