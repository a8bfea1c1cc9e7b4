// Command scalebench measures the kueueplay CLI on Kueue's scheduler
// scalability shape (package internal/scalability) at several sizes:
// `validate` (decoding only), `run` (the text trace) and `run -o json`,
// each as a separate process, reporting the median wall time of -runs
// runs, that run's CPU time (user + system) and peak resident memory
// (getrusage's maxrss), the output's size, and the input's. It is a
// measurement, not a test: `make bench-scale` runs it, and the README
// records what it printed.
//
//	go run ./scripts/scalebench -bin build/scale/kueueplay [-sizes 1500,15000,50000] [-runs 3] [-dir build/scale]
package main

import (
	"flag"
	"fmt"
	"io"
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

// counter counts the bytes written to it.
type counter int64

func (c *counter) Write(p []byte) (int, error) { *c += counter(len(p)); return len(p), nil }

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
		n, size, err := writeFile(file, total)
		if err != nil {
			fail(err)
		}
		for _, args := range [][]string{{"validate", file}, {"run", file}, {"run", "-o", "json", file}} {
			var rs []result
			for range *runs {
				r, err := measure(*bin, args)
				if err != nil {
					fail(fmt.Errorf("%s %s: %w", *bin, strings.Join(args, " "), err))
				}
				rs = append(rs, r)
			}
			slices.SortFunc(rs, func(a, b result) int { return int(a.wall - b.wall) })
			m := rs[len(rs)/2]
			cmd := "kueueplay " + strings.Join(args[:len(args)-1], " ")
			fmt.Printf("| %d | %s | `%s` | %s | %s | %s | %s |\n", n, mb(size), cmd,
				m.wall.Round(time.Millisecond), m.cpu.Round(time.Millisecond), mb(m.rssKiB<<10), mb(m.out))
		}
	}
}

// writeFile writes the scenario of about total workloads to file.
func writeFile(file string, total int) (int, int64, error) {
	f, err := os.Create(file)
	if err != nil {
		return 0, 0, err
	}
	n, err := scalability.Write(f, total)
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
func measure(bin string, args []string) (result, error) {
	var out counter
	cmd := exec.Command(bin, args...)
	cmd.Stdout = &out
	cmd.Stderr = io.Discard
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return result{}, err
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return result{wall: wall, cpu: cpu, rssKiB: ru.Maxrss, out: int64(out)}, nil
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
