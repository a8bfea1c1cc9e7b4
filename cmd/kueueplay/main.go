// Command kueueplay runs, tests and validates kueueplay scenario files.
//
//	kueueplay run FILE... [-R] [-o text|json|summary] [-gate Name=true]...
//	kueueplay test PATH...
//	kueueplay validate FILE... [-R]
//	kueueplay serve [-addr localhost:8080] [-dir build/site] [-shares build/shares] [-limits paid]
//
// The FILEs of run and validate form one scenario; see usage.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/check"
	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
	"github.com/kueueplay/kueueplay/scenariotest"
)

const usage = `kueueplay: a playground for Kueue's scheduler

Usage:
  kueueplay run FILE... [-R] [-o text|json|summary] [-gate Name=true|false]...
      Simulate the scenario the FILEs form and print its trace (-o json:
      on one line) or its summary; warnings go to stderr, and with
      -o json into the trace's "warnings" too.
  kueueplay test PATH...
      Check the expectations of every scenario file, each one a scenario
      of its own (directories are searched recursively for *.yaml and
      *.yml). Exits 0 only if all pass.
  kueueplay validate FILE... [-R]
      Report the problems of the scenario the FILEs form as
      file:line:col: message. Exits 1 if there is an error.
  kueueplay serve [-addr localhost:8080] [-dir build/site] [-shares build/shares] [-limits paid]
      Serve the browser playground that make site builds, and the HTTP
      API under /v1/ (short links are kept in the -shares directory;
      -limits free|paid[,body=N,objects=N,cycles=N,work=N] bounds each
      request, paid by default).

FILE is a YAML or JSON file (several documents, or a kind: List as
kubectl get -o yaml or -o json prints), - for standard input (<stdin> in
messages), or a directory: its *.yaml, *.yml and *.json files in lexical
order, and with -R those of its subdirectories too, as kubectl apply -f
reads them. The FILEs of one command form ONE scenario, as if they were
one stream in the order given: a LocalQueue in one may name a
ClusterQueue in another, an object in two of them is a duplicate, at most
one holds the Scenario object, and the bounds (32 MiB, 60,000 objects)
apply to them together. Every message names its own file:line:col.
`

func main() {
	if len(os.Args) > 1 && os.Args[1] == "run" && os.Getenv("GOGC") == "" {
		// Most of what a run allocates lives to its end (the decoded
		// scenario, the engine's state and slabs): collecting at every
		// doubling of the heap marks it again and again for little.
		// Four times the live heap between collections takes a tenth
		// of the instructions off the 15,000-workload run (callgrind)
		// for 10 MB more peak RSS (59 MB), and changes nothing
		// measurable at 50,000 workloads (126 MB, mostly live).
		debug.SetGCPercent(runGCPercent)
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// runGCPercent is the collector's GOGC for kueueplay run (main), unless
// the environment sets one.
const runGCPercent = 400

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "run":
		return cmdRun(args[1:], stdin, stdout, stderr)
	case "test":
		return cmdTest(args[1:], stdout, stderr)
	case "validate":
		return cmdValidate(args[1:], stdin, stdout, stderr)
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
// A lone "-" (standard input) is a positional argument.
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

func cmdRun(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "text", "output format: text (the trace), json (the trace) or summary (times to admission and usage over the run, as Kueue's scalability checker reports them)")
	recursive := fs.Bool("R", false, "read the subdirectories of directory FILEs too")
	gates := gateFlags{}
	fs.Var(gates, "gate", "override a feature gate: Name=true|false (repeatable)")
	files, err := interleave(fs, args)
	if err != nil {
		return 2
	}
	if *out != "text" && *out != "json" && *out != "summary" {
		fmt.Fprintf(stderr, "kueueplay run: -o must be text, json or summary, not %q\n", *out)
		return 2
	}
	sc, code := load("run", files, *recursive, stdin, stderr, stderr)
	if sc == nil {
		return code
	}
	for _, w := range sc.Warnings {
		fmt.Fprintln(stderr, w.String())
	}
	for _, name := range slices.Sorted(maps.Keys(gates)) {
		if note := core.GateNote(name, gates[name]); note != "" {
			fmt.Fprintf(stderr, "-gate %s=%t: warning: %s\n", name, gates[name], note)
		}
	}
	opts := sim.Options{Gates: core.FeatureGates(gates)}
	var tr *trace.Trace
	switch *out {
	case "json":
		// Compact (a 15,000-workload trace is 1.6 times larger
		// indented: pipe it through jq to read it), and written step by
		// step as the run goes, never held whole.
		jw := trace.NewJSONWriter(stdout)
		var wait func()
		opts.Sink, wait = overlapped(jw.Step)
		tr = sim.Run(sc, opts)
		wait()
		err = jw.Close(tr)
	case "summary":
		// Summarized as the run goes, the trace never held.
		z := trace.NewSummarizer()
		opts.NoQueues = true // the summary reads no queue
		var wait func()
		opts.Sink, wait = overlapped(z.Step)
		tr = sim.Run(sc, opts)
		wait()
		err = trace.FormatSummary(stdout, z.Summary(tr))
	default:
		f := trace.NewFormatter(stdout)
		opts.NoQueues = true // the text prints usage, not queues
		var wait func()
		opts.Sink, wait = overlapped(f.Step)
		tr = sim.Run(sc, opts)
		wait()
		err = f.Close(tr)
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if tr.End == "maxCycles" {
		fmt.Fprintf(stderr, "kueueplay run: stopped after spec.maxCycles=%d cycles; the trace is truncated\n", tr.Cycles)
	}
	return 0
}

// overlapped returns a sink that hands each step to write on another
// goroutine, so that writing the trace overlaps simulating it (on a
// second core: the writer is a third to a half of a large run's CPU
// after the simulation), and a wait that returns once every step handed
// over is written. The engine never changes a step it has handed to its
// sink (without a sink the trace keeps them all), so the writer may read
// it late; write sees the steps in order, as Sink gives them.
func overlapped(write func(*trace.Trace, *trace.Step)) (sink func(*trace.Trace, *trace.Step), wait func()) {
	type handed struct {
		tr *trace.Trace
		st *trace.Step
	}
	ch := make(chan handed, 256)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for h := range ch {
			write(h.tr, h.st)
		}
	}()
	return func(tr *trace.Trace, st *trace.Step) { ch <- handed{tr, st} }, func() { close(ch); <-done }
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

func cmdValidate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	recursive := fs.Bool("R", false, "read the subdirectories of directory FILEs too")
	files, err := interleave(fs, args)
	if err != nil {
		return 2
	}
	sc, code := load("validate", files, *recursive, stdin, stdout, stderr)
	if sc == nil {
		return code
	}
	for _, w := range sc.Warnings {
		fmt.Fprintln(stdout, w.String())
	}
	return 0
}

// load reads the FILE arguments of cmd as one scenario. On failure it
// returns nil and the exit code: 2 for a usage problem (reported on
// stderr), 1 when a file cannot be read or the scenario has an error
// (every diagnostic is written to diagOut).
func load(cmd string, args []string, recursive bool, stdin io.Reader, diagOut, stderr io.Writer) (*core.Scenario, int) {
	if len(args) == 0 {
		fmt.Fprintf(stderr, "kueueplay %s: at least one FILE is needed (- for standard input)\n", cmd)
		return nil, 2
	}
	if i := slices.Index(args, "-"); i >= 0 && slices.Contains(args[i+1:], "-") {
		fmt.Fprintf(stderr, "kueueplay %s: - (standard input) can be given only once\n", cmd)
		return nil, 2
	}
	files, err := expand(args, recursive)
	if err != nil {
		fmt.Fprintf(stderr, "kueueplay %s: %v\n", cmd, err)
		return nil, 1
	}
	inputs, err := readInputs(files, stdin)
	if err == nil {
		var sc *core.Scenario
		if sc, err = scenario.DecodeFiles(inputs); err == nil {
			return sc, 0
		}
	}
	printError(diagOut, err)
	return nil, 1
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
