package micro

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"math/bits"
	"net/url"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode"

	"github.com/PuerkitoBio/goquery"
	"github.com/PuerkitoBio/purell"
	"github.com/temoto/robotstxt"
	"golang.org/x/net/html"

	"github.com/trawl-dev/trawl/dedup"
	"github.com/trawl-dev/trawl/extract"
	"github.com/trawl-dev/trawl/maintext"
	"github.com/trawl-dev/trawl/robots"
	"github.com/trawl-dev/trawl/urlnorm"
)

const botName = "trawlbench"

// purellFlags are purell's flags for the rules trawl's Normalizer applies
// by default (lower-case scheme and host, upper-case escapes, decode
// unreserved escapes, drop the default port and an empty query, remove dot
// segments and the fragment).
const purellFlags = purell.FlagsSafe | purell.FlagRemoveDotSegments | purell.FlagRemoveFragment

// goqueryHrefs returns the href of every a[href] of page, as goquery finds them.
func goqueryHrefs(page []byte) []string {
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(page))
	if err != nil {
		return nil
	}
	var out []string
	doc.Find("a[href]").Each(func(_ int, s *goquery.Selection) {
		h, _ := s.Attr("href")
		out = append(out, h)
	})
	return out
}

// trawlHrefs returns the href of every <a> link trawl's extractor finds.
func trawlHrefs(e *extract.Extractor, page []byte) []string {
	e.Reset(bytes.NewReader(page))
	var out []string
	for e.Next() {
		if l := e.Link(); l.Tag == "a" {
			out = append(out, string(l.Href))
		}
	}
	return out
}

// textbookSimhash is the simhash of Charikar as usually written: FNV-1a
// 64 of each lower-cased word, 64 signed counters, sign bits.
func textbookSimhash(text string) uint64 {
	var v [64]int
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) }) {
		h := fnv.New64a()
		h.Write([]byte(strings.ToLower(w)))
		x := h.Sum64()
		for i := range 64 {
			if x&(1<<i) != 0 {
				v[i]++
			} else {
				v[i]--
			}
		}
	}
	var out uint64
	for i := range 64 {
		if v[i] > 0 {
			out |= 1 << i
		}
	}
	return out
}

// TestSameLinks checks that both extractors find the same <a> hrefs, so
// the extraction benchmark compares equal work (trawl also finds area,
// frame, iframe and link elements, which makes its side heavier).
func TestSameLinks(t *testing.T) {
	c := load(t)
	e := extract.NewExtractor(nil)
	for i, p := range c.pages {
		var want []string
		for _, h := range goqueryHrefs(p) {
			// The extractor drops what is not a link to a page.
			if !strings.HasPrefix(h, "mailto:") && !strings.HasPrefix(h, "javascript:") && !strings.HasPrefix(h, "#") {
				want = append(want, h)
			}
		}
		if got := trawlHrefs(e, p); !slices.Equal(got, want) {
			t.Errorf("page %s: extractor found %d <a> hrefs, goquery %d", c.urls[i], len(got), len(want))
		}
	}
}

// TestExtractorAllocs checks that the extractor's hot path allocates
// nothing per link beyond what golang.org/x/net/html's Tokenizer allocates
// on its own. (Since x/net v0.58 the Tokenizer itself allocates for every
// attribute of every tag, to detect duplicate attribute names; see
// bench/README.md.)
func TestExtractorAllocs(t *testing.T) {
	c := load(t)
	e := extract.NewExtractor(&extract.Options{BotName: botName})
	r := new(bytes.Reader)
	links := 0
	scan := func() {
		links = 0
		for _, p := range c.pages {
			r.Reset(p)
			e.Reset(r)
			for e.Next() {
				links++
			}
		}
	}
	scan()
	ext := testing.AllocsPerRun(5, scan)
	tok := testing.AllocsPerRun(5, func() {
		for _, p := range c.pages {
			r.Reset(p)
			z := html.NewTokenizer(r)
			for z.Next() != html.ErrorToken {
			}
		}
	})
	t.Logf("extractor: %.0f allocations for %d links; the bare tokenizer: %.0f", ext, links, tok)
	if extra := (ext - tok) / float64(links); extra > 0.05 {
		t.Errorf("extractor: %.2f allocations per link beyond the tokenizer's, want 0", extra)
	}
}

// TestSameURLs checks that trawl's Normalizer and net/url+purell agree on
// the plain hrefs of the corpus (the comparison is of equal work; where
// they differ trawl follows the WHATWG URL Standard, see urlnorm's doc).
func TestSameURLs(t *testing.T) {
	c := load(t)
	n := urlnorm.New()
	differ := 0
	for _, h := range c.hrefs {
		got, err := n.ResolveString(h.base, h.ref)
		u, perr := h.base.Parse(h.ref)
		if err != nil || perr != nil {
			continue
		}
		if want := purell.NormalizeURL(u, purellFlags); got != want {
			differ++
			if differ <= 5 {
				t.Logf("ResolveString(%s, %q) = %q; purell: %q", h.base, h.ref, got, want)
			}
		}
	}
	if differ > len(c.hrefs)/100 {
		t.Errorf("trawl and purell differ on %d of %d hrefs", differ, len(c.hrefs))
	}
}

// TestSameRobots checks that trawl's robots package and temoto/robotstxt
// answer the same for every path of the corpus on every robots.txt.
func TestSameRobots(t *testing.T) {
	c := load(t)
	for i, body := range c.robots {
		r, err := robots.Parse(body)
		if err != nil {
			t.Fatalf("robots.Parse(file %d): %v", i, err)
		}
		d, err := robotstxt.FromBytes(body)
		if err != nil {
			t.Fatalf("robotstxt.FromBytes(file %d): %v", i, err)
		}
		for _, p := range c.paths {
			if got, want := r.Allowed(botName, p), d.TestAgent(p, botName); got != want {
				t.Errorf("file %d: Allowed(%q) = %v, temoto says %v", i, p, got, want)
			}
		}
	}
}

// BenchmarkExtractLinks compares link extraction over the corpus pages:
// impl=trawl is the Extractor as the crawler uses it (links with anchor
// text, page signals and the visible page text); impl=trawl-skiptext the
// same with Options.SkipText (no page text); impl=goquery parses a DOM and
// selects a[href]; impl=tokenizer runs the x/net/html tokenizer alone,
// which the Extractor streams over: its ceiling. Besides wall time each
// reports cpu-ns/op, the process CPU time per operation, which waiting for
// a busy CPU on a shared machine does not inflate.
func BenchmarkExtractLinks(b *testing.B) {
	c := load(b)
	for _, v := range []struct {
		name string
		opts extract.Options
	}{
		{"trawl", extract.Options{BotName: botName}},
		{"trawl-skiptext", extract.Options{BotName: botName, SkipText: true}},
	} {
		b.Run("impl="+v.name, func(b *testing.B) {
			e := extract.NewExtractor(&v.opts)
			r := new(bytes.Reader)
			b.ReportAllocs()
			b.SetBytes(c.bytes)
			links := 0
			start := processCPU()
			for b.Loop() {
				for _, p := range c.pages {
					r.Reset(p)
					e.Reset(r)
					for e.Next() {
						links++
					}
				}
			}
			reportCPU(b, start)
			b.ReportMetric(float64(links)/float64(b.N), "links/op")
		})
	}
	b.Run("impl=goquery", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(c.bytes)
		links := 0
		start := processCPU()
		for b.Loop() {
			for _, p := range c.pages {
				doc, err := goquery.NewDocumentFromReader(bytes.NewReader(p))
				if err != nil {
					b.Fatal(err)
				}
				doc.Find("a[href]").Each(func(_ int, s *goquery.Selection) {
					if _, ok := s.Attr("href"); ok {
						links++
					}
				})
			}
		}
		reportCPU(b, start)
		b.ReportMetric(float64(links)/float64(b.N), "links/op")
	})
	// The ceiling: golang.org/x/net/html's tokenizer alone (NewTokenizer
	// and Next over every token, nothing else), which the extractor
	// streams over.
	b.Run("impl=tokenizer", func(b *testing.B) {
		r := new(bytes.Reader)
		b.ReportAllocs()
		b.SetBytes(c.bytes)
		start := processCPU()
		for b.Loop() {
			for _, p := range c.pages {
				r.Reset(p)
				z := html.NewTokenizer(r)
				for z.Next() != html.ErrorToken {
				}
			}
		}
		reportCPU(b, start)
	})
}

// processCPU returns the CPU time this process has used, in all threads
// (GC included).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the process CPU time per operation since start, which
// waiting for a busy CPU on a shared machine does not inflate, unlike
// ns/op.
func reportCPU(b *testing.B, start time.Duration) {
	if cpu := processCPU() - start; cpu > 0 && b.N > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkResolveNormalize resolves and normalizes one href of the corpus
// per operation (ns/op is the cost per link). host=name is the corpus as
// served (hosts h0.test, h1.test, …); host=ip is the same hrefs on hosts
// written as IPv4 literals with a port, as in the crawl scenarios, where
// every host is 127.0.x.y:port.
func BenchmarkResolveNormalize(b *testing.B) {
	c := load(b)
	for _, hosts := range []struct {
		name  string
		hrefs []href
	}{{"name", c.hrefs}, {"ip", ipHrefs(c.hrefs)}} {
		b.Run("host="+hosts.name+"/impl=trawl", func(b *testing.B) {
			n := urlnorm.New()
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				h := hosts.hrefs[i%len(hosts.hrefs)]
				_, _ = n.ResolveString(h.base, h.ref)
				i++
			}
		})
		b.Run("host="+hosts.name+"/impl=purell", func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				h := hosts.hrefs[i%len(hosts.hrefs)]
				if u, err := h.base.Parse(h.ref); err == nil {
					_ = purell.NormalizeURL(u, purellFlags)
				}
				i++
			}
		})
	}
}

// ipHrefs rewrites host hN.test to 127.0.0.(N+1):8080 in bases and refs.
func ipHrefs(hs []href) []href {
	var pairs []string
	for i := 30; i >= 0; i-- {
		pairs = append(pairs, fmt.Sprintf("h%d.test", i), fmt.Sprintf("127.0.0.%d:8080", i+1))
	}
	r := strings.NewReplacer(pairs...)
	out := make([]href, 0, len(hs))
	for _, h := range hs {
		u, err := url.Parse(r.Replace(h.base.String()))
		if err != nil {
			continue
		}
		out = append(out, href{base: u, ref: r.Replace(h.ref)})
	}
	return out
}

// BenchmarkRobots parses one robots.txt and matches every corpus path
// against it per operation.
func BenchmarkRobots(b *testing.B) {
	c := load(b)
	size := int64(0)
	for _, r := range c.robots {
		size += int64(len(r))
	}
	b.Run("impl=trawl", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(size / int64(len(c.robots)))
		i := 0
		for b.Loop() {
			r, err := robots.Parse(c.robots[i%len(c.robots)])
			if err != nil {
				b.Fatal(err)
			}
			for _, p := range c.paths {
				r.Allowed(botName, p)
			}
			i++
		}
	})
	b.Run("impl=temoto", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(size / int64(len(c.robots)))
		i := 0
		for b.Loop() {
			d, err := robotstxt.FromBytes(c.robots[i%len(c.robots)])
			if err != nil {
				b.Fatal(err)
			}
			for _, p := range c.paths {
				d.TestAgent(p, botName)
			}
			i++
		}
	})
}

// BenchmarkSimhash fingerprints the main text of one corpus page per
// operation.
func BenchmarkSimhash(b *testing.B) {
	c := load(b)
	var texts []string
	size := int64(0)
	for _, p := range c.pages[:50] {
		t, err := maintext.Extract(bytes.NewReader(p))
		if err != nil {
			b.Fatal(err)
		}
		texts = append(texts, t)
		size += int64(len(t))
	}
	b.Run("impl=trawl", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(size / int64(len(texts)))
		i := 0
		for b.Loop() {
			_ = dedup.Simhash(texts[i%len(texts)])
			i++
		}
	})
	b.Run("impl=textbook", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(size / int64(len(texts)))
		i := 0
		for b.Loop() {
			_ = textbookSimhash(texts[i%len(texts)])
			i++
		}
	})
}

// TestSimhashSimilar checks that both simhashes put a page's near
// duplicate closer than an unrelated page, so they do comparable work.
func TestSimhashSimilar(t *testing.T) {
	a := strings.Repeat("the quick brown fox jumps over the lazy dog while the crawler waits ", 20)
	near := a + " one more sentence at the end"
	other := strings.Repeat("completely different words about markets finance bonds and stocks ", 20)
	if d1, d2 := dedup.Distance(dedup.Simhash(a), dedup.Simhash(near)), dedup.Distance(dedup.Simhash(a), dedup.Simhash(other)); d1 >= d2 {
		t.Errorf("dedup.Simhash: near distance %d, unrelated %d", d1, d2)
	}
	if d1, d2 := bits.OnesCount64(textbookSimhash(a)^textbookSimhash(near)), bits.OnesCount64(textbookSimhash(a)^textbookSimhash(other)); d1 >= d2 {
		t.Errorf("textbookSimhash: near distance %d, unrelated %d", d1, d2)
	}
}
