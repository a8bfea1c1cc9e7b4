// Package layout turns the playground's view-model (package ui/view) into
// HTML element trees (*view.Node) that the browser glue (ui/app)
// materialises as DOM nodes: one element per Node (the SVG namespace for
// an svg element and its descendants), setAttribute for each attribute,
// textContent for Text. Text is written before an element's children, so
// mixed content is made of span children.
//
// The trees are built for a page whose Content-Security-Policy forbids
// inline styles and scripts: no element carries a style, an on* handler,
// an href or a src. Colours, sizes and the tree's connector lines come
// from site/panels.css, through classes and data-* attributes. Every
// string that comes from a scenario (names, messages, descriptions) goes
// into a Node's Text or an attribute value, never into a tag or attribute
// name.
//
// The glue acts on a few attributes anywhere in the content: a click on an
// element with data-goto-step="N" moves its view to step N,
// data-goto-line and data-goto-col move the editor's cursor, and
// data-example="FILE" loads an example. Every such element is a
// <button type="button"> (keyboard access), except the scrubber's SVG
// marks, whose keyboard access is the scrubber's range input.
//
// The package is pure Go: no syscall/js, no I/O, no clock and no state;
// the same input always gives the same tree.
package layout
