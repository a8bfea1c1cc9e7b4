// Command dump writes every case of the hostile-input suite to a folder,
// with a manifest.json describing them, for the browser test (e2e test
// "hostile"), which cannot run the Go generators itself:
//
//	go run ./internal/hostile/dump -out build/e2e/hostile
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/kueueplay/kueueplay/internal/hostile"
)

// entry is one case in manifest.json.
type entry struct {
	Name  string `json:"name"`
	About string `json:"about"`
	File  string `json:"file"`
	Bytes int    `json:"bytes"`
	Error string `json:"error,omitempty"`
	At    string `json:"at,omitempty"`
	End   string `json:"end,omitempty"`
}

func main() {
	out := flag.String("out", "build/e2e/hostile", "the folder to write")
	src := flag.String("testdata", "testdata/hostile", "the suite's static files")
	flag.Parse()
	if err := dump(*out, *src); err != nil {
		fmt.Fprintln(os.Stderr, "dump:", err)
		os.Exit(1)
	}
}

func dump(out, src string) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	var manifest []entry
	for _, c := range hostile.Cases() {
		data, err := c.Input(src)
		if err != nil {
			return err
		}
		file := c.Name + ".yaml"
		if err := os.WriteFile(filepath.Join(out, file), data, 0o644); err != nil {
			return err
		}
		manifest = append(manifest, entry{Name: c.Name, About: c.About, File: file, Bytes: len(data), Error: c.Error, At: c.At, End: c.End})
	}
	data, err := json.MarshalIndent(manifest, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "manifest.json"), append(data, '\n'), 0o644)
}
