//go:build !js && !wasip1

// Command scalebench measures the kueueplay CLI on Kueue's scheduler
// scalability shape (package internal/scalability) at several sizes:
// `validate` (decoding only), `run` (the text trace) and `run -o json`,
// each as a separate process, reporting the median wall time of -runs
// runs, that run's CPU time (user + system) and peak resident memory
// (getrusage's maxrss), the output's size, and the input's. It is a
// measurement, not a test: `make bench-scale` runs it, and the README
// records what it printed.
//
//	go run ./scripts/scalebench -bin build/scale/kueueplay [-sizes 1500,15000,50000] [-runs 3] [-cycle 100ms] [-dir build/scale]
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/kueueplay/kueueplay/internal/scalability"
)

// counter counts the bytes written to it and keeps the first few hundred.
type counter struct {
	n    int64
	head []byte
}

func (c *counter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	if room := 512 - len(c.head); room > 0 {
		c.head = append(c.head, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// result is one process run.
type result struct {
	wall, cpu time.Duration
	rssKiB    int64
	out       int64
}

func main() {
	bin := flag.String("bin", "", "the kueueplay binary to measure (required)")
	sizes := flag.String("sizes", "1500,15000,50000", "comma-separated workload totals")
	runs := flag.Int("runs", 3, "runs per command; the median wall time is reported")
	dir := flag.String("dir", "build/scale", "where the scenario files are written")
	cycle := flag.Duration("cycle", 100*time.Millisecond, "the scenarios' spec.cycleDuration")
	flag.Parse()
	if *bin == "" || *runs < 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		fail(err)
	}
	fmt.Println("| workloads | input | command | wall (median) | CPU | peak RSS | output |")
	fmt.Println("| ---: | ---: | --- | ---: | ---: | ---: | ---: |")
	for _, s := range strings.Split(*sizes, ",") {
		total, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			fail(fmt.Errorf("-sizes: %w", err))
		}
		file := filepath.Join(*dir, fmt.Sprintf("scalability-%d.yaml", total))
		n, size, err := writeFile(file, total, *cycle)
		if err != nil {
			fail(err)
		}
		for _, args := range [][]string{{"validate", file}, {"run", file}, {"run", "-o", "json", file}} {
			cmd := "kueueplay " + strings.Join(args[:len(args)-1], " ")
			var rs []result
			for range *runs {
				r, err := measure(*bin, args)
				if err != nil {
					fmt.Printf("| %d | %s | `%s` | refused: %v |  |  |  |\n", n, mb(size), cmd, err)
					break
				}
				rs = append(rs, r)
			}
			if len(rs) < *runs {
				continue
			}
			slices.SortFunc(rs, func(a, b result) int { return int(a.wall - b.wall) })
			m := rs[len(rs)/2]
			fmt.Printf("| %d | %s | `%s` | %s | %s | %s | %s |\n", n, mb(size), cmd,
				m.wall.Round(time.Millisecond), m.cpu.Round(time.Millisecond), mb(m.rssKiB<<10), mb(m.out))
		}
	}
}

// writeFile writes the scenario of about total workloads to file.
func writeFile(file string, total int, cycle time.Duration) (int, int64, error) {
	f, err := os.Create(file)
	if err != nil {
		return 0, 0, err
	}
	n, err := scalability.Write(f, total, cycle)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, 0, err
	}
	st, err := os.Stat(file)
	if err != nil {
		return 0, 0, err
	}
	return n, st.Size(), nil
}

// measure runs bin with args once, discarding (and counting) its output.
// A failed run's error carries the first line it wrote to stderr.
func measure(bin string, args []string) (result, error) {
	var out counter
	var stderr strings.Builder
	cmd := exec.Command(bin, args...)
	cmd.Stdout = &out
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		msg := stderr.String()
		if msg == "" {
			msg = string(out.head) // validate reports on stdout
		}
		first, _, _ := strings.Cut(msg, "\n")
		return result{}, fmt.Errorf("%w: %s", err, first)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return result{wall: wall, cpu: cpu, rssKiB: ru.Maxrss, out: out.n}, nil
}

func mb(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "scalebench:", err)
	os.Exit(1)
}
