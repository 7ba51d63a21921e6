package trawlcli

import (
	"net/http"
	"strings"
	"testing"

	"github.com/trawl-dev/trawl/crawltest"
)

// TestLoginFlags: -login with -login-field and -login-field-env logs in
// before the crawl, which then reaches the pages behind the login; a wrong
// password fails the command (status 1) with the login's error; the other
// -login flags need -login, and an unset variable is the user's error.
func TestLoginFlags(t *testing.T) {
	web := crawltest.NewTestWeb(t, &crawltest.Options{Seed: 2, Hosts: 1, PagesPerHost: 8, Login: true, LoopbackIPs: true})
	account := web.AccountURLs(0)
	common := []string{"-allow-network", "127.0.0.0/8", "-delay", "0", "-progress=false", "-max-pages", "20"}

	t.Setenv("TRAWL_TEST_PW", crawltest.LoginPassword)
	args := append(append([]string{}, common...), "-login", web.LoginURL(0), "-login-field", "username="+crawltest.LoginUser,
		"-login-field-env", "password=TRAWL_TEST_PW", account[0])
	if code, out, errOut := run(t, args...); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	got := make(map[string]int)
	var posts int
	for _, r := range web.Log().Requests() {
		if r.Method == http.MethodPost {
			posts++
		}
		if r.Status == http.StatusOK {
			got[r.URL]++
		}
	}
	for _, u := range account {
		if got[u] == 0 {
			t.Errorf("%s not fetched with 200 after the login", u)
		}
	}
	if posts != 1 {
		t.Errorf("%d POSTs, want the login's", posts)
	}

	t.Setenv("TRAWL_TEST_PW", "wrong")
	if code, _, errOut := run(t, args...); code != 1 || !strings.Contains(errOut, "login failed") {
		t.Errorf("wrong password: exit %d, stderr %q; want 1 and the login's error", code, errOut)
	}

	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-login-field", "a=b", account[0]}, "need -login URL"},
		{[]string{"-login", web.LoginURL(0), "-login-field", "nonsense", account[0]}, "give NAME=VALUE"},
		{[]string{"-login", web.LoginURL(0), "-login-field-env", "password=TRAWL_TEST_UNSET_VARIABLE", account[0]}, "is not set"},
		{[]string{"-login", web.LoginURL(0), account[0]}, "-login needs the fields"},
	} {
		if code, _, errOut := run(t, append(append([]string{}, common...), tt.args...)...); code != 2 || !strings.Contains(errOut, tt.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
}
