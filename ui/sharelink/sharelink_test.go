package sharelink_test

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kueueplay/kueueplay/ui/sharelink"
	"github.com/kueueplay/kueueplay/ui/view"
)

// deflate builds a v1 fragment around arbitrary bytes.
func deflate(data []byte) string {
	var buf bytes.Buffer
	zw, _ := flate.NewWriter(&buf, flate.BestCompression)
	zw.Write(data)
	zw.Close()
	return "v1." + base64.RawURLEncoding.EncodeToString(buf.Bytes())
}

func TestFragmentRoundTrip(t *testing.T) {
	big := strings.Repeat("apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\n", 10_000)
	tests := []struct {
		name string
		in   view.Shared
	}{
		{"zero", view.Shared{}},
		{"example and step", view.Shared{Example: "default", Step: 12}},
		{"gates", view.Shared{Example: "kep4378", Gates: map[string]bool{"RefreshAssignmentsDuringSchedulingCycle": true, "LendingLimit": false}}},
		{"scenario text", view.Shared{Scenario: "kind: Workload\nmetadata: {name: \"<img onerror=alert(1)>\"}\n# ünïcødé ✓ \t\x00\x7f", Step: 3}},
		{"negative step", view.Shared{Step: -1}},
		{"large scenario", view.Shared{Scenario: big}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			frag := sharelink.Encode(tt.in)
			if !strings.HasPrefix(frag, "v1.") {
				t.Fatalf("fragment %q lacks the v1. prefix", frag)
			}
			if strings.ContainsAny(frag[3:], "+/=#?&% ") {
				t.Errorf("fragment is not URL-safe base64 without padding: %q", frag)
			}
			for _, f := range []string{frag, "#" + frag} {
				got, err := sharelink.Decode(f)
				if err != nil {
					t.Fatalf("Decode: %v", err)
				}
				if d := cmp.Diff(tt.in, got, cmpopts.EquateEmpty()); d != "" {
					t.Errorf("round trip (-want +got):\n%s", d)
				}
			}
		})
	}
	if n := len(sharelink.Encode(view.Shared{Scenario: big})); n > 5000 {
		t.Errorf("a repetitive 540 kB scenario encodes to %d characters; compression is not working", n)
	}
}

// TestDecodeV1Vectors pins fragments written by this version: v1
// links must decode the same forever.
func TestDecodeV1Vectors(t *testing.T) {
	tests := []struct {
		name string
		frag string
		want view.Shared
	}{
		{"example and step", "v1.qlYqLkktULIyNNJRSq1IzC3ISVWyUkpJTUsszSlRqgUEAAD__w", view.Shared{Example: "default", Step: 12}},
		{"gates", "v1.BMCxDQMhDAXQXVxnArooKanuJkDwMZbABTbFCbH7vU2cHEZhU4QWUY4yxCnU1A0fulAnrH3NhHVA3f5rivKdG8rqovx7cgcFnwvnvAEAAP__", view.Shared{Gates: map[string]bool{"RefreshAssignmentsDuringSchedulingCycle": true, "LendingLimit": false}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := sharelink.Decode(tt.frag)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	bomb := deflate(bytes.Repeat([]byte(" "), view.MaxFragmentJSON+1))
	justFits := deflate([]byte(`{"scenario":"` + strings.Repeat("a", view.MaxFragmentJSON-len(`{"scenario":""}`)) + `"}`))
	tests := []struct {
		name string
		frag string
		want error // nil: must decode
	}{
		{"empty", "", view.ErrFragmentInvalid},
		{"no prefix", "abc", view.ErrFragmentInvalid},
		{"future version", "v2.qlYqLkktULIyNNJRSq1IzC3I", view.ErrFragmentVersion},
		{"bad base64", "v1.!!!!", view.ErrFragmentInvalid},
		{"padded base64", "v1.qlYqLkktULIyNNJRSq1IzC3ISVWyUkpJTUsszSlRqgUEAAD__w==", view.ErrFragmentInvalid},
		{"not deflate", "v1." + base64.RawURLEncoding.EncodeToString([]byte("hello, world")), view.ErrFragmentInvalid},
		{"truncated deflate", "v1.qlYqLkktULIyNNJRSq1IzC3I", view.ErrFragmentInvalid},
		{"not JSON", deflate([]byte("not json")), view.ErrFragmentInvalid},
		{"JSON of the wrong type", deflate([]byte(`{"step":"three"}`)), view.ErrFragmentInvalid},
		{"JSON array", deflate([]byte(`[1,2]`)), view.ErrFragmentInvalid},
		{"trailing data", deflate([]byte(`{} {}`)), view.ErrFragmentInvalid},
		{"decompresses beyond the bound", bomb, view.ErrFragmentTooBig},
		{"encoded text beyond the bound", "v1." + strings.Repeat("A", view.MaxFragmentJSON*3/2+1), view.ErrFragmentTooBig},
		{"exactly at the bound", justFits, nil},
		{"unknown keys are ignored", deflate([]byte(`{"example":"x","later":{"a":[1]}}`)), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := sharelink.Decode(tt.frag)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Decode: %v", err)
				}
				return
			}
			if !errors.Is(err, tt.want) {
				t.Errorf("Decode error = %v, want %v", err, tt.want)
			}
		})
	}
}

// FuzzDecode: no input makes Decode panic, whatever
// decodes re-encodes to the same value, and every value (with valid UTF-8
// strings) survives encoding and decoding.
func FuzzDecode(f *testing.F) {
	f.Add("v1.qlYqLkktULIyNNJRSq1IzC3ISVWyUkpJTUsszSlRqgUEAAD__w", "kind: Workload\n", 3, "default", "LendingLimit", true, "TryNextFlavor", true)
	f.Add("", "", 0, "", "", false, "", false)
	f.Add("v2.abc", "<img onerror=alert(1)>", -7, "x", "g", false, "\xff", true)
	f.Fuzz(func(t *testing.T, frag, scenario string, step int, example, gate string, on bool, setting string, compare bool) {
		if s, err := sharelink.Decode(frag); err == nil {
			again, err := sharelink.Decode(sharelink.Encode(s))
			if err != nil {
				t.Fatalf("re-encoding %+v: %v", s, err)
			}
			if d := cmp.Diff(s, again, cmpopts.EquateEmpty()); d != "" {
				t.Fatalf("decode(encode(decode(frag))) (-want +got):\n%s", d)
			}
		}
		in := view.Shared{Scenario: scenario, Step: step, Example: example,
			Settings: view.Settings{WhenCanBorrow: setting, ReclaimWithinCohort: setting}}
		if gate != "" {
			in.Gates = map[string]bool{gate: on}
		}
		if compare {
			in.Compare = &view.Variant{Gates: map[string]bool{gate: !on}, Settings: view.Settings{Preference: setting}}
		}
		for _, s := range []string{scenario, example, gate, setting} {
			if !utf8.ValidString(s) {
				return // encoding/json writes invalid UTF-8 as U+FFFD
			}
		}
		got, err := sharelink.Decode(sharelink.Encode(in))
		if err != nil {
			t.Fatalf("decode(encode(%+v)): %v", in, err)
		}
		if d := cmp.Diff(in, got, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("decode(encode(x)) (-want +got):\n%s", d)
		}
	})
}
