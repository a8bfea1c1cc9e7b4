// Package kueueplay holds what the module's programs share from the
// repository root: the bundled example scenarios.
package kueueplay

import (
	"embed"
	"io/fs"
)

//go:embed testdata/scenarios/*.yaml
var scenarios embed.FS

// Examples returns the gallery's scenarios (testdata/scenarios/*.yaml) as
// a file system with the files at its root. The HTTP API serves them
// (GET /v1/examples); the CLI's server and the Worker embed them.
func Examples() fs.FS {
	sub, err := fs.Sub(scenarios, "testdata/scenarios")
	if err != nil { // cannot happen: the directory is embedded
		panic(err)
	}
	return sub
}
