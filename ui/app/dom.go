//go:build js && wasm

package app

import (
	"errors"
	"syscall/js"

	"github.com/kueueplay/kueueplay/ui/layout"
	"github.com/kueueplay/kueueplay/ui/view"
)

// fill replaces parent's children with the DOM of n (nothing when n is
// nil). The tree goes to the page's builder (kueueplayBoot.render in
// site/boot.js) as one string (layout.JSON): creating each node through
// syscall/js costs a Go-to-JS call and a finalized js.Value per node and
// attribute, which made a step take tens of milliseconds.
func fill(parent *element, n *view.Node) {
	boot().Call("render", parent.Underlying(), layout.JSON(n))
}

// render is fill for a tree the engine's worker laid out (layout.JSON, as
// a JavaScript string the page's Go never reads; "" or null empties
// parent).
func render(parent *element, tree js.Value) {
	if tree.IsNull() || tree.IsUndefined() {
		tree = js.ValueOf("")
	}
	boot().Call("render", parent.Underlying(), tree)
}

// queryAll is querySelectorAll without wrapping each element.
func queryAll(el js.Value, sel string) []js.Value {
	list := el.Call("querySelectorAll", sel)
	out := make([]js.Value, list.Length())
	for i := range out {
		out[i] = list.Index(i)
	}
	return out
}

func boot() js.Value { return js.Global().Get("kueueplayBoot") }

// await blocks the calling goroutine until the promise settles. It must
// not be called from a js.FuncOf callback itself (those may not block):
// start a goroutine.
func await(p js.Value) (js.Value, error) {
	type result struct {
		v   js.Value
		err error
	}
	ch := make(chan result, 1)
	var then, catch js.Func
	then = js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- result{v: args[0]}
		return nil
	})
	catch = js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "failed"
		if len(args) > 0 {
			if m := args[0].Get("message"); m.Type() == js.TypeString {
				msg = m.String()
			} else {
				msg = args[0].Call("toString").String()
			}
		}
		ch <- result{err: errors.New(msg)}
		return nil
	})
	p.Call("then", then, catch)
	r := <-ch
	then.Release()
	catch.Release()
	return r.v, r.err
}

// fetchText GETs a same-origin URL and returns its body. Blocking: call
// from a goroutine.
func fetchText(url string) (string, error) {
	v, err := fetchJS(url)
	if err != nil {
		return "", err
	}
	return v.String(), nil
}

// fetchJS is fetchText with the body left a JavaScript string.
func fetchJS(url string) (js.Value, error) {
	res, err := await(js.Global().Call("fetch", url))
	if err != nil {
		return js.Value{}, errors.New(url + ": " + err.Error())
	}
	if !res.Get("ok").Bool() {
		return js.Value{}, errors.New(url + ": " + res.Get("status").String() + " " + res.Get("statusText").String())
	}
	body, err := await(res.Call("text"))
	if err != nil {
		return js.Value{}, errors.New(url + ": " + err.Error())
	}
	return body, nil
}

// download offers data (an ArrayBuffer) as a file named name.
func download(name, mime string, data js.Value) {
	g := js.Global()
	blob := g.Get("Blob").New([]any{data}, map[string]any{"type": mime})
	url := g.Get("URL").Call("createObjectURL", blob)
	a := g.Get("document").Call("createElement", "a")
	a.Set("href", url)
	a.Set("download", name)
	a.Set("rel", "noopener")
	g.Get("document").Get("body").Call("appendChild", a)
	a.Call("click")
	a.Call("remove")
	// Revoke once the browser has started the download.
	var revoke js.Func
	revoke = js.FuncOf(func(js.Value, []js.Value) any {
		g.Get("URL").Call("revokeObjectURL", url)
		revoke.Release()
		return nil
	})
	g.Call("setTimeout", revoke, 10000)
}

// timer is a cancellable setTimeout.
type timer struct {
	id js.Value
	fn js.Func
}

// after runs f once after ms milliseconds, cancelling the previous one.
func (t *timer) after(ms int, f func()) {
	t.stop()
	t.fn = js.FuncOf(func(js.Value, []js.Value) any {
		t.id = js.Undefined()
		f()
		return nil
	})
	t.id = js.Global().Call("setTimeout", t.fn, ms)
}

func (t *timer) stop() {
	if !t.id.IsUndefined() && !t.id.IsNull() && t.id.Truthy() {
		js.Global().Call("clearTimeout", t.id)
	}
	t.id = js.Undefined()
}

// nextTask parks the calling goroutine until a later task of the page's
// event loop (a setTimeout's): what follows it runs in a task of its own.
// time.Sleep did not always part them: the runtime's start, Start and the
// first run's request were one 70 ms task in a trace of the
// 15,000-workload example. It must not be called from a js.FuncOf
// callback itself (start a goroutine).
func nextTask() {
	done := make(chan struct{})
	f := js.FuncOf(func(js.Value, []js.Value) any {
		close(done)
		return nil
	})
	js.Global().Call("setTimeout", f, 0)
	<-done
	f.Release()
}

// performance is the page's window.performance.
var performance = js.Global().Get("performance")

// now is performance.now() in milliseconds (for the budget measures, and
// the runs' time slices: called after every simulated step, so it keeps
// the object).
func now() float64 { return performance.Call("now").Float() }

// measureMs records a performance measure of ms milliseconds ending now:
// the engine's worker reports what its steps took (its clock's origin is
// not the page's).
func measureMs(name string, ms float64) {
	performance.Call("measure", name, map[string]any{"duration": ms, "end": now()})
}

// measure records a performance measure from start to now.
func measure(name string, start float64) {
	performance.Call("measure", name, map[string]any{"start": start, "end": now()})
}

// encodeFragment is sharelink.Encode with the browser's deflate
// (kueueplayBoot.deflate): the module leaves compress/flate out. Blocking:
// call from a goroutine.
func encodeFragment(s view.Shared) (string, error) {
	raw, err := awaitBytes(boot().Call("deflate", bytesToJS(view.FragmentJSON(s))))
	if err != nil {
		return "", err
	}
	return view.FragmentFromDeflated(raw), nil
}

// decodeFragment is sharelink.Decode with the browser's inflate; the
// same errors. Blocking: call from a goroutine.
func decodeFragment(frag string) (view.Shared, error) {
	raw, err := view.DeflatedFromFragment(frag)
	if err != nil {
		return view.Shared{}, err
	}
	data, err := awaitBytes(boot().Call("inflate", bytesToJS(raw), view.MaxFragmentJSON+1))
	if err != nil {
		if err.Error() == "too large" {
			return view.Shared{}, view.ErrFragmentTooBig
		}
		return view.Shared{}, view.ErrBadDeflate()
	}
	return view.SharedFromJSON(data)
}

func bytesToJS(b []byte) js.Value {
	arr := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(arr, b)
	return arr
}

// awaitBytes awaits a promise of a Uint8Array and copies it into Go.
func awaitBytes(p js.Value) ([]byte, error) {
	v, err := await(p)
	if err != nil {
		return nil, err
	}
	b := make([]byte, v.Get("length").Int())
	js.CopyBytesToGo(b, v)
	return b, nil
}
