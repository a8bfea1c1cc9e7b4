package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const passing = `apiVersion: kueueplay/v1alpha1
kind: Scenario
metadata: {name: ok}
spec:
  expect:
  - at: end
    admitted: {default/a: {main: {cpu: f}}}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: f}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq}
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: f
      resources: [{name: cpu, nominalQuota: "2"}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: lq}
spec: {clusterQueue: cq}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: a}
spec:
  queueName: lq
  podSets:
  - name: main
    count: 1
    template:
      spec:
        containers:
        - name: c
          resources: {requests: {cpu: "1"}}
`

func write(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCLI(t *testing.T) {
	dir := t.TempDir()
	ok := write(t, dir, "ok.yaml", passing)
	failing := write(t, dir, "fail.yaml", strings.Replace(passing, "admitted: {default/a: {main: {cpu: f}}}", "pending: [default/a]", 1))
	broken := write(t, dir, "broken.yaml", strings.Replace(passing, `nominalQuota: "2"`, `nominalQuota: "two"`, 1))
	noSelector := write(t, dir, "nosel.yaml", strings.Replace(passing, "  namespaceSelector: {}\n", "", 1))

	cases := map[string]struct {
		args     []string
		wantCode int
		wantOut  []string // regular expressions the output must match
	}{
		"run text":         {args: []string{"run", ok}, wantCode: 0, wantOut: []string{`(?m)^  decide    default/a cq=cq .* -> Admitted`, `(?m)^# end quiescent`}},
		"run json":         {args: []string{"run", ok, "-o", "json"}, wantCode: 0, wantOut: []string{`{"version":"kueueplay.trace/v5",`}},
		"run bad format":   {args: []string{"run", ok, "-o", "xml"}, wantCode: 2},
		"run summary":      {args: []string{"run", ok, "-o", "summary"}, wantCode: 0, wantOut: []string{"time from creation to first admission, by ClusterQueue and priority:", "ClusterQueue usage, time-weighted average over the run:"}},
		"run unknown gate": {args: []string{"run", ok, "-gate", "Nope=true"}, wantCode: 2},
		"run unsimulated gate warns": {args: []string{"run", ok, "-gate", "PartialAdmission=true"}, wantCode: 0,
			wantOut: []string{`(?m)^-gate PartialAdmission=true: warning: feature gate PartialAdmission=true is not simulated`, `(?m)^# end quiescent`}},
		"test pass": {args: []string{"test", ok}, wantCode: 0, wantOut: []string{`(?m)^PASS `, `(?m)^1 passed, 0 failed$`}},
		"test fail shows diff": {args: []string{"test", ok, failing}, wantCode: 1,
			wantOut: []string{`(?m)^FAIL .*fail.yaml`, `\(-want \+got\)`, `-[\s\x{a0}]+State:[\s\x{a0}]+"pending"`, `\+[\s\x{a0}]+State:[\s\x{a0}]+"admitted"`, `(?m)^1 passed, 1 failed$`}},
		"test broken file": {args: []string{"test", broken}, wantCode: 1, wantOut: []string{`broken.yaml:\d+:\d+: `, `(?m)^0 passed, 1 failed$`}},
		"validate error":   {args: []string{"validate", broken}, wantCode: 1, wantOut: []string{`broken.yaml:22:45: ClusterQueue/cq: spec\.resourceGroups\[0\]\.flavors\[0\]\.resources\[0\]\.nominalQuota: invalid quantity "two"`}},
		"validate warning": {args: []string{"validate", noSelector}, wantCode: 0, wantOut: []string{`nosel.yaml:\d+:\d+: warning: .*namespaceSelector`}},
		"no command":       {args: nil, wantCode: 2},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(tc.args, strings.NewReader(""), &out, &errOut)
			if code != tc.wantCode {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.wantCode, out.String(), errOut.String())
			}
			all := out.String() + errOut.String()
			for _, re := range tc.wantOut {
				if !regexp.MustCompile(re).MatchString(all) {
					t.Errorf("output does not match %q:\n%s", re, all)
				}
			}
		})
	}
}
