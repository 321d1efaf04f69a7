package graph

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/verdict/verdict/engine"
)

// checkedTransport is a transport of gqlgen whose operations have their
// variables checked by strictVariables, and whose refusals of variables
// and of an operation name gqlgen cannot find are worded by this package.
type checkedTransport struct {
	graphql.Transport
	schema *ast.Schema
}

func (t checkedTransport) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	t.Transport.Do(w, r, checkedExecutor{GraphExecutor: exec, schema: t.schema})
}

type checkedExecutor struct {
	graphql.GraphExecutor
	schema *ast.Schema
}

func (e checkedExecutor) CreateOperationContext(ctx context.Context, params *graphql.RawParams) (*graphql.OperationContext, gqlerror.List) {
	ctx = context.WithValue(ctx, rawVariablesKey{}, params.Variables)
	op, errs := e.GraphExecutor.CreateOperationContext(ctx, params)
	switch {
	case len(errs) != 1 || op == nil || op.Doc == nil:
	case op.Operation == nil:
		// The document parsed and validated, and holds no operation of
		// the name: gqlgen says "operation  not found" when no name was
		// sent.
		errs = gqlerror.List{unknownOperation(op.Doc, params.OperationName)}
	case len(errs[0].Path) > 0 && errs[0].Path[0] == ast.PathName("variable"):
		// gqlgen refused a variable: say why in the words of the
		// check, which is stricter than gqlgen's coercion.
		if err := checkVariables(e.schema, op.Operation, params.Variables); err != nil {
			errs = gqlerror.List{err}
		}
	}
	return op, errs
}

// maxNamesListed is how many of a document's operations a refusal names.
const maxNamesListed = 10

// unknownOperation refuses an operation name the document does not hold,
// or none when it holds several operations.
func unknownOperation(doc *ast.QueryDocument, name string) *gqlerror.Error {
	names := make([]string, 0, maxNamesListed)
	for _, op := range doc.Operations[:min(len(doc.Operations), maxNamesListed)] {
		names = append(names, engine.Quoted(op.Name))
	}
	listed := strings.Join(names, ", ")
	if more := len(doc.Operations) - len(names); more > 0 {
		listed += fmt.Sprintf(" and %d more", more)
	}
	switch {
	case name == "":
		return refusal(nil, "the document has %d operations (%s); choose one with operationName", len(doc.Operations), listed)
	case len(doc.Operations) == 1 && doc.Operations[0].Name == "":
		return refusal(nil, "the document has no operation named %q: its one operation has no name; send no operationName",
			engine.Quoted(name))
	case len(doc.Operations) == 1:
		return refusal(nil, "the document has no operation named %q; its one operation is %s", engine.Quoted(name), listed)
	}
	return refusal(nil, "the document has no operation named %q; its operations are %s", engine.Quoted(name), listed)
}
