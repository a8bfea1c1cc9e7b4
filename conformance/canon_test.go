package conformance

import "testing"

func TestCanonicalMessage(t *testing.T) {
	const (
		noFitCPU = "insufficient quota for cpu in flavor f1, previously considered podsets requests (0) + current podset request (6) > maximum capacity (4)"
		noFitGPU = "insufficient quota for example.com/gpu in flavor f1, previously considered podsets requests (1) + current podset request (3) > maximum capacity (3)"
		preCPU1  = "insufficient unused quota for cpu in flavor f1, 8 more needed"
		preCPU2  = "insufficient unused quota for cpu in flavor f2, 2 more needed"
		taint    = "untolerated taint {example.com/spot true NoSchedule <nil>} in flavor f0"
		noGroup  = "resource memory unavailable in ClusterQueue"
		prefix   = "couldn't assign flavors to pod set p1: "
	)
	cases := []struct {
		name   string
		a, b   string
		failed bool // p1 was placed in no flavor, on both sides
		same   bool
	}{
		{"same text", prefix + preCPU1, prefix + preCPU1, false, true},
		{"one flavor, the resource that can never fit differs", prefix + noFitCPU, prefix + noFitGPU, true, true},
		{"the pod set failed: which resource Kueue names first is map order", prefix + noFitCPU, prefix + preCPU1, true, true},
		{"the failing group differs", prefix + taint, prefix + noGroup, true, true},
		{"a flavor that can never fit beside one preemption could free", prefix + noFitCPU + ", " + preCPU2, prefix + noFitGPU + ", " + preCPU2, false, true},
		{"a flavor that can never fit, with or without another resource's shortfall", prefix + noFitCPU + ", " + preCPU1 + ", " + preCPU2, prefix + noFitGPU + ", " + preCPU2, false, true},
		{"the amount preemption must free differs", prefix + preCPU1, prefix + "insufficient unused quota for cpu in flavor f1, 7 more needed", false, false},
		{"a flavor that can never fit versus one that needs preemption", prefix + noFitCPU + ", " + preCPU2, prefix + preCPU1 + ", " + preCPU2, false, false},
		{"the other flavor's shortfall differs", prefix + noFitCPU + ", " + preCPU2, prefix + noFitCPU, false, false},
		{"the pod set differs", prefix + noFitCPU, "couldn't assign flavors to pod set main: " + noFitCPU, true, false},
		{"the preemption suffix is kept", prefix + preCPU1 + ". Pending the preemption of 1 workload(s)", prefix + preCPU1, false, false},
		{"other messages compare as they are", "Workload no longer fits after processing another workload", "Workload no longer fits after processing another workload", false, true},
		{"unknown reasons compare as they are", prefix + "something new, " + noFitCPU, prefix + "something new, " + noFitGPU, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			failed := map[string]bool{"p1": tc.failed}
			ca, cb := canonicalMessage(tc.a, failed), canonicalMessage(tc.b, failed)
			if (ca == cb) != tc.same {
				t.Errorf("canonical forms equal = %v, want %v\n a: %s\n b: %s", ca == cb, tc.same, ca, cb)
			}
		})
	}
}
