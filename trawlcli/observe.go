package trawlcli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/report"
)

// observeFeature is -metrics ADDR, -report FILE and -decisions FILE: a
// crawl watched from outside while it runs (a Prometheus endpoint), written
// up after it (an HTML report) and accounted for URL by URL (a decision
// log). They feed on the crawl's events, added with Session.AddEvents.
func observeFeature() Feature {
	var (
		metricsAddr, reportPath, decisionsPath, omit string

		endpoint  *metricsEndpoint
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
			fs.StringVar(&omit, "decisions-omit", "", "with -decisions, leave out these `OUTCOMES`, comma-separated (duplicate-url, a URL found again, is most of a log's lines)")
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
				record := decisions.Record
				if omit != "" {
					skip, err := outcomeSet(omit)
					if err != nil {
						f.Close()
						return nil, err
					}
					record = func(ctx context.Context, d trawl.Decision) {
						if !skip[d.Outcome] {
							decisions.Record(ctx, d)
						}
					}
				}
				s.AddEvents(trawl.Events{OnDecision: record})
			}
			if reportPath != "" {
				f, err := os.Create(reportPath)
				if err != nil {
					return nil, Exit(1, fmt.Errorf("-report: %w", err))
				}
				reportOut = f
				rec = report.NewRecorder(nil)
				s.AddEvents(rec.Events())
			}
			if metricsAddr != "" {
				var err error
				if endpoint, err = newMetricsEndpoint(metricsAddr); err != nil {
					return nil, Exit(1, fmt.Errorf("-metrics: %w", err))
				}
				s.AddEvents(endpoint.events)
				fmt.Fprintf(stderr, "metrics: serving http://%s/metrics while the crawl runs\n", endpoint.ln.Addr())
			}
			return nil, nil
		},
		Start: func(ctx context.Context, c *trawl.Crawler) {
			if endpoint == nil && rec == nil {
				return
			}
			var wctx context.Context
			wctx, stop = context.WithCancel(context.WithoutCancel(ctx))
			if endpoint != nil {
				running.Go(func() { served = endpoint.serve(wctx, c) })
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
			if endpoint != nil {
				endpoint.ln.Close() // when the crawl never started
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

// outcomes are the values of trawl.Decision.Outcome.
var outcomes = []trawl.Outcome{
	trawl.DecisionQueued, trawl.DecisionDuplicateURL, trawl.DecisionFiltered, trawl.DecisionTrap,
	trawl.DecisionDepth, trawl.DecisionBudget, trawl.DecisionNotFollowed, trawl.DecisionRobots,
	trawl.DecisionLimit, trawl.DecisionWait, trawl.DecisionFetched, trawl.DecisionDuplicateContent,
	trawl.DecisionError, trawl.DecisionAborted, trawl.DecisionRobotsTxt,
}

// outcomeSet parses -decisions-omit.
func outcomeSet(list string) (map[trawl.Outcome]bool, error) {
	set := map[trawl.Outcome]bool{}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "skipped" { // the old name of aborted: command lines written for it keep working
			name = trawl.DecisionAborted.String()
		}
		var o trawl.Outcome
		if err := o.UnmarshalText([]byte(name)); err != nil {
			known := make([]string, len(outcomes))
			for i, o := range outcomes {
				known[i] = o.String()
			}
			return nil, fmt.Errorf("-decisions-omit: unknown outcome %q (known: %s)", name, strings.Join(known, ", "))
		}
		set[o] = true
	}
	return set, nil
}
