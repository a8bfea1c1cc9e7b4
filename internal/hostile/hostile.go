// Package hostile is the hostile-input suite: scenario files written to
// break a parser or exhaust a machine (alias bombs, deep nesting, a 50 MB
// document, 100,000 workloads, 1,000 flavors, 10,000-character names,
// control characters and HTML, absurd quantities, cyclic cohorts,
// duplicate names, a billion cycles, a run that never settles). The small
// ones are files under testdata/hostile; the large ones are generated
// here, so that the repository does not carry 50 MB of YAML.
//
// Each case states what must come out: an error diagnostic (its position
// and a piece of its message), or a run. The CLI test (cmd/kueueplay),
// the API test (api) and the browser test (e2e) feed every case through
// their front end and hold it to that, within the bounds below.
package hostile

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The bounds every case must stay within, on the CI machine (2 cores).
// They are guards against a hang or an explosion, not performance
// targets: the measured numbers are in the README's Security section.
const (
	// CLISeconds bounds the wall time of one `kueueplay run` or `validate`.
	CLISeconds = 60
	// CLIMaxRSSMiB bounds its peak resident memory.
	CLIMaxRSSMiB = 1536
	// APISeconds bounds the time of one API request.
	APISeconds = 10
)

// Case is one hostile input.
type Case struct {
	Name string
	// About says what the input does, for a test's name and the README.
	About string
	// File is the file under testdata/hostile; empty for a generated case.
	File string
	// Gen generates the input of a generated case.
	Gen func() []byte
	// Error is a piece of the first error diagnostic's message, and At its
	// "line:col"; both empty when the scenario must decode and run.
	Error, At string
	// End is the reason the run must end for, when it runs.
	End string
	// APIStatus is the status the API must answer /v1/simulate with, and
	// APICode the error code (empty for a 200).
	APIStatus int
	APICode   string
}

// Input returns the case's bytes. dir is testdata/hostile.
func (c Case) Input(dir string) ([]byte, error) {
	if c.Gen != nil {
		return c.Gen(), nil
	}
	return os.ReadFile(filepath.Join(dir, c.File))
}

// Cases returns the suite, in a fixed order.
func Cases() []Case {
	return []Case{
		{Name: "alias-bomb", About: "a billion-laughs alias bomb (9^9 nodes) where resource groups belong", File: "alias-bomb.yaml",
			Error: "expected a string, got a list", At: "11:9", APIStatus: 422, APICode: "invalid_scenario"},
		{Name: "alias-fan-out", About: "2,100 aliases to one 500-entry object, over MaxAliasNodes", Gen: aliasFanOut,
			Error: "aliases may expand to at most 1000000 nodes in total (MaxAliasNodes)", At: "1504:3", APIStatus: 422, APICode: "invalid_scenario"},
		{Name: "deep-flow", About: "100,000 nested flow lists", Gen: deepFlow,
			Error: "YAML nesting is deeper than 100 levels (MaxDepth)", At: "6:1004", APIStatus: 422, APICode: "invalid_scenario"},
		{Name: "deep-block", About: "5,000 nested block mappings", Gen: deepBlock,
			Error: "YAML nesting is deeper than 100 levels (MaxDepth)", At: "106:101", APIStatus: 413, APICode: "body_too_large"},
		{Name: "fifty-megabytes", About: "a 50 MB document", Gen: fiftyMegabytes,
			Error: "the file is 52428800 bytes; at most 33554432 bytes (32 MiB, MaxInputBytes) are accepted", At: "1:1", APIStatus: 413, APICode: "body_too_large"},
		{Name: "100k-workloads", About: "100,000 workloads (18 MB, within MaxInputBytes), over MaxObjects", Gen: func() []byte { return workloads(100_000) },
			Error: "more than 60000 documents (MaxObjects)", At: "120003:1", APIStatus: 413, APICode: "body_too_large"},
		{Name: "70k-workloads", About: "70,000 workloads in 13 MB, over MaxObjects", Gen: func() []byte { return workloads(70_000) },
			Error: "more than 60000 documents (MaxObjects)", At: "120003:1", APIStatus: 413, APICode: "body_too_large"},
		{Name: "1000-flavors", About: "1,000 ResourceFlavors, 16 ClusterQueues of 62 flavors each, 640 workloads", Gen: thousandFlavors,
			End: "quiescent", APIStatus: 200},
		{Name: "10k-char-name", About: "a ClusterQueue name of 10,000 characters", Gen: longName,
			Error: "invalid name: must be no more than 253 characters, got 10000", At: "3:18", APIStatus: 422, APICode: "invalid_scenario"},
		{Name: "control-and-html", About: "control characters and HTML in every string field", File: "control-and-html.yaml",
			Error: `invalid name: "h\x1b[31m<script>alert(1)</script>\a\x00\u202e" is not a lowercase RFC 1123 subdomain`, At: "8:18", APIStatus: 422, APICode: "invalid_scenario"},
		{Name: "html-free-text", About: "HTML and control characters in the description and an expected message", File: "html-free-text.yaml",
			End: "quiescent", APIStatus: 200},
		{Name: "quantity-1e400", About: "a quota of 1e400", File: "quantity-1e400.yaml",
			Error: "quantity 1e400 is too large", At: "15:45", APIStatus: 422, APICode: "invalid_scenario"},
		{Name: "quantity-minus-zero", About: "a quota and a request of -0", File: "quantity-minus-zero.yaml",
			End: "quiescent", APIStatus: 200},
		{Name: "cyclic-cohorts", About: "three Cohorts whose parents form a cycle", File: "cyclic-cohorts.yaml",
			Error: "Cohort cycle through parentName: a -> b -> c -> a", At: "5:20", APIStatus: 422, APICode: "invalid_scenario"},
		{Name: "duplicate-names", About: "a ClusterQueue and a Workload defined twice", File: "duplicate-names.yaml",
			Error: `duplicate ClusterQueue "cq" (first defined at line 4)`, At: "9:18", APIStatus: 422, APICode: "invalid_scenario"},
		{Name: "billion-cycles", About: "spec.maxCycles: 1000000000", File: "billion-cycles.yaml",
			Error: "must be between 1 and 1000000, got 1000000000", At: "7:14", APIStatus: 422, APICode: "invalid_scenario"},
		{Name: "max-cycles-reached", About: "a million-cycle limit and 20,000 one-second workloads through a one-CPU queue, cut at 5,000 cycles", Gen: func() []byte { return sequential(20_000, 5_000) },
			End: "maxCycles", APIStatus: 413, APICode: "body_too_large"},
		{Name: "max-cycles-api", About: "the same with 1,500 workloads and maxCycles 1,000,000: the CLI runs it, the API refuses the cycle limit", Gen: func() []byte { return sequential(1_500, 1_000_000) },
			End: "quiescent", APIStatus: 422, APICode: "cycle_limit"},
	}
}

const scenarioHeader = "apiVersion: kueueplay/v1alpha1\nkind: Scenario\nmetadata: {name: hostile}\nspec: {}\n"

// oneQueue is a flavor, a one-CPU ClusterQueue and its LocalQueue ns/q.
const oneQueue = `---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ResourceFlavor
metadata: {name: default}
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: ClusterQueue
metadata: {name: cq}
spec:
  namespaceSelector: {}
  resourceGroups:
  - coveredResources: [cpu]
    flavors:
    - name: default
      resources: [{name: cpu, nominalQuota: "1"}]
---
apiVersion: kueue.x-k8s.io/v1beta2
kind: LocalQueue
metadata: {name: q, namespace: ns}
spec: {clusterQueue: cq}
`

// workload is one flow-style Workload document asking for one CPU.
func workload(b *bytes.Buffer, name, queue, extra string) {
	fmt.Fprintf(b, "---\n{apiVersion: kueue.x-k8s.io/v1beta2, kind: Workload, metadata: {name: %s, namespace: ns%s}, spec: {queueName: %s, podSets: [{count: 1, template: {spec: {containers: [{name: c, resources: {requests: {cpu: \"1\"}}}]}}}]}}\n", name, extra, queue)
}

func workloads(n int) []byte {
	var b bytes.Buffer
	b.WriteString(scenarioHeader)
	for i := range n {
		workload(&b, fmt.Sprintf("w%d", i), "q", "")
	}
	return b.Bytes()
}

// sequential is n one-second workloads through a one-CPU queue, under a
// maxCycles of cycles.
func sequential(n, cycles int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "apiVersion: kueueplay/v1alpha1\nkind: Scenario\nmetadata: {name: hostile}\nspec: {maxCycles: %d}\n", cycles)
	b.WriteString(oneQueue)
	for i := range n {
		workload(&b, fmt.Sprintf("w%d", i), "q", ", annotations: {kueueplay/runtime: 1s}")
	}
	return b.Bytes()
}

func aliasFanOut() []byte {
	var b bytes.Buffer
	b.WriteString(scenarioHeader)
	b.WriteString("---\napiVersion: v1\nkind: List\nitems:\n- &w\n  apiVersion: v1\n  kind: Namespace\n  metadata:\n    name: big\n    annotations:\n")
	for i := range 500 {
		fmt.Fprintf(&b, "      k%d: v\n", i)
	}
	b.WriteString(strings.Repeat("- *w\n", 2100))
	return b.Bytes()
}

func deepFlow() []byte {
	return []byte(scenarioHeader + "---\nx: " + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + "\n")
}

func deepBlock() []byte {
	var b bytes.Buffer
	b.WriteString(scenarioHeader + "---\n")
	for i := range 5000 {
		b.WriteString(strings.Repeat(" ", i) + "k:\n")
	}
	return b.Bytes()
}

func fiftyMegabytes() []byte {
	pad := 50<<20 - len(scenarioHeader) - 3
	return []byte(scenarioHeader + "# " + strings.Repeat("x", pad) + "\n")
}

func longName() []byte {
	return []byte("apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: " + strings.Repeat("c", 10_000) + "}\nspec: {namespaceSelector: {}}\n")
}

func thousandFlavors() []byte {
	var b bytes.Buffer
	b.WriteString(scenarioHeader)
	for i := range 1000 {
		fmt.Fprintf(&b, "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ResourceFlavor\nmetadata: {name: f%d}\n", i)
	}
	for q := range 16 {
		fmt.Fprintf(&b, "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: cq%d}\nspec:\n  cohortName: all\n  namespaceSelector: {}\n  resourceGroups:\n  - coveredResources: [cpu]\n    flavors:\n", q)
		for f := range 62 {
			fmt.Fprintf(&b, "    - {name: f%d, resources: [{name: cpu, nominalQuota: \"1\"}]}\n", q*62+f)
		}
		fmt.Fprintf(&b, "---\napiVersion: kueue.x-k8s.io/v1beta2\nkind: LocalQueue\nmetadata: {name: q%d, namespace: ns}\nspec: {clusterQueue: cq%d}\n", q, q)
		for w := range 40 {
			workload(&b, fmt.Sprintf("w%d-%d", q, w), fmt.Sprintf("q%d", q), ", annotations: {kueueplay/runtime: 5s}")
		}
	}
	return b.Bytes()
}
