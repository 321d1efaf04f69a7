package graph

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
)

func TestTheQueryCacheHoldsLargeDocumentsWithinItsBytes(t *testing.T) {
	c := newQueryCache()
	ctx := context.Background()
	// A thousand documents of 100 KiB would count some 800 MiB.
	padding := strings.Repeat(" ", 100<<10)
	for i := range queryCacheSize {
		c.Add(ctx, fmt.Sprintf("{ viewer { role } }%s# %d", padding, i), &ast.QueryDocument{})
	}
	if c.Bytes() > queryCacheBytes || c.Len() != 40 {
		t.Errorf("%d documents of %d bytes kept; want 40, within %d", c.Len(), c.Bytes(), queryCacheBytes)
	}
	// Small documents fill it up to its count.
	for i := range queryCacheSize {
		c.Add(ctx, fmt.Sprintf("{ viewer { role } } # %d", i), &ast.QueryDocument{})
	}
	if _, ok := c.Get(ctx, "{ viewer { role } } # 0"); !ok || c.Len() != queryCacheSize {
		t.Errorf("%d small documents kept, want %d", c.Len(), queryCacheSize)
	}
}
