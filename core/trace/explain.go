package trace

import (
	"io"
	"strconv"
	"strings"

	"github.com/kueueplay/kueueplay/core"
)

// Rule is the flavor-fungibility rule that continued or stopped a flavor
// search at one attempt: the rows of KEP-582's table as Kueue's
// flavorassigner.shouldTryNextFlavor applies them, plus the legacy
// first-fit search (gate FlavorFungibility off) and flavors that are not
// eligible. The trace keeps the code; FlavorAttempt.RuleText writes the
// words.
type Rule string

const (
	RuleNotEligible       Rule = "notEligible"
	RuleNoFit             Rule = "noFit"
	RuleNoCandidates      Rule = "noCandidates"
	RulePreemptTryNext    Rule = "preemptTryNextFlavor"
	RuleBorrowTryNext     Rule = "borrowTryNextFlavor"
	RuleFitStop           Rule = "fitStop"
	RuleBorrowStop        Rule = "borrowStop"
	RulePreemptStop       Rule = "preemptStop"
	RulePreemptBorrowStop Rule = "preemptBorrowStop"
	// RuleFirstFitStop and RuleFirstFitNext are the legacy search (gate
	// FlavorFungibility off): the first flavor that fits wins.
	RuleFirstFitStop Rule = "firstFitStop"
	RuleFirstFitNext Rule = "firstFitNext"
	// RuleError: checking the flavor failed; the attempt's only reason is
	// the error.
	RuleError Rule = "error"
)

// ruleWords are the words of each rule but RuleError.
func ruleWords(r Rule) (string, bool) {
	switch r {
	case RuleNotEligible:
		return "not eligible: try the next flavor", true
	case RuleNoFit:
		return "NoFit: try the next flavor", true
	case RuleNoCandidates:
		return "preemption needed but no candidates: try the next flavor", true
	case RulePreemptTryNext:
		return "can preempt, whenCanPreempt=TryNextFlavor: try the next flavor", true
	case RuleBorrowTryNext:
		return "needs borrowing, whenCanBorrow=TryNextFlavor: try the next flavor", true
	case RuleFitStop:
		return "fits without borrowing: stop", true
	case RuleBorrowStop:
		return "fits by borrowing, whenCanBorrow=MayStopSearch: stop", true
	case RulePreemptStop:
		return "can preempt, whenCanPreempt=MayStopSearch: stop", true
	case RulePreemptBorrowStop:
		return "can preempt while borrowing, whenCanPreempt=MayStopSearch and whenCanBorrow=MayStopSearch: stop", true
	case RuleFirstFitStop:
		return "fits: stop (FlavorFungibility off)", true
	case RuleFirstFitNext:
		return "does not fit: try the next flavor (FlavorFungibility off)", true
	}
	return "", false
}

// RuleText is the attempt's rule in words. A code this version does not
// know is returned as it is.
func (a *FlavorAttempt) RuleText() string {
	if a.Rule == RuleError {
		return "error: " + strings.Join(a.ReasonTexts(), "; ")
	}
	if t, ok := ruleWords(a.Rule); ok {
		return t
	}
	return string(a.Rule)
}

// Resume says where a flavor search started (flavorassigner's
// AssignmentClusterQueueState: a search resumes after the flavor the
// previous attempt tried last, unless that state was dropped).
type Resume string

const (
	// ResumeFirstFit: gate FlavorFungibility is off; nothing resumes.
	ResumeFirstFit Resume = "firstFit"
	// ResumeAfter: resumed after GroupAttempt.ResumedAfter.
	ResumeAfter Resume = "resumed"
	// ResumeGeneration: the ClusterQueue's generation changed since the
	// last attempt, so its state was dropped.
	ResumeGeneration Resume = "generationChanged"
	// ResumeLastReached: the previous attempt reached the last flavor.
	ResumeLastReached Resume = "lastFlavorReached"
	// ResumeReset: the state was dropped for GroupAttempt.Reset.
	ResumeReset Resume = "reset"
	// ResumeFirst: there was no previous attempt.
	ResumeFirst Resume = "first"
	// ResumeNoGroup: no resource group covers the resource.
	ResumeNoGroup Resume = "noResourceGroup"
)

// ResetReason says why a workload's last flavor-assignment state was
// dropped before its next attempt.
type ResetReason string

const (
	// ResetSkipped: the entry was skipped (scheduler.setSkipped).
	ResetSkipped ResetReason = "skipped"
	// ResetPreempting: the entry issued preemptions.
	ResetPreempting ResetReason = "preemptionsIssued"
	// ResetMessageChanged: its pending message changed, and the status
	// update replaced the queued copy of the workload.
	ResetMessageChanged ResetReason = "messageChanged"
)

// Text is the reason in words (the code itself for one this version does
// not know).
func (r ResetReason) Text() string {
	switch r {
	case ResetSkipped:
		return "the entry was skipped in the previous attempt (setSkipped clears the resume state)"
	case ResetPreempting:
		return "preemptions were issued in the previous attempt (Kueue clears the resume state)"
	case ResetMessageChanged:
		return "its pending message changed, and the status update replaced the queued copy of the workload (WorkloadReconciler.Update → ClusterQueue.PushOrUpdate), which does not keep the last tried flavors"
	}
	return string(r)
}

// ResumeText says in words where the search started and why.
func (g *GroupAttempt) ResumeText() string {
	if g.Resume == ResumeReset {
		return "started from the first flavor: " + g.Reset.Text()
	}
	return g.resumeText()
}

// writeResume writes ResumeText to w (the text format writes it without
// building the string).
func (g *GroupAttempt) writeResume(w io.StringWriter) {
	if g.Resume == ResumeReset {
		w.WriteString("started from the first flavor: ")
		w.WriteString(g.Reset.Text())
		return
	}
	w.WriteString(g.resumeText())
}

// resumeText is ResumeText but for a reset.
func (g *GroupAttempt) resumeText() string {
	switch g.Resume {
	case ResumeFirstFit:
		return "FlavorFungibility gate off: first flavor that fits wins, no resume"
	case ResumeAfter:
		return "resumed after flavor " + g.ResumedAfter + " (index " + strconv.Itoa(g.StartIndex-1) + "), the last one tried in the previous attempt"
	case ResumeGeneration:
		return "started from the first flavor: the ClusterQueue's generation changed since the last attempt"
	case ResumeLastReached:
		return "started from the first flavor: the previous attempt reached the last flavor"
	case ResumeFirst:
		return "started from the first flavor"
	case ResumeNoGroup:
		return "no resource group covers it"
	}
	return string(g.Resume)
}

// OrderText names the comparison the search used to rank flavors.
func (g *GroupAttempt) OrderText() string {
	if g.BorrowingFirst {
		return "borrowing level first, then mode"
	}
	return "mode first, then borrowing level"
}

// WhyText says why the chosen flavor won, from the attempts alone: it
// stopped the search, it was the only candidate, or it beat (or tied
// with, keeping the earlier flavor) the others under the group's order.
// It is empty when no flavor was chosen.
func (g *GroupAttempt) WhyText() string {
	var b strings.Builder
	g.writeWhy(&b)
	return b.String()
}

// writeWhy writes WhyText to w (the text format writes it without
// building the string).
func (g *GroupAttempt) writeWhy(w io.StringWriter) {
	if g.Chosen == "" {
		return
	}
	var chosen *FlavorAttempt
	others := 0
	for i := range g.Attempts {
		a := &g.Attempts[i]
		if a.Flavor == g.Chosen {
			chosen = a
		} else if a.Mode != "NoFit" {
			others++
		}
	}
	if chosen == nil {
		return
	}
	if chosen.Rule == RuleFirstFitStop {
		w.WriteString(chosen.Flavor)
		w.WriteString(" is the first flavor that fits")
		return
	}
	chosen.writeDescription(w)
	switch {
	case g.Resume == ResumeFirstFit:
		w.WriteString(" has the best mode among the tried flavors")
		return
	case !chosen.Continue:
		w.WriteString(" stopped the search")
		if others > 0 {
			w.WriteString("; earlier candidates: ")
			g.writeOthers(w)
		}
		return
	case others == 0:
		w.WriteString(" is the only tried flavor that is not NoFit")
		return
	}
	tie := false
	for i := range g.Attempts {
		a := &g.Attempts[i]
		if a != chosen && a.Mode == chosen.Mode && a.Borrowing == chosen.Borrowing {
			tie = true
			break
		}
	}
	if tie {
		w.WriteString(" ties with ")
	} else {
		w.WriteString(" beats ")
	}
	g.writeOthers(w)
	w.WriteString(" when comparing ")
	w.WriteString(g.OrderText())
	if tie {
		w.WriteString("; the earlier flavor is kept")
	}
}

// writeOthers writes the attempts other than the chosen flavor that are
// not NoFit, described, separated by ", ".
func (g *GroupAttempt) writeOthers(w io.StringWriter) {
	n := 0
	for i := range g.Attempts {
		if a := &g.Attempts[i]; a.Flavor != g.Chosen && a.Mode != "NoFit" {
			if n > 0 {
				w.WriteString(", ")
			}
			n++
			a.writeDescription(w)
		}
	}
}

// writeDescription writes the attempt as WhyText names it: "spot (Fit,
// borrowing level 1)".
func (a *FlavorAttempt) writeDescription(w io.StringWriter) {
	w.WriteString(a.Flavor)
	w.WriteString(" (")
	w.WriteString(a.Mode)
	w.WriteString(", borrowing level ")
	w.WriteString(strconv.Itoa(a.Borrowing))
	w.WriteString(")")
}

// ReasonCode names why a flavor does not fit a pod set now: the reasons
// Kueue's flavorassigner writes (fitsResourceQuota,
// checkFlavorForPodSets). Reason.Text writes its words.
type ReasonCode string

const (
	// ReasonInsufficientQuota: the request does not fit in what is
	// available now; Amount more is needed.
	ReasonInsufficientQuota ReasonCode = "insufficientQuota"
	// ReasonAboveMaxCapacity: what the earlier pod sets took (Assumed)
	// plus this pod set's request (Amount) is above the most the
	// ClusterQueue could ever use (Capacity).
	ReasonAboveMaxCapacity ReasonCode = "aboveMaxCapacity"
	// ReasonFlavorNotFound: no ResourceFlavor of that name exists.
	ReasonFlavorNotFound ReasonCode = "flavorNotFound"
	// ReasonAffinity: the flavor's node labels do not match the pod
	// set's node selector or required affinity.
	ReasonAffinity ReasonCode = "affinityMismatch"
	// ReasonUntoleratedTaint: the pod set does not tolerate a taint of
	// the flavor; Detail is the taint as Kueue prints it.
	ReasonUntoleratedTaint ReasonCode = "untoleratedTaint"
	// ReasonError: checking the flavor failed; Detail is the error.
	ReasonError ReasonCode = "error"
	// ReasonResourceUnavailable: no resource group of the ClusterQueue
	// covers Resource (a pod set's reason, not an attempt's).
	ReasonResourceUnavailable ReasonCode = "resourceUnavailable"
	// ReasonWords is a reason known only by its words (Detail): read from
	// a trace older than v4.
	ReasonWords ReasonCode = "words"
)

// Reason is why one flavor does not fit one pod set now, as a code and the
// quantities Kueue's words are made of (which flavor is its attempt's).
// Amounts are in Kueue's internal unit (see UsageRow).
type Reason struct {
	Code     ReasonCode `json:"code"`
	Resource string     `json:"resource,omitempty"`
	// Amount is how much more is needed (insufficientQuota), or the pod
	// set's request (aboveMaxCapacity).
	Amount int64 `json:"amount,omitempty"`
	// Assumed and Capacity are aboveMaxCapacity's earlier requests and
	// maximum capacity.
	Assumed  int64 `json:"assumed,omitempty"`
	Capacity int64 `json:"capacity,omitempty"`
	// Detail is what the words hold that no field does: the taint, the
	// error, or the words of a reason read from an older trace.
	Detail string `json:"detail,omitempty"`
}

// Text is the reason in Kueue's words for flavor f.
func (r *Reason) Text(f string) string {
	amount := r.amount
	switch r.Code {
	case ReasonInsufficientQuota:
		return "insufficient unused quota for " + r.Resource + " in flavor " + f + ", " + amount(r.Amount) + " more needed"
	case ReasonAboveMaxCapacity:
		return "insufficient quota for " + r.Resource + " in flavor " + f + ", previously considered podsets requests (" +
			amount(r.Assumed) + ") + current podset request (" + amount(r.Amount) + ") > maximum capacity (" + amount(r.Capacity) + ")"
	case ReasonFlavorNotFound:
		return "flavor " + f + " not found"
	case ReasonAffinity:
		return "flavor " + f + " doesn't match node affinity"
	case ReasonUntoleratedTaint:
		return "untolerated taint " + r.Detail + " in flavor " + f
	case ReasonResourceUnavailable:
		return "resource " + r.Resource + " unavailable in ClusterQueue"
	}
	return r.Detail // ReasonError, ReasonWords, and a code this version does not know
}

// amount is v of the reason's resource, formatted.
// Not inlined: one copy of its code serves its callers (the size of
// the page's WebAssembly).
//
//go:noinline
func (r *Reason) amount(v int64) string { return core.FormatAmount(core.ResourceName(r.Resource), v) }

// ReasonTexts are the attempt's reasons in Kueue's words.
func (a *FlavorAttempt) ReasonTexts() []string {
	if len(a.Reasons) == 0 {
		return nil
	}
	out := make([]string, len(a.Reasons))
	for i := range a.Reasons {
		out[i] = a.Reasons[i].Text(a.Flavor)
	}
	return out
}
