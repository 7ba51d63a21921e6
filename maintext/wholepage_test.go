package maintext

import "testing"

// TestMainTextWholePage checks pages that the container choice alone
// reads wrong as a whole: most of their text where the finder does not
// look for it.
func TestMainTextWholePage(t *testing.T) {
	ps := boilerplateArticle(6)
	// A photo story: one short introduction, then pictures, each with a
	// sentence or two under it.
	captions := []string{
		"A girl dressed for the parade meets hundreds of other costumed visitors in the old town square.",
		"A man wearing a pumpkin head waits in a shopping mall restaurant during the celebrations.",
		"Two celebrants dressed as aliens entertain a crowd in the harbour district at night.",
		"A woman wearing fake blood rests her eyes on an underground train after the party.",
	}
	story := `<html><head><title>Photos: the parade in the old town</title></head><body><ul class="menu"><li><a href="/">Home</a></li><li><a href="/photos">Photos</a></li></ul>
<div class="post"><h1>Photos: the parade in the old town</h1><div class="entry"><p>The town does not really trick or treat, but it embraces the parade and its tradition of dressing up in a costume.</p>`
	for _, c := range captions {
		story += `<div class="photo"><img src="/p.jpg" width="800" height="600"><p>` + c + `</p></div>`
	}
	story += `</div></div><div class="foot"><a href="/about">About us</a></div></body></html>`
	// An article with a few illustrations: their captions stay out.
	article := `<html><head><title>Polite crawling at scale</title></head><body><ul class="menu"><li><a href="/">Home</a></li></ul>
<div class="post"><h1>Polite crawling at scale</h1><div class="entry">`
	for i, p := range ps {
		article += `<p>` + p + `</p>`
		if i%2 == 1 {
			article += `<div class="photo"><img src="/p.jpg" width="800" height="600"><p>` + captions[i/2] + `</p></div>`
		}
	}
	article += `</div></div></body></html>`
	// A video page: a short description, then a comment thread that
	// holds most of the page's words, under a comment name.
	video := `<html><head><title>Alien Surface - Tutorials</title></head><body><ul class="menu"><li><a href="/">Home</a></li><li><a href="/t">Tutorials</a></li></ul>
<div class="tutorial"><h1>Alien Surface</h1><div class="notes"><p>Create a realistic set extension using a matte painting, and light it with the sky of another planet.</p></div></div>
<div id="comments_displayed">`
	for i, p := range ps {
		video += `<div><div>Reader ` + string(rune('A'+i)) + `</div><div>10/0` + string(rune('1'+i)) + `/2012</div><div>` + p + ` ` + ps[(i+1)%len(ps)] + `</div><div><a href="#r">reply to this comment</a></div></div>`
	}
	video += `</div></body></html>`
	// A page wrapper named like a sidebar around a long article and a
	// few comments: its name is no hint.
	wrapped := `<html><head><title>Polite crawling at scale</title></head><body><div class="content-sidebar-wrap"><h1>Polite crawling at scale</h1><div class="entry">`
	for _, p := range ps {
		wrapped += `<p>` + p + ` ` + p + `</p>`
	}
	wrapped += `</div><div class="replies">`
	for i := range 3 {
		wrapped += `<div class="reply"><div>Reader</div><p>` + captions[i] + `</p></div>`
	}
	wrapped += `</div></div><div class="about"><p>This site is written by two crawler engineers who like polite robots.</p></div></body></html>`
	runMainTextCases(t, []mainTextCase{
		{
			name:    "comment thread outgrowing a short post",
			html:    video,
			want:    []string{"Create a realistic set extension"},
			wantNot: []string{ps[0], ps[3], "reply to this comment", "Reader"},
		},
		{
			name: "article and a few comments in a wrapper named like a sidebar",
			html: wrapped,
			want: ps,
		},
		{
			name:    "photo story told in its captions",
			html:    story,
			want:    append([]string{"embraces the parade"}, captions...),
			wantNot: []string{"About us", "Home"},
		},
		{
			name:    "captions of an illustrated article",
			html:    article,
			want:    ps,
			wantNot: captions,
		},
	})
}
