package core

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file reads and writes Kubernetes resource quantities ("500m", "1.5",
// "2Gi", "1e3") without depending on k8s.io/apimachinery, which the WASM
// build cannot afford. Behaviour follows apimachinery's
// pkg/api/resource/quantity.go (ParseQuantity, Value, MilliValue, String) and
// Kueue v0.16.1's pkg/resources/requests.go (ResourceValue,
// ResourceQuantityString). quantity_test.go checks both differentially
// against apimachinery.

// Quantity is a parsed Kubernetes resource quantity, held exactly: its value
// is ±digits × 10^exp with no rounding and no range limit. (apimachinery
// additionally rounds the magnitude up to a multiple of 10⁻⁹ when parsing and
// caps binary-suffixed values at 2⁶³-1; neither changes what Value and
// MilliValue return, because those either round up to a coarser unit anyway
// or report the value as too large.)
//
// The zero Quantity is the number 0. Quantities are comparable; two values
// parsed from different strings differ only in String.
type Quantity struct {
	text     string // the string it was parsed from
	negative bool   // never set for zero
	digits   string // decimal digits of the magnitude, without leading or trailing zeros; "" for zero
	exp      int64  // magnitude = digits × 10^exp; 0 for zero
}

// maxQuantityExponent bounds the e/E exponent ParseQuantity accepts.
// apimachinery accepts any exponent that fits an int64 but then truncates it
// to int32, so "1e4294967296" silently means 1. Bounding the exponent well
// inside the int32 range keeps every accepted string meaning what it says.
const maxQuantityExponent = 1_000_000_000

// quantityParts is a syntactically valid quantity string taken apart.
type quantityParts struct {
	negative bool
	intPart  string // digits before the '.', possibly empty, possibly with leading zeros
	fracPart string // digits after the '.', possibly empty
	binary   bool   // a Ki…Ei suffix: the value is multiplied by 2^exp rather than 10^exp
	exp      int64  // decimal exponent (from n…E or e/E), or binary exponent (10…60)
}

// ParseQuantity parses s the way k8s.io/apimachinery's resource.ParseQuantity
// does: an optional sign, digits with an optional '.' fraction, then a suffix
// that is one of the decimal SI suffixes n u m k M G T P E, one of the binary
// suffixes Ki Mi Gi Ti Pi Ei, or a decimal exponent e/E followed by a signed
// integer.
//
// It accepts exactly the strings apimachinery accepts, quirks included: a
// number with no digits at all ("-", ".", "m", "Gi", "e5") is zero, except
// where apimachinery's slow path rejects it ("Pi", "Ei", "e-10"), and
// "1.G" is 1G. The one deliberate difference: an exponent outside
// ±1,000,000,000 is rejected, because apimachinery truncates exponents to
// int32 and would give "1e4294967296" the value 1.
func ParseQuantity(s string) (Quantity, error) {
	p, err := scanQuantity(s)
	if err != nil {
		return Quantity{}, err
	}
	q := Quantity{text: s, negative: p.negative}
	mant := strings.TrimLeft(p.intPart+p.fracPart, "0")
	exp := -int64(len(p.fracPart))
	if p.binary {
		if mant != "" {
			b, _ := new(big.Int).SetString(mant, 10) // mant is all digits
			mant = b.Lsh(b, uint(p.exp)).String()
		}
	} else {
		exp += p.exp
	}
	trimmed := strings.TrimRight(mant, "0")
	exp += int64(len(mant) - len(trimmed))
	if trimmed == "" {
		return Quantity{text: s}, nil
	}
	q.digits, q.exp = trimmed, exp
	return q, nil
}

// scanQuantity checks the syntax of s and splits it into its parts,
// mirroring apimachinery's parseQuantityString and suffix interpretation.
func scanQuantity(s string) (quantityParts, error) {
	var p quantityParts
	if s == "" {
		return p, fmt.Errorf("invalid quantity %q: empty string", s)
	}
	i := 0
	if s[0] == '+' || s[0] == '-' {
		p.negative = s[0] == '-'
		i++
	}
	start := i
	i = skipDigits(s, i)
	p.intPart = s[start:i]
	if i < len(s) && s[i] == '.' {
		i++
		start = i
		i = skipDigits(s, i)
		p.fracPart = s[start:i]
	}
	suffixStart := i
	for i < len(s) && strings.IndexByte("eEinumkKMGTP", s[i]) >= 0 {
		i++
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	i = skipDigits(s, i)
	if i < len(s) {
		r, _ := utf8.DecodeRuneInString(s[i:])
		return p, fmt.Errorf("invalid quantity %q: unexpected %q at offset %d; a quantity is a number with an optional suffix, such as 500m, 1.5, 2Gi or 1e3", s, r, i)
	}
	suffix := s[suffixStart:]
	switch suffix {
	case "":
		p.exp = 0
	case "n":
		p.exp = -9
	case "u":
		p.exp = -6
	case "m":
		p.exp = -3
	case "k":
		p.exp = 3
	case "M":
		p.exp = 6
	case "G":
		p.exp = 9
	case "T":
		p.exp = 12
	case "P":
		p.exp = 15
	case "E":
		p.exp = 18
	case "Ki", "Mi", "Gi", "Ti", "Pi", "Ei":
		p.binary = true
		p.exp = 10 * int64(1+strings.IndexByte("KMGTPE", suffix[0]))
	default:
		if len(suffix) < 2 || (suffix[0] != 'e' && suffix[0] != 'E') {
			return p, fmt.Errorf("invalid quantity %q: unknown suffix %q; use one of n u m k M G T P E Ki Mi Gi Ti Pi Ei, or an exponent such as e3", s, suffix)
		}
		e, err := strconv.ParseInt(suffix[1:], 10, 64)
		if err != nil {
			return p, fmt.Errorf("invalid quantity %q: exponent %q is not an integer that fits in 64 bits", s, suffix[1:])
		}
		if e < -maxQuantityExponent || e > maxQuantityExponent {
			return p, fmt.Errorf("invalid quantity %q: exponent %d is out of range (at most ±%d)", s, e, maxQuantityExponent)
		}
		p.exp = e
	}
	// A number without digits is zero on apimachinery's fast path, which
	// handles decimal scales down to 10⁻⁹ and binary suffixes up to Ti; its
	// slow path hands the digit-less text to inf.Dec.SetString, which fails.
	if p.intPart == "" && p.fracPart == "" {
		if (p.binary && p.exp >= 50) || (!p.binary && p.exp < -9) {
			return p, fmt.Errorf("invalid quantity %q: no digits", s)
		}
	}
	return p, nil
}

func skipDigits(s string, i int) int {
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}

// String returns the text the quantity was parsed from.
func (q Quantity) String() string { return q.text }

// Sign returns -1, 0 or +1.
func (q Quantity) Sign() int {
	switch {
	case q.digits == "":
		return 0
	case q.negative:
		return -1
	default:
		return 1
	}
}

// Value returns q rounded up to a whole number, like apimachinery's
// Quantity.Value, or an error if that does not fit in an int64.
func (q Quantity) Value() (int64, error) { return q.scaledCeil(0, "units") }

// MilliValue returns q × 1000 rounded up to a whole number, like
// apimachinery's Quantity.MilliValue, or an error if that does not fit in an
// int64.
func (q Quantity) MilliValue() (int64, error) { return q.scaledCeil(3, "milli-units") }

// scaledCeil returns ⌈q × 10^shift⌉.
//
// It is deliberately stricter than apimachinery in two ways:
//   - a result outside ±(2⁶³-1) is an error; apimachinery silently
//     overflows (Value of "10E" is 0), or caps binary-suffixed values at
//     2⁶³-1 ("9Ei");
//   - a negative quantity must be a whole number of the unit; apimachinery
//     rounds negative fractions inconsistently, depending on its internal
//     representation ("-1.5" gives -2, "-1.3Ki" gives -1330, "-1.5n" gives
//     +1).
//
// Every value it does return equals apimachinery's.
func (q Quantity) scaledCeil(shift int64, unit string) (int64, error) {
	if q.digits == "" {
		return 0, nil
	}
	n := int64(len(q.digits))
	e := q.exp + shift // the result's magnitude is digits × 10^e, in [10^(n-1+e), 10^(n+e))
	var mag uint64
	exact := true
	switch {
	case n-1+e >= 19: // ≥ 10¹⁹ > 2⁶³-1
		return 0, q.tooLarge()
	case n+e <= 0: // 0 < magnitude < 1
		exact = false
	case e >= 0: // at most 19 digits: fits in a uint64
		mag, _ = strconv.ParseUint(q.digits+strings.Repeat("0", int(e)), 10, 64)
	default: // the last digit is not 0, so the dropped fraction is not 0
		mag, _ = strconv.ParseUint(q.digits[:n+e], 10, 64)
		exact = false
	}
	if !exact {
		if q.negative {
			return 0, fmt.Errorf("quantity %s is negative and not a whole number of %s", q.text, unit)
		}
		mag++
	}
	if mag > math.MaxInt64 {
		return 0, q.tooLarge()
	}
	if q.negative {
		return -int64(mag), nil
	}
	return int64(mag), nil
}

func (q Quantity) tooLarge() error {
	if q.negative {
		return fmt.Errorf("quantity %s is too large in magnitude", q.text)
	}
	return fmt.Errorf("quantity %s is too large", q.text)
}

// ResourceAmount parses s and converts it to Kueue's internal integer unit
// for the resource, like Kueue's resources.ResourceValue: milli-units
// (MilliValue) for cpu, whole units (Value) for everything else, rounded up.
//
// Unlike Kubernetes and Kueue, which silently overflow or cap, a result that
// does not fit in an int64 is an error ("quantity 1e400 is too large"), and so
// is a negative quantity that is not a whole number of the unit.
func ResourceAmount(name ResourceName, s string) (Amount, error) {
	q, err := ParseQuantity(s)
	if err != nil {
		return 0, err
	}
	if name == ResourceCPU {
		return q.MilliValue()
	}
	return q.Value()
}

// FormatAmount formats v (in the unit ResourceAmount returns for name) the
// way Kueue's resources.ResourceQuantityString does:
//   - cpu: a canonical DecimalSI quantity of v milli-units (1000 → "1",
//     1500 → "1500m");
//   - memory, ephemeral-storage and hugepages-*: BinarySI when that
//     round-trips (629145600 → "600Mi"), otherwise DecimalSI (100000 →
//     "100k"), as Kueue's newCanonicalQuantity decides;
//   - everything else: a canonical DecimalSI quantity (1000 → "1k").
func FormatAmount(name ResourceName, v Amount) string {
	switch {
	case name == ResourceCPU:
		return formatDecimalSI(v, -3)
	case name == ResourceMemory || name == "ephemeral-storage" || strings.HasPrefix(string(name), "hugepages-"):
		// apimachinery prints BinarySI only for |v| ≥ 1024 and whole
		// multiples of 1024; Kueue re-parses what it printed, and a string
		// without a binary suffix comes back as DecimalSI. math.MinInt64 is
		// the exception: apimachinery's factor removal cannot negate it, so
		// it is printed in full rather than as "-8Ei".
		if v != math.MinInt64 && v%1024 == 0 && (v >= 1024 || v <= -1024) {
			return formatBinarySI(v)
		}
		return formatDecimalSI(v, 0)
	default:
		return formatDecimalSI(v, 0)
	}
}

// magnitude returns |v| and its sign as a string prefix, without overflowing
// on math.MinInt64.
func magnitude(v int64) (uint64, string) {
	if v < 0 {
		return uint64(-(v + 1)) + 1, "-"
	}
	return uint64(v), ""
}

// formatDecimalSI prints v × 10^exp (exp a multiple of 3) in canonical
// DecimalSI form: the largest suffix that keeps the mantissa a whole number.
func formatDecimalSI(v int64, exp int) string {
	if v == 0 {
		return "0"
	}
	mag, sign := magnitude(v)
	for mag%1000 == 0 {
		mag /= 1000
		exp += 3
	}
	var suffix string
	switch exp {
	case -3:
		suffix = "m"
	case 0:
		suffix = ""
	case 3:
		suffix = "k"
	case 6:
		suffix = "M"
	case 9:
		suffix = "G"
	case 12:
		suffix = "T"
	case 15:
		suffix = "P"
	case 18:
		suffix = "E"
	default:
		panic(fmt.Sprintf("core: decimal exponent %d out of range for %d", exp, v))
	}
	return sign + strconv.FormatUint(mag, 10) + suffix
}

// formatBinarySI prints v in canonical BinarySI form: the largest power of
// 1024 that keeps the mantissa a whole number.
func formatBinarySI(v int64) string {
	mag, sign := magnitude(v)
	exp := 0
	for mag >= 1024 && mag%1024 == 0 {
		mag /= 1024
		exp++
	}
	suffix := ""
	if exp > 0 {
		suffix = string("KMGTPE"[exp-1]) + "i"
	}
	return sign + strconv.FormatUint(mag, 10) + suffix
}
