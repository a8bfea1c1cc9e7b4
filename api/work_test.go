package api

import (
	"testing"

	"github.com/kueueplay/kueueplay/core/trace"
)

// TestStepWork pins the weights stepWork documents (BenchmarkWork fitted
// them).
func TestStepWork(t *testing.T) {
	attempts := func(n int) []trace.FlavorAttempt { return make([]trace.FlavorAttempt, n) }
	for _, tc := range []struct {
		name  string
		step  trace.Step
		nodes int
		want  int64
	}{
		{"empty step", trace.Step{}, 0, 1},
		{"events, heads, usage rows, claims, scale-downs: one each",
			trace.Step{Events: make([]trace.Event, 2), Heads: make([]trace.Head, 3), Usage: make([]trace.UsageRow, 4),
				Claims: make([]trace.Claim, 1), ScaleDowns: make([]trace.ScaleDown, 1)}, 0, 1 + 2 + 3 + 4 + 1 + 1},
		{"a queue: one plus an eighth of its workloads",
			trace.Step{Queues: []trace.QueueState{{PendingCount: 10, ParkedCount: 3, AdmittedCount: 2, TerminatingCount: 1}}}, 0, 1 + 1 + 16/8},
		{"a decision: 100, 10 per flavor attempt, 1 per target",
			trace.Step{Decisions: []trace.Decision{{
				PodSets:    []trace.PodSetDecision{{Groups: []trace.GroupAttempt{{Attempts: attempts(2)}, {Attempts: attempts(1)}}}},
				Preemption: &trace.Preemption{Targets: make([]trace.Target, 4)},
			}}}, 0, 1 + 100 + 30 + 4},
		{"placements: one per node each", trace.Step{Placements: make([]trace.Placement, 3)}, 7, 1 + 21},
		{"a placement without nodes still counts", trace.Step{Placements: make([]trace.Placement, 2)}, 0, 1 + 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := stepWork(&tc.step, tc.nodes); got != tc.want {
				t.Errorf("stepWork = %d, want %d", got, tc.want)
			}
		})
	}
}
