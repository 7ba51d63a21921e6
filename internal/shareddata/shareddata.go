// Package shareddata finds, for a test, a data set kept outside the module:
// the WHATWG URL and robots.txt conformance vectors and the
// content-evaluation pages live in shared/data beside the checkout
// (../shared/data from the repository root), because of their size and
// licences, and are read in place, never copied into the module.
//
// A test calls Dir with the data set's name:
//
//	dir := shareddata.Dir(t, "conformance")
//	data, err := os.ReadFile(filepath.Join(dir, "url_cases.json"))
//
// When the data set is absent, Dir skips the test with a message saying
// where it looked, unless the environment variable CI is set (as .ci/run
// sets it), when it fails the test: CI has the data and must never skip a
// test for want of it. This is the convention of the tests that need
// warcio.js, headless Chromium or redis-server.
//
// The environment variable TRAWL_SHARED_DATA, when set, names the
// directory that holds the data sets instead of ../shared/data.
//
// A file missing inside a data set that is present is not the data set's
// absence: the test then fails on opening it, CI or not.
package shareddata

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Env names the environment variable that overrides where the data sets
// are looked for.
const Env = "TRAWL_SHARED_DATA"

// module is the module path of the repository whose parent holds
// shared/data.
const module = "github.com/trawl-dev/trawl"

// Dir returns the directory of the shared data set name (such as
// "conformance", "content-eval" or "content-eval-snippets"). When it does
// not exist, Dir skips tb, or fails it if CI is set. It is safe to call
// from parallel tests.
func Dir(tb testing.TB, name string) string {
	tb.Helper()
	dir, err := find(name)
	if err == nil {
		return dir
	}
	msg := fmt.Sprintf("shared data set %q absent: %v (the data sets live in shared/data beside the checkout, or in $%s)", name, err, Env)
	if os.Getenv("CI") != "" {
		tb.Fatal(msg + "; CI is set, so this fails rather than skips")
	}
	tb.Skip(msg)
	return ""
}

// find returns the directory of data set name, or an error saying where
// it looked.
func find(name string) (string, error) {
	root := os.Getenv(Env)
	if root == "" {
		repo, err := repoRoot()
		if err != nil {
			return "", err
		}
		root = filepath.Join(filepath.Dir(repo), "shared", "data")
	}
	dir := filepath.Join(root, name)
	fi, err := os.Stat(dir)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s is not a directory", dir)
	}
	return dir, nil
}

// repoRoot returns the directory of the go.mod that declares module,
// searched upwards from the working directory (a test's package
// directory), past the go.mod of nested modules such as bench's.
func repoRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; {
		if modulePath(filepath.Join(dir, "go.mod")) == module {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod of " + module + " above " + wd)
		}
		dir = parent
	}
}

// modulePath returns the module path that the go.mod file at path
// declares, or "" if there is none.
func modulePath(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) == 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}
