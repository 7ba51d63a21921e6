package maintext

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// boilerplateArticle returns n paragraphs of running text for synthetic
// pages.
func boilerplateArticle(n int) []string {
	r := rand.New(rand.NewPCG(3, uint64(n)))
	ps := make([]string, n)
	for i := range ps {
		ps[i] = contentSentence(r, 14+r.IntN(12)) + " " + contentSentence(r, 10+r.IntN(12))
	}
	return ps
}

// boilerplatePage wraps an article (headline, first byline, paragraphs,
// with inside inserted after the second paragraph and after appended to
// the article body) in a page with a menu and a footer.
func boilerplatePage(ps []string, inside, after, outside string) string {
	var sb strings.Builder
	sb.WriteString(`<!DOCTYPE html><html><head><title>Polite crawling at scale - The Crawler Times</title></head><body>
<header><a href="/">The Crawler Times</a><ul><li><a href="/news">News</a></li><li><a href="/tech">Tech</a></li></ul></header>
<main><article><h1>Polite crawling at scale</h1><p>By Ann Writer</p><div class="body">`)
	for i, p := range ps {
		fmt.Fprintf(&sb, "<p>%s</p>\n", p)
		if i == 1 {
			sb.WriteString(inside)
		}
	}
	sb.WriteString(after)
	sb.WriteString(`</div></article></main>`)
	sb.WriteString(outside)
	sb.WriteString(`<footer><p>Copyright 2026 The Crawler Times.</p></footer></body></html>`)
	return sb.String()
}

// TestMainTextBoilerplate checks that each kind of boilerplate found
// around and inside articles on news and blog pages is removed, while the
// article's paragraphs, its headline and its first byline stay.
func TestMainTextBoilerplate(t *testing.T) {
	teasers := func(class string) string {
		var sb strings.Builder
		fmt.Fprintf(&sb, `<div%s><h3>More from the Crawler Times</h3><ul>`, class)
		for i := range 4 {
			fmt.Fprintf(&sb, `<li><a href="/story/%d">Teaser headline number %d about crawlers</a><p>A short summary of story %d.</p></li>`, i, i, i)
		}
		sb.WriteString(`</ul></div>`)
		return sb.String()
	}
	tests := []struct {
		name                  string
		inside, after, around string
		gone                  []string // must not appear
		kept                  []string // must appear besides the article
	}{
		{
			name:  "related articles without class names",
			after: teasers(""),
			gone:  []string{"More from the Crawler Times", "Teaser headline", "short summary"},
		},
		{
			name:   "related articles as a class-named box",
			inside: `<div class="related-posts"><h4>Related</h4><p><a href="/a">Crawling the deep web</a></p><p><a href="/b">Robots.txt explained</a></p></div>`,
			gone:   []string{"Related", "Crawling the deep web", "Robots.txt explained"},
		},
		{
			name:   "read more box",
			inside: `<div class="read-more"><p>Read more: <a href="/x">Why crawlers wait between requests to the same host</a></p></div>`,
			gone:   []string{"Read more", "Why crawlers wait"},
		},
		{
			name:  "author bio",
			after: `<div class="author-bio"><p>Ann Writer is a reporter at the Crawler Times. She has covered search engines and web archives since 2010.</p></div>`,
			gone:  []string{"has covered search engines"},
		},
		{
			name:  "bylines beyond the first",
			after: `<p class="byline">By Ann Writer</p><div class="author"><p>Ann Writer</p><p>Staff reporter</p></div>`,
			gone:  []string{"Staff reporter"},
			kept:  []string{"Polite crawling at scale\n\nBy Ann Writer\n\n"},
		},
		{
			name:   "image captions and credits",
			inside: `<figure><img src="/a.jpg" width="800"><figcaption>A crawler at work in the data centre. Photo: Jane Lens/Agency</figcaption></figure><div class="image"><img src="/b.jpg"><span>Photo: Agency</span></div>`,
			gone:   []string{"data centre", "Jane Lens", "Photo: Agency"},
		},
		{
			// A credit line among the paragraphs, its image elsewhere
			// (a slideshow, a lazy-loaded figure).
			name:   "credit line with the copyright sign",
			inside: `<p>Ann Writer at her desk. © Agency / Jane Lens</p>`,
			gone:   []string{"Jane Lens", "at her desk"},
		},
		{
			// A notice too long for a credit line, but opening with the
			// sign.
			name:  "copyright notice after the article",
			after: `<p>© 2026 The Crawler Times. All rights reserved. This article is the property of the Crawler Times and may not be reprinted, broadcast or redistributed in print or online media without the written permission of the publisher.</p>`,
			gone:  []string{"All rights reserved", "written permission"},
		},
		{
			// "Read also" lines set between the paragraphs: a short label
			// and a colon, then a link to another story.
			name:   "pointer lines between paragraphs",
			inside: `<p>Read also: <a href="/x">Why crawlers wait between requests to the same host</a></p><p>Lea aquí: <a href="/y">Un rastreador en cada servidor del mundo</a></p>`,
			gone:   []string{"Read also", "Why crawlers wait", "Lea aquí", "Un rastreador"},
		},
		{
			// A contact's lines after the last paragraph: a label and a
			// link each; the link to the rest of an excerpt, under a
			// longer label, stays.
			name: "pointer lines after the article",
			after: `<p>Continue reading at Crawler Weekly: <a href="https://weekly.example/polite">Polite crawling at scale pays off for every crawler</a></p>` +
				`<p>Website: <a href="https://crawler.example/">crawler.example</a></p><p>Facebook: <a href="https://facebook.example/crawlertimes">facebook.example/crawlertimes</a></p>`,
			gone: []string{"Website", "crawler.example", "Facebook"},
			kept: []string{"Continue reading at Crawler Weekly: Polite crawling at scale pays off"},
		},
		{
			// A post's metadata line under a class that runs the article
			// word and "meta" together (WordPress's "postmetadata").
			name:  "post metadata under a run-together class",
			after: `<p class="postmetadata alt">This entry was posted on 3 March 2026 at 7:14 pm and is filed under <a href="/c/crawling">Crawling</a>. You can follow any responses to this entry through the feed.</p>`,
			gone:  []string{"This entry was posted", "filed under"},
		},
		{
			// An author box whose id names it while its class is the
			// site's article class: the id, naming this one element,
			// wins.
			name: "author box named by its id",
			after: `<div class="post" id="author"><p>Author: Ann Writer</p><p>Ann Writer is the founder of the Crawler Times. She has written about search engines, web archives and the people who build them for many years.</p>` +
				`<p>Before that she ran the crawl of a national library for a decade. She lives by the sea with two cats and far too many hard disks.</p><p>Her book on polite crawling came out last spring. She answers mail from readers every Friday.</p></div>`,
			gone: []string{"founder of the Crawler Times", "two cats", "every Friday"},
		},
		{
			// A sign-up box between two paragraphs, its class naming
			// nothing: div text, a sentence among it; a subheading
			// written as divs stays.
			name:   "box between paragraphs",
			inside: `<div class="box-17"><div>NEWS LETTERS</div><div>News, tips and trends from the world of crawling, every week for you!</div></div><div class="box-18"><div>10</div><div>Crawler of the year</div></div>`,
			gone:   []string{"NEWS LETTERS", "tips and trends"},
			kept:   []string{"10\n\nCrawler of the year"},
		},
		{
			name:   "credit lines opening with a label",
			inside: `<p>(Credit: Jane Lens / Agency)</p><p>Foto: <a href="https://agency.example/">agency.example</a></p>`,
			gone:   []string{"Jane Lens", "Foto", "agency.example"},
		},
		{
			// A caption in an element of its own right after an element
			// holding only the image (so no ancestor of the caption
			// holds the image itself); a paragraph there is text.
			name: "caption after an image box",
			inside: `<div class="photo"><div class="frame"><a href="/a.jpg"><img src="/a.jpg" width="800"></a></div><div class="legend">The data centre of the crawler in winter</div></div>` +
				`<div class="frame"><img src="/b.jpg" width="800"></div><p>It snowed all week.</p>`,
			gone: []string{"data centre"},
			kept: []string{"It snowed all week."},
		},
		{
			// The label of ad slots between paragraphs, in markup that
			// does not say so: one word, three times on the page.
			name: "labels of ad slots",
			inside: `<div>Advertisement</div><p>The crawler slept for a second between two requests.</p>` +
				`<div>Advertisement</div><p>Then it asked the same host again, as politely as before.</p><div>Advertisement</div>`,
			gone: []string{"Advertisement"},
			kept: []string{"slept for a second", "as politely as before"},
		},
		{
			// A caption whose image a script loads (no img element on
			// the page), in an element whose class says what it is; a
			// long text in such a class (a photo post) stays.
			name: "caption named by its class",
			inside: `<div class="article-image"><div class="lazy" data-src="/a.jpg"></div><div class="image-caption"><span>The data centre at night, seen from the car park</span></div></div>` +
				`<div class="post-caption"><p>This long text sits in a caption class but tells the story of the night shift at the data centre, when the crawlers ran at full speed and nobody was there to watch them.</p></div>`,
			gone: []string{"seen from the car park"},
			kept: []string{"the story of the night shift"},
		},
		{
			// Labels of form controls outside a form (or in a form that
			// wraps the whole page, which stays) name fields, not text.
			name:   "labels of form controls",
			inside: `<p><label for="q">Search the archive of the Crawler Times</label> <input id="q"></p><div><label>Your email address</label><input type="email"></div>`,
			gone:   []string{"Search the archive", "Your email address"},
		},
		{
			name:   "controls marked by ARIA roles",
			inside: `<div role="button"><span>Show the picture</span></div><div role="toolbar"><span>Print this page</span></div>`,
			gone:   []string{"Show the picture", "Print this page"},
		},
		{
			// The full stops of a date end no sentence: the line is a
			// fragment at the article's edge.
			name:  "dateline after the article",
			after: `<div class="date">Updated: 11.04.2020, 10:27</div>`,
			gone:  []string{"Updated", "11.04.2020"},
		},
		{
			// A heading of the article's own markup over a box of
			// related links: it heads no text.
			name:   "heading over a related-links box",
			inside: `<h3>More on this</h3><div class="related-links"><p><a href="/a">Crawling the deep web</a></p><p><a href="/b">Robots.txt explained</a></p></div>`,
			gone:   []string{"More on this", "Crawling the deep web"},
		},
		{
			// An appeal in a box of its own after the last paragraph,
			// without a class name that says so.
			name:  "appeal closing the article",
			after: `<div><div><h3>While you are here</h3><p>If you enjoyed reading this, would you consider supporting our work? Every donation keeps the newsroom going.</p></div><div><a href="/donate">Donate now</a></div></div>`,
			gone:  []string{"While you are here", "supporting our work", "Donate now"},
		},
		{
			// A fact box after the element holding the paragraphs (the
			// leading </div> closes the article body).
			name:  "fact box after the article body",
			after: `</div><div><div><p>Company: Crawler Times Inc.</p><p>Founded: 2009</p><p>The Crawler Times Inc. publishes news about web crawling. It was founded in Berlin.</p></div>`,
			gone:  []string{"Crawler Times Inc", "Founded"},
		},
		{
			// A wrapper after the last paragraph holding a good part of
			// the text is more of the article, not a box.
			name: "closing section in a wrapper",
			after: `<div><p>The last part of the story was set in a wrapper of its own by the page's editor. It still reads as the rest does, with full sentences about crawlers and hosts.</p>` +
				`<p>Crawlers that honour these rules are welcome on most sites. Those that do not are blocked sooner or later, and their operators are asked to explain themselves.</p>` +
				`<p>So the advice of this article comes down to one line: ask the server what it allows, wait between requests, and stop when it says so.</p></div>`,
			kept: []string{"The last part of the story", "their operators are asked"},
		},
		{
			// Three paragraphs of running text in a wrapper of their own
			// after the last one are the end of the text, even when they
			// hold fewer words than a closing box may.
			name: "last paragraphs in a wrapper",
			after: `<div><div><h3>Pace</h3><p>Crawlers wait between requests.</p>` +
				`<p>A second is the usual pause for a host.</p><p>Slow hosts ask for more in their rules.</p></div></div>`,
			kept: []string{"Crawlers wait between requests.", "Slow hosts ask for more"},
		},
		{
			// A recipe card after the post: its steps are list items of
			// running text.
			name: "recipe card after the post",
			after: `<div><div><h2>Crawler biscuits</h2><ul><li>2 cups flour</li><li>3 eggs</li></ul><ol><li>Mix the flour and the eggs in a bowl until smooth.</li>` +
				`<li>Roll out the dough thinly and cut it into small squares.</li><li>Bake the squares for twenty minutes until they are golden.</li></ol></div></div>`,
			kept: []string{"Crawler biscuits", "2 cups flour", "Bake the squares"},
		},
		{
			// A box of specifications (short items with decimal points)
			// is still a box.
			name:  "specifications after the post",
			after: `<div><div><h3>Device info</h3><ul><li>Height: 4.6 in.</li><li>Width: 2.6 in.</li><li>Depth: 0.47 in.</li><li>Weight: 141 g.</li></ul></div></div>`,
			gone:  []string{"Device info", "Height", "Weight"},
		},
		{
			// An appeal of two paragraphs is still a box.
			name: "appeal of two paragraphs",
			after: `<div><div><h3>Before you go</h3><p>Our reporting is free to read, and we want to keep it that way.</p>` +
				`<p>Would you consider a small gift to the newsroom this month?</p></div></div>`,
			gone: []string{"Before you go", "free to read", "small gift"},
		},
		{
			// An example with code after the last paragraph, in a box of
			// its own, is the end of a technical post, not a box closing it.
			name: "code closing the article",
			after: `<div><p>For example, a crawler that honours the file asks for it first:</p><pre>GET /robots.txt HTTP/1.1</pre>` +
				`<p>Then it fetches what the file allows, one page at a time.</p></div>`,
			kept: []string{"GET /robots.txt HTTP/1.1", "one page at a time"},
		},
		{
			// A short code sample is no fragment to trim off the end.
			name:  "short code after the last paragraph",
			after: "<pre>for url := range frontier {\n\tfetch(url)\n}</pre>",
			kept:  []string{"fetch(url)"},
		},
		{
			// The same for a last section element with its heading.
			name:  "last section of the article",
			after: `<section><h2>What comes next</h2><p>The next release of the crawler will ask each host for its sitemap first, then spread its visits over the day.</p></section>`,
			kept:  []string{"What comes next", "spread its visits over the day"},
		},
		{
			// One-word cells repeated in every row are a table's data, not
			// labels of ad slots, and not repeated text to write once.
			name: "table of one-word cells",
			inside: `<table><tr><th><p>Rule</p></th><th><p>Obeyed</p></th></tr>` +
				`<tr><td><p>robots.txt</p></td><td><p>Yes</p></td></tr><tr><td><p>Crawl-delay</p></td><td><p>Yes</p></td></tr>` +
				`<tr><td><p>nofollow</p></td><td><p>Yes</p></td></tr><tr><td><p>noarchive</p></td><td><p>No</p></td></tr></table>`,
			kept: []string{"robots.txt | Yes", "Crawl-delay | Yes", "nofollow | Yes"},
		},
		{
			name:   "newsletter box",
			inside: `<div class="newsletter-signup"><h3>Get the Crawler Times daily</h3><p>Sign up for our newsletter and get the best stories in your inbox every morning.</p><form><input type="email"><button>Subscribe</button></form></div>`,
			gone:   []string{"Get the Crawler Times daily", "Sign up for our newsletter"},
		},
		{
			name:   "subscription box",
			inside: `<aside><p>Support independent journalism. Subscribe today for one dollar a week.</p></aside><div class="subscription-cta"><p>Already a subscriber? Log in to continue reading.</p></div>`,
			gone:   []string{"Support independent journalism", "Already a subscriber"},
		},
		{
			name:  "share bar",
			after: `<div class="share-bar"><a href="#">Facebook</a> <a href="#">Twitter</a> <a href="#">Email</a></div><p>Share this article</p>`,
			gone:  []string{"Facebook", "Twitter", "Share this article"},
		},
		{
			name:   "comment section",
			around: `<section id="comments"><h2>12 comments</h2><div class="comment"><p>Great article, thanks for writing it. I learned a lot about crawling today.</p></div><div class="comment"><p>I disagree with the second paragraph, but the rest of it is well argued.</p></div></section>`,
			gone:   []string{"12 comments", "Great article", "I disagree"},
		},
		{
			name:   "cookie and consent banners",
			around: `<div class="cookie-banner"><p>We use cookies to improve your experience on our website. By continuing to browse you agree to our use of cookies.</p><a href="/privacy">Learn more</a></div><dialog open><p>We and our partners process your personal data. Please choose your consent settings below and accept them.</p></dialog><div id="gdpr-consent"><p>Your privacy matters to us. We ask for your consent before we store data.</p></div>`,
			gone:   []string{"We use cookies", "We and our partners", "Your privacy matters"},
		},
		{
			name:   "table of contents",
			inside: `<div class="toc"><p>Contents</p><ol><li><a href="#one">Why politeness matters</a></li><li><a href="#two">How to wait between requests</a></li><li><a href="#three">What robots.txt says</a></li></ol></div>`,
			gone:   []string{"Contents", "Why politeness matters", "How to wait"},
		},
		{
			name:  "tag list",
			after: `<div class="tags">Tags: <a href="/t/crawling">crawling</a>, <a href="/t/robots">robots</a>, <a href="/t/politeness">politeness</a></div><ul><li><a href="/t/a">Search</a></li><li><a href="/t/b">Archiving</a></li><li><a href="/t/c">Web</a></li></ul>`,
			gone:  []string{"Tags:", "Archiving"},
		},
		{
			name:   "breadcrumb trail",
			around: `<ol class="breadcrumb"><li><a href="/">Home</a></li><li><a href="/tech">Technology</a></li><li>Polite crawling</li></ol>`,
			gone:   []string{"Home", "Technology"},
		},
		{
			name: "hidden text, template and noscript",
			inside: `<p hidden>Hidden paragraph with sentences. It is not shown.</p><div style="display:none"><p>Display none text. Also not shown.</p></div>` +
				`<span class="sr-only">Screen reader only note.</span><template><p>Template content. Inert until cloned.</p></template>` +
				`<noscript><p>Please enable JavaScript to view the comments.</p></noscript>`,
			gone: []string{"Hidden paragraph", "Display none", "Screen reader only", "Template content", "enable JavaScript"},
		},
		{
			name:   "title kept out of the body",
			around: ``,
			gone:   []string{"The Crawler Times"},
		},
	}
	ps := boilerplateArticle(6)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page := boilerplatePage(ps, tt.inside, tt.after, tt.around)
			got, err := Extract(strings.NewReader(page))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(got, "Polite crawling at scale\n\n") {
				t.Errorf("Extract does not start with the headline:\n%s", got)
			}
			for _, p := range ps {
				if !strings.Contains(got, p) {
					t.Errorf("Extract lost article paragraph %q\ngot:\n%s", p, got)
				}
			}
			for _, s := range tt.kept {
				if !strings.Contains(got, s) {
					t.Errorf("Extract lost %q\ngot:\n%s", s, got)
				}
			}
			for _, s := range tt.gone {
				if strings.Contains(got, s) {
					t.Errorf("Extract kept boilerplate %q\ngot:\n%s", s, got)
				}
			}
		})
	}
}

// TestMainTextKeepsArticleStructure checks that headings, lists, tables
// and block quotes inside an article stay.
func TestMainTextKeepsArticleStructure(t *testing.T) {
	ps := boilerplateArticle(5)
	inside := `<h2>How the frontier works</h2><p>` + ps[0] + `</p><ul><li>one queue per host</li><li>a heap of next contact times</li><li>a fingerprint set of seen URLs</li></ul>` +
		`<table><tr><th>Host</th><th>Delay</th></tr><tr><td>example.com</td><td>1 s</td></tr></table>` +
		`<blockquote><p>Be polite, or be blocked.</p></blockquote>`
	page := boilerplatePage(ps[1:], inside, "", "")
	got, err := Extract(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"How the frontier works", "one queue per host", "a fingerprint set of seen URLs", "example.com", "Be polite, or be blocked."} {
		if !strings.Contains(got, s) {
			t.Errorf("Extract lost %q\ngot:\n%s", s, got)
		}
	}
}

// TestMainTextStructure checks that the markup real pages give is used:
// itemprop=articleBody and <article> over a longer comment thread, and a
// JSON-LD articleBody as evidence for paragraphs full of links.
func TestMainTextStructure(t *testing.T) {
	ps := boilerplateArticle(4)
	var thread strings.Builder
	for i := range 8 {
		fmt.Fprintf(&thread, `<div><p>Reader %d wrote a long reply about how their own crawler handles politeness, robots rules and retries on every host it visits.</p></div>`, i)
	}
	t.Run("itemprop articleBody", func(t *testing.T) {
		page := `<body><div><div itemprop="articleBody"><p>` + strings.Join(ps, "</p><p>") + `</p></div></div><div>` + thread.String() + `</div></body>`
		got, _ := Extract(strings.NewReader(page))
		if !strings.Contains(got, ps[0]) || strings.Contains(got, "Reader 3") {
			t.Errorf("Extract = %q, want the articleBody without the thread", got)
		}
	})
	t.Run("JSON-LD articleBody", func(t *testing.T) {
		// Every word of these paragraphs is a link: without evidence they
		// read as link lists.
		linked := make([]string, len(ps))
		for i, p := range ps {
			linked[i] = `<p><a href="/w">` + strings.ReplaceAll(p, " ", `</a> <a href="/w">`) + `</a></p>`
		}
		ld := `{"@type":"NewsArticle","articleBody":"` + strings.Join(ps, " ") + `"}`
		page := `<html><head><script type="application/ld+json">` + ld + `</script></head><body><div>` + strings.Join(linked, "") + `</div><div><p>Unrelated sidebar text that is long enough to count as a paragraph of words here.</p></div></body></html>`
		got, _ := Extract(strings.NewReader(page))
		if !strings.Contains(got, ps[1]) {
			t.Errorf("Extract = %q, want the paragraphs the JSON-LD articleBody vouches for", got)
		}
	})
}

// TestMainTextWithReason checks that a page without an article yields no
// text and a reason, never the whole page.
func TestMainTextWithReason(t *testing.T) {
	var links strings.Builder
	links.WriteString(`<html><head><title>Index</title></head><body><ul>`)
	for i := range 30 {
		fmt.Fprintf(&links, `<li><a href="/p/%d">Page number %d of the site</a></li>`, i, i)
	}
	links.WriteString(`</ul><div>Menu</div><div>Login</div></body></html>`)
	ps := boilerplateArticle(3)
	tests := []struct {
		name   string
		html   string
		reason Reason
		empty  bool
	}{
		{name: "empty", html: "", reason: ReasonNoText, empty: true},
		{name: "markup only", html: `<html><body><img src="a.png"><script>var x = "text";</script></body></html>`, reason: ReasonNoText, empty: true},
		{name: "link list", html: links.String(), reason: ReasonNoArticle, empty: true},
		{name: "fragments", html: `<body><div>Home</div><div>About us</div><div>Contact</div><span>2026</span></body>`, reason: ReasonNoArticle, empty: true},
		// A page its scripts render: the article is in a data attribute,
		// and the only text is an "update your browser" banner hidden by
		// Tailwind's !hidden class.
		{name: "rendered by script", html: `<html><body><div id="app" data-state="{&quot;description&quot;:&quot;Measure the table and cut the cloth.&quot;}"></div>
<div class="popup-banner !hidden" id="update-browser-banner"><p>Your browser is out of date.</p><p>Download a newer browser for free for a better experience. Just click on its icon!</p></div>
<script src="/app.js"></script></body></html>`, reason: ReasonNoText, empty: true},
		{name: "article", html: boilerplatePage(ps, "", "", ""), reason: ReasonFound},
		{name: "unparsable", html: strings.Repeat("<div>", 600) + "<p>Deep text. More deep text.</p>", reason: ReasonUnparsed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := ExtractWithReason(strings.NewReader(tt.html))
			if err != nil {
				t.Fatal(err)
			}
			if res.Reason != tt.reason || (res.Text == "") != tt.empty {
				t.Errorf("ExtractWithReason = {%q, %v}, want reason %v, empty text %v", res.Text, res.Reason, tt.reason, tt.empty)
			}
			if got, _ := Extract(strings.NewReader(tt.html)); got != res.Text {
				t.Errorf("Extract = %q, ExtractWithReason.Text = %q; want equal", got, res.Text)
			}
		})
	}
	if r := ExtractNodeWithReason(nil); r.Reason != ReasonNoText || r.Text != "" {
		t.Errorf("ExtractNodeWithReason(nil) = %+v, want empty with ReasonNoText", r)
	}
	for r := ReasonFound; r <= ReasonUnparsed+1; r++ {
		if r.String() == "" {
			t.Errorf("Reason(%d).String() is empty", r)
		}
	}
}
