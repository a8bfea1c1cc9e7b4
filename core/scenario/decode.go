package scenario

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kueueplay/kueueplay/core"
)

// Bounds on the input. Decode rejects a file that exceeds any of them, and
// the diagnostic names the bound.
const (
	// MaxInputBytes is the largest file Decode accepts (32 MiB).
	MaxInputBytes = 32 << 20
	// MaxObjects is the largest number of objects (documents plus the items
	// of kind: List documents) in one file.
	MaxObjects = 60_000
	// MaxDepth is the deepest nesting of YAML mappings and lists.
	MaxDepth = 100
	// MaxAliasNodes is how many YAML nodes may be reached through aliases
	// (*name) in total, which defuses "billion laughs" alias bombs.
	MaxAliasNodes = 1_000_000
	// MaxNameLength bounds object names and references (RFC 1123 DNS
	// subdomains, as Kubernetes requires).
	MaxNameLength = 253
	// MaxDNSLabelLength bounds names that must be RFC 1123 DNS labels:
	// namespaces and pod set names. Job names are also limited to it,
	// because the Job controller copies them into a pod label.
	MaxDNSLabelLength = 63
	// MaxLabelValueLength bounds label values and the name part of label
	// keys.
	MaxLabelValueLength = 63
)

// Decode decodes and validates one scenario file. file is used only in
// positions. On any error-severity problem it returns a
// *core.DiagnosticsError listing every problem found (warnings included),
// sorted by position, then message; otherwise the warnings are in
// Scenario.Warnings. It is DecodeFiles with one input.
func Decode(file string, data []byte) (*core.Scenario, error) {
	return DecodeFiles([]Input{{Name: file, Data: data}})
}

// TooLarge is the error Decode returns for a file of size bytes, above
// MaxInputBytes; a negative size means "more than MaxInputBytes, exact
// size unknown" (a stream cut at the limit). A caller reading a file can
// check its size first and return this without reading the whole file.
func TooLarge(file string, size int64) error {
	return &core.DiagnosticsError{Diagnostics: []core.Diagnostic{tooLarge(file, size)}}
}

func tooLarge(file string, size int64) core.Diagnostic {
	msg := fmt.Sprintf("the file is %d bytes; at most %d bytes (32 MiB, MaxInputBytes) are accepted", size, MaxInputBytes)
	if size < 0 {
		msg = fmt.Sprintf("the file is larger than %d bytes (32 MiB, MaxInputBytes), the most accepted", MaxInputBytes)
	}
	return core.Diagnostic{Pos: core.Pos{File: fileName(file), Line: 1, Col: 1}, Severity: core.SeverityError, Message: msg}
}

// result sorts the diagnostics and splits the outcome.
func (d *decoder) result(sc *core.Scenario) (*core.Scenario, error) {
	// Inputs in the order given, then positions within each.
	order := make(map[string]int, len(d.files))
	for i, f := range slices.Backward(d.files) {
		order[f.name] = i
	}
	slices.SortStableFunc(d.diags, func(a, b core.Diagnostic) int {
		return cmp.Or(
			cmp.Compare(order[a.Pos.File], order[b.Pos.File]),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Col, b.Pos.Col),
			cmp.Compare(a.Message, b.Message),
			cmp.Compare(a.Object, b.Object),
			cmp.Compare(a.Field, b.Field),
			cmp.Compare(a.Severity, b.Severity),
		)
	})
	// An aliased node is decoded once per alias: report each problem once.
	d.diags = slices.Compact(d.diags)
	hasErr := false
	for _, diag := range d.diags {
		if diag.Severity == core.SeverityError {
			hasErr = true
			break
		}
	}
	if hasErr || sc == nil {
		return nil, &core.DiagnosticsError{Diagnostics: d.diags}
	}
	sc.Warnings = d.diags
	return sc, nil
}

// rawObject is one object of the file before decoding: its mapping node,
// its entries, and its apiVersion and kind.
type rawObject struct {
	node       *yaml.Node
	pairs      []pair
	apiVersion string
	kind       string
	// kindNode and apiVersionNode are the values, for positions.
	kindNode, apiVersionNode *yaml.Node
}

func (d *decoder) run(inputs []Input) *core.Scenario {
	total := 0
	for _, in := range inputs {
		total += in.size()
	}
	if total <= MaxInputBytes { // else checkSize refuses them, uncopied
		inputs = asText(inputs)
	}
	d.layout(inputs)
	if !d.checkSize(inputs) {
		return nil
	}
	if sc, ok := d.stream(inputs); ok {
		return sc
	}
	// Start again, from the whole trees yaml.v3 builds.
	*d = decoder{aliasBudget: MaxAliasNodes}
	d.layout(inputs)
	return d.runTrees(inputs)
}

// runTrees parses every input with yaml.v3 into node trees, then decodes
// the objects: the way that reads any input, and the reference stream
// must agree with.
func (d *decoder) runTrees(inputs []Input) *core.Scenario {
	// Each input is parsed on its own, so that a syntax error names its
	// own file; the other inputs are still parsed, for their errors.
	var docs []*yaml.Node
	parsed := true
	for k, in := range inputs {
		if line, col, deep := in.deepFlow(maxFlowScanDepth); deep {
			d.errorf(&yaml.Node{Line: d.files[k].base + line, Column: col}, "", "YAML nesting is deeper than %d levels (MaxDepth)", MaxDepth)
			parsed = false
			continue
		}
		data, jsonErr := d.prepareJSON(k, in.bytes())
		var ok bool
		docs, ok = d.parse(k, data, docs, jsonErr)
		if len(docs) > MaxObjects {
			return nil
		}
		parsed = parsed && ok
	}
	if !parsed {
		return nil
	}
	objs, ok := d.collect(docs)
	if !ok {
		return nil
	}
	st := newState()
	d.first(st, objs)
	for _, o := range objs {
		if decodedFirst(o) {
			continue
		}
		d.dispatch(st, o)
	}
	return d.finish(st)
}

// first decodes the objects that go before all others: the Scenario
// object and the Kueue Configuration, whose feature gates change how
// other objects validate (LendingLimit).
func (d *decoder) first(st *state, objs []*rawObject) {
	for _, o := range objs {
		if o.apiVersion == apiKueueplay && o.kind == "Scenario" {
			d.scenarioObject(st, o)
		}
	}
	for _, o := range objs {
		d.configObject(st, o)
	}
	d.obj = ""
	d.mergeGates(st)
}

// finish runs the cross-object checks and builds the scenario.
func (d *decoder) finish(st *state) *core.Scenario {
	d.obj = ""
	d.link(st)
	sc := st.build()
	if !d.hasError() {
		d.overcommit(sc)
	}
	return sc
}

// hasError reports whether an error-severity diagnostic was found.
func (d *decoder) hasError() bool {
	return slices.ContainsFunc(d.diags, func(x core.Diagnostic) bool { return x.Severity == core.SeverityError })
}

// parse splits input k's stream into documents, appends them to docs and
// shifts their lines into the shared line space. yaml.v3 reports syntax
// errors with a line only; the column is then 1. For input meant as JSON,
// jsonErr (if not nil) is reported instead: it has the exact position.
// It stops, with more than MaxObjects documents in docs, when the inputs
// hold too many.
func (d *decoder) parse(k int, data []byte, docs []*yaml.Node, jsonErr *core.Diagnostic) ([]*yaml.Node, bool) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		doc := new(yaml.Node)
		err := decodeNext(dec, doc)
		if errors.Is(err, io.EOF) {
			return docs, true
		}
		if err != nil {
			if jsonErr != nil {
				d.diags = append(d.diags, *jsonErr)
			} else {
				d.syntaxError(d.files[k].name, data, err)
			}
			return docs, false
		}
		shift(doc, d.files[k].base)
		docs = append(docs, doc)
		if len(docs) > MaxObjects {
			d.errorf(doc, "", "more than %d documents%s (MaxObjects)", MaxObjects, d.together())
			return docs, false
		}
	}
}

// decodeNext reads one document. yaml.v3 reports errors by panicking
// internally and recovering; the extra recover turns any panic that escapes
// it into an error, so that no input can crash the caller.
func decodeNext(dec *yaml.Decoder, doc *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: %v", r)
		}
	}()
	return dec.Decode(doc)
}

// syntaxError turns a yaml.v3 error ("yaml: line 4: did not find expected
// key") into a positioned diagnostic.
func (d *decoder) syntaxError(file string, data []byte, err error) {
	line, col, msg := syntaxPos(data, err)
	d.diags = append(d.diags, core.Diagnostic{
		Pos:      core.Pos{File: file, Line: line, Col: col},
		Severity: core.SeverityError,
		Message:  printable("invalid YAML: "+msg, maxEchoedMessage),
	})
}

// syntaxPos reads the 1-based line and column and the message of a yaml.v3
// error about data. A tab in the indentation of that line is named, with
// its column: YAML forbids it, and yaml.v3 does not say so.
func syntaxPos(data []byte, err error) (line, col int, msg string) {
	msg = strings.TrimPrefix(err.Error(), "yaml: ")
	line, col = 1, 1
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		num, tail, found := strings.Cut(rest, ": ")
		if n, convErr := strconv.Atoi(num); found && convErr == nil && n > 0 {
			line, msg = n, tail
			// yaml.v3 (parser.fail) adds 1 to the 0-based line of scanner
			// errors only: a parser error's line is 0-based and points at
			// the construct that is not closed properly.
			if isParserProblem(msg) {
				line++
			}
		}
	} else if name, ok := strings.CutPrefix(msg, "unknown anchor '"); ok {
		// Point at the alias that names the unknown anchor.
		name, _, _ = strings.Cut(name, "'")
		if i := bytes.Index(data, []byte("*"+name)); i >= 0 {
			line = bytes.Count(data[:i], []byte("\n")) + 1
			col = i - bytes.LastIndexByte(data[:i], '\n')
		}
	}
	if tab := tabColumn(data, line); tab > 0 {
		col = tab
		msg += "; the line has a tab character: YAML indentation must use spaces, not tabs"
	}
	return line, col, msg
}

// tabColumn returns the 1-based column of the first tab in the leading
// whitespace of line (1-based) of data, or 0.
func tabColumn(data []byte, line int) int {
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return 0
		}
		data = data[i+1:]
	}
	for i, c := range data {
		switch c {
		case '\t':
			return i + 1
		case ' ':
			continue
		}
		return 0
	}
	return 0
}

// isParserProblem reports whether msg is one of the problems yaml.v3's
// parser (parserc.go), rather than its scanner, reports.
func isParserProblem(msg string) bool {
	switch msg {
	case "did not find expected <stream-start>",
		"did not find expected <document start>",
		"found undefined tag handle",
		"did not find expected node content",
		"did not find expected '-' indicator",
		"did not find expected key",
		"did not find expected ',' or ']'",
		"did not find expected ',' or '}'",
		"found duplicate %YAML directive",
		"found incompatible YAML document",
		"found duplicate %TAG directive":
		return true
	}
	return false
}

// collect checks the nesting depth of each document and flattens the
// documents (and kind: List items) into objects.
func (d *decoder) collect(docs []*yaml.Node) ([]*rawObject, bool) {
	var objs []*rawObject
	for _, doc := range docs {
		if len(doc.Content) == 0 {
			continue
		}
		root := doc.Content[0]
		objs = d.collectRoot(objs, root, false)
		if len(objs) > MaxObjects {
			d.errorf(root, "", "more than %d objects%s (MaxObjects)", MaxObjects, d.together())
			return nil, false
		}
	}
	return objs, true
}

// collectRoot appends the objects of the document with root node root
// (nil or null for an empty document) to objs. shallow says the document
// is known to be nested less deep than MaxDepth, which checkDepth need not
// find out again.
func (d *decoder) collectRoot(objs []*rawObject, root *yaml.Node, shallow bool) []*rawObject {
	if isNull(root) {
		return objs // an empty document
	}
	if !shallow && !d.checkDepth(root) {
		return objs
	}
	o := d.rawObject(root, "")
	if o == nil {
		return objs
	}
	if o.kind != "List" {
		return append(objs, o)
	}
	return append(objs, d.listItems(o)...)
}

// depthEntry is a node to visit in checkDepth, at its depth.
type depthEntry struct {
	n     *yaml.Node
	depth int
}

// checkDepth rejects a document nested deeper than MaxDepth. It walks the
// tree iteratively (aliases are not followed: they cost no depth here and
// are charged to the alias budget when decoded).
func (d *decoder) checkDepth(root *yaml.Node) bool {
	stack := append(d.depthStack[:0], depthEntry{root, 1})
	defer func() {
		clear(stack[:cap(stack)]) // keep no node of this document alive
		d.depthStack = stack[:0]
	}()
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if e.depth > MaxDepth {
			d.errorf(e.n, "", "YAML nesting is deeper than %d levels (MaxDepth)", MaxDepth)
			return false
		}
		for _, c := range e.n.Content {
			stack = append(stack, depthEntry{c, e.depth + 1})
		}
	}
	return true
}

// rawObject reads apiVersion and kind of an object mapping; path is the
// object's position in a List ("items[3]") for messages, or "".
func (d *decoder) rawObject(n *yaml.Node, path string) *rawObject {
	n = d.deref(n)
	if n == nil {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		d.errorf(n, path, "expected a Kubernetes object (a mapping with apiVersion and kind), got %s", describe(n))
		return nil
	}
	var o *rawObject
	if k := len(d.spareObjects); k > 0 {
		o, d.spareObjects = d.spareObjects[k-1], d.spareObjects[:k-1]
		*o = rawObject{node: n, pairs: d.pairs(n, "")}
	} else {
		o = &rawObject{node: n, pairs: d.pairs(n, "")}
	}
	var haveAPI, haveKind bool
	for _, p := range o.pairs {
		switch p.name {
		case "apiVersion":
			o.apiVersion, haveAPI = d.str(p.val, "apiVersion")
			o.apiVersionNode = d.deref(p.val)
		case "kind":
			o.kind, haveKind = d.str(p.val, "kind")
			o.kindNode = d.deref(p.val)
		}
	}
	if !haveAPI {
		d.required(n, "", "apiVersion")
	}
	if !haveKind {
		d.required(n, "", "kind")
	}
	if !haveAPI || !haveKind {
		return nil
	}
	return o
}

// listItems flattens a kind: List document (what `kubectl get -o yaml`
// prints for several objects).
func (d *decoder) listItems(list *rawObject) []*rawObject {
	if list.apiVersion != "v1" {
		d.errorf(list.kindNode, "kind", "kind List must have apiVersion v1, got %q", clip(list.apiVersion))
		return nil
	}
	var out []*rawObject
	for _, p := range list.pairs {
		switch p.name {
		case "apiVersion", "kind":
		case "metadata":
			// ListMeta (resourceVersion, continue, ...): not interpreted.
		case "items":
			for i, item := range d.items(p.val, "items") {
				o := d.rawObject(item, index("items", i))
				if o == nil {
					continue
				}
				if o.kind == "List" {
					d.errorf(o.kindNode, index("items", i)+".kind", "a List cannot contain another List")
					continue
				}
				out = append(out, o)
			}
		default:
			d.unknown(p, "")
		}
	}
	return out
}

// API versions accepted in scenario files.
const (
	apiKueueV1beta2   = "kueue.x-k8s.io/v1beta2"
	apiKueueV1beta1   = "kueue.x-k8s.io/v1beta1"
	apiBatchV1        = "batch/v1"
	apiAppsV1         = "apps/v1"
	apiCoreV1         = "v1"
	apiSchedulingV1   = "scheduling.k8s.io/v1"
	apiResourcePolicy = "scheduling.x-k8s.io/v1alpha1"
	// apiResourcePolicyKEP is the group the KEP #594 text uses (a typo of
	// scheduling.x-k8s.io); accepted for pasted examples.
	apiResourcePolicyKEP = "scheduling.sigs.x-k8s.io/v1alpha1"
	apiKueueplay         = "kueueplay/v1alpha1"
	apiConfigV1beta2     = "config.kueue.x-k8s.io/v1beta2"
	apiConfigV1beta1     = "config.kueue.x-k8s.io/v1beta1"
	// Job kinds of Kueue's other integrations, at the versions Kueue
	// v0.16.1 watches (pkg/controller/jobs/*: each integration's gvk).
	apiJobSet          = "jobset.x-k8s.io/v1alpha2"
	apiRay             = "ray.io/v1"
	apiKubeflow        = "kubeflow.org/v1"
	apiMPI             = "kubeflow.org/v2beta1"
	apiTrainer         = "trainer.kubeflow.org/v1alpha1"
	apiAppWrapper      = "workload.codeflare.dev/v1beta2"
	apiLeaderWorkerSet = "leaderworkerset.x-k8s.io/v1"
)

// dispatch decodes one object according to its apiVersion and kind.
func (d *decoder) dispatch(st *state, o *rawObject) {
	d.obj = ""
	switch o.apiVersion {
	case apiKueueV1beta2, apiKueueV1beta1:
		v1beta1 := o.apiVersion == apiKueueV1beta1
		switch o.kind {
		case "ResourceFlavor":
			d.resourceFlavor(st, o)
			return
		case "ClusterQueue":
			d.clusterQueue(st, o, v1beta1)
			return
		case "Cohort":
			d.cohort(st, o)
			return
		case "LocalQueue":
			d.localQueue(st, o)
			return
		case "Workload":
			d.workload(st, o, v1beta1)
			return
		case "WorkloadPriorityClass":
			d.workloadPriorityClass(st, o)
			return
		case "Topology":
			d.topology(st, o)
			return
		}
	case apiBatchV1:
		if o.kind == "Job" {
			d.job(st, o)
			return
		}
	case apiJobSet:
		if o.kind == "JobSet" {
			d.jobSet(st, o)
			return
		}
	case apiRay:
		switch o.kind {
		case "RayJob":
			d.rayJob(st, o)
			return
		case "RayCluster":
			d.rayCluster(st, o)
			return
		}
	case apiTrainer:
		switch o.kind {
		case "TrainJob":
			d.trainJob(st, o)
			return
		case "ClusterTrainingRuntime", "TrainingRuntime":
			d.trainingRuntimeObject(st, o)
			return
		}
	case apiAppWrapper:
		if o.kind == "AppWrapper" {
			d.appWrapper(st, o)
			return
		}
	case apiLeaderWorkerSet:
		if o.kind == "LeaderWorkerSet" {
			d.leaderWorkerSet(st, o)
			return
		}
	case apiKubeflow, apiMPI:
		if k, ok := kubeflowKindFor(o.apiVersion, o.kind); ok {
			d.kubeflowJob(st, o, k)
			return
		}
	case apiAppsV1:
		switch o.kind {
		case "Deployment", "ReplicaSet":
			d.deployment(st, o)
			return
		case "StatefulSet":
			d.statefulSet(st, o)
			return
		}
	case apiCoreV1:
		switch o.kind {
		case "Namespace":
			d.namespace(st, o)
			return
		case "Node":
			d.node(st, o)
			return
		case "Pod":
			d.pod(st, o)
			return
		}
	case apiSchedulingV1:
		if o.kind == "PriorityClass" {
			d.priorityClass(st, o)
			return
		}
	case apiResourcePolicy, apiResourcePolicyKEP:
		if o.kind == "ResourcePolicy" {
			d.resourcePolicy(st, o)
			return
		}
	}
	d.unsupported(o)
}

// decodedFirst reports whether run decodes o before every other object
// (the Scenario object, a Kueue Configuration and ConfigMaps, which may
// hold one), rather than in dispatch.
func decodedFirst(o *rawObject) bool {
	switch {
	case o.apiVersion == apiKueueplay && o.kind == "Scenario",
		isConfigAPI(o.apiVersion) && o.kind == "Configuration",
		o.apiVersion == apiCoreV1 && o.kind == "ConfigMap":
		return true
	}
	return false
}
