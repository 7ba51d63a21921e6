package micro

import (
	"io"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/trawl-dev/trawl/crawltest"
)

// corpus is what the benchmarks read: pages of a crawltest web with their
// URLs, the hrefs on them, and the hosts' robots.txt files.
type corpus struct {
	pages  [][]byte
	urls   []*url.URL
	bytes  int64
	hrefs  []href // every a[href] of every page, with its page URL
	robots [][]byte
	paths  []string // request paths to test against robots.txt
}

type href struct {
	base *url.URL
	ref  string
}

var (
	corpusOnce sync.Once
	theCorpus  *corpus
	corpusErr  error
)

// load fetches 200 pages and 20 robots.txt files from a crawltest web, once.
func load(tb testing.TB) *corpus {
	tb.Helper()
	corpusOnce.Do(func() { theCorpus, corpusErr = fetchCorpus() })
	if corpusErr != nil {
		tb.Fatal(corpusErr)
	}
	return theCorpus
}

func fetchCorpus() (*corpus, error) {
	web, err := crawltest.NewWeb(&crawltest.Options{Seed: 7, Hosts: 20, PagesPerHost: 50})
	if err != nil {
		return nil, err
	}
	defer web.Close()
	c := &corpus{}
	get := func(u string) ([]byte, error) {
		resp, err := web.Client().Get(u)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		return io.ReadAll(resp.Body)
	}
	pages := web.Pages()
	for i := 0; i < len(pages) && len(c.pages) < 200; i += 5 {
		b, err := get(pages[i])
		if err != nil {
			return nil, err
		}
		u, _ := url.Parse(pages[i])
		c.pages = append(c.pages, b)
		c.urls = append(c.urls, u)
		c.bytes += int64(len(b))
		c.paths = append(c.paths, u.RequestURI())
	}
	for _, h := range web.Hosts() {
		b, err := get("http://" + h + "/robots.txt")
		if err != nil {
			return nil, err
		}
		c.robots = append(c.robots, b)
	}
	for i, p := range c.pages {
		for _, ref := range goqueryHrefs(p) {
			c.hrefs = append(c.hrefs, href{base: c.urls[i], ref: ref})
		}
	}
	// A few disallowed-looking paths too, so matching is exercised both ways.
	c.paths = append(c.paths, "/private/x", "/search?q=1", "/tmp/a.pdf", "/news/story-1.html?sid=2")
	if len(c.hrefs) == 0 || !strings.Contains(string(c.robots[0]), "isallow") {
		return nil, io.ErrUnexpectedEOF
	}
	return c, nil
}
