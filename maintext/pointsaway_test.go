package maintext

import (
	"fmt"
	"strings"
	"testing"
)

// articleCase is an article page (boilerplatePage) with html inserted
// after its second paragraph (inside) and at the end of its body (after):
// every paragraph of the article must stay, and so must kept, while gone
// must go.
type articleCase struct {
	name          string
	inside, after string
	gone, kept    []string
}

// runArticleCases runs Extract on the page of each case built from the
// article paragraphs ps (boilerplatePage) and checks it.
func runArticleCases(t *testing.T, ps []string, tests []articleCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Extract(strings.NewReader(boilerplatePage(ps, tt.inside, tt.after, "")))
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range ps {
				if !strings.Contains(got, p) {
					t.Errorf("paragraph %.40q lost; got %q", p, got)
				}
			}
			for _, s := range tt.gone {
				if strings.Contains(got, s) {
					t.Errorf("Extract kept %q:\n%s", s, got)
				}
			}
			for _, s := range tt.kept {
				if !strings.Contains(got, s) {
					t.Errorf("Extract lost %q:\n%s", s, got)
				}
			}
		})
	}
}

// TestMainTextPointsAway checks the lines kept with an article that
// point away from it without being links to other articles.
func TestMainTextPointsAway(t *testing.T) {
	ps := boilerplateArticle(6)
	tests := []articleCase{
		{
			// A rating widget written as a span with a negative class,
			// its text loose in the article's element; a span with such
			// a class inside a paragraph leaves the paragraph alone.
			name:  "text of inline elements with a negative hint",
			after: `<span class="post-ratings">(No ratings yet) Loading...</span><p>The crawler kept <span class="tag">politeness</span> first, and the site owners thanked it.</p>`,
			gone:  []string{"No ratings yet"},
			kept:  []string{"The crawler kept politeness first, and the site owners thanked it."},
		},
		{
			// A photo's caption written as a span with a caption class
			// inside a paragraph of its own goes; a paragraph holding
			// such a span and text of its own stays.
			name:   "caption written as a span",
			inside: `<p><img src="/crawler.jpg" alt=""><br><span class="img-caption">The crawler at work in the data centre (Ann Lens / Agency)</span></p><p>Its log, <span class="legend">a long list</span>, ran to a thousand lines that night.</p>`,
			gone:   []string{"The crawler at work", "Ann Lens"},
			kept:   []string{"Its log, a long list, ran to a thousand lines that night."},
		},
	}
	var comments strings.Builder
	comments.WriteString(`<h3>Responses</h3>`)
	for i, who := range []string{"Ann", "Bob", "Cy"} {
		fmt.Fprintf(&comments, `<div class="item"><div class="says">Thank you for this piece, it helped me tune crawler number %d of ours.</div><p class="foot">posted on Thursday, October 25, 2012 at %d:1%d PM by %s</p></div>`, i, i+2, i, who)
	}
	tests = append(tests, articleCase{
		// Comments after the article, in markup that names nothing:
		// three items of one template, each with a time-stamped line.
		name:  "items with a time stamp after the article",
		after: comments.String(),
		gone:  []string{"Thank you for this piece", "posted on Thursday"},
	})
	runArticleCases(t, ps, tests)
}

// TestMainTextStampedLines checks what stays of time-stamped lines and
// inline captions: entries that are the article (a live blog), paragraphs
// that are siblings of time-stamped lines of the same tag (only elements
// holding such a line are items of a list of comments), and the caption
// written as a span of a photo post, whose only text it is.
func TestMainTextStampedLines(t *testing.T) {
	ps := boilerplateArticle(9)
	var live strings.Builder
	live.WriteString(`<html><head><title>Crawl day live - The Crawler Times</title></head><body><main><h1>Crawl day live</h1>`)
	for i, p := range ps[:6] {
		fmt.Fprintf(&live, `<div class="entry"><p class="when">Updated at 10:%02d AM</p><p>%s</p></div>`, 10+i, p)
	}
	live.WriteString(`</main></body></html>`)
	var stamped strings.Builder
	stamped.WriteString(`<html><head><title>Crawl day - The Crawler Times</title></head><body><main><h1>Crawl day</h1><div class="body"><div class="part">`)
	for i, p := range ps[:3] {
		fmt.Fprintf(&stamped, `<p>%s</p><p>Updated at 10:%d0 AM</p>`, p, i+1)
	}
	stamped.WriteString(`</div><div class="part-two">`)
	for _, p := range ps[3:] {
		fmt.Fprintf(&stamped, `<p>%s</p>`, p)
	}
	stamped.WriteString(`</div></div></main></body></html>`)
	runMainTextCases(t, []mainTextCase{
		{name: "live blog", html: live.String(), want: ps[:6]},
		{name: "paragraphs beside time-stamped lines", html: stamped.String(), want: ps},
		{
			name: "caption span of a photo post",
			html: `<html><head><title>Sunset - Crawler Photos</title></head><body><ul class="menu"><li><a href="/">Home</a></li><li><a href="/photos">Photos</a></li></ul>` +
				`<article><h1>Sunset</h1><p><img src="/sunset.jpg" alt=""><br><span class="photo-caption">Sunset over the data centre, taken from the roof at dusk by the night crew.</span></p></article></body></html>`,
			want: []string{"Sunset over the data centre"},
		},
	})
}
