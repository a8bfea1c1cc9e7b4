// Command conform compares the playground's engine with Kueue v0.16.1 on
// scenario files, step by step (see package conformance).
//
//	GOWORK=$PWD/../build/conformance/workspace/go.work go run ./cmd/conform [-v] [-kueue-log N] FILE...
//
// (make conformance-kueue writes that workspace: see cmd/patchkueue.)
package main

import (
	"flag"
	"fmt"
	"github.com/go-logr/logr/funcr"
	"os"

	"github.com/kueueplay/kueueplay/conformance"
	"github.com/kueueplay/kueueplay/scenariotest"
)

func main() {
	verbose := flag.Bool("v", false, "print every step: the engine's events and decisions, and both sides' view of every workload")
	kueueLog := flag.Int("kueue-log", -1, "print Kueue's own logs up to this verbosity")
	flag.Parse()
	if *kueueLog >= 0 {
		conformance.KueueLogger = funcr.New(func(prefix, args string) { fmt.Println("  kueue:", prefix, args) }, funcr.Options{Verbosity: *kueueLog})
	}
	failed := 0
	for _, file := range flag.Args() {
		sc, err := scenariotest.Load(file)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		var res *conformance.Result
		if *verbose {
			res, err = conformance.RunWithLog(sc, os.Stdout)
		} else {
			res, err = conformance.Run(sc)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", file, err)
			os.Exit(2)
		}
		if !res.Agreed() {
			failed++
			fmt.Print(res.Report(file))
			continue
		}
		fmt.Printf("%s: agreed (%d steps, %d cycles)\n", file, res.Steps, res.Cycles)
	}
	if failed > 0 {
		os.Exit(1)
	}
}
