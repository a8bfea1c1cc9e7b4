//go:build js && wasm

package app

import (
	"errors"
	"syscall/js"

	"github.com/kueueplay/kueueplay/ui/view"
)

// fill replaces parent's children with the DOM of n (nothing when n is
// nil). The tree goes to the page's builder (kueueplayBoot.render in
// site/boot.js) as one JSON string: creating each node through syscall/js
// costs a Go-to-JS call and a finalized js.Value per node and attribute,
// which made a step take tens of milliseconds.
func fill(parent *element, n *view.Node) {
	if n == nil {
		boot().Call("render", parent.Underlying(), "")
		return
	}
	boot().Call("render", parent.Underlying(), string(appendNode(nil, n)))
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

// appendNode writes n as [tag, [name, value, ...], text, [children]],
// with view.CleanText applied to text and values so that the page shows
// what render.svg shows.
func appendNode(b []byte, n *view.Node) []byte {
	b = append(b, '[')
	b = appendJSONString(b, n.Tag)
	b = append(b, ",["...)
	for i, a := range n.Attrs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, a.Name)
		b = append(b, ',')
		b = appendJSONString(b, view.CleanText(a.Value))
	}
	b = append(b, "],"...)
	b = appendJSONString(b, view.CleanText(n.Text))
	b = append(b, ",["...)
	first := true
	for _, c := range n.Children {
		if c == nil {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendNode(b, c)
	}
	return append(b, "]]"...)
}

// appendJSONString writes s (valid UTF-8: CleanText'ed, or a tag or
// attribute name) as a JSON string.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

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
	res, err := await(js.Global().Call("fetch", url))
	if err != nil {
		return "", errors.New(url + ": " + err.Error())
	}
	if !res.Get("ok").Bool() {
		return "", errors.New(url + ": " + res.Get("status").String() + " " + res.Get("statusText").String())
	}
	body, err := await(res.Call("text"))
	if err != nil {
		return "", errors.New(url + ": " + err.Error())
	}
	return body.String(), nil
}

// download offers data as a file named name.
func download(name, mime string, data []byte) {
	g := js.Global()
	arr := g.Get("Uint8Array").New(len(data))
	js.CopyBytesToJS(arr, data)
	blob := g.Get("Blob").New([]any{arr}, map[string]any{"type": mime})
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

// performance is the page's window.performance.
var performance = js.Global().Get("performance")

// now is performance.now() in milliseconds (for the budget measures, and
// the runs' time slices: called after every simulated step, so it keeps
// the object).
func now() float64 { return performance.Call("now").Float() }

// measure records a performance measure from start to now.
func measure(name string, start float64) {
	performance.Call("measure", name, map[string]any{"start": start, "end": now()})
}
