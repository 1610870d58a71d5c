package adapters

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Adapters talk only to the engine: what they need from the shop comes as
// engine events or calls, never from the catalog. These tests hold every
// non-test Go file under adapters/ to that.

// allowedCatalogImports are the catalog packages a directory under
// adapters/ may import: the shared inbox keeps its group commit.
var allowedCatalogImports = map[string][]string{
	"inbox": {"shopbot/catalog/groupcommit"},
}

func TestAdaptersDoNotImportCatalog(t *testing.T) {
	found, err := catalogImports(".", allowedCatalogImports)
	if err != nil {
		t.Fatal(err)
	}
	for file, paths := range found {
		t.Errorf("adapters/%s imports %s: adapters get what they need from the engine", file, strings.Join(paths, ", "))
	}
}

// TestCatalogImportsFound: the check finds a catalog import, also of a
// package under the catalog, and only where it is not allowed.
func TestCatalogImportsFound(t *testing.T) {
	root := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("chat/good.go", "package chat\nimport (\n\t\"context\"\n\t\"shopbot/engine\"\n\t\"shopbot/catalogue\"\n)\n")
	write("chat/bad.go", "package chat\nimport cat \"shopbot/catalog\"\n")
	write("chat/deep.go", "package chat\nimport _ \"shopbot/catalog/search\"\n")
	write("chat/bad_test.go", "package chat\nimport \"shopbot/catalog\"\n")
	write("inbox/inbox.go", "package inbox\nimport \"shopbot/catalog/groupcommit\"\n")
	write("inbox/more.go", "package inbox\nimport \"shopbot/catalog\"\n")
	write("chat/testdata/x.go", "package x\nimport \"shopbot/catalog\"\n")
	found, err := catalogImports(root, allowedCatalogImports)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"chat/bad.go":   {"shopbot/catalog"},
		"chat/deep.go":  {"shopbot/catalog/search"},
		"inbox/more.go": {"shopbot/catalog"},
	}
	if len(found) != len(want) {
		t.Errorf("found %v, want %v", found, want)
	}
	for file, paths := range want {
		if !slices.Equal(found[file], paths) {
			t.Errorf("%s: found %v, want %v", file, found[file], paths)
		}
	}
	write("broken.go", "package broken\nimport (\n")
	if _, err := catalogImports(root, nil); err == nil {
		t.Error("a file that does not parse passed")
	}
}

// catalogImports parses the imports of every non-test .go file under root
// (testdata skipped) and returns, by slash path relative to root, the
// catalog packages each imports that allowed (by top directory) does
// not permit.
func catalogImports(root string, allowed map[string][]string) (map[string][]string, error) {
	found := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		dir, _, _ := strings.Cut(rel, "/")
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return err
			}
			if (p == "shopbot/catalog" || strings.HasPrefix(p, "shopbot/catalog/")) && !slices.Contains(allowed[dir], p) {
				found[rel] = append(found[rel], p)
			}
		}
		return nil
	})
	return found, err
}
