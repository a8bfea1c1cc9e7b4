package conformance

import (
	"path/filepath"
	"strings"
	"testing"

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
