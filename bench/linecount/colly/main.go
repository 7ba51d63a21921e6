// Command colly is examples/pagesjsonl written with Colly v2, for the line
// count the README gives: crawl one site and save each page's URL, title
// and main text as JSON Lines, 4 requests at a time per host, with a
// progress line. Colly has no main-content extractor: the text of the
// first <article> or <main> (else <body>) stands in for it. Robots.txt is
// turned on to match trawl's default; the JSON Lines writer, its lock and
// the progress ticker are the program's own.
//
//	go run ./linecount/colly https://go.dev/doc/
package main

import (
	"encoding/json"
	"fmt"
	"log"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gocolly/colly/v2"
)

type page struct {
	URL      string `json:"url"`
	Title    string `json:"title"`
	MainText string `json:"main_text"`
}

func main() {
	if len(os.Args) != 2 {
		log.Fatal("usage: colly URL")
	}
	site := os.Args[1]
	u, err := url.Parse(site)
	if err != nil {
		log.Fatal(err)
	}
	f, err := os.Create("pages.jsonl")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	var mu sync.Mutex
	enc := json.NewEncoder(f)
	var pages atomic.Int64

	c := colly.NewCollector(colly.AllowedDomains(u.Hostname()), colly.Async(true))
	c.IgnoreRobotsTxt = false
	if err := c.Limit(&colly.LimitRule{DomainGlob: "*", Parallelism: 4, Delay: time.Second}); err != nil {
		log.Fatal(err)
	}
	c.OnHTML("a[href]", func(e *colly.HTMLElement) {
		_ = e.Request.Visit(e.Attr("href"))
	})
	c.OnHTML("html", func(e *colly.HTMLElement) {
		text := e.DOM.Find("article, main").First().Text()
		if strings.TrimSpace(text) == "" {
			text = e.DOM.Find("body").Text()
		}
		p := page{URL: e.Request.URL.String(), Title: e.ChildText("title"), MainText: strings.Join(strings.Fields(text), " ")}
		mu.Lock()
		defer mu.Unlock()
		if err := enc.Encode(p); err != nil {
			log.Print(err)
		}
		pages.Add(1)
	})

	start := time.Now()
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				n := pages.Load()
				fmt.Printf("%d pages, %.1f pages/s\n", n, float64(n)/time.Since(start).Seconds())
			}
		}
	}()
	if err := c.Visit(site); err != nil {
		log.Fatal(err)
	}
	c.Wait()
	close(done)
}
