package maintext

import (
	"strconv"
	"strings"
	"testing"
)

// mainTextCase is a page and the texts Extract must and must not return.
type mainTextCase struct {
	name          string
	html          string
	want, wantNot []string
}

// runMainTextCases runs Extract on each case's page in a subtest.
func runMainTextCases(t *testing.T, tests []mainTextCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Extract(strings.NewReader(tt.html))
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tt.want {
				if !strings.Contains(got, s) {
					t.Errorf("Extract = %q, want it to contain %q", got, s)
				}
			}
			for _, s := range tt.wantNot {
				if strings.Contains(got, s) {
					t.Errorf("Extract = %q, should not contain %q", got, s)
				}
			}
		})
	}
}

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
	// A short blog post in a page whose regions are unclassed divs told
	// apart by their ids only: header, content, sidebar and footer are
	// not four teasers of one template.
	idRegions := `<html><head><title>Nothing to do</title></head><body><div id="wrapper"><div id="header"><a href="/">Gnaur</a></div>
<div id="content"><h2><a href="/p/1">Nothing to do is a choice too</a></h2><p class="date">14 June 2013 <a href="/c/s">Specific</a></p>
<p>I know I am drunk and I should not say this to you now</p><p>Then do not say it.</p><p>Ok.</p></div>
<div id="sidebar"><ul><li><a href="/c/1">Specific</a></li><li><a href="/c/2">English</a></li><li><a href="/c/3">Favourites</a></li>
<li><a href="/c/4">Unspecific</a></li><li><a href="/c/5">Celluloid</a></li><li><a href="/c/6">Register here</a></li>
<li><a href="/c/7">Log in</a></li><li><a href="/c/8">Entries feed</a></li><li><a href="/c/9">Comments feed</a></li><li><a href="/c/10">Older posts of June</a></li>
<li><a href="/c/11">Older posts of May</a></li><li><a href="/c/12">Older posts of April</a></li></ul></div>
<p class="note">Thanks for reading it all.</p><div id="footer"><a href="/wp">Create a free website or blog</a></div></div></body></html>`
	// An article in one of several boxes of one class, the others link
	// boxes; as it holds most of the page's words and its longest block,
	// its box is no teaser (else a closing note would be the article).
	boxes := `<body><div class="box"><a href="/">Home of the blog</a> <a href="/a">About this blog</a></div><div class="box"><h2>Polite crawling</h2><p>` + long +
		`</p><p>` + strings.TrimSpace(long2) + ` <a href="/more">More</a></p></div>` +
		strings.Repeat(`<div class="box"><a href="/x">Another story on this site about crawling the web</a></div>`, 3) +
		`<div class="note"><p>Thanks for reading it all.</p></div></body>`
	// A live blog whose entries all sit under "comment" classes, next to
	// a box of match facts: scoring with the hints keeps nothing but
	// fragments, and the entries are the page's only running text.
	live := `<body><ul class="menu"><li><a href="/">Home</a></li><li><a href="/f">Football</a></li></ul><main><h2>Live match</h2>
<ul class="match-info"><li>Date: 27/09/2020</li><li>Stadium: Stade Yves Allainmat at Le Moustoir in Lorient</li></ul>
<div class="live-comments">`
	for i := range 6 {
		live += `<div class="live-comment"><div class="minute">` + strconv.Itoa(90-10*i) + `'</div><div class="live-comment-body">` + ps[i] + `</div></div>`
	}
	live += `</div></main></body>`
	tests := []mainTextCase{
		{
			// A signature written as one more paragraph after the last:
			// a fragment, but not one at the edge of the article (the
			// share line after it goes).
			name: "signature after the last paragraph",
			html: `<body><ul class="menu"><li><a href="/">Home</a></li></ul><div class="entry"><h1>Polite crawling</h1><p>` + ps[0] + `</p><p>` + ps[1] + `</p><p>` + ps[2] +
				`</p><p>x Franzi</p><p><a href="/s">Share on</a> your wall</p></div></body>`,
			want:    []string{ps[2], "x Franzi"},
			wantNot: []string{"Home", "Share on"},
		},
		{
			// A standfirst above a photo and an author box, in another
			// element than the body: more than the few words between a
			// headline and a body that the standfirst rule allows.
			name: "lead paragraph before an author box",
			html: `<html><head><title>Polite crawling | The Daily Fetch</title></head><body><ul class="menu"><li><a href="/">Home</a></li></ul>
<div class="intro"><h1>Polite crawling</h1><p>` + ps[6] + `</p></div><div class="photo"><img src="/a.jpg" width="600" height="400"></div>
<div class="main"><div class="author-box"><p>Ann Writer has covered the web and its crawlers for this paper since 2010. Before that she wrote software for search engines in three countries and taught it at two universities.</p></div>
<div class="body"><p>` + ps[0] + `</p><p>` + ps[1] + `</p><p>` + ps[2] + `</p><p>` + ps[3] + `</p></div></div></body></html>`,
			want:    []string{"Polite crawling", ps[6], ps[0], ps[3]},
			wantNot: []string{"Home", "Ann Writer"},
		},
		{
			// An author box between the headline and the body, set above
			// a list of related posts: text above teasers is no
			// standfirst, though it is short and ends on a sentence mark.
			name: "author box above related posts",
			html: `<html><head><title>Polite crawling | The Daily Fetch</title></head><body><ul class="menu"><li><a href="/">Home</a></li></ul>
<div class="page"><h1>Polite crawling</h1><div class="byline"><a href="/a/ann">Ann Writer</a> 9 Apr 2026</div>
<div class="author-info">Ann Writer is a reporter at the Daily Fetch.</div><h3>Related</h3>
<div class="rel"><a href="/p/1">Crawling the deep web</a></div><div class="rel"><a href="/p/2">Robots.txt explained to everyone</a></div><div class="rel"><a href="/p/3">Why crawlers wait</a></div>
<div class="body"><p>` + ps[0] + `</p><p>` + ps[1] + `</p><p>` + ps[2] + `</p><p>` + ps[3] + `</p></div></div></body></html>`,
			want:    []string{"Polite crawling", ps[0], ps[3]},
			wantNot: []string{"Home", "is a reporter", "Robots.txt"},
		},
		{
			// Steps of a recipe, each a list item with its photo inside:
			// the text illustrated is no caption of the photo.
			name: "list items holding their own image",
			html: `<body><ul class="menu"><li><a href="/">Home</a></li></ul><div class="recipe"><h1>Fried rice</h1><p>` + ps[0] + `</p><p>` + ps[1] + `</p><ol>
<li><img src="/1.jpg" width="300" height="200">Heat two tablespoons of oil in the wok until it shimmers.</li>
<li><img src="/2.jpg" width="300" height="200">With 2 tbsp oil left in the wok, saute minced garlic till fragrant.</li>
<li><img src="/3.jpg" width="300" height="200">Add the cold rice and toss it for three minutes over high heat.</li></ol>
<div class="wp-caption"><img src="/4.jpg" width="300" height="200"><p>The finished dish, photographed by Ann Writer.</p></div></div></body>`,
			want:    []string{ps[1], "With 2 tbsp oil left in the wok", "Add the cold rice"},
			wantNot: []string{"Home", "photographed by"},
		},
		{
			// Ruby annotations (the readings over East Asian characters)
			// are not part of the sentence they annotate.
			name: "ruby annotations",
			html: `<body><ul class="menu"><li><a href="/">ホーム</a></li></ul><div class="article">` + `<p><ruby>子<rt>こ</rt></ruby>どもへの<ruby>体罰<rt>たいばつ</rt></ruby>を<ruby>禁止<rt>きんし</rt></ruby>する<ruby>法律<rt>ほうりつ</rt></ruby>ができました。<ruby>親<rt>おや</rt></ruby>は<ruby>子<rt>こ</rt></ruby>どもをたたいてはいけません。</p>
<p>この<ruby>法律<rt>ほうりつ</rt></ruby>は<ruby>来年<rt>らいねん</rt></ruby>の<ruby>四月<rt>しがつ</rt></ruby>から<ruby>始<rt>はじ</rt></ruby>まります。<ruby>国<rt>くに</rt></ruby>は<ruby>親<rt>おや</rt></ruby>に<ruby>説明<rt>せつめい</rt></ruby>をします。</p>
<p><ruby>専門家<rt>せんもんか</rt></ruby>は<ruby>子<rt>こ</rt></ruby>どもの<ruby>育<rt>そだ</rt></ruby>て<ruby>方<rt>かた</rt></ruby>を<ruby>親<rt>おや</rt></ruby>に<ruby>教<rt>おし</rt></ruby>えます。<ruby>学校<rt>がっこう</rt></ruby>も<ruby>協力<rt>きょうりょく</rt></ruby>します。</p>
<p><ruby>虐待<rt>ぎゃくたい</rt></ruby>をなくすために、<ruby>町<rt>まち</rt></ruby>の<ruby>人<rt>ひと</rt></ruby>も<ruby>子<rt>こ</rt></ruby>どもを<ruby>見守<rt>みまも</rt></ruby>ってほしいと<ruby>言<rt>い</rt></ruby>っています。</p></div></body>`,
			want:    []string{"子どもへの体罰を禁止する法律ができました。親は子どもをたたいてはいけません。"},
			wantNot: []string{"たいばつ", "ホーム"},
		},
		{
			// The whole article inside a wrapper whose class reads as a
			// share bar, the page's itemprop=articleBody inside it, and a
			// promotion box with a paragraph of its own beside it.
			name: "negative wrapper around the declared article body",
			html: `<body><ul class="menu"><li><a href="/">Home</a></li></ul><div class="share_wrapper"><div class="article"><h1>Polite crawling</h1><div itemprop="articleBody"><p>` +
				ps[0] + `</p><p>` + ps[1] + `</p><p>` + ps[2] + `</p></div></div></div>
<div class="whitepaper"><h3>White paper</h3><p>Analysts compared eleven service desks on cost, features and support. Read which one suits a team of your size before you buy.</p></div>
<div class="comments"><p>` + ps[9] + `</p><p>` + ps[10] + `</p><p>` + ps[11] + `</p></div></body>`,
			want:    []string{ps[0], ps[2]},
			wantNot: []string{"Home", "Analysts compared", ps[10]},
		},
		{
			// A list of facts closing the article: short items without
			// sentence marks, like datelines, but a list of them.
			name: "list of facts after the last paragraph",
			html: `<body><ul class="menu"><li><a href="/">Home</a></li></ul><div class="entry"><h1>The Pleiades</h1><p>` + ps[0] + `</p><p>` + ps[1] +
				`</p><h3>Details</h3><ul><li>Kind of shot: digital photo</li><li>Lens: telephoto</li><li>Focal length: 180 mm</li><li>Camera: Canon EOS 60Da</li><li>Place: Kasberg in Franconia</li></ul></div>
<div class="share"><a href="/s">Share</a></div></body>`,
			want:    []string{ps[1], "Details", "Kind of shot: digital photo", "Place: Kasberg in Franconia"},
			wantNot: []string{"Home", "Share"},
		},
		{
			// A post that is one list (an agenda): its first items are
			// short fragments like datelines, its later ones sentences.
			name: "short items opening a list",
			html: `<body><ul class="menu"><li><a href="/">Home</a></li><li><a href="/e">Events</a></li></ul><h1>Meeting in April</h1><p class="meta">Posted on 11 April by <a href="/u/bj">bj</a></p>
<ol><li>Welcome and coffee (15 mins)</li><li>Two short talks (30 mins)<ol><li>Three stories from teams: what worked for them, what did not, and what they would change next time. (45 mins)</li>
<li>Lessons drawn from the stories, in small groups of four or five people each. (45 mins)</li></ol></li><li>Next meeting: when, where and what kind? (10 mins)</li></ol>
<div class="share"><a href="/s">Share</a></div></body>`,
			want:    []string{"Welcome and coffee (15 mins)", "Two short talks (30 mins)", "Three stories from teams", "Next meeting"},
			wantNot: []string{"Home", "Events", "Share"},
		},
		{
			// Short paragraphs opening a post, written like its other
			// paragraphs (a verse, a line ending in a colon); a dateline
			// paragraph before them still goes.
			name: "short paragraphs before the first one",
			html: `<body><ul class="menu"><li><a href="/">Home</a></li><li><a href="/p">Photos</a></li></ul><h1>Silhouettes</h1><p class="byline">By Ann Writer</p><div class="entry">
<p>Filed 05.01.2020</p><p>The city stands black and silent…</p><p>It all began with a shot from the hand:</p><p>` + ps[0] + `</p><p>` + ps[1] + `</p></div>
<div class="share"><a href="/s">Share</a></div></body>`,
			want:    []string{"The city stands black and silent…", "It all began with a shot from the hand:", ps[1]},
			wantNot: []string{"Home", "Filed 05.01.2020", "Share"},
		},
		{
			// A deck: a heading of a lower level right after the headline,
			// before the share bar and the body; a short heading there (a
			// dateline in h6) is no deck.
			name: "deck under the headline",
			html: `<html><head><title>Polite crawling pays off</title></head><body><ul class="menu"><li><a href="/">Home</a></li><li><a href="/t">Tech</a></li></ul>
<div class="head"><h1>Polite crawling pays off</h1><h2>Crawlers that wait between requests get banned less often and end up fetching more pages in a day</h2></div>
<ul class="share-bar"><li><a href="/s/t">Tweet this story</a></li><li><a href="/s/f">Share it on Facebook</a></li><li><a href="/s/m">Mail it to a friend</a></li></ul><div class="body"><p>` + strings.Join(ps[:10], `</p><p>`) + `</p></div><div class="share"><a href="/s">Share</a></div></body></html>`,
			want:    []string{"Polite crawling pays off", "Crawlers that wait between requests", ps[2]},
			wantNot: []string{"Home", "Share", "Tweet"},
		},
		{
			// The same deck after the date, the byline and the reading time.
			name: "deck under the headline after fragments",
			html: `<html><head><title>Polite crawling pays off</title></head><body><ul class="menu"><li><a href="/">Home</a></li><li><a href="/t">Tech</a></li></ul>
<div class="head"><h1>Polite crawling pays off</h1><div class="date">Published on 11 May</div><div class="author">By Ann Writer</div><div class="time">8 minutes to read</div>
<h2>Crawlers that wait between requests get banned less often and end up fetching more pages in a day</h2></div>
<div class="body"><p>` + strings.Join(ps[:10], `</p><p>`) + `</p></div><div class="share"><a href="/s">Share</a></div></body></html>`,
			want:    []string{"Polite crawling pays off", "Crawlers that wait between requests", ps[2]},
			wantNot: []string{"Home", "Share", "8 minutes to read"},
		},
		{
			name: "short heading under the headline",
			html: `<html><head><title>Polite crawling pays off</title></head><body><ul class="menu"><li><a href="/">Home</a></li><li><a href="/t">Tech</a></li></ul>
<div class="head"><h1>Polite crawling pays off</h1><h6>Published 11 hours ago</h6></div>
<div class="body"><p>` + ps[0] + `</p><p>` + ps[1] + `</p><p>` + ps[2] + `</p></div><div class="share"><a href="/s">Share</a></div></body></html>`,
			want:    []string{"Polite crawling pays off", ps[2]},
			wantNot: []string{"Home", "Share", "Published 11 hours ago"},
		},
		{
			// A data table between the paragraphs of an article, in a
			// wrapper of its own: its many short cells score below zero,
			// so it is no sibling worth taking in on its score alone.
			name: "table between paragraphs",
			html: `<html><head><title>Crawl rates in July</title></head><body><ul class="menu"><li><a href="/">Home</a></li><li><a href="/t">Tech</a></li></ul>
<div class="post"><h1>Crawl rates in July</h1><p>` + ps[0] + `</p><p>` + ps[1] + `</p><div class="chart"><table><tr><th>Host</th><th>Pages</th><th>Change</th></tr>` +
				strings.Repeat(`<tr><td>Alpha</td><td>120</td><td>3.1%</td></tr><tr><td>Beta</td><td>85</td><td>-2.4%</td></tr><tr><td>Gamma</td><td>310</td><td>0.5%</td></tr>`, 8) +
				`<tr><td>Delta</td><td>4711</td><td>9.9%</td></tr></table></div><p>` + ps[2] + `</p><p>` + ps[3] + `</p></div><div class="footer"><a href="/about">About us</a></div></body></html>`,
			want:    []string{"Crawl rates in July", ps[0], "Delta | 4711 | 9.9%", ps[3]},
			wantNot: []string{"Home", "About us"},
		},
		{
			// The same for a list written as one short p element an item.
			name: "short paragraphs listed between paragraphs",
			html: `<html><head><title>Our tour in 2013</title></head><body><ul class="menu"><li><a href="/">Home</a></li><li><a href="/t">Tours</a></li></ul>
<div class="post"><h1>Our tour in 2013</h1><p>` + ps[0] + `</p><p>Here are the cities we will visit:</p>` +
				`<p>` + strings.Join(strings.Fields(`Brasilia Colombo Sydney Jakarta Toronto Ottawa Paris Dublin Oslo Bergen Lisbon Porto Madrid Seville Rome Milan Vienna Graz Prague Brno Warsaw Gdansk Riga Tallinn`), `</p><p>`) +
				`</p><p>Kyoto</p><p>` + ps[3] + `</p></div><div class="footer"><a href="/about">About us</a></div></body></html>`,
			want:    []string{"Our tour in 2013", ps[0], "Colombo\n\nSydney", "Tallinn\n\nKyoto", ps[3]},
			wantNot: []string{"Home", "About us"},
		},
		{
			// A how-to that ends on commands, each under a short label:
			// after the last paragraph, the labels and the code go on.
			name: "commands closing a how-to",
			html: `<html><head><title>Slow network</title></head><body><ul class="menu"><li><a href="/">Home</a></li><li><a href="/t">Tips</a></li></ul>
<article><h1>Slow network</h1><div class="body"><p>` + ps[0] + `</p><p>` + ps[1] + `</p><p>Current status</p><pre>netsh interface tcp show global</pre>` +
				`<p>Turn it off:</p><pre>netsh interface tcp set global autotuninglevel=disabled</pre></div><ul class="tags"><li><a href="/t/net">Network</a></li></ul></article></body></html>`,
			want:    []string{"Slow network", ps[1], "netsh interface tcp show global", "Turn it off:", "autotuninglevel=disabled"},
			wantNot: []string{"Home", "Network"},
		},
		{
			// A blog's date header over the post's title: a heading of a
			// higher level with a digit. A sidebar heading over a link
			// list with a year in it stays out.
			name: "date header over the headline",
			html: `<html><head><title>Polite crawling pays off</title></head><body><ul class="menu"><li><a href="/">Home</a></li><li><a href="/t">Tech</a></li></ul>
<div class="date-outer"><h2 class="date-header"><span>Sunday, October 14, 2012</span></h2><div class="date-posts"><div class="post"><h3>Polite crawling pays off</h3>
<div class="post-body"><p>` + strings.Join(ps[:6], `</p><p>`) + `</p></div><div class="post-footer">Posted by <a href="/u/ann">Ann</a> at 12:16 AM</div></div>
<div class="comments"><h4>No comments:</h4><p><a href="/c">Post a Comment</a></p></div></div></div><div class="blog-pager"><a href="/n">Newer Post</a> <a href="/o">Older Post</a> <a href="/">Home</a></div>
<div class="sidebar"><h2>Archive 2012</h2><ul><li><a href="/2012/10">October</a></li><li><a href="/2012/09">September</a></li></ul></div></body></html>`,
			want:    []string{"Sunday, October 14, 2012\n\nPolite crawling pays off", ps[5]},
			wantNot: []string{"Home", "Archive 2012", "September", "Post a Comment"},
		},
		{
			// A short post of two paragraphs, the second heavy with links:
			// the first alone is the container, and the second scores too
			// little to be a sibling worth taking in; the links after it go.
			name: "paragraph heavy with links after a one-paragraph post",
			html: `<html><head><title>New lens in stock</title></head><body><ul class="menu"><li><a href="/">Home</a></li><li><a href="/c">Cameras</a></li></ul><h1>New lens in stock</h1><div>
<p>This is the very first time the new 35-100mm lens is in stock at a shop in the United States, and only two of them are left. In Germany the lens has been in stock for a week already.</p>
<p>P.S.: A long list of cameras is sold by <a href="/s">the shop on Amazon</a> <a href="/c">(click here)</a> and by the other shop too.</p>
<h4>Previous post:</h4><p><a href="/p/1">Old lens out of stock again</a></p><p><a href="/p/2">Three new cameras announced today</a></p><p><a href="/p/3">Rumours about the next one</a></p></div></body></html>`,
			want:    []string{"This is the very first time", "A long list of cameras is sold by"},
			wantNot: []string{"Home", "Previous post", "Old lens out of stock"},
		},
		{
			// Items of a list, each a label, a colon and a link to a
			// definition, are the text, not pointers away from it; so is
			// a paragraph whose link is the label.
			name: "label and link in list items",
			html: `<html><head><title>Memory allocators</title></head><body><ul class="menu"><li><a href="/">Home</a></li><li><a href="/d">Docs</a></li></ul>
<div class="body"><h1>Memory allocators</h1><p>` + ps[0] + `</p><ul><li><p>` + ps[1] + `</p></li><li><p>ALLOC_DEFAULT: <a href="#d">default memory allocators</a></p></li>` +
				`<li><p>ALLOC_DEBUG (2): <a href="#g">debug hooks on the allocators</a></p></li><li><p>` + ps[2] + `</p></li></ul><p>` + ps[3] +
				`</p><p><a href="#a">Availability</a>: Unix</p><p>` + ps[4] + `</p></div><div class="footer"><a href="/about">About us</a></div></body></html>`,
			want:    []string{"ALLOC_DEFAULT: default memory allocators", "ALLOC_DEBUG (2): debug hooks", "Availability: Unix", ps[4]},
			wantNot: []string{"Home", "About us"},
		},
		{
			name:    "page regions told apart by id",
			html:    idRegions,
			want:    []string{"I know I am drunk", "Then do not say it"},
			wantNot: []string{"Celluloid", "Create a free website", "Thanks for reading"},
		},
		{
			name:    "article in a box like the link boxes",
			html:    boxes,
			want:    []string{strings.TrimSpace(long), strings.TrimSpace(long2)},
			wantNot: []string{"Home of the blog", "other stories", "Thanks for reading"},
		},
		{
			name:    "running text under negative class names only",
			html:    live,
			want:    []string{ps[0], ps[5]},
			wantNot: []string{"Home", "Football"},
		},
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
	runMainTextCases(t, tests)
}

// TestMainTextRepeatedNotes checks that a paragraph the article repeats
// (reference documentation's "Changed in version" note under each function
// it applies to) is written every time it is there, not once.
func TestMainTextRepeatedNotes(t *testing.T) {
	note := "Changed in version 3.6: Accepts a path-like object."
	var sb strings.Builder
	sb.WriteString(`<html><head><title>os: operating system interfaces</title></head><body><ul class="menu"><li><a href="/">Home</a></li><li><a href="/lib">Library</a></li></ul>
<div class="body"><h1>os: operating system interfaces</h1><p>This module provides a portable way of using operating system dependent functionality, such as reading or writing files.</p>`)
	for _, f := range []string{"chdir", "chmod", "chown", "listdir"} {
		sb.WriteString(`<dl class="function"><dt id="os.` + f + `">os.` + f + `(path)</dt><dd><p>Apply ` + f + ` to the file or directory at path, and raise an error when the operating system refuses it.</p>` +
			`<div class="versionchanged"><p>` + note + `</p></div></dd></dl>`)
	}
	sb.WriteString(`</div><div class="footer"><a href="/copyright">Copyright</a></div></body></html>`)
	got, err := Extract(strings.NewReader(sb.String()))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(got, note); n != 4 {
		t.Errorf("the note is written %d times, want 4 (once per function):\n%s", n, got)
	}
	if !strings.Contains(got, "Apply listdir to the file") || strings.Contains(got, "Home") {
		t.Errorf("Extract = %q, want the functions' text without the menu", got)
	}
}
