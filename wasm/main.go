//go:build js && wasm

// Command wasm is the browser playground: the core compiled to WebAssembly
// with the page's Go UI (ui/app). On a page with the playground's markup
// (#app) it starts the UI, which calls the core directly. In every host
// (the page, Node in the tests) it also registers
// kueueplay.validate(yaml) and kueueplay.simulate(yaml, gates) on the
// global object for scripts; both return a JSON string: {"trace": ...}
// (the trace's JSON, as the CLI writes it) or {"diagnostics": [...]} /
// {"error": "..."}. The trace's text form (trace.Format) is not part of
// the module: the page does not show it, and it was 16 KB of the page's
// first load (brotli); the CLI (kueueplay run) and the API
// (/v1/simulate?format=text) write it. It stays alive, so one long-lived
// instance serves the page and every call. In the page's Web Worker
// (site/engine.js), a second instance of the same module decodes,
// simulates and lays out for the page (worker.go).
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"syscall/js"
	"time"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/scenario"
	"github.com/kueueplay/kueueplay/core/sim"
	"github.com/kueueplay/kueueplay/ui/app"
)

type response struct {
	Trace       any               `json:"trace,omitempty"`
	Diagnostics []core.Diagnostic `json:"diagnostics,omitempty"`
	Error       string            `json:"error,omitempty"`
}

func encode(r response) string {
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Sprintf(`{"error":%q}`, err.Error())
	}
	return string(b)
}

func decode(text string) (*core.Scenario, response) {
	sc, err := scenario.Decode("scenario.yaml", []byte(text))
	if err != nil {
		var de *core.DiagnosticsError
		if errors.As(err, &de) {
			return nil, response{Diagnostics: de.Diagnostics}
		}
		return nil, response{Error: err.Error()}
	}
	return sc, response{Diagnostics: sc.Warnings}
}

// guard turns a panic (a bug) into an error response instead of killing
// the long-lived instance.
func guard(f func() string) (out string) {
	defer func() {
		if r := recover(); r != nil {
			out = encode(response{Error: fmt.Sprintf("internal error: %v", r)})
		}
	}()
	return f()
}

func main() {
	if g := js.Global(); g.Get("WorkerGlobalScope").Truthy() && g.Get("document").IsUndefined() {
		// The engine's worker: its heap holds the runs it keeps (a
		// 15,000-workload scenario's is hundreds of MB); serveWorker sets
		// its collector's pace and limit.
		serveWorker()
		select {}
	}
	// The page's heap is small (a few MB) and the collector runs on the
	// page's only thread, so its pauses show up as stutters while stepping;
	// collecting less often trades a few MB for fewer of them.
	debug.SetGCPercent(400)
	api := js.Global().Get("Object").New()
	api.Set("validate", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeString {
			return encode(response{Error: "validate(yaml: string)"})
		}
		return guard(func() string {
			_, r := decode(args[0].String())
			return encode(r)
		})
	}))
	api.Set("simulate", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeString {
			return encode(response{Error: "simulate(yaml: string, gates?: object)"})
		}
		return guard(func() string {
			sc, r := decode(args[0].String())
			if sc == nil {
				return encode(r)
			}
			gates := core.FeatureGates{}
			if len(args) > 1 && args[1].Type() == js.TypeObject {
				keys := js.Global().Get("Object").Call("keys", args[1])
				for i := range keys.Length() {
					name := keys.Index(i).String()
					if err := core.ValidateGateName(name); err != nil {
						return encode(response{Error: err.Error()})
					}
					gates[name] = args[1].Get(name).Truthy()
				}
			}
			tr := sim.Run(sc, sim.Options{Gates: gates})
			r.Trace = tr
			return encode(r)
		})
	}))
	js.Global().Set("kueueplay", api)
	if doc := js.Global().Get("document"); doc.Truthy() && doc.Call("getElementById", "app").Truthy() {
		// The runtime's and the packages' start and the UI's were one
		// 70-200 ms task of the page's thread (the 15,000-workload
		// example, a loaded machine): the page's event loop runs between
		// them (the goroutine parks on a timer).
		time.Sleep(time.Millisecond)
		if err := app.Start(); err != nil {
			js.Global().Get("console").Call("error", "kueueplay: "+err.Error())
		}
	}
	select {}
}
