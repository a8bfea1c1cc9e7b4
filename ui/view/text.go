package view

import (
	"strconv"
	"strings"
	"time"

	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/core/trace"
)

// This file holds the small formatting helpers of the package. It uses
// strconv and strings rather than fmt to keep the WebAssembly binary small.

// FormatTime formats a virtual time in milliseconds the way a person reads
// it: "0s", "2s", "1m30s", "1h", "1h0m5s", "1.5s", "250ms".
func FormatTime(ms int64) string {
	s := (time.Duration(ms) * time.Millisecond).String()
	// Duration.String writes "1m0s" and "1h0m0s"; drop the zero tails.
	if strings.HasSuffix(s, "m0s") {
		s = s[:len(s)-2]
	}
	if strings.HasSuffix(s, "h0m") {
		s = s[:len(s)-2]
	}
	return s
}

// amount formats v of resource res like a Kubernetes quantity.
func amount(res string, v int64) string {
	return core.FormatAmount(core.ResourceName(res), v)
}

func itoa(v int) string { return strconv.Itoa(v) }

// quantities formats trace quantities as "on-demand/cpu 4, on-demand/memory 16Gi".
func quantities(qs []trace.Quantity) string {
	var b strings.Builder
	for i, q := range qs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(q.Flavor)
		b.WriteByte('/')
		b.WriteString(q.Resource)
		b.WriteByte(' ')
		if q.Text != "" {
			b.WriteString(q.Text)
		} else {
			b.WriteString(amount(q.Resource, q.Amount))
		}
	}
	return b.String()
}

// admissionText formats an admission as "main{cpu:on-demand,memory:on-demand}",
// as the text trace does.
func admissionText(a []trace.PodSetFlavors) string {
	var b strings.Builder
	for i, ps := range a {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(ps.PodSet)
		b.WriteByte('{')
		for j, f := range ps.Flavors {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(f.Resource)
			b.WriteByte(':')
			b.WriteString(f.Flavor)
		}
		b.WriteByte('}')
	}
	return b.String()
}

// flavorsInWords says which flavors an admission uses: "on-demand (cpu,
// memory)" or "on-demand (cpu) and spot (memory)". Resources used by
// several pod sets on the same flavor are named once.
func flavorsInWords(a []trace.PodSetFlavors) string {
	var flavors []string
	res := map[string][]string{}
	for _, ps := range a {
		for _, f := range ps.Flavors {
			rs, seen := res[f.Flavor]
			if !seen {
				flavors = append(flavors, f.Flavor)
			}
			if !contains(rs, f.Resource) {
				res[f.Flavor] = append(rs, f.Resource)
			}
		}
	}
	parts := make([]string, len(flavors))
	for i, f := range flavors {
		parts[i] = f + " (" + strings.Join(res[f], ", ") + ")"
	}
	return joinWords(parts)
}

// joinWords joins "a", "a and b", "a, b and c".
func joinWords(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// count writes "1 admitted", "3 arrived": n and a word.
func count(n int, word string) string { return itoa(n) + " " + word }

// plural returns one or many by n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
