package core

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/api/resource"
)

// k8s.io/apimachinery is imported by this test only, as the oracle for the
// differential tests; `go list -deps ./core` must not list it.

func TestParseQuantity(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    Quantity
		wantErr string // substring of the error; "" means success
	}{
		{name: "zero", in: "0", want: Quantity{text: "0"}},
		{name: "integer", in: "3", want: Quantity{text: "3", digits: "3"}},
		{name: "trailing zeros move to the exponent", in: "1500", want: Quantity{text: "1500", digits: "15", exp: 2}},
		{name: "leading zeros", in: "007", want: Quantity{text: "007", digits: "7"}},
		{name: "plus sign", in: "+2", want: Quantity{text: "+2", digits: "2"}},
		{name: "negative", in: "-2", want: Quantity{text: "-2", negative: true, digits: "2"}},
		{name: "negative zero", in: "-0", want: Quantity{text: "-0"}},
		{name: "fraction", in: "1.5", want: Quantity{text: "1.5", digits: "15", exp: -1}},
		{name: "leading dot", in: ".5", want: Quantity{text: ".5", digits: "5", exp: -1}},
		{name: "trailing dot", in: "5.", want: Quantity{text: "5.", digits: "5"}},
		{name: "milli", in: "250m", want: Quantity{text: "250m", digits: "25", exp: -2}},
		{name: "nano", in: "1n", want: Quantity{text: "1n", digits: "1", exp: -9}},
		{name: "micro", in: "1u", want: Quantity{text: "1u", digits: "1", exp: -6}},
		{name: "kilo", in: "1k", want: Quantity{text: "1k", digits: "1", exp: 3}},
		{name: "exa", in: "2E", want: Quantity{text: "2E", digits: "2", exp: 18}},
		{name: "kibi", in: "1Ki", want: Quantity{text: "1Ki", digits: "1024"}},
		{name: "fractional mebi", in: "1.5Mi", want: Quantity{text: "1.5Mi", digits: "1572864"}},
		{name: "exbi", in: "1Ei", want: Quantity{text: "1Ei", digits: "1152921504606846976"}},
		{name: "exponent", in: "1e3", want: Quantity{text: "1e3", digits: "1", exp: 3}},
		{name: "capital exponent with sign", in: "12E+2", want: Quantity{text: "12E+2", digits: "12", exp: 2}},
		{name: "negative exponent", in: "5e-3", want: Quantity{text: "5e-3", digits: "5", exp: -3}},
		{name: "huge exponent is exact", in: "1e400", want: Quantity{text: "1e400", digits: "1", exp: 400}},
		{name: "tiny exponent is exact", in: "1e-400", want: Quantity{text: "1e-400", digits: "1", exp: -400}},
		{name: "largest exponent", in: "1e1000000000", want: Quantity{text: "1e1000000000", digits: "1", exp: 1000000000}},
		{name: "dot then suffix", in: "1.G", want: Quantity{text: "1.G", digits: "1", exp: 9}},
		// apimachinery's quirks: a number without digits is zero…
		{name: "bare minus", in: "-", want: Quantity{text: "-"}},
		{name: "bare dot", in: ".", want: Quantity{text: "."}},
		{name: "bare suffix", in: "m", want: Quantity{text: "m"}},
		{name: "bare binary suffix", in: "Ti", want: Quantity{text: "Ti"}},
		{name: "bare exponent", in: "e-9", want: Quantity{text: "e-9"}},
		// …except where its slow path rejects it.
		{name: "bare Pi", in: "Pi", wantErr: `invalid quantity "Pi": no digits`},
		{name: "bare Ei", in: "-Ei", wantErr: `invalid quantity "-Ei": no digits`},
		{name: "bare small exponent", in: "e-10", wantErr: `invalid quantity "e-10": no digits`},

		{name: "empty", in: "", wantErr: `invalid quantity "": empty string`},
		{name: "space", in: " 1", wantErr: `invalid quantity " 1": unexpected ' ' at offset 0`},
		{name: "trailing space", in: "1 ", wantErr: `unexpected ' ' at offset 1`},
		{name: "two dots", in: "1.2.3", wantErr: `invalid quantity "1.2.3": unexpected '.' at offset 3`},
		{name: "letters", in: "abc", wantErr: `unexpected 'a' at offset 0`},
		{name: "unicode", in: "1µ", wantErr: `unexpected 'µ' at offset 1`},
		{name: "capital K", in: "1K", wantErr: `invalid quantity "1K": unknown suffix "K"`},
		{name: "lower ki", in: "1ki", wantErr: `unknown suffix "ki"`},
		{name: "bare e", in: "1e", wantErr: `unknown suffix "e"`},
		{name: "suffix then digits", in: "1Ki5", wantErr: `unknown suffix "Ki5"`},
		{name: "sign without e", in: "1-5", wantErr: `unknown suffix "-5"`},
		{name: "exponent without digits", in: "1e+", wantErr: `exponent "+" is not an integer`},
		{name: "double exponent", in: "1ee5", wantErr: `exponent "e5" is not an integer`},
		{name: "fractional exponent", in: "1e1.5", wantErr: `unexpected '.' at offset 3`},
		{name: "exponent overflows int64", in: "1e9223372036854775808", wantErr: `is not an integer that fits in 64 bits`},
		{name: "exponent apimachinery would truncate", in: "1e4294967296", wantErr: `exponent 4294967296 is out of range`},
		{name: "exponent just out of range", in: "1e-1000000001", wantErr: `exponent -1000000001 is out of range`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseQuantity(tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("ParseQuantity(%q) error = %v, want one containing %q", tc.in, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseQuantity(%q): %v", tc.in, err)
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(Quantity{})); diff != "" {
				t.Errorf("ParseQuantity(%q) mismatch (-want +got):\n%s", tc.in, diff)
			}
			if got.String() != tc.in {
				t.Errorf("String() = %q, want %q", got.String(), tc.in)
			}
		})
	}
}

func TestResourceAmount(t *testing.T) {
	tests := []struct {
		name     string
		resource ResourceName
		in       string
		want     Amount
		wantErr  string
	}{
		{name: "cpu cores", resource: ResourceCPU, in: "2", want: 2000},
		{name: "cpu milli", resource: ResourceCPU, in: "250m", want: 250},
		{name: "cpu fraction", resource: ResourceCPU, in: "1.5", want: 1500},
		{name: "cpu rounds up", resource: ResourceCPU, in: "0.0001", want: 1},
		{name: "cpu nano rounds up", resource: ResourceCPU, in: "1n", want: 1},
		{name: "cpu tiny rounds up", resource: ResourceCPU, in: "1e-400", want: 1},
		{name: "cpu zero", resource: ResourceCPU, in: "0", want: 0},
		{name: "cpu negative whole millis", resource: ResourceCPU, in: "-1.5", want: -1500},
		{name: "cpu largest", resource: ResourceCPU, in: "9223372036854775807m", want: math.MaxInt64},
		{name: "cpu just too large", resource: ResourceCPU, in: "9223372036854775808m", wantErr: "quantity 9223372036854775808m is too large"},
		{name: "cpu too large for millis", resource: ResourceCPU, in: "10P", wantErr: "quantity 10P is too large"},
		{name: "cpu negative fraction of a milli", resource: ResourceCPU, in: "-1.5m", wantErr: "quantity -1.5m is negative and not a whole number of milli-units"},
		{name: "memory bytes", resource: ResourceMemory, in: "100", want: 100},
		{name: "memory mebibytes", resource: ResourceMemory, in: "600Mi", want: 629145600},
		{name: "memory gigabytes", resource: ResourceMemory, in: "1G", want: 1000000000},
		{name: "memory fraction rounds up", resource: ResourceMemory, in: "1.3Ki", want: 1332},
		{name: "memory milli rounds up", resource: ResourceMemory, in: "1500m", want: 2},
		{name: "memory largest", resource: ResourceMemory, in: "9223372036854775807", want: math.MaxInt64},
		{name: "memory most negative allowed", resource: ResourceMemory, in: "-9223372036854775807", want: -math.MaxInt64},
		{name: "memory min int64 is too large", resource: ResourceMemory, in: "-8Ei", wantErr: "quantity -8Ei is too large in magnitude"},
		{name: "memory capped by apimachinery is an error here", resource: ResourceMemory, in: "8Ei", wantErr: "quantity 8Ei is too large"},
		{name: "memory 1e400", resource: ResourceMemory, in: "1e400", wantErr: "quantity 1e400 is too large"},
		{name: "memory 10E", resource: ResourceMemory, in: "10E", wantErr: "quantity 10E is too large"},
		{name: "memory negative fraction", resource: ResourceMemory, in: "-1.3Ki", wantErr: "quantity -1.3Ki is negative and not a whole number of units"},
		{name: "memory negative tiny", resource: ResourceMemory, in: "-1e-10", wantErr: "is negative and not a whole number"},
		{name: "pods", resource: ResourcePods, in: "3", want: 3},
		{name: "gpu", resource: "nvidia.com/gpu", in: "1k", want: 1000},
		{name: "parse error passes through", resource: ResourceCPU, in: "1K", wantErr: `invalid quantity "1K"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ResourceAmount(tc.resource, tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("ResourceAmount(%q, %q) = %d, %v; want error containing %q", tc.resource, tc.in, got, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ResourceAmount(%q, %q): %v", tc.resource, tc.in, err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ResourceAmount(%q, %q) mismatch (-want +got):\n%s", tc.resource, tc.in, diff)
			}
		})
	}
}

func TestFormatAmount(t *testing.T) {
	tests := []struct {
		name     string
		resource ResourceName
		in       Amount
		want     string
	}{
		{name: "cpu zero", resource: ResourceCPU, in: 0, want: "0"},
		{name: "cpu one core", resource: ResourceCPU, in: 1000, want: "1"},
		{name: "cpu one and a half", resource: ResourceCPU, in: 1500, want: "1500m"},
		{name: "cpu quarter", resource: ResourceCPU, in: 250, want: "250m"},
		{name: "cpu hundred cores", resource: ResourceCPU, in: 100000, want: "100"},
		{name: "cpu thousand cores", resource: ResourceCPU, in: 1000000, want: "1k"},
		{name: "cpu negative", resource: ResourceCPU, in: -500, want: "-500m"},
		{name: "cpu negative cores", resource: ResourceCPU, in: -2000, want: "-2"},
		{name: "cpu max", resource: ResourceCPU, in: math.MaxInt64, want: "9223372036854775807m"},
		{name: "cpu min", resource: ResourceCPU, in: math.MinInt64, want: "-9223372036854775808m"},
		{name: "memory mebibytes", resource: ResourceMemory, in: 629145600, want: "600Mi"},
		{name: "memory decimal fallback", resource: ResourceMemory, in: 100000, want: "100k"},
		{name: "memory kibibytes", resource: ResourceMemory, in: 128000, want: "125Ki"},
		{name: "memory 1000Ki stays binary", resource: ResourceMemory, in: 1024000, want: "1000Ki"},
		{name: "memory small", resource: ResourceMemory, in: 1000, want: "1k"},
		{name: "memory 1023", resource: ResourceMemory, in: 1023, want: "1023"},
		{name: "memory 1024", resource: ResourceMemory, in: 1024, want: "1Ki"},
		{name: "memory 1500", resource: ResourceMemory, in: 1500, want: "1500"},
		{name: "memory zero", resource: ResourceMemory, in: 0, want: "0"},
		{name: "memory negative binary", resource: ResourceMemory, in: -2048, want: "-2Ki"},
		{name: "memory negative small", resource: ResourceMemory, in: -1000, want: "-1k"},
		{name: "memory exbibytes", resource: ResourceMemory, in: 7 << 60, want: "7Ei"},
		{name: "memory max", resource: ResourceMemory, in: math.MaxInt64, want: "9223372036854775807"},
		{name: "memory min", resource: ResourceMemory, in: math.MinInt64, want: "-9223372036854775808"},
		{name: "ephemeral storage", resource: "ephemeral-storage", in: 1 << 30, want: "1Gi"},
		{name: "hugepages", resource: "hugepages-2Mi", in: 4 << 20, want: "4Mi"},
		{name: "pods", resource: ResourcePods, in: 3, want: "3"},
		{name: "pods thousand", resource: ResourcePods, in: 1000, want: "1k"},
		{name: "pods 1500", resource: ResourcePods, in: 1500, want: "1500"},
		{name: "gpu binary-looking stays decimal", resource: "nvidia.com/gpu", in: 1024, want: "1024"},
		{name: "exa", resource: ResourcePods, in: 9000000000000000000, want: "9E"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, FormatAmount(tc.resource, tc.in)); diff != "" {
				t.Errorf("FormatAmount(%q, %d) mismatch (-want +got):\n%s", tc.resource, tc.in, diff)
			}
		})
	}
}

// --- differential tests against k8s.io/apimachinery -----------------------

// oracleSafeExponent bounds the exponents handed to apimachinery: it
// materialises 10^|exponent| as a big integer, so 1e1000000000 would take
// minutes and gigabytes.
const oracleSafeExponent = 1000

// kueueResourceQuantityString is Kueue v0.16.1's
// resources.ResourceQuantityString, restated over apimachinery (importing
// Kueue itself would pull in most of Kubernetes).
func kueueResourceQuantityString(name ResourceName, v int64) string {
	var q resource.Quantity
	switch {
	case name == ResourceCPU:
		q = *resource.NewMilliQuantity(v, resource.DecimalSI)
	case name == ResourceMemory || name == "ephemeral-storage" || strings.HasPrefix(string(name), "hugepages-"):
		preferred := *resource.NewQuantity(v, resource.BinarySI)
		final, err := resource.ParseQuantity(preferred.String())
		if err != nil {
			q = preferred
		} else {
			q = final
		}
	default:
		q = *resource.NewQuantity(v, resource.DecimalSI)
	}
	return q.String()
}

// exactValue returns q as an exact rational.
func (q Quantity) exactValue() *big.Rat {
	if q.digits == "" {
		return new(big.Rat)
	}
	m, _ := new(big.Int).SetString(q.digits, 10)
	if q.negative {
		m.Neg(m)
	}
	return ratTimesPow10(new(big.Rat).SetInt(m), q.exp)
}

func ratTimesPow10(r *big.Rat, exp int64) *big.Rat {
	if exp == 0 {
		return r
	}
	abs := exp
	if abs < 0 {
		abs = -abs
	}
	p := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(abs), nil))
	if exp > 0 {
		return r.Mul(r, p)
	}
	return r.Quo(r, p)
}

// apimachineryExact returns apimachinery's (already rounded) value as an
// exact rational.
func apimachineryExact(q *resource.Quantity) *big.Rat {
	d := q.AsDec()
	return ratTimesPow10(new(big.Rat).SetInt(d.UnscaledBig()), -int64(d.Scale()))
}

// wantApimachineryExact is the value apimachinery stores for our exact value
// x: the magnitude rounded up to a multiple of 10⁻⁹ and, for binary
// suffixes, capped at 2⁶³-1.
func wantApimachineryExact(x *big.Rat, binary bool) *big.Rat {
	mag := new(big.Rat).Abs(x)
	nanos := new(big.Rat).Mul(mag, big.NewRat(1e9, 1))
	n := new(big.Int).Quo(nanos.Num(), nanos.Denom())
	if new(big.Rat).SetInt(n).Cmp(nanos) != 0 {
		n.Add(n, big.NewInt(1))
	}
	mag.SetFrac(n, big.NewInt(1e9))
	if maxRat := new(big.Rat).SetInt64(math.MaxInt64); binary && mag.Cmp(maxRat) > 0 {
		mag = maxRat
	}
	if x.Sign() < 0 {
		mag.Neg(mag)
	}
	return mag
}

// ceilScaled returns ⌈x × 10^shift⌉.
func ceilScaled(x *big.Rat, shift int64) *big.Int {
	y := ratTimesPow10(new(big.Rat).Set(x), shift)
	n := new(big.Int)
	m := new(big.Int)
	n.DivMod(y.Num(), y.Denom(), m) // Euclidean: floor for a positive denominator
	if m.Sign() != 0 {
		n.Add(n, big.NewInt(1))
	}
	return n
}

// compareWithApimachinery checks one input against apimachinery and returns
// whether we accepted it. It must only be called for inputs whose exponent
// is at most oracleSafeExponent in magnitude (or which we reject before
// apimachinery would run long).
func compareWithApimachinery(t *testing.T, s string) bool {
	t.Helper()
	ours, err := ParseQuantity(s)
	theirs, theirErr := resource.ParseQuantity(s)
	if (err == nil) != (theirErr == nil) {
		t.Errorf("ParseQuantity(%q): ours: %v; apimachinery: %v", s, err, theirErr)
		return err == nil
	}
	if err != nil {
		return false
	}
	p, _ := scanQuantity(s)
	exact := ours.exactValue()
	if got, want := apimachineryExact(&theirs), wantApimachineryExact(exact, p.binary); got.Cmp(want) != 0 {
		t.Errorf("ParseQuantity(%q) = %s exactly; apimachinery holds %s, want %s", s, exact.RatString(), got.RatString(), want.RatString())
	}
	for _, name := range []ResourceName{ResourceCPU, ResourceMemory} {
		shift := int64(0)
		if name == ResourceCPU {
			shift = 3
		}
		got, err := ResourceAmount(name, s)
		if err != nil {
			// Our two deliberate deviations; check that they apply.
			c := ceilScaled(exact, shift)
			negFraction := exact.Sign() < 0 && !ratTimesPow10(new(big.Rat).Set(exact), shift).IsInt()
			if !negFraction && c.CmpAbs(big.NewInt(math.MaxInt64)) <= 0 {
				t.Errorf("ResourceAmount(%q, %q): unexpected error %v", name, s, err)
			}
			continue
		}
		// apimachinery's negative rounding is unreliable; we only accept
		// negative whole numbers, which equal minus the positive value.
		k := theirs
		sign := int64(1)
		if ours.Sign() < 0 {
			k, _ = resource.ParseQuantity(strings.TrimPrefix(s, "-"))
			sign = -1
		}
		want := sign * k.Value()
		if name == ResourceCPU {
			want = sign * k.MilliValue()
		}
		if got != want {
			t.Errorf("ResourceAmount(%q, %q) = %d, apimachinery says %d", name, s, got, want)
		}
	}
	return true
}

// quantityCorpus generates test inputs: every combination of sign, number
// and suffix from small lists (valid and invalid), and random strings over
// the quantity alphabet.
func quantityCorpus() []string {
	signs := []string{"", "+", "-"}
	numbers := []string{
		"", "0", "00", "1", "7", "10", "000123", "1500", "999", "1000", "1023", "1024", "1025",
		".", "1.", ".5", "0.5", "1.5", "1.0", "1.05", "0.001", "0.0001", "0.000000001", "0.0000000001",
		"0.9999999999", "1.3", "12.345678901", "123456789012345678", "1234567890123456789",
		"9223372036854775807", "9223372036854775808", "18446744073709551615", "99999999999999999999",
		"12345678901234567890", "1.000000000000000000001", "9223372036854775.807", "9223372036854775.808",
		"4611686018427387904", "8796093022207", "1..5", "1.2.3", "a", " 1",
	}
	suffixes := []string{
		"", "n", "u", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei",
		"e0", "e3", "E3", "e+3", "e-3", "e-9", "e-10", "e18", "E19", "e-18", "e40", "e-40",
		"e400", "e-400", "e007", "e", "E", "K", "ki", "i", "Kii", "mi", "e3.5", "e+", "e-",
		"ee3", "e3e3", "-3", "+3", "Ki3", "ms", "kk", "e9223372036854775807", "e9223372036854775808",
	}
	var out []string
	for _, sign := range signs {
		for _, num := range numbers {
			for _, suf := range suffixes {
				out = append(out, sign+num+suf)
			}
		}
	}
	rng := rand.New(rand.NewPCG(12, 34))
	const alphabet = "0123456789.+-eEinumkKMGTP "
	for range 20000 {
		b := make([]byte, 1+rng.IntN(12))
		for i := range b {
			if rng.IntN(2) == 0 {
				b[i] = byte('0' + rng.IntN(10))
			} else {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			}
		}
		out = append(out, string(b))
	}
	return out
}

// safeForOracle reports whether apimachinery can parse s quickly (see
// oracleSafeExponent). Strings we reject during scanning are always safe
// to hand over except for exponents beyond ±1e9, which apimachinery
// truncates to int32.
func safeForOracle(s string) bool {
	p, err := scanQuantity(s)
	if err != nil {
		return !strings.Contains(err.Error(), "out of range")
	}
	return p.binary || (p.exp >= -oracleSafeExponent && p.exp <= oracleSafeExponent)
}

func TestQuantityMatchesApimachinery(t *testing.T) {
	accepted, total := 0, 0
	for _, s := range quantityCorpus() {
		if !safeForOracle(s) {
			continue
		}
		total++
		if compareWithApimachinery(t, s) {
			accepted++
		}
	}
	t.Logf("compared %d inputs with apimachinery, %d accepted", total, accepted)
	if accepted < 1000 || total-accepted < 1000 {
		t.Errorf("corpus too one-sided: %d accepted of %d", accepted, total)
	}
}

func formatCorpus() []int64 {
	vals := []int64{0, 1, 2, 999, 1000, 1001, 1023, 1024, 1025, 1500, 2048, 100000, 128000, 1024000,
		629145600, 1e9, 1 << 30, 1e18, 9e18, 7 << 60, 1 << 62, math.MaxInt64, math.MaxInt64 - 1023,
		math.MaxInt64 - 807, 9223372036854775000, 9223372036854774784}
	for i := 0; i < 63; i++ {
		vals = append(vals, 1<<i, 1<<i-1, 1<<i+1, 3<<i>>1)
	}
	for p := int64(1); p <= 1e18; p *= 10 {
		vals = append(vals, p, p-1, p+1, 1024*p, 15*p, 125*p)
	}
	rng := rand.New(rand.NewPCG(56, 78))
	for range 5000 {
		vals = append(vals, rng.Int64()>>rng.IntN(63), rng.Int64N(1<<20)<<(10*rng.IntN(6)), rng.Int64N(1000)*int64(math.Pow10(rng.IntN(16))))
	}
	out := make([]int64, 0, 2*len(vals)+1)
	for _, v := range vals {
		out = append(out, v, -v)
	}
	return append(out, math.MinInt64)
}

func TestFormatAmountMatchesKueue(t *testing.T) {
	names := []ResourceName{ResourceCPU, ResourceMemory, "ephemeral-storage", "hugepages-2Mi", ResourcePods, "nvidia.com/gpu"}
	for _, v := range formatCorpus() {
		for _, name := range names {
			got, want := FormatAmount(name, v), kueueResourceQuantityString(name, v)
			if got != want {
				t.Errorf("FormatAmount(%q, %d) = %q, Kueue gives %q", name, v, got, want)
				continue
			}
			if v == math.MinInt64 {
				continue // out of ResourceAmount's range by design
			}
			back, err := ResourceAmount(name, got)
			if err != nil || back != v {
				t.Errorf("ResourceAmount(%q, FormatAmount(%d) = %q) = %d, %v; want the value back", name, v, got, back, err)
			}
		}
	}
}

func FuzzParseQuantity(f *testing.F) {
	for _, s := range []string{"0", "1", "-1.5", "250m", "1.5Gi", "600Mi", "1e3", "1E-5", "+.5e+2", "9Ei",
		"-", ".", "m", "Pi", "e-10", "1e400", "1e-400", "9223372036854775807m", "1.2.3", "1K", "1e4294967296"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := ParseQuantity(s)
		cpu, cpuErr := ResourceAmount(ResourceCPU, s)
		mem, memErr := ResourceAmount(ResourceMemory, s)
		if err != nil {
			if cpuErr == nil || memErr == nil {
				t.Fatalf("ParseQuantity(%q) failed (%v) but ResourceAmount succeeded", s, err)
			}
		} else if q.String() != s {
			t.Fatalf("ParseQuantity(%q).String() = %q", s, q.String())
		}
		for _, r := range []struct {
			name ResourceName
			v    Amount
			err  error
		}{{ResourceCPU, cpu, cpuErr}, {ResourceMemory, mem, memErr}} {
			name, v := r.name, r.v
			if r.err != nil {
				continue
			}
			if back, err := ResourceAmount(name, FormatAmount(name, v)); err != nil || back != v {
				t.Fatalf("round trip of %q as %s: %d → %q → %d, %v", s, name, v, FormatAmount(name, v), back, err)
			}
		}
		if !safeForOracle(s) || len(s) > 1000 {
			return
		}
		compareWithApimachinery(t, s)
	})
}
