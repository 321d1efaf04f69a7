package graph_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// loadSchema parses the schema files of the package, as gqlgen does.
func loadSchema(t *testing.T) *ast.Schema {
	t.Helper()
	files, err := filepath.Glob("*.graphqls")
	if err != nil || len(files) == 0 {
		t.Fatalf("no schema files (%v)", err)
	}
	var sources []*ast.Source
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		sources = append(sources, &ast.Source{Name: name, Input: string(b)})
	}
	schema, gerr := gqlparser.LoadSchema(sources...)
	if gerr != nil {
		t.Fatal(gerr)
	}
	return schema
}

// Clients see the schema through introspection only, so every part of it
// explains itself.
func TestEverythingInTheSchemaHasADescription(t *testing.T) {
	schema := loadSchema(t)
	var missing []string
	need := func(desc, what string) {
		if strings.TrimSpace(desc) == "" {
			missing = append(missing, what)
		}
	}
	for name, def := range schema.Types {
		if def.BuiltIn {
			continue
		}
		need(def.Description, name)
		for _, f := range def.Fields {
			// The introspection fields the parser adds to Query.
			if strings.HasPrefix(f.Name, "__") {
				continue
			}
			need(f.Description, name+"."+f.Name)
			for _, a := range f.Arguments {
				need(a.Description, name+"."+f.Name+"("+a.Name+")")
			}
		}
		for _, v := range def.EnumValues {
			need(v.Description, name+"."+v.Name)
		}
	}
	for name, d := range schema.Directives {
		if d.Position != nil && d.Position.Src != nil && d.Position.Src.BuiltIn {
			continue
		}
		need(d.Description, "@"+name)
		for _, a := range d.Arguments {
			need(a.Description, "@"+name+"("+a.Name+")")
		}
	}
	if len(missing) > 0 {
		t.Errorf("no description: %s", strings.Join(missing, ", "))
	}
}

// A replay needs what publishing needs, as the service decides it
// (decisions_test.go: a publisher replays, an auditor may not); the
// schema says so to clients.
func TestTheReplaysSayWhoMayReplay(t *testing.T) {
	mutation := loadSchema(t).Types["Mutation"]
	const want = "Needs permission to publish the policy (PUBLISHER and above)"
	if d := mutation.Fields.ForName("replayPolicy").Description; !strings.Contains(d, want) || strings.Contains(d, "to run the policy and to read decisions") {
		t.Errorf("replayPolicy says %q; want it to say %q", d, want)
	}
	if d := mutation.Fields.ForName("replayFlow").Description; !strings.HasPrefix(d, "The same for a flow record") {
		t.Errorf("replayFlow says %q; want it to refer to replayPolicy's", d)
	}
}

// A document's mutations commit one by one; a non-null one that failed
// would null the whole data, hiding what the others before it wrote
// (mutation_test.go).
func TestEveryMutationMayBeNull(t *testing.T) {
	var nonNull []string
	for _, f := range loadSchema(t).Types["Mutation"].Fields {
		if f.Type.NonNull {
			nonNull = append(nonNull, f.Name+": "+f.Type.String())
		}
	}
	if len(nonNull) > 0 {
		t.Errorf("non-null mutations: %s", strings.Join(nonNull, ", "))
	}
}
