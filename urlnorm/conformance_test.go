package urlnorm

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/trawl-dev/trawl/internal/shareddata"
)

// conformanceCase is one entry of url_cases.json (WHATWG web-platform-tests
// urltestdata.json, http(s) cases only).
type conformanceCase struct {
	ID      int    `json:"id"`
	Input   string `json:"input"`
	Base    string `json:"base"`
	Href    string `json:"href"`
	Failure bool   `json:"failure"`
}

// Known Resolve disagreements with url_cases.json, by case id, and why.
// Each is a WHATWG serialization that net/url's URL type cannot hold; the
// resolution itself is right (ResolveHref passes them).
var knownResolveFailures = map[int]string{
	31:  "net/url drops an empty fragment",
	32:  "net/url drops an empty fragment",
	34:  "net/url re-encodes '\\' in a fragment",
	64:  "net/url re-encodes '#' in a fragment",
	174: "net/url drops an empty fragment",
	705: "net/url drops an empty fragment",
	712: "net/url re-encodes a lone '%' in a fragment",
}

func loadConformance(t *testing.T) []conformanceCase {
	t.Helper()
	path := filepath.Join(shareddata.Dir(t, "conformance"), "url_cases.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cases []conformanceCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	return cases
}

// resolveCase resolves c.Input against c.Base with Resolve, parsing the base
// with Resolve too.
func resolveCase(c conformanceCase) (*url.URL, error) {
	var base *url.URL
	if c.Base != "" {
		b, err := Resolve(nil, c.Base)
		if err != nil {
			return nil, fmt.Errorf("base: %w", err)
		}
		base = b
	}
	return Resolve(base, c.Input)
}

func TestResolveConformance(t *testing.T) {
	cases := loadConformance(t)
	var okSuccess, nSuccess, okFailure, nFailure int
	for _, c := range cases {
		t.Run(fmt.Sprint(c.ID), func(t *testing.T) {
			u, err := resolveCase(c)
			if c.Failure {
				nFailure++
				if err == nil {
					t.Errorf("Resolve(%q, %q) = %q, want error", c.Base, c.Input, u)
					return
				}
				okFailure++
				return
			}
			nSuccess++
			got := ""
			if err == nil {
				got = u.String()
			}
			if err != nil || got != c.Href {
				if why, known := knownResolveFailures[c.ID]; known {
					t.Logf("known difference (%s): Resolve(%q, %q) = %q, %v; want %q", why, c.Base, c.Input, got, err, c.Href)
					return
				}
				t.Errorf("Resolve(%q, %q) = %q, %v; want %q", c.Base, c.Input, got, err, c.Href)
				return
			}
			okSuccess++
		})
	}
	t.Logf("Resolve: %d/%d success cases, %d/%d failure cases", okSuccess, nSuccess, okFailure, nFailure)
	if want := nSuccess - len(knownResolveFailures); okSuccess < want {
		t.Errorf("Resolve passes %d/%d success cases, want at least %d", okSuccess, nSuccess, want)
	}
}

func TestResolveHrefConformance(t *testing.T) {
	cases := loadConformance(t)
	var okSuccess, nSuccess, okFailure, nFailure int
	for _, c := range cases {
		t.Run(fmt.Sprint(c.ID), func(t *testing.T) {
			var base *url.URL
			if c.Base != "" {
				b, err := Resolve(nil, c.Base)
				if err != nil {
					t.Fatalf("Resolve(nil, %q): %v", c.Base, err)
				}
				base = b
			}
			got, err := ResolveHref(base, c.Input)
			if c.Failure {
				nFailure++
				if err == nil {
					t.Errorf("ResolveHref(%q, %q) = %q, want error", c.Base, c.Input, got)
					return
				}
				okFailure++
				return
			}
			nSuccess++
			if err != nil || got != c.Href {
				t.Errorf("ResolveHref(%q, %q) = %q, %v; want %q", c.Base, c.Input, got, err, c.Href)
				return
			}
			okSuccess++
		})
	}
	t.Logf("ResolveHref: %d/%d success cases, %d/%d failure cases", okSuccess, nSuccess, okFailure, nFailure)
}

// TestResolveStringConformance runs the table through ResolveString (fast
// path first) and through the slow path alone: both must agree with
// Normalize applied to the expected href, and fail where resolution fails.
func TestResolveStringConformance(t *testing.T) {
	cases := loadConformance(t)
	var n Normalizer
	fast := 0
	for _, c := range cases {
		t.Run(fmt.Sprint(c.ID), func(t *testing.T) {
			var base *url.URL
			if c.Base != "" {
				b, err := url.Parse(c.Base)
				if err != nil {
					t.Skipf("net/url cannot parse base %q: %v", c.Base, err)
				}
				base = b
			}
			got, err := n.ResolveString(base, c.Input)
			slow, slowErr := n.resolveSlow(base, c.Input)
			if _, ok, _ := n.resolveFast(base, c.Input); ok {
				fast++
			}
			if c.Failure {
				if err == nil || slowErr == nil {
					t.Errorf("ResolveString(%q, %q) = %q, %v (slow %q, %v); want error", c.Base, c.Input, got, err, slow, slowErr)
				}
				return
			}
			want, wantErr := Normalize(c.Href)
			if (err != nil) != (wantErr != nil) || got != want {
				t.Errorf("ResolveString(%q, %q) = %q, %v; want %q, %v", c.Base, c.Input, got, err, want, wantErr)
			}
			if (slowErr != nil) != (wantErr != nil) || slow != want {
				t.Errorf("resolveSlow(%q, %q) = %q, %v; want %q, %v", c.Base, c.Input, slow, slowErr, want, wantErr)
			}
		})
	}
	t.Logf("fast path decided %d of %d cases", fast, len(cases))
}
