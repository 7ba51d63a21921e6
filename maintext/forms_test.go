package maintext

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestMainTextForms checks the form rule: a form holding less than half
// the page's text goes (search, comment and sign-up forms), one holding
// more stays (a form wrapping the page), however many forms come before
// it, since the page's text is counted only as far as each form needs.
func TestMainTextForms(t *testing.T) {
	var sb strings.Builder
	for i := range 12 {
		fmt.Fprintf(&sb, "<p>The council voted on Tuesday to keep library number %d open on weekends, after a long debate.</p>", i)
	}
	article := sb.String()
	search := `<form action="/search"><p>Search the archive of this site by keyword.</p><input name="q"></form>`
	comment := `<form action="/comment"><p>Leave a comment. Your email address will not be published.</p><textarea></textarea></form>`
	page := func(body string) string { return "<html><body>" + body + "</body></html>" }
	runMainTextCases(t, []mainTextCase{
		{"small forms go", page(search + "<div>" + article + "</div>" + comment), []string{"council voted"}, []string{"Search the archive", "Leave a comment"}},
		{"wrapping form stays", page("<form action=/page.aspx>" + article + "</form>"), []string{"council voted"}, nil},
		{"small forms, then a wrapping one", page(search + search + "<form action=/page.aspx>" + article + "</form>"), []string{"council voted"}, []string{"Search the archive"}},
		{"form with no text", page(`<form><input name=q></form><div>` + article + `</div>`), []string{"council voted"}, nil},
	})
}

// TestBodyTextOver checks the page's text count against the full count,
// for limits asked in any order.
func TestBodyTextOver(t *testing.T) {
	doc, err := html.Parse(strings.NewReader("<body><p>one two</p><div> three <b>four</b> </div><script>not counted</script><p>five</p></body>"))
	if err != nil {
		t.Fatal(err)
	}
	full := mcTextLen(doc, 1<<30)
	if full != len("one two")+len("three")+len("four")+len("five") {
		t.Fatalf("mcTextLen = %d", full)
	}
	rising := make([]int, full+2)
	for i := range rising {
		rising[i] = i
	}
	for _, order := range [][]int{{0, 5, 100, 3, full, full - 1}, {100, 0, full - 1, full}, {full, 0, 1}, rising} {
		w := &mcWalker{root: doc, bodyLen: -1}
		for _, x := range order {
			if got, want := w.bodyTextOver(x), full > x; got != want {
				t.Errorf("order %v: bodyTextOver(%d) = %v, want %v", order, x, got, want)
			}
		}
	}
}
