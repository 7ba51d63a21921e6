package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDemo(t *testing.T) {
	out := filepath.Join(t.TempDir(), "a.jsonl")
	var stdout strings.Builder
	if err := run(context.Background(), []string{"-demo", "-out", out, "-max-pages", "20"}, &stdout); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var a Article
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		if !strings.HasPrefix(a.URL, "http://h0.test/") || a.Title == "" || a.Published == "" {
			t.Errorf("article %+v lacks a field", a)
		}
		n++
	}
	if n == 0 || n > 20 {
		t.Errorf("%d articles, want 1..20", n)
	}
	if !strings.Contains(stdout.String(), " articles in "+out) {
		t.Errorf("summary missing: %q", stdout.String())
	}
	// Run again: refused, then replaced with -mode overwrite.
	err = run(context.Background(), []string{"-demo", "-out", out, "-max-pages", "20"}, &strings.Builder{})
	if err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("second run = %v, want a refusal", err)
	}
	var again strings.Builder
	if err := run(context.Background(), []string{"-demo", "-out", out, "-max-pages", "20", "-mode", "overwrite"}, &again); err != nil {
		t.Fatal(err)
	}
	var emitted int
	summary := again.String()
	if _, err := fmt.Sscanf(summary[strings.LastIndex(summary[:strings.LastIndex(summary, " articles in ")], "\n")+1:], "%d articles in", &emitted); err != nil {
		t.Fatalf("no article count in %q: %v", summary, err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(data), "\n"); got != emitted || emitted == 0 {
		t.Errorf("after -mode overwrite: %d articles in the file, want the %d of the last run", got, emitted)
	}
}

func TestNoStartURL(t *testing.T) {
	err := run(context.Background(), []string{"-out", filepath.Join(t.TempDir(), "x")}, &strings.Builder{})
	if err == nil || !strings.Contains(err.Error(), "start URL") {
		t.Errorf("run without URLs = %v", err)
	}
}

func TestInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout strings.Builder
	if err := run(ctx, []string{"-demo", "-out", filepath.Join(t.TempDir(), "x")}, &stdout); err != nil {
		t.Fatalf("an interrupted crawl is a normal end, got %v", err)
	}
	if !strings.Contains(stdout.String(), "interrupted") {
		t.Errorf("output %q does not say interrupted", stdout.String())
	}
}
