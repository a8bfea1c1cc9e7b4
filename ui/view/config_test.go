package view

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kueueplay/kueueplay/core/trace"
)

func TestConfigurationText(t *testing.T) {
	cases := map[string]struct {
		in   *trace.Configuration
		want string
	}{
		"none": {},
		"source only": {
			in:   &trace.Configuration{Source: "Configuration", APIVersion: "config.kueue.x-k8s.io/v1beta2"},
			want: "Kueue Configuration: Configuration (config.kueue.x-k8s.io/v1beta2)",
		},
		"every setting": {
			in: &trace.Configuration{
				Source: "ConfigMap/kueue-system/kueue-manager-config", APIVersion: "config.kueue.x-k8s.io/v1beta1", File: "s.yaml", Line: 41, Col: 7,
				ExcludeResourcePrefixes: []string{"example.com/", "vendor.io/"},
				Transformations:         []trace.Transformation{{Input: "cpu", Strategy: "Retain", Outputs: []trace.TransformationOutput{{Resource: "example.com/credits", Quantity: "1"}}}},
				Gates:                   []trace.Gate{{Name: "LendingLimit", Enabled: false}},
			},
			want: "Kueue Configuration: ConfigMap/kueue-system/kueue-manager-config (config.kueue.x-k8s.io/v1beta1, line 41)\n" +
				"excludeResourcePrefixes: example.com/, vendor.io/\n" +
				"transformation: cpu Retain {example.com/credits: 1}\n" +
				"gates it sets: LendingLimit=false (the Scenario object and the boxes above override them)",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, ConfigurationText(tc.in)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
