// Package htmltext says what trawl calls the visible text of an HTML page,
// so that the link extractor (extract: Document.Text) and the main-text
// finders (maintext: Extract and BTE) mean the same thing by it.
//
// The visible text of a page is its character data outside the elements
// for which Hidden is true, with runs of white space collapsed. Text that a
// browser shows only with scripting off (noscript), or only when it cannot
// show something else (noembed, noframes, iframe fallback), is not visible
// text: a crawler runs no scripts but should see the page a reader sees.
// The content of textarea, xmp and plaintext is raw text and visible.
package htmltext

import "golang.org/x/net/html/atom"

// Hidden reports whether the content of elements named a is not visible
// text: script, style, noscript, noembed, noframes, template, iframe and
// title (a title is a page signal of its own, not part of the text).
func Hidden(a atom.Atom) bool {
	switch a {
	case atom.Script, atom.Style, atom.Noscript, atom.Noembed, atom.Noframes,
		atom.Template, atom.Iframe, atom.Title:
		return true
	}
	return false
}
