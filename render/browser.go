package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"log/slog"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
)

// ErrNoBrowser means that no Chromium executable was found.
var ErrNoBrowser = errors.New("render: no chromium executable found (install Debian's chromium package or set Options.ExecPath)")

// FindChromium returns the path of a Chromium or Chrome executable: the
// first of chromium, chromium-browser, google-chrome and
// google-chrome-stable on PATH, then /usr/bin/chromium; or ErrNoBrowser.
func FindChromium() (string, error) {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	if st, err := os.Stat("/usr/bin/chromium"); err == nil && !st.IsDir() {
		return "/usr/bin/chromium", nil
	}
	return "", ErrNoBrowser
}

// deadProxy is where the browser sends any request that escapes the Fetch
// domain's interception (WebSocket handshakes, for one): a loopback port
// nothing listens on, so such requests fail without reaching anything.
const deadProxy = "http://127.0.0.1:1"

// browserProc is one Chromium process and its chromedp root context.
// The contexts live as long as the browser, not as long as one call: this
// is the one place trawl keeps a context in a struct, because chromedp ties
// a browser's life to a context.
type browserProc struct {
	ctx     context.Context // the browser's root chromedp context
	cancel  context.CancelFunc
	aCancel context.CancelFunc // the allocator's: waits for the process
	pid     int
	dir     string // the temporary user-data-dir, removed by close
}

// startBrowser starts a headless Chromium in a new process group, with the
// kernel told to kill it when the thread that started it (and so the
// crawler process) dies, and a fresh user-data-dir.
func startBrowser(execPath string, startTimeout time.Duration, logger *slog.Logger) (*browserProc, error) {
	dir, err := os.MkdirTemp("", "trawl-render-")
	if err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(execPath),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(dir),
		chromedp.Flag("headless", "new"),
		chromedp.Flag("no-sandbox", true), // as root, and in containers without user namespaces
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-breakpad", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-features", "Translate,MediaRouter,OptimizationHints,InterestFeedContentSuggestions"),
		chromedp.Flag("metrics-recording-only", true),
		chromedp.Flag("mute-audio", true),
		chromedp.Flag("disable-site-isolation-trials", true),
		chromedp.Flag("renderer-process-limit", "4"),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.Flag("disable-hang-monitor", true),
		chromedp.Flag("disable-ipc-flooding-protection", true),
		chromedp.Flag("password-store", "basic"),
		chromedp.Flag("proxy-server", deadProxy),
		chromedp.Flag("proxy-bypass-list", "<-loopback>"),
		chromedp.Flag("force-webrtc-ip-handling-policy", "disable_non_proxied_udp"),
		chromedp.ModifyCmdFunc(func(cmd *exec.Cmd) {
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
		}),
	}
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, bcancel := chromedp.NewContext(actx, quiet(logger)...)
	b := &browserProc{ctx: bctx, cancel: bcancel, aCancel: acancel, dir: dir}
	// The first Run starts the browser; it must not carry a timeout (that
	// would end the browser), so the start is bounded from outside.
	started := make(chan error, 1)
	go func() { started <- chromedp.Do(bctx) }()
	select {
	case err = <-started:
	case <-time.After(startTimeout):
		err = fmt.Errorf("render: chromium did not start within %v", startTimeout)
	}
	if c := chromedp.FromContext(bctx); c != nil && c.Browser != nil && c.Browser.Process() != nil {
		b.pid = c.Browser.Process().Pid
	}
	if err != nil {
		b.close()
		return nil, fmt.Errorf("render: starting %s: %w", execPath, err)
	}
	return b, nil
}

// alive reports whether the browser answers a trivial command within d.
func (b *browserProc) alive(d time.Duration) bool {
	if b.ctx.Err() != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(b.ctx, d)
	defer cancel()
	_, err := chromedp.CallBrowser(ctx, browser.GetVersion, struct{}{})
	return err == nil
}

// close ends the browser and everything it started: the process group is
// killed, chromedp's allocator waits for the process, any process still
// naming the user-data-dir is killed, and the directory is removed.
func (b *browserProc) close() {
	if b.pid > 0 {
		_ = syscall.Kill(-b.pid, syscall.SIGKILL)
	}
	b.cancel()
	b.aCancel()
	killUsing(b.dir)
	for range 5 {
		if os.RemoveAll(b.dir) == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// killUsing kills every process whose command line names dir as its
// user-data-dir (a child that left the process group), looking until a
// pass finds none, for at most a second.
func killUsing(dir string) {
	deadline := time.Now().Add(time.Second)
	for time.Now().Before(deadline) {
		pids := UsingDir(dir)
		if len(pids) == 0 {
			return
		}
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// UsingDir returns the processes (read from /proc) whose command line has
// the argument --user-data-dir=dir: the processes of a browser started
// with that directory. It returns nil where /proc is missing.
func UsingDir(dir string) []int {
	want := []byte("--user-data-dir=" + dir + "\x00")
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmd, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !bytes.Contains(cmd, want) {
			continue
		}
		if st, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil && zombie(st) {
			continue // dead, waiting for its parent to reap it
		}
		pids = append(pids, pid)
	}
	return pids
}

// zombie reports whether a /proc/<pid>/stat line is a zombie's.
func zombie(stat []byte) bool {
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] == 'Z'
}

// quiet sends chromedp's log and error lines to logger at debug level
// (chromedp writes them to the standard logger otherwise).
func quiet(logger *slog.Logger) []chromedp.ContextOption {
	to := func(format string, args ...any) { logger.Debug(fmt.Sprintf(format, args...)) }
	return []chromedp.ContextOption{chromedp.WithLogf(to), chromedp.WithErrorf(to)}
}
