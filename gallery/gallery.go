// Package gallery lists the playground's bundled example scenarios: each
// file's Scenario name, spec.description and its gallery group. The site
// build (scripts/scenarioindex, scenarios/index.json) and the HTTP API
// (GET /v1/examples) both use it, so they list the same thing.
package gallery

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
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

// groups are the gallery's sections in the order shown, with the file name
// prefixes that belong to each. A file whose prefix is not listed is an
// error, so a new scenario cannot land outside the gallery's sections.
var groups = []struct {
	title    string
	prefixes []string
}{
	{"Getting started", []string{"default"}},
	{"Flavor fungibility (KEP-582)", []string{"fungibility", "kep582", "preference", "resume"}},
	{"Lending limits and cohorts (KEP-1224)", []string{"lending", "hierarchy"}},
	{"Preemption", []string{"preemption"}},
	{"KEP-4378: several preemptors, one target", []string{"kep4378"}},
	{"Placement (ResourcePolicy)", []string{"placement"}},
	{"Queueing and queue status", []string{"queueing", "namespace", "inactive"}},
	{"Pasted cluster states", []string{"pasted"}},
	{"From Kueue's docs", []string{"docs"}},
	// Not in testdata/scenarios: the site build writes
	// scalability-kueue.yaml (scripts/scalability, 15,000 workloads, 5.8 MB)
	// next to the others, outside the service worker's precache bundle.
	{"Real sizes: Kueue's scalability test", []string{"scalability"}},
}

// groupOf returns the group index and title of a file stem.
func groupOf(stem string) (int, string, error) {
	prefix, _, _ := strings.Cut(stem, "-")
	for i, g := range groups {
		if slices.Contains(g.prefixes, prefix) {
			return i, g.title, nil
		}
	}
	var known []string
	for _, g := range groups {
		known = append(known, g.prefixes...)
	}
	return 0, "", fmt.Errorf("%s.yaml: the prefix %q names no gallery group (known: %s; add it to groups in gallery/gallery.go)",
		stem, prefix, strings.Join(known, ", "))
}

// Index decodes every *.yaml file at the root of fsys. Entries come by
// group (in the order of groups), the default scenario first, then by file
// name; a file that does not decode, or whose name fits no group, is an
// error.
func Index(fsys fs.FS) ([]Entry, error) {
	files, err := fs.Glob(fsys, "*.yaml")
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, errors.New("no *.yaml file")
	}
	entries := []Entry{}
	rank := map[string]int{}
	for _, f := range files {
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		sc, err := scenario.Decode(path.Base(f), data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		stem := strings.TrimSuffix(path.Base(f), ".yaml")
		order, group, err := groupOf(stem)
		if err != nil {
			return nil, err
		}
		rank[path.Base(f)] = order
		name := sc.Name
		if name == "" {
			name = stem
		}
		entries = append(entries, Entry{
			File:        path.Base(f),
			Name:        name,
			Group:       group,
			Description: strings.TrimSpace(sc.Description),
		})
	}
	slices.SortStableFunc(entries, func(a, b Entry) int {
		if c := rank[a.File] - rank[b.File]; c != 0 {
			return c
		}
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
