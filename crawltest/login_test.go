package crawltest

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// TestLoginArea: the account pages redirect to the login page without the
// session; the form's token and the credentials open it; a wrong password
// gives the form again, a wrong token 403, a POST elsewhere 405; robots.txt
// forbids the form's action to LoginAgent only.
func TestLoginArea(t *testing.T) {
	web := NewTestWeb(t, &Options{Hosts: 1, PagesPerHost: 10, Login: true})
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Transport: web.Client().Transport, Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(u string) (*http.Response, string) {
		t.Helper()
		resp, err := client.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(b)
	}
	post := func(u string, form url.Values) (*http.Response, string) {
		t.Helper()
		resp, err := client.PostForm(u, form)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(b)
	}
	account := web.AccountURLs(0)
	if resp, _ := get(account[1]); resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != "/account/login?next=/account/page-1.html" {
		t.Fatalf("account page without a session: %d to %q, want 302 to the login page", resp.StatusCode, resp.Header.Get("Location"))
	}
	token := func() string {
		_, body := get(web.LoginURL(0))
		m := regexp.MustCompile(`name="csrf_token" value="([^"]+)"`).FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("no token in the login page: %s", body)
		}
		return m[1]
	}
	action := "http://h0.test/account/session"
	if resp, body := post(action, url.Values{"csrf_token": {token()}, "username": {LoginUser}, "password": {"wrong"}}); resp.StatusCode != 200 || !strings.Contains(body, `type="password"`) || !strings.Contains(body, "Wrong") {
		t.Errorf("wrong password: %d, want 200 with the form and an error", resp.StatusCode)
	}
	if resp, _ := post(action, url.Values{"csrf_token": {"forged"}, "username": {LoginUser}, "password": {LoginPassword}}); resp.StatusCode != http.StatusForbidden {
		t.Errorf("wrong token: %d, want 403", resp.StatusCode)
	}
	if resp, _ := post(account[0], url.Values{"x": {"y"}}); resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST to /account/: %d, want 405", resp.StatusCode)
	}
	if resp, _ := get(account[0]); resp.StatusCode != http.StatusFound {
		t.Errorf("after failed logins, /account/ answers %d, want 302", resp.StatusCode)
	}
	resp, _ := post(action, url.Values{"csrf_token": {token()}, "username": {LoginUser}, "password": {LoginPassword}, "next": {"/account/page-2.html"}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/account/page-2.html" {
		t.Fatalf("login: %d to %q, want 303 to the next page", resp.StatusCode, resp.Header.Get("Location"))
	}
	for _, u := range account {
		if resp, body := get(u); resp.StatusCode != 200 || !strings.Contains(body, `class="account"`) {
			t.Errorf("%s after the login: %d, want the page", u, resp.StatusCode)
		}
	}
	_, robots := get("http://h0.test/robots.txt")
	if !strings.Contains(robots, "User-agent: "+LoginAgent+"\nDisallow: /account/session\n") {
		t.Errorf("robots.txt lacks the %s group:\n%s", LoginAgent, robots)
	}
	var posts int
	for _, r := range web.Log().RobotsViolations(LoginAgent) {
		if !strings.HasSuffix(r.URL, "/account/session") {
			t.Errorf("RobotsViolations(%s) has %s, want the form's action only", LoginAgent, r.URL)
		}
		posts++
	}
	if posts != 3 { // the wrong password, the wrong token, the login
		t.Errorf("RobotsViolations(%s) has %d requests, want the 3 POSTs to the form's action", LoginAgent, posts)
	}
}
