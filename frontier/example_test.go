package frontier_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/politeness"
)

// One worker's loop: Next, fetch, push the links found, Done; ErrEmpty ends
// the crawl. b.example comes before a.example/x because b has never been
// contacted, while a was contacted just now.
func ExampleNewMemory() {
	f := frontier.NewMemory(&frontier.MemoryOptions{
		Workers:    1,
		MaxDepth:   2,
		Politeness: politeness.Config{MinDelay: -1, Factor: -1}, // no delay: this "web" is a map
	})
	links := map[string][]string{
		"http://a.example/":  {"http://a.example/x", "http://b.example/"},
		"http://a.example/x": {"http://a.example/"}, // already seen: dropped
		"http://b.example/":  {"http://b.example/deep"},
	}
	ctx := context.Background()
	added, _ := f.Push(ctx, frontier.Request{URL: "http://a.example/", Depth: 1})
	fmt.Println("seeds added:", added)
	for {
		req, err := f.Next(ctx)
		if errors.Is(err, frontier.ErrEmpty) {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("fetch", req.URL, "depth", req.Depth)
		for _, l := range links[req.URL] {
			// Depth 3 links are over MaxDepth: Push drops them.
			f.Push(ctx, frontier.Request{URL: l, Depth: req.Depth + 1, Referrer: req.URL})
		}
		if err := f.Done(req, frontier.Outcome{Status: 200, Duration: 10 * time.Millisecond}); err != nil {
			fmt.Println(err)
		}
	}
	fmt.Println("left:", f.Len())
	// Output:
	// seeds added: 1
	// fetch http://a.example/ depth 1
	// fetch http://b.example/ depth 2
	// fetch http://a.example/x depth 2
	// left: 0
}

// A focused crawler scores URLs and raises the score of a URL each time
// another page links to it.
func ExampleMemory_Boost() {
	f := frontier.NewMemory(&frontier.MemoryOptions{
		Strategy:    frontier.Priority,
		FrontQueues: 1,
		Politeness:  politeness.Config{MinDelay: -1, Factor: -1},
	})
	ctx := context.Background()
	f.Push(ctx,
		frontier.Request{URL: "http://a.example/", Priority: 0.9},
		frontier.Request{URL: "http://b.example/", Priority: 0.5},
		frontier.Request{URL: "http://c.example/", Priority: 0.4},
		frontier.Request{URL: "http://d.example/", Priority: 0.3},
		frontier.Request{URL: "http://e.example/", Priority: 0.2},
	)
	// Three back queues were filled at once (a, b, c); e is still waiting
	// in its front queue and can be boosted past d.
	fmt.Println(f.Boost("http://e.example/", 0.5))
	for {
		req, err := f.Next(ctx)
		if err != nil {
			break
		}
		fmt.Println(req.URL, req.Priority)
		f.Done(req, frontier.Outcome{Status: 200})
	}
	// Output:
	// true
	// http://a.example/ 0.9
	// http://b.example/ 0.5
	// http://c.example/ 0.4
	// http://e.example/ 0.7
	// http://d.example/ 0.3
}
