package trawl_test

import (
	"context"
	"fmt"
	"log"
	"net/url"
	"regexp"
	"strings"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/store"
)

// A complete crawl of a synthetic web served on loopback: the same program
// crawls the real web when the crawltest options are left out.
func Example() {
	web, err := crawltest.NewWeb(&crawltest.Options{Seed: 1, Hosts: 3, PagesPerHost: 10})
	if err != nil {
		log.Fatal(err)
	}
	defer web.Close()

	pages := &store.Memory{}
	c, err := trawl.New(
		trawl.WithSeeds(web.Seeds()...),
		trawl.WithFilters(trawl.SameHost(web.Seeds()...)),
		trawl.WithStore(pages),
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}), // loopback only: be polite elsewhere
		trawl.WithDialContext(web.DialContext),                       // reach the synthetic hosts
		trawl.WithAllowPrivateNetworks(true),                         // they live on 127.0.0.1
	)
	if err != nil {
		log.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil {
		log.Fatal(err)
	}
	st := c.Stats()
	fmt.Println("reachable pages:", len(web.Reachable(fetchUA)))
	fmt.Println("pages fetched:", len(web.Log().FetchedPages()))
	fmt.Println("robots.txt fetches:", st.Robots.Fetches)
	fmt.Println("URLs fetched twice:", len(web.Log().FetchedTwice()))
	// Output:
	// reachable pages: 18
	// pages fetched: 18
	// robots.txt fetches: 3
	// URLs fetched twice: 0
}

// fetchUA is the default User-Agent, whose robots.txt token is "trawl".
const fetchUA = "trawl/0.1 (+https://github.com/trawl-dev/trawl)"

// Filters decide which discovered URLs are queued; combine them with All,
// Any and Not.
func ExampleFilter() {
	f := trawl.All(
		trawl.SameDomain("https://www.example.com/"),
		trawl.SkipExtensions(), // images, archives, PDFs, ...
		trawl.Not(trawl.MatchURL(regexp.MustCompile(`[?&]sort=`))),
	)
	for _, raw := range []string{
		"https://blog.example.com/post/1",
		"https://www.example.com/logo.png",
		"https://www.example.com/list?sort=asc",
		"https://other.org/",
	} {
		u, _ := url.Parse(raw)
		fmt.Println(f.Allow(&trawl.Candidate{URL: u, Depth: 2}), raw)
	}
	// Output:
	// true https://blog.example.com/post/1
	// false https://www.example.com/logo.png
	// false https://www.example.com/list?sort=asc
	// false https://other.org/
}

// A Store receives each page worth keeping; store.Func adapts a function.
func ExampleStore() {
	web, _ := crawltest.NewWeb(&crawltest.Options{Seed: 1, Hosts: 1, PagesPerHost: 5})
	defer web.Close()
	var titles []string
	c, _ := trawl.New(
		trawl.WithSeeds(web.Seeds()...),
		trawl.WithWorkers(1),
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}),
		trawl.WithDialContext(web.DialContext),
		trawl.WithAllowPrivateNetworks(true),
		trawl.WithStore(store.Func(func(_ context.Context, p *trawl.Page) error {
			if p.ContentType == "text/html" {
				titles = append(titles, p.Title) // one worker: no lock needed
			}
			return nil
		})),
	)
	c.Run(context.Background())
	fmt.Println(len(titles) > 0, strings.TrimSpace(titles[0]) != "")
	// Output: true true
}
