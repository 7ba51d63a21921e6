package maintext

import (
	"strings"
	"testing"
)

// TestMainTextReferencePages checks the rules for documentation and
// reference pages on small hand-written pages: a main element holding
// code is the container, a short main element is the text of a stub
// page or a short API page, and a heading's anchor link is no link.
func TestMainTextReferencePages(t *testing.T) {
	// An API page: one paragraph of running text, then signatures,
	// a summary table of fragments and terms with short definitions.
	api := func(codes int) string {
		var sb strings.Builder
		sb.WriteString(`<html><head><title>Class Queue</title></head><body><nav><a href="/">Home</a> <a href="/api">API</a></nav><main><h1>Class Queue</h1>`)
		sb.WriteString(`<p>A queue of URLs that hands each host's URLs out one at a time and remembers which it has seen, so that no URL is fetched twice.</p>`)
		sb.WriteString(`<h2>Method Summary</h2><div class="summary"><div>void</div><div>` + code("push(URL u)", codes > 0) + `</div><div>Adds a URL</div><div>URL</div><div>` + code("next()", codes > 1) + `</div><div>Takes the next URL</div><div>int</div><div>` + code("len()", codes > 2) + `</div><div>Counts the URLs</div></div>`)
		sb.WriteString(`<h3>Methods declared in class Object</h3><div class="inherited"><code><a href="Object.html#equals">equals</a>, <a href="Object.html#hashCode">hashCode</a>, <a href="Object.html#toString">toString</a></code></div>`)
		sb.WriteString(`<ul class="contents"><li><a href="#push">push</a></li><li><a href="#next">next</a></li><li><a href="#len">len</a></li></ul>`)
		sb.WriteString(`<h2>Method Details</h2><h3>push</h3><div>public void push(URL u)</div><dl><dt>Parameters:</dt><dd>u - the URL</dd><dt>Returns:</dt><dd>nothing</dd><dt>Throws:</dt><dd>Full - if no room is left</dd></dl>`)
		sb.WriteString(`<h3>next</h3><div>public URL next()</div><p>Takes the URL whose host may be contacted soonest, and waits until it may be.</p><dl><dt>Returns:</dt><dd>the URL</dd></dl>`)
		sb.WriteString(`<h3>len</h3><div>public int len()</div><dl><dt>Returns:</dt><dd>the count</dd><dt>See Also:</dt><dd><a href="#next">next()</a></dd></dl>`)
		sb.WriteString(`</main><footer>Copyright 2026 Example Inc. All rights reserved.</footer></body></html>`)
		return sb.String()
	}
	tests := []struct {
		name, page    string
		want, wantNot []string
	}{
		{
			name: "API page with code: the whole main element",
			page: api(3),
			want: []string{"A queue of URLs", "push(URL u)", "Takes the next URL", "Method Details", "public void push(URL u)", "u - the URL", "Full - if no room is left",
				"Methods declared in class Object\n\nequals, hashCode, toString", "Returns:\nthe count\nSee Also:\nnext()"},
			wantNot: []string{"Home", "Copyright", "push\nnext\nlen"},
		},
		{
			name:    "the same page without code: the article rules alone",
			page:    api(0),
			want:    []string{"A queue of URLs"},
			wantNot: []string{"Takes the next URL", "Home", "Copyright"},
		},
		{
			name:    "stub page: a title and one line",
			page:    `<html><head><title>abi_efiapi - The Unstable Book</title></head><body><div class="menu"><h1 class="menu-title">The Unstable Book</h1></div><nav><a href="/a">Chapter 1</a> <a href="/b">Chapter 2</a></nav><main><h1><a class="header" href="#abi_efiapi"><code>abi_efiapi</code></a></h1><p>The tracking issue for this feature is: <a href="https://example.org/issues/65815">#65815</a></p><hr></main></body></html>`,
			want:    []string{"abi_efiapi\n\nThe tracking issue for this feature is: #65815"},
			wantNot: []string{"The Unstable Book", "Chapter"},
		},
		{
			name:    "the label of an open disclosure is no text, a summary with a heading is",
			page:    `<html><head><title>Vec</title></head><body><main><h1>Struct Vec</h1><details open><summary><span>Expand description</span></summary><p>A contiguous growable array type, written as Vec, short for vector.</p><pre><code>let v = vec![1, 2];</code></pre></details><details><summary><h3><code>impl Clone for Vec</code></h3></summary><p>Returns a copy of the value, element by element, as the clone of each.</p></details><p>Vectors grow as elements are pushed, and never shrink by themselves.</p><code>len</code></main></body></html>`,
			want:    []string{"A contiguous growable array type", "impl Clone for Vec"},
			wantNot: []string{"Expand description"},
		},
		{
			name:    "short API page: the whole main element, though the article rules find a sentence in it",
			page:    `<html><head><title>MemoryAddress</title></head><body><nav><a href="/">Overview</a> <a href="/tree">Tree</a></nav><main><div class="header"><div>Module jdk.jfr</div><h1>Annotation Interface MemoryAddress</h1></div><section><div class="signature">@Retention(RUNTIME) public @interface MemoryAddress</div><div class="block">Event field annotation, specifies that the value is a memory address.</div><dl><dt>Since:</dt><dd>9</dd></dl></section></main><footer>Report a bug or suggest an enhancement</footer></body></html>`,
			want:    []string{"Module jdk.jfr", "Annotation Interface MemoryAddress", "@Retention(RUNTIME) public @interface MemoryAddress", "Event field annotation", "Since:\n9"},
			wantNot: []string{"Overview", "Report a bug"},
		},
		{
			name:    "stub of links only is no text",
			page:    `<html><head><title>Index</title></head><body><main><h1>Index</h1><p><a href="/a">Alpha</a> <a href="/b">Beta</a> <a href="/c">Gamma</a></p></main></body></html>`,
			wantNot: []string{"Alpha", "Index"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Extract(strings.NewReader(tt.page))
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("Extract lacks %q\ngot: %q", w, got)
				}
			}
			for _, w := range tt.wantNot {
				if strings.Contains(got, w) {
					t.Errorf("Extract holds %q\ngot: %q", w, got)
				}
			}
		})
	}
}

// code writes s as a code element, or as plain text.
func code(s string, asCode bool) string {
	if asCode {
		return "<code>" + s + "</code>"
	}
	return s
}

// TestMainTextBoxesInText checks that a box of running text with a
// negative class, set inside the text (a manual's "back to basics" or
// "note" box), is kept, and so is a box alike to it in markup at the end
// of a section, and that boxes before or after all of the text, or of
// links, still go.
func TestMainTextBoxesInText(t *testing.T) {
	para := func(s string) string {
		return `<div class="para">` + s + ` The paragraph goes on with more words about the same subject, so that it reads as running text.</div>`
	}
	box := func(title, s string) string {
		return `<div class="sidebar"><p class="title"><strong>` + title + `</strong></p><div class="para">` + s + ` It explains the idea behind the text around it, in a few sentences.</div></div>`
	}
	tests := []struct {
		name, body    string
		want, wantNot []string
	}{
		{
			name: "boxes inside a section and at its end",
			body: `<div class="section"><h2>9.2. Remote Login</h2>` + para("It is essential for an administrator to connect to a computer remotely.") +
				box("BACK TO BASICS Client, server", "A system where processes talk to each other is called client and server.") +
				`<div class="section"><h3>9.2.1. SSH</h3>` + para("The SSH protocol was designed with security in mind.") + box("CULTURE Telnet is obsolete", "Before SSH, Telnet was the main tool used to log in remotely.") + `</div>` +
				`<div class="section"><h3>9.2.2. VNC</h3>` + para("VNC allows remote access to graphical desktops.") + para("This tool is mostly used for technical assistance.") + `</div></div>`,
			want: []string{"BACK TO BASICS Client, server", "A system where processes talk", "Before SSH, Telnet was", "It is essential", "VNC allows remote access"},
		},
		{
			name: "a box ending the page, alike to one inside the text",
			body: `<div class="section"><h2>9.2. Remote Login</h2>` + para("It is essential for an administrator to connect to a computer remotely.") +
				box("BACK TO BASICS Client, server", "A system where processes talk to each other is called client and server.") + para("Both ends must agree on a protocol.") +
				`<div class="section"><h3>9.2.1. SSH</h3>` + para("The SSH protocol was designed with security in mind.") + box("CULTURE Telnet is obsolete", "Before SSH, Telnet was the main tool used to log in remotely.") + `</div></div>`,
			want: []string{"A system where processes talk", "The SSH protocol", "Before SSH, Telnet was"},
		},
		{
			name: "a box ending the page, alike to none inside the text, goes",
			body: `<div class="section"><h2>9.2. Remote Login</h2>` + para("It is essential for an administrator to connect to a computer remotely.") + para("Both ends must agree on a protocol.") +
				`<div class="section"><h3>9.2.1. SSH</h3>` + para("The SSH protocol was designed with security in mind.") + box("CULTURE Telnet is obsolete", "Before SSH, Telnet was the main tool used to log in remotely.") + `</div></div>`,
			want:    []string{"It is essential"},
			wantNot: []string{"Before SSH, Telnet was"},
		},
		{
			name: "a sidebar column beside the article still goes",
			body: `<div class="article"><h2>Remote Login</h2>` + para("It is essential for an administrator to connect to a computer remotely.") + para("The SSH protocol was designed with security in mind.") + `</div>` +
				box("POPULAR", "Our most read story this week is about something else entirely."),
			want:    []string{"It is essential", "The SSH protocol"},
			wantNot: []string{"POPULAR", "most read story"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page := `<html><head><title>Remote Login</title></head><body><ul class="docnav"><li><a href="/prev">Prev</a></li><li><a href="/next">Next</a></li></ul>` + tt.body + `</body></html>`
			got, err := Extract(strings.NewReader(page))
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("Extract lacks %q\ngot: %q", w, got)
				}
			}
			for _, w := range tt.wantNot {
				if strings.Contains(got, w) {
					t.Errorf("Extract holds %q\ngot: %q", w, got)
				}
			}
		})
	}
}

// TestMainTextAnchorIDs checks that a section whose id is an anchor made
// from its heading ("more-on-lists" over "5.1. More on Lists") keeps its
// text though the id reads as a boilerplate name, when the page anchors
// its sections so (three or more; the section is the last, so no rule
// for boxes inside the text applies), and that a lone box whose id spells
// its heading ("related" over "Related") is still boilerplate.
func TestMainTextAnchorIDs(t *testing.T) {
	section := func(id, title, text string) string {
		return `<section id="` + id + `"><h2>` + title + `</h2><p>` + text + ` The section goes on with more words about the same subject, so that it reads as running text.</p></section>`
	}
	tests := []struct {
		name, body    string
		want, wantNot []string
	}{
		{
			name: "a manual's sections anchored by their titles",
			body: `<div class="body">` + section("data-structures", "5. Data Structures", "This chapter describes some things you have learned about already in more detail.") +
				section("the-del-statement", "5.1. The del statement", "There is a way to remove an item from a list given its index instead of its value.") +
				section("tuples-and-sequences", "5.2. Tuples and Sequences", "We saw that lists and strings have many common properties, such as indexing.") +
				section("more-on-lists", "5.3. More on Lists", "The list data type has some more methods, all of the methods of list objects are here.") + `</div>`,
			want: []string{"The list data type has some more methods", "There is a way to remove", "We saw that lists"},
		},
		{
			name: "one box anchored by its title",
			body: `<div class="post"><h1>Remote Login</h1><p>It is essential for an administrator to connect to a computer remotely, and there are several ways.</p><p>The SSH protocol was designed with security in mind, and it replaced older tools.</p></div>` +
				`<div id="related"><h3>Related</h3><p>Our most read story this week is about something else entirely, and you should read it.</p></div>`,
			want:    []string{"It is essential", "The SSH protocol"},
			wantNot: []string{"most read story"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page := `<html><head><title>Data Structures</title></head><body>` + tt.body + `</body></html>`
			got, err := Extract(strings.NewReader(page))
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("Extract lacks %q\ngot: %q", w, got)
				}
			}
			for _, w := range tt.wantNot {
				if strings.Contains(got, w) {
					t.Errorf("Extract holds %q\ngot: %q", w, got)
				}
			}
		})
	}
}
