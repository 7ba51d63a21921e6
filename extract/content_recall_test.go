package extract

import (
	"strings"
	"testing"
)

// TestMainTextRecall checks article text that a finder looking only for the
// best-scoring element, and trusting every class name, would lose.
func TestMainTextRecall(t *testing.T) {
	long := "The crawler fetched every page of the site once, obeyed the robots rules and waited between two requests to the same server. "
	long2 := "Its frontier kept one queue per host, so that a slow server never held up the others, and retried failed fetches later. "
	ps := boilerplateArticle(12)
	wrapped := `<body><ul class="menu"><li><a href="/">Home</a></li></ul><div class="post-body">`
	for i := 0; i < 9; i += 3 {
		wrapped += `<div class="image-wrapper"><div class="meta">Mouseover photo to load notes or add comment</div><div class="txt"><p>` +
			ps[i] + `</p><p>` + ps[i+1] + `</p><p>` + ps[i+2] + `</p></div></div>`
	}
	wrapped += `<div class="comments"><p>` + ps[9] + `</p><p>` + ps[10] + `</p><p>` + ps[11] + `</p></div></div></body>`
	// The same with one paragraph a wrapper: only when the caption line
	// costs what any fragment costs do the wrappers add up.
	wrapped2 := `<body><ul class="menu"><li><a href="/">Home</a></li></ul><div class="post-body">`
	for i := range 6 {
		wrapped2 += `<div class="image-wrapper"><div class="meta">Mouseover photo to load notes or add comment</div><div class="txt"><p>` +
			ps[i] + `</p></div></div>`
	}
	wrapped2 += `<div class="comments"><p>` + ps[9] + `</p><p>` + ps[10] + `</p><p>` + ps[11] + `</p></div></div></body>`
	// A page builder that wraps every text box in "widget" elements: all
	// of the running text sits under two negative hints, in boxes none of
	// which holds most of it.
	widgets := `<body><ul class="menu"><li><a href="/">Home</a></li><li><a href="/about">About us</a></li></ul><section class="top-section">`
	for i := range 4 {
		widgets += `<div class="widget-wrap"><div class="widget-container"><div class="text-editor"><p>` + ps[i] + `</p></div></div></div>`
	}
	widgets += `</section></body>`
	tests := []struct {
		name    string
		html    string
		want    []string
		wantNot []string
	}{
		{
			// A paragraph written straight into the content element,
			// without a <p> of its own, next to the element that scores
			// best.
			name: "text beside the container without an element",
			html: `<html><head><title>Batched requirements</title></head><body><ul class="menu"><li><a href="/">Home</a></li><li><a href="/a">About</a></li></ul>
<div id="content"><h1>Batched requirements</h1><div class="byline"><p>by <a href="/u">Ann Writer</a>, 19 October | <a href="/c">Agile</a></p></div>
<p><i>This post first appeared on <a href="/o">another blog</a> last week.</i></p><p></p>` + long + long2 + long + `<p></p><b><a href="/o">read more</a></b>
<h3 class="comments-title">Leave a Reply</h3><div class="comment-form">` + strings.Repeat(`<p><a href="/x">Log in</a> to post a comment here.</p>`, 6) + `</div></div></body></html>`,
			want:    []string{"Batched requirements", strings.TrimSpace(long2)},
			wantNot: []string{"Log in", "Home"},
		},
		{
			// Every paragraph of the page sits in an element whose class
			// reads as boilerplate: the hint tells nothing about any of
			// them, and the article still wins over the disclaimer.
			name: "negative class name around all text",
			html: `<body><div class="widget-wrapper"><h1>Polite crawling</h1><div class="post-body"><p>` + long + `</p><p>` + long2 + `</p><p>` + long + long2 + `</p></div></div>
<div class="sidebar"><div class="disclaimer"><p>Opinions expressed here are the author's alone. They are not those of any bank or card issuer, nor reviewed or approved by it.</p>
<p>The responses below are not provided or commissioned by the bank advertiser. Responses have not been reviewed, approved or otherwise endorsed by the bank advertiser.</p>
<p>Many of the card offers that appear on the website are from companies from which we receive compensation. This may impact how and where products appear.</p>
<p>It is not the responsibility of the advertiser to ensure all posts and questions are answered. We do our best to keep all offers on this page current.</p></div></div></body>`,
			want:    []string{strings.TrimSpace(long), strings.TrimSpace(long2)},
			wantNot: []string{"Opinions expressed"},
		},
		{
			// Each paragraph in a wrapper of its own, under a photo: the
			// best single element holds one paragraph, the run of
			// wrappers holds the article.
			name:    "paragraphs in separate wrappers",
			html:    wrapped,
			want:    []string{ps[0], ps[4], ps[8]},
			wantNot: []string{"Mouseover", "Home", ps[10]},
		},
		{
			name:    "paragraphs in separate wrappers with captions",
			html:    wrapped2,
			want:    []string{ps[0], ps[3], ps[5]},
			wantNot: []string{"Mouseover", "Home", ps[10]},
		},
		{
			name:    "every text box in widget elements",
			html:    widgets,
			want:    []string{ps[0], ps[3]},
			wantNot: []string{"Home", "About us"},
		},
		{
			// A photo post: the only text is the one beside the image,
			// which on an article page would be a caption.
			name: "photo post",
			html: `<html><head><title>In the pink</title></head><body><div class="nav"><a href="/">Home</a> <a href="/b">Blog</a></div>
<div class="post"><h2>In the pink</h2><div class="photo"><img src="/a.jpg" width="600" height="400"><p>This plays with your right brain in a big way, says the artist who made all of these food sculptures.</p></div></div></body></html>`,
			want:    []string{"This plays with your right brain in a big way, says the artist who made all of these food sculptures."},
			wantNot: []string{"Home"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := MainText(strings.NewReader(tt.html))
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tt.want {
				if !strings.Contains(got, s) {
					t.Errorf("MainText = %q, want it to contain %q", got, s)
				}
			}
			for _, s := range tt.wantNot {
				if strings.Contains(got, s) {
					t.Errorf("MainText = %q, should not contain %q", got, s)
				}
			}
		})
	}
}
