package scenario

import (
	"fmt"
	"strings"
)

// This file mirrors the name and label checks of
// k8s.io/apimachinery/pkg/util/validation (IsDNS1123Subdomain,
// IsDNS1123Label, IsQualifiedName, IsValidLabelValue), written without
// regular expressions. Each returns "" for a valid value, else the reason.

func isAlnumLower(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// dns1123Label checks one label of a DNS name: [a-z0-9]([-a-z0-9]*[a-z0-9])?
func dns1123Label(s string) bool {
	if s == "" || !isAlnumLower(s[0]) || !isAlnumLower(s[len(s)-1]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isAlnumLower(s[i]) && s[i] != '-' {
			return false
		}
	}
	return true
}

// checkDNSSubdomain mirrors IsDNS1123Subdomain with an explicit length
// bound (MaxNameLength for most object names; 63 for Job names).
func checkDNSSubdomain(s string, maxLen int) string {
	if s == "" {
		return "must not be empty"
	}
	if len(s) > maxLen {
		return fmt.Sprintf("must be no more than %d characters, got %d", maxLen, len(s))
	}
	// Each "."-separated part, without strings.Split's slice (this runs for
	// every name of a 15,000-workload file).
	for rest := s; ; {
		part, after, more := strings.Cut(rest, ".")
		if !dns1123Label(part) {
			return fmt.Sprintf("%q is not a lowercase RFC 1123 subdomain: it must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com')", clip(s))
		}
		if !more {
			return ""
		}
		rest = after
	}
}

// checkDNSLabel mirrors IsDNS1123Label (namespaces, pod set names).
func checkDNSLabel(s string) string {
	if s == "" {
		return "must not be empty"
	}
	if len(s) > MaxDNSLabelLength {
		return fmt.Sprintf("must be no more than %d characters, got %d", MaxDNSLabelLength, len(s))
	}
	if !dns1123Label(s) {
		return fmt.Sprintf("%q is not a lowercase RFC 1123 label: it must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name')", clip(s))
	}
	return ""
}

// labelNamePart checks ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9].
func labelNamePart(s string) bool {
	if s == "" || !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// checkQualifiedName mirrors IsQualifiedName: an optional DNS subdomain
// prefix and "/", then a name of at most 63 characters. Label keys,
// annotation keys and resource names use it.
func checkQualifiedName(s string) string {
	prefix, name, hasPrefix := strings.Cut(s, "/")
	if !hasPrefix {
		name, prefix = prefix, ""
	}
	if hasPrefix {
		if prefix == "" {
			return "prefix part must not be empty"
		}
		if msg := checkDNSSubdomain(prefix, MaxNameLength); msg != "" {
			return "prefix part " + msg
		}
		if strings.Contains(name, "/") {
			return fmt.Sprintf("%q: a qualified name must consist of an optional DNS subdomain prefix and '/', then a name", clip(s))
		}
	}
	if name == "" {
		return "name part must not be empty"
	}
	if len(name) > MaxLabelValueLength {
		return fmt.Sprintf("name part must be no more than %d characters, got %d", MaxLabelValueLength, len(name))
	}
	if !labelNamePart(name) {
		return fmt.Sprintf("name part of %q must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", clip(s))
	}
	return ""
}

// checkLabelValue mirrors IsValidLabelValue: empty, or at most 63
// characters of the label name alphabet.
func checkLabelValue(s string) string {
	if s == "" {
		return ""
	}
	if len(s) > MaxLabelValueLength {
		return fmt.Sprintf("must be no more than %d characters, got %d", MaxLabelValueLength, len(s))
	}
	if !labelNamePart(s) {
		return fmt.Sprintf("%q must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", clip(s))
	}
	return ""
}
