package extract

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
	runMainTextCases(t, []mainTextCase{
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
