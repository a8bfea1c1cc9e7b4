//go:build js && wasm

package app

import "syscall/js"

// The glue's DOM wrapper: the few element, event and location methods it
// uses, as thin calls through syscall/js. It replaces
// honnef.co/go/js/dom/v2, whose element wrapping (a type switch over
// every HTML element type, each with its method set) kept about 740 KB
// of WebAssembly code (some 40 KB of the transfer) alive for the two
// dozen methods used here.

// element is a DOM element; nil stands for null (no such element).
type element struct{ v js.Value }

// wrapElement wraps v, nil when v is null or undefined.
func wrapElement(v js.Value) *element {
	if v.IsNull() || v.IsUndefined() {
		return nil
	}
	return &element{v}
}

func (e *element) Underlying() js.Value { return e.v }

func (e *element) GetAttribute(name string) string {
	v := e.v.Call("getAttribute", name)
	if v.IsNull() {
		return ""
	}
	return v.String()
}

func (e *element) SetAttribute(name, value string) { e.v.Call("setAttribute", name, value) }

func (e *element) RemoveAttribute(name string) { e.v.Call("removeAttribute", name) }

func (e *element) SetTextContent(s string) { e.v.Set("textContent", s) }

func (e *element) TagName() string { return e.v.Get("tagName").String() }

func (e *element) QuerySelector(sel string) *element {
	return wrapElement(e.v.Call("querySelector", sel))
}

func (e *element) QuerySelectorAll(sel string) []*element {
	out := []*element{}
	for _, v := range queryAll(e.v, sel) {
		out = append(out, &element{v})
	}
	return out
}

func (e *element) Closest(sel string) *element { return wrapElement(e.v.Call("closest", sel)) }

// Class is the element's classList.
func (e *element) Class() classList { return classList{e.v.Get("classList")} }

// Value, SetValue, Select and Checked are those of an input or select.
func (e *element) Value() string         { return e.v.Get("value").String() }
func (e *element) SetValue(s string)     { e.v.Set("value", s) }
func (e *element) Select()               { e.v.Call("select") }
func (e *element) Checked() bool         { return e.v.Get("checked").Bool() }
func (e *element) Equal(o *element) bool { return o != nil && e.v.Equal(o.v) }

// AddEventListener calls f with every event of type typ; the listener
// lives as long as the page.
func (e *element) AddEventListener(typ string, useCapture bool, f func(*event)) {
	e.v.Call("addEventListener", typ, js.FuncOf(func(_ js.Value, args []js.Value) any {
		f(&event{args[0]})
		return nil
	}), useCapture)
}

type classList struct{ v js.Value }

func (c classList) Add(name string)    { c.v.Call("add", name) }
func (c classList) Remove(name string) { c.v.Call("remove", name) }

// event is a DOM event (a KeyboardEvent for the key methods).
type event struct{ v js.Value }

func (e *event) Target() *element { return wrapElement(e.v.Get("target")) }
func (e *event) PreventDefault()  { e.v.Call("preventDefault") }
func (e *event) StopPropagation() { e.v.Call("stopPropagation") }
func (e *event) Key() string      { return e.v.Get("key").String() }
func (e *event) CtrlKey() bool    { return e.v.Get("ctrlKey").Bool() }
func (e *event) MetaKey() bool    { return e.v.Get("metaKey").Bool() }
func (e *event) AltKey() bool     { return e.v.Get("altKey").Bool() }
func (e *event) ShiftKey() bool   { return e.v.Get("shiftKey").Bool() }

// location is window.location.
type location struct{ v js.Value }

func (l location) Hash() string     { return l.v.Get("hash").String() }
func (l location) Search() string   { return l.v.Get("search").String() }
func (l location) Pathname() string { return l.v.Get("pathname").String() }
func (l location) Origin() string   { return l.v.Get("origin").String() }

// window is the page's window.
type window struct{ v js.Value }

func (w window) Location() location { return location{w.v.Get("location")} }
