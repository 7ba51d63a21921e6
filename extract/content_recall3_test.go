package extract

import (
	"strings"
	"testing"
)

// TestMainTextRecall3 checks article text that the container and its
// siblings alone would lose, one case per rule of content_recall3.go.
func TestMainTextRecall3(t *testing.T) {
	ps := boilerplateArticle(10)
	// A news system's article: the headline, a date line, a long lead in
	// a "teaser-text" box that the microdata names the description, the
	// body, and an author box whose bio is a description too.
	lead := ps[0] + " " + ps[1] + " " + ps[2]
	news := `<html><head><title>A new look at the crawl - Institute</title></head><body><ul class="menu"><li><a href="/">Home</a></li><li><a href="/news">News</a></li></ul>
<div class="article" itemscope itemtype="https://schema.org/Article"><h3>A new look at the crawl</h3><p class="date">07.12.2022 Science</p>
<div class="teaser-text" itemprop="description"><p>` + lead + `</p></div>
<div class="news-text" itemprop="articleBody"><p>` + ps[3] + `</p><p>` + ps[4] + `</p><p>` + ps[5] + `</p><p>` + ps[6] + `</p></div></div>
<div class="author" itemscope itemtype="https://schema.org/Person"><p itemprop="description">Ann Writer covers crawlers and their manners for the institute.</p></div>
</body></html>`
	// A blog's archive page: the blog's name in an h1 matches the page
	// title, the post's own title (under its date) does not, and the post
	// is long enough that its headings add too little to extend the
	// container over them.
	archive := `<html><head><title>Crawler Notes: August 2012</title></head><body><div id="content"><h1>Crawler Notes</h1>
<div class="post"><h2 class="date-header">Wednesday, August 01, 2012</h2><h3 class="post-title">The Queue That Never Sleeps</h3>
<div class="post-body"><p>` + ps[5] + `</p><p>` + ps[6] + `</p><p>` + ps[7] + `</p><p>` + ps[8] + `</p><p>` + ps[9] + `</p></div>
<p class="post-footer">posted by Crawler Notes at 7:10 AM | <a href="#c">0 comments</a> | <a href="/share">share this</a> | <a href="/label/q">queues</a></p></div>
<div class="sidebar"><h2>About Me</h2><p><a href="/me">Name: Crawler Notes</a></p></div></div></body></html>`
	tests := []struct {
		name          string
		html          string
		want, wantNot []string
	}{
		{
			name:    "long lead marked as the description",
			html:    news,
			want:    []string{"A new look at the crawl", lead + "\n\n" + ps[3]},
			wantNot: []string{"Ann Writer covers", "Home"},
		},
		{
			name:    "post title under the blog's name",
			html:    archive,
			want:    []string{"Wednesday, August 01, 2012\n\nThe Queue That Never Sleeps\n\n" + ps[5]},
			wantNot: []string{"About Me", "posted by"},
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
