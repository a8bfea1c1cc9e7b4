// Command scenarioindex writes the playground's scenario list: every
// *.yaml file in a directory with its Scenario name, spec.description and
// its gallery group (package gallery), as JSON. `make site` runs
// it on testdata/scenarios to write build/site/scenarios/index.json.
//
// With -bundle it also writes every scenario's text in one JSON object
// (file name to text), which the service worker expands into its cache at
// install: one compressed transfer instead of one per scenario, which
// compresses far better since the scenarios share most of their words.
// A file over -bundle-max bytes is listed in the index but left out of the
// bundle: the page fetches it when it is opened (the site's large
// example, Kueue's scalability test, is 5.8 MB).
//
//	go run ./scripts/scenarioindex [-o FILE] [-bundle FILE [-bundle-max BYTES]] DIR
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"

	"github.com/kueueplay/kueueplay/gallery"
)

func main() {
	out := flag.String("o", "", "write the index to `FILE` instead of stdout")
	bundle := flag.String("bundle", "", "also write every scenario's text to `FILE`, as a JSON object from file name to text")
	bundleMax := flag.Int64("bundle-max", 0, "leave files over `BYTES` out of the bundle (0: no limit)")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: scenarioindex [-o FILE] [-bundle FILE [-bundle-max BYTES]] DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	dir := os.DirFS(flag.Arg(0))
	entries, err := gallery.Index(dir)
	if err != nil {
		fail(err)
	}
	if err := write(*out, entries, "  "); err != nil {
		fail(err)
	}
	if *bundle == "" {
		return
	}
	// encoding/json writes a map's keys sorted, so the bundle is the same
	// bytes on every machine.
	texts := map[string]string{}
	names, err := fs.Glob(dir, "*.yaml")
	if err != nil {
		fail(err)
	}
	for _, name := range names {
		data, err := fs.ReadFile(dir, name)
		if err != nil {
			fail(err)
		}
		if *bundleMax > 0 && int64(len(data)) > *bundleMax {
			continue
		}
		texts[path.Base(name)] = string(data)
	}
	if err := write(*bundle, texts, ""); err != nil {
		fail(err)
	}
}

// write encodes v as JSON to file, or to stdout when file is "".
func write(file string, v any, indent string) error {
	var w io.Writer = os.Stdout
	if file != "" {
		f, err := os.Create(file)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", indent)
	return enc.Encode(v)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "scenarioindex:", err)
	os.Exit(1)
}
