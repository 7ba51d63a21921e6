package trawlcli

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/trawl-dev/trawl"
)

// progressLine redraws one status line in place.
type progressLine struct {
	shown bool
	extra []func() string // the features' Status
	pace  pace            // the politeness the flags set
}

func (l *progressLine) show(w io.Writer, s trawl.Stats) {
	fmt.Fprintf(w, "\r\033[K%d pages  %.1f pages/s  %d queued  %d stored  %d errors  %s  host rate %s",
		s.Fetch.Pages, s.Fetch.PerSecond(s.Elapsed), s.URLs.Queued, s.Pages.Stored, s.Errors.Total(), s.Elapsed.Round(time.Second), l.pace.rate)
	if held := heldLonger(s.Pace); held != "" {
		fmt.Fprintf(w, " (held longer: %s)", held)
	}
	for _, extra := range l.extra {
		if text := extra(); text != "" {
			fmt.Fprintf(w, "  %s", text)
		}
	}
	l.shown = true
}

func (l *progressLine) end(w io.Writer) {
	if l.shown {
		fmt.Fprintln(w)
	}
}

// summary writes the crawl's common summary; out is the -out directory,
// temporary when the -demo removes it at the end.
func summary(w io.Writer, s trawl.Stats, p pace, out string, temporary bool) {
	fmt.Fprintf(w, "crawled %d pages in %s (%.1f pages/s), %s of bodies\n", s.Fetch.Pages, s.Elapsed.Round(time.Millisecond), s.Fetch.PerSecond(s.Elapsed), byteSize(s.Fetch.Bytes))
	fmt.Fprintf(w, "stored %d pages; max depth %d; sizes min %s / avg %s / max %s\n", s.Pages.Stored, s.Fetch.Deepest, byteSize(s.Pages.MinSize), byteSize(s.Pages.AvgSize()), byteSize(s.Pages.MaxSize))
	fmt.Fprintf(w, "status: %d 2xx, %d 3xx, %d 4xx, %d 5xx\n", s.Fetch.Class(2), s.Fetch.Class(3), s.Fetch.Class(4), s.Fetch.Class(5))
	// Discovered counts every link (and redirect, and seed) that passed
	// the filters, most of them to URLs seen before: not pages.
	fmt.Fprintf(w, "urls: %d distinct URLs queued, from %d links and redirects in scope (%d of them to a URL already seen); %d filtered, %d denied by robots.txt (%d robots.txt fetches), %d still queued\n",
		s.URLs.Discovered-s.URLs.Duplicate, s.URLs.Discovered, s.URLs.Duplicate, s.URLs.Filtered+s.URLs.Traps, s.Robots.Denied, s.Robots.Fetches, s.URLs.Queued)
	if s.URLs.Traps > 0 || s.Pages.Repeats > 0 {
		fmt.Fprintf(w, "traps: %d URLs dropped by the trap rules, %d pages repeating an earlier page (links not followed)\n", s.URLs.Traps, s.Pages.Repeats)
	}
	if s.Found.Sitemaps > 0 || s.Found.Feeds > 0 {
		fmt.Fprintf(w, "discovery: %d sitemaps listing %d URLs, %d feeds\n", s.Found.Sitemaps, s.Found.SitemapURLs, s.Found.Feeds)
	}
	if s.Errors.Kinds["private"] > 0 {
		fmt.Fprintf(w, "private: %d URLs refused because their host is on a private or loopback address (-allow-private allows them)\n", s.Errors.Kinds["private"])
	}
	if s.Errors.Total() > 0 {
		var kinds []string
		for k, v := range s.Errors.Kinds {
			kinds = append(kinds, fmt.Sprintf("%s %d", k, v))
		}
		slices.Sort(kinds)
		fmt.Fprintf(w, "errors: %d (%s)\n", s.Errors.Total(), strings.Join(kinds, ", "))
	}
	paceSummary(w, s, p)
	switch {
	case out != "" && temporary:
		fmt.Fprintf(w, "output: %s, a temporary directory removed now (-out DIR keeps the pages)\n", out)
	case out != "":
		fmt.Fprintf(w, "output: %s (urls.txt, stats.txt, numbered pages)\n", out)
	}
}

// byteSize formats n bytes for people: "512 B", "1.5 KiB", "48.3 MiB",
// "2.10 GiB" (binary units, three significant digits).
func byteSize(n int64) string {
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	v, unit := float64(n)/1024, "KiB"
	for _, u := range []string{"MiB", "GiB", "TiB"} {
		if v < 1024 {
			break
		}
		v, unit = v/1024, u
	}
	switch {
	case v < 10:
		return fmt.Sprintf("%.2f %s", v, unit)
	case v < 100:
		return fmt.Sprintf("%.1f %s", v, unit)
	}
	return fmt.Sprintf("%.0f %s", v, unit)
}

// pace is the politeness the flags set, in words.
type pace struct {
	rate string // "≤1 req/s, 1 in flight"
	why  string // "-delay 1s after each response; adaptive: 10 × the response time when longer"
}

// describePace says what rate a host gets from the flags' delay (0 for
// none), adaptive factor (0 for off) and requests in flight.
func describePace(delay time.Duration, adaptive float64, inFlight int) pace {
	inFlight = max(inFlight, 1)
	var p pace
	if delay <= 0 {
		p.rate = fmt.Sprintf("unlimited, %d in flight", inFlight)
		p.why = "no delay (-delay 0)"
	} else {
		p.rate = fmt.Sprintf("≤%s req/s, %d in flight", strconv.FormatFloat(float64(time.Second)/float64(delay), 'g', 3, 64), inFlight)
		p.why = fmt.Sprintf("a %s gap after each response (-delay, or -rate)", delay)
	}
	if adaptive > 0 {
		p.why += fmt.Sprintf(", longer after a slow response: %g × its time (-adaptive)", adaptive)
	}
	return p
}

// heldLonger says which rules rested hosts longer than the delay, and how
// often: "adaptive 3, Crawl-delay 2, back-off 1"; "" when none did.
func heldLonger(p trawl.PaceStats) string {
	var parts []string
	for _, r := range []struct {
		name string
		n    int64
	}{{"adaptive", p.Adaptive}, {"Crawl-delay", p.CrawlDelay}, {"back-off", p.Backoff}} {
		if r.n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", r.name, r.n))
		}
	}
	return strings.Join(parts, ", ")
}

// paceSummary says the rate each host was held to and why.
func paceSummary(w io.Writer, s trawl.Stats, p pace) {
	if p.rate == "" {
		return
	}
	fmt.Fprintf(w, "politeness: each host %s: %s", p.rate, p.why)
	total := s.Pace.Delay + s.Pace.Adaptive + s.Pace.CrawlDelay + s.Pace.Backoff
	if total > 0 {
		fmt.Fprintf(w, "; after %d of %d requests the host rested for the delay", s.Pace.Delay, total)
		if held := heldLonger(s.Pace); held != "" {
			fmt.Fprintf(w, ", after the others longer (%s)", held)
		}
		fmt.Fprintf(w, "; longest rest %s", s.Pace.Longest.Round(time.Millisecond))
	}
	fmt.Fprintln(w)
}
