module github.com/kueueplay/kueueplay

go 1.26.8

require (
	github.com/andybalholm/brotli v1.2.8
	github.com/google/go-cmp v0.7.0
	github.com/syumai/workers v0.33.0
	go.yaml.in/yaml/v3 v3.0.4
	k8s.io/apimachinery v0.35.0
)

require (
	github.com/fxamacker/cbor/v2 v2.9.0 // indirect
	github.com/x448/float16 v0.8.4 // indirect
	gopkg.in/inf.v0 v0.9.1 // indirect
	sigs.k8s.io/json v0.0.0-20250730193827-2d320260d730 // indirect
)

// yaml.v3 with its two regular expressions matched by hand, so that
// regexp and the unicode tables are not linked (86 KB of the page's
// WebAssembly, brotli): third_party/go.yaml.in/yaml/v3/match.go.
replace go.yaml.in/yaml/v3 v3.0.4 => ./third_party/go.yaml.in/yaml/v3
