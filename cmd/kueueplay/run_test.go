package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
)

// TestRunWritesTheTrace: for every scenario of the gallery, `run` and
// `run -o json`, which write each step on another goroutine while the
// engine simulates the next ones (overlapped), write the bytes that
// trace.Format and trace.WriteJSON write for the whole trace.
func TestRunWritesTheTrace(t *testing.T) {
	files, err := filepath.Glob("../../testdata/scenarios/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenario (%v)", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".yaml"), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			sc, err := scenario.DecodeFiles([]scenario.Input{{Name: f, Text: string(data)}})
			if err != nil {
				t.Fatal(err)
			}
			tr := sim.Run(sc, sim.Options{})
			for _, c := range []struct {
				format string
				write  func(*bytes.Buffer, *trace.Trace) error
			}{
				{"text", func(b *bytes.Buffer, tr *trace.Trace) error { return trace.Format(b, tr) }},
				{"json", func(b *bytes.Buffer, tr *trace.Trace) error { return trace.WriteJSON(b, tr) }},
				{"summary", func(b *bytes.Buffer, tr *trace.Trace) error { return trace.FormatSummary(b, trace.Summarize(tr)) }},
			} {
				var want, got, stderr bytes.Buffer
				if err := c.write(&want, tr); err != nil {
					t.Fatal(err)
				}
				if code := run([]string{"run", f, "-o", c.format}, nil, &got, &stderr); code != 0 {
					t.Fatalf("run -o %s: exit %d: %s", c.format, code, stderr.String())
				}
				if !bytes.Equal(got.Bytes(), want.Bytes()) {
					t.Errorf("run -o %s wrote %d bytes, not the %d of the whole trace's writer; first difference at byte %d",
						c.format, got.Len(), want.Len(), firstDiff(got.Bytes(), want.Bytes()))
				}
			}
		})
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
