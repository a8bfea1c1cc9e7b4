package conformance

import "sigs.k8s.io/kueue/pkg/scheduler/flavorassigner"

// The harness compiles Kueue with a build overlay that makes two of its
// loops over a map of requested resources visit them in name order (see
// cmd/kueueoverlay for why and exactly what changes). Without it, Kueue's
// pending messages, and through them its requeueing, vary with Go's map
// order from run to run. This reference makes a build without the overlay
// fail to compile ("undefined: flavorassigner.KueueplayPatched"): build
// through the Makefile (make test-conformance), or pass
// -overlay=../build/conformance/overlay/overlay.json after make
// conformance-overlay.
const _ = flavorassigner.KueueplayPatched
