package api

import (
	"fmt"
	"strconv"
	"strings"
)

// The profiles are derived from BenchmarkWorkerdSizes (api/
// workerd_limits_test.go; README "Limits" has the table): the Worker
// under workerd, CPU time of its threads per request and its peak
// resident memory, measured on a 2-core machine shared with other work,
// so every cost below is an upper bound (contention only adds to CPU
// time). For CPU the least of 30 requests is used, the lowest of three
// runs; for memory the costliest shape.
//
// What a request costs on workerd, fitted to those measurements:
//
//	CPU    ≈ 2.3 ms + 0.14 ms per KB of body + 3.0 µs per work unit
//	memory ≈ 44 bytes per byte of body (decoding) + 58 bytes per unit
//
// CPU, measured again after issue 20's decoder, engine and trace work
// (the streaming decoder, events as facts): 0.14 ms/KB is validate of the
// default example (4,509 bytes, 3.1 ms) against Kueue's scalability shape
// at 181 objects (55,875 bytes, 10.4 ms; 0.645 ms/KB before); the default
// example's simulation (872 units, 4.9 ms) over a one-workload one (121
// units, 2.6 ms), each less its decoding, gives 2.25 µs/unit, and the
// fit keeps the 3.0 µs of before: the gallery's examples that place pods
// or try many flavors cost up to 3.4 µs/unit (placement-queued-deployment,
// 1,300 units in 7.2 ms), and two runs of three measured 25 to 35% more
// than the third; 2.3 ms is what is left of the one-workload run. (Larger
// runs cost less per unit: 0.6 to 1.4 µs for the scalability shape at 50
// workloads and BenchmarkWork's small queueing and preemption shapes, 7,755
// to 10,830 units.)
// Memory, measured again after the streaming decoder and the streamed
// /v1/simulate answer (trace v3): decoding the scalability shape grows
// workerd by 18.3 MB at 1,000 workloads (420,108 bytes: 44 bytes per
// byte) and 40.7 MB at 3,000 (1,233,681 bytes: 33); simulating it, with
// its whole trace as JSON, by 29.3 and 84 MB, 49 and 58 bytes per unit
// beyond the decoding (the text answer takes less: 72 MB at 3,000).
// Before them it was 119 MB for decoding the 3,000 workloads and 316 to
// 330 bytes per unit: the fit the first PaidLimits came from (97 bytes
// per byte of body, 330 per unit).

// FreeLimits fit the Workers Free plan's 10 ms of CPU per request with a
// margin of 15%: the costliest request they admit, a body of 12 KiB and
// 1,500 units, costs 2.3 + 1.7 + 4.5 = 8.5 ms by the fit above. The body
// and the work share the budget: the body holds all of the gallery's
// examples but two (kep582-story2-preempt-over-borrow, 12,543 bytes, and
// the pasted dump pasted-queued-deployment, 17,818), and the work is what
// is left (the default example needs 872 units). Objects are as many as
// the body holds in the usual one-document-per-object form (the smallest
// object, a ResourceFlavor, takes about 84 bytes), so a scenario of many
// tiny objects meets the object limit before its decoding costs more than
// the body's; cycles are the work divided by 100, the cost of the
// cheapest scheduling cycle (one nomination), so a run that never settles
// meets the cycle limit about when it would meet the work limit. Memory
// is no bound here (a few MB).
//
// The gallery's default example fits, and 89 of its 101 examples do (53
// with the profile before, 4.5 KiB and 1,200 units;
// TestExamplesWithinLimits logs the count); the others are refused by a
// limit (the playground runs them in the browser). The costliest of those
// 89 on workerd (BenchmarkWorkerdSizes' "free-" cases: the four with the
// most work and every one that places pods) took at most 7.2 ms at their
// least. Placement-heavy scenarios cost more per unit on workerd than
// stepWork assumes (the trace's node rows make a large answer: a
// Deployment of 20 pods on 6 nodes costs 6.2 ms for 125 units), so the
// margin is thinner for them.
var FreeLimits = Limits{
	MaxBodyBytes: 12 << 10,
	MaxObjects:   140,
	MaxCycles:    15,
	MaxWork:      1_500,
}

// PaidLimits fit the Workers Paid plan within the 128 MB an isolate may
// hold, which binds long before the plan's 30 s of CPU: the costliest
// request they admit, 800 KiB of body and 440,000 units, grows the
// isolate by 44 × 819,200 + 58 × 440,000 bytes = 61.6 MB by the fit
// above, within half of the 128 MB (the other half for what the isolate
// holds before the request, Go's runtime and heap, the module's data and
// the parsed gallery, and a second request it may serve at the same
// time), and costs about 0.5 s of decoding and 2 s of work (at 4.6
// µs/unit), a twelfth of the 30 s. The body and the work are split as a
// scenario of Kueue's scalability shape needs them, about 420 bytes and
// 225 units per workload (about 1,950 workloads fit; 560 did before the
// streaming decoder and answer). Objects and cycles follow the body and
// the work as in FreeLimits.
var PaidLimits = Limits{
	MaxBodyBytes: 800 << 10,
	MaxObjects:   9_700,
	MaxCycles:    4_400,
	MaxWork:      440_000,
}

// Profiles are the named limit profiles ParseLimits knows.
var Profiles = map[string]Limits{
	"free": FreeLimits,
	"paid": PaidLimits,
}

// ParseLimits reads a limits setting: a profile's name ("free", "paid"),
// optionally followed by overrides of its fields, comma-separated:
// "paid,objects=50000,work=2000000000". The fields are body (bytes),
// objects, cycles and work (units); values are positive integers, with
// optional "_" separators. It is what `kueueplay serve -limits` and the
// Worker's KUEUEPLAY_LIMITS variable take.
func ParseLimits(s string) (Limits, error) {
	parts := strings.Split(strings.TrimSpace(s), ",")
	name := strings.TrimSpace(parts[0])
	l, ok := Profiles[name]
	if !ok {
		return Limits{}, fmt.Errorf("limits %q: want free or paid, optionally followed by ,body=N ,objects=N ,cycles=N ,work=N", s)
	}
	seen := map[string]bool{}
	for _, p := range parts[1:] {
		k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
		k = strings.TrimSpace(k)
		if !ok {
			return Limits{}, fmt.Errorf("limits %q: %q is not field=value", s, p)
		}
		if seen[k] {
			return Limits{}, fmt.Errorf("limits %q: %s is set twice", s, k)
		}
		seen[k] = true
		n, err := strconv.ParseInt(strings.ReplaceAll(strings.TrimSpace(v), "_", ""), 10, 64)
		if err != nil || n <= 0 {
			return Limits{}, fmt.Errorf("limits %q: %s=%s: want a positive integer", s, k, v)
		}
		switch k {
		case "body":
			l.MaxBodyBytes = n
		case "objects", "cycles":
			if n > maxIntField {
				return Limits{}, fmt.Errorf("limits %q: %s=%d: at most %d", s, k, n, maxIntField)
			}
			if k == "objects" {
				l.MaxObjects = int(n)
			} else {
				l.MaxCycles = int(n)
			}
		case "work":
			l.MaxWork = n
		default:
			return Limits{}, fmt.Errorf("limits %q: unknown field %q (body, objects, cycles, work)", s, k)
		}
	}
	return l, nil
}

// maxIntField bounds objects and cycles, which are ints: within 32 bits,
// so a setting means the same on every platform.
const maxIntField = 1<<31 - 1

// String is the setting ParseLimits reads back to l (every field
// explicit, over the free profile).
func (l Limits) String() string {
	return fmt.Sprintf("free,body=%d,objects=%d,cycles=%d,work=%d", l.MaxBodyBytes, l.MaxObjects, l.MaxCycles, l.MaxWork)
}
