package trawlcli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/metrics"
	"github.com/trawl-dev/trawl/report"
)

// observeFeature is -metrics ADDR, -report FILE and -decisions FILE: a
// crawl watched from outside while it runs (a Prometheus endpoint), written
// up after it (an HTML report) and accounted for URL by URL (a decision
// log). They feed on the crawl's events, through one trawl.WithEvents
// option: a program that passes its own WithEvents after Session.Options
// replaces them.
func observeFeature() Feature {
	var (
		metricsAddr, reportPath, decisionsPath string

		events    []trawl.Events
		col       *metrics.Collector
		ln        net.Listener
		rec       *report.Recorder
		reportOut *os.File
		decisions *trawl.DecisionLog
		stderr    io.Writer
		title     string

		stop    context.CancelFunc
		running sync.WaitGroup
		served  error
	)
	return Feature{
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&metricsAddr, "metrics", "", "serve Prometheus metrics of the crawl at http://`ADDR`/metrics while it runs; a port alone (9090) listens on loopback, 0.0.0.0:9090 on every interface")
			fs.StringVar(&reportPath, "report", "", "write a self-contained HTML report of the crawl, with charts, to `FILE` when it ends")
			fs.StringVar(&decisionsPath, "decisions", "", "write what became of every URL discovered, and why, to `FILE` as JSON Lines (see trawl.Decision)")
		},
		Setup: func(s *Session) ([]trawl.Option, error) {
			stderr = s.Stderr()
			title = s.cmd.Name + " crawl"
			if n := len(s.Seeds()); n > 0 {
				title = fmt.Sprintf("%s crawl of %s", s.cmd.Name, s.Seeds()[0])
				if n > 1 {
					title += fmt.Sprintf(" and %d more start URLs", n-1)
				}
			}
			if decisionsPath != "" {
				f, err := os.Create(decisionsPath)
				if err != nil {
					return nil, Exit(1, fmt.Errorf("-decisions: %w", err))
				}
				decisions = trawl.NewDecisionLog(f)
				events = append(events, trawl.Events{OnDecision: decisions.Record})
			}
			if reportPath != "" {
				f, err := os.Create(reportPath)
				if err != nil {
					return nil, Exit(1, fmt.Errorf("-report: %w", err))
				}
				reportOut = f
				rec = report.NewRecorder(nil)
				events = append(events, rec.Events())
			}
			if metricsAddr != "" {
				var err error
				if ln, err = metrics.Listen(metricsAddr); err != nil {
					return nil, Exit(1, fmt.Errorf("-metrics: %w", err))
				}
				col = metrics.New(nil)
				events = append(events, col.Events())
				fmt.Fprintf(stderr, "metrics: serving http://%s/metrics while the crawl runs\n", ln.Addr())
			}
			if len(events) == 0 {
				return nil, nil
			}
			return []trawl.Option{trawl.WithEvents(trawl.JoinEvents(events...))}, nil
		},
		Start: func(ctx context.Context, c *trawl.Crawler) {
			if col == nil && rec == nil {
				return
			}
			var wctx context.Context
			wctx, stop = context.WithCancel(context.WithoutCancel(ctx))
			if col != nil {
				col.Watch(c)
				running.Go(func() { served = metrics.Serve(wctx, ln, metrics.Handler(col)) })
			}
			if rec != nil {
				running.Go(func() { rec.Watch(wctx, c.Stats) })
			}
		},
		Summary: func(w io.Writer, st trawl.Stats) {
			if stop != nil {
				stop()
				running.Wait()
			}
			if ln != nil {
				ln.Close() // when the crawl never started
				if served != nil {
					fmt.Fprintf(stderr, "-metrics: %v\n", served)
				}
			}
			if decisions != nil {
				if err := decisions.Close(); err != nil {
					fmt.Fprintf(stderr, "-decisions: %v\n", err)
				} else {
					fmt.Fprintf(w, "decisions: %s (%d lines)\n", decisionsPath, decisions.Lines())
				}
			}
			if rec != nil {
				rec.Add(st)
				err := rec.Report(title).WriteHTML(reportOut)
				if cerr := reportOut.Close(); cerr != nil {
					err = errors.Join(err, cerr)
				}
				if err != nil {
					fmt.Fprintf(stderr, "-report: %v\n", err)
				} else {
					fmt.Fprintf(w, "report: %s (generated %s)\n", reportPath, time.Now().Format(time.TimeOnly))
				}
			}
		},
	}
}
