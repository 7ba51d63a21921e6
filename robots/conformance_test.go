package robots

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/temoto/robotstxt"

	"github.com/trawl-dev/trawl/internal/shareddata"
)

type conformanceCase struct {
	Name         string `json:"name"`
	Robots       string `json:"robots"`
	RobotsBase64 string `json:"robots_base64"`
	Agent        string `json:"agent"`
	URL          string `json:"url"`
	Allowed      bool   `json:"allowed"`
	Source       string `json:"source"`
	Note         string `json:"note"`
}

// deliberateDifferences lists the conformance cases this package fails on
// purpose, with the reason (also given in doc.go).
var deliberateDifferences = map[string]string{
	"GoogleOnly_AcceptUserAgentUpToFirstSpace/02": "Allowed reduces the caller's user agent to its product token, so \"Foo Bar\" is crawler Foo",
}

func loadConformance(t testing.TB) []conformanceCase {
	t.Helper()
	conformancePath := filepath.Join(shareddata.Dir(t, "conformance"), "robots_cases.json")
	data, err := os.ReadFile(conformancePath)
	if err != nil {
		t.Fatal(err)
	}
	var cases []conformanceCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatalf("decode %s: %v", conformancePath, err)
	}
	return cases
}

func (c *conformanceCase) body(t testing.TB) []byte {
	t.Helper()
	if c.RobotsBase64 == "" {
		return []byte(c.Robots)
	}
	b, err := base64.StdEncoding.DecodeString(c.RobotsBase64)
	if err != nil {
		t.Fatalf("%s: bad robots_base64: %v", c.Name, err)
	}
	return b
}

func TestConformance(t *testing.T) {
	cases := loadConformance(t)
	passed, deliberate := 0, 0
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			r, err := Parse(c.body(t))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			got := r.Allowed(c.Agent, c.URL)
			if reason, ok := deliberateDifferences[c.Name]; ok {
				deliberate++
				if got == c.Allowed {
					t.Errorf("case listed as a deliberate difference (%s) now passes: update the list and doc.go", reason)
				}
				return
			}
			if got != c.Allowed {
				t.Errorf("Allowed(%q, %q) = %v, want %v (robots %q; %s)", c.Agent, c.URL, got, c.Allowed, truncate(c.Robots, 200), c.Note)
				return
			}
			passed++
		})
	}
	t.Logf("conformance: %d of %d pass, %d deliberate differences", passed, len(cases), deliberate)
}

// TestConformanceTemoto measures github.com/temoto/robotstxt on the same
// vectors: the figure quoted in doc.go, and the reason this package has its
// own parser.
func TestConformanceTemoto(t *testing.T) {
	cases := loadConformance(t)
	ours, theirs := 0, 0
	for _, c := range cases {
		body := c.body(t)
		if r, _ := Parse(body); r.Allowed(c.Agent, c.URL) == c.Allowed {
			ours++
		}
		d, err := robotstxt.FromBytes(body)
		got := true // a crawler reads a rejected file as "no rules"
		if err == nil {
			got = d.TestAgent(pathOf(c.URL), c.Agent)
		}
		if got == c.Allowed {
			theirs++
		}
	}
	t.Logf("conformance: this package %d/%d, temoto/robotstxt %d/%d", ours, len(cases), theirs, len(cases))
	if ours <= theirs {
		t.Errorf("this package passes %d cases, temoto %d: the own parser has lost its reason to exist", ours, theirs)
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
