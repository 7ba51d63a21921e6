package trawlcli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/trawl-dev/trawl"
	"github.com/trawl-dev/trawl/recrawl"
)

// recrawlFeature is -recrawl (a continuous crawl: trawl.WithRecrawl) with
// its policy flags, and -duration (a time limit on any crawl; 0 = until
// interrupted, which is how a continuous crawl ends).
func recrawlFeature() Feature {
	var (
		on       bool
		duration time.Duration
		policy   string
		minIv    autoDuration
		maxIv    time.Duration
		head     bool
	)
	return Feature{
		Flags: func(fs *flag.FlagSet) {
			fs.BoolVar(&on, "recrawl", false, "crawl continuously: keep every page fetched in a revisit schedule and revisit it (conditional GET) as its estimated change rate and the host's politeness budget say; the crawl then runs until -duration or an interrupt")
			fs.DurationVar(&duration, "duration", 0, "stop the crawl after `D` (0 = no time limit: until the crawl is done, or with -recrawl until interrupted)")
			fs.StringVar(&policy, "recrawl-policy", "freshness", "with -recrawl, what the revisit schedule optimises: freshness, age, uniform or proportional")
			fs.Var(&minIv, "recrawl-min", "with -recrawl, the shortest time between two visits of a page: `D` or auto, one slot of the host's politeness budget, so that revisits can spend all of it (a set floor may leave budget idle; the summary shows it)")
			fs.BoolVar(&head, "recrawl-head", false, "with -recrawl, start each revisit of a page with validators with a conditional HEAD: unchanged saves the GET, otherwise the GET follows after the host's delay (pays off when servers' validators are trusted; a changed page costs two requests)")
			fs.DurationVar(&maxIv, "recrawl-max", 7*24*time.Hour, "with -recrawl, the longest time between two visits of a page (no page waits longer)")
		},
		Setup: func(s *Session) ([]trawl.Option, error) {
			if duration < 0 {
				return nil, fmt.Errorf("-duration %v: must not be negative", duration)
			}
			obj, err := recrawl.ParseObjective(policy)
			if err != nil {
				return nil, fmt.Errorf("-recrawl-policy: %w", err)
			}
			if (minIv.set && minIv.d <= 0) || maxIv <= 0 || maxIv < minIv.d {
				return nil, errors.New("-recrawl-min must be auto or positive and -recrawl-max at least -recrawl-min")
			}
			if !on {
				return nil, nil
			}
			return []trawl.Option{trawl.WithRecrawl(recrawl.Policy{Objective: obj, MinInterval: minIv.d, MaxInterval: maxIv, HeadProbe: head})}, nil
		},
		Context: func(ctx context.Context) (context.Context, context.CancelFunc) {
			if duration > 0 {
				return context.WithTimeout(ctx, duration)
			}
			return context.WithCancel(ctx)
		},
		Summary: func(w io.Writer, st trawl.Stats) {
			if !on {
				return
			}
			fmt.Fprintf(w, "recrawl: %d revisits (%d answered 304 Not Modified), %d changes seen, %d pages scheduled, estimated freshness %.0f%%\n",
				st.Recrawl.Revisits, st.Fetch.NotModified(), st.Recrawl.Changes, st.Recrawl.Scheduled, 100*st.Recrawl.Freshness)
			fmt.Fprintf(w, "recrawl: revisit budget %.2f fetches/s on %d hosts, planned %.2f, used %.2f\n",
				st.Recrawl.Budget, len(st.Recrawl.Hosts), st.Recrawl.Planned, st.Recrawl.Used)
			if head {
				fmt.Fprintf(w, "recrawl: %d HEAD probes, %d of them saved a GET\n", st.Recrawl.HeadProbes, st.Recrawl.HeadSaved)
			}
		},
	}
}

// autoDuration is a duration flag whose default, "auto", leaves the choice
// to the library (the zero Duration).
type autoDuration struct {
	d   time.Duration
	set bool
}

func (a *autoDuration) String() string {
	if a == nil || !a.set {
		return "auto"
	}
	return a.d.String()
}

func (a *autoDuration) Set(s string) error {
	if s == "auto" {
		*a = autoDuration{}
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	*a = autoDuration{d: d, set: true}
	return nil
}
