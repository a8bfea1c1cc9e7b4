package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kueueplay/kueueplay/internal/hostile"
)

// TestHostile runs every case of the hostile-input suite through the
// built CLI, `run` and `validate`, each as its own process: it must exit
// with a clear first error at the stated position (or run, and report a
// cut-short run on stderr), never panic, never write a control character
// other than newline and tab, and stay within hostile.CLISeconds and
// hostile.CLIMaxRSSMiB.
func TestHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the CLI and feeds it 60 MB of hostile input")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "kueueplay")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("building the CLI: %v\n%s", err, out)
	}
	for _, c := range hostile.Cases() {
		t.Run(c.Name, func(t *testing.T) {
			data, err := c.Input(filepath.Join("..", "..", "testdata", "hostile"))
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(dir, c.Name+".yaml")
			if err := os.WriteFile(file, data, 0o644); err != nil {
				t.Fatal(err)
			}
			defer os.Remove(file)
			for _, cmd := range []string{"run", "validate"} {
				stdout, stderr, code, took, rss := runBounded(t, bin, cmd, file)
				t.Logf("%s: exit %d in %v, max RSS %d MiB, %d bytes out", cmd, code, took.Round(time.Millisecond), rss>>20, len(stdout))
				for name, out := range map[string][]byte{"stdout": stdout, "stderr": stderr} {
					if i := bytes.IndexFunc(out, func(r rune) bool { return r < 0x20 && r != '\n' && r != '\t' || r == 0x7f }); i >= 0 {
						t.Errorf("%s %s wrote a control character to %s: %q", cmd, c.Name, name, out[max(0, i-40):min(len(out), i+40)])
					}
				}
				if bytes.Contains(stderr, []byte("panic")) || bytes.Contains(stderr, []byte("goroutine ")) {
					t.Fatalf("%s panicked:\n%s", cmd, stderr)
				}
				if took > hostile.CLISeconds*time.Second {
					t.Errorf("%s took %v, above the bound of %ds", cmd, took, hostile.CLISeconds)
				}
				if rss > hostile.CLIMaxRSSMiB<<20 {
					t.Errorf("%s used %d MiB, above the bound of %d MiB", cmd, rss>>20, hostile.CLIMaxRSSMiB)
				}
				if c.Error != "" {
					report := string(stderr)
					if cmd == "validate" {
						report = string(stdout) // validate reports on stdout
					}
					if code != 1 || !hasError(report, file+":"+c.At+":", c.Error) {
						t.Errorf("%s: exit %d, errors:\n%s\nwant exit 1 and an error at %s:%s containing %q", cmd, code, head(report, 10), file, c.At, c.Error)
					}
					continue
				}
				if code != 0 {
					t.Errorf("%s: exit %d, want 0; stderr:\n%s", cmd, code, stderr)
				}
				if cmd != "run" {
					continue
				}
				if !bytes.Contains(stdout, []byte("# end "+c.End+" ")) {
					t.Errorf("the trace does not end %q: ...%s", c.End, stdout[max(0, len(stdout)-300):])
				}
				if cut := bytes.Contains(stderr, []byte("the trace is truncated")); cut != (c.End == "maxCycles") {
					t.Errorf("stderr reports a truncation: %t, want %t:\n%s", cut, c.End == "maxCycles", stderr)
				}
			}
		})
	}
}

// runBounded runs the CLI with a hard deadline of twice the bound, and
// returns its output, exit code, wall time and peak RSS in bytes. The
// peak is the child's VmHWM, read from /proc every 5 ms until it exits:
// rusage's ru_maxrss would not do, as a child started by a Go program
// inherits the high-water mark of the parent's memory at exec.
func runBounded(t *testing.T, bin string, args ...string) (stdout, stderr []byte, code int, took time.Duration, rss int64) {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	peak := make(chan int64)
	go func() {
		var hwm int64
		status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
		for {
			if data, err := os.ReadFile(status); err == nil {
				for _, line := range strings.Split(string(data), "\n") {
					if kb, ok := strings.CutPrefix(line, "VmHWM:"); ok {
						if v, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")), 10, 64); err == nil {
							hwm = max(hwm, v<<10)
						}
					}
				}
			}
			select {
			case <-done:
				peak <- hwm
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	timer := time.AfterFunc(2*hostile.CLISeconds*time.Second, func() { cmd.Process.Kill() })
	err := cmd.Wait()
	timer.Stop()
	close(done)
	rss = <-peak
	took = time.Since(start)
	code = cmd.ProcessState.ExitCode()
	if err != nil && code < 0 {
		t.Fatalf("%v: %v (killed after %v)", args, err, took)
	}
	return out.Bytes(), errOut.Bytes(), code, took, rss
}

// hasError reports whether report has an error line (not a warning)
// starting with at and containing msg.
func hasError(report, at, msg string) bool {
	for _, line := range strings.Split(report, "\n") {
		if strings.HasPrefix(line, at) && !strings.HasPrefix(line, at+" warning: ") && strings.Contains(line, msg) {
			return true
		}
	}
	return false
}

// head returns the first n lines of s, each cut at 300 bytes.
func head(s string, n int) string {
	lines := strings.Split(s, "\n")
	for i := range lines {
		lines[i] = lines[i][:min(len(lines[i]), 300)]
	}
	return strings.Join(lines[:min(n, len(lines))], "\n")
}
