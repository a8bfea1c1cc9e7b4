package view

import (
	"fmt"
	"strings"

	"github.com/kueueplay/kueueplay/core/trace"
)

// ConfigurationText describes the Kueue Configuration of a run for the
// feature gate panel, one setting a line: where it came from, the excluded
// resource prefixes, the transformations and the gates it sets. It is ""
// when the scenario has no Configuration.
func ConfigurationText(c *trace.Configuration) string {
	if c == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Kueue Configuration: %s (%s", c.Source, c.APIVersion)
	if c.Line > 0 {
		fmt.Fprintf(&b, ", line %d", c.Line)
	}
	b.WriteString(")")
	if len(c.ExcludeResourcePrefixes) > 0 {
		fmt.Fprintf(&b, "\nexcludeResourcePrefixes: %s", strings.Join(c.ExcludeResourcePrefixes, ", "))
	}
	for _, t := range c.Transformations {
		fmt.Fprintf(&b, "\ntransformation: %s", t)
	}
	if len(c.Gates) > 0 {
		gates := make([]string, len(c.Gates))
		for i, g := range c.Gates {
			gates[i] = fmt.Sprintf("%s=%t", g.Name, g.Enabled)
		}
		fmt.Fprintf(&b, "\ngates it sets: %s (the Scenario object and the boxes above override them)", strings.Join(gates, ", "))
	}
	return b.String()
}
