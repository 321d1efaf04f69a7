//go:build ignore

// Command entc generates the ent client from ./schema. Run it with
// `go generate ./ent` from the module root.
package main

import (
	"log"

	"entgo.io/ent/entc"
	"entgo.io/ent/entc/gen"
)

func main() {
	err := entc.Generate("./schema", &gen.Config{
		Features: []gen.Feature{
			gen.FeatureUpsert,
			gen.FeatureLock,
			gen.FeatureExecQuery,
			gen.FeatureIntercept,
		},
	})
	if err != nil {
		log.Fatalf("generating ent: %v", err)
	}
}
