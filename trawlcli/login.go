package trawlcli

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/trawl-dev/trawl"
)

// loginFeature is -login URL: log in by filling the login form at URL
// before the crawl (trawl.WithLogin). -login-field name=value fills a
// field; -login-field-env name=VAR fills it from the environment variable
// VAR, so that a password need not be on the command line (where ps and
// the shell's history show it).
func loginFeature() Feature {
	var (
		loginURL, form, success, failure, allowHosts string
		fields, envFields                            []string
	)
	return Feature{
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&loginURL, "login", "", "log in before the crawl: fetch the login page at `URL`, fill its form (the first with a password field) with the -login-field values, keep its hidden fields (CSRF tokens), send it (POST only, to the page's host only, if robots.txt allows) and crawl with the session cookie; the crawl fails if the login does")
			fs.Func("login-field", "with -login, fill the form's field `NAME=VALUE` (repeat the flag for each field)", func(v string) error {
				fields = append(fields, v)
				return nil
			})
			fs.Func("login-field-env", "with -login, fill the form's field NAME with the value of the environment variable VAR: `NAME=VAR` (for passwords: kept off the command line)", func(v string) error {
				envFields = append(envFields, v)
				return nil
			})
			fs.StringVar(&form, "login-form", "", "with -login, the CSS `SELECTOR` of the login form (default: the first form with a password field)")
			fs.StringVar(&success, "login-success", "", "with -login, a CSS `SELECTOR` that must match the page the login leads to (default: that page must not show the login form again)")
			fs.StringVar(&failure, "login-failure", "", "with -login, a CSS `SELECTOR` that must not match the page the login leads to (an error message)")
			fs.StringVar(&allowHosts, "login-allow-host", "", "with -login, other host `NAMES`, comma-separated, the form may be sent to (default: the login page's host only)")
		},
		Setup: func(s *Session) ([]trawl.Option, error) {
			if loginURL == "" {
				if len(fields) > 0 || len(envFields) > 0 || form != "" || success != "" || failure != "" || allowHosts != "" {
					return nil, errors.New("-login-field, -login-field-env, -login-form, -login-success, -login-failure and -login-allow-host need -login URL")
				}
				return nil, nil
			}
			l := trawl.Login{URL: loginURL, Form: form, Success: success, Failure: failure, Values: make(map[string]string)}
			for _, f := range fields {
				name, value, ok := strings.Cut(f, "=")
				if !ok || name == "" {
					return nil, fmt.Errorf("-login-field %q: give NAME=VALUE", f)
				}
				l.Values[name] = value
			}
			for _, f := range envFields {
				name, env, ok := strings.Cut(f, "=")
				if !ok || name == "" || env == "" {
					return nil, fmt.Errorf("-login-field-env %q: give NAME=VAR, VAR an environment variable", f)
				}
				value, set := os.LookupEnv(env)
				if !set {
					return nil, fmt.Errorf("-login-field-env %s: the environment variable %s is not set", f, env)
				}
				l.Values[name] = value
			}
			if len(l.Values) == 0 {
				return nil, errors.New("-login needs the fields to fill: -login-field NAME=VALUE or -login-field-env NAME=VAR")
			}
			for _, h := range strings.Split(allowHosts, ",") {
				if h = strings.TrimSpace(h); h != "" {
					l.AllowHosts = append(l.AllowHosts, h)
				}
			}
			return []trawl.Option{trawl.WithLogin(l)}, nil
		},
	}
}
