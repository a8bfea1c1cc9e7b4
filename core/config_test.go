package core

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEffectiveRequests(t *testing.T) {
	type reqs = map[ResourceName]Amount
	credits := func(milli int64) []TransformationOutput {
		return []TransformationOutput{{Name: "example.com/credits", MilliPerUnit: milli}}
	}
	cases := map[string]struct {
		cfg       *Configuration
		in        reqs
		want      reqs
		conflicts []ResourceName
		err       string
	}{
		"no Configuration": {in: reqs{"cpu": 1}, want: reqs{"cpu": 1}},
		"no resource settings": {
			cfg: &Configuration{FeatureGates: FeatureGates{GateLendingLimit: false}},
			in:  reqs{"cpu": 1}, want: reqs{"cpu": 1},
		},
		"prefixes are plain string prefixes": {
			cfg:  &Configuration{ExcludeResourcePrefixes: []string{"example.com", "memo"}},
			in:   reqs{"cpu": 1, "memory": 2, "example.com/gpu": 3, "example.community/x": 4},
			want: reqs{"cpu": 1},
		},
		"excluded before transformed": {
			cfg: &Configuration{ExcludeResourcePrefixes: []string{"example.com/"},
				Transformations: []ResourceTransformation{{Input: "example.com/gpu", Strategy: TransformReplace, Outputs: credits(1000)}}},
			in:   reqs{"example.com/gpu": 3},
			want: reqs{},
		},
		"Replace with no outputs drops the input": {
			cfg:  &Configuration{Transformations: []ResourceTransformation{{Input: "example.com/gpu", Strategy: TransformReplace}}},
			in:   reqs{"cpu": 1, "example.com/gpu": 3},
			want: reqs{"cpu": 1},
		},
		"fractional factors round up per resource": {
			cfg:  &Configuration{Transformations: []ResourceTransformation{{Input: "example.com/gpu", Strategy: TransformRetain, Outputs: credits(333)}}},
			in:   reqs{"example.com/gpu": 2},
			want: reqs{"example.com/gpu": 2, "example.com/credits": 1},
		},
		"multiplyBy absent from the pod: no multiplication": {
			cfg: &Configuration{Transformations: []ResourceTransformation{{Input: "example.com/mem", Strategy: TransformReplace, MultiplyBy: "example.com/gpu",
				Outputs: []TransformationOutput{{Name: "example.com/total", MilliPerUnit: 1000}}}}},
			in:   reqs{"example.com/mem": 7},
			want: reqs{"example.com/total": 7},
		},
		"an output the pod requests is added and reported": {
			cfg:       &Configuration{Transformations: []ResourceTransformation{{Input: "example.com/gpu", Strategy: TransformReplace, Outputs: credits(1000)}}},
			in:        reqs{"example.com/gpu": 2, "example.com/credits": 5},
			want:      reqs{"example.com/credits": 7},
			conflicts: []ResourceName{"example.com/credits"},
		},
		"overflow is an error": {
			cfg: &Configuration{Transformations: []ResourceTransformation{{Input: "example.com/gpu", Strategy: TransformReplace, Outputs: credits(math.MaxInt64 / 2)}}},
			in:  reqs{"example.com/gpu": 3},
			err: "output example.com/credits of example.com/gpu overflows",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, conflicts, err := tc.cfg.EffectiveRequests(tc.in)
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if diff := cmp.Diff(tc.err, gotErr); diff != "" {
				t.Fatalf("error (-want +got):\n%s", diff)
			}
			if err != nil {
				return
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.conflicts, conflicts); diff != "" {
				t.Errorf("conflicts (-want +got):\n%s", diff)
			}
		})
	}
}
