package shareddata

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// fakeTB records how Dir ended a test: Skip and Fatal stop the calling
// goroutine, as testing's do.
type fakeTB struct {
	testing.TB
	skipped, failed bool
	msg             string
}

func (f *fakeTB) Helper() {}

func (f *fakeTB) Skip(args ...any) {
	f.skipped, f.msg = true, strings.TrimSpace(sprint(args))
	runtime.Goexit()
}

func (f *fakeTB) Fatal(args ...any) {
	f.failed, f.msg = true, strings.TrimSpace(sprint(args))
	runtime.Goexit()
}

func sprint(args []any) string {
	var b strings.Builder
	for _, a := range args {
		b.WriteString(a.(string))
	}
	return b.String()
}

// dir runs Dir(name) on a fakeTB in a goroutine of its own.
func dir(t *testing.T, name string) (string, *fakeTB) {
	f := &fakeTB{TB: t}
	var got string
	done := make(chan struct{})
	go func() {
		defer close(done)
		got = Dir(f, name)
	}()
	<-done
	return got, f
}

func TestDir(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "present"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(Env, root)
	tests := []struct {
		name, ci    string
		want        string
		skip, fail  bool
		msgContains string
	}{
		{name: "present", want: filepath.Join(root, "present")},
		{name: "present", ci: "true", want: filepath.Join(root, "present")},
		{name: "absent", skip: true, msgContains: `shared data set "absent" absent`},
		{name: "absent", ci: "true", fail: true, msgContains: "CI is set"},
		{name: "file", skip: true, msgContains: "not a directory"},
		{name: "file", ci: "1", fail: true, msgContains: "not a directory"},
	}
	for _, tt := range tests {
		t.Setenv("CI", tt.ci)
		got, f := dir(t, tt.name)
		if got != tt.want || f.skipped != tt.skip || f.failed != tt.fail || !strings.Contains(f.msg, tt.msgContains) {
			t.Errorf("CI=%q: Dir(%q) = %q, skipped %v, failed %v, message %q; want %q, %v, %v, containing %q",
				tt.ci, tt.name, got, f.skipped, f.failed, f.msg, tt.want, tt.skip, tt.fail, tt.msgContains)
		}
	}
}

// Without TRAWL_SHARED_DATA, Dir looks in shared/data beside the directory
// of the module's go.mod, found upwards from the package directory.
func TestDirBesideCheckout(t *testing.T) {
	t.Setenv(Env, "")
	t.Setenv("CI", "")
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	repo, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Dir(filepath.Dir(wd)); repo != want {
		t.Errorf("repoRoot() = %q, want %q", repo, want)
	}
	got, f := dir(t, "no-such-data-set")
	want := filepath.Join(filepath.Dir(repo), "shared", "data", "no-such-data-set")
	if got != "" || !f.skipped || !strings.Contains(f.msg, want) {
		t.Errorf("Dir(no-such-data-set) = %q, skipped %v, message %q; want a skip naming %s", got, f.skipped, f.msg, want)
	}
}

func TestModulePath(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ gomod, want string }{
		{gomod: "module github.com/trawl-dev/trawl\n\ngo 1.26\n", want: module},
		{gomod: "// comment\nmodule \"github.com/trawl-dev/trawl/bench\"\n", want: module + "/bench"},
		{gomod: "modulex y\n", want: ""},
		{gomod: "go 1.26\n", want: ""},
	} {
		path := filepath.Join(dir, "go.mod")
		if err := os.WriteFile(path, []byte(tt.gomod), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := modulePath(path); got != tt.want {
			t.Errorf("modulePath(%q) = %q, want %q", tt.gomod, got, tt.want)
		}
	}
	if got := modulePath(filepath.Join(dir, "absent")); got != "" {
		t.Errorf("modulePath(absent) = %q, want \"\"", got)
	}
}
