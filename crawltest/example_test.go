package crawltest_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/trawl-dev/trawl/crawltest"
)

// A web of 20 hosts with 50 pages each, reached through the web's own
// client.
func Example() {
	w, err := crawltest.NewWeb(nil)
	if err != nil {
		panic(err)
	}
	defer w.Close()

	resp, err := w.Client().Get(w.Seeds()[3])
	if err != nil {
		panic(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(w.Seeds()[3], resp.Status, strings.Contains(string(body), "<title>Home of h3.test"))
	fmt.Println(len(w.Hosts()), "hosts,", len(w.Pages()), "pages")
	// Output:
	// http://h3.test/ 200 OK true
	// 20 hosts, 1000 pages
}

// Point any http.Client at the web with DialContext: host names of the web
// reach it, every other address is refused without touching the network.
func ExampleWeb_DialContext() {
	w, _ := crawltest.NewWeb(&crawltest.Options{Hosts: 2, PagesPerHost: 5})
	defer w.Close()
	client := &http.Client{Transport: &http.Transport{DialContext: w.DialContext}}
	defer client.CloseIdleConnections()

	resp, err := client.Get("http://h1.test/robots.txt")
	if err == nil {
		resp.Body.Close()
		fmt.Println("h1.test:", resp.StatusCode)
	}
	_, err = client.Get("http://example.com/")
	fmt.Println("example.com refused:", err != nil)
	// Output:
	// h1.test: 200
	// example.com refused: true
}

// The ground truth: what a polite crawler must fetch, and how deep.
func ExampleWeb_Reachable() {
	w, _ := crawltest.NewWeb(&crawltest.Options{Seed: 1, Hosts: 2, PagesPerHost: 10})
	defer w.Close()
	reach := w.Reachable("mybot/1.0")
	depths := w.Depths("mybot/1.0")
	fmt.Println(len(reach) > 0 && len(reach) <= len(w.Pages()))
	fmt.Println(reach[0], "depth", depths[reach[0]])
	fmt.Println("evilbot may fetch", len(w.Reachable("evilbot/1.0")), "pages")
	// Output:
	// true
	// http://h0.test/ depth 1
	// evilbot may fetch 0 pages
}

// The request log catches a client that hammers a host, ignores
// robots.txt and fetches a URL twice.
func ExampleLog() {
	w, _ := crawltest.NewWeb(&crawltest.Options{Hosts: 1, PagesPerHost: 20})
	defer w.Close()

	var disallowed string
	for _, u := range w.Pages() {
		if w.Disallowed("rude/1.0", u) {
			disallowed = u
			break
		}
	}
	for _, u := range []string{w.Seeds()[0], "http://H0.TEST:80/", disallowed} {
		resp, err := w.Client().Get(u)
		if err == nil {
			// Read to the end: a client that closes a body early has
			// abandoned the request while the server may still be
			// writing it, and the log rightly counts the next request
			// as overlapping it.
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}

	log := w.Log()
	fmt.Println("requests:", log.Len())
	fmt.Println("fetched twice:", log.FetchedTwice())
	fmt.Println("robots violations:", len(log.RobotsViolations("rude/1.0")))
	fmt.Println("in flight at most:", log.MaxInFlight()["h0.test"])
	fmt.Println("smallest gap under 1s:", log.MinGap()["h0.test"] < time.Second)
	// Output:
	// requests: 3
	// fetched twice: [http://h0.test/]
	// robots violations: 1
	// in flight at most: 1
	// smallest gap under 1s: true
}

// Traps and faults are switched on one by one; their entry points are
// linked from every home page.
func ExampleFaults() {
	w, _ := crawltest.NewWeb(&crawltest.Options{Hosts: 1, PagesPerHost: 5,
		Faults: crawltest.Faults{ServerErrors: true, RedirectLoop: true}})
	defer w.Close()
	for _, u := range w.FaultURLs() {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, u, nil)
		resp, err := w.Client().Do(req)
		if err != nil {
			fmt.Println(u, err)
			continue
		}
		resp.Body.Close()
		fmt.Println(u, resp.StatusCode)
	}
	// Output:
	// http://h0.test/redirect-loop/a 302
	// http://h0.test/fault/500 500
	// http://h0.test/fault/502 502
	// http://h0.test/fault/503 503
}

// With LinkConstructs, References is the ground truth of link extraction:
// here the references in a response's headers, and the construct URLs that
// a crawler following links, frames, redirects and style sheets must fetch
// (the closure of References from the index over those kinds).
func ExampleWeb_References() {
	w, err := crawltest.NewWeb(&crawltest.Options{Hosts: 1, PagesPerHost: 5, LinkConstructs: true})
	if err != nil {
		panic(err)
	}
	defer w.Close()
	for _, r := range w.References("http://h0.test/constructs/h/link.html") {
		fmt.Printf("%-10s %-28s %s\n", r.Kind, r.Construct, r.URL)
	}

	follow := map[string]bool{"navigation": true, "frame": true, "redirect": true, "style": true}
	index := "http://h0.test/constructs/"
	want := map[string]bool{index: true}
	for queue := []string{index}; len(queue) > 0; queue = queue[1:] {
		for _, r := range w.References(queue[0]) {
			if follow[r.Kind] && !want[r.URL] {
				want[r.URL] = true
				queue = append(queue, r.URL)
			}
		}
	}
	fmt.Println(len(want), "of the", len(w.ConstructURLs()), "construct URLs")
	// Output:
	// embed      Link rel=preload             http://h0.test/constructs/t/hdr-link-preload.png
	// navigation Link rel=next                http://h0.test/constructs/t/hdr-link-next.html
	// style      Link rel=stylesheet          http://h0.test/constructs/t/hdr-link-style.css
	// navigation Link rel=prev                http://h0.test/constructs/t/hdr-link-prev.html
	// feed       Link rel=alternate type=atom http://h0.test/constructs/t/hdr-link-feed.atom
	// embed      Link rel=icon                http://h0.test/constructs/t/hdr-link-icon.png
	// sitemap    Link rel=sitemap             http://h0.test/constructs/t/hdr-link-sitemap.xml
	// 61 of the 173 construct URLs
}
