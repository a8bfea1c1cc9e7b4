package scenariotest_test

import (
	"testing"

	"github.com/kueueplay/kueueplay/scenariotest"
)

// TestScenarios checks the expectations of every scenario the project
// ships, through the same public helper users call.
func TestScenarios(t *testing.T) {
	scenariotest.RunDir(t, "../testdata/scenarios")
}
