package maintext

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestMainTextWording checks the blocks dropped for their wording
// (wording.go) inside the article's element, and the text like
// them that stays: running text that mentions subscribers, a method
// documented as "Subscribe to ...", a field label in a definition list.
func TestMainTextWording(t *testing.T) {
	ps := boilerplateArticle(6)
	tests := []articleCase{
		{
			// Labels of a contact or information box and a pointer
			// left between the paragraphs.
			name:   "labels",
			inside: `<p>Schon gelesen?</p>`,
			after:  `<p>Weitere Informationen:</p><p>Kontakt:</p>`,
			gone:   []string{"Schon gelesen", "Weitere Informationen", "Kontakt"},
		},
		{
			// Pleas to subscribe and to download the site's app, written
			// as paragraphs of the article; a sentence that mentions
			// subscribers stays, and so does one about another app.
			name: "calls to action",
			after: `<p>Subscribe now to our weekly edition for the full story.</p>` +
				`<p>Folgen Sie uns auf Twitter</p>` +
				`<p>For breaking news download the Crawler Times apps for iOS and Android.</p>` +
				`<p>The paper's subscribers grew by a tenth last year, the publisher said on Monday, and its app store rating rose.</p>`,
			gone: []string{"Subscribe now", "Folgen Sie uns", "download the Crawler Times apps"},
			kept: []string{"The paper's subscribers grew by a tenth last year"},
		},
	}
	runArticleCases(t, ps, tests)
}

// TestMainTextWordingDocs checks that documentation keeps what reads
// like a label or a call: a field list's "Contact:" term and a method
// whose description opens with "Subscribe".
func TestMainTextWordingDocs(t *testing.T) {
	page := `<html><head><title>imaplib - IMAP4 protocol client</title></head><body><div class="body">` +
		`<h1>imaplib - IMAP4 protocol client</h1>` +
		`<dl class="field-list"><dt>Author:</dt><dd>Ann Writer</dd><dt>Contact:</dt><dd>ann at example dot org</dd></dl>` +
		`<p>This module defines three classes which encapsulate a connection to an IMAP4 server and implement a large subset of the client protocol.</p>` +
		`<dl class="method"><dt>IMAP4.subscribe(mailbox)</dt><dd><p>Subscribe to new mailbox.</p></dd></dl>` +
		`<dl class="method"><dt>IMAP4.unsubscribe(mailbox)</dt><dd><p>Unsubscribe from old mailbox.</p></dd></dl>` +
		`<p>The methods return a tuple of the response type and the data, and raise an error when the server refuses the command given.</p>` +
		`</div></body></html>`
	got, err := Extract(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"Contact:", "Subscribe to new mailbox.", "Unsubscribe from old mailbox."} {
		if !strings.Contains(got, s) {
			t.Errorf("Extract lost %q:\n%s", s, got)
		}
	}
}

// TestBoilerWording checks the lexicon's matching on single blocks:
// folding (case, accents, punctuation), whole words, the length cap and
// headings.
func TestBoilerWording(t *testing.T) {
	tests := []struct {
		html string
		want bool
	}{
		{`<p>MÁS INFORMACIÓN:</p>`, true},
		{`<p>Lee también...</p>`, true},
		{`<p>Mehr zum Thema:</p>`, true},
		{`<p>Kontaktformular</p>`, false},                       // a whole label, not a word's prefix
		{`<h2>Weitere Informationen</h2>`, false},               // a heading the article may use
		{`<p>Last Updated: October 27, 2012 9:22pm</p>`, false}, // no label alone: an update stamp gained on one site only
		{`<p>Abonnieren Sie jetzt den Newsletter.</p>`, true},
		{`<p>¡Síguenos en Instagram!</p>`, true},
		{`<p>Dieses Skript als PDF herunterladen</p>`, true},
		{`<p>Download: Oberhofer - Landline (MP3)</p>`, false}, // the post's own download
		{`<p>Subscribe to new mailbox.</p>`, false},            // names no channel
		{`<p>Subscribe to our newsletter and you will be able to read every story of the week before anyone else does, and we will never share your address with anyone at all, as promised.</p>`, false}, // too long
	}
	for _, tt := range tests {
		doc, err := html.Parse(strings.NewReader(`<html><body>` + tt.html + `</body></html>`))
		if err != nil {
			t.Fatal(err)
		}
		w := mcSegment(doc)
		if len(w.blocks) != 1 {
			t.Fatalf("%s: %d blocks", tt.html, len(w.blocks))
		}
		if got := w.boilerWording(&w.blocks[0]); got != tt.want {
			t.Errorf("boilerWording(%s) = %v, want %v", tt.html, got, tt.want)
		}
	}
}

// TestBoilerWordingCallWords checks that mcHasCallWord knows a word of
// every call, so that the quick pass misses none, and that every label
// fits the label length (mcWordingLabelWords words).
func TestBoilerWordingCallWords(t *testing.T) {
	var calls []string
	calls = append(calls, mcWordingCalls[:]...)
	calls = append(calls, mcWordingAddress[:]...)
	calls = append(calls, mcWordingFetch[:]...)
	for _, p := range calls {
		known := false
		for _, word := range strings.Fields(p) {
			known = known || mcHasCallWord([]byte(word))
		}
		if !known {
			t.Errorf("mcHasCallWord knows no word of %q", p)
		}
	}
	for _, p := range mcWordingLabels {
		if n := len(strings.Fields(p)); n > mcWordingLabelWords {
			t.Errorf("label %q has %d words, more than %d", p, n, mcWordingLabelWords)
		}
	}
	if mcHasCallWord([]byte("the paper s subscribers grew")) {
		t.Error("mcHasCallWord found a call in running text")
	}
}
