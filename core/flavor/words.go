package flavor

import (
	"fmt"

	"github.com/kueueplay/kueueplay/core"
)

// Words remembers the sentences the flavor search writes, which depend
// only on a few quantities: a long run writes the same few hundred of them
// hundreds of thousands of times. The zero value is ready; a nil *Words
// remembers nothing. It holds one entry per distinct sentence met, each
// written once instead of at every use. A Words must not be used by two
// goroutines at once.
type Words struct {
	amounts      map[amountKey]string
	insufficient map[insufficientKey]string
	maxCapacity  map[maxCapacityKey]string
}

type amountKey struct {
	r core.ResourceName
	v core.Amount
}

type insufficientKey struct {
	fr   core.FlavorResource
	more core.Amount
}

type maxCapacityKey struct {
	fr                     core.FlavorResource
	assumed, request, most core.Amount
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

// insufficientQuota is fitsResourceQuota's reason when the request does
// not fit in what is available now.
func (w *Words) insufficientQuota(fr core.FlavorResource, more core.Amount) string {
	format := func() string {
		return fmt.Sprintf("insufficient unused quota for %s in flavor %s, %s more needed", fr.Resource, fr.Flavor, w.Amount(fr.Resource, more))
	}
	if w == nil {
		return format()
	}
	k := insufficientKey{fr, more}
	s, ok := w.insufficient[k]
	if !ok {
		if w.insufficient == nil {
			w.insufficient = map[insufficientKey]string{}
		}
		s = format()
		w.insufficient[k] = s
	}
	return s
}

// aboveMaxCapacity is fitsResourceQuota's reason when the request is
// above the most the ClusterQueue could ever use.
func (w *Words) aboveMaxCapacity(fr core.FlavorResource, assumed, request, most core.Amount) string {
	format := func() string {
		return fmt.Sprintf("insufficient quota for %s in flavor %s, previously considered podsets requests (%s) + current podset request (%s) > maximum capacity (%s)",
			fr.Resource, fr.Flavor, w.Amount(fr.Resource, assumed), w.Amount(fr.Resource, request), w.Amount(fr.Resource, most))
	}
	if w == nil {
		return format()
	}
	k := maxCapacityKey{fr, assumed, request, most}
	s, ok := w.maxCapacity[k]
	if !ok {
		if w.maxCapacity == nil {
			w.maxCapacity = map[maxCapacityKey]string{}
		}
		s = format()
		w.maxCapacity[k] = s
	}
	return s
}
