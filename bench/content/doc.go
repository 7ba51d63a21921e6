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
package content
