package conformance

import (
	"context"
	_ "unsafe" // for go:linkname

	"sigs.k8s.io/kueue/pkg/scheduler"
	"sigs.k8s.io/kueue/pkg/util/wait"
)

// scheduleOnce runs one scheduling cycle of Kueue's real scheduler:
// (*scheduler.Scheduler).schedule, which is unexported. Kueue drives it
// from wait.UntilWithBackoff in Start; the harness calls it once per
// cycle instead. go:linkname to a non-standard-library symbol is allowed.
//
//go:linkname scheduleOnce sigs.k8s.io/kueue/pkg/scheduler.(*Scheduler).schedule
func scheduleOnce(s *scheduler.Scheduler, ctx context.Context) wait.SpeedSignal
