package maintext

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

// TestMcMayNameBody checks the test that spares decoding JSON-LD blocks
// against its definition: a block whose decoded keys include articleBody
// always passes it.
func TestMcMayNameBody(t *testing.T) {
	letters := map[byte]string{'a': `\u0061`, 'r': `\u0072`, 't': `\u0074`, 'i': `\u0069`, 'c': `\u0063`, 'l': `\u006C`,
		'e': `\u0065`, 'B': `\u0042`, 'o': `\u006f`, 'd': `\u0064`, 'y': `\u0079`}
	for i := range len("articleBody") {
		key := "articleBody"[:i] + letters["articleBody"[i]] + "articleBody"[i+1:]
		src := `{"name":"Caf\u00e9 \u0026 bar","` + key + `":"x"}`
		if !mcMayNameBody(src) {
			t.Errorf("mcMayNameBody(%s) = false, want true", src)
		}
	}
	for _, src := range []string{`{"name":"Caf\u00e9 \u0026 \u00FC"}`, `{"a":"\u00"}`, `{"a":"x\u0`, `{"articlebody":1}`, ``} {
		if mcMayNameBody(src) {
			t.Errorf("mcMayNameBody(%s) = true, want false", src)
		}
	}
	if !mcMayNameBody(`{"x":"\u0042"}`) {
		t.Error("an escaped letter of the key in a value must pass too (the test looks at no structure)")
	}
}
