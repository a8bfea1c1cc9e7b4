package trace

import (
	"strings"
	"testing"
)

func TestExplainWords(t *testing.T) {
	att := func(flavor, mode string, borrowing int, cont bool, rule Rule) FlavorAttempt {
		return FlavorAttempt{Flavor: flavor, Mode: mode, Borrowing: borrowing, Continue: cont, Rule: rule}
	}
	cases := []struct {
		name string
		got  func() string
		want string
	}{
		{"error rule carries the error", func() string {
			a := FlavorAttempt{Rule: RuleError, Reasons: []Reason{{Code: ReasonError, Detail: "bad selector"}}}
			return a.RuleText()
		}, "error: bad selector"},
		{"insufficient quota in Kueue's words", func() string {
			r := Reason{Code: ReasonInsufficientQuota, Resource: "cpu", Amount: 1500}
			return r.Text("spot")
		}, "insufficient unused quota for cpu in flavor spot, 1500m more needed"},
		{"above the maximum capacity in Kueue's words", func() string {
			r := Reason{Code: ReasonAboveMaxCapacity, Resource: "memory", Assumed: 1 << 30, Amount: 2 << 30, Capacity: 2 << 30}
			return r.Text("on-demand")
		}, "insufficient quota for memory in flavor on-demand, previously considered podsets requests (1Gi) + current podset request (2Gi) > maximum capacity (2Gi)"},
		{"flavor not found", func() string {
			r := Reason{Code: ReasonFlavorNotFound}
			return r.Text("gone")
		}, "flavor gone not found"},
		{"affinity", func() string {
			r := Reason{Code: ReasonAffinity}
			return r.Text("arm")
		}, "flavor arm doesn't match node affinity"},
		{"untolerated taint prints the taint", func() string {
			r := Reason{Code: ReasonUntoleratedTaint, Detail: "{gpu true NoSchedule <nil>}"}
			return r.Text("a100")
		}, "untolerated taint {gpu true NoSchedule <nil>} in flavor a100"},
		{"an older trace's words kept as they are", func() string {
			r := Reason{Code: ReasonWords, Detail: "insufficient unused quota for cpu in flavor x, 1 more needed"}
			return r.Text("y")
		}, "insufficient unused quota for cpu in flavor x, 1 more needed"},
		{"an attempt's reasons name its flavor", func() string {
			a := FlavorAttempt{Flavor: "spot", Reasons: []Reason{{Code: ReasonInsufficientQuota, Resource: "cpu", Amount: 2000}, {Code: ReasonInsufficientQuota, Resource: "pods", Amount: 1}}}
			return strings.Join(a.ReasonTexts(), "; ")
		}, "insufficient unused quota for cpu in flavor spot, 2 more needed; insufficient unused quota for pods in flavor spot, 1 more needed"},
		{"unknown rule kept as it is", func() string {
			a := FlavorAttempt{Rule: "fromTheFuture"}
			return a.RuleText()
		}, "fromTheFuture"},
		{"resumed names the flavor before the start", func() string {
			g := GroupAttempt{Resume: ResumeAfter, ResumedAfter: "spot", StartIndex: 2}
			return g.ResumeText()
		}, "resumed after flavor spot (index 1), the last one tried in the previous attempt"},
		{"reset names its reason", func() string {
			g := GroupAttempt{Resume: ResumeReset, Reset: ResetSkipped}
			return g.ResumeText()
		}, "started from the first flavor: the entry was skipped in the previous attempt (setSkipped clears the resume state)"},
		{"unknown reset kept as it is", func() string {
			g := GroupAttempt{Resume: ResumeReset, Reset: "later"}
			return g.ResumeText()
		}, "started from the first flavor: later"},
		{"no resource group", func() string {
			g := GroupAttempt{Resume: ResumeNoGroup}
			return g.ResumeText()
		}, "no resource group covers it"},
		{"no choice, no why", func() string {
			g := GroupAttempt{Resume: ResumeFirst, Attempts: []FlavorAttempt{att("a", "NoFit", 0, true, RuleNoFit)}}
			return g.WhyText()
		}, ""},
		{"first fit", func() string {
			g := GroupAttempt{Resume: ResumeFirstFit, Chosen: "b", Attempts: []FlavorAttempt{
				att("a", "NoFit", 0, true, RuleFirstFitNext), att("b", "Fit", 1, false, RuleFirstFitStop)}}
			return g.WhyText()
		}, "b is the first flavor that fits"},
		{"first fit without a fit keeps the best mode", func() string {
			g := GroupAttempt{Resume: ResumeFirstFit, Chosen: "a", Attempts: []FlavorAttempt{
				att("a", "Preempt", 0, true, RuleFirstFitNext), att("b", "NoFit", 0, true, RuleFirstFitNext)}}
			return g.WhyText()
		}, "a (Preempt, borrowing level 0) has the best mode among the tried flavors"},
		{"stop after candidates", func() string {
			g := GroupAttempt{Resume: ResumeFirst, Chosen: "b", Attempts: []FlavorAttempt{
				att("a", "Preempt", 0, true, RulePreemptTryNext), att("b", "Fit", 1, false, RuleBorrowStop)}}
			return g.WhyText()
		}, "b (Fit, borrowing level 1) stopped the search; earlier candidates: a (Preempt, borrowing level 0)"},
		{"tie keeps the earlier flavor", func() string {
			g := GroupAttempt{Resume: ResumeFirst, Chosen: "a", BorrowingFirst: true, Attempts: []FlavorAttempt{
				att("a", "Fit", 1, true, RuleBorrowTryNext), att("b", "Fit", 1, true, RuleBorrowTryNext)}}
			return g.WhyText()
		}, "a (Fit, borrowing level 1) ties with b (Fit, borrowing level 1) when comparing borrowing level first, then mode; the earlier flavor is kept"},
		{"beats the others", func() string {
			g := GroupAttempt{Resume: ResumeFirst, Chosen: "b", Attempts: []FlavorAttempt{
				att("a", "Preempt", 0, true, RulePreemptTryNext), att("b", "Fit", 2, true, RuleBorrowTryNext)}}
			return g.WhyText()
		}, "b (Fit, borrowing level 2) beats a (Preempt, borrowing level 0) when comparing mode first, then borrowing level"},
		{"only candidate", func() string {
			g := GroupAttempt{Resume: ResumeFirst, Chosen: "b", Attempts: []FlavorAttempt{
				att("a", "NoFit", 0, true, RuleNoFit), att("b", "Preempt", 0, true, RulePreemptTryNext)}}
			return g.WhyText()
		}, "b (Preempt, borrowing level 0) is the only tried flavor that is not NoFit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.got(); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}
