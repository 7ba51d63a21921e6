package report

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"strconv"
	"time"

	"github.com/trawl-dev/trawl"
)

// Report is what a Recorder recorded, ready to write out. Recorder.Report
// makes one; it may also be filled by hand (a zero Report renders, with
// "no data" in its charts).
type Report struct {
	Title     string
	Generated time.Time
	Stats     *trawl.Stats // the latest figures; nil if none were added
	Samples   []Sample     // Stats over time, oldest first
	Status    []IntCount   // responses by status code, by code
	Depths    []IntCount   // pages fetched by depth, by depth
	Errors    []Count      // errors by kind, most frequent first
	Skipped   []Count      // the most frequent reasons URLs were not fetched
	TrapRules []Count      // URLs dropped by each trap rule
	Hosts     []Host       // the hosts with most pages first, at most Options.HostRows
	// HostsTotal is how many hosts have figures, listed or not (past
	// Options.MaxHosts, the rest share one row, "(other hosts)").
	HostsTotal int
	// Failures are the first URLs that failed (Options.FailureRows of
	// them), in the order they failed, with their error; Failed counts
	// them all.
	Failures []Failure
	Failed   int64
}

// Failure is a URL the crawl gave up on, from its DecisionError.
type Failure struct {
	URL    string
	Kind   string // the error's kind, as in Stats.Errors.Kinds
	Status int    // the HTTP status, 0 if none
	Error  string // the error message
}

// Host is one row of the per-host table.
type Host struct {
	Name         string
	Pages        int64         // pages fetched (responses of any status)
	Bytes        int64         // their body bytes
	Errors       int64         // URLs given up on
	RobotsDenied int64         // URLs robots.txt disallowed
	MeanDelay    time.Duration // mean time between page requests; 0 with fewer than 2
	Robots       string        // robots.txt outcome: parsed, allow-all, disallow-all; "" if not fetched
	RobotsStatus int           // its HTTP status, 0 if none
}

// rates returns the per-second rate of a counter between consecutive
// samples as steps: the rate holds over each interval.
func rates(ss []Sample, get func(*Sample) int64) []point {
	var pts []point
	for i := 1; i < len(ss); i++ {
		dt := (ss[i].Elapsed - ss[i-1].Elapsed).Seconds()
		if dt <= 0 {
			continue
		}
		r := float64(get(&ss[i])-get(&ss[i-1])) / dt
		pts = append(pts, point{x: ss[i-1].Elapsed.Seconds(), y: r}, point{x: ss[i].Elapsed.Seconds(), y: r})
	}
	return pts
}

func statusClass(code int) string {
	switch {
	case code >= 500:
		return "c5"
	case code >= 400:
		return "c4"
	case code >= 300:
		return "c3"
	}
	return "c2"
}

// row is a line of the summary table.
type row struct{ Label, Value string }

// page is what the document is written from.
type page struct {
	*Report
	Summary []row
	Charts  []chart
}

type chart struct {
	ID, Title, Note string
	SVG             string // markup, escaped where it holds text
}

// WriteHTML writes the report as one self-contained HTML document.
func (r *Report) WriteHTML(w io.Writer) error {
	p := page{Report: r}
	var st trawl.Stats
	if r.Stats != nil {
		st = *r.Stats
		n := func(v int64) string { return strconv.FormatInt(v, 10) }
		p.Summary = []row{
			{"pages fetched", n(st.Fetch.Pages)}, {"pages stored", n(st.Pages.Stored)},
			{"body bytes (decoded)", n(st.Fetch.Bytes) + " bytes (" + human(float64(st.Fetch.Bytes)) + "B)"},
			// Discovered counts links, most of them to URLs seen before:
			// not pages.
			{"distinct URLs queued", n(st.URLs.Discovered - st.URLs.Duplicate)},
			{"links and redirects in scope", n(st.URLs.Discovered)}, {"of them to a URL already seen", n(st.URLs.Duplicate)},
			{"URLs filtered", n(st.URLs.Filtered + st.URLs.Traps)},
			{"robots.txt denied", n(st.Robots.Denied)}, {"errors", n(st.Errors.Total())}, {"retries", n(st.Fetch.Retries)},
			{"URLs still queued", n(st.URLs.Queued)}, {"deepest page", n(st.Fetch.Deepest)},
			{"hosts", n(int64(r.HostsTotal))}, {"duration", st.Elapsed.Round(time.Millisecond).String()},
			{"pages per second", trimFloat(st.Fetch.PerSecond(st.Elapsed))},
			// What rested the hosts after each request (Stats.Pace).
			{"host rests set by the delay / adaptive delay / Crawl-delay / back-off",
				fmt.Sprintf("%d / %d / %d / %d", st.Pace.Delay, st.Pace.Adaptive, st.Pace.CrawlDelay, st.Pace.Backoff)},
			{"longest host rest", st.Pace.Longest.Round(time.Millisecond).String()},
		}
	}
	var status, depths, errs, dups, skipped []bar
	for _, c := range r.Status {
		status = append(status, bar{label: strconv.Itoa(c.Value), n: float64(c.N), class: statusClass(c.Value)})
	}
	for _, c := range r.Depths {
		depths = append(depths, bar{label: strconv.Itoa(c.Value), n: float64(c.N)})
	}
	for _, c := range r.Errors {
		errs = append(errs, bar{label: c.Label, n: float64(c.N), class: "c5"})
	}
	if r.Stats != nil {
		dups = append(dups,
			bar{label: "duplicate URLs", n: float64(st.URLs.Duplicate)},
			bar{label: "exact duplicate pages", n: float64(st.Pages.ExactDuplicates)},
			bar{label: "near duplicate pages", n: float64(st.Pages.NearDuplicates)},
			bar{label: "repeated pages (links not followed)", n: float64(st.Pages.Repeats)})
		if len(r.TrapRules) == 0 {
			dups = append(dups, bar{label: "trap URLs", n: float64(st.URLs.Traps), class: "c4"})
		}
	}
	for _, c := range r.TrapRules {
		dups = append(dups, bar{label: "trap: " + c.Label, n: float64(c.N), class: "c4"})
	}
	for _, c := range r.Skipped {
		skipped = append(skipped, bar{label: c.Label, n: float64(c.N), class: "c3"})
	}
	p.Charts = []chart{
		{ID: "chart-pages-rate", Title: "Pages per second", Note: "page fetches per second between samples",
			SVG: (lineChart("chart-pages-rate", "Pages per second", "pages/s", rates(r.Samples, func(s *Sample) int64 { return s.Fetched })))},
		{ID: "chart-bytes-rate", Title: "Bytes per second", Note: "body bytes per second between samples",
			SVG: (lineChart("chart-bytes-rate", "Bytes per second", "bytes/s", rates(r.Samples, func(s *Sample) int64 { return s.Bytes })))},
		{ID: "chart-queue", Title: "Queue", Note: "URLs waiting in the frontier",
			SVG: (lineChart("chart-queue", "Queue", "URLs", queue(r.Samples)))},
		{ID: "chart-status", Title: "Status codes", Note: "page responses by HTTP status",
			SVG: (barChart("chart-status", "Status codes", status))},
		{ID: "chart-depth", Title: "Depth", Note: "pages fetched by link distance from a seed (seeds have depth 1)",
			SVG: (barChart("chart-depth", "Depth", depths))},
		{ID: "chart-errors", Title: "Errors by kind", Note: "URLs given up on",
			SVG: (hbarChart("chart-errors", "Errors by kind", errs))},
		{ID: "chart-duplicates", Title: "Duplicates and traps caught", Note: "URLs and pages the crawl recognised and did not pursue",
			SVG: (hbarChart("chart-duplicates", "Duplicates and traps caught", dups))},
		{ID: "chart-skipped", Title: "Top reasons URLs were not fetched", Note: "decisions by outcome and reason",
			SVG: (hbarChart("chart-skipped", "Top reasons URLs were not fetched", skipped))},
	}
	bw := bufio.NewWriter(w)
	p.write(bw)
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

func queue(ss []Sample) []point {
	pts := make([]point, 0, len(ss))
	for _, s := range ss {
		pts = append(pts, point{x: s.Elapsed.Seconds(), y: float64(s.Queued)})
	}
	return pts
}

// style is the report's only style sheet, inline.
const style = `<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #1d2733; background: #fff; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 0 0 4px; }
.meta, figcaption, .note { color: #5b6673; font-size: 12px; }
.grid-charts { display: flex; flex-wrap: wrap; gap: 24px; margin: 16px 0; }
figure { margin: 0; }
svg.chart { display: block; background: #fafbfc; border: 1px solid #e3e7ec; }
svg .grid { stroke: #e3e7ec; stroke-width: 1; }
svg .tick, svg .value, svg .axis, svg .nodata { font-size: 11px; fill: #5b6673; }
svg .nodata { font-size: 14px; }
svg .line { fill: none; stroke: #2b6cb0; stroke-width: 2; }
svg .area { fill: #2b6cb0; fill-opacity: 0.15; stroke: none; }
svg .bar { fill: #2b6cb0; }
svg .bar.c2 { fill: #2f855a; }
svg .bar.c3 { fill: #6b7db3; }
svg .bar.c4 { fill: #c05621; }
svg .bar.c5 { fill: #c53030; }
table { border-collapse: collapse; margin: 8px 0 24px; }
th, td { padding: 3px 10px; border-bottom: 1px solid #e3e7ec; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #f0f3f6; }
td.robots-disallow-all { color: #c53030; }
td.error { text-align: left; font-family: ui-monospace, monospace; font-size: 12px; }
</style>`

// write writes the document. The report's text (titles, host names,
// reasons) is escaped; the charts are markup made in svg.go.
func (p *page) write(w *bufio.Writer) {
	e := html.EscapeString
	title := e(p.Title)
	w.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	w.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta name=\"generator\" content=\"trawl report\">\n")
	fmt.Fprintf(w, "<title>%s</title>\n%s\n</head>\n<body>\n<h1>%s</h1>\n", title, style, title)
	fmt.Fprintf(w, "<p class=\"meta\">Report generated %s", p.Generated.Format("2006-01-02 15:04:05 MST"))
	if st := p.Stats; st != nil {
		fmt.Fprintf(w, ", for a crawl started %s that ran %s", st.Start.UTC().Format("2006-01-02 15:04:05 MST"), st.Elapsed.Round(time.Second))
	}
	w.WriteString(".</p>\n\n<table id=\"table-summary\">\n<thead><tr><th>summary</th><th>value</th></tr></thead>\n<tbody>\n")
	for _, r := range p.Summary {
		fmt.Fprintf(w, "<tr><td>%s</td><td>%s</td></tr>\n", e(r.Label), e(r.Value))
	}
	if len(p.Summary) == 0 {
		w.WriteString("<tr><td>no figures recorded</td><td></td></tr>\n")
	}
	w.WriteString("</tbody>\n</table>\n\n<div class=\"grid-charts\">\n")
	for _, c := range p.Charts {
		fmt.Fprintf(w, "<figure>\n<h2>%s</h2>\n%s\n<figcaption>%s</figcaption>\n</figure>\n", e(c.Title), c.SVG, e(c.Note))
	}
	w.WriteString("</div>\n\n<h2>Hosts</h2>\n")
	fmt.Fprintf(w, "<p class=\"note\">%d of %d hosts, those with most pages first. Mean delay: time between the first and last page request to the host, divided by the gaps between its requests.</p>\n", len(p.Hosts), p.HostsTotal)
	w.WriteString("<table id=\"table-hosts\">\n<thead><tr><th>host</th><th>pages</th><th>bytes</th><th>errors</th><th>robots.txt denied</th><th>mean delay</th><th>robots.txt</th></tr></thead>\n<tbody>\n")
	for _, h := range p.Hosts {
		delay := "–"
		if h.MeanDelay > 0 {
			delay = trimFloat(h.MeanDelay.Seconds()) + " s"
		}
		robots := "–"
		if h.Robots != "" {
			robots = e(h.Robots)
			if h.RobotsStatus != 0 {
				robots += " (" + strconv.Itoa(h.RobotsStatus) + ")"
			}
		}
		fmt.Fprintf(w, "<tr><td>%s</td><td>%d</td><td>%sB</td><td>%d</td><td>%d</td><td>%s</td><td class=\"robots-%s\">%s</td></tr>\n",
			e(h.Name), h.Pages, human(float64(h.Bytes)), h.Errors, h.RobotsDenied, delay, e(h.Robots), robots)
	}
	if len(p.Hosts) == 0 {
		w.WriteString("<tr><td>no hosts</td><td></td><td></td><td></td><td></td><td></td><td></td></tr>\n")
	}
	w.WriteString("</tbody>\n</table>\n")
	p.writeFailures(w)
	w.WriteString("</body>\n</html>\n")
}

// writeFailures writes the table of the first failed URLs.
func (p *page) writeFailures(w *bufio.Writer) {
	e := html.EscapeString
	w.WriteString("\n<h2>Failed URLs</h2>\n")
	switch {
	case p.Failed == 0 && len(p.Failures) == 0:
		w.WriteString("<p class=\"note\">No URL failed.</p>\n")
	case p.Failed > int64(len(p.Failures)):
		fmt.Fprintf(w, "<p class=\"note\">The first %d of %d URLs that failed, in the order they failed (a decision log, -decisions, has them all).</p>\n", len(p.Failures), p.Failed)
	default:
		fmt.Fprintf(w, "<p class=\"note\">The %d URLs that failed, in the order they failed.</p>\n", len(p.Failures))
	}
	w.WriteString("<table id=\"table-failures\">\n<thead><tr><th>URL</th><th>kind</th><th>status</th><th>error</th></tr></thead>\n<tbody>\n")
	for _, f := range p.Failures {
		status := "–"
		if f.Status != 0 {
			status = strconv.Itoa(f.Status)
		}
		fmt.Fprintf(w, "<tr><td>%s</td><td>%s</td><td>%s</td><td class=\"error\">%s</td></tr>\n", e(f.URL), e(f.Kind), status, e(f.Error))
	}
	w.WriteString("</tbody>\n</table>\n")
}
