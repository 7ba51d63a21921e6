// Package content compares trawl's content-block finders (maintext.Extract
// and maintext.BTE) with go-trafilatura and go-readability on both
// main-text evaluation sets, read in place and never copied (their pages
// and truths are third-party content; the Dragnet set is AGPL):
//
//   - shared/data/content-eval (Dragnet: 1,379 English pages, 2012, with
//     hand-corrected main text; bag-of-words precision, recall and F1,
//     macro-averaged over pages), and
//   - shared/data/content-eval-snippets (945 multilingual pages from
//     trafilatura's test set, with snippets that must and must not appear;
//     P/R/F1 over all snippets).
//
// The comparison is a test, opt-in because it is slow (about 2 minutes on
// two shared cores, nearly all of it go-trafilatura and go-readability):
//
//	cd bench && TRAWL_CONTENT_EVAL=1 go test -run TestCompare -v ./content
//
// For each corpus it prints the figures on all pages, the F1 mean and
// worst fold and the worst fold's precision over 5 folds split by site
// (contenteval.Fold: every page of a registrable domain lands in one
// fold), milliseconds per page and the speed relative to go-trafilatura
// measured in the same run, then every finder's P/R/F1 per fold.
// TRAWL_CONTENT_EVAL_CORPUS=dragnet or snippets runs one corpus. The
// library itself never imports the competitors; only this module does.
//
// # The documentation corpus
//
// A third corpus is built on demand from the Debian documentation packages
// installed on the machine, read in place from /usr/share/doc and never
// copied or committed: BuildDocs samples about 5,400 content pages of six
// sites made by six generators (python3-doc: Sphinx; postgresql-doc-15:
// DocBook XSL; debian-handbook, 26 languages: DocBook through Publican;
// openjdk-17-doc: javadoc; rust-doc: rustdoc for the standard library and
// mdBook for the books), and DocTruth takes each page's truth from the
// block its generator marks as the main content, minus permalink marks and
// the navigation inside the block (DocTruth's doc says which, per
// generator). Generated indexes, tables of contents of whole books and
// redirect stubs are left out (DocSites says which pages count).
//
//	cd bench && TRAWL_DOCS_EVAL=1 go test -run 'TestDocs$' -v ./content   # maintext.Extract, ~15 s
//	cd bench && TRAWL_DOCS_EVAL=all go test -run 'TestDocs$' -v ./content # and the competitors
//	cd bench && go run ./content/docscorpus -out /tmp/docs-corpus          # the truths, as JSONL
//
// TestDocs reports P/R/F1 (the bag-of-words metric of the Dragnet corpus,
// macro-averaged over pages) by generator, by site and, for the Handbook,
// by language, and how many pages keep less than 0.8 of their truth. On
// December 7, 2026 (5,354 pages, TRAWL_DOCS_EVAL=1, about 2 minutes on a
// loaded 2-core machine), maintext.Extract scored:
//
//	Sphinx 1.000/0.983/0.990     DocBook 0.994/0.964/0.972
//	Publican 1.000/0.969/0.980   javadoc 1.000/0.953/0.975
//	rustdoc 0.961/0.972/0.963    mdBook 0.992/0.991/0.991
//	all pages 0.992/0.971/0.978, 184 pages below 0.8 recall
//
// The figures held out by generator (each scored without the rules
// designed on its pages) come from TestMainTextDocs in package maintext;
// its package doc and docs/maintext-evaluation.md have both.
package content
