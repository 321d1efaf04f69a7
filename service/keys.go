package service

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"
)

// Generated keys look like vdk_1a2b3c4d_<43 characters>: a visible prefix
// that tells keys apart in lists, and 256 random bits.
const (
	keyTag          = "vdk_"
	keyPrefixLength = len(keyTag) + 8
	// MinKeyLength is the shortest secret accepted from an operator (a
	// bootstrap key given by flag or environment).
	MinKeyLength = 32
)

// newSecret returns a fresh API key.
func newSecret() string {
	var id [4]byte
	var secret [32]byte
	rand.Read(id[:])
	rand.Read(secret[:])
	return keyTag + hex.EncodeToString(id[:]) + "_" + base64.RawURLEncoding.EncodeToString(secret[:])
}

// keyPrefix is the part of a key that is stored in clear and shown in
// lists. Keys not made by newSecret show their first characters, which
// several keys may share: a key is found by its hash, never its prefix.
func keyPrefix(secret string) string {
	if len(secret) >= keyPrefixLength {
		return secret[:keyPrefixLength]
	}
	return secret
}

// keyHash is what is stored of a key. A plain SHA-256 is right for secrets
// of this much entropy: there is nothing to brute-force.
func keyHash(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	// Encoded on the stack: every authenticated request hashes its key.
	var text [2 * sha256.Size]byte
	hex.Encode(text[:], sum[:])
	return string(text[:])
}

// CheckOperatorKey refuses a secret an operator chose that is too short to
// be hard to guess, or has surrounding spaces that would be lost on the way
// into a header. The error never repeats the secret.
func CheckOperatorKey(secret string) error {
	if len(secret) < MinKeyLength || strings.TrimSpace(secret) != secret {
		return Invalid("a key must be at least %d characters without surrounding spaces", MinKeyLength)
	}
	return nil
}
