package api_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kueueplay/kueueplay/api"
	"github.com/kueueplay/kueueplay/core"
	"github.com/kueueplay/kueueplay/internal/hostile"
	"github.com/kueueplay/kueueplay/ui/sharelink"
	"github.com/kueueplay/kueueplay/ui/view"
)

// TestHostile sends every case of the hostile-input suite to
// /v1/simulate and /v1/validate, and the small ones to /v1/render.svg,
// under each limit profile: each answer is the stated status and error
// code (a 4xx, never a 5xx), an invalid scenario's diagnostics name the
// stated position, nothing echoes markup unescaped, and each request ends
// within hostile.APISeconds. The suite states the answers of the limits
// the API had before the profiles (1 MiB, 2,000 objects and cycles,
// 5,000,000 units); a profile may refuse a case sooner, by one of its
// limits.
func TestHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("sends 60 MB of hostile input")
	}
	for _, p := range profiles {
		t.Run(p.name, func(t *testing.T) { testHostile(t, newHandler(p.limits)) })
	}
}

// limitCodes are the refusals of a limit.
var limitCodes = map[string]bool{"body_too_large": true, "object_limit": true, "cycle_limit": true, "work_limit": true}

func testHostile(t *testing.T, h *api.Handler) {
	for _, c := range hostile.Cases() {
		t.Run(c.Name, func(t *testing.T) {
			data, err := c.Input(filepath.Join("..", "testdata", "hostile"))
			if err != nil {
				t.Fatal(err)
			}
			file := c.Name + ".yaml"
			start := time.Now()
			rec := post(h, "/v1/simulate?file="+file, data)
			took := time.Since(start)
			t.Logf("simulate: %d in %v, %d bytes", rec.Code, took.Round(time.Millisecond), rec.Body.Len())
			if took > hostile.APISeconds*time.Second {
				t.Errorf("simulate took %v, above the bound of %ds", took, hostile.APISeconds)
			}
			checkSafe(t, "simulate", rec)
			// A profile may refuse by a limit where the suite expects
			// another answer.
			sooner := rec.Code != c.APIStatus && rec.Code < 500 && limitCodes[decodeJSON[errorBody](t, rec).Error.Code]
			if rec.Code != c.APIStatus && !sooner {
				t.Fatalf("simulate: status %d, want %d:\n%.600s", rec.Code, c.APIStatus, rec.Body.String())
			}
			if c.APIStatus != http.StatusOK && !sooner {
				e := decodeJSON[errorBody](t, rec)
				if e.Error.Code != c.APICode || e.Error.Message == "" {
					t.Errorf("simulate: error code %q (%q), want %q", e.Error.Code, e.Error.Message, c.APICode)
				}
				if c.APICode == "invalid_scenario" && c.Error != "" && !hasDiagnostic(e.Error.Diagnostics, file, c.At, c.Error) {
					t.Errorf("simulate: no error at %s:%s containing %q in %+v", file, c.At, c.Error, e.Error.Diagnostics[:min(5, len(e.Error.Diagnostics))])
				}
			}

			rec = post(h, "/v1/validate?file="+file, data)
			checkSafe(t, "validate", rec)
			if rec.Code >= 500 {
				t.Errorf("validate: status %d", rec.Code)
			}
			if rec.Code == http.StatusOK && c.Error != "" {
				v := decodeJSON[struct {
					Valid       bool              `json:"valid"`
					Diagnostics []core.Diagnostic `json:"diagnostics"`
				}](t, rec)
				if v.Valid || !hasDiagnostic(v.Diagnostics, file, c.At, c.Error) {
					t.Errorf("validate: valid %t, no error at %s:%s containing %q", v.Valid, file, c.At, c.Error)
				}
			}

			if len(data) > 64<<10 {
				return
			}
			frag := sharelink.Encode(view.Shared{Scenario: string(data)})
			rec = httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v1/render.svg?s="+frag[1:], nil))
			if rec.Code >= 500 {
				t.Errorf("render.svg: status %d", rec.Code)
			}
			checkSafe(t, "render.svg", rec)
		})
	}
}

func post(h http.Handler, target string, body []byte) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, target, bytes.NewReader(body)))
	return rec
}

// hasDiagnostic reports whether ds has an error at file:at whose message
// contains msg.
func hasDiagnostic(ds []core.Diagnostic, file, at, msg string) bool {
	for _, d := range ds {
		if d.Severity == core.SeverityError && d.Pos.File == file && fmt.Sprintf("%d:%d", d.Pos.Line, d.Pos.Col) == at && strings.Contains(d.Message, msg) {
			return true
		}
	}
	return false
}

// checkSafe fails on a 5xx and on a body that carries markup from the
// input unescaped or a raw control character or ANSI escape. (JSON
// escapes both; a bidi override is legal JSON text and passes.)
func checkSafe(t *testing.T, what string, rec *httptest.ResponseRecorder) {
	t.Helper()
	if rec.Code >= 500 {
		t.Errorf("%s: status %d:\n%.300s", what, rec.Code, rec.Body.String())
	}
	body := rec.Body.String()
	for _, bad := range []string{"<script", "<img", "<svg onload", "\x1b", "\a", "\x00"} {
		if i := strings.Index(body, bad); i >= 0 {
			t.Errorf("%s: the answer carries %q raw: %q", what, bad, body[max(0, i-60):min(len(body), i+60)])
		}
	}
}
