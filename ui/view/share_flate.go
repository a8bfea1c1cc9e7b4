package view

import (
	"bytes"
	"compress/flate"
	"io"
)

// The share-link codec with compress/flate, for the CLI and the API. The
// page's WebAssembly deflates and inflates with the browser's
// CompressionStream instead (ui/app, FragmentFromDeflated) and never
// calls these, so the linker leaves compress/flate out of the module (34
// KB of the page's first load, brotli).

// EncodeFragment encodes s as a share-link fragment (without the '#').
// Strings are written as encoding/json writes them: invalid UTF-8 becomes
// U+FFFD.
func EncodeFragment(s Shared) string {
	var buf bytes.Buffer
	zw, _ := flate.NewWriter(&buf, flate.BestCompression) // the level is valid
	zw.Write(FragmentJSON(s))
	zw.Close()
	return FragmentFromDeflated(buf.Bytes())
}

// DecodeFragment decodes a share-link fragment written by EncodeFragment
// (with or without its leading '#'). It never panics and reads at most
// MaxFragmentJSON decompressed bytes; every failure wraps one of the
// ErrFragment errors.
func DecodeFragment(frag string) (Shared, error) {
	raw, err := DeflatedFromFragment(frag)
	if err != nil {
		return Shared{}, err
	}
	zr := flate.NewReader(bytes.NewReader(raw))
	data, err := io.ReadAll(io.LimitReader(zr, MaxFragmentJSON+1))
	if err != nil {
		return Shared{}, ErrBadDeflate()
	}
	return SharedFromJSON(data)
}
