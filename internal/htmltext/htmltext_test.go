package htmltext

import (
	"testing"

	"golang.org/x/net/html/atom"
)

func TestHidden(t *testing.T) {
	for _, tt := range []struct {
		name string
		want bool
	}{
		{"script", true}, {"style", true}, {"noscript", true}, {"noembed", true}, {"noframes", true},
		{"template", true}, {"iframe", true}, {"title", true},
		{"textarea", false}, {"xmp", false}, {"plaintext", false}, {"p", false}, {"svg", false}, {"body", false},
	} {
		if got := Hidden(atom.Lookup([]byte(tt.name))); got != tt.want {
			t.Errorf("Hidden(%s) = %v, want %v", tt.name, got, tt.want)
		}
	}
}
