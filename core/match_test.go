package core

import "testing"

func TestLabelSelectorString(t *testing.T) {
	tests := []struct {
		name string
		sel  *LabelSelector
		want string
	}{
		{"nil selects nothing", nil, "<none>"},
		{"empty selects everything", &LabelSelector{}, ""},
		{"match labels sorted by key", &LabelSelector{MatchLabels: map[string]string{"tier": "web", "app": "shop"}}, "app=shop,tier=web"},
		{"every operator", &LabelSelector{MatchExpressions: []LabelSelectorRequirement{
			{Key: "zone", Operator: "NotIn", Values: []string{"b", "a"}},
			{Key: "spot", Operator: "DoesNotExist"},
			{Key: "gpu", Operator: "Exists"},
			{Key: "pool", Operator: "In", Values: []string{"static", "reserved"}},
		}}, "gpu,pool in (reserved,static),!spot,zone notin (a,b)"},
		{"labels and expressions on one key", &LabelSelector{
			MatchLabels:      map[string]string{"pool": "static"},
			MatchExpressions: []LabelSelectorRequirement{{Key: "pool", Operator: "Exists"}},
		}, "pool,pool=static"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.sel.String(); got != tc.want {
				t.Errorf("String() = %q, want %q", got, tc.want)
			}
		})
	}
}
