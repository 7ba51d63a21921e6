package store_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/crawltest"
	"github.com/trawl-dev/trawl/store"
)

// Archive a crawl as WARC files: every exchange, robots.txt included, as
// it crossed the wire, with a CDXJ index beside the files.
func ExampleNewWARC() {
	web, err := crawltest.NewWeb(&crawltest.Options{Seed: 1, Hosts: 1, PagesPerHost: 10})
	if err != nil {
		log.Fatal(err)
	}
	defer web.Close()
	dir, err := os.MkdirTemp("", "warc-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	w, err := store.NewWARC(dir, &store.WARCOptions{Info: map[string]string{"operator": "example"}})
	if err != nil {
		log.Fatal(err)
	}
	c, err := trawl.New(
		trawl.WithSeeds(web.Seeds()...),
		trawl.WithDialContext(web.DialContext),
		trawl.WithAllowPrivateNetworks(true), // crawltest serves on loopback
		trawl.WithPoliteness(trawl.Politeness{Delay: trawl.NoDelay}),
		trawl.WithStore(w),
	)
	if err != nil {
		log.Fatal(err)
	}
	if err := c.Run(context.Background()); err != nil { // closes w
		log.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.warc.gz"))
	index, _ := filepath.Glob(filepath.Join(dir, "*.cdxj"))
	cdxj, _ := os.ReadFile(index[0])
	lines := strings.Split(strings.TrimSpace(string(cdxj)), "\n")
	records, revisits := w.Records()
	fmt.Printf("%d WARC file, %d records (%d revisits), %d index lines\n", len(files), records, revisits, len(lines))
	fmt.Println(strings.Fields(lines[0])[0]) // SURT keys sort the index
	// Output:
	// 1 WARC file, 26 records (0 revisits), 13 index lines
	// test,h0)/
}
