package trace

// The trace's JSON (format kueueplay.trace/v5) leaves out what a reader
// can derive from what stays, and the hot types are written by hand
// rather than through reflection (a 15,000-workload run writes some
// 30,000 decisions). Every value left out is restored by the types'
// UnmarshalJSON, so decoding the JSON gives back the Trace that was
// written (TestJSONRoundTrip). What is left out:
//
//   - zeros of counts and amounts (omitempty: 0 is what absent means);
//   - a decision's order when it is its 1-based position in its step,
//     a pod set's name when it is "main" and its count when it is 1;
//   - a GroupAttempt's triedIndex when -1 and its resume when "first";
//   - a Quantity's text when it is core.FormatAmount of its amount;
//   - a group's resources when they are its pod set's requested ones
//     (groupResources);
//   - a pod set's mode when it is its decision's (or, in a Recomputation,
//     beforeMode), and its message when it is derived from its flavor
//     attempts' reasons (podSetMessage);
//   - a decision's message when it is what Kueue writes from its pod sets
//     or its skip reason (decisionMessage), its requeue and requeueReason
//     when its outcome decides them (requeueOf), and its admission when it
//     is each group's chosen flavor for each of the group's resources
//     (admissionOf);
//   - a preemption search's summary when it is what its targets, last
//     pass and candidates say (preemptionSummary), and a pass's step's
//     why when its action gives it (candidateStepWhy);
//   - a step's heads when they are its decisions' workloads in the order
//     of their ClusterQueues' names (headsOf);
//   - an event's message when its facts say it (Event.Text, event.go:
//     the engine writes no message then, and the JSON has none);
//   - a decision's pod sets, and its preemption search, when an earlier
//     decision of the same step wrote the same JSON for them (and, for
//     pod sets, had the same mode): "podSetsOf" and "preemptionOf" give
//     that decision's 1-based position in the step instead (sameAs).
//
// A field that differs from its derivation is written as it is, even
// when empty ("message":""), so nothing depends on the engine keeping
// the rules: the rules only decide what is short.

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kueueplay/kueueplay/core"
)

// ---- derivations ----

// defaultPodSet is the name a pod set has unless its JSON says otherwise:
// Kueue's default (the one pod set of a batch Job, a Deployment's pods).
const defaultPodSet = "main"

// quantityText is the text a Quantity's amount is written as.
func quantityText(resource string, amount int64) string {
	return core.FormatAmount(core.ResourceName(resource), amount)
}

// podSetMessage is a pod set's status message as Kueue writes it from the
// reasons of its flavor attempts (flavorassigner's Status.Message: the
// reasons, sorted, joined by ", "); "" for a pod set that fits.
func podSetMessage(ps *PodSetDecision) string {
	if ps.Mode == "Fit" {
		return ""
	}
	var rs []string
	for _, g := range ps.Groups {
		for _, a := range g.Attempts {
			rs = append(rs, a.ReasonTexts()...)
		}
	}
	slices.Sort(rs)
	return strings.Join(rs, ", ")
}

// decisionMessage is the QuotaReserved=False message Kueue writes for an
// assignment (flavorassigner's Assignment.Message: one part per pod set
// that does not fit), with the preemption's count for a Preempting
// decision (scheduler's "Pending the preemption of %d workload(s)").
func decisionMessage(d *Decision) string {
	switch {
	case d.Outcome == OutcomeAdmitted:
		return ""
	case d.Outcome == OutcomeSkipped && d.SkipReason == "noLongerFits":
		return "Workload no longer fits after processing another workload"
	case d.Outcome == OutcomeSkipped && d.SkipReason == "overlappingTargets":
		return "Workload has overlapping preemption targets with another workload"
	}
	var parts []string
	for i := range d.PodSets {
		ps := &d.PodSets[i]
		if ps.Message == "" {
			continue
		}
		parts = append(parts, "couldn't assign flavors to pod set "+ps.PodSet+": "+ps.Message)
	}
	m := strings.Join(parts, "; ")
	if d.Outcome == OutcomePreempting && d.Preemption != nil {
		m += fmt.Sprintf(". Pending the preemption of %d workload(s)", len(d.Preemption.Targets))
	}
	return m
}

// requeueOf is how a decision's workload goes back to its queue, as the
// scheduler's requeueAndUpdate decides from the entry's status: an
// entry skipped after nomination is requeued at once (reason
// FailedAfterNomination), one waiting for its preemption targets too
// (PendingPreemption), and one that does not fit is parked (Generic).
// Other outcomes have no rule ("", "").
func requeueOf(d *Decision) (string, string) {
	switch d.Outcome {
	case OutcomeSkipped:
		return "immediate", "FailedAfterNomination"
	case OutcomePreempting:
		return "immediate", "PendingPreemption"
	case OutcomeNeedsPreemption, OutcomeNoFit:
		return "parked", "Generic"
	}
	return "", ""
}

// groupResources is what a group's resources default to: the pod set's
// requested resources, in order (a pod set whose requests one resource
// group covers).
func groupResources(ps *PodSetDecision) []string {
	if len(ps.Requests) == 0 {
		return nil
	}
	out := make([]string, len(ps.Requests))
	for i, q := range ps.Requests {
		out[i] = q.Resource
	}
	return out
}

func sameResources(g []string, ps *PodSetDecision) bool {
	if len(g) != len(ps.Requests) || g == nil {
		return false
	}
	for i, q := range ps.Requests {
		if g[i] != q.Resource {
			return false
		}
	}
	return true
}

// admissionOf is an admitted decision's admission as its flavor search
// gives it: per pod set, each resource of each group with the group's
// chosen flavor, by resource name; nil for a decision not admitted.
func admissionOf(d *Decision) []PodSetFlavors {
	if d.Outcome != OutcomeAdmitted {
		return nil
	}
	out := make([]PodSetFlavors, 0, len(d.PodSets))
	for _, ps := range d.PodSets {
		pf := PodSetFlavors{PodSet: ps.PodSet}
		for _, g := range ps.Groups {
			for _, r := range g.Resources {
				pf.Flavors = append(pf.Flavors, ResourceFlavor{Resource: r, Flavor: g.Chosen})
			}
		}
		slices.SortStableFunc(pf.Flavors, func(a, b ResourceFlavor) int { return strings.Compare(a.Resource, b.Resource) })
		out = append(out, pf)
	}
	return out
}

// headsOf is a cycle's heads as its decisions give them: one per
// decision, in the order of the ClusterQueues' names (the engine pops
// the queues in that order).
func headsOf(ds []Decision) []Head {
	if len(ds) == 0 {
		return nil
	}
	out := make([]Head, len(ds))
	for i := range ds {
		out[i] = Head{ClusterQueue: ds[i].ClusterQueue, Workload: ds[i].Workload}
	}
	slices.SortStableFunc(out, func(a, b Head) int { return strings.Compare(a.ClusterQueue, b.ClusterQueue) })
	return out
}

// headsDerived tells whether heads are headsOf(ds), reusing j's scratch
// space.
func (j *jsonBuf) headsDerived(heads []Head, ds []Decision) bool {
	if len(heads) != len(ds) {
		return false
	}
	if len(ds) == 0 {
		return true // len(heads) == 0: nothing to write
	}
	j.heads = j.heads[:0]
	for i := range ds {
		j.heads = append(j.heads, Head{ClusterQueue: ds[i].ClusterQueue, Workload: ds[i].Workload})
	}
	slices.SortStableFunc(j.heads, func(a, b Head) int { return strings.Compare(a.ClusterQueue, b.ClusterQueue) })
	return slices.Equal(heads, j.heads)
}

// admissionDerived tells whether d's admission is admissionOf(d), without
// building it.
func admissionDerived(d *Decision) bool {
	if d.Outcome != OutcomeAdmitted {
		return d.Admission == nil
	}
	if len(d.Admission) != len(d.PodSets) || d.Admission == nil {
		return false
	}
	for i := range d.PodSets {
		ps, pf := &d.PodSets[i], &d.Admission[i]
		if pf.PodSet != ps.PodSet {
			return false
		}
		n := 0
		for _, g := range ps.Groups {
			n += len(g.Resources)
		}
		if n != len(pf.Flavors) || (n == 0 && pf.Flavors != nil) {
			return false
		}
		if n == 1 {
			for _, g := range ps.Groups {
				if len(g.Resources) == 1 && (pf.Flavors[0] != ResourceFlavor{Resource: g.Resources[0], Flavor: g.Chosen}) {
					return false
				}
			}
			continue
		}
		if n > 0 && !slices.Equal(pf.Flavors, admissionOf(&Decision{Outcome: OutcomeAdmitted, PodSets: d.PodSets[i : i+1]})[0].Flavors) {
			return false
		}
	}
	return true
}

// podSetMessageDerived tells whether ps's message is podSetMessage(ps),
// without building it when one reason is all there is.
func podSetMessageDerived(ps *PodSetDecision) bool {
	if ps.Mode == "Fit" {
		return ps.Message == ""
	}
	var one *Reason
	var oneFlavor string
	n := 0
	for _, g := range ps.Groups {
		for _, a := range g.Attempts {
			for i := range a.Reasons {
				one, oneFlavor = &a.Reasons[i], a.Flavor
				n++
			}
		}
	}
	switch n {
	case 0:
		return ps.Message == ""
	case 1:
		return ps.Message == one.Text(oneFlavor)
	}
	return ps.Message == podSetMessage(ps)
}

// decisionMessageDerived tells whether d's message is decisionMessage(d),
// without building it for the common cases.
func decisionMessageDerived(d *Decision) bool {
	switch {
	case d.Outcome == OutcomeAdmitted:
		return d.Message == ""
	case d.Outcome == OutcomeSkipped && (d.SkipReason == "noLongerFits" || d.SkipReason == "overlappingTargets"):
		return d.Message == decisionMessage(d) // constants
	case d.Outcome == OutcomePreempting:
		return d.Message == decisionMessage(d)
	}
	// One part per pod set with a message: walk d.Message part by part.
	m := d.Message
	first := true
	for i := range d.PodSets {
		ps := &d.PodSets[i]
		if ps.Message == "" {
			continue
		}
		if !first {
			if !strings.HasPrefix(m, "; ") {
				return false
			}
			m = m[2:]
		}
		first = false
		const p = "couldn't assign flavors to pod set "
		if !strings.HasPrefix(m, p) || !strings.HasPrefix(m[len(p):], ps.PodSet) {
			return false
		}
		m = m[len(p)+len(ps.PodSet):]
		if !strings.HasPrefix(m, ": ") || !strings.HasPrefix(m[2:], ps.Message) {
			return false
		}
		m = m[2+len(ps.Message):]
	}
	return m == ""
}

// ---- the appender ----

// jsonBuf appends JSON to a byte slice: an object's fields with their
// commas, and values encoded as encoding/json encodes them.
type jsonBuf struct {
	b     []byte
	first bool // the next field is the object's first
	err   error
	heads []Head // scratch space for headsDerived
	// shared are the pod sets and preemption searches written in full so
	// far in the step being written, which a later decision of the step
	// refers to when its own are written the same (sameAs).
	shared []sharedPart
	// changes unpacks a step's queue changes (QueueDelta).
	changes QueueChangeReader
}

// sharedPart is a part of a decision written in full: which (its key),
// where in b (from its comma to its end), for the pos-th decision of the
// step, whose mode was mode (pod sets leave out a mode that is their
// decision's, so the same bytes mean the same pod sets only under the
// same mode).
type sharedPart struct {
	key        string
	start, end int
	pos        int
	mode       string
}

func (j *jsonBuf) open()  { j.b = append(j.b, '{'); j.first = true }
func (j *jsonBuf) close() { j.b = append(j.b, '}'); j.first = false }

// key writes a field's name (and the comma before it).
func (j *jsonBuf) key(k string) {
	if !j.first {
		j.b = append(j.b, ',')
	}
	j.first = false
	j.b = append(j.b, '"')
	j.b = append(j.b, k...)
	j.b = append(j.b, '"', ':')
}

func (j *jsonBuf) str(k, v string) { j.key(k); j.b = appendString(j.b, v) }

// strOmit writes a string field unless it is empty.
func (j *jsonBuf) strOmit(k, v string) {
	if v != "" {
		j.str(k, v)
	}
}

func (j *jsonBuf) int(k string, v int64) { j.key(k); j.b = strconv.AppendInt(j.b, v, 10) }

func (j *jsonBuf) intOmit(k string, v int64) {
	if v != 0 {
		j.int(k, v)
	}
}

func (j *jsonBuf) bool(k string, v bool) { j.key(k); j.b = strconv.AppendBool(j.b, v) }

func (j *jsonBuf) boolOmit(k string, v bool) {
	if v {
		j.bool(k, v)
	}
}

// strs writes a list of strings (null for nil, as encoding/json does).
func (j *jsonBuf) strs(k string, v []string) {
	j.key(k)
	if v == nil {
		j.b = append(j.b, "null"...)
		return
	}
	j.b = append(j.b, '[')
	for i, s := range v {
		if i > 0 {
			j.b = append(j.b, ',')
		}
		j.b = appendString(j.b, s)
	}
	j.b = append(j.b, ']')
}

func (j *jsonBuf) strsOmit(k string, v []string) {
	if len(v) > 0 {
		j.strs(k, v)
	}
}

// any writes v through encoding/json (the types no run writes many of).
func (j *jsonBuf) any(k string, v any) {
	j.key(k)
	data, err := json.Marshal(v)
	if err != nil && j.err == nil {
		j.err = err
	}
	j.b = append(j.b, data...)
}

// list writes a non-empty list with each element's appender (omitempty).
func list[T any](j *jsonBuf, k string, v []T, each func(*jsonBuf, *T)) {
	if len(v) == 0 {
		return
	}
	listAlways(j, k, v, each)
}

// listAlways writes a list even when empty (null for nil).
func listAlways[T any](j *jsonBuf, k string, v []T, each func(*jsonBuf, *T)) {
	j.key(k)
	if v == nil {
		j.b = append(j.b, "null"...)
		return
	}
	j.b = append(j.b, '[')
	for i := range v {
		if i > 0 {
			j.b = append(j.b, ',')
		}
		each(j, &v[i])
	}
	j.b = append(j.b, ']')
}

const hexDigits = "0123456789abcdef"

// safeASCII[c] is '1' for the ASCII bytes a JSON string holds as they are
// (encoding/json's htmlSafeSet): not control characters, '"', '\\', '<',
// '>' or '&'.
const safeASCII = "0000000000000000000000000000000011011101111111111111111111110101" +
	"1111111111111111111111111111011111111111111111111111111111111111"

// AppendJSONString appends s as a JSON string exactly as encoding/json
// writes it with HTML escaping; the page's Overview encoder (ui/engine)
// writes its strings with it.
func AppendJSONString(b []byte, s string) []byte { return appendString(b, s) }

// appendString appends s as a JSON string exactly as encoding/json writes
// it with HTML escaping (its appendString): <, > and & as \u003c..., the
// line and paragraph separators escaped, invalid UTF-8 as \ufffd.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if safeASCII[c] == '1' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// ---- Step ----

// AppendJSON appends st's JSON to b.
func (st *Step) AppendJSON(b []byte) ([]byte, error) {
	j := jsonBuf{b: b}
	st.appendJSON(&j)
	return j.b, j.err
}

// step writes st to j.b, which it empties first, keeping j's space.
func (j *jsonBuf) step(st *Step) ([]byte, error) {
	j.b, j.err = j.b[:0], nil
	st.appendJSON(j)
	return j.b, j.err
}

// MarshalJSON writes the step in the trace's JSON format (json.go).
func (st Step) MarshalJSON() ([]byte, error) { return st.AppendJSON(nil) }

func (st *Step) appendJSON(j *jsonBuf) {
	j.open()
	j.int("index", int64(st.Index))
	j.str("kind", string(st.Kind))
	j.int("timeMs", st.TimeMs)
	j.int("cycle", int64(st.Cycle))
	j.bool("changed", st.Changed)
	list(j, "events", st.Events, (*jsonBuf).event)
	if !j.headsDerived(st.Heads, st.Decisions) {
		listAlways(j, "heads", st.Heads, (*jsonBuf).head)
	}
	if len(st.Decisions) > 0 {
		j.key("decisions")
		j.b = append(j.b, '[')
		j.shared = j.shared[:0]
		for i := range st.Decisions {
			if i > 0 {
				j.b = append(j.b, ',')
			}
			j.decision(&st.Decisions[i], i+1)
		}
		j.b = append(j.b, ']')
	}
	j.boolOmit("full", st.Full)
	list(j, "usage", st.Usage, (*jsonBuf).usageRow)
	list(j, "queues", st.Queues, (*jsonBuf).queueState)
	list(j, "usageChanges", st.UsageChanges, (*jsonBuf).usageChange)
	j.queueChanges(st)
	if len(st.Claims) > 0 {
		j.any("claims", st.Claims)
	}
	if len(st.Placements) > 0 {
		j.any("placements", st.Placements)
	}
	if len(st.ScaleDowns) > 0 {
		j.any("scaleDowns", st.ScaleDowns)
	}
	if len(st.Nodes) > 0 {
		j.any("nodes", st.Nodes)
	}
	if len(st.UnitCounts) > 0 {
		j.any("unitCounts", st.UnitCounts)
	}
	if len(st.PendingPods) > 0 {
		j.any("pendingPods", st.PendingPods)
	}
	j.intOmit("pendingCount", int64(st.PendingCount))
	j.close()
}

type stepAlias Step

// stepJSON decodes a step; Heads is raw to tell absent (derived) from
// written.
type stepJSON struct {
	*stepAlias
	Heads     json.RawMessage   `json:"heads"`
	Decisions []json.RawMessage `json:"decisions"`
}

// UnmarshalJSON reads a step written by MarshalJSON (or by format v2),
// restoring what was left out.
func (st *Step) UnmarshalJSON(data []byte) error {
	*st = Step{}
	aux := stepJSON{stepAlias: (*stepAlias)(st)}
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	if aux.Decisions != nil {
		st.Decisions = make([]Decision, len(aux.Decisions))
		for i := range aux.Decisions {
			if err := decodeDecision(aux.Decisions[i], &st.Decisions[i], st.Decisions[:i]); err != nil {
				return err
			}
		}
	}
	for i := range st.Decisions {
		if st.Decisions[i].Order == orderFromPosition {
			st.Decisions[i].Order = i + 1
		}
	}
	if aux.Heads == nil {
		st.Heads = headsOf(st.Decisions)
		return nil
	}
	return json.Unmarshal(aux.Heads, &st.Heads)
}

func (j *jsonBuf) head(h *Head) {
	j.open()
	j.str("clusterQueue", h.ClusterQueue)
	j.str("workload", h.Workload)
	j.close()
}

// ---- Decision ----

// MarshalJSON writes the decision in the trace's JSON format (json.go).
func (d Decision) MarshalJSON() ([]byte, error) {
	j := jsonBuf{}
	j.decision(&d, -1)
	return j.b, j.err
}

// decision writes d, the pos-th (1-based) decision of its step (-1: not
// in a step), leaving out an order that is its position.
func (j *jsonBuf) decision(d *Decision, pos int) {
	j.open()
	j.str("workload", d.Workload)
	j.str("clusterQueue", d.ClusterQueue)
	j.intOmit("priority", int64(d.Priority))
	if d.Order != pos {
		j.int("order", int64(d.Order))
	}
	start := len(j.b)
	j.podSets("podSets", d.PodSets, d.Mode)
	j.sameAs(start, pos, "podSets", d.Mode)
	j.strOmit("mode", d.Mode)
	j.intOmit("borrowing", int64(d.Borrowing))
	j.str("outcome", string(d.Outcome))
	j.strOmit("skipReason", d.SkipReason)
	if !decisionMessageDerived(d) {
		j.str("message", d.Message)
	}
	j.strOmit("explanation", d.Explanation)
	list(j, "reserved", d.Reserved, (*jsonBuf).quantity)
	if rq, rr := requeueOf(d); d.Requeue != rq || d.RequeueReason != rr {
		j.str("requeue", d.Requeue)
		j.str("requeueReason", d.RequeueReason)
	}
	if !admissionDerived(d) {
		listAlways(j, "admission", d.Admission, (*jsonBuf).podSetFlavors)
	}
	if d.Preemption != nil {
		start := len(j.b)
		j.key("preemption")
		j.preemption(d.Preemption)
		j.sameAs(start, pos, "preemption", "")
	}
	if d.Recomputed != nil {
		j.key("recomputed")
		j.recomputation(d.Recomputed)
	}
	j.close()
}

// sameAs replaces the part of the pos-th decision of a step just written
// from start (key k's field, with its comma) by a reference to the first
// decision of the step that wrote the same bytes under the same mode:
// k+"Of" and that decision's position ("podSetsOf":3). A decision alone
// (pos -1) and a part not written (empty) are left as they are. The
// decisions of a cycle are mostly the same few pod sets and searches
// (one head per ClusterQueue, all asking for the same flavor), so most
// of a large trace's decisions refer to one a few entries earlier.
func (j *jsonBuf) sameAs(start, pos int, k, mode string) {
	if pos < 1 || len(j.b) == start {
		return
	}
	part := j.b[start:]
	for _, s := range j.shared {
		if s.key == k && s.mode == mode && string(j.b[s.start:s.end]) == string(part) {
			j.b = j.b[:start]
			j.int(k+"Of", int64(s.pos))
			return
		}
	}
	j.shared = append(j.shared, sharedPart{key: k, start: start, end: len(j.b), pos: pos, mode: mode})
}

// podSets writes a decision's pod sets under key k; mode is the
// decision's, which a pod set's mode defaults to.
func (j *jsonBuf) podSets(k string, ps []PodSetDecision, mode string) {
	list(j, k, ps, func(j *jsonBuf, p *PodSetDecision) { j.podSet(p, mode) })
}

func (j *jsonBuf) podSet(p *PodSetDecision, mode string) {
	j.open()
	if p.PodSet != defaultPodSet {
		j.str("podSet", p.PodSet)
	}
	if p.Count != 1 {
		j.int("count", int64(p.Count))
	}
	listAlways(j, "requests", p.Requests, (*jsonBuf).quantity)
	listAlways(j, "groups", p.Groups, func(j *jsonBuf, g *GroupAttempt) { j.group(g, p) })
	if p.Mode != mode {
		j.str("mode", p.Mode)
	}
	if !podSetMessageDerived(p) {
		j.str("message", p.Message)
	}
	j.close()
}

// MarshalJSON writes the group in the trace's JSON format (json.go).
func (g GroupAttempt) MarshalJSON() ([]byte, error) {
	j := jsonBuf{}
	j.group(&g, nil)
	return j.b, j.err
}

// group writes a group of pod set ps (nil: the group alone), leaving out
// resources that are ps's requested ones.
func (j *jsonBuf) group(g *GroupAttempt, ps *PodSetDecision) {
	j.open()
	if ps == nil || !sameResources(g.Resources, ps) {
		j.strs("resources", g.Resources)
	}
	j.intOmit("startIndex", int64(g.StartIndex))
	if g.Resume != ResumeFirst {
		j.str("resume", string(g.Resume))
	}
	j.strOmit("resumedAfter", g.ResumedAfter)
	j.strOmit("reset", string(g.Reset))
	j.boolOmit("borrowingFirst", g.BorrowingFirst)
	listAlways(j, "attempts", g.Attempts, (*jsonBuf).attempt)
	j.strOmit("chosen", g.Chosen)
	j.strOmit("preferenceNote", g.PreferenceNote)
	if g.TriedIndex != -1 {
		j.int("triedIndex", int64(g.TriedIndex))
	}
	j.strOmit("unavailable", g.Unavailable)
	j.close()
}

type groupAlias GroupAttempt

// UnmarshalJSON reads a group, restoring its defaults (resume "first",
// triedIndex -1).
func (g *GroupAttempt) UnmarshalJSON(data []byte) error {
	*g = GroupAttempt{Resume: ResumeFirst, TriedIndex: -1}
	return json.Unmarshal(data, (*groupAlias)(g))
}

func (j *jsonBuf) attempt(a *FlavorAttempt) {
	j.open()
	j.str("flavor", a.Flavor)
	j.intOmit("index", int64(a.Index))
	j.str("mode", a.Mode)
	j.intOmit("borrowing", int64(a.Borrowing))
	if len(a.Reasons) > 0 { // by hand: list's code for one more type costs the page's WebAssembly 3.5 KB
		j.key("reasons")
		j.b = append(j.b, '[')
		for i := range a.Reasons {
			if i > 0 {
				j.b = append(j.b, ',')
			}
			j.reason(&a.Reasons[i])
		}
		j.b = append(j.b, ']')
	}
	j.boolOmit("continue", a.Continue)
	j.str("rule", string(a.Rule))
	j.boolOmit("best", a.Best)
	j.strsOmit("preemptionTargets", a.PreemptionTargets)
	j.close()
}

// reason writes a reason's code and its non-zero facts.
func (j *jsonBuf) reason(r *Reason) {
	j.open()
	j.str("code", string(r.Code))
	j.strOmit("resource", r.Resource)
	j.intOmit("amount", r.Amount)
	j.intOmit("assumed", r.Assumed)
	j.intOmit("capacity", r.Capacity)
	j.strOmit("detail", r.Detail)
	j.close()
}

type reasonAlias Reason

// UnmarshalJSON reads a reason: an object (v4), or the words of a reason
// in a trace v2 or v3 (a string), kept as Detail with code "words".
func (r *Reason) UnmarshalJSON(data []byte) error {
	*r = Reason{}
	if len(data) > 0 && data[0] == '"' {
		r.Code = ReasonWords
		return json.Unmarshal(data, &r.Detail)
	}
	return json.Unmarshal(data, (*reasonAlias)(r))
}

// MarshalJSON writes the quantity in the trace's JSON format: its text
// only when it is not core.FormatAmount of its amount.
func (q Quantity) MarshalJSON() ([]byte, error) {
	j := jsonBuf{}
	j.quantity(&q)
	return j.b, j.err
}

func (j *jsonBuf) quantity(q *Quantity) {
	j.open()
	j.strOmit("flavor", q.Flavor)
	j.str("resource", q.Resource)
	j.int("amount", q.Amount)
	if q.Text != quantityText(q.Resource, q.Amount) {
		j.str("text", q.Text)
	}
	j.close()
}

type quantityAlias Quantity

// quantityJSON decodes a Quantity; Text is a pointer to tell absent
// (derived) from written.
type quantityJSON struct {
	*quantityAlias
	Text *string `json:"text"`
}

// UnmarshalJSON reads a quantity, writing its text from its amount when
// the JSON has none.
func (q *Quantity) UnmarshalJSON(data []byte) error {
	*q = Quantity{}
	aux := quantityJSON{quantityAlias: (*quantityAlias)(q)}
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	if aux.Text != nil {
		q.Text = *aux.Text
	} else {
		q.Text = quantityText(q.Resource, q.Amount)
	}
	return nil
}

func (j *jsonBuf) podSetFlavors(p *PodSetFlavors) {
	j.open()
	j.str("podSet", p.PodSet)
	listAlways(j, "flavors", p.Flavors, func(j *jsonBuf, f *ResourceFlavor) {
		j.open()
		j.str("resource", f.Resource)
		j.str("flavor", f.Flavor)
		j.close()
	})
	j.close()
}

// MarshalJSON writes the recomputation in the trace's JSON format: its
// pod sets' modes default to BeforeMode.
func (r Recomputation) MarshalJSON() ([]byte, error) {
	j := jsonBuf{}
	j.recomputation(&r)
	return j.b, j.err
}

func (j *jsonBuf) recomputation(r *Recomputation) {
	j.open()
	j.strs("overlapping", r.Overlapping)
	j.str("beforeMode", r.BeforeMode)
	j.podSets("beforePodSets", r.BeforePodSets, r.BeforeMode)
	if r.BeforePreemption != nil {
		j.key("beforePreemption")
		j.preemption(r.BeforePreemption)
	}
	j.close()
}

// podSetJSON decodes a pod set; Mode and Message are raw to tell absent
// (derived) from written.
type podSetJSON struct {
	*podSetAlias
	PodSet  *string     `json:"podSet"`
	Count   *int32      `json:"count"`
	Groups  []groupJSON `json:"groups"`
	Mode    *string     `json:"mode"`
	Message *string     `json:"message"`
}

// groupJSON decodes a group of a pod set; Resources is raw to tell absent
// (the pod set's requested resources) from written.
type groupJSON struct {
	*groupAlias
	Resources json.RawMessage `json:"resources"`
}

func (g *groupJSON) UnmarshalJSON(data []byte) error {
	g.groupAlias = &groupAlias{Resume: ResumeFirst, TriedIndex: -1}
	type plain groupJSON
	return json.Unmarshal(data, (*plain)(g))
}

type podSetAlias PodSetDecision

// decodePodSets turns decoded pod sets into PodSetDecisions, restoring a
// mode left out from mode and a message from the attempts.
func decodePodSets(in []podSetJSON, mode string) ([]PodSetDecision, error) {
	if in == nil {
		return nil, nil
	}
	out := make([]PodSetDecision, len(in))
	for i, p := range in {
		out[i] = PodSetDecision(*p.podSetAlias)
		ps := &out[i]
		ps.PodSet, ps.Count = defaultPodSet, 1
		if p.PodSet != nil {
			ps.PodSet = *p.PodSet
		}
		if p.Count != nil {
			ps.Count = *p.Count
		}
		if p.Groups != nil {
			ps.Groups = make([]GroupAttempt, len(p.Groups))
			for k, g := range p.Groups {
				ps.Groups[k] = GroupAttempt(*g.groupAlias)
				if g.Resources == nil {
					ps.Groups[k].Resources = groupResources(ps)
				} else if err := json.Unmarshal(g.Resources, &ps.Groups[k].Resources); err != nil {
					return nil, err
				}
			}
		}
		if p.Mode != nil {
			out[i].Mode = *p.Mode
		} else {
			out[i].Mode = mode
		}
		if p.Message != nil {
			out[i].Message = *p.Message
		} else {
			out[i].Message = podSetMessage(&out[i])
		}
	}
	return out, nil
}

// UnmarshalJSON reads a pod set: pointers in the aux struct tell which
// fields were written.
func (p *podSetJSON) UnmarshalJSON(data []byte) error {
	p.podSetAlias = new(podSetAlias)
	type plain podSetJSON
	return json.Unmarshal(data, (*plain)(p))
}

type decisionAlias Decision

// orderFromPosition marks a decision whose JSON has no order: its step's
// UnmarshalJSON gives it its 1-based position (an order is never
// negative).
const orderFromPosition = -1

// decisionJSON decodes a decision; pointers and raw values tell absent
// (derived) from written, and PodSetsOf and PreemptionOf are references
// to an earlier decision of the step (v5: sameAs), which only the step
// resolves (decode).
type decisionJSON struct {
	*decisionAlias
	Order         *int            `json:"order"`
	PodSets       []podSetJSON    `json:"podSets"`
	PodSetsOf     int             `json:"podSetsOf"`
	PreemptionOf  int             `json:"preemptionOf"`
	Message       *string         `json:"message"`
	Requeue       *string         `json:"requeue"`
	RequeueReason *string         `json:"requeueReason"`
	Admission     json.RawMessage `json:"admission"`
}

// UnmarshalJSON reads a decision written by MarshalJSON (or by format
// v2), restoring what was left out. A decision that refers to an earlier
// one of its step is read by its step's UnmarshalJSON only.
func (d *Decision) UnmarshalJSON(data []byte) error {
	return decodeDecision(data, d, nil)
}

// decodeDecision reads decision data into d, restoring what was left
// out; earlier are the decisions before it in its step, which its
// references name by 1-based position. The pod sets and the preemption
// search it refers to are shared with the earlier decision, not copied.
func decodeDecision(data []byte, d *Decision, earlier []Decision) error {
	*d = Decision{}
	aux := decisionJSON{decisionAlias: (*decisionAlias)(d)}
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	d.Order = orderFromPosition
	if aux.Order != nil {
		d.Order = *aux.Order
	}
	var err error
	if aux.PodSetsOf != 0 {
		if aux.PodSets != nil || aux.PodSetsOf < 1 || aux.PodSetsOf > len(earlier) {
			return badReference("podSetsOf", aux.PodSetsOf, len(earlier))
		}
		d.PodSets = earlier[aux.PodSetsOf-1].PodSets
	} else if d.PodSets, err = decodePodSets(aux.PodSets, d.Mode); err != nil {
		return err
	}
	if aux.PreemptionOf != 0 {
		if d.Preemption != nil || aux.PreemptionOf < 1 || aux.PreemptionOf > len(earlier) {
			return badReference("preemptionOf", aux.PreemptionOf, len(earlier))
		}
		d.Preemption = earlier[aux.PreemptionOf-1].Preemption
	}
	if aux.Message != nil {
		d.Message = *aux.Message
	} else {
		d.Message = decisionMessage(d)
	}
	if aux.Requeue == nil && aux.RequeueReason == nil {
		d.Requeue, d.RequeueReason = requeueOf(d)
	} else {
		d.Requeue, d.RequeueReason = deref(aux.Requeue), deref(aux.RequeueReason)
	}
	if aux.Admission == nil {
		d.Admission = admissionOf(d)
		return nil
	}
	return json.Unmarshal(aux.Admission, &d.Admission)
}

// badReference is the error for a decision, after n others in its step,
// whose reference k is not to one of them, or that has the part it
// refers to written in full as well.
func badReference(k string, pos, n int) error {
	return errors.New("decision " + strconv.Itoa(n+1) + " of its step: " + k + " " + strconv.Itoa(pos) +
		" is not an earlier decision of the step, or the part is written in full as well")
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

type recomputationAlias Recomputation

type recomputationJSON struct {
	*recomputationAlias
	BeforePodSets []podSetJSON `json:"beforePodSets"`
}

// UnmarshalJSON reads a recomputation, restoring its pod sets' modes.
func (r *Recomputation) UnmarshalJSON(data []byte) error {
	*r = Recomputation{}
	aux := recomputationJSON{recomputationAlias: (*recomputationAlias)(r)}
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	var err error
	r.BeforePodSets, err = decodePodSets(aux.BeforePodSets, r.BeforeMode)
	return err
}

// MarshalJSON writes the preemption search in the trace's JSON format
// (json.go).
func (p Preemption) MarshalJSON() ([]byte, error) {
	j := jsonBuf{}
	j.preemption(&p)
	return j.b, j.err
}

func (j *jsonBuf) preemption(p *Preemption) {
	j.open()
	j.strs("resources", p.Resources)
	list(j, "candidates", p.Candidates, (*jsonBuf).candidate)
	list(j, "passes", p.Passes, (*jsonBuf).pass)
	list(j, "targets", p.Targets, (*jsonBuf).target)
	if !preemptionSummaryDerived(p) {
		j.str("summary", p.Summary)
	}
	j.close()
}

// preemptionSummary is what a search found, in the words of Kueue's
// preemption search as the engine writes them (core/preempt): the
// targets and whether the pass that found them let the preemptor
// borrow, or why there are none.
func preemptionSummary(p *Preemption) string {
	if len(p.Targets) == 0 {
		if len(p.Candidates) == 0 {
			return "no workload may be preempted: no candidates under the ClusterQueue's preemption policies"
		}
		return "even removing every valid candidate does not make room: no targets"
	}
	how := "while staying within its nominal quota"
	if n := len(p.Passes); n > 0 && p.Passes[n-1].AllowBorrowing {
		how = "borrowing allowed"
	}
	names := make([]string, len(p.Targets))
	for i, t := range p.Targets {
		names[i] = t.Workload
	}
	return "evicting " + strings.Join(names, ", ") + " makes room (" + how + ")"
}

// preemptionSummaryDerived tells whether p's summary is
// preemptionSummary(p), without building it when there are no targets.
func preemptionSummaryDerived(p *Preemption) bool {
	if len(p.Targets) == 0 {
		return p.Summary == preemptionSummary(p) // constants
	}
	return strings.HasPrefix(p.Summary, "evicting ") && p.Summary == preemptionSummary(p)
}

// candidateStepWhy is what a pass's step says when its action says it
// all (preemption's fillBackWorkloads: given back or kept).
func candidateStepWhy(action string) string {
	switch action {
	case "givenBack":
		return "the preemptor still fits with it back: not needed"
	case "kept":
		return "the preemptor does not fit with it back"
	}
	return ""
}

type preemptionAlias Preemption

type preemptionJSON struct {
	*preemptionAlias
	Summary *string `json:"summary"`
}

// UnmarshalJSON reads a preemption search, restoring a summary left out.
func (p *Preemption) UnmarshalJSON(data []byte) error {
	*p = Preemption{}
	aux := preemptionJSON{preemptionAlias: (*preemptionAlias)(p)}
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	if aux.Summary != nil {
		p.Summary = *aux.Summary
	} else {
		p.Summary = preemptionSummary(p)
	}
	return nil
}

type candidateStepAlias CandidateStep

type candidateStepJSON struct {
	*candidateStepAlias
	Why *string `json:"why"`
}

// UnmarshalJSON reads a pass's step, restoring a why its action gives.
func (c *CandidateStep) UnmarshalJSON(data []byte) error {
	*c = CandidateStep{}
	aux := candidateStepJSON{candidateStepAlias: (*candidateStepAlias)(c)}
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	if aux.Why != nil {
		c.Why = *aux.Why
	} else {
		c.Why = candidateStepWhy(c.Action)
	}
	return nil
}

func (j *jsonBuf) candidate(c *Candidate) {
	j.open()
	j.str("workload", c.Workload)
	j.str("clusterQueue", c.ClusterQueue)
	j.int("priority", int64(c.Priority))
	j.boolOmit("evicted", c.Evicted)
	j.str("list", c.List)
	j.str("reason", c.Reason)
	j.str("why", c.Why)
	list(j, "claimable", c.Claimable, (*jsonBuf).quantity)
	j.close()
}

func (j *jsonBuf) pass(p *PreemptionPass) {
	j.open()
	j.bool("allowBorrowing", p.AllowBorrowing)
	list(j, "steps", p.Steps, func(j *jsonBuf, s *CandidateStep) {
		j.open()
		j.str("workload", s.Workload)
		j.str("action", s.Action)
		if s.Why != candidateStepWhy(s.Action) {
			j.str("why", s.Why)
		}
		j.close()
	})
	j.bool("fits", p.Fits)
	j.close()
}

func (j *jsonBuf) target(t *Target) {
	j.open()
	j.str("workload", t.Workload)
	j.str("clusterQueue", t.ClusterQueue)
	j.str("reason", t.Reason)
	j.str("message", t.Message)
	j.boolOmit("alreadyEvicted", t.AlreadyEvicted)
	list(j, "claims", t.Claims, (*jsonBuf).quantity)
	j.close()
}

// ---- state ----

func (j *jsonBuf) usageRow(u *UsageRow) {
	j.open()
	j.str("node", u.Node)
	j.str("kind", u.Kind)
	j.strOmit("parent", u.Parent)
	j.str("flavor", u.Flavor)
	j.str("resource", u.Resource)
	j.intOmit("used", u.Used)
	j.intOmit("terminating", u.Terminating)
	j.intOmit("nominal", u.Nominal)
	j.intOmit("subtreeQuota", u.SubtreeQuota)
	j.intOmit("borrowed", u.Borrowed)
	j.intOmit("lent", u.Lent)
	j.intOmit("heldBack", u.HeldBack)
	if u.BorrowingLimit != nil {
		j.int("borrowingLimit", *u.BorrowingLimit)
	}
	if u.LendingLimit != nil {
		j.int("lendingLimit", *u.LendingLimit)
	}
	j.intOmit("available", u.Available)
	j.close()
}

func (j *jsonBuf) queueState(q *QueueState) {
	j.open()
	j.str("clusterQueue", q.ClusterQueue)
	j.bool("active", q.Active)
	j.strOmit("inactiveReason", q.InactiveReason)
	j.strsOmit("pending", q.Pending)
	j.intOmit("pendingCount", int64(q.PendingCount))
	j.strsOmit("parked", q.Parked)
	j.intOmit("parkedCount", int64(q.ParkedCount))
	j.strsOmit("admitted", q.Admitted)
	j.intOmit("admittedCount", int64(q.AdmittedCount))
	j.strsOmit("terminating", q.Terminating)
	j.intOmit("terminatingCount", int64(q.TerminatingCount))
	j.close()
}

func (j *jsonBuf) usageChange(u *UsageChange) {
	j.open()
	j.int("row", int64(u.Row))
	j.intOmit("used", u.Used)
	j.intOmit("terminating", u.Terminating)
	j.intOmit("borrowed", u.Borrowed)
	j.intOmit("lent", u.Lent)
	j.intOmit("available", u.Available)
	j.close()
}

// queueChanges writes st's queue changes (QueueChanges, then
// QueueDelta's), if any.
func (j *jsonBuf) queueChanges(st *Step) {
	if st.NumQueueChanges() == 0 {
		return
	}
	j.key("queueChanges")
	j.b = append(j.b, '[')
	first := true
	j.changes.Each(st, func(c *QueueChange) {
		if !first {
			j.b = append(j.b, ',')
		}
		first = false
		j.queueChange(c)
	})
	j.b = append(j.b, ']')
}

func (j *jsonBuf) queueChange(q *QueueChange) {
	j.open()
	j.int("queue", int64(q.Queue))
	j.intOmit("pendingCount", int64(q.PendingCount))
	j.intOmit("parkedCount", int64(q.ParkedCount))
	j.intOmit("admittedCount", int64(q.AdmittedCount))
	j.intOmit("terminatingCount", int64(q.TerminatingCount))
	j.listEdit("pending", q.Pending)
	j.listEdit("parked", q.Parked)
	j.listEdit("admitted", q.Admitted)
	j.listEdit("terminating", q.Terminating)
	j.close()
}

func (j *jsonBuf) listEdit(k string, e *ListEdit) {
	if e == nil {
		return
	}
	j.key(k)
	j.open()
	if len(e.Del) > 0 {
		j.key("del")
		j.b = append(j.b, '[')
		for i, d := range e.Del {
			if i > 0 {
				j.b = append(j.b, ',')
			}
			j.b = strconv.AppendInt(j.b, int64(d), 10)
		}
		j.b = append(j.b, ']')
	}
	list(j, "ins", e.Ins, func(j *jsonBuf, in *Insert) {
		j.open()
		j.int("at", int64(in.At))
		j.str("name", in.Name)
		j.close()
	})
	j.close()
}
