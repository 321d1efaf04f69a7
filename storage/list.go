package storage

import (
	"context"

	"entgo.io/ent/dialect/sql"

	"github.com/verdict/verdict/ent"
)

// listQuery is what a list needs of an ent query whose rows are E; P and O
// are the predicate and order types ent generates for that entity.
type listQuery[Q any, P, O ~func(*sql.Selector), E any] interface {
	Count(context.Context) (int, error)
	Where(...P) Q
	Order(...O) Q
	Limit(int) Q
	All(context.Context) ([]E, error)
}

// idColumn is the column ent stores every entity's id in.
const idColumn = "id"

// newestFirst reads the window w of a list ordered by id, newest first. q
// holds every restriction of the list but the window, since the number
// counts every page. The count and the rows are two queries: a write
// between them may make them disagree by that write, as a later page may.
func newestFirst[Q listQuery[Q, P, O, E], P, O ~func(*sql.Selector), E any](ctx context.Context, w Window, q Q) ([]E, *int, error) {
	var total *int
	if w.Count {
		n, err := q.Count(ctx)
		if err != nil {
			return nil, nil, err
		}
		total = &n
	}
	if w.After != nil {
		q = q.Where(sql.FieldLT(idColumn, *w.After))
	}
	rows, err := q.Order(ent.Desc(idColumn)).Limit(w.Limit).All(ctx)
	if err != nil {
		return nil, nil, err
	}
	return rows, total, nil
}
