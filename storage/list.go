package storage

import (
	"context"
	"strings"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/verdict/verdict/database"
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

// containsFold is the predicate of a list's search: the column field
// contains q, in any case. ent's own folds q in Go and the column in the
// database, whose folds can differ: SQLite's LOWER folds ASCII letters
// alone, and so does PostgreSQL's ILIKE in a database of LC_CTYPE C, so a
// name holding "Ü" was not found by its own name. On SQLite it folds with
// database.SQLiteLower, as Go folds q; on PostgreSQL ILIKE compares q as
// sent, folding both sides alike.
func containsFold(field, q string) func(*sql.Selector) {
	return func(s *sql.Selector) {
		if s.Dialect() != dialect.SQLite {
			s.Where(sql.P(func(b *sql.Builder) {
				b.Ident(s.C(field)).WriteString(" ILIKE ")
				b.Arg("%" + likeEscaper.Replace(q) + "%")
				b.WriteString(" ESCAPE ").Arg(`\`)
			}))
			return
		}
		s.Where(sql.P(func(b *sql.Builder) {
			b.WriteString(database.SQLiteLower + "(").Ident(s.C(field)).WriteString(") LIKE ")
			b.Arg("%" + likeEscaper.Replace(strings.ToLower(q)) + "%")
			b.WriteString(" ESCAPE ").Arg(`\`)
		}))
	}
}

// likeEscaper escapes what LIKE reads as wildcards, and its escape.
var likeEscaper = strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`)
