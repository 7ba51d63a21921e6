package maintext

// The wording of boilerplate: a small lexicon of the labels and calls to
// action that news and blog sites write around their articles, in
// English, German, French and Spanish. It is general, language-specific
// wording (what any site in these languages writes), not a list of any
// site's strings, and no language is detected: the phrases are matched
// as they are, on the block's text folded by mcFold. Advertising labels,
// share and print buttons, "Related:", affiliate and rights disclosures
// were tried too and left out: on the pages the rules are designed on
// they changed nothing (advertising labels), gained on one site only
// (affiliate disclosures), or Dragnet's truth counts them as text
// ("Related:" over a list of links, "All rights reserved." closing a
// review, "share with your friends, follow us on ..." under a news
// story).

import (
	"bytes"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html/atom"
)

// mcWordingWords is the most words a kept block may have to be dropped
// for its wording: labels and calls to action are short; a paragraph of
// running text that merely mentions "subscribers" is longer, or does
// not read as one (below).
const mcWordingWords = 30

// mcWordingLabels are labels and pointers: a block whose whole text is
// one of them (folded by mcFold, so "Kontakt:" and "Schon gelesen?"
// match "kontakt" and "schon gelesen") introduces a box, a list of links
// or a form, not text. "See also" and "Note" are no such labels: in
// documentation they head the text itself.
var mcWordingLabels = [...]string{
	// contact and information boxes
	"contact", "kontakt", "contacto", "contact us", "kontaktieren sie uns",
	"more information", "further information", "additional information", "for more information",
	"weitere informationen", "mehr informationen", "weiterfuhrende informationen",
	"plus d informations", "mas informacion",
	// pointers to other articles
	"read more", "read also", "also read", "see more", "more on this",
	"lesen sie auch", "lies auch", "weiterlesen", "mehr lesen", "mehr zum thema", "schon gelesen",
	"auch interessant", "das konnte sie auch interessieren", "das konnte dich auch interessieren",
	"lire aussi", "a lire aussi", "lire la suite", "leer mas", "lee tambien", "te puede interesar",
	"you might also like", "you may also like",
	"ahnliche artikel", "ahnliche beitrage", "verwandte artikel", "articles similaires", "articulos relacionados",
	"next article", "previous article", "nachster artikel", "vorheriger artikel",
	"article suivant", "article precedent", "siguiente articulo", "articulo anterior",
}

// mcWordingLabelWords is the most words of a block read as a label.
const mcWordingLabelWords = 8

// mcWordingCalls are calls to action addressed to the reader about the
// site: to subscribe, sign up, log in. A short block opening with one
// and naming a channel (mcWordingChannels) is such a call; so is one
// holding one (or a verb of downloading, mcWordingFetch, or a call of
// mcWordingAddress) together with a word about the site (mcWordingSite)
// or two channels, or, when it is a fragment (no sentence mark), one
// channel. A sentence that merely mentions subscribers ("The paper's
// subscribers grew ...") holds no call.
var mcWordingCalls = [...]string{
	"subscribe", "subscribe now", "sign up", "log in", "register now",
	"abonnieren", "jetzt abonnieren", "abonniere", "s abonner",
}

// mcWordingAddress are calls that address the reader in their own words
// ("Follow us", "Abonnieren Sie", "Suivez-nous"): opening a short block,
// they are a call whatever follows.
var mcWordingAddress = [...]string{
	"follow us", "folgen sie uns", "folge uns", "folgt uns", "abonnieren sie",
	"melden sie sich", "registrieren sie sich",
	"abonnez vous", "suivez nous", "suscribete", "suscribase", "siguenos",
}

// mcWordingFetch are the verbs of downloading: a call only together with
// a word about the site or channels, never alone at the start, since a
// line opening with one is as often the post's own download ("Download:
// Band - Song (MP3)", a program's trial).
var mcWordingFetch = [...]string{
	"download", "herunterladen", "telecharger", "telechargez", "descarga", "descargue", "descargar",
}

// mcWordingChannels are the words of channels and offers that calls to
// action name (an app, a newsletter, a subscription, a PDF).
var mcWordingChannels = [...]string{
	"subscriber", "subscribers", "subscription", "newsletter", "app", "apps", "ios", "android",
	"google play", "app store", "itunes", "pdf", "e paper", "epaper",
	"facebook", "twitter", "instagram", "youtube", "pinterest", "whatsapp", "telegram", "tiktok",
	"abo", "abonnement", "abonnent", "abonnenten", "abonne", "abonnes", "suscripcion", "suscriptor",
}

// mcWordingSite are words by which a call addresses the reader about
// the site ("our newsletter", "unseren Newsletter", "nuestro canal").
var mcWordingSite = [...]string{
	"our", "unser", "unsere", "unseren", "unserem", "unserer",
	"notre", "nos", "nous", "nuestro", "nuestra", "nuestros", "nuestras",
	"please", "bitte", "full story", "latest news", "latest stories",
}

// mcFoldMax is the most bytes of folded text read; a block longer than
// that is longer than any the lexicon drops.
const mcFoldMax = 512

// mcFold appends to dst the words of text lower-cased, with the accents
// of Latin letters taken off (ä → a, é → e, ß → ss) and every run of
// other characters (spaces, punctuation) written as one space, without
// a leading or trailing space. It stops at cap(dst) and then reports
// false.
func mcFold(dst, text []byte) ([]byte, bool) {
	space := false
	for len(text) > 0 {
		r, n := rune(text[0]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRune(text)
		}
		text = text[n:]
		if r < utf8.RuneSelf {
			switch {
			case 'a' <= r && r <= 'z', '0' <= r && r <= '9':
			case 'A' <= r && r <= 'Z':
				r += 'a' - 'A'
			default:
				space = len(dst) > 0
				continue
			}
		} else {
			r = mcFoldRune(unicode.ToLower(r))
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				space = len(dst) > 0
				continue
			}
		}
		if space {
			if len(dst) == cap(dst) {
				return dst, false
			}
			dst = append(dst, ' ')
			space = false
		}
		if r == 'ß' {
			if len(dst)+2 > cap(dst) {
				return dst, false
			}
			dst = append(dst, 's', 's')
			continue
		}
		if len(dst)+utf8.RuneLen(r) > cap(dst) {
			return dst, false
		}
		dst = utf8.AppendRune(dst, r)
	}
	return dst, true
}

// mcFoldRune takes the accent off a lower-case Latin letter.
func mcFoldRune(r rune) rune {
	switch r {
	case 'à', 'á', 'â', 'ã', 'ä', 'å':
		return 'a'
	case 'ç':
		return 'c'
	case 'è', 'é', 'ê', 'ë':
		return 'e'
	case 'ì', 'í', 'î', 'ï':
		return 'i'
	case 'ñ':
		return 'n'
	case 'ò', 'ó', 'ô', 'õ', 'ö':
		return 'o'
	case 'ù', 'ú', 'û', 'ü':
		return 'u'
	case 'ý', 'ÿ':
		return 'y'
	}
	return r
}

// mcHasWords reports whether the folded text f holds the folded phrase p
// as whole words.
func mcHasWords(f []byte, p string) bool {
	for i := 0; i+len(p) <= len(f); i++ {
		if (i == 0 || f[i-1] == ' ') && string(f[i:i+len(p)]) == p && (i+len(p) == len(f) || f[i+len(p)] == ' ') {
			return true
		}
	}
	return false
}

// mcOpensWith reports whether the folded text f opens with the folded
// phrase p as whole words.
func mcOpensWith(f []byte, p string) bool {
	return len(f) >= len(p) && string(f[:len(p)]) == p && (len(f) == len(p) || f[len(p)] == ' ')
}

// mcHasCallWord reports whether the folded text f holds a word of a
// phrase of mcWordingCalls, mcWordingAddress or mcWordingFetch: one word
// of each phrase is listed ("abonner" for "s abonner"; TestBoilerWordingCallWords
// keeps the list and the tables in step).
func mcHasCallWord(f []byte) bool {
	for len(f) > 0 {
		n := bytes.IndexByte(f, ' ')
		if n < 0 {
			n = len(f)
		}
		switch string(f[:n]) {
		case "subscribe", "sign", "log", "register", "abonnieren", "jetzt", "abonniere", "abonner",
			"follow", "folgen", "folge", "folgt", "melden", "registrieren", "abonnez", "suivez",
			"suscribete", "suscribase", "siguenos",
			"download", "herunterladen", "telecharger", "telechargez", "descarga", "descargue", "descargar":
			return true
		}
		f = f[min(n+1, len(f)):]
	}
	return false
}

// mcHasAny reports whether the folded text f holds one of the phrases.
func mcHasAny(f []byte, phrases []string) bool {
	for _, p := range phrases {
		if mcHasWords(f, p) {
			return true
		}
	}
	return false
}

// boilerWording reports whether block b, not a heading and at most
// mcWordingWords words, is boilerplate by its wording: a label or
// pointer alone (mcWordingLabels), or a call to action (mcWordingCalls):
// one opening the block, or one (or a verb of downloading) with a word
// about the site or channels.
// Headings are left alone: a heading the article uses may read like a
// label ("Weitere Informationen" over its last section).
func (w *mcWalker) boilerWording(b *mcBlock) bool {
	if b.words > mcWordingWords || b.heading != 0 {
		return false
	}
	var arr [mcFoldMax]byte
	f, ok := mcFold(arr[:0], w.buf[b.start:b.end])
	if !ok {
		return false
	}
	// A label that is a term or a table cell names a field of the text
	// ("Contact:" in a documentation page's field list).
	if b.words <= mcWordingLabelWords {
		if t := w.elems[b.elem].tag; t != atom.Dt && t != atom.Dd && !w.inCell(b.elem) {
			for _, p := range mcWordingLabels {
				if string(f) == p {
					return true
				}
			}
		}
	}
	// Most blocks hold no word that opens a call: one pass over the
	// words tells.
	if !mcHasCallWord(f) {
		return false
	}
	for _, p := range mcWordingAddress {
		if mcOpensWith(f, p) {
			return true
		}
	}
	open := false
	for _, p := range mcWordingCalls {
		if mcOpensWith(f, p) {
			open = true
			break
		}
	}
	if !open && !mcHasAny(f, mcWordingAddress[:]) && !mcHasAny(f, mcWordingCalls[:]) && !mcHasAny(f, mcWordingFetch[:]) {
		return false
	}
	if mcHasAny(f, mcWordingSite[:]) {
		return true
	}
	more := 0
	for _, p := range mcWordingChannels {
		if mcHasWords(f, p) {
			more++
		}
	}
	// A bare imperative opening the block ("Sign up to the ...
	// newsletter") names what it calls to: "Subscribe to new mailbox."
	// documents a function.
	if open && more >= 1 {
		return true
	}
	// A fragment (no sentence mark) naming one channel is a button or
	// a link line ("Dieses Skript als PDF herunterladen").
	return more >= 2 || more >= 1 && b.stops == 0
}

// dropWording drops the kept blocks that are boilerplate by their
// wording (boilerWording): pleas to subscribe, to download the site's
// app or to follow it, and the labels of contact and information boxes
// and of pointers to other articles, left in the article's element.
func (w *mcWalker) dropWording(keep []bool) {
	for i, k := range keep {
		if k && w.boilerWording(&w.blocks[i]) {
			keep[i] = false
		}
	}
}
