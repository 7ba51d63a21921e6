package trawlcli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/trawl-dev/trawl"
)

// defaultMemProfileRate is the runtime's default runtime.MemProfileRate.
const defaultMemProfileRate = 512 * 1024

// profileFeature is -cpuprofile FILE and -memprofile FILE: pprof profiles
// of the command itself, for `go tool pprof BINARY FILE`. The CPU profile
// runs from the end of flag parsing to the summary; the heap profile
// (allocation and in-use samples, as runtime/pprof writes them) is written
// at the summary.
func profileFeature() Feature {
	var cpuPath, memPath string
	var cpu *os.File
	return Feature{
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&cpuPath, "cpuprofile", "", "write a CPU profile of the crawl to `FILE` (go tool pprof)")
			fs.StringVar(&memPath, "memprofile", "", "write a heap profile (allocations and what is in use) to `FILE` when the crawl ends (go tool pprof)")
		},
		Setup: func(s *Session) ([]trawl.Option, error) {
			if memPath == "" && s.cmd.process && runtime.MemProfileRate == defaultMemProfileRate {
				// No heap profile asked for, and no one else chose a rate:
				// do not sample allocations (see Command.Main).
				runtime.MemProfileRate = 0
			}
			if cpuPath == "" {
				return nil, nil
			}
			f, err := os.Create(cpuPath)
			if err != nil {
				return nil, Exit(1, fmt.Errorf("-cpuprofile: %w", err))
			}
			if err := pprof.StartCPUProfile(f); err != nil {
				f.Close()
				return nil, Exit(1, fmt.Errorf("-cpuprofile: %w", err))
			}
			cpu = f
			return nil, nil
		},
		Summary: func(w io.Writer, _ trawl.Stats) {
			if cpu != nil {
				pprof.StopCPUProfile()
				if err := cpu.Close(); err != nil {
					fmt.Fprintf(w, "-cpuprofile: %v\n", err)
				}
				cpu = nil
			}
			if memPath == "" {
				return
			}
			f, err := os.Create(memPath)
			if err == nil {
				runtime.GC() // the in-use figures as of the last collection
				err = pprof.Lookup("allocs").WriteTo(f, 0)
				if cerr := f.Close(); err == nil {
					err = cerr
				}
			}
			if err != nil {
				fmt.Fprintf(w, "-memprofile: %v\n", err)
			}
		},
	}
}
