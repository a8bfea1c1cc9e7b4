package conformance

import (
	"fmt"

	"github.com/kueueplay/kueueplay/conformance/gen"
	"github.com/kueueplay/kueueplay/core/scenario"
)

// SeedFile is the file name a generated scenario is reported and written
// under.
func SeedFile(seed uint64) string { return fmt.Sprintf("seed-%d.yaml", seed) }

// RunGenerated compares the engine and Kueue on a generated scenario.
func RunGenerated(s *gen.Scenario) (*Result, error) {
	sc, err := scenario.Decode(SeedFile(s.Seed), s.YAML())
	if err != nil {
		// The generator promises valid scenarios: a decode error is a bug
		// in the generator (or the decoder), reported as such.
		return nil, fmt.Errorf("generated scenario does not decode: %w", err)
	}
	return Run(sc)
}

// Minimize shrinks a scenario on which the two sides disagree, one step at
// a time (gen.Scenario.Shrinks, biggest reductions first), for as long as
// some smaller scenario still disagrees. It tries at most budget
// candidates and returns the smallest disagreeing scenario found with its
// result.
func Minimize(s *gen.Scenario, res *Result, budget int) (*gen.Scenario, *Result) {
	tried := 0
	for {
		smaller := false
		for _, c := range s.Shrinks() {
			if tried >= budget {
				return s, res
			}
			tried++
			r, err := RunGenerated(c)
			if err != nil || r.Agreed() {
				continue
			}
			s, res, smaller = c, r, true
			break
		}
		if !smaller {
			return s, res
		}
	}
}
