package graph

// gqlgen finds gqlgen.yml at the module root by itself.
//go:generate go tool gqlgen generate
