package crawltest

import (
	"html"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// The credentials of the login area (Options.Login).
const (
	LoginUser     = "crawler"
	LoginPassword = "open sesame"
)

// LoginAgent is a robots.txt user agent that the login area's robots.txt
// forbids /account/session only, where the login form posts: a crawler
// named so may fetch the login page but must not send the form.
const LoginAgent = "nologinbot"

// The login area's paths, all under /account/.
const (
	accountPrefix   = "/account/"
	loginPath       = "/account/login"
	loginOtherPath  = "/account/login-elsewhere"
	sessionPath     = "/account/session"
	accountPages    = 5
	loginOtherHost  = "login.elsewhere.test"
	maxLoginBody    = 64 << 10
	saltLoginTokens = 0x6c6f67696e // "login"
)

// LoginURL returns the URL of host i's login page (Options.Login).
func (w *Web) LoginURL(i int) string { return "http://" + w.hosts[i].authority + loginPath }

// AccountURLs returns the URLs of host i's pages behind the login
// (Options.Login): the index /account/ first, then the pages it links to.
// Without the session cookie each redirects to the login page.
func (w *Web) AccountURLs(i int) []string {
	out := []string{"http://" + w.hosts[i].authority + accountPrefix}
	for n := 1; n <= accountPages; n++ {
		out = append(out, "http://"+w.hosts[i].authority+accountPage(n))
	}
	return out
}

func accountPage(n int) string { return accountPrefix + "page-" + strconv.Itoa(n) + ".html" }

// logins is the login area's state: the sessions it opened and the CSRF
// tokens it handed out. It is safe for concurrent use.
type logins struct {
	mu       sync.Mutex
	n        int             // tokens made, for unique ones
	sessions map[string]bool // session cookie values
}

// token returns a new token, unique within the web and deterministic.
func (w *Web) token(h int, kind string) string {
	w.login.mu.Lock()
	w.login.n++
	n := w.login.n
	w.login.mu.Unlock()
	return kind + "-" + strconv.FormatUint(w.hash(saltLoginTokens, h, n, 0), 36)
}

// account serves the login area of host h, POSTs to the form's action
// included; it answers 405 to any other method or path that is not GET or
// HEAD.
func (w *Web) account(rw http.ResponseWriter, r *http.Request, h int, path string) {
	if r.Method == http.MethodPost && path == sessionPath {
		w.loginPost(rw, r, h)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		rw.Header().Set("Allow", "GET, HEAD")
		http.Error(rw, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	switch path {
	case loginPath:
		w.loginPage(rw, r, h, "", r.URL.Query().Get("next"))
		return
	case loginOtherPath:
		w.loginPage(rw, r, h, "http://"+loginOtherHost+sessionPath, "")
		return
	}
	n := 0
	if path != accountPrefix {
		for i := 1; i <= accountPages; i++ {
			if path == accountPage(i) {
				n = i
			}
		}
		if n == 0 {
			http.NotFound(rw, r)
			return
		}
	}
	if ck, err := r.Cookie("session"); err != nil || !w.validSession(ck.Value) {
		http.Redirect(rw, r, loginPath+"?next="+path, http.StatusFound)
		return
	}
	var b strings.Builder
	title := "Your account"
	if n > 0 {
		title += ", page " + strconv.Itoa(n)
	}
	b.WriteString("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + title + "</title></head><body>\n")
	b.WriteString("<h1 class=\"account\">" + title + "</h1>\n<ul>\n")
	b.WriteString("<li><a href=\"/account/\">Account</a></li>\n")
	for i := 1; i <= accountPages; i++ {
		b.WriteString("<li><a href=\"page-" + strconv.Itoa(i) + ".html\">Page " + strconv.Itoa(i) + "</a></li>\n")
	}
	b.WriteString("</ul>\n<form method=\"post\" action=\"/account/delete\"><input type=\"hidden\" name=\"confirm\" value=\"yes\">" +
		"<button>Delete my account</button></form>\n<p><a href=\"/\">Home</a></p>\n</body></html>\n")
	w.write(rw, r, "text/html; charset=utf-8", []byte(b.String()))
}

// loginPage serves the login form, with a new CSRF token in a hidden
// field and in a cookie; action "" posts to /account/session.
func (w *Web) loginPage(rw http.ResponseWriter, r *http.Request, h int, action, next string) {
	if action == "" {
		action = sessionPath
	}
	if next == "" || !strings.HasPrefix(next, accountPrefix) {
		next = accountPrefix
	}
	token := w.token(h, "csrf")
	http.SetCookie(rw, &http.Cookie{Name: "csrf", Value: token, Path: accountPrefix, HttpOnly: true})
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Log in</title></head><body>\n")
	b.WriteString("<form action=\"/search\" method=\"get\"><input name=\"q\"><button>Search</button></form>\n<h1>Log in</h1>\n")
	if r.Method == http.MethodPost {
		b.WriteString("<p class=\"error\">Wrong user name or password.</p>\n")
	}
	b.WriteString("<form action=\"" + html.EscapeString(action) + "\" method=\"post\" class=\"login\">\n" +
		"<input type=\"hidden\" name=\"csrf_token\" value=\"" + token + "\">\n" +
		"<input type=\"hidden\" name=\"next\" value=\"" + html.EscapeString(next) + "\">\n" +
		"<label>User <input type=\"text\" name=\"username\"></label>\n" +
		"<label>Password <input type=\"password\" name=\"password\"></label>\n" +
		"<label><input type=\"checkbox\" name=\"remember\" value=\"yes\"> Remember me</label>\n" +
		"<input type=\"submit\" name=\"action\" value=\"Log in\">\n</form>\n</body></html>\n")
	w.write(rw, r, "text/html; charset=utf-8", []byte(b.String()))
}

// loginPost checks a login: the CSRF token of the form must be the one of
// the csrf cookie, and the credentials LoginUser and LoginPassword. A good
// login sets the session cookie and redirects (303) to the form's next
// page; wrong credentials give the login page again (200), with an error;
// a missing or wrong token gives 403.
func (w *Web) loginPost(rw http.ResponseWriter, r *http.Request, h int) {
	r.Body = http.MaxBytesReader(rw, r.Body, maxLoginBody)
	if err := r.ParseForm(); err != nil {
		http.Error(rw, "bad form", http.StatusBadRequest)
		return
	}
	ck, err := r.Cookie("csrf")
	if err != nil || ck.Value == "" || r.PostForm.Get("csrf_token") != ck.Value {
		http.Error(rw, "CSRF token missing or wrong", http.StatusForbidden)
		return
	}
	if r.PostForm.Get("username") != LoginUser || r.PostForm.Get("password") != LoginPassword {
		w.loginPage(rw, r, h, "", r.PostForm.Get("next"))
		return
	}
	session := w.token(h, "session")
	w.login.mu.Lock()
	if w.login.sessions == nil {
		w.login.sessions = make(map[string]bool)
	}
	w.login.sessions[session] = true
	w.login.mu.Unlock()
	http.SetCookie(rw, &http.Cookie{Name: "session", Value: session, Path: accountPrefix, HttpOnly: true})
	next := r.PostForm.Get("next")
	if !strings.HasPrefix(next, accountPrefix) {
		next = accountPrefix
	}
	http.Redirect(rw, r, next, http.StatusSeeOther)
}

func (w *Web) validSession(v string) bool {
	w.login.mu.Lock()
	defer w.login.mu.Unlock()
	return w.login.sessions[v]
}
