// Command precompress writes a brotli (.br) and a gzip (.gz) copy beside
// every compressible file of a built site, for servers that serve
// precompressed siblings (`kueueplay serve` does). It is pure Go, so the
// build is the same on every machine whatever compression tools it has
// installed. `make site` runs it on the site folder.
//
//	go run ./scripts/precompress [-ext .html,.css,...] [-cache DIR] [-v] DIR
//
// Brotli is written at quality 11 with a 16 MiB window (lgwin 24), what
// the brotli command does by default; gzip at its best compression, with
// no name or time in the header, so the same input gives the same bytes.
// A copy is kept only where it is smaller than the file. Files are
// compressed in parallel, one per processor.
//
// Brotli's best quality costs about 30 s of one core for the 10 MB
// WebAssembly module, so with -cache DIR the copies are also kept there
// under a hash of the file's bytes and reused by the next build of the
// same bytes; entries this run did not use are removed, so the cache
// holds one build's copies at most.
package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/andybalholm/brotli"
)

// defaultExts are the text and WebAssembly files a site serves.
const defaultExts = ".html,.css,.js,.json,.svg,.wasm,.yaml"

func main() {
	exts := flag.String("ext", defaultExts, "compress files whose names end in one of these comma-separated `suffixes`")
	verbose := flag.Bool("v", false, "print each file's sizes")
	cacheDir := flag.String("cache", "", "reuse and keep compressed copies in `DIR` (one build's worth)")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: precompress [-ext LIST] [-cache DIR] [-v] DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	c := &cache{dir: *cacheDir}
	results, err := compressTree(flag.Arg(0), strings.Split(*exts, ","), runtime.GOMAXPROCS(0), c)
	if err == nil {
		err = c.prune()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "precompress:", err)
		os.Exit(1)
	}
	var in, br, gz int64
	for _, r := range results {
		in += r.Size
		br += min(r.Brotli, r.Size)
		gz += min(r.Gzip, r.Size)
		if *verbose {
			fmt.Printf("  %-40s %9d  br %9d  gzip %9d\n", r.Path, r.Size, r.Brotli, r.Gzip)
		}
	}
	fmt.Printf("precompress: %d files, %d bytes: %d with brotli, %d with gzip", len(results), in, br, gz)
	if c.dir != "" {
		fmt.Printf(" (%d of %d copies from the cache)", c.hits.Load(), 2*len(results))
	}
	fmt.Println()
}

// result is what compressTree did with one file: its size and the sizes
// of its copies (each as written, or the size it would have had when it
// was not smaller than the file and so not kept).
type result struct {
	Path               string // relative to the tree, with slashes
	Size, Brotli, Gzip int64
}

// compressTree writes NAME.br and NAME.gz beside every regular file under
// dir whose name ends in one of exts (but not in .br or .gz), each only
// when smaller than the file; a stale copy that is not smaller is
// removed. It uses up to workers goroutines and returns the results in
// path order.
func compressTree(dir string, exts []string, workers int, c *cache) ([]result, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if !d.Type().IsRegular() || strings.HasSuffix(name, ".br") || strings.HasSuffix(name, ".gz") {
			return nil
		}
		if slices.ContainsFunc(exts, func(e string) bool { return e != "" && strings.HasSuffix(name, e) }) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// The largest first, so that the WebAssembly module does not start last.
	sizes := make(map[string]int64, len(files))
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			return nil, err
		}
		sizes[f] = st.Size()
	}
	slices.SortFunc(files, func(a, b string) int {
		if sizes[a] != sizes[b] {
			return int(sizes[b] - sizes[a])
		}
		return strings.Compare(a, b)
	})

	results := make([]result, len(files))
	errs := make([]error, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Go(func() {
			for i := range next {
				results[i], errs[i] = compressFile(dir, files[i], c)
			}
		})
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	slices.SortFunc(results, func(a, b result) int { return strings.Compare(a.Path, b.Path) })
	return results, nil
}

// compressFile writes the two copies of one file.
func compressFile(dir, p string, c *cache) (result, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return result{}, err
	}
	rel, err := filepath.Rel(dir, p)
	if err != nil {
		return result{}, err
	}
	r := result{Path: filepath.ToSlash(rel), Size: int64(len(data))}
	sum := sha256.Sum256(data)
	key := hex.EncodeToString(sum[:])
	br, err := c.get(key+brotliSuffix, data, brotliBytes)
	if err != nil {
		return result{}, fmt.Errorf("%s: brotli: %w", p, err)
	}
	gz, err := c.get(key+gzipSuffix, data, gzipBytes)
	if err != nil {
		return result{}, fmt.Errorf("%s: gzip: %w", p, err)
	}
	r.Brotli, r.Gzip = int64(len(br)), int64(len(gz))
	if err := keepIfSmaller(p+".br", br, len(data)); err != nil {
		return result{}, err
	}
	if err := keepIfSmaller(p+".gz", gz, len(data)); err != nil {
		return result{}, err
	}
	return r, nil
}

// The cache's file name suffixes name the settings, so that a change of
// settings misses.
const (
	brotliSuffix = ".q11w24.br"
	gzipSuffix   = ".l9.gz"
)

func brotliBytes(data []byte) ([]byte, error) {
	var b bytes.Buffer
	w := brotli.NewWriterOptions(&b, brotli.WriterOptions{Quality: brotli.BestCompression, LGWin: 24})
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func gzipBytes(data []byte) ([]byte, error) {
	var b bytes.Buffer
	w, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(data); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// keepIfSmaller writes data to name when it is smaller than size bytes,
// and otherwise makes sure no copy of that name is left from an earlier
// build.
func keepIfSmaller(name string, data []byte, size int) error {
	if len(data) < size {
		return os.WriteFile(name, data, 0o644)
	}
	if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// cache keeps compressed copies under the hash of what they compress; the
// zero value (no dir) keeps nothing.
type cache struct {
	dir  string
	hits atomic.Int64
	mu   sync.Mutex
	used map[string]bool
}

// get returns the copy named key, from the cache or made by compress
// (and then kept).
func (c *cache) get(key string, data []byte, compress func([]byte) ([]byte, error)) ([]byte, error) {
	if c.dir == "" {
		return compress(data)
	}
	c.mu.Lock()
	if c.used == nil {
		c.used = map[string]bool{}
	}
	c.used[key] = true
	c.mu.Unlock()
	p := filepath.Join(c.dir, key)
	if b, err := os.ReadFile(p); err == nil {
		c.hits.Add(1)
		return b, nil
	}
	b, err := compress(data)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return nil, err
	}
	// Written under a temporary name and renamed, so that an interrupted
	// build never leaves a truncated entry to be reused.
	tmp, err := os.CreateTemp(c.dir, "tmp-*")
	if err != nil {
		return nil, err
	}
	_, werr := tmp.Write(b)
	if err := errors.Join(werr, tmp.Close()); err != nil {
		os.Remove(tmp.Name())
		return nil, err
	}
	return b, os.Rename(tmp.Name(), p)
}

// prune removes the entries this run did not use.
func (c *cache) prune() error {
	if c.dir == "" {
		return nil
	}
	entries, err := os.ReadDir(c.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range entries {
		if !c.used[e.Name()] {
			errs = append(errs, os.Remove(filepath.Join(c.dir, e.Name())))
		}
	}
	return errors.Join(errs...)
}
