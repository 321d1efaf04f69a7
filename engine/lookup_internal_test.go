package engine

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// trickyKeys are keys whose canonical forms are easy to get wrong: case,
// underscores and spaces anywhere, digits, bytes next to the ASCII letters
// ('@', '[', '`', '{'), non-ASCII letters whose case is not folded
// (docs/rules.md, "How names match JSON keys"), invalid UTF-8, and keys
// that are nothing but what canonical forms drop.
var trickyKeys = []string{
	"", " ", "_", "__", " _ ", "\t", "a", "A", "a ", " a", "_a_", "A_",
	"Person", "person", "PERSON", "per son", "pErSoN",
	"first name", "firstName", "first_name", "FirstName", "FIRST_NAME", "firstname", "first  name", "first\tname",
	"driving test", "drivingTest", "driving_test",
	"is_premium", "isPremium", "ISPREMIUM", "is premium",
	"e-mail", "E-Mail", "email", "e_mail",
	"Ärzte", "ÄRZTE", "ärzte", "ÄrZtE", "Ä_rzte",
	"İ", "i", "I", "ı", "ǅ", "ǆ", "Σ", "σ", "ς", "ｋ", "K", "k", "\u212a",
	"k5", "K5", "K_5", "__K_5__", "k 5", "k05", "k5 ", "5", "_5",
	"@", "[", "`", "{", "Z", "z", "@a", "[a", "`a", "{a",
	"\x00", "\x00a", "a\x00", "\xff", "A\xff", "\xc3", "\xc3\x84", "\xc3 \x84", "\xc3_\x84",
}

// scanKey is how lookup found a name before it indexed large objects: the
// exact key, else searchKey, which every object of up to searchedKeys keys
// still takes.
func scanKey(obj map[string]any, s step) (string, any, bool) {
	if v, ok := obj[s.name]; ok {
		return s.name, v, true
	}
	return searchKey(obj, s)
}

// The index compares canonical forms as strings, the scan with canonEqual:
// they agree only if canonEqual(key, want) is canon(key) == want for every
// want, canonical or not.
func TestCanonEqualComparesCanonicalForms(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	strs := append([]string(nil), trickyKeys...)
	for range 3000 {
		strs = append(strs, randomKey(rng, 6))
	}
	for _, k := range strs {
		c := canon(k)
		if !isCanonical(c) || canon(c) != c {
			t.Fatalf("canon(%q) = %q, which is not canonical", k, c)
		}
		if !canonEqual(k, c) {
			t.Fatalf("canonEqual(%q, canon(%[1]q) = %q) is false", k, c)
		}
	}
	for _, k := range strs[:len(trickyKeys)+300] {
		for _, want := range strs {
			if got := canonEqual(k, want); got != (canon(k) == want) {
				t.Fatalf("canonEqual(%q, %q) = %v, canon(%[1]q) = %q", k, want, got, canon(k))
			}
		}
	}
}

// TestLookupFindsTheKeyTheScanFinds sets lookup, which indexes large
// objects, against scanKey, on objects on both sides of searchedKeys whose
// keys are drawn from a few bytes so that many share a canonical form,
// with names that are keys, canonical forms of keys, other spellings of
// them and strangers. Each object is searched by one evaluator, as a run
// searches it, so that later names are found through its index.
func TestLookupFindsTheKeyTheScanFinds(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	loose, indexed := 0, 0
	for n := range 3000 {
		obj := map[string]any{}
		size := 1 + rng.IntN(3*searchedKeys)
		if n%2 == 0 {
			size += searchedKeys + 1
		}
		for len(obj) < size {
			k := randomKey(rng, 5)
			if rng.IntN(8) == 0 {
				k = trickyKeys[rng.IntN(len(trickyKeys))]
			}
			obj[k] = float64(len(obj))
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		e := evaluator{}
		for range 60 {
			var name string
			switch rng.IntN(5) {
			case 0:
				name = keys[rng.IntN(len(keys))]
			case 1:
				name = canon(keys[rng.IntN(len(keys))])
			case 2:
				name = respell(rng, keys[rng.IntN(len(keys))])
			case 3:
				name = trickyKeys[rng.IntN(len(trickyKeys))]
			default:
				name = randomKey(rng, 5)
			}
			s := step{name, canon(name)}
			wantKey, wantV, wantOK := scanKey(obj, s)
			gotKey, gotV, gotOK := e.lookup(obj, s)
			if gotKey != wantKey || gotV != wantV || gotOK != wantOK {
				t.Fatalf("%q in an object of %d keys %q: lookup finds %q, %v, %v; the scan %q, %v, %v",
					name, len(obj), keys, gotKey, gotV, gotOK, wantKey, wantV, wantOK)
			}
			if wantOK && wantKey != name {
				loose++
				if len(obj) > searchedKeys {
					indexed++
				}
			}
		}
	}
	if loose < 20000 || indexed < 10000 {
		t.Errorf("only %d names were found by canonical form, %d in indexed objects: the cases test too little", loose, indexed)
	}
}

// A run reads a large object's keys once, however many names it searches
// it for that are not exact keys: a rule may name thousands of them, and
// reading every key for each would cost their product. A key added after
// the first search is not seen by later ones, which it would be if they
// read the keys again.
func TestLookupReadsALargeObjectsKeysOncePerRun(t *testing.T) {
	obj := map[string]any{}
	for i := range 2 * searchedKeys {
		obj[fmt.Sprintf("K_%d", i)] = float64(i)
	}
	e := evaluator{}
	if key, _, ok := e.lookup(obj, step{"k0", "k0"}); !ok || key != "K_0" {
		t.Fatalf("k0 finds %q, %v; want K_0", key, ok)
	}
	obj["K_1000"] = 1000.0
	if key, _, ok := e.lookup(obj, step{"k1000", "k1000"}); ok {
		t.Fatalf("k1000 finds %q, a key added after the object was searched: the search read the keys again", key)
	}
	if key, _, ok := (&evaluator{}).lookup(obj, step{"k1000", "k1000"}); !ok || key != "K_1000" {
		t.Fatalf("a new run finds k1000 at %q, %v; want K_1000", key, ok)
	}
}

// randomKey draws a key of up to max bytes from a few that canonical forms
// fold, drop or keep, UTF-8 and not.
func randomKey(rng *rand.Rand, max int) string {
	const bytes = "aAbB_ 1@[\xc3\x84\xa4"
	var b strings.Builder
	for range rng.IntN(max + 1) {
		b.WriteByte(bytes[rng.IntN(len(bytes))])
	}
	return b.String()
}

// respell changes a key's case and scatters spaces and underscores in it,
// which leaves its canonical form alone.
func respell(rng *rand.Rand, k string) string {
	var b strings.Builder
	for i := 0; i < len(k); i++ {
		c := k[i]
		if rng.IntN(2) == 0 {
			switch {
			case c >= 'a' && c <= 'z':
				c -= 'a' - 'A'
			case c >= 'A' && c <= 'Z':
				c += 'a' - 'A'
			}
		}
		b.WriteByte(c)
		if rng.IntN(4) == 0 {
			b.WriteByte(" _"[rng.IntN(2)])
		}
	}
	return b.String()
}
