// Command scenarioindex writes the playground's scenario list: every
// *.yaml file in a directory with its Scenario name, spec.description and
// its gallery group (package gallery), as JSON. `make site` runs
// it on testdata/scenarios to write build/site/scenarios/index.json.
//
//	go run ./scripts/scenarioindex [-o FILE] DIR
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/kueueplay/kueueplay/gallery"
)

func main() {
	out := flag.String("o", "", "write the index to `FILE` instead of stdout")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: scenarioindex [-o FILE] DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	entries, err := gallery.Index(os.DirFS(flag.Arg(0)))
	if err != nil {
		fmt.Fprintln(os.Stderr, "scenarioindex:", err)
		os.Exit(1)
	}
	var w io.Writer = os.Stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "scenarioindex:", err)
			os.Exit(1)
		}
		defer f.Close()
		w = f
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(entries); err != nil {
		fmt.Fprintln(os.Stderr, "scenarioindex:", err)
		os.Exit(1)
	}
}
