// Package scripts holds the tests of the repository's shell scripts.
package scripts

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeGo stands in for the go command in fuzz.sh: `test -list` names one
// target, and each fuzzing run prints what the case's outputs say, one run
// after the other (the last one repeats), counting the runs in a file.
const fakeGo = `#!/usr/bin/env bash
if [[ "$2" == "-list" ]]; then echo FuzzX; echo "ok example.com/p 0.1s"; exit 0; fi
n=$(cat "$RUNS" 2>/dev/null || echo 0); echo $((n+1)) > "$RUNS"
out="$FAKE_DIR/run$n"; [[ -f $out ]] || out="$FAKE_DIR/last"
cat "$out"; grep -q '^PASS$' "$out"
`

const (
	pass = "PASS\n"
	// race is Go 1.26's coordinator racing its -fuzztime deadline.
	race = "--- FAIL: FuzzX (5.03s)\n    context deadline exceeded\nFAIL\n"
	// found is a real finding.
	found = "--- FAIL: FuzzX (1.00s)\n    x_test.go:12: boom\n    Failing input written to testdata/fuzz/FuzzX/abc\n    context deadline exceeded\nFAIL\n"
)

// TestFuzzRetriesTheDeadlineRace checks that fuzz.sh runs a target once
// more only when it failed by the deadline race alone.
func TestFuzzRetriesTheDeadlineRace(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	tests := []struct {
		name     string
		runs     []string // what each run prints; the last repeats
		wantOK   bool
		wantRuns string
	}{
		{name: "a pass runs once", runs: []string{pass}, wantOK: true, wantRuns: "1"},
		{name: "the race, then a pass", runs: []string{race, pass}, wantOK: true, wantRuns: "2"},
		{name: "the race twice fails", runs: []string{race}, wantOK: false, wantRuns: "2"},
		{name: "a finding fails at once", runs: []string{found, pass}, wantOK: false, wantRuns: "1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			goCmd := filepath.Join(dir, "go")
			if err := os.WriteFile(goCmd, []byte(fakeGo), 0o755); err != nil {
				t.Fatal(err)
			}
			for i, out := range tt.runs {
				name := "run" + string(rune('0'+i))
				if i == len(tt.runs)-1 {
					name = "last"
				}
				if err := os.WriteFile(filepath.Join(dir, name), []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			runs := filepath.Join(dir, "runs")
			cmd := exec.Command("bash", "fuzz.sh")
			cmd.Env = append(os.Environ(), "GO="+goCmd, "FAKE_DIR="+dir, "RUNS="+runs, "FUZZTIME=1s")
			out, err := cmd.CombinedOutput()
			if ok := err == nil; ok != tt.wantOK {
				t.Errorf("fuzz.sh succeeded: %v, want %v; its output:\n%s", ok, tt.wantOK, out)
			}
			got, _ := os.ReadFile(runs)
			if n := strings.TrimSpace(string(got)); n != tt.wantRuns {
				t.Errorf("the target ran %s times, want %s; fuzz.sh's output:\n%s", n, tt.wantRuns, out)
			}
		})
	}
}
