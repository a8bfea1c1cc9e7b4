//go:build js && wasm

package main

import (
	"encoding/json"
	"fmt"
	"runtime"
	"syscall/js"
	"time"

	"github.com/kueueplay/kueueplay/core/trace"
	"github.com/kueueplay/kueueplay/ui/engine"
)

// yieldEvery is how long, in milliseconds, a simulation goes on before it
// posts its progress and lets the worker's event loop run (to receive a
// cancel or a newer run).
const yieldEvery = 30

// pieceBytes is about how much of a trace's steps the page reads between
// two paints (engine.EncodeTrace): encoding/json in WebAssembly reads
// about 10 MB a second on the machines measured, so 256 KB is ~25 ms.
const pieceBytes = 256 << 10

// worker is the engine's side of the page's Web Worker (site/engine.js
// starts this module there and hands it the page's messages through
// kueueplayWorker). Messages from the page:
//
//	{type: "run", id, request: engine.Request as JSON, text}
//	{type: "cancel", id}
//
// and to it, each with the run's id:
//
//	{type: "progress", id, variant, cycle, timeMs}     every yieldEvery ms of simulation
//	{type: "decoded", id, decoded: engine.Decoded as JSON, ms}
//	{type: "result", id, traces: [{head, steps: [piece, ...]}, ...], capped, simulateMs, encodeMs}
//	    (engine.EncodeTrace's pieces, as strings), or {type: "result", id, error}
//
// A newer run supersedes the one in progress, which stops at its next
// pause and sends nothing more; a cancelled one stops there and sends
// what ran ("stopped"). Everything runs on the worker's one thread, so
// the callbacks and the job's goroutine never run at once.
type worker struct {
	current   int // the id of the newest run
	cancelled map[int]bool
}

func serveWorker() {
	w := &worker{cancelled: map[int]bool{}}
	js.Global().Set("kueueplayWorker", js.FuncOf(func(_ js.Value, args []js.Value) any {
		m := args[0]
		id := m.Get("id").Int()
		switch m.Get("type").String() {
		case "run":
			w.current = id
			var req engine.Request
			if err := json.Unmarshal([]byte(m.Get("request").String()), &req); err != nil {
				post(map[string]any{"type": "decoded", "id": id, "decoded": mustJSON(engine.Decoded{Error: "the page's request: " + err.Error()})})
				return nil
			}
			go w.run(id, req, m.Get("text").String())
		case "cancel":
			w.cancelled[id] = true
		}
		return nil
	}))
}

func post(m map[string]any) { js.Global().Call("postMessage", m) }

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf(`{"error":%q}`, err.Error())
	}
	return string(b)
}

func (w *worker) stopped(id int) bool { return w.current != id || w.cancelled[id] }

// run decodes and simulates one request in its own goroutine.
func (w *worker) run(id int, req engine.Request, text string) {
	defer delete(w.cancelled, id)
	defer func() {
		if r := recover(); r != nil { // a bug: say so rather than go silent
			post(map[string]any{"type": "result", "id": id, "error": fmt.Sprintf("internal error: %v", r)})
		}
	}()
	t0 := now()
	sc, dec := engine.Decode(req.File, []byte(text))
	text = ""
	post(map[string]any{"type": "decoded", "id": id, "decoded": mustJSON(dec), "ms": now() - t0})
	if sc == nil {
		return
	}
	var traces []any
	capped := false
	// What the run's time went to, in ms (the page records them as
	// performance measures): simulating, with the pauses, and writing the
	// JSON.
	var simMs, encodeMs float64
	last := now()
	for k, v := range req.Variants {
		t1 := now()
		tr, c, err := engine.Simulate(sc, v, req.MaxSteps, func(st *trace.Step) bool {
			if w.stopped(id) {
				return true
			}
			if now()-last < yieldEvery {
				return false
			}
			post(map[string]any{"type": "progress", "id": id, "variant": k, "cycle": st.Cycle, "timeMs": st.TimeMs})
			pause()
			last = now()
			return w.stopped(id)
		})
		if w.current != id {
			return
		}
		if err != nil {
			if k > 0 {
				err = fmt.Errorf("Right-hand variant: %w", err)
			}
			post(map[string]any{"type": "result", "id": id, "error": err.Error()})
			return
		}
		t2 := now()
		head, pieces, err := engine.EncodeTrace(tr, pieceBytes)
		simMs, encodeMs = simMs+t2-t1, encodeMs+now()-t2
		if err != nil {
			post(map[string]any{"type": "result", "id": id, "error": err.Error()})
			return
		}
		steps := make([]any, len(pieces))
		for i, p := range pieces {
			steps[i] = string(p)
		}
		traces = append(traces, map[string]any{"head": string(head), "steps": steps})
		capped = capped || c
		if tr.End == "stopped" { // cancelled or capped: the right-hand variant does not run
			break
		}
	}
	post(map[string]any{"type": "result", "id": id, "traces": traces, "capped": capped, "simulateMs": simMs, "encodeMs": encodeMs})
}

// pause lets the worker's event loop run: the js/wasm runtime returns to
// it only once every goroutine is blocked, so the job parks on a timer
// (not runtime.Gosched, nor a zero sleep: neither returns). It collects
// garbage there when the heap nears the collector's next goal, as the
// page did when it simulated on its own thread: the collector's
// concurrent marking otherwise runs as idle work at a random pause.
func pause() {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if ms.HeapAlloc > ms.NextGC/10*7 {
		runtime.GC()
	}
	time.Sleep(time.Millisecond)
}

func now() float64 { return js.Global().Get("performance").Call("now").Float() }
