// Command scraper crawls a site and writes one JSON line per article it
// finds: the page's URL, the article's heading, its date and its section
// headings, picked out with CSS selectors. It is a program to copy: the
// trawl.New call below is the whole crawler.
//
//	go run ./examples/scraper -demo                            # offline, on a synthetic web
//	go run ./examples/scraper -out articles.jsonl https://go.dev/blog/
//
// Only the start URL's host is crawled (the scope filter), politely:
// robots.txt obeyed, one request at a time per host, 1 s apart, at most
// -max-pages pages. Ctrl-C (or SIGTERM) stops it; what was scraped is kept.
// It refuses to start when -out holds articles already, rather than add
// them a second time: -mode append or -mode overwrite says which.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/store"
)

// Article is one scraped item: a line of the output.
type Article struct {
	URL       string   `json:"url"`
	Title     string   `json:"title"`
	Published string   `json:"published,omitempty"`
	Sections  []string `json:"sections,omitempty"`
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		log.SetFlags(0)
		log.Fatal("scraper: ", err)
	}
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("scraper", flag.ContinueOnError)
	out := fs.String("out", "articles.jsonl", "JSON Lines file the articles are written to")
	mode := fs.String("mode", "refuse", "what to do when -out holds articles already: refuse to start, append (Scrapy's -o) or overwrite (Scrapy's -O)")
	maxPages := fs.Int("max-pages", 500, "stop after this many pages")
	demo := fs.Bool("demo", false, "crawl a synthetic web served on loopback (no network needed)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	seeds := fs.Args()
	var opts []trawl.Option
	if *demo {
		web, err := crawltest.NewWeb(&crawltest.Options{Seed: 1, Hosts: 1, PagesPerHost: 60})
		if err != nil {
			return err
		}
		defer web.Close()
		seeds = web.Seeds()
		opts = append(opts,
			trawl.WithDialContext(web.DialContext),                       // the synthetic hosts
			trawl.WithAllowPrivateNetworks(true),                         // live on 127.0.0.1
			trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay})) // loopback only: be polite elsewhere
	}
	if len(seeds) == 0 {
		return errors.New("give a start URL, or -demo")
	}

	m, err := store.ParseMode(*mode)
	if err != nil {
		return err
	}
	items, err := store.NewJSONL(*out, &store.FileOptions{Mode: m})
	if err != nil {
		return err
	}
	c, err := trawl.New(append([]trawl.Option{
		trawl.WithSeeds(seeds...),
		trawl.WithFilters(trawl.SameHost(seeds...)), // the scope: the start URLs' hosts
		trawl.WithLimits(trawl.Limits{MaxPages: *maxPages}),
		trawl.WithItems(items), // closed when Run returns
		trawl.WithHTML("article", func(ctx context.Context, e *trawl.Element) {
			if err := e.Emit(Article{
				URL:       e.Page().URL.String(),
				Title:     e.ChildText("h1"),
				Published: e.ChildAttr("time", "datetime"),
				Sections:  e.ChildTexts("h2"),
			}); err != nil {
				log.Print(err)
			}
		}),
		trawl.WithProgress(2*time.Second, func(st trawl.Stats) {
			fmt.Fprintf(stdout, "%d pages, %d articles, %.1f pages/s\n", st.Fetch.Pages, st.Items.Emitted, st.Fetch.PerSecond(st.Elapsed))
		}),
	}, opts...)...)
	if err != nil {
		return err
	}
	err = c.Run(ctx)
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(stdout, "interrupted")
		err = nil
	}
	fmt.Fprintf(stdout, "%d articles in %s\n", c.Stats().Items.Emitted, *out)
	return err
}
