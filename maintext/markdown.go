package maintext

import (
	"fmt"
	"io"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// ExtractMarkdown is [Extract] rendering the same main content as
// Markdown (CommonMark with pipe tables), the form search indexes and
// language models are fed: headings as "#" lines by level, code (pre) as
// fenced blocks keeping its lines, list items as "- " or "1. " lines
// indented by nesting, table rows as "| a | b |" lines with a separator
// line after the first row, the terms of a definition list in bold with
// their definitions on the next line, links as [text](href) (as the page
// writes the href: relative links stay relative; links to a fragment of
// the page are plain text), paragraphs separated by blank lines. Text is
// not escaped: characters Markdown reads as markup ("*", "_") pass as
// written. It returns "" exactly when Extract does.
func ExtractMarkdown(r io.Reader) (string, error) {
	res, err := extractFrom(r, true)
	return res.Text, err
}

// ExtractNodeMarkdown is [ExtractMarkdown] on a page already parsed (see
// [ExtractNode]).
func ExtractNodeMarkdown(n *html.Node) string {
	return extractNode(n, true).Text
}

// mdPiece is one kept block rendered, with its place in lists and tables.
type mdPiece struct {
	at   mcPlace
	kind byte // 'h' heading, 'c' code, 'l' list item, 'r' table cell, 't' term, 'd' definition, 'p' paragraph
	text string
}

// renderMarkdown renders the kept blocks as Markdown.
func (w *mcWalker) renderMarkdown(keep []bool) string {
	var pieces []mdPiece
	link := 0
	for i, k := range keep {
		b := &w.blocks[i]
		for link < len(w.links) && w.links[link].start < b.start {
			link++
		}
		if !k {
			continue
		}
		at := w.place(b.elem)
		p := mdPiece{at: at, kind: 'p'}
		switch {
		case b.heading > 0:
			p.kind = 'h'
			p.text = strings.Repeat("#", int(b.heading)) + " " + strings.ReplaceAll(w.inline(b, link), "\n", " ")
		case w.inPreElem(b.elem):
			p.kind = 'c'
			p.text = "```\n" + string(w.buf[b.start:b.end]) + "\n```"
		default:
			p.text = w.inline(b, link)
			if at.item >= 0 {
				switch w.elems[at.item].tag {
				case atom.Li:
					p.kind = 'l'
				case atom.Tr:
					p.kind = 'r'
					p.text = strings.ReplaceAll(strings.ReplaceAll(p.text, "|", `\|`), "\n", " ")
				case atom.Dt:
					p.kind = 't'
					p.text = "**" + p.text + "**"
				case atom.Dd:
					p.kind = 'd'
				}
			}
		}
		pieces = append(pieces, p)
	}
	var sb strings.Builder
	var row []string
	headed := map[int32]bool{} // tables whose separator line is written
	flushRow := func(at mcPlace) {
		if len(row) == 0 {
			return
		}
		sb.WriteString("| " + strings.Join(row, " | ") + " |")
		if !headed[at.list] {
			headed[at.list] = true
			sb.WriteString("\n|" + strings.Repeat("---|", len(row)))
		}
		row = row[:0]
	}
	for i, p := range pieces {
		if i > 0 && len(row) == 0 {
			sep := w.separator(pieces[i-1].at, p.at)
			if sep == " | " {
				sep = "\n"
			}
			sb.WriteString(sep)
		}
		switch p.kind {
		case 'r':
			row = append(row, p.text)
			if i+1 < len(pieces) && pieces[i+1].kind == 'r' && pieces[i+1].at.item == p.at.item {
				continue // the row goes on
			}
			flushRow(p.at)
		case 'l':
			depth := w.listDepth(p.at.item)
			marker := "- "
			if p.at.list >= 0 && w.elems[p.at.list].tag == atom.Ol {
				marker = "1. "
			}
			indent := strings.Repeat("  ", depth)
			if i > 0 && pieces[i-1].at.item == p.at.item {
				marker = "  " // a paragraph more of the same item
			}
			sb.WriteString(indent + marker + strings.ReplaceAll(p.text, "\n", "\n"+indent+"  "))
		default:
			sb.WriteString(p.text)
		}
	}
	return sb.String()
}

// inline returns block b's text with its links written as [text](href);
// link is the index of the first recorded link at or after the block.
func (w *mcWalker) inline(b *mcBlock, link int) string {
	var sb strings.Builder
	at := b.start
	for ; link < len(w.links) && w.links[link].start < b.end; link++ {
		l := w.links[link]
		if l.start < at || l.end > b.end || l.end <= l.start {
			continue
		}
		sb.Write(w.buf[at:l.start])
		fmt.Fprintf(&sb, "[%s](%s)", w.buf[l.start:l.end], strings.ReplaceAll(l.href, " ", "%20"))
		at = l.end
	}
	sb.Write(w.buf[at:b.end])
	return sb.String()
}

// inPreElem reports whether block element e is a pre element or inside one.
func (w *mcWalker) inPreElem(e int32) bool {
	for ; e >= 0; e = w.elems[e].parent {
		if w.elems[e].tag == atom.Pre {
			return true
		}
	}
	return false
}

// listDepth returns how many lists (ul, ol) enclose list item e, less one.
func (w *mcWalker) listDepth(e int32) int {
	n := 0
	for e = w.elems[e].parent; e >= 0; e = w.elems[e].parent {
		if t := w.elems[e].tag; t == atom.Ul || t == atom.Ol || t == atom.Menu || t == atom.Dir {
			n++
		}
	}
	return max(n-1, 0)
}
