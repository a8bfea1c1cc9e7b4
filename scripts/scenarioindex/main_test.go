package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestIndexScenarios(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "scenarios")
	entries, err := Index(dir)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if len(entries) != len(files) {
		t.Fatalf("%d entries for %d files", len(entries), len(files))
	}
	if e := entries[0]; e.File != "default.yaml" || e.Name != "default" || e.Group != "default" || e.Description == "" {
		t.Errorf("first entry = %+v, want the default scenario with its description", e)
	}
	for _, e := range entries {
		if e.Group == "" || e.Name == "" {
			t.Errorf("entry %+v lacks a group or name", e)
		}
	}
}

func TestIndexRejectsInvalid(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bad-one.yaml"), []byte("kind: ClusterQueue\napiVersion: kueue.x-k8s.io/v1beta2\nmetadata: {name: q}\nspec: {cohort: [}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Index(dir); err == nil {
		t.Error("Index accepted an invalid scenario")
	}
	if _, err := Index(t.TempDir()); err == nil {
		t.Error("Index accepted an empty directory")
	}
}
