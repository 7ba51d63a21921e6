package trawl

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/trawl-dev/trawl"

// allowedImports lists, for each package of the module, the module packages
// its non-test files may import. Leaf packages never import the root; the
// root imports the leaves; nothing imports examples or bench.
var allowedImports = map[string][]string{
	"":                         {"extract", "feeds", "maintext", "fetch", "frontier", "frontier/opic", "robots", "urlnorm", "dedup", "politeness", "recrawl", "internal/jsonenc", "internal/fpset"},
	"urlnorm":                  {},
	"extract":                  {"urlnorm", "internal/ascii"},
	"maintext":                 {"internal/htmltext"},
	"feeds":                    {"urlnorm"},
	"robots":                   {"internal/ascii"},
	"politeness":               {},
	"frontier":                 {"politeness", "urlnorm", "frontier/internal/wakeup", "frontier/internal/wire", "internal/fpset"},
	"frontier/internal/wakeup": {},
	"frontier/internal/wire":   {},
	"frontier/frontiertest":    {"frontier"},
	"frontier/opic":            {}, // the cash accounts alone: a crawler passes priorities through its frontier
	"frontier/disk":            {"frontier", "politeness", "urlnorm", "frontier/internal/wakeup", "frontier/internal/wire"},
	"dedup":                    {},
	"recrawl":                  {},
	"fetch":                    {"internal/ascii"},
	"render":                   {"fetch", "extract", "urlnorm"}, // root never imports it: rendering is opt-in
	"crawltest":                {},
	"store":                    {"", "internal/jsonenc", "fetch"}, // fetch: Replay reads archived responses through a fetch.HTTP
	"trawlcli":                 {"", "crawltest", "store", "frontier", "frontier/disk", "extract", "metrics", "report", "recrawl", "render", "fetch"},
	"examples/sitespider":      {"", "trawlcli"},
	"examples/dirspider":       {"", "trawlcli"},
	"examples/spider":          {"", "trawlcli"},
	"examples/scraper":         {"", "store", "crawltest"},
	"examples/pagesjsonl":      {"", "store"},

	"topic":                  {},
	"examples/focusedspider": {"", "trawlcli", "topic", "extract"},
	"internal/testpage":      {},
	"internal/htmltext":      {},
	"internal/contenteval":   {"fetch"},
	"internal/soak":          {}, // only tests: the soak crawl
	"internal/optional":      {}, // only tests: the Crawler with render and frontier/disk
	"metrics":                {""},
	"report":                 {""},

	"cluster":                {"frontier", "frontier/opic", "politeness", "robots", "urlnorm"},
	"internal/redistest":     {},
	"internal/shareddata":    {}, // only tests: finds ../shared/data
	"internal/jsonenc":       {},
	"internal/fpset":         {},
	"internal/ascii":         {},                                     // ASCII case folding on bytes, for extract, fetch and robots
	"internal/linkgraph":     {},                                     // only tests: PageRank, the truth of importance orders
	"examples/clusterspider": {"", "cluster", "trawlcli", "urlnorm"}, // urlnorm: the host keys the ring shares out

	"frontier/internal/slowhosts": {"frontier"}, // only tests: the resting-hosts scenario
}

// TestImportRules walks every package's non-test Go files and fails on an
// import between module packages that allowedImports does not list, and on a
// package that the table does not know (so new packages get a decision).
func TestImportRules(t *testing.T) {
	imports := map[string]map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (name == "testdata" || name == "bench" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(path))
		if pkg == "." {
			pkg = ""
		}
		if imports[pkg] == nil {
			imports[pkg] = map[string]bool{}
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if p == module {
				imports[pkg][""] = true
			} else if rest, ok := strings.CutPrefix(p, module+"/"); ok {
				imports[pkg][rest] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for pkg, deps := range imports {
		allowed, known := allowedImports[pkg]
		if !known {
			t.Errorf("package %q is not in allowedImports: decide what it may import", pkg)
			continue
		}
		for dep := range deps {
			if !slices.Contains(allowed, dep) {
				t.Errorf("package %q imports %q, which the layout rules do not allow", pkg, dep)
			}
		}
	}
}
