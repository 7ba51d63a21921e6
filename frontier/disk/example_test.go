package disk_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/trawl-dev/trawl/frontier"
	"github.com/trawl-dev/trawl/frontier/disk"
	"github.com/trawl-dev/trawl/politeness"
)

// A crawl that stops with a URL in flight resumes from the directory: the
// URL that was done is not handed out again, the one in flight is.
func Example_resume() {
	dir, err := os.MkdirTemp("", "frontier-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	opts := &disk.Options{Politeness: politeness.Config{MinDelay: -1}}

	f, err := disk.Open(dir, opts)
	if err != nil {
		log.Fatal(err)
	}
	f.Push(ctx,
		frontier.Request{URL: "http://a.example/1", Depth: 1},
		frontier.Request{URL: "http://b.example/1", Depth: 1},
		frontier.Request{URL: "http://c.example/1", Depth: 1},
	)
	done, _ := f.Next(ctx)
	f.Done(done, frontier.Outcome{Status: 200}) // durable when Done returns
	inFlight, _ := f.Next(ctx)
	fmt.Println("done:", done.URL)
	fmt.Println("in flight:", inFlight.URL)
	f.Close() // or a crash: the lease is not done

	f, err = disk.Open(dir, opts)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	added, _ := f.Push(ctx, frontier.Request{URL: "http://a.example/1", Depth: 1})
	fmt.Println("seen URL added again:", added)
	for {
		r, err := f.Next(ctx)
		if err != nil {
			fmt.Println(err)
			break
		}
		fmt.Println("after resume:", r.URL)
		f.Done(r, frontier.Outcome{Status: 200})
	}
	// Output:
	// done: http://a.example/1
	// in flight: http://b.example/1
	// seen URL added again: 0
	// after resume: http://b.example/1
	// after resume: http://c.example/1
	// frontier: empty
}
