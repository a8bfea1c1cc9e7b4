// Package sharelink is the share-link codec with compress/flate, for the
// CLI and the API: view.Shared to and from a fragment (view's
// FragmentJSON, deflated, FragmentFromDeflated). The page's WebAssembly
// deflates and inflates with the browser's CompressionStream instead
// (ui/app) and does not import this package: compress/flate's package
// initialisation alone (its fixed Huffman tables) kept 20 KB of code in
// the module (4.4 KB of the page's first load, brotli) while ui/view
// imported it, although the page never called it.
package sharelink

import (
	"bytes"
	"compress/flate"
	"io"

	"github.com/kueueplay/kueueplay/ui/view"
)

// Encode encodes s as a share-link fragment (without the '#'). Strings
// are written as encoding/json writes them: invalid UTF-8 becomes U+FFFD.
func Encode(s view.Shared) string {
	var buf bytes.Buffer
	zw, _ := flate.NewWriter(&buf, flate.BestCompression) // the level is valid
	zw.Write(view.FragmentJSON(s))
	zw.Close()
	return view.FragmentFromDeflated(buf.Bytes())
}

// Decode decodes a share-link fragment written by Encode (with or without
// its leading '#'). It never panics and reads at most view.MaxFragmentJSON
// decompressed bytes; every failure wraps one of view's ErrFragment
// errors.
func Decode(frag string) (view.Shared, error) {
	raw, err := view.DeflatedFromFragment(frag)
	if err != nil {
		return view.Shared{}, err
	}
	zr := flate.NewReader(bytes.NewReader(raw))
	data, err := io.ReadAll(io.LimitReader(zr, view.MaxFragmentJSON+1))
	if err != nil {
		return view.Shared{}, view.ErrBadDeflate()
	}
	return view.SharedFromJSON(data)
}
