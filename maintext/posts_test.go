package maintext

import "testing"

// TestMainTextPostParts checks article text that the container and its
// siblings alone would lose: a post's continuation, posts of annotated
// links, a container of headings only, titles written as links.
func TestMainTextPostParts(t *testing.T) {
	ps := boilerplateArticle(10)
	// A blog post whose text goes on "below the fold" in a part of its
	// own named "more", followed by comments, each under a byline.
	more := `<html><head><title>A great deal of solace</title></head><body><ul class="menu"><li><a href="/">Home</a></li><li><a href="/blogs">Blogs</a></li></ul>
<div class="entry-content"><h1>A great deal of solace</h1><div class="entry-body"><p>` + ps[0] + `</p></div>
<div id="more" class="asset-more"><p>` + ps[1] + `</p><p>` + ps[2] + `</p><p>` + ps[3] + `</p><p>` + ps[4] + `</p></div></div>
<div class="comments"><h2>3 Comments</h2>`
	for i := 5; i < 8; i++ {
		more += `<div class="comment"><div class="comment-byline"><a href="/u">Reader</a> | November 9, 2012 | <a href="#r">Reply</a></div><p>` + ps[i] + `</p></div>`
	}
	more += `</div></body></html>`
	// A comic strip's post: one short paragraph with links under a
	// headline that scores more, then a long comment.
	comic := `<html><head><title>Freelance Freedom 284: Unacceptable Excuses - Freelance Blog</title></head><body>
<ul class="menu"><li><a href="/">Home</a></li><li><a href="/blog">Blog</a></li></ul>
<div class="post"><h1>Freelance Freedom 284: Unacceptable Excuses</h1>
<ul class="post-meta"><li><a href="/a">N.C. Winters</a></li><li>November 12th 2012</li></ul><div class="comment-count"><a href="#c">1 Comment</a></div>
<div class="entry"><p>Once a week, we feature a fantastic <a href="/f">freelance-themed comic</a> from the talented <a href="/a">N.C. Winters</a>. Why not also take a look at <a href="/c">our comic archive here</a>?</p></div></div>
<div class="comments"><div class="comment"><p>Definitely, this past year I must admit that I have taken a much harsher stance with late clients.</p></div></div></body></html>`
	// A post of links, each with a word of its own, after one paragraph.
	links := `<html><head><title>Quickies 10.29</title></head><body><ul class="menu"><li><a href="/">Home</a></li><li><a href="/e">Events</a></li></ul>
<div class="post"><h2>Quickies 10.29</h2><div class="entry"><p>` + ps[0] + `</p><ul>
<li><a href="/1">Dog debarking policy raises howls of protest</a> – It is sad that anyone supports this.</li>
<li><a href="/4">Boo Berry is big at Halloween</a></li>
<li><a href="/2">Calling all germs on your smartphone</a> – Do you really want to know?</li>
<li><a href="/3">Laugh along with eight hundred clowns</a> – I would slowly back away.</li></ul></div>
<h3>About the author</h3><div class="author-bio"><p>` + ps[1] + `</p></div></div></body></html>`
	// The same place holding a list of related posts: titles only.
	related := `<html><head><title>Sample images</title></head><body><ul class="menu"><li><a href="/">Home</a></li><li><a href="/e">Events</a></li></ul>
<div class="post"><h2>Sample images</h2><div class="entry"><p>` + ps[2] + `</p><p>` + ps[3] + `</p><ul>
<li><a href="/1">New sample images taken with the fifty millimetre lens</a></li>
<li><a href="/2">More sample images of the wide angle lens</a></li>
<li><a href="/3">The new camera reviewed with more sample images</a></li></ul></div></div></body></html>`
	// A blog's name in an h1 over the post's title in an h2, the page
	// title naming both with as many words.
	named := `<html><head><title>Creative Food Sculptures Today | I Geek for Creativity</title></head><body>
<div id="top"><h1><a href="/">I Geek for Creativity</a></h1></div><div class="post"><div class="date">11 Jul 2012</div>
<h2><a href="/p/1">Creative Food Sculptures Today</a></h2><div class="byline"><a href="/u">Posted by Denny</a> <a href="#c">0 comments</a></div>
<div class="entry"><p>` + ps[4] + `</p><p>` + ps[5] + `</p></div></div></body></html>`
	// A manual's chapter: its h1, then a section whose heading shares as
	// many words with the title, but not all of its own.
	chapter := `<html><head><title>5. The import system — Python 3.11.3 documentation</title></head><body>
<h1>5. The import system</h1><div class="topics"><a href="/4">Previous topic: 4. Execution model</a> <a href="/6">Next topic: 6. Expressions</a></div><div class="section"><h3>5.3.3. Import hooks</h3><p>` + ps[6] + `</p><p>` + ps[7] + `</p></div></body></html>`
	// A photo post whose headline has a source line under it.
	photo := `<html><head><title>The Human Bowling Ball - I Geek for Creativity</title></head><body><div class="nav"><a href="/">Home</a> <a href="/b">Blog</a></div>
<div class="post"><h2><a href="/p/2">The Human Bowling Ball</a></h2><div class="source">via <a href="http://hammacher.com/">hammacher.com</a></div>
<div class="photo"><img src="/a.jpg" width="600" height="400"><p>This plays with your right brain in a big way, says the maker of the ball.</p></div></div></body></html>`
	// A sidebar of teasers before the post, one of whose headings shares
	// more words with the page title than the post's own.
	sidebar := `<html><head><title>The Human Bowling Ball - I Geek for Creativity</title></head><body><h1>I Geek for Creativity</h1><div class="side">
<div class="box"><h2>The I Geek for Creativity Manifesto</h2><a href="/m">Read the whole manifesto of this blog here</a></div>
<div class="box"><h2>More about the author</h2><a href="/a">Read the whole story of the author here</a></div>
<div class="box"><h2>Lessons on the web</h2><a href="/l">Read the whole list of the lessons here</a></div></div>
<div class="post"><h2><a href="/p/2">The Human Bowling Ball</a></h2><div class="entry"><p>` + ps[8] + `</p><p>` + ps[9] + `</p></div></div></body></html>`
	// A review whose title links to the review itself; the page title
	// names the site only.
	review := `<html><head><title>Reviews of a meal box service</title></head><body><ul class="menu"><li><a href="/">Home</a></li><li><a href="/c">Categories</a></li></ul>
<div class="review"><h2><a href="/r/1">It has changed my week</a></h2><p>` + ps[0] + ` ` + ps[1] + `</p></div>
<div class="foot"><a href="/about">About us</a> <a href="/jobs">Jobs</a></div></body></html>`
	tests := []mainTextCase{
		{
			name:    "the rest of a post under a more hint",
			html:    more,
			want:    []string{"A great deal of solace", ps[0], ps[1], ps[4]},
			wantNot: []string{ps[5], ps[7], "Reader", "Home"},
		},
		{
			name:    "short post under a headline that scores more",
			html:    comic,
			want:    []string{"Freelance Freedom 284", "Once a week, we feature"},
			wantNot: []string{"harsher stance", "1 Comment", "Home"},
		},
		{
			name:    "post of annotated links",
			html:    links,
			want:    []string{ps[0], "Dog debarking policy raises howls of protest – It is sad", "I would slowly back away.", "Boo Berry"},
			wantNot: []string{ps[1], "About the author", "Home"},
		},
		{
			name:    "related posts after a post",
			html:    related,
			want:    []string{ps[2], ps[3]},
			wantNot: []string{"fifty millimetre", "wide angle", "camera reviewed"},
		},
		{
			name:    "post title below the blog's name",
			html:    named,
			want:    []string{"Creative Food Sculptures Today\n\n" + ps[4], ps[5]},
			wantNot: []string{"I Geek for Creativity", "Posted by"},
		},
		{
			name:    "chapter title over a section heading",
			html:    chapter,
			want:    []string{"5. The import system\n\n5.3.3. Import hooks\n\n" + ps[6]},
			wantNot: []string{"Previous topic"},
		},
		{
			name:    "photo post with a source line",
			html:    photo,
			want:    []string{"The Human Bowling Ball\n\nvia hammacher.com\n\nThis plays with your right brain"},
			wantNot: []string{"Home"},
		},
		{
			name:    "teaser heading sharing more words with the title",
			html:    sidebar,
			want:    []string{"The Human Bowling Ball\n\n" + ps[8]},
			wantNot: []string{"Manifesto", "Read the whole"},
		},
		{
			name:    "title that links to the post",
			html:    review,
			want:    []string{"It has changed my week\n\n" + ps[0]},
			wantNot: []string{"Home", "About us"},
		},
	}
	runMainTextCases(t, tests)
}

// TestMainTextPostHead checks the standfirst marked as the article's
// description and the heading opening the post right before its
// container, which the container and its siblings alone would lose.
func TestMainTextPostHead(t *testing.T) {
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
	tests := []mainTextCase{
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
	runMainTextCases(t, tests)
}

// TestMainTextAddressesAndComposed checks bare web addresses after a
// post's paragraphs and characters written composed, one case (or more)
// per rule, with what they must still leave out.
func TestMainTextAddressesAndComposed(t *testing.T) {
	ps := boilerplateArticle(6)
	// A post that closes on the address of the petition it asks readers
	// to sign, and another that gives its source between paragraphs.
	petition := `<html><head><title>The Ministry informs</title></head><body><ul class="menu"><li><a href="/">Home</a></li><li><a href="/news">News</a></li></ul>
<div class="post"><h2>The Ministry informs</h2><p>` + ps[0] + `</p><p><a href="http://petitions.example.org/online/against-the-tariff-reform">http://petitions.example.org/online/against-the-tariff-reform</a></p>
<div class="post-nav"><a href="/1">← The first monthly meeting is set!</a></div></div></body></html>`
	source := `<html><head><title>A simple generator</title></head><body><div class="post"><h2>A simple generator</h2><p>` + ps[1] + `</p>
<p><a href="http://www.example.com/post/347447/a-simple-generator">www.example.com/post/347447/a-simple-generator</a></p><p>` + ps[2] + `</p><p>` + ps[3] + `</p></div>
<div class="side"><p>` + ps[4] + `</p><p><a href="http://www.example.net/">http://www.example.net/</a></p></div></body></html>`
	// A page that spells its accents as combining marks, and writes of
	// the Kelvin sign, which is a character of its own.
	decomposed := `<html><head><title>Child seats</title></head><body><div class="post"><h2>Child seats</h2><p>` + ps[5] + `</p>` +
		"<p>Besonders bei Babyschalen sollte gepru\u0308ft werden, ob die Gurtla\u0308nge ausreicht. The pattern [a-z] also matches \u212a (U+212A, Kelvin sign) in Unicode mode.</p></div></body></html>"
	tests := []mainTextCase{
		{
			name:    "web address closing a post",
			html:    petition,
			want:    []string{ps[0] + "\n\nhttp://petitions.example.org/online/against-the-tariff-reform"},
			wantNot: []string{"Home", "monthly meeting"},
		},
		{
			name:    "web address between paragraphs",
			html:    source,
			want:    []string{ps[1] + "\n\nwww.example.com/post/347447/a-simple-generator\n\n" + ps[2]},
			wantNot: []string{ps[4], "example.net"},
		},
		{
			name:    "combining marks composed, a singleton kept",
			html:    decomposed,
			want:    []string{"Besonders bei Babyschalen sollte gepr\u00fcft werden, ob die Gurtl\u00e4nge ausreicht.", "matches \u212a (U+212A"},
			wantNot: []string{"u\u0308", "a\u0308", "matches K"},
		},
	}
	runMainTextCases(t, tests)
}
