package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/kueueplay/kueueplay/core/scenario"
)

// stdinName names standard input in positions.
const stdinName = "<stdin>"

// manifestExt reports whether a file found in a directory is read: the
// extensions `kubectl apply -f DIR` reads.
func manifestExt(name string) bool {
	switch filepath.Ext(name) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// expand turns the FILE arguments of run and validate into the files to
// read, in order. A file named on the command line is read whatever its
// extension; a directory gives its *.yaml, *.yml and *.json files in
// lexical order, and with recursive those of its subdirectories too, in
// the order filepath.WalkDir visits them (as `kubectl apply -R -f DIR`).
// "-" is standard input.
func expand(args []string, recursive bool) ([]string, error) {
	var out []string
	for _, a := range args {
		if a == "-" {
			out = append(out, a)
			continue
		}
		info, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			out = append(out, a)
			continue
		}
		n, skipped := len(out), false
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if p != a && !recursive {
					skipped = true
					return filepath.SkipDir
				}
				return nil
			}
			if manifestExt(p) {
				out = append(out, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(out) == n {
			hint := ""
			if skipped {
				hint = " (-R reads its subdirectories)"
			}
			return nil, fmt.Errorf("%s: no .yaml, .yml or .json file in this directory%s", a, hint)
		}
	}
	return out, nil
}

// readInputs reads the files ("-" is stdin) within scenario.MaxInputBytes
// in total: a regular file too large is refused from its size, and no
// file or stream is read more than one byte past what is left of the
// bound, so an endless stdin cannot exhaust memory.
func readInputs(files []string, stdin io.Reader) ([]scenario.Input, error) {
	inputs := make([]scenario.Input, 0, len(files))
	left := int64(scenario.MaxInputBytes)
	for _, f := range files {
		in, err := readInput(f, stdin, left, len(files) > 1)
		if err != nil {
			return nil, err
		}
		left -= int64(len(in.Text))
		inputs = append(inputs, in)
	}
	return inputs, nil
}

// readInput reads one file, or stdin for "-", of at most left bytes.
func readInput(f string, stdin io.Reader, left int64, several bool) (scenario.Input, error) {
	tooLarge := func(name string, total int64) error {
		if !several {
			return scenario.TooLarge(name, total)
		}
		return scenario.TooLargeTotal(name, total)
	}
	name, r := stdinName, stdin
	// The input is read into a string, which the decoder decodes without
	// a copy (scenario.Input.Text); a regular file's string is allocated
	// once, at its size.
	var b strings.Builder
	if f != "-" {
		file, err := os.Open(f)
		if err != nil {
			return scenario.Input{}, err
		}
		defer file.Close()
		if st, err := file.Stat(); err == nil && st.Mode().IsRegular() {
			if st.Size() > left {
				return scenario.Input{}, tooLarge(f, scenario.MaxInputBytes-left+st.Size())
			}
			b.Grow(int(st.Size()))
		}
		name, r = f, file
	}
	if _, err := io.Copy(&b, io.LimitReader(r, left+1)); err != nil {
		return scenario.Input{}, fmt.Errorf("%s: %w", name, err)
	}
	if int64(b.Len()) > left {
		return scenario.Input{}, tooLarge(name, -1)
	}
	return scenario.Input{Name: name, Text: b.String()}, nil
}
