// Command scenarioindex writes the playground's scenario list: every
// *.yaml file in a directory with its Scenario name, spec.description and
// a group (the file name up to its first "-"), as JSON. `make site` runs
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
	"path/filepath"
	"slices"
	"strings"

	"github.com/kueueplay/kueueplay/core/scenario"
)

// Entry is one scenario in index.json.
type Entry struct {
	File        string `json:"file"`
	Name        string `json:"name"`
	Group       string `json:"group"`
	Description string `json:"description,omitempty"`
}

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
	entries, err := Index(flag.Arg(0))
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

// Index decodes every *.yaml file directly in dir. The default scenario
// comes first, then the files by name; a file that does not decode is an
// error.
func Index(dir string) ([]Entry, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no *.yaml file", dir)
	}
	entries := []Entry{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		sc, err := scenario.Decode(filepath.Base(f), data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		stem := strings.TrimSuffix(filepath.Base(f), ".yaml")
		group, _, _ := strings.Cut(stem, "-")
		name := sc.Name
		if name == "" {
			name = stem
		}
		entries = append(entries, Entry{
			File:        filepath.Base(f),
			Name:        name,
			Group:       group,
			Description: strings.TrimSpace(sc.Description),
		})
	}
	slices.SortStableFunc(entries, func(a, b Entry) int {
		if (a.File == "default.yaml") != (b.File == "default.yaml") {
			if a.File == "default.yaml" {
				return -1
			}
			return 1
		}
		return strings.Compare(a.File, b.File)
	})
	return entries, nil
}
