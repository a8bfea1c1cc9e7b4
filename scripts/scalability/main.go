// Command scalability writes Kueue v0.16.1's scheduler scalability test
// as a kueueplay scenario file (see package internal/scalability).
//
//	go run ./scripts/scalability [-workloads N] [-cycle 100ms] [-o FILE]
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/kueueplay/kueueplay/internal/scalability"
)

func main() {
	total := flag.Int("workloads", scalability.Baseline, "total number of workloads; each class's count per ClusterQueue scales in proportion to Kueue's 15,000")
	out := flag.String("o", "", "write the scenario to `FILE` instead of stdout")
	cycle := flag.Duration("cycle", 100*time.Millisecond, "spec.cycleDuration")
	flag.Parse()
	if *total < 1 || *total > 60000 {
		fmt.Fprintln(os.Stderr, "scalability: -workloads must be between 1 and 60000 (the decoder's MaxObjects bound)")
		os.Exit(2)
	}
	w := io.Writer(os.Stdout)
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "scalability:", err)
			os.Exit(1)
		}
		defer f.Close()
		w = f
	}
	if _, err := scalability.Write(w, *total, *cycle); err != nil {
		fmt.Fprintln(os.Stderr, "scalability:", err)
		os.Exit(1)
	}
}
