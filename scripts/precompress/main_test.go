package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/google/go-cmp/cmp"
)

// decompress reads a .br or .gz copy back.
func decompress(t *testing.T, name string) []byte {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = brotli.NewReader(f)
	if filepath.Ext(name) == ".gz" {
		if r, err = gzip.NewReader(f); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return b
}

// listTree returns every file under dir, relative and sorted.
func listTree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestCompressTree(t *testing.T) {
	js := strings.Repeat("function f() { return 42; }\n", 500)
	yaml := strings.Repeat("kind: Workload\nmetadata: {name: w}\n", 300)
	tests := []struct {
		name      string
		files     map[string]string
		workers   int
		wantFiles []string
		wantSizes map[string]int64 // file sizes reported, by path
	}{
		{
			name: "compressible files get both copies, nested ones too",
			files: map[string]string{
				"editor.js":              js,
				"scenarios/default.yaml": yaml,
			},
			workers: 2,
			wantFiles: []string{
				"editor.js", "editor.js.br", "editor.js.gz",
				"scenarios/default.yaml", "scenarios/default.yaml.br", "scenarios/default.yaml.gz",
			},
			wantSizes: map[string]int64{"editor.js": int64(len(js)), "scenarios/default.yaml": int64(len(yaml))},
		},
		{
			name:      "a file compression cannot shrink keeps no copy",
			files:     map[string]string{"tiny.js": "x", "editor.js": js},
			workers:   1,
			wantFiles: []string{"editor.js", "editor.js.br", "editor.js.gz", "tiny.js"},
			wantSizes: map[string]int64{"editor.js": int64(len(js)), "tiny.js": 1},
		},
		{
			name: "other suffixes and existing copies are left alone, stale copies of a tiny file go",
			files: map[string]string{
				"favicon.png": js, "notes.txt": js, "tiny.css": "a", "tiny.css.br": "stale", "old.js.gz": "kept",
			},
			workers:   4,
			wantFiles: []string{"favicon.png", "notes.txt", "old.js.gz", "tiny.css"},
			wantSizes: map[string]int64{"tiny.css": 1},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tc.files)
			results, err := compressTree(dir, strings.Split(defaultExts, ","), tc.workers, &cache{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.wantFiles, listTree(t, dir)); diff != "" {
				t.Errorf("files after compressTree (-want +got):\n%s", diff)
			}
			got := map[string]int64{}
			for _, r := range results {
				got[r.Path] = r.Size
			}
			if diff := cmp.Diff(tc.wantSizes, got); diff != "" {
				t.Errorf("sizes reported (-want +got):\n%s", diff)
			}
			for _, f := range listTree(t, dir) {
				orig, ok := strings.CutSuffix(f, ".br")
				if !ok {
					orig, ok = strings.CutSuffix(f, ".gz")
				}
				if !ok || tc.files[f] != "" { // not a copy, or one the test wrote
					continue
				}
				if got := decompress(t, filepath.Join(dir, f)); !bytes.Equal(got, []byte(tc.files[orig])) {
					t.Errorf("%s does not decompress to %s (%d bytes, want %d)", f, orig, len(got), len(tc.files[orig]))
				}
			}
		})
	}
}

// TestCompressTreeDeterministic: the same files give the same bytes, so a
// rebuild does not change what a cache revalidates.
func TestCompressTreeDeterministic(t *testing.T) {
	var files = map[string]string{}
	for i := range 6 {
		files[fmt.Sprintf("f%d.json", i)] = strings.Repeat(fmt.Sprintf(`{"n": %d, "s": "abc"},`, i), 200*(i+1))
	}
	var copies [2]map[string]string
	for k := range copies {
		dir := t.TempDir()
		writeFiles(t, dir, files)
		if _, err := compressTree(dir, []string{".json"}, 3, &cache{}); err != nil {
			t.Fatal(err)
		}
		copies[k] = map[string]string{}
		for _, f := range listTree(t, dir) {
			b, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			copies[k][f] = string(b)
		}
	}
	if len(copies[0]) != 3*len(files) {
		t.Errorf("%d files after compressTree, want %d", len(copies[0]), 3*len(files))
	}
	if diff := cmp.Diff(copies[0], copies[1]); diff != "" {
		t.Errorf("two builds of the same files differ (-first +second):\n%s", diff)
	}
}

// TestCache: a second build of the same files takes every copy from the
// cache, gives the same bytes, and the cache keeps only what the last
// build used.
func TestCache(t *testing.T) {
	cacheDir := t.TempDir()
	build := func(files map[string]string) (map[string]string, int64) {
		t.Helper()
		dir := t.TempDir()
		writeFiles(t, dir, files)
		c := &cache{dir: cacheDir}
		if _, err := compressTree(dir, []string{".js"}, 2, c); err != nil {
			t.Fatal(err)
		}
		if err := c.prune(); err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, f := range listTree(t, dir) {
			b, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			out[f] = string(b)
		}
		return out, c.hits.Load()
	}
	a := map[string]string{"a.js": strings.Repeat("let a = 1;\n", 400), "b.js": strings.Repeat("let b = 2;\n", 400)}
	first, hits := build(a)
	if hits != 0 {
		t.Errorf("the first build took %d copies from an empty cache", hits)
	}
	second, hits := build(a)
	if hits != 4 {
		t.Errorf("the second build took %d copies from the cache, want 4", hits)
	}
	if diff := cmp.Diff(first, second); diff != "" {
		t.Errorf("the cached build differs (-first +second):\n%s", diff)
	}
	// b.js changes: its copies are made anew, a.js's come from the cache,
	// and the old b.js entries go.
	a["b.js"] = strings.Repeat("let b = 3;\n", 400)
	third, hits := build(a)
	if hits != 2 {
		t.Errorf("after one file changed, %d copies came from the cache, want 2", hits)
	}
	if got := decompress(t, writeTemp(t, "b.js.br", third["b.js.br"])); string(got) != a["b.js"] {
		t.Errorf("b.js.br after the change holds the old text")
	}
	entries, err := os.ReadDir(cacheDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 4 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the cache holds %d entries after pruning, want 4: %v", len(entries), names)
	}
}

func writeTemp(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
