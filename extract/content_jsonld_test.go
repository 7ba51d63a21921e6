package extract

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestMcJSONLDBody checks which JSON-LD blocks give an article body: only
// those with the key, however it is written, and only valid JSON.
func TestMcJSONLDBody(t *testing.T) {
	tests := []struct {
		name, scripts, want string
	}{
		{"plain key", `{"@type":"NewsArticle","articleBody":"Body text."}`, "Body text.\n"},
		{"escaped key", `{"@type":"NewsArticle","article\u0042ody":"Escaped body."}`, "Escaped body.\n"},
		{"nested", `{"@graph":[{"@type":"WebPage"},{"articleBody":"Nested."}]}`, "Nested.\n"},
		{"no body", `{"@type":"Organization","name":"Example"}`, ""},
		{"escapes but no body", `{"name":"Caf\u00e9"}`, ""},
		{"invalid JSON", `{"articleBody":"Broken."`, ""},
		{"other key case", `{"articlebody":"Lower case."}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page := `<html><head><script type="application/ld+json">` + tt.scripts + `</script></head><body><p>x</p></body></html>`
			doc, err := html.Parse(strings.NewReader(page))
			if err != nil {
				t.Fatal(err)
			}
			if got := mcJSONLDBody(doc); got != tt.want {
				t.Errorf("mcJSONLDBody = %q, want %q", got, tt.want)
			}
		})
	}
}
