package conformance

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/conformance/gen"
	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/scenariotest"
)

// TestScenarios compares the engine with Kueue v0.16.1 on every scenario
// under testdata/scenarios, step by step.
func TestScenarios(t *testing.T) {
	files, err := filepath.Glob("../testdata/scenarios/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no scenarios found under ../testdata/scenarios")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".yaml"), func(t *testing.T) {
			sc, err := scenariotest.Load(file)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Run(sc)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if !res.Agreed() {
				t.Error(res.Report(file))
			}
		})
	}
}

var (
	seeds     = flag.Int("seeds", 60, "how many generated scenarios TestRandom compares")
	seedStart = flag.Uint64("seed-start", 0, "the first seed TestRandom compares")
	failures  = flag.String("failures", "../build/conformance/failures", "where TestRandom writes minimized failing scenarios")
)

// TestRandom compares the engine with Kueue v0.16.1 on generated scenarios
// (seeds seed-start .. seed-start+seeds-1). A disagreement is minimized
// and written to the failures directory as a scenario file.
func TestRandom(t *testing.T) {
	agreed := 0
	for i := range *seeds {
		seed := *seedStart + uint64(i)
		if i > 0 && i%500 == 0 {
			t.Logf("%d of %d seeds compared, %d agreed", i, *seeds, agreed)
		}
		s := gen.Generate(seed)
		res, err := RunGenerated(s)
		if err != nil {
			t.Errorf("%s: %v", SeedFile(seed), err)
			continue
		}
		if res.Agreed() {
			agreed++
			continue
		}
		small, smallRes := Minimize(s, res, 500)
		path := filepath.Join(*failures, SeedFile(seed))
		if err := os.MkdirAll(*failures, 0o755); err == nil {
			err = os.WriteFile(path, small.YAML(), 0o644)
			if err != nil {
				t.Log(err)
			}
		}
		t.Errorf("%s\nminimized (%d -> %d objects) and written to %s:\n%s", res.Report(SeedFile(seed)), s.Size(), small.Size(), path, smallRes.Report(path))
	}
	t.Logf("%d of %d generated scenarios agreed (seeds %d..%d)", agreed, *seeds, *seedStart, *seedStart+uint64(*seeds)-1)
}

// TestKueueDeterministic runs Kueue's side several times on scenarios
// where unpatched Kueue v0.16.1 gave a different pending message, and
// with it different requeueing, from run to run (a pod set that fails in
// several resource groups, a flavor that fails for several resources;
// see cmd/patchkueue), and requires every step of every run to be the
// same. One run per scenario is only a fair comparison if this holds.
func TestKueueDeterministic(t *testing.T) {
	const runs = 4
	for _, seed := range []uint64{72, 106, 572, 1973, 2132} {
		t.Run(SeedFile(seed), func(t *testing.T) {
			s := gen.Generate(seed)
			var first string
			for i := range runs {
				sc, err := scenario.Decode(SeedFile(seed), s.YAML())
				if err != nil {
					t.Fatal(err)
				}
				var log bytes.Buffer
				if _, err := RunWithLog(sc, &log); err != nil {
					t.Fatal(err)
				}
				if i == 0 {
					first = log.String()
					continue
				}
				if diff := cmp.Diff(first, log.String()); diff != "" {
					t.Fatalf("run %d differs from run 0 (-run0 +run%d):\n%s", i, i, diff)
				}
			}
		})
	}
}
