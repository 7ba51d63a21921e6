// Command docscorpus builds the documentation corpus of package content
// from the Debian documentation packages installed on this machine
// (python3-doc, postgresql-doc-15, debian-handbook, openjdk-17-doc,
// rust-doc) and writes it as DIR/truth.jsonl, one content.DocPage a line:
// the page's path (read in place, never copied), its site, generator and
// language, its loopback URL and its truth (content.DocTruth says, per
// generator, which block is the truth and what is left out of it).
//
//	cd bench && go run ./content/docscorpus -out /tmp/docs-corpus
//
// The corpus is built on demand and never committed: DIR must be outside
// the repository (or under a git-ignored path). -scale 0.2 takes a fifth
// of the default sample of about 5,400 pages. TestDocs builds the same
// corpus in memory; this command is for inspecting the truths or feeding
// them to other tools.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/trawl-dev/trawl/bench/content"
)

func main() {
	out := flag.String("out", "", "write the corpus to `DIR`/truth.jsonl")
	scale := flag.Float64("scale", 1, "multiply every site's sample size by `F`")
	flag.Parse()
	if *out == "" || flag.NArg() != 0 {
		log.Fatal("usage: docscorpus -out DIR [-scale F]")
	}
	pages, err := content.BuildDocs(content.DocSites(), *scale)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	f, err := os.Create(filepath.Join(*out, "truth.jsonl"))
	if err != nil {
		log.Fatal(err)
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	count := map[string]int{}
	for _, p := range pages {
		if err := enc.Encode(p); err != nil {
			log.Fatal(err)
		}
		count[p.Generator]++
	}
	if err := w.Flush(); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d pages in %s: %v\n", len(pages), filepath.Join(*out, "truth.jsonl"), count)
}
