package store_test

import (
	"context"
	"log"
	"os"

	"github.com/trawl-dev/trawl/store"
)

// A JSONL store writes each item as one line of JSON. In a crawl, give it
// to trawl.WithItems (items) or trawl.WithStore (pages); the crawler
// closes it when Run returns.
func ExampleJSONL() {
	type article struct {
		URL   string `json:"url"`
		Title string `json:"title"`
	}
	j := store.NewJSONLWriter(os.Stdout) // store.NewJSONL("items.jsonl", nil) for a file
	ctx := context.Background()
	if err := j.PutItem(ctx, article{URL: "https://example.com/a", Title: "A <b> & c"}); err != nil {
		log.Fatal(err)
	}
	if err := j.PutItem(ctx, map[string]any{"url": "https://example.com/b", "words": 120}); err != nil {
		log.Fatal(err)
	}
	if err := j.Close(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// {"url":"https://example.com/a","title":"A <b> & c"}
	// {"url":"https://example.com/b","words":120}
}

// The first item fixes a CSV store's columns; a header row names them.
func ExampleCSV() {
	type product struct {
		Name  string  `csv:"name"`
		Price float64 `csv:"price"`
		Note  string  `csv:"note"`
	}
	c := store.NewCSVWriter(os.Stdout) // store.NewCSV("items.csv", nil) for a file
	ctx := context.Background()
	for _, p := range []product{{"pen", 1.5, ""}, {"ink, blue", 3, `says "hi"`}} {
		if err := c.PutItem(ctx, p); err != nil {
			log.Fatal(err)
		}
	}
	if err := c.Close(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// name,price,note
	// pen,1.5,
	// "ink, blue",3,"says ""hi"""
}
