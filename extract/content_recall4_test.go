package extract

import (
	"strings"
	"testing"
)

// TestMainTextRecall4 checks article text that the rules of
// content_recall4.go keep, one case (or more) per rule, with what they
// must still leave out.
func TestMainTextRecall4(t *testing.T) {
	ps := boilerplateArticle(6)
	// A post that closes on the address of the petition it asks readers
	// to sign, and another that gives its source between paragraphs.
	petition := `<html><head><title>The Ministry informs</title></head><body><ul class="menu"><li><a href="/">Home</a></li><li><a href="/news">News</a></li></ul>
<div class="post"><h2>The Ministry informs</h2><p>` + ps[0] + `</p><p><a href="http://petitions.example.org/online/against-the-tariff-reform">http://petitions.example.org/online/against-the-tariff-reform</a></p>
<div class="post-nav"><a href="/1">← The first monthly meeting is set!</a></div></div></body></html>`
	source := `<html><head><title>A simple generator</title></head><body><div class="post"><h2>A simple generator</h2><p>` + ps[1] + `</p>
<p><a href="http://www.example.com/post/347447/a-simple-generator">www.example.com/post/347447/a-simple-generator</a></p><p>` + ps[2] + `</p><p>` + ps[3] + `</p></div>
<div class="side"><p>` + ps[4] + `</p><p><a href="http://www.example.net/">http://www.example.net/</a></p></div></body></html>`
	// A page that spells its accents as combining marks, and writes of
	// the Kelvin sign, which is a character of its own.
	decomposed := `<html><head><title>Child seats</title></head><body><div class="post"><h2>Child seats</h2><p>` + ps[5] + `</p>` +
		"<p>Besonders bei Babyschalen sollte gepru\u0308ft werden, ob die Gurtla\u0308nge ausreicht. The pattern [a-z] also matches \u212a (U+212A, Kelvin sign) in Unicode mode.</p></div></body></html>"
	tests := []struct {
		name          string
		html          string
		want, wantNot []string
	}{
		{
			name:    "web address closing a post",
			html:    petition,
			want:    []string{ps[0] + "\n\nhttp://petitions.example.org/online/against-the-tariff-reform"},
			wantNot: []string{"Home", "monthly meeting"},
		},
		{
			name:    "web address between paragraphs",
			html:    source,
			want:    []string{ps[1] + "\n\nwww.example.com/post/347447/a-simple-generator\n\n" + ps[2]},
			wantNot: []string{ps[4], "example.net"},
		},
		{
			name:    "combining marks composed, a singleton kept",
			html:    decomposed,
			want:    []string{"Besonders bei Babyschalen sollte gepr\u00fcft werden, ob die Gurtl\u00e4nge ausreicht.", "matches \u212a (U+212A"},
			wantNot: []string{"u\u0308", "a\u0308", "matches K"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := MainText(strings.NewReader(tt.html))
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tt.want {
				if !strings.Contains(got, s) {
					t.Errorf("MainText = %q, want it to contain %q", got, s)
				}
			}
			for _, s := range tt.wantNot {
				if strings.Contains(got, s) {
					t.Errorf("MainText = %q, should not contain %q", got, s)
				}
			}
		})
	}
}
