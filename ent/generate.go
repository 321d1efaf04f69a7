// Package ent is generated from ./schema by entc.go; never edit it by hand.
//
// After changing ./schema, from the module root:
//
//	go generate ./ent
//	source .ci/postgres && go run ./database/internal/migrationgen -name what_changed
//
// The second command writes the matching migrations for both databases; the
// database tests fail until it has run.
package ent

//go:generate go run -mod=mod entc.go
