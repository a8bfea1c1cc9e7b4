package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPatch(t *testing.T) {
	header := func(i int) string { return replacements[i].old }
	both := "func a() {\n" + header(0) + "\t\t}\n}\nfunc b() {\n" + header(1) + "\t\t}\n}\n"
	tests := []struct {
		name    string
		in      string
		want    string
		wantErr string
	}{
		{
			name: "both loop headers replaced on their own lines, marker appended",
			in:   both,
			want: "func a() {\n" + replacements[0].new + "\t\t}\n}\nfunc b() {\n" + replacements[1].new + "\t\t}\n}\n" + marker,
		},
		{
			name:    "a header missing (another release) is refused",
			in:      "func a() {\n" + header(0) + "\t\t}\n}\n",
			wantErr: "found 0",
		},
		{
			name:    "a header found twice is refused",
			in:      both + header(1),
			wantErr: "found 2",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := patch([]byte(tc.in))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("patch error = %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, string(got)); diff != "" {
				t.Errorf("patch (-want +got):\n%s", diff)
			}
			if n := strings.Count(string(got), "\n"); n != strings.Count(tc.in+marker, "\n") {
				t.Errorf("patch changed the line count: %d lines", n)
			}
		})
	}
}

func TestRunRefusesOtherReleases(t *testing.T) {
	err := run("/tmp/mod/sigs.k8s.io/kueue@v0.16.0", t.TempDir(), ".")
	if err == nil || !strings.Contains(err.Error(), "v0.16.1") {
		t.Fatalf("run on v0.16.0 = %v, want a refusal naming v0.16.1", err)
	}
}
