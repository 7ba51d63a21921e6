package jsonenc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// marshal is the reference: what encoding/json writes for s.
func marshal(t testing.TB, s string) []byte {
	t.Helper()
	want, err := json.Marshal(s)
	if err != nil {
		t.Fatalf("json.Marshal(%q): %v", s, err)
	}
	return want
}

// replaceInvalid replaces each byte of invalid UTF-8 in s by U+FFFD, as
// encoding/json does when it encodes (one per byte, where
// strings.ToValidUTF8 puts one per run).
func replaceInvalid(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		b.WriteRune(r) // utf8.RuneError for an invalid byte
		i += size
	}
	return b.String()
}

func TestAppendString(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{in: "", want: `""`},
		{in: "plain ascii, 0-9 ~!@#$%^*()_+={}[]|:;',.?/`", want: "\"plain ascii, 0-9 ~!@#$%^*()_+={}[]|:;',.?/`\""},
		{in: `say "hi" \ bye`, want: `"say \"hi\" \\ bye"`},
		{in: "\b\f\n\r\t", want: `"\b\f\n\r\t"`},
		{in: "\x00\x01\x1f\x7f", want: "\"\\u0000\\u0001\\u001f\x7f\""},
		{in: "<script>&amp;</script>", want: `"\u003cscript\u003e\u0026amp;\u003c/script\u003e"`},
		{in: "a\u2028b\u2029c", want: `"a\u2028b\u2029c"`},
		{in: "\u2027\u202a", want: "\"\u2027\u202a\""},
		{in: "héllo wörld 日本語 🎉", want: `"héllo wörld 日本語 🎉"`},
		{in: "\ufffd", want: "\"\ufffd\""},
		{in: "a\xffb", want: `"a\ufffdb"`},
		{in: "\xff\xfe", want: `"\ufffd\ufffd"`},
		{in: "\xe6\x97", want: `"\ufffd\ufffd"`},                     // truncated 3-byte sequence
		{in: "\xed\xa0\x80", want: `"\ufffd\ufffd\ufffd"`},           // surrogate half
		{in: "\xc0\xaf", want: `"\ufffd\ufffd"`},                     // overlong '/'
		{in: "\xf4\x90\x80\x80", want: `"\ufffd\ufffd\ufffd\ufffd"`}, // above U+10FFFF
		{in: "https://example.com/a?b=1&c=<2>#\"x\"", want: `"https://example.com/a?b=1\u0026c=\u003c2\u003e#\"x\""`},
	}
	for _, tt := range tests {
		got := AppendString([]byte("prefix:"), tt.in)
		if string(got) != "prefix:"+tt.want {
			t.Errorf("AppendString(%q) = %s, want %s", tt.in, got[len("prefix:"):], tt.want)
		}
		if want := marshal(t, tt.in); !bytes.Equal(got[len("prefix:"):], want) {
			t.Errorf("AppendString(%q) = %s, encoding/json writes %s", tt.in, got[len("prefix:"):], want)
		}
	}
}

// TestAppendStringExhaustive compares AppendString with encoding/json on
// every string of one and two bytes, and on random strings built from the
// bytes and runes that matter.
func TestAppendStringExhaustive(t *testing.T) {
	var buf []byte
	check := func(s string) {
		t.Helper()
		buf = AppendString(buf[:0], s)
		if want := marshal(t, s); !bytes.Equal(buf, want) {
			t.Fatalf("AppendString(%q) = %s, encoding/json writes %s", s, buf, want)
		}
	}
	for i := range 1 << 16 {
		check(string([]byte{byte(i >> 8), byte(i)}))
		if i < 256 {
			check(string([]byte{byte(i)}))
		}
	}
	pieces := []string{"a", "Z", " ", "\"", "\\", "<", ">", "&", "\x00", "\n", "\x1f", "\x7f", "\x80", "\xff", "\xc3", "\xe2\x80", "é", "\u2028", "\u2029", "日", "🎉", "\ufffd"}
	rng := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for range 20000 {
		b.Reset()
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		check(b.String())
	}
}

func TestSafe(t *testing.T) {
	for c := range byte(utf8.RuneSelf) {
		want := c >= ' ' && !strings.ContainsRune(`"\<>&`, rune(c))
		if got := safe[c]; got != want {
			t.Errorf("safe[%q] = %v, want %v", c, got, want)
		}
	}
}

func TestAppendStringAllocs(t *testing.T) {
	s := strings.Repeat("plain text, <tags> & \"quotes\", héllo\n\u2028\xff ", 20)
	buf := make([]byte, 0, 4096)
	if n := testing.AllocsPerRun(100, func() { buf = AppendString(buf[:0], s) }); n != 0 {
		t.Errorf("AppendString into a buffer large enough: %v allocations, want 0", n)
	}
}

// FuzzAppendString checks that the output is what encoding/json writes,
// is valid UTF-8, and decodes back to the input with each invalid byte
// replaced by U+FFFD.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "a", `"\`, "<>&", "\x00\x1f\x7f", "\u2028\u2029", "é日🎉", "\xff", "\xe2\x80", "a\xed\xa0\x80b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := AppendString(nil, s)
		if want := marshal(t, s); !bytes.Equal(got, want) {
			t.Fatalf("AppendString(%q) = %s, encoding/json writes %s", s, got, want)
		}
		if !utf8.Valid(got) {
			t.Fatalf("AppendString(%q) = %q: invalid UTF-8", s, got)
		}
		var back string
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatalf("AppendString(%q) = %s: %v", s, got, err)
		}
		if want := replaceInvalid(s); back != want {
			t.Fatalf("AppendString(%q) = %s decodes to %q, want %q", s, got, back, want)
		}
	})
}

func ExampleAppendString() {
	b := []byte(`{"url":`)
	b = AppendString(b, "https://example.com/?q=a&b=<c>")
	b = append(b, `,"text":`...)
	b = AppendString(b, "line\nbreak, \"quoted\", bad byte \xff")
	b = append(b, '}')
	fmt.Println(string(b))
	// Output:
	// {"url":"https://example.com/?q=a\u0026b=\u003cc\u003e","text":"line\nbreak, \"quoted\", bad byte \ufffd"}
}

func BenchmarkAppendString(b *testing.B) {
	inputs := []struct{ name, s string }{
		{name: "url", s: "https://www.example.com/news/2024/05/some-article-title-here.html?utm_source=feed"},
		{name: "ascii-escapes", s: strings.Repeat(`query a=1&b=<2> "x"\n`, 4)},
		{name: "utf8", s: strings.Repeat("Ünïcödé tëxt, 日本語のテキスト ", 4)},
		{name: "long-ascii", s: strings.Repeat("plain words of text ", 200)},
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(in.s)))
			buf := make([]byte, 0, 2*len(in.s)+16)
			for b.Loop() {
				buf = AppendString(buf[:0], in.s)
			}
		})
		b.Run(in.name+"/encoding-json", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(in.s)))
			for b.Loop() {
				json.Marshal(in.s)
			}
		})
	}
}
