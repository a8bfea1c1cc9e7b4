package flavor

import (
	"github.com/kueueplay/kueueplay/core"
)

// Words remembers the sentences the flavor search's results are written
// in, which depend only on a few quantities: a long run writes the same
// few hundred of them hundreds of thousands of times. The search itself
// records codes (trace.Reason); Words writes them when a message or a
// trace needs the words. The zero value is ready; a nil *Words remembers
// nothing. It holds one entry per distinct sentence met, each written
// once instead of at every use. A Words must not be used by two
// goroutines at once.
type Words struct {
	amounts map[amountKey]string
	reasons map[Reason]string
}

type amountKey struct {
	r core.ResourceName
	v core.Amount
}

// Amount is core.FormatAmount(r, v), remembered.
func (w *Words) Amount(r core.ResourceName, v core.Amount) string {
	if w == nil {
		return core.FormatAmount(r, v)
	}
	k := amountKey{r, v}
	s, ok := w.amounts[k]
	if !ok {
		if w.amounts == nil {
			w.amounts = map[amountKey]string{}
		}
		s = core.FormatAmount(r, v)
		w.amounts[k] = s
	}
	return s
}

// reason is r in Kueue's words (trace.Reason.Text), remembered.
func (w *Words) reason(r *Reason) string {
	if w == nil {
		return r.Text(string(r.Flavor))
	}
	s, ok := w.reasons[*r]
	if !ok {
		if w.reasons == nil {
			w.reasons = map[Reason]string{}
		}
		s = r.Text(string(r.Flavor))
		w.reasons[*r] = s
	}
	return s
}
