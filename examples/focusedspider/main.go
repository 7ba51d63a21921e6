// Command focusedspider is a focused crawler: it fetches the links most
// likely to lead to pages about a topic first, and reports its harvest
// rate (relevant pages / pages fetched) as it goes and at the end.
//
//	go run ./examples/focusedspider -demo -max-pages 100               # offline demo, topic astronomy
//	go run ./examples/focusedspider -topic "compiler kernel runtime" -max-pages 500 https://example.com/
//	go run ./examples/focusedspider -topic-file example.txt -scope domain -max-pages 500 https://example.com/
//
// It takes sitespider's flags plus -topic, -topic-file, -scope, -order,
// -threshold and -harvest-every. Run it with -h for all of them; README.md explains the
// scoring and shows the evaluation.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/extract"
	"github.com/trawl-dev/trawl/topic"
	"github.com/trawl-dev/trawl/trawlcli"
)

// demoTopic is the topic of a -demo crawl without -topic or -topic-file:
// words of one of the demo web's topics.
const demoTopic = "telescope galaxy orbit nebula comet planet eclipse"

func main() {
	f := &focused{stderr: os.Stderr}
	f.command().Main()
}

// focused is the focused spider's state: its flags, the scorer and the
// harvest counters.
type focused struct {
	stderr io.Writer
	s      *trawlcli.Session

	topic        string
	topicFile    string
	scope        string
	order        string
	threshold    float64
	harvestEvery int

	scorer *topic.Scorer
	desc   string // the topic as shown in the summary

	pages, relevant atomic.Int64
}

func (f *focused) command() *trawlcli.Command {
	return &trawlcli.Command{
		Name: "focusedspider",
		Usage: "focusedspider crawls the links most likely to lead to pages about a topic first\n" +
			"(given by -topic words and/or a -topic-file example text) and prints the harvest rate:\n" +
			"pages the topic scorer judges relevant / pages fetched. Give -max-pages: by default\n" +
			"it follows links to any host (-scope web).",
		Crawl: f.crawl,
		// Links and feeds, not sitemaps: a sitemap lists every page of
		// a site whatever its topic, and reading one spends the budget
		// that the topic's links should get (-follow adds them).
		Follow: []extract.Kind{extract.Navigation, extract.Frame, extract.Redirect, extract.Form, extract.Feed},
		Features: []trawlcli.Feature{{
			Flags:   f.flags,
			Setup:   f.setup,
			Status:  f.status,
			Summary: f.summary,
		}},
	}
}

// crawl is the focused crawler: the flags' options, the scope, and the
// options that make it focused (main text, the page and link scores).
func (f *focused) crawl(ctx context.Context, s *trawlcli.Session) error {
	seeds := s.Seeds()
	opts := append(s.Options(), // the flags: limits, politeness, stores, progress line
		trawl.WithSeeds(seeds...),
		trawl.WithFilters(f.scopeFilter(seeds...)),
		trawl.WithTrapLimits(trapLimits),
		trawl.WithMainText(trawl.MainText),                    // score the article, not the navigation
		trawl.WithPriority(trawl.Priority{Page: f.pageScore}), // scorer.Observe: learn, score, classify; count the harvest
	)
	if f.order == "topic" {
		opts = append(opts, trawl.WithPriority(trawl.Priority{Link: f.priority})) // scorer.LinkScore(page score, anchor, URL): best first
	}
	c, err := trawl.New(opts...)
	if err != nil {
		return err
	}
	return s.Run(ctx, c)
}

func (f *focused) flags(fs *flag.FlagSet) {
	fs.StringVar(&f.topic, "topic", "", "the topic, as `words` (\"telescope galaxy comet\")")
	fs.StringVar(&f.topicFile, "topic-file", "", "read an example text of the topic from `FILE` (plain text)")
	fs.StringVar(&f.scope, "scope", "", "where links may lead: web (any http(s) URL), domain or host of the start URLs (default web; host with -demo)")
	fs.StringVar(&f.order, "order", "topic", "crawl order: topic (best first by link score) or bfs (breadth first, pages still scored: the baseline to compare harvest rates with)")
	fs.Float64Var(&f.threshold, "threshold", 0, "a page is relevant when its score is at least `T` (0 = the topic package's defaults, calibrated on real pages: 0.07 for -topic words alone, 0.15 with -topic-file)")
	fs.IntVar(&f.harvestEvery, "harvest-every", 100, "without a progress line, print the harvest rate to stderr every `N` pages (0 = only at the end)")
}

// trapLimits drop what the spider's guard filters used to: paths that
// repeat a segment more than 3 times or have more than 12 segments, and
// URLs over 2 KiB.
var trapLimits = trawl.TrapLimits{MaxPathSegments: 12, MaxSegmentRepeats: 3, MaxURLLength: 2048}

// scopeFilter returns the -scope filter. Whatever the scope, binary files
// are skipped; repeating paths (a spider trap) and very long URLs are left
// to the trap rules (trapLimits).
func (f *focused) scopeFilter(seeds ...string) trawl.Filter {
	guard := trawl.SkipExtensions(trawl.BinaryExtensions()...)
	scope := f.scope
	if scope == "" {
		scope = "web"
		if f.s.Demo() {
			scope = "host" // the demo web's hosts are the start URLs' hosts
		}
	}
	switch scope {
	case "host":
		return trawl.All(trawl.SameHost(seeds...), guard)
	case "domain":
		return trawl.All(trawl.SameDomain(seeds...), guard)
	default: // "web"; setup rejects other values before the crawl starts
		return guard
	}
}

// setup checks the flags and builds the scorer from -topic and -topic-file.
func (f *focused) setup(s *trawlcli.Session) ([]trawl.Option, error) {
	f.s = s
	switch f.scope {
	case "", "web", "domain", "host":
	default:
		return nil, fmt.Errorf("-scope %q: want web, domain or host", f.scope)
	}
	if f.order != "topic" && f.order != "bfs" {
		return nil, fmt.Errorf("-order %q: want topic or bfs", f.order)
	}
	if f.threshold < 0 || f.threshold > 1 {
		return nil, fmt.Errorf("-threshold %v: want 0 to 1", f.threshold)
	}
	if f.harvestEvery < 0 {
		return nil, fmt.Errorf("-harvest-every %d: want 0 or more", f.harvestEvery)
	}
	desc := f.topic
	var opts []topic.Option
	if f.threshold > 0 {
		opts = append(opts, topic.WithThreshold(f.threshold))
	}
	if f.topicFile != "" {
		b, err := os.ReadFile(f.topicFile)
		if err != nil {
			return nil, fmt.Errorf("-topic-file: %w", err)
		}
		opts = append(opts, topic.WithExamples(string(b)))
	}
	if desc == "" && f.topicFile == "" {
		if !s.Demo() {
			return nil, errors.New("no topic: give -topic \"words ...\" or -topic-file FILE")
		}
		desc = demoTopic
	}
	sc, err := topic.New(desc, opts...)
	if err != nil {
		return nil, err
	}
	f.scorer = sc
	f.desc = desc
	if f.topicFile != "" {
		f.desc = strings.TrimSpace(desc + " + example " + f.topicFile)
	}
	return nil, nil
}

// text is what is scored of a page: its main text, or its visible text
// when no main content was found.
func text(p *trawl.Page) string {
	if p.MainText != "" {
		return p.MainText
	}
	return p.Text
}

// pageScore learns from, scores and classifies a fetched page, once; the
// crawler keeps the score in Page.Score for the priority hook.
func (f *focused) pageScore(p *trawl.Page) float64 {
	var score float64
	var rel bool
	if t := text(p); t != "" {
		score, rel = f.scorer.Observe(t)
	}
	p.Relevant = rel // the crawler counts it in Stats.Pages.Relevant
	n := f.pages.Add(1)
	if rel {
		f.relevant.Add(1)
	}
	if f.harvestEvery > 0 && n%int64(f.harvestEvery) == 0 && !f.s.Progress() {
		fmt.Fprintln(f.stderr, f.status())
	}
	return score
}

// priority is the link's score: see topic.Scorer.LinkScore.
func (f *focused) priority(l *trawl.Link, p *trawl.Page) float64 {
	return f.scorer.LinkScore(p.Score, l.Text, l.URL)
}

func (f *focused) harvest() (rate float64, relevant, pages int64) {
	pages, relevant = f.pages.Load(), f.relevant.Load()
	if pages > 0 {
		rate = float64(relevant) / float64(pages)
	}
	return rate, relevant, pages
}

func (f *focused) status() string {
	rate, rel, pages := f.harvest()
	return fmt.Sprintf("harvest %.2f (%d/%d)", rate, rel, pages)
}

func (f *focused) summary(w io.Writer, st trawl.Stats) {
	rate, _, pages := f.harvest()
	rel := st.Pages.Relevant
	fmt.Fprintf(w, "topic: %q\n", f.desc)
	fmt.Fprintf(w, "harvest rate: %.3f (%d relevant of %d pages fetched)\n", rate, rel, pages)
}
