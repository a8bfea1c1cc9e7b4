// Command kueueplay runs, tests and validates kueueplay scenario files.
//
//	kueueplay run FILE [-o text|json] [-gate Name=true]...
//	kueueplay test PATH...
//	kueueplay validate FILE...
//	kueueplay serve [-addr localhost:8080] [-dir build/site] [-shares build/shares]
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/check"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
	"github.com/kueueplay/kueueplay/scenariotest"
)

const usage = `kueueplay: a playground for Kueue's scheduler

Usage:
  kueueplay run FILE [-o text|json] [-gate Name=true|false]...
      Simulate a scenario and print its trace.
  kueueplay test PATH...
      Check the expectations of every scenario file (directories are
      searched recursively for *.yaml). Exits 0 only if all pass.
  kueueplay validate FILE...
      Report problems as file:line:col: message.
  kueueplay serve [-addr localhost:8080] [-dir build/site] [-shares build/shares]
      Serve the browser playground that make site builds, and the HTTP
      API under /v1/ (short links are kept in the -shares directory).
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "run":
		return cmdRun(args[1:], stdout, stderr)
	case "test":
		return cmdTest(args[1:], stdout, stderr)
	case "validate":
		return cmdValidate(args[1:], stdout, stderr)
	case "serve":
		return cmdServe(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "kueueplay: unknown command %q\n\n%s", args[0], usage)
	return 2
}

// gateFlags collects -gate Name=bool values.
type gateFlags core.FeatureGates

func (g gateFlags) String() string { return "" }

func (g gateFlags) Set(v string) error {
	name, val, ok := strings.Cut(v, "=")
	if !ok {
		val = "true"
	}
	if err := core.ValidateGateName(name); err != nil {
		return err
	}
	b, err := strconv.ParseBool(val)
	if err != nil {
		return fmt.Errorf("gate %s: %q is not a boolean", name, val)
	}
	g[name] = b
	return nil
}

// interleave lets flags follow positional arguments (run FILE -o json).
func interleave(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) > 0 {
			pos = append(pos, args[0])
			args = args[1:]
		}
	}
	return pos, nil
}

func cmdRun(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "text", "output format: text or json")
	gates := gateFlags{}
	fs.Var(gates, "gate", "override a feature gate: Name=true|false (repeatable)")
	files, err := interleave(fs, args)
	if err != nil {
		return 2
	}
	if len(files) != 1 {
		fmt.Fprintln(stderr, "kueueplay run: exactly one FILE is needed")
		return 2
	}
	if *out != "text" && *out != "json" {
		fmt.Fprintf(stderr, "kueueplay run: -o must be text or json, not %q\n", *out)
		return 2
	}
	sc, err := scenariotest.Load(files[0])
	if err != nil {
		printError(stderr, err)
		return 1
	}
	for _, w := range sc.Warnings {
		fmt.Fprintln(stderr, w.String())
	}
	for _, name := range slices.Sorted(maps.Keys(gates)) {
		if note := core.GateNote(name, gates[name]); note != "" {
			fmt.Fprintf(stderr, "-gate %s=%t: warning: %s\n", name, gates[name], note)
		}
	}
	tr := sim.Run(sc, sim.Options{Gates: core.FeatureGates(gates)})
	if *out == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(tr); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
	} else if err := trace.Format(stdout, tr); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if tr.End == "maxCycles" {
		fmt.Fprintf(stderr, "kueueplay run: stopped after spec.maxCycles=%d cycles; the trace is truncated\n", tr.Cycles)
	}
	return 0
}

func cmdTest(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "kueueplay test: at least one PATH is needed")
		return 2
	}
	var files []string
	for _, a := range args {
		fs, err := scenariotest.Files(a)
		if err != nil {
			fmt.Fprintf(stderr, "kueueplay test: %v\n", err)
			return 2
		}
		files = append(files, fs...)
	}
	passed, failed := 0, 0
	for _, f := range files {
		sc, err := scenariotest.Load(f)
		if err != nil {
			failed++
			fmt.Fprintf(stdout, "FAIL %s\n", f)
			printError(stdout, err)
			continue
		}
		if len(sc.Expect) == 0 {
			continue // not a case
		}
		res := check.Run(sc, nil)
		if len(res.Failures) == 0 {
			passed++
			fmt.Fprintf(stdout, "PASS %s\n", f)
			continue
		}
		failed++
		fmt.Fprintf(stdout, "FAIL %s\n", f)
		for _, fl := range res.Failures {
			fmt.Fprintf(stdout, "    %s\n", strings.ReplaceAll(fl.String(), "\n", "\n    "))
		}
	}
	fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failed)
	if failed > 0 || passed == 0 {
		if passed == 0 && failed == 0 {
			fmt.Fprintln(stderr, "kueueplay test: no scenario with spec.expect found")
		}
		return 1
	}
	return 0
}

func cmdValidate(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "kueueplay validate: at least one FILE is needed")
		return 2
	}
	bad := false
	for _, f := range args {
		sc, err := scenariotest.Load(f)
		if err != nil {
			bad = true
			printError(stdout, err)
			continue
		}
		for _, w := range sc.Warnings {
			fmt.Fprintln(stdout, w.String())
		}
	}
	if bad {
		return 1
	}
	return 0
}

func printError(w io.Writer, err error) {
	var de *core.DiagnosticsError
	if errors.As(err, &de) {
		for _, d := range de.Diagnostics {
			fmt.Fprintln(w, d.String())
		}
		return
	}
	fmt.Fprintln(w, err)
}
