package view

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/kueueplay/kueueplay/core"
)

// Shared is the playground state a share link carries in its URL fragment.
type Shared struct {
	// Scenario is the scenario's YAML text; empty when Example names a
	// bundled example instead.
	Scenario string `json:"scenario,omitempty"`
	// Step is the step shown.
	Step int `json:"step,omitempty"`
	// Gates are the feature gates the user set, by name.
	Gates map[string]bool `json:"gates,omitempty"`
	// Example is the name of a bundled example scenario.
	Example string `json:"example,omitempty"`
	// Settings are the fungibility and preemption overrides (see Settings).
	Settings Settings `json:"settings,omitzero"`
	// Compare is Compare mode's right-hand variant; nil when Compare mode
	// is off.
	Compare *Variant `json:"compare,omitempty"`
}

// Validate checks what a link may carry that the playground would refuse:
// unknown gate names and setting values, a step below 0, an example name
// that cannot be one.
func (s Shared) Validate() error {
	if s.Step < 0 {
		return fmt.Errorf("step %d: below 0", s.Step)
	}
	if s.Example != "" && !ValidExampleName(s.Example) {
		return fmt.Errorf("example %q: not an example name", s.Example)
	}
	check := func(side string, v Variant) error {
		for name := range v.Gates {
			if err := core.ValidateGateName(name); err != nil {
				return fmt.Errorf("%sgates: %w", side, err)
			}
		}
		if err := v.Settings.Validate(); err != nil {
			return fmt.Errorf("%s%w", side, err)
		}
		return nil
	}
	if err := check("", Variant{Gates: s.Gates, Settings: s.Settings}); err != nil {
		return err
	}
	if s.Compare != nil {
		return check("compare ", *s.Compare)
	}
	return nil
}

// Share fragment format, version 1 (accepted forever):
//
//	"v1." + base64url-without-padding( raw-DEFLATE( JSON ) )
//
// JSON is one object, compact, with the optional keys "scenario"
// (string), "step" (integer), "gates" (object of booleans), "example"
// (string), "settings" (object of strings: Settings) and "compare" (object
// with "gates" and "settings": Variant); absent keys take their zero value and unknown keys are
// ignored, so later versions of the playground may add keys to v1. DEFLATE
// is RFC 1951 (compress/flate, no zlib or gzip header), written at
// BestCompression. base64url is RFC 4648 §5 without '=' padding. A leading
// '#' is ignored when decoding. The decompressed JSON may hold at most
// MaxFragmentJSON bytes. A change that gives an existing key another
// meaning needs a new prefix ("v2."); sharelink.Decode must keep accepting
// "v1.".
const (
	fragmentV1 = "v1."
	// MaxFragmentJSON bounds the decompressed size of a share fragment.
	MaxFragmentJSON = 1 << 20
	// maxFragment bounds the encoded text before it is decoded: DEFLATE
	// output is at most a few bytes per 64 KiB longer than its input, and
	// base64 adds a third, so a fragment longer than this cannot hold
	// MaxFragmentJSON bytes of JSON.
	maxFragment = MaxFragmentJSON * 3 / 2
)

// FragmentJSON is the JSON a fragment of s compresses (ui/sharelink.Encode).
func FragmentJSON(s Shared) []byte {
	data, err := json.Marshal(s)
	if err != nil { // cannot happen: strings, an int and a map of bools
		return []byte("{}")
	}
	return data
}

// FragmentFromDeflated is the fragment whose compressed body is raw (raw
// DEFLATE, RFC 1951, of FragmentJSON): sharelink.Encode compresses with
// compress/flate; the page's WebAssembly with the browser's
// CompressionStream("deflate-raw"), whose output any inflater reads, so
// that compress/flate (34 KB of the page's first load) is not in the
// module.
func FragmentFromDeflated(raw []byte) string {
	return fragmentV1 + base64.RawURLEncoding.EncodeToString(raw)
}

var (
	ErrFragmentVersion = errors.New("unsupported share link version")
	ErrFragmentTooBig  = errors.New("share link too large")
	ErrFragmentInvalid = errors.New("invalid share link")
)

// DeflatedFromFragment checks a fragment's version and size and returns
// its compressed body (sharelink.Decode's first half).
func DeflatedFromFragment(frag string) ([]byte, error) {
	frag = strings.TrimPrefix(frag, "#")
	if !strings.HasPrefix(frag, fragmentV1) {
		if v, _, ok := strings.Cut(frag, "."); ok && len(v) > 1 && len(v) < 8 && v[0] == 'v' {
			return nil, fragErr(ErrFragmentVersion, v)
		}
		return nil, fragErr(ErrFragmentInvalid, "missing the v1. prefix")
	}
	body := frag[len(fragmentV1):]
	if len(body) > maxFragment {
		return nil, ErrFragmentTooBig
	}
	raw, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil {
		return nil, fragErr(ErrFragmentInvalid, "bad base64")
	}
	return raw, nil
}

// ErrBadDeflate is the error for a fragment whose body does not inflate.
func ErrBadDeflate() error { return fragErr(ErrFragmentInvalid, "bad compressed data") }

// SharedFromJSON reads a fragment's inflated JSON (sharelink.Decode's last
// half): data is at most MaxFragmentJSON+1 bytes of it, as read.
func SharedFromJSON(data []byte) (Shared, error) {
	if len(data) > MaxFragmentJSON {
		return Shared{}, ErrFragmentTooBig
	}
	var s Shared
	if err := json.Unmarshal(data, &s); err != nil {
		return Shared{}, fragErr(ErrFragmentInvalid, "bad JSON")
	}
	return s, nil
}

type fragmentError struct {
	kind   error
	detail string
}

func (e *fragmentError) Error() string { return e.kind.Error() + ": " + e.detail }
func (e *fragmentError) Unwrap() error { return e.kind }

func fragErr(kind error, detail string) error { return &fragmentError{kind, detail} }
