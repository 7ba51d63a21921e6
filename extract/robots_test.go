package extract

import (
	"net/http"
	"testing"
)

func TestParseRobots(t *testing.T) {
	tests := []struct {
		content string
		bot     string
		want    Robots
	}{
		{content: "", want: Robots{}},
		{content: "index, follow", want: Robots{}},
		{content: "all", want: Robots{}},
		{content: "noindex", want: Robots{NoIndex: true}},
		{content: "NOINDEX,NOFOLLOW", want: Robots{NoIndex: true, NoFollow: true}},
		{content: " none ", want: Robots{NoIndex: true, NoFollow: true}},
		{content: "index, noindex", want: Robots{NoIndex: true}},
		{content: "noarchive, nosnippet, nocache", want: Robots{NoArchive: true, NoSnippet: true}},
		{content: "max-snippet:20, max-image-preview:large, nofollow", want: Robots{NoFollow: true}},
		{content: "unavailable_after: 2030-01-01, noindex", want: Robots{NoIndex: true}},
		{content: "noindex nofollow", want: Robots{}}, // not a comma list: one unknown directive
		{content: "trawlbot: noindex", bot: "trawlbot", want: Robots{NoIndex: true}},
		{content: "TrawlBot: noindex, nofollow", bot: "trawlbot", want: Robots{NoIndex: true, NoFollow: true}},
		{content: "googlebot: noindex", bot: "trawlbot", want: Robots{}},
		{content: "googlebot: noindex", want: Robots{}},
		{content: "nofollow, googlebot: noindex", bot: "trawlbot", want: Robots{NoFollow: true}},
		{content: "googlebot: noindex, trawlbot: nofollow", bot: "trawlbot", want: Robots{NoFollow: true}},
	}
	for _, tt := range tests {
		t.Run(tt.content+"/"+tt.bot, func(t *testing.T) {
			if got := ParseRobots(tt.content, tt.bot); got != tt.want {
				t.Errorf("ParseRobots(%q, %q) = %+v, want %+v", tt.content, tt.bot, got, tt.want)
			}
		})
	}
}

func TestRobotsFromHeader(t *testing.T) {
	tests := []struct {
		name   string
		values []string
		bot    string
		want   Robots
	}{
		{name: "none"},
		{name: "one", values: []string{"noindex"}, want: Robots{NoIndex: true}},
		{name: "combined", values: []string{"noarchive", "nofollow"}, want: Robots{NoArchive: true, NoFollow: true}},
		{name: "other bot", values: []string{"otherbot: noindex", "nosnippet"}, bot: "trawlbot", want: Robots{NoSnippet: true}},
		{name: "this bot", values: []string{"otherbot: noindex", "trawlbot: none"}, bot: "trawlbot", want: Robots{NoIndex: true, NoFollow: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for _, v := range tt.values {
				h.Add("x-robots-tag", v)
			}
			if got := RobotsFromHeader(h, tt.bot); got != tt.want {
				t.Errorf("RobotsFromHeader(%q, %q) = %+v, want %+v", tt.values, tt.bot, got, tt.want)
			}
		})
	}
	if got := RobotsFromHeader(nil, "x"); got != (Robots{}) {
		t.Errorf("RobotsFromHeader(nil) = %+v, want zero", got)
	}
}

func TestParseRel(t *testing.T) {
	tests := []struct {
		value string
		want  Rel
	}{
		{value: "", want: 0},
		{value: "nofollow", want: RelNofollow},
		{value: " UGC\tSponsored\nnofollow ", want: RelUGC | RelSponsored | RelNofollow},
		{value: "noopener noreferrer unknown-value", want: RelNoopener | RelNoreferrer},
		{value: "canonical alternate next prev", want: RelCanonical | RelAlternate | RelNext | RelPrev},
		{value: "previous", want: RelPrev},
		{value: "nofollowx", want: 0},
	}
	for _, tt := range tests {
		if got := ParseRel(tt.value); got != tt.want {
			t.Errorf("ParseRel(%q) = %q, want %q", tt.value, got, tt.want)
		}
	}
	if got, want := (RelNofollow | RelUGC).String(), "nofollow ugc"; got != want {
		t.Errorf("Rel.String() = %q, want %q", got, want)
	}
}
