package scenario

import (
	"bytes"
	"errors"
	"io"
	"maps"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kueueplay/kueueplay/core"
)

// This file decodes Kueue's Configuration (config.kueue.x-k8s.io v1beta1
// and v1beta2, apis/config/*/configuration_types.go), on its own or as the
// controller_manager_config.yaml entry of Kueue's manager ConfigMap. Every
// field is sorted into one of three kinds:
//
//   - simulated: resources.excludeResourcePrefixes and
//     resources.transformations (applied to every workload's requests in
//     linkConfiguration) and featureGates (merged into Scenario.Gates);
//   - warned: settings that change scheduling but are not simulated give
//     one warning each, at the field (fairSharing, admissionFairSharing,
//     waitForPodsReady, multiKueue, manageJobsWithoutQueueName,
//     managedJobsNamespaceSelector, resources.deviceClassMappings, and
//     integrations.frameworks without batch/job);
//   - accepted silently: settings of the manager process (webhook,
//     leaderElection, metrics, health, pprofBindAddress, controller, tls,
//     internalCertManagement, clientConnection, namespace, queueVisibility,
//     objectRetentionPolicies, integrations.externalFrameworks,
//     labelKeysToCopy and podOptions). Their field names are checked, their
//     values are not read.
//
// As with every kind, a field that is not in Kueue's type is an error.

// configMapKey is the data key of Kueue's manager ConfigMap that holds the
// Configuration (config/components/manager/kustomization.yaml).
const configMapKey = "controller_manager_config.yaml"

func isConfigAPI(apiVersion string) bool {
	return apiVersion == apiConfigV1beta2 || apiVersion == apiConfigV1beta1
}

// configInfo is the decoded Configuration with what linkConfiguration
// needs.
type configInfo struct {
	cfg core.Configuration
	// label is the object diagnostics about it name.
	label string
	// node is the Configuration's mapping, for positions.
	node *yaml.Node
	// noPods is set when integrations.frameworks enables no pod
	// integration; noPodsAt is the frameworks key, path its field path.
	noPods   bool
	noPodsAt ref
}

// configObject decodes o when it is a Configuration, or a ConfigMap that
// may hold one; other objects are left to dispatch.
func (d *decoder) configObject(st *state, o *rawObject) {
	switch {
	case isConfigAPI(o.apiVersion) && o.kind == "Configuration":
		d.obj = "Configuration"
		d.configuration(st, o, "Configuration", "")
	case o.apiVersion == apiCoreV1 && o.kind == "ConfigMap":
		d.configMap(st, o)
	}
}

// configMap decodes a v1 ConfigMap. One with a controller_manager_config.yaml
// entry is Kueue's manager ConfigMap (`kubectl get cm -n kueue-system -o
// yaml` prints it with the others of the namespace): its Configuration is
// decoded. Any other ConfigMap does not change scheduling: it gets the
// warning every object the playground does not simulate gets.
func (d *decoder) configMap(st *state, o *rawObject) {
	m, rest := d.begin(o, true, nameSubdomain)
	d.annotations(m, annNone, o.kind)
	var cfgKey, cfgVal *yaml.Node
	for _, p := range rest {
		switch p.name {
		case "data":
			for _, q := range d.pairs(p.val, "data") {
				if q.name == configMapKey {
					cfgKey, cfgVal = q.key, q.val
				}
			}
		case "binaryData", "immutable":
		default:
			d.unknown(p, "")
		}
	}
	if cfgKey == nil {
		d.warnf(o.kindNode, "kind", "v1 ConfigMap is not simulated: the playground ignores it (it reads only Kueue's manager ConfigMap, the one with %s)", configMapKey)
		return
	}
	path := key("data", configMapKey)
	if st.config != nil {
		d.errorf(cfgKey, path, "the input may hold at most one Kueue Configuration; the first is %s at %s", st.config.label, d.where(st.config.node.Line, cfgKey))
		return
	}
	if cfgVal == nil || cfgVal.Kind != yaml.ScalarNode || cfgVal.Tag != tagStr {
		d.errorf(orNode(cfgVal, cfgKey), path, "expected a string holding a Kueue Configuration, got %s", describe(cfgVal))
		return
	}
	root := d.embedded(cfgVal, path)
	if root == nil {
		return
	}
	inner := d.rawObject(root, path)
	if inner == nil {
		return
	}
	if !isConfigAPI(inner.apiVersion) || inner.kind != "Configuration" {
		d.errorf(inner.kindNode, join(path, "kind"), "%s must hold a Kueue Configuration (apiVersion %s or %s), got apiVersion %q, kind %q",
			configMapKey, apiConfigV1beta2, apiConfigV1beta1, clip(inner.apiVersion), clip(inner.kind))
		return
	}
	d.configuration(st, inner, m.label, path)
}

// embedded parses the YAML text of scalar v (a ConfigMap's data entry) and
// returns its root node, with every node's position rewritten to the
// position in the file of the text it was parsed from. For a literal
// block scalar (`|`, what kubectl prints) line i of the text is line
// v.Line+i of the file, indented by the block's indentation. Any other
// style (quoted, folded, plain) does not keep lines apart, and every
// position is then the scalar's own.
func (d *decoder) embedded(v *yaml.Node, path string) *yaml.Node {
	text := []byte(v.Value)
	where := d.embedPos(v)
	at := func(line, col int) *yaml.Node {
		l, c := where(line, col)
		return &yaml.Node{Line: l, Column: c}
	}
	if line, col, deep := deepFlow(v.Value, maxFlowScanDepth); deep {
		d.errorf(at(line, col), path, "YAML nesting is deeper than %d levels (MaxDepth)", MaxDepth)
		return nil
	}
	dec := yaml.NewDecoder(bytes.NewReader(text))
	var root *yaml.Node
	for {
		doc := new(yaml.Node)
		err := decodeNext(dec, doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			line, col, msg := syntaxPos(text, err)
			d.errorf(at(line, col), path, "invalid YAML in %s: %s", configMapKey, msg)
			return nil
		}
		if len(doc.Content) == 0 || isNull(doc.Content[0]) {
			continue
		}
		remap(doc, where)
		if root != nil {
			d.errorf(doc.Content[0], path, "%s must hold one YAML document, the Configuration", configMapKey)
			return nil
		}
		root = doc.Content[0]
	}
	if root == nil {
		d.errorf(v, path, "%s is empty: it must hold a Kueue Configuration", configMapKey)
		return nil
	}
	if !d.checkDepth(root) {
		return nil
	}
	return root
}

// embedPos returns the mapping from a position in scalar v's text to a
// position in the file (see embedded).
func (d *decoder) embedPos(v *yaml.Node) func(line, col int) (int, int) {
	own := func(int, int) (int, int) { return v.Line, v.Column }
	if v.Style&yaml.LiteralStyle == 0 {
		return own
	}
	// Skip to the line after the block's header (v.Line, shifted into the
	// inputs' shared line space), then find the indentation of its first
	// non-blank line.
	f, local := d.locate(v.Line)
	rest := f.input.bytes()
	for i := 0; i < local; i++ {
		j := bytes.IndexByte(rest, '\n')
		if j < 0 {
			return own
		}
		rest = rest[j+1:]
	}
	indent := -1
	for len(rest) > 0 {
		ln := rest
		if j := bytes.IndexByte(rest, '\n'); j >= 0 {
			ln, rest = rest[:j], rest[j+1:]
		} else {
			rest = nil
		}
		if isBlank(ln) {
			continue
		}
		indent = len(ln) - len(bytes.TrimLeft(ln, " "))
		break
	}
	if indent < 0 {
		return own
	}
	return func(line, col int) (int, int) { return v.Line + line, col + indent }
}

// remap rewrites the position of every node under n (aliases are not
// followed: their targets are under n too).
func remap(n *yaml.Node, where func(line, col int) (int, int)) {
	stack := []*yaml.Node{n}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n.Line, n.Column = where(n.Line, n.Column)
		stack = append(stack, n.Content...)
	}
}

// configuration decodes a Configuration object. label is the object
// diagnostics name ("Configuration", or the ConfigMap holding it); path
// prefixes field paths (the ConfigMap's data entry, or "").
func (d *decoder) configuration(st *state, o *rawObject, label, path string) {
	d.obj = label
	if st.config != nil {
		d.errorf(o.kindNode, join(path, "kind"), "the input may hold at most one Kueue Configuration; the first is %s at %s", st.config.label, d.where(st.config.node.Line, o.kindNode))
		return
	}
	ci := &configInfo{label: label, node: o.node}
	ci.cfg.Source, ci.cfg.APIVersion, ci.cfg.Pos = label, o.apiVersion, d.pos(o.node)
	st.config = ci
	v1beta1 := o.apiVersion == apiConfigV1beta1
	for _, p := range o.pairs {
		fp := join(path, p.name)
		switch p.name {
		case "apiVersion", "kind":
		case "namespace", "pprofBindAddress":
			d.str(p.val, fp)
		case "webhook":
			d.knownFields(p.val, fp, "port", "host", "certDir")
		case "leaderElection":
			d.knownFields(p.val, fp, "leaderElect", "leaseDuration", "renewDeadline", "retryPeriod", "resourceLock", "resourceName", "resourceNamespace")
		case "metrics":
			d.knownFields(p.val, fp, "bindAddress", "enableClusterQueueResources")
		case "health":
			d.knownFields(p.val, fp, "healthProbeBindAddress", "readinessEndpointName", "livenessEndpointName")
		case "controller":
			d.knownFields(p.val, fp, "groupKindConcurrency", "cacheSyncTimeout")
		case "tls":
			d.knownFields(p.val, fp, "minVersion", "cipherSuites")
		case "internalCertManagement":
			d.knownFields(p.val, fp, "enable", "webhookServiceName", "webhookSecretName")
		case "clientConnection":
			d.knownFields(p.val, fp, "qps", "burst")
		case "objectRetentionPolicies":
			for _, q := range d.pairs(p.val, fp) {
				if q.name == "workloads" {
					d.knownFields(q.val, join(fp, q.name), "afterFinished", "afterDeactivatedByKueue")
				} else {
					d.unknown(q, fp)
				}
			}
		case "queueVisibility":
			if !v1beta1 {
				d.unknown(p, path)
				continue
			}
			d.knownFields(p.val, fp, "clusterQueues", "updateIntervalSeconds")
		case "manageJobsWithoutQueueName":
			if on, ok := d.boolean(p.val, fp); ok && on {
				d.warnf(p.key, fp, "manageJobsWithoutQueueName is not simulated: Kueue would also manage Jobs without a queue-name label, which the playground leaves out")
			}
		case "managedJobsNamespaceSelector":
			if sel := d.labelSelector(p.val, fp, ""); sel != nil {
				d.warnf(p.key, fp, "managedJobsNamespaceSelector is not simulated: the playground manages Jobs in every namespace")
			}
		case "waitForPodsReady":
			d.waitForPodsReady(p, fp, v1beta1)
		case "integrations":
			d.integrations(p.val, fp, v1beta1, ci)
		case "multiKueue":
			fields := []string{"gcInterval", "origin", "workerLostTimeout", "dispatcherName", "externalFrameworks"}
			if !v1beta1 {
				fields = append(fields, "clusterProfile")
			}
			d.knownFields(p.val, fp, fields...)
			if !isNull(p.val) {
				d.warnf(p.key, fp, "multiKueue is not simulated: the playground has no MultiKueue admission checks")
			}
		case "fairSharing":
			d.fairSharingConfig(p, fp, v1beta1)
		case "admissionFairSharing":
			d.knownFields(p.val, fp, "usageHalfLifeTime", "usageSamplingInterval", "resourceWeights")
			if !isNull(p.val) {
				d.warnf(p.key, fp, "admissionFairSharing is not simulated: the playground orders workloads by priority and creation time only")
			}
		case "resources":
			d.resources(p.val, fp, &ci.cfg)
		case "featureGates":
			ci.cfg.FeatureGates = d.featureGates(p.val, fp)
		default:
			d.unknown(p, path)
		}
	}
}

// knownFields checks that n is a mapping whose fields are all among names;
// the values are not read (the settings do not change scheduling).
func (d *decoder) knownFields(n *yaml.Node, path string, names ...string) {
	for _, p := range d.pairs(n, path) {
		if !slices.Contains(names, p.name) {
			d.unknown(p, path)
		}
	}
}

// waitForPodsReady: in v1beta2 the field's presence turns it on; in
// v1beta1 its enable field does.
func (d *decoder) waitForPodsReady(p pair, path string, v1beta1 bool) {
	fields := []string{"timeout", "blockAdmission", "requeuingStrategy", "recoveryTimeout"}
	if v1beta1 {
		fields = append(fields, "enable")
	}
	on := !isNull(p.val) && !v1beta1
	for _, q := range d.pairs(p.val, path) {
		qp := join(path, q.name)
		switch {
		case !slices.Contains(fields, q.name):
			d.unknown(q, path)
		case q.name == "enable":
			on, _ = d.boolean(q.val, qp)
		case q.name == "requeuingStrategy":
			d.knownFields(q.val, qp, "timestamp", "backoffLimitCount", "backoffBaseSeconds", "backoffMaxSeconds")
		}
	}
	if on {
		d.warnf(p.key, path, "waitForPodsReady is not simulated: the playground counts a workload as running once admitted and never evicts it for pods that are not ready")
	}
}

// fairSharingConfig: in v1beta2 the field's presence turns fair sharing
// on; in v1beta1 its enable field does.
func (d *decoder) fairSharingConfig(p pair, path string, v1beta1 bool) {
	on := !isNull(p.val) && !v1beta1
	for _, q := range d.pairs(p.val, path) {
		qp := join(path, q.name)
		switch {
		case q.name == "enable" && v1beta1:
			on, _ = d.boolean(q.val, qp)
		case q.name == "preemptionStrategies":
			for i, item := range d.items(q.val, qp) {
				d.strEnum(item, index(qp, i), "LessThanOrEqualToFinalShare", "LessThanInitialShare")
			}
		default:
			d.unknown(q, path)
		}
	}
	if on {
		d.warnf(p.key, path, "fairSharing is not simulated: the playground admits and preempts by priority and ClusterQueue policies, without share values")
	}
}

// integrations decodes integrations. The playground queues what Kueue's
// shipped manager configuration enables: Jobs and the other job kinds,
// and, through the pod integration, Pods and the pods of Deployments and
// ReplicaSets with a queue. A list without batch/job is a warning. A list
// without any framework that enables the pod integration ("pod", or
// "deployment", "statefulset" and "leaderworkerset", which enable it
// implicitly: ImplicitlyEnabledFrameworkNames in their registrations)
// sets ci.noPods: the pods of Deployments and ReplicaSets are then placed
// without Kueue (linkQueuedDeployments), and queued Pods get a warning
// (linkConfiguration).
func (d *decoder) integrations(n *yaml.Node, path string, v1beta1 bool, ci *configInfo) {
	fields := []string{"frameworks", "externalFrameworks", "labelKeysToCopy"}
	if v1beta1 {
		fields = append(fields, "podOptions")
	}
	for _, p := range d.pairs(n, path) {
		fp := join(path, p.name)
		switch {
		case !slices.Contains(fields, p.name):
			d.unknown(p, path)
		case p.name == "frameworks":
			names, _ := d.stringList(p.val, fp)
			if len(names) == 0 {
				continue // defaulted to batch/job
			}
			if !slices.Contains(names, "batch/job") {
				d.warnf(p.key, fp, "integrations.frameworks without batch/job is not simulated: Kueue would not manage batch/v1 Jobs, which the playground queues")
			}
			ci.noPods = !slices.ContainsFunc(names, func(n string) bool {
				return n == "pod" || n == "deployment" || n == "statefulset" || n == "leaderworkerset.x-k8s.io/leaderworkerset"
			})
			ci.noPodsAt = ref{node: p.key, path: fp}
		case p.name == "podOptions":
			d.knownFields(p.val, fp, "namespaceSelector", "podSelector")
		}
	}
}

// resources decodes resources: excludeResourcePrefixes and transformations
// are simulated, deviceClassMappings (DRA) is a warning.
func (d *decoder) resources(n *yaml.Node, path string, cfg *core.Configuration) {
	for _, p := range d.pairs(n, path) {
		fp := join(path, p.name)
		switch p.name {
		case "excludeResourcePrefixes":
			prefixes, _ := d.stringList(p.val, fp)
			cfg.ExcludeResourcePrefixes = append(cfg.ExcludeResourcePrefixes, prefixes...)
		case "transformations":
			seen := map[core.ResourceName]bool{}
			for i, item := range d.items(p.val, fp) {
				if t, ok := d.transformation(item, index(fp, i), seen); ok {
					cfg.Transformations = append(cfg.Transformations, t)
				}
			}
		case "deviceClassMappings":
			items := d.items(p.val, fp)
			for i, item := range items {
				d.knownFields(item, index(fp, i), "name", "deviceClassNames")
			}
			if len(items) > 0 {
				d.warnf(p.key, fp, "deviceClassMappings is not simulated: the playground does not count Dynamic Resource Allocation devices")
			}
		default:
			d.unknown(p, path)
		}
	}
}

// transformation decodes one resources.transformations entry. As Kueue's
// validateResourceTransformations, the strategy must be Retain (the
// default) or Replace and inputs must be unique.
func (d *decoder) transformation(n *yaml.Node, path string, seen map[core.ResourceName]bool) (core.ResourceTransformation, bool) {
	t := core.ResourceTransformation{Strategy: core.TransformRetain}
	ok, haveInput := true, false
	resName := func(v *yaml.Node, fp string) (core.ResourceName, bool) {
		s, good := d.str(v, fp)
		if !good {
			return "", false
		}
		if msg := checkQualifiedName(s); msg != "" {
			d.errorf(v, fp, "invalid resource name: %s", msg)
			return "", false
		}
		return core.ResourceName(s), true
	}
	for _, p := range d.pairs(n, path) {
		fp := join(path, p.name)
		switch p.name {
		case "input":
			haveInput = true
			r, good := resName(p.val, fp)
			if !good {
				ok = false
				continue
			}
			if seen[r] {
				d.errorf(p.val, fp, "duplicate transformation input %q", r)
				ok = false
			}
			seen[r], t.Input = true, r
		case "strategy":
			if s, good := d.strEnum(p.val, fp, string(core.TransformRetain), string(core.TransformReplace)); good {
				t.Strategy = core.TransformationStrategy(s)
			}
		case "multiplyBy":
			if r, good := resName(p.val, fp); good {
				t.MultiplyBy = r
			}
		case "outputs":
			for _, q := range d.pairs(p.val, fp) {
				qp := key(fp, q.name)
				if msg := checkQualifiedName(q.name); msg != "" {
					d.errorf(q.key, qp, "invalid resource name: %s", msg)
					continue
				}
				text, _ := d.scalarText(q.val, qp, "a quantity")
				milli, good := d.nonNegQuantity(q.val, qp, core.ResourceCPU)
				if good {
					t.Outputs = append(t.Outputs, core.TransformationOutput{Name: core.ResourceName(q.name), Quantity: text, MilliPerUnit: milli})
				}
			}
			slices.SortFunc(t.Outputs, func(a, b core.TransformationOutput) int { return strings.Compare(string(a.Name), string(b.Name)) })
		default:
			d.unknown(p, path)
		}
	}
	if isNull(n) {
		return t, false
	}
	if !haveInput {
		d.required(n, path, "input")
		ok = false
	}
	return t, ok
}

// mergeGates sets Scenario.Gates: the Configuration's gates, then the
// Scenario object's over them (the CLI's -gate and the UI's overrides come
// later, in sim.Options, over both).
func (d *decoder) mergeGates(st *state) {
	if st.config == nil {
		return
	}
	cfg := &st.config.cfg
	sc := &st.scenario.sc
	if len(cfg.FeatureGates) > 0 {
		sc.Gates = cfg.FeatureGates.With(sc.Gates)
	}
	sc.Configuration = cfg
}

// linkConfiguration applies the Configuration's excluded prefixes and
// transformations to every workload's requests, as Kueue does when it
// builds a workload.Info (for Workload objects and Jobs alike). It runs
// once every object is known, since the Configuration may come after the
// workloads in the file. A workload that starts admitted keeps its pasted
// status.admission resourceUsage, which Kueue computed with the
// transformations already.
func (d *decoder) linkConfiguration(st *state) {
	ci := st.config
	if ci == nil {
		return
	}
	cfg := &ci.cfg
	if ci.noPods && slices.ContainsFunc(st.workloads, func(w *wlInfo) bool { return !w.dropped && w.job && w.jobKind == "Pod" }) {
		d.warnObj(ci.label, ci.noPodsAt.node, ci.noPodsAt.path, "integrations.frameworks enables no pod integration (pod, or deployment, statefulset or leaderworkerset, which enable it), and that is not simulated for Pods: Kueue would not queue the Pods of the input, which the playground queues")
	}
	// apply transforms the requests of w's Workload, or with w nil of
	// fastWorkloads[i].
	apply := func(w *wlInfo, i int) {
		wl := st.workload(w, i)
		// The pod sets may be shared with other Workloads (podSetList):
		// they are copied before they are changed.
		copied := false
		for j := range wl.PodSets {
			ps := &wl.PodSets[j]
			out, conflicts, err := cfg.EffectiveRequests(ps.Requests)
			if err != nil {
				label, n := st.workloadAt(w, i)
				d.errorObj(label, n, "", "pod set %q: the Configuration's resources.transformations give a request that does not fit in an int64: %v", ps.Name, err)
				continue
			}
			if len(conflicts) > 0 {
				label, n := st.workloadAt(w, i)
				d.warnObj(label, n, "", "pod set %q requests %s, which the Configuration's resources.transformations also output: Kueue v0.16.1 then either adds the two or keeps only the request, by map order; the playground adds them", ps.Name, quoteResourceNames(conflicts))
			}
			if !maps.Equal(out, ps.Requests) {
				if !copied {
					wl.PodSets, copied = slices.Clone(wl.PodSets), true
					ps = &wl.PodSets[j]
				}
				ps.PodRequests, ps.Requests = ps.Requests, out
			}
		}
	}
	for _, w := range st.workloads {
		apply(w, 0)
	}
	for i := range st.fastWorkloads {
		apply(nil, i)
	}
	for _, dp := range st.deployments {
		if dp.proto != nil {
			apply(dp.proto, 0) // the Workload of each of its pods
		}
	}
}

func quoteResourceNames(rs []core.ResourceName) string {
	ss := make([]string, len(rs))
	for i, r := range rs {
		ss[i] = string(r)
	}
	return quoteList(ss)
}
