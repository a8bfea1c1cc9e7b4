package conformance

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
	"github.com/kueueplay/kueueplay/internal/scalability"
)

var (
	benchSizes     = flag.String("kueue-sizes", "1500", "comma-separated workload counts BenchmarkKueueScalability runs Kueue's scalability shape at")
	benchMaxCycles = flag.Int("kueue-max-cycles", 0, "if positive, BenchmarkKueueScalability compares the two sides over the first this many cycles only (and says so)")
)

// BenchmarkKueueScalability runs Kueue v0.16.1's scheduler scalability
// shape (internal/scalability, 100ms cycles) at each -kueue-sizes total,
// on both sides, every iteration:
//
//   - Kueue's real scheduler through the harness (runLarge), which
//     compares the two after every step and drives Kueue for as long as
//     they agree. Only Kueue's own work is timed (KueueTiming): each
//     schedule call, the part of it spent in the fake API client, and
//     the admission patches Kueue starts from it; the garbage collector
//     runs before each call. The harness's arrivals, informer and
//     workload controller, the engine run that drives it, the invariant
//     checks and the comparisons are not timed.
//   - the playground's engine alone: sim.Run with the gates the harness
//     gives it, trace included, as the CLI and the page run it (one State
//     stepped in place, the steps seen through Stop), its steps timed from the end of the
//     initial step (sim.New and the initial step are not timed, as
//     building Kueue's cache is not) through the last step the harness
//     compared, and the whole run on its own.
//
// So both sides are timed over the same cycles, all of them when they
// agree throughout. A disagreement is logged in full (the comparison's
// report) and shows as compared-cycles < cycles. -kueue-max-cycles N
// stops the comparison at cycle N (logged, and compared-cycles < cycles
// as well). The harness writes a progress line to stderr every 10 s.
//
// Metrics are medians over the iterations (run with -benchtime Nx):
//
//	kueue-ns/cycle        (schedule calls - their fake-client time) / Kueue's cycles
//	engine-ns/cycle       the engine's steps over the same cycles / those cycles
//	engine/kueue          engine-ns/cycle / kueue-ns/cycle
//	engine-cycle-ns/cycle of engine-ns/cycle, the steps that run a cycle
//	                      (each with the trace compaction of the step
//	                      before), leaving out those that apply events
//	kueue-call-ns/cycle   the schedule calls' whole wall time / Kueue's cycles
//	kueue-admit-ns/cycle  the admission patches' wall time / Kueue's cycles
//	engine-run-ns/cycle   the whole sim.Run (New included) / all its cycles
//	compared-cycles       the cycles both sides ran in agreement
//	cycles                the engine's cycles in the whole run
//
// ns/op is everything in an iteration, the harness included.
func BenchmarkKueueScalability(b *testing.B) {
	sizes, err := parseSizes(*benchSizes)
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range sizes {
		b.Run(fmt.Sprintf("workloads=%d", n), func(b *testing.B) { benchScalability(b, n) })
	}
}

func parseSizes(s string) ([]int, error) {
	var sizes []int
	for f := range strings.SplitSeq(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-kueue-sizes: %q is not a positive workload count", f)
		}
		sizes = append(sizes, n)
	}
	return sizes, nil
}

func benchScalability(b *testing.B, total int) {
	var buf bytes.Buffer
	n, err := scalability.Write(&buf, total, 100*time.Millisecond)
	if err != nil {
		b.Fatal(err)
	}
	file := fmt.Sprintf("scalability-%d.yaml", n)
	data := buf.Bytes()
	decode := func() *core.Scenario {
		sc, err := scenario.Decode(file, data)
		if err != nil {
			b.Fatal(err)
		}
		return sc
	}
	var kueue, engine, engineCycles, call, admit, engineRun []float64
	compared, cycles := 0, 0
	logged, bounded := false, false
	for b.Loop() {
		// Kueue through the harness, compared with the engine.
		runtime.GC()
		res, err := runLarge(decode(), runOptions{noGCInCycle: true, maxCycles: *benchMaxCycles,
			progress: os.Stderr, label: b.Name() + ": "})
		if err != nil {
			b.Fatalf("%s: %v", file, err)
		}
		if res.Bounded && !bounded {
			b.Logf("-kueue-max-cycles %d: stopped comparing at cycle %d", *benchMaxCycles, res.Cycles)
			bounded = true
		}
		if !res.Agreed() && !logged {
			b.Logf("compared for %d of the engine's steps (%d cycles), then:\n%s", res.Steps, res.KueueCycles, res.Report(file))
			logged = true
		}
		if res.KueueCycles != res.Cycles || res.KueueCycles == 0 {
			b.Fatalf("%s: Kueue ran %d cycles where the engine ran %d", file, res.KueueCycles, res.Cycles)
		}

		// The engine alone. at[i] is when step i's Observe ran.
		sc := decode()
		gates, _ := Gates(sc)
		var at []time.Time
		var stepCycle []int
		var isCycle []bool
		// Stop, not Observe: it sees every step as Observe does, and
		// leaves Run stepping its one State in place, as the CLI, the
		// page and the API run it (Observe makes every step a State of
		// its own, copy-on-write, for the harness's comparison).
		stop := func(ts *trace.Step) bool {
			at = append(at, time.Now())
			stepCycle = append(stepCycle, ts.Cycle)
			isCycle = append(isCycle, ts.Kind == trace.StepCycle)
			return false
		}
		runtime.GC()
		start := time.Now()
		tr := sim.Run(sc, sim.Options{Gates: gates, Stop: stop})
		elapsed := time.Since(start)
		if tr.End != "quiescent" {
			b.Fatalf("%s: the engine's run ended %q", file, tr.End)
		}
		if res.Steps >= len(at) || stepCycle[res.Steps] != res.Cycles {
			b.Fatalf("%s: the harness stopped at step %d (cycle %d), which the engine alone did not reach", file, res.Steps, res.Cycles)
		}
		compared, cycles = res.Cycles, tr.Cycles
		k := float64(res.KueueCycles)
		t := res.Kueue
		kueue = append(kueue, float64((t.Schedule-t.ScheduleClient).Nanoseconds())/k)
		call = append(call, float64(t.Schedule.Nanoseconds())/k)
		admit = append(admit, float64(t.Admission.Nanoseconds())/k)
		engine = append(engine, float64(at[res.Steps].Sub(at[0]).Nanoseconds())/k)
		var inCycles time.Duration
		for i := 1; i <= res.Steps; i++ {
			if isCycle[i] {
				inCycles += at[i].Sub(at[i-1])
			}
		}
		engineCycles = append(engineCycles, float64(inCycles.Nanoseconds())/k)
		engineRun = append(engineRun, float64(elapsed.Nanoseconds())/float64(tr.Cycles))
	}
	q, e := median(kueue), median(engine)
	b.ReportMetric(q, "kueue-ns/cycle")
	b.ReportMetric(e, "engine-ns/cycle")
	b.ReportMetric(e/q, "engine/kueue")
	b.ReportMetric(median(engineCycles), "engine-cycle-ns/cycle")
	b.ReportMetric(median(call), "kueue-call-ns/cycle")
	b.ReportMetric(median(admit), "kueue-admit-ns/cycle")
	b.ReportMetric(median(engineRun), "engine-run-ns/cycle")
	b.ReportMetric(float64(compared), "compared-cycles")
	b.ReportMetric(float64(cycles), "cycles")
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
