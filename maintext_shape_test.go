package trawl_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/store"
)

// TestMainTextShapeInJSONL crawls a documentation page and checks that
// the JSONL record's main_text keeps the page's shape: the code's lines
// and indentation, one table row a line; with MainTextMarkdown, as
// Markdown.
func TestMainTextShapeInJSONL(t *testing.T) {
	for _, tt := range []struct {
		name string
		fn   trawl.MainTextFunc
		want []string
	}{
		{"text", trawl.MainText, []string{"Loops\n\nA loop runs", "for i in range(3):\n    print(i)  # indented", "Name | Meaning\nbreak | leaves the loop"}},
		{"markdown", trawl.MainTextMarkdown, []string{"# Loops\n\nA loop runs", "```\nfor i in range(3):\n    print(i)  # indented\n```", "| Name | Meaning |\n|---|---|\n| break | leaves the loop |"}},
	} {
		t.Run(tt.name, func(t *testing.T) { mainTextInJSONL(t, tt.fn, tt.want) })
	}
}

func mainTextInJSONL(t *testing.T, fn trawl.MainTextFunc, want []string) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<html><head><title>Loops</title></head><body><nav><a href="/">Home</a></nav><main>
<h1>Loops</h1><p>A loop runs its body once for every item, as the example below shows in a few lines of code.</p>
<pre>for i in range(3):
    print(i)  # indented</pre>
<table><tr><th>Name</th><th>Meaning</th></tr><tr><td>break</td><td>leaves the loop</td></tr></table>
<p>The loop ends when the items run out, or when a break statement leaves it early.</p></main></body></html>`)
	}))
	defer srv.Close()
	var out bytes.Buffer
	c, err := trawl.New(trawl.WithSeeds(srv.URL+"/"), trawl.WithAllowPrivateNetworks(true),
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}), trawl.WithUserAgent(testUA),
		trawl.WithMainText(fn), trawl.WithStore(store.NewJSONLWriter(&out)))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	var rec store.PageRecord
	if err := json.Unmarshal([]byte(strings.TrimSpace(out.String())), &rec); err != nil {
		t.Fatalf("JSONL %q: %v", out.String(), err)
	}
	for _, w := range want {
		if !strings.Contains(rec.MainText, w) {
			t.Errorf("main_text lacks %q:\n%s", w, rec.MainText)
		}
	}
}
