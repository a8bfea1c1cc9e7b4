package core

import "strings"

// Nearest returns the candidate closest to s by edit distance, ignoring
// case, when it is close enough to be a likely misspelling: at most a third
// of the longer word's length, and at most 3. Ties go to the first
// candidate in the list; "" when none is close. The decoder uses it for
// kinds and fields, the gate table for gate names.
func Nearest(s string, candidates []string) string {
	best, bestDist := "", 4
	ls := strings.ToLower(s)
	for _, c := range candidates {
		dist := editDistance(ls, strings.ToLower(c))
		if dist <= max(len(s), len(c))/3 && dist < bestDist {
			best, bestDist = c, dist
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes. The
// strings are names, at most a few dozen bytes; longer input is cut at 64
// bytes to keep the cost bounded.
func editDistance(a, b string) int {
	const maxLen = 64
	if len(a) > maxLen {
		a = a[:maxLen]
	}
	if len(b) > maxLen {
		b = b[:maxLen]
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
