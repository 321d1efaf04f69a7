package database

import (
	"errors"

	"github.com/lib/pq"
	"github.com/lib/pq/pqerror"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// IsUniqueViolation reports whether err, or an error it wraps (ent's
// ConstraintError wraps the driver's), is a unique-constraint violation on
// either database, so the service can answer 409 whichever one it runs on.
func IsUniqueViolation(err error) bool {
	if pqErr := pq.As(err, pqerror.UniqueViolation); pqErr != nil {
		return true
	}
	var liteErr *sqlite.Error
	if errors.As(err, &liteErr) {
		switch liteErr.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return true
		}
	}
	return false
}

// IsForeignKeyViolation reports whether err, or an error it wraps, is a
// row that refers to one no longer there, on either database: a row
// written beside the deletion of the row it refers to.
func IsForeignKeyViolation(err error) bool {
	if pqErr := pq.As(err, pqerror.ForeignKeyViolation); pqErr != nil {
		return true
	}
	var liteErr *sqlite.Error
	return errors.As(err, &liteErr) && liteErr.Code() == sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY
}
