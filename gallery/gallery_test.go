package gallery_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kueueplay/kueueplay/gallery"
	"github.com/kueueplay/kueueplay/internal/scalability"
)

func TestIndexScenarios(t *testing.T) {
	dir := filepath.Join("..", "testdata", "scenarios")
	entries, err := gallery.Index(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if len(entries) != len(files) {
		t.Fatalf("%d entries for %d files", len(entries), len(files))
	}
	if e := entries[0]; e.File != "default.yaml" || e.Name != "default" || e.Group != "Getting started" || e.Description == "" {
		t.Errorf("first entry = %+v, want the default scenario with its description", e)
	}
	// Groups are contiguous and in the order of groups; the sections the
	// gallery promises are there.
	seen := map[string]bool{}
	last := ""
	for _, e := range entries {
		if e.Group == "" || e.Name == "" {
			t.Errorf("entry %+v lacks a group or name", e)
		}
		if e.Group != last {
			if seen[e.Group] {
				t.Errorf("group %q is split: %s comes after another group", e.Group, e.File)
			}
			seen[e.Group] = true
			last = e.Group
		}
	}
	for _, g := range []string{"Flavor fungibility (KEP-582)", "Lending limits and cohorts (KEP-1224)", "Preemption", "KEP-4378: several preemptors, one target"} {
		if !seen[g] {
			t.Errorf("no scenario in group %q", g)
		}
	}
}

func TestIndexRejectsUngrouped(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("..", "testdata", "scenarios", "default.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "misc-thing.yaml"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = gallery.Index(os.DirFS(dir))
	if err == nil || !strings.Contains(err.Error(), `misc-thing.yaml: the prefix "misc" names no gallery group`) {
		t.Errorf("Index = %v, want an error naming the file and its prefix", err)
	}
}

func TestIndexRejectsInvalid(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bad-one.yaml"), []byte("kind: ClusterQueue\napiVersion: kueue.x-k8s.io/v1beta2\nmetadata: {name: q}\nspec: {cohort: [}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := gallery.Index(os.DirFS(dir)); err == nil {
		t.Error("Index accepted an invalid scenario")
	}
	if _, err := gallery.Index(os.DirFS(t.TempDir())); err == nil {
		t.Error("Index accepted an empty directory")
	}
}

// The site build adds Kueue's scalability test (scripts/scalability) to
// the gallery's files; it must land in its own group, after the others,
// with the scenario's name and description.
func TestIndexScalability(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"default.yaml", "docs-cluster-queue-borrowing.yaml"} {
		src, err := os.ReadFile(filepath.Join("..", "testdata", "scenarios", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Create(filepath.Join(dir, "scalability-kueue.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	n, err := scalability.Write(f, 60, 100*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	entries, err := gallery.Index(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	last := entries[len(entries)-1]
	if last.File != "scalability-kueue.yaml" || last.Group != "Real sizes: Kueue's scalability test" || last.Name != fmt.Sprintf("scalability-baseline-%d", n) || !strings.Contains(last.Description, "Kueue's scheduler scalability test") {
		t.Errorf("last entry = %+v, want scalability-kueue.yaml in the real-size group with its name and description", last)
	}
}
