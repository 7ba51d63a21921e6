package extract

import (
	"bytes"
	"net/url"
	"regexp"
	"testing"

	"github.com/trawl-dev/trawl/internal/testpage"
	"golang.org/x/net/html"
)

var benchSizes = []struct {
	name         string
	links, bytes int
}{
	{"10links_20KB", 10, 20 << 10},
	{"30links_50KB", 30, 50 << 10},
	{"60links_50KB", 60, 50 << 10},
	{"60links_200KB", 60, 200 << 10},
}

func BenchmarkLinks(b *testing.B) {
	pageURL, _ := url.Parse("https://www.example.com/2026/11/22/story.html")
	for _, s := range benchSizes {
		page := testpage.Article(1, s.links, s.bytes)
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(page)))
			for b.Loop() {
				doc, err := Links(bytes.NewReader(page), pageURL, nil)
				if err != nil || len(doc.Links) < s.links {
					b.Fatalf("Links: %d links, err %v", len(doc.Links), err)
				}
			}
		})
	}
}

func BenchmarkExtractor(b *testing.B) {
	e := NewExtractor(nil)
	r := new(bytes.Reader)
	for _, s := range benchSizes {
		page := testpage.Article(1, s.links, s.bytes)
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(page)))
			for b.Loop() {
				r.Reset(page)
				e.Reset(r)
				for e.Next() {
				}
			}
		})
	}
}

// BenchmarkTokenizer is the floor: the tokenizer alone, the Extractor's
// own and x/net/html's, which it reads the same tokens as.
func BenchmarkTokenizer(b *testing.B) {
	r := new(bytes.Reader)
	for _, s := range benchSizes {
		page := testpage.Article(1, s.links, s.bytes)
		b.Run("trawl/"+s.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(page)))
			var z tokenizer
			for b.Loop() {
				r.Reset(page)
				z.reset(r, DefaultMaxTokenLen)
				for z.Next() != html.ErrorToken {
				}
			}
		})
		b.Run("x-net-html/"+s.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(page)))
			for b.Loop() {
				r.Reset(page)
				z := html.NewTokenizer(r)
				for z.Next() != html.ErrorToken {
				}
			}
		})
	}
}

// BenchmarkLinksInferred is BenchmarkLinks with Options.Speculative and
// Options.Scripts: what finding inferred URLs (page text, comments,
// scripts) adds to a page.
func BenchmarkLinksInferred(b *testing.B) {
	pageURL, _ := url.Parse("https://www.example.com/2026/11/22/story.html")
	opts := &Options{Speculative: true, Scripts: true}
	for _, s := range benchSizes {
		page := testpage.Article(1, s.links, s.bytes)
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(page)))
			for b.Loop() {
				doc, err := Links(bytes.NewReader(page), pageURL, opts)
				if err != nil || len(doc.Links) < s.links {
					b.Fatalf("Links: %d links, err %v", len(doc.Links), err)
				}
			}
		})
	}
}

// BenchmarkLinksNoScript is BenchmarkLinks on the article pages without
// their scripts and comments, with the options named: what the inferred
// kinds cost a page that has no scripts (the text is still scanned).
func BenchmarkLinksNoScript(b *testing.B) {
	pageURL, _ := url.Parse("https://www.example.com/2026/11/22/story.html")
	strip := regexp.MustCompile(`(?s)<script.*?</script>|<!--.*?-->`)
	for _, o := range []struct {
		name string
		opts *Options
	}{{"default", nil}, {"inferred", &Options{Speculative: true, Scripts: true}}} {
		for _, s := range benchSizes {
			page := strip.ReplaceAll(testpage.Article(1, s.links, s.bytes), nil)
			b.Run(o.name+"/"+s.name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(page)))
				for b.Loop() {
					doc, err := Links(bytes.NewReader(page), pageURL, o.opts)
					if err != nil || len(doc.Links) < s.links {
						b.Fatalf("Links: %d links, err %v", len(doc.Links), err)
					}
				}
			})
		}
	}
}
