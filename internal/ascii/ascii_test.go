package ascii

import "testing"

func TestFold(t *testing.T) {
	for _, c := range []struct {
		b, s          string
		equal, prefix bool
	}{
		{"META", "meta", true, true},
		{"Meta-x", "meta", false, true},
		{"met", "meta", false, false},
		{"", "", true, true},
		{"x", "", false, true},
		{"[ETA", "{eta", false, false}, // '[' is not 'Z'+1 folded
		{"@ETA", "`eta", false, false},
		{"MÉTA", "méta", false, false}, // ASCII only: É is two bytes, not folded
		{"méta", "méta", true, true},
	} {
		if got := EqualFold([]byte(c.b), c.s); got != c.equal {
			t.Errorf("EqualFold(%q, %q) = %v, want %v", c.b, c.s, got, c.equal)
		}
		if got := HasPrefixFold([]byte(c.b), c.s); got != c.prefix {
			t.Errorf("HasPrefixFold(%q, %q) = %v, want %v", c.b, c.s, got, c.prefix)
		}
	}
}
