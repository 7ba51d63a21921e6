package trawl

import (
	"net/http"
	"net/url"
	"time"

	"github.com/trawl-dev/trawl/dedup"
	"github.com/trawl-dev/trawl/extract"
)

// Link is a link found on a page: its absolute normalized URL, anchor text,
// tag and rel values. It is the extract package's type.
type Link = extract.Link

// Candidate is a URL the crawler is about to queue, as Filters see it.
type Candidate struct {
	URL      *url.URL // absolute and normalized; Filters must not modify it
	Depth    int      // seeds have depth 1; a link on a depth-d page has depth d+1
	Referrer string   // URL of the page the link was found on ("" for seeds)
	Anchor   string   // anchor text of the link ("" for seeds)
	// Meta is the metadata the URL was queued with (Crawler.Enqueue,
	// Element.Follow); nil for links the crawler found itself. Filters
	// must not modify it.
	Meta map[string]string
}

// Page is a fetched page. The crawler hands it to the Store and to
// Events.OnPage; they must not keep Body or Links past their call if they
// modify them, but may keep the *Page itself: the crawler never reuses it.
type Page struct {
	URL         *url.URL      // the URL fetched (normalized)
	Depth       int           // link distance from a seed; seeds have depth 1
	Referrer    string        // the page that linked here ("" for seeds)
	Anchor      string        // anchor text of that link
	Status      int           // HTTP status code
	Header      http.Header   // response header
	ContentType string        // media type, such as "text/html"
	Charset     string        // charset the body was decoded from
	Body        []byte        // body: UTF-8 text for text types, the bytes as served for others (images, archives), at most the fetcher's size limit
	Truncated   bool          // the body was cut at the size limit
	Fetched     time.Time     // when the fetch finished
	Duration    time.Duration // how long the fetch took
	ETag        string        // validator for conditional GETs
	Modified    time.Time     // Last-Modified, zero if absent

	Title     string
	Lang      string
	Canonical string
	NoIndex   bool    // meta robots or X-Robots-Tag said noindex (such pages are not stored)
	NoFollow  bool    // meta robots or X-Robots-Tag said nofollow (their links are not followed)
	Links     []Link  // every reference found (HTML, CSS, sitemap, feed, response headers), each with its Kind, nofollow ones included
	Text      string  // visible text of the page, whitespace collapsed
	MainText  string  // main content (paragraphs separated by blank lines, code keeping its lines, one list item or table row a line); filled with WithMainText
	Score     float64 // Priority.Page's score for this page; 0 without one
	Relevant  bool    // set by Priority.Page when it judges the page on topic (as topic.Scorer.Observe does); counted in Stats.Pages.Relevant
	// Importance is the page's OPIC cash when it was fetched (Priority.OPIC;
	// 0 without): its share, in [0, 1], of the importance the crawl has
	// handed around, an online estimate of its PageRank.
	Importance float64
	// Duplicate says whether the page's main text duplicates an earlier
	// page's (Kind dedup.Exact or dedup.Near, Of its URL); Kind is dedup.New
	// for an original or when detection is off.
	Duplicate dedup.Match

	// Sitemap is what a sitemap said about this URL (lastmod, changefreq,
	// priority) when the crawl found it in one; nil otherwise.
	Sitemap *SitemapInfo

	// Meta is the request's metadata: what Crawler.Enqueue or
	// Element.Follow queued the URL with (a page followed with FromPage
	// carries its finder's Meta on), plus what the WithOnRequest hook set;
	// it follows redirects. nil when there is none. Links the crawler
	// follows by itself carry no metadata. Read it; do not modify it.
	Meta map[string]string

	listed    map[string]*SitemapInfo // what the page, a sitemap, says of the URLs it lists
	redirects int                     // redirects and meta refreshes that led here (frontier.Request.Redirects)
}
