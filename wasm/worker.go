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
// two paints (engine.Pieces): the page reads a trace's JSON at about 4 MB
// a second in WebAssembly (Kueue's scalability test, 31 MB, in 7.3 s on
// a 2-core machine), so 32 KB is under 10 ms.
const pieceBytes = 32 << 10

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
//	{type: "steps", id, variant, pieces: [piece, ...]}   the steps made since the last (engine.Pieces, as strings)
//	{type: "result", id, heads: [head, ...], capped, simulateMs, encodeMs}
//	    (engine.Head of each variant's trace, after all its steps), or {type: "result", id, error}
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
	var heads []any
	capped := false
	// What the run's time went to, in ms (the page records them as
	// performance measures): simulating, with the pauses and the JSON,
	// and, of that, writing the JSON.
	var simMs, encodeMs float64
	last := now()
	for k, v := range req.Variants {
		pieces := engine.NewPieces(pieceBytes)
		// send posts the pieces written since the last send (all of them
		// with all), for the page to read while the run goes on.
		send := func(all bool) error {
			ps, err := pieces.Take(all)
			if err != nil || len(ps) == 0 {
				return err
			}
			strs := make([]any, len(ps))
			for i, p := range ps {
				strs[i] = string(p)
			}
			post(map[string]any{"type": "steps", "id": id, "variant": k, "pieces": strs})
			return nil
		}
		t1 := now()
		tr, c, err := engine.Simulate(sc, v, req.MaxSteps, func(st *trace.Step) bool {
			if w.stopped(id) {
				return true
			}
			if now()-last < yieldEvery {
				return false
			}
			if send(true) != nil {
				return true // the error is sent below
			}
			post(map[string]any{"type": "progress", "id": id, "variant": k, "cycle": st.Cycle, "timeMs": st.TimeMs})
			pause()
			last = now()
			return w.stopped(id)
		}, func(st *trace.Step) {
			t := now()
			pieces.Add(st)
			encodeMs += now() - t
		})
		if w.current != id {
			return
		}
		var head []byte
		if err == nil {
			err = send(true)
		}
		if err == nil {
			head, err = engine.Head(tr)
		}
		simMs += now() - t1
		if err != nil {
			if k > 0 {
				err = fmt.Errorf("Right-hand variant: %w", err)
			}
			post(map[string]any{"type": "result", "id": id, "error": err.Error()})
			return
		}
		heads = append(heads, string(head))
		capped = capped || c
		if tr.End == "stopped" { // cancelled or capped: the right-hand variant does not run
			break
		}
	}
	post(map[string]any{"type": "result", "id": id, "heads": heads, "capped": capped, "simulateMs": simMs, "encodeMs": encodeMs})
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
