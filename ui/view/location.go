package view

import (
	"fmt"
	"strconv"
	"strings"
)

// Location is the playground state a URL's query carries when the scenario
// is an unedited bundled example:
//
//	?example=NAME&step=N&gates=A=true,B=false&settings=key=value,...
//	 &compare=1&cgates=...&csettings=...
//
// NAME is the example's file name without ".yaml". step defaults to 0;
// gates and settings to none; compare=1 turns on Compare mode, whose right
// side runs cgates and csettings. Anything else (an edited scenario) goes
// in a share fragment instead (ui/sharelink), which carries the same
// state.
type Location struct {
	Example string
	Step    int
	Variant Variant
	// Compare is the right-hand variant in Compare mode, nil when off.
	Compare *Variant
}

// ValidExampleName reports whether name can name a bundled example: like
// the file names in testdata/scenarios, 1 to 100 of a-z, 0-9, '-' and '.',
// starting with a letter or digit, without "..".
func ValidExampleName(name string) bool {
	if len(name) == 0 || len(name) > 100 || strings.Contains(name, "..") {
		return false
	}
	for i, c := range []byte(name) {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case (c == '-' || c == '.') && i > 0:
		default:
			return false
		}
	}
	return true
}

// ParseLocation reads a URL query (with or without its leading '?'). It
// returns ok false when the query names no example. A malformed parameter is
// an error naming it; the other parameters are still returned, so that a
// link with one bad gate still opens its example.
func ParseLocation(rawQuery string) (loc Location, ok bool, err error) {
	get, perr := parseQuery(strings.TrimPrefix(rawQuery, "?"))
	if perr != nil {
		// parseQuery keeps what it could read.
		err = fmt.Errorf("the link's query: %w", perr)
	}
	name := strings.TrimSuffix(get("example"), ".yaml")
	if name == "" {
		return Location{}, false, err
	}
	if !ValidExampleName(name) {
		return Location{}, false, fmt.Errorf("example %q: not an example name", name)
	}
	loc.Example = name
	keep := func(e error) {
		if err == nil {
			err = e
		}
	}
	if s := get("step"); s != "" {
		n, e := strconv.Atoi(s)
		if e != nil || n < 0 {
			keep(fmt.Errorf("step %q: want a step number (0, 1, 2, ...)", s))
		} else {
			loc.Step = n
		}
	}
	var e error
	if loc.Variant.Gates, e = ParseGates(get("gates")); e != nil {
		keep(e)
	}
	if loc.Variant.Settings, e = ParseSettings(get("settings")); e != nil {
		keep(e)
	}
	if get("compare") == "1" {
		c := Variant{}
		if c.Gates, e = ParseGates(get("cgates")); e != nil {
			keep(fmt.Errorf("cgates: %w", e))
		}
		if c.Settings, e = ParseSettings(get("csettings")); e != nil {
			keep(fmt.Errorf("csettings: %w", e))
		}
		loc.Compare = &c
	}
	return loc, true, err
}

// Query writes loc as a URL query with its leading '?', parameters in a
// fixed order and only those that differ from their defaults.
func (loc Location) Query() string {
	var b strings.Builder
	add := func(k, v string) {
		if b.Len() == 0 {
			b.WriteByte('?')
		} else {
			b.WriteByte('&')
		}
		b.WriteString(k)
		b.WriteByte('=')
		// Keep '=' and ',' readable: they are valid in a query value.
		b.WriteString(strings.NewReplacer("%3D", "=", "%2C", ",").Replace(queryEscape(v)))
	}
	add("example", loc.Example)
	if loc.Step > 0 {
		add("step", strconv.Itoa(loc.Step))
	}
	if g := FormatGates(loc.Variant.Gates); g != "" {
		add("gates", g)
	}
	if s := loc.Variant.Settings.String(); s != "" {
		add("settings", strings.ReplaceAll(s, ", ", ","))
	}
	if loc.Compare != nil {
		add("compare", "1")
		if g := FormatGates(loc.Compare.Gates); g != "" {
			add("cgates", g)
		}
		if s := loc.Compare.Settings.String(); s != "" {
			add("csettings", strings.ReplaceAll(s, ", ", ","))
		}
	}
	return b.String()
}
