// Command maintextdiff runs maintext.Extract on every .html file under a
// directory and compares the result with an earlier run: a check of
// main-text rules on pages of a kind neither evaluation corpus has
// (docs/maintext-evaluation.md reports it on Debian's python3-doc, 530
// pages).
//
//	go run ./cmd/maintextdiff -out before.json /usr/share/doc/python3.11/html
//	(change maintext, then)
//	go run ./cmd/maintextdiff -out after.json -compare before.json /usr/share/doc/python3.11/html
//
// The comparison prints the words returned in all, how many pages changed,
// how many lost 20 words or more, and the largest losses and gains; -show
// PAGE prints the lines a page lost (-) and gained (+).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/trawl-dev/trawl/maintext"
)

func main() {
	out := flag.String("out", "", "write this run's texts (JSON: page -> text) to `FILE`")
	compare := flag.String("compare", "", "compare with an earlier run's `FILE`")
	show := flag.String("show", "", "with -compare, print the lines `PAGE` (a path under the directory) lost and gained")
	flag.Parse()
	if flag.NArg() != 1 {
		log.Fatal("usage: maintextdiff [-out FILE] [-compare FILE [-show PAGE]] DIR")
	}
	root := flag.Arg(0)
	texts := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".html") {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		rel, _ := filepath.Rel(root, path)
		text, err := maintext.Extract(f)
		if err != nil {
			log.Printf("%s: %v", rel, err)
		}
		texts[rel] = text
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	if *out != "" {
		data, _ := json.Marshal(texts)
		if err := os.WriteFile(*out, data, 0o644); err != nil {
			log.Fatal(err)
		}
	}
	if *compare == "" {
		fmt.Printf("%d pages, %d words\n", len(texts), words(texts))
		return
	}
	data, err := os.ReadFile(*compare)
	if err != nil {
		log.Fatal(err)
	}
	var before map[string]string
	if err := json.Unmarshal(data, &before); err != nil {
		log.Fatalf("%s: %v", *compare, err)
	}
	if *show != "" {
		showPage(before[*show], texts[*show])
		return
	}
	type change struct {
		page  string
		delta int
	}
	var changes []change
	lost := 0
	for page, text := range texts {
		if text == before[page] {
			continue
		}
		d := len(strings.Fields(text)) - len(strings.Fields(before[page]))
		changes = append(changes, change{page, d})
		if d <= -20 {
			lost++
		}
	}
	slices.SortFunc(changes, func(a, b change) int { return a.delta - b.delta })
	fmt.Printf("words %d -> %d; pages changed %d; pages that lost >= 20 words: %d\n", words(before), words(texts), len(changes), lost)
	for i, c := range changes {
		if i < 12 || i >= len(changes)-5 {
			fmt.Printf("  %+d %s\n", c.delta, c.page)
		}
	}
}

func words(texts map[string]string) (n int) {
	for _, t := range texts {
		n += len(strings.Fields(t))
	}
	return n
}

// showPage prints the lines of before that after lacks (-), then those of
// after that before lacks (+).
func showPage(before, after string) {
	b, a := strings.Split(before, "\n"), strings.Split(after, "\n")
	for _, l := range b {
		if l != "" && !slices.Contains(a, l) {
			fmt.Println("-", l)
		}
	}
	for _, l := range a {
		if l != "" && !slices.Contains(b, l) {
			fmt.Println("+", l)
		}
	}
}
