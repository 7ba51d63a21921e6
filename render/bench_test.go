package render

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkRender renders a 30 KB page whose script writes 50 links and
// loads one script and one JSON file, through one tab and through four,
// and reports pages/s, the CPU time per page of the browser's processes
// and of this process, and the browser's memory (PSS) at the end.
//
//	go test -run '^$' -bench Render -benchtime 40x ./render/
func BenchmarkRender(b *testing.B) {
	var body strings.Builder
	body.WriteString(`<!DOCTYPE html><html><head><title>bench</title><script src="/app.js"></script></head><body>`)
	for i := range 300 {
		fmt.Fprintf(&body, "<p>Paragraph %d of static text, with <a href=\"/static/%d\">a link</a>.</p>\n", i, i)
	}
	body.WriteString(`<div id=out></div><script>
var h = ""; for (var i = 0; i < 50; i++) { h += '<a href="/js/' + i + '">js ' + i + '</a> '; }
document.getElementById("out").innerHTML = h;
fetch("/data.json").then(function (r) { return r.json(); }).then(function (j) { document.title = j.t; });
</script></body></html>`)
	page := body.String()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/app.js":
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprint(w, `window.app = 1;`)
		case "/data.json":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"t": "done"}`)
		default:
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, page)
		}
	}))
	defer srv.Close()
	for _, tabs := range []int{1, 4} {
		b.Run(fmt.Sprintf("tabs=%d", tabs), func(b *testing.B) {
			f := newFetcher(b, loopback(b, nil, nil), Options{Tabs: tabs, Settle: 100 * time.Millisecond})
			if _, err := get(b, f, srv.URL+"/warm"); err != nil { // starts the browser
				b.Fatal(err)
			}
			pgid := f.browserPID()
			cpu0, self0 := groupCPU(pgid), selfCPU()
			b.SetBytes(int64(len(page)))
			b.ReportAllocs()
			b.SetParallelism((tabs + 1) / 2) // GOMAXPROCS × this goroutines, about tabs on 2 cores
			start := time.Now()
			var n int
			b.RunParallel(func(pb *testing.PB) {
				i := 0
				for pb.Next() {
					i++
					if _, err := get(b, f, fmt.Sprintf("%s/p%d-%d", srv.URL, i, time.Now().UnixNano())); err != nil {
						b.Error(err)
					}
				}
			})
			n = b.N
			el := time.Since(start)
			b.ReportMetric(float64(n)/el.Seconds(), "pages/s")
			b.ReportMetric(float64((groupCPU(pgid)-cpu0).Milliseconds())/float64(n), "browser-cpu-ms/page")
			b.ReportMetric(float64((selfCPU()-self0).Milliseconds())/float64(n), "go-cpu-ms/page")
			b.ReportMetric(float64(groupPSS(pgid))/(1<<20), "browser-pss-MiB")
		})
	}
}

// groupCPU sums user+system CPU time (own and reaped children's) of the
// processes in process group pgid.
func groupCPU(pgid int) time.Duration {
	var ticks int64
	eachInGroup(pgid, func(f []string, _ string) {
		for _, i := range []int{11, 12, 13, 14} { // utime stime cutime cstime, after the ")"
			v, _ := strconv.ParseInt(f[i], 10, 64)
			ticks += v
		}
	})
	return time.Duration(ticks) * time.Second / 100 // USER_HZ
}

// groupPSS sums the proportional set sizes of the processes in group
// pgid (shared pages split among their users, so the sum is the group's
// memory, which a sum of RSS would overstate).
func groupPSS(pgid int) int64 {
	var kb int64
	eachInGroup(pgid, func(f []string, pid string) {
		sm, err := os.ReadFile("/proc/" + pid + "/smaps_rollup")
		if err != nil {
			return
		}
		for _, line := range strings.Split(string(sm), "\n") {
			if v, ok := strings.CutPrefix(line, "Pss:"); ok {
				n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
				kb += n
			}
		}
	})
	return kb << 10
}

// eachInGroup calls fn with the fields after the command name of
// /proc/<pid>/stat for every process in group pgid (f[0] is the state,
// f[2] the process group).
func eachInGroup(pgid int, fn func(f []string, pid string)) {
	paths, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range paths {
		st, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		s := string(st)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 21 && f[2] == strconv.Itoa(pgid) {
			fn(f, filepath.Base(filepath.Dir(p)))
		}
	}
}

func selfCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
