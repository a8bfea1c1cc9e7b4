package api

import (
	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/core/trace"
)

// WorkScenarios are BenchmarkWork's shapes, for the tests of package
// api_test.
var WorkScenarios = workScenarios

// QueueingScenario, PreemptionScenario and PlacementScenario are
// BenchmarkWork's shapes at any size.
var (
	QueueingScenario   = queueingScenario
	PreemptionScenario = preemptionScenario
	PlacementScenario  = placementScenario
)

// Objects is what Limits.MaxObjects counts in a scenario.
func Objects(file, text string) (int, error) {
	sc, err := scenario.Decode(file, []byte(text))
	if err != nil {
		return 0, err
	}
	return objectCount(sc), nil
}

// Work is what a whole run of a scenario costs in work units (stepWork),
// with no limit: what the API counts before it would refuse it.
func Work(file, text string) (int64, error) {
	sc, err := scenario.Decode(file, []byte(text))
	if err != nil {
		return 0, err
	}
	var work int64
	sim.Run(sc, sim.Options{Stop: func(st *trace.Step) bool {
		work += stepWork(st, len(sc.Nodes))
		return false
	}})
	return work, nil
}
