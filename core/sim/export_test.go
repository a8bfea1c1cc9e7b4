package sim

import (
	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/trace"
)

// RunWithoutMemo is Run with the flavor search's memo off (searchMemo).
func RunWithoutMemo(sc *core.Scenario, opts Options) *trace.Trace {
	opts.noMemo = true
	return Run(sc, opts)
}
