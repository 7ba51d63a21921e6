package trawl_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/trawl-dev/trawl"
)

// TestHandlers: a URL followed with Handler(name) is given to that
// handler when fetched (Scrapy's callback=), the links of its page are
// not, an unknown name fails at Enqueue, and a page queued for a handler
// no longer registered is an error of the crawl.
func TestHandlers(t *testing.T) {
	s := newSite(t, map[string]string{
		"a.test/":        `<ul><li><a href="/p1">one</a></li><li><a href="/p2">two</a></li></ul><a href="/about">about</a><a href="/gone">gone</a>`,
		"a.test/p1":      `<h1>Pen</h1><a href="/p1/more">more</a>`,
		"a.test/p2":      `<h1>Ink</h1>`,
		"a.test/p1/more": `<h1>More</h1>`,
		"a.test/about":   `<h1>About</h1>`,
		"a.test/gone":    `<h1>Gone</h1>`,
	})
	var mu sync.Mutex
	var products []string
	var enqueueErr error
	c := run(t, append(s.opts("http://a.test/"),
		trawl.WithHandler("product", func(_ context.Context, p *trawl.Page) {
			mu.Lock()
			products = append(products, p.URL.Path+" "+p.Meta["sku"])
			mu.Unlock()
		}),
		trawl.WithHTML("li a", func(_ context.Context, e *trawl.Element) {
			if _, err := e.Follow(e.Attr("href"), trawl.Handler("product"), trawl.SetMeta("sku", e.Text())); err != nil {
				t.Error(err)
			}
			if _, err := e.Follow(e.Attr("href"), trawl.Handler("nosuch")); err != nil {
				mu.Lock()
				enqueueErr = err
				mu.Unlock()
			}
		}),
		trawl.WithHTML(`a[href="/gone"]`, func(_ context.Context, e *trawl.Element) {
			// As a resumed crawl whose program dropped the handler would.
			e.Follow(e.Attr("href"), trawl.SetMeta(trawl.HandlerKey, "dropped"))
		}),
	)...)
	mu.Lock()
	defer mu.Unlock()
	slices.Sort(products)
	if want := []string{"/p1 one", "/p2 two"}; !slices.Equal(products, want) {
		t.Errorf("the product handler got %q, want %q (not /p1/more, whose link was on a handled page)", products, want)
	}
	if enqueueErr == nil || !strings.Contains(enqueueErr.Error(), `no handler "nosuch"`) {
		t.Errorf("Follow with an unknown handler = %v, want an error", enqueueErr)
	}
	if n := c.Stats().Errors.Kinds["handler"]; n != 1 {
		t.Errorf("Errors.Kinds[handler] = %d, want 1 (the page queued for a dropped handler)", n)
	}
}

// TestElementFind: goquery-style chaining over Find.
func TestElementFind(t *testing.T) {
	s := newSite(t, map[string]string{
		"a.test/": `<div id="shop"><ul class="items"><li><a href="/p1" data-sku="s1">Pen</a></li><li><a href="/p2">Ink</a></li></ul>` +
			`<ul class="items"><li><span>Cap</span></li></ul></div>`,
	})
	var got []string
	run(t, append(s.opts("http://a.test/"), trawl.WithFollow(),
		trawl.WithHTML("#shop", func(_ context.Context, e *trawl.Element) {
			items := e.Find("ul.items").Find("li")
			sku, ok := items.Find("a").Attr("data-sku")
			_, none := items.Find("span").Attr("data-sku")
			got = append(got,
				fmt.Sprintf("%d %d %s %s", e.Find("ul.items").Length(), items.Length(), e.Find("a").First().Text(), items.Text()),
				fmt.Sprintf("%s %v %v %d %v", sku, ok, none, e.Find("table").Find("td").Length(), e.Find("table").First().Text() == ""))
			items.Each(func(i int, li *trawl.Element) { got = append(got, fmt.Sprintf("%d %s", i, li.Text())) })
		}))...)
	want := []string{"2 3 Pen Pen Ink Cap", "s1 true false 0 true", "0 Pen", "1 Ink", "2 Cap"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
