package view

import (
	"bytes"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestFragmentHalves: the halves the page's WebAssembly composes with the
// browser's deflate (FragmentFromDeflated, DeflatedFromFragment,
// SharedFromJSON) give back what they were given.
func TestFragmentHalves(t *testing.T) {
	tests := []struct {
		name string
		raw  []byte
	}{
		{"empty", nil},
		{"bytes", []byte{0, 1, 2, 0xff, '#', '/'}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			frag := FragmentFromDeflated(tt.raw)
			for _, f := range []string{frag, "#" + frag} {
				got, err := DeflatedFromFragment(f)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, tt.raw) {
					t.Errorf("DeflatedFromFragment(%q) = %v, want %v", f, got, tt.raw)
				}
			}
		})
	}
	in := Shared{Example: "default", Step: 3, Gates: map[string]bool{"LendingLimit": true}}
	got, err := SharedFromJSON(FragmentJSON(in))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(in, got, cmpopts.EquateEmpty()); d != "" {
		t.Errorf("SharedFromJSON(FragmentJSON(x)) (-want +got):\n%s", d)
	}
	if _, err := SharedFromJSON(bytes.Repeat([]byte(" "), MaxFragmentJSON+1)); !errors.Is(err, ErrFragmentTooBig) {
		t.Errorf("SharedFromJSON of MaxFragmentJSON+1 bytes: %v, want ErrFragmentTooBig", err)
	}
}
