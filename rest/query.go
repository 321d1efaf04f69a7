package rest

import (
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/google/uuid"

	"github.com/verdict/verdict/engine"
	"github.com/verdict/verdict/service"
)

// listOptions reads a list's query: limit, cursor, q, groupId and
// notInGroupId; their ranges and meaning are the service's.
func listOptions(r *http.Request) (service.ListOptions, error) {
	o, err := pageOptions(r)
	if err != nil {
		return o, err
	}
	q := r.URL.Query()
	if err := givenOnce(q, "q", "groupId", "notInGroupId"); err != nil {
		return o, err
	}
	o.Query = q.Get("q")
	if o.GroupID, err = queryID(q, "groupId"); err != nil {
		return o, err
	}
	o.NotInGroupID, err = queryID(q, "notInGroupId")
	return o, err
}

// pageOptions are the limit and cursor of any paged answer: a list's, or
// a base's history.
func pageOptions(r *http.Request) (service.ListOptions, error) {
	var o service.ListOptions
	q := r.URL.Query()
	if err := givenOnce(q, "limit", "cursor"); err != nil {
		return o, err
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return o, invalid("limit must be a whole number between 1 and %d, not %q", service.MaxPageSize, engine.Quoted(v))
		}
		// Checked here, since a limit of 0 would reach the service as
		// "not given".
		if err := service.CheckPageSize("limit", n); err != nil {
			return o, err
		}
		o.Limit = n
	}
	o.Cursor = q.Get("cursor")
	return o, nil
}

// givenOnce refuses a query that gives any of names more than once,
// rather than reading one of the values and ignoring the others.
func givenOnce(q url.Values, names ...string) error {
	for _, name := range names {
		if n := len(q[name]); n > 1 {
			return invalid("%s is given %d times; give it once", name, n)
		}
	}
	return nil
}

// queryID reads an id from the query; absent is nil.
func queryID(q url.Values, name string) (*uuid.UUID, error) {
	v := q.Get(name)
	if v == "" {
		return nil, nil
	}
	id, err := service.ParseID(name, v)
	if err != nil {
		return nil, err
	}
	return &id, nil
}

// queryTime reads an RFC 3339 time from the query; absent is nil.
func queryTime(q url.Values, name string) (*time.Time, error) {
	v := q.Get(name)
	if v == "" {
		return nil, nil
	}
	t, err := parseTime(name, v)
	if err != nil {
		return nil, err
	}
	return &t, nil
}

// parseTime reads an RFC 3339 time given as name.
func parseTime(name, s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return t, invalid("%s %q is not an RFC 3339 time such as 2027-01-31T00:00:00Z", name, engine.Quoted(s))
	}
	return t, nil
}
