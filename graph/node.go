package graph

import (
	"context"

	"github.com/google/uuid"

	"github.com/verdict/verdict/graph/model"
	"github.com/verdict/verdict/service"
)

// nodeLookup looks an id up as one kind of Node, through the service and
// so with the caller's tenant and permissions. found is false when the
// caller has no object of that kind with the id.
type nodeLookup func(ctx context.Context, svc *service.Service, id uuid.UUID) (n model.Node, found bool, err error)

// nodeLookups are tried in turn: ids never collide across kinds, so the
// first that finds the id is the only one that could.
var nodeLookups = []nodeLookup{
	baseLookup((*service.Service).Policy, func(p *service.Policy) uuid.UUID { return p.ID },
		(*service.Service).PolicySummary, func(s *service.Summary) model.Node { return (*model.PolicySummary)(s) }),
	baseLookup((*service.Service).Flow, func(f *service.Flow) uuid.UUID { return f.ID },
		(*service.Service).FlowSummary, func(s *service.Summary) model.Node { return (*model.FlowSummary)(s) }),
	byID((*service.Service).Group),
	byID((*service.Service).GroupMember),
	byID((*service.Service).Organization),
	byID((*service.Service).User),
	byID((*service.Service).Member),
	byID((*service.Service).Key),
	byID((*service.Service).AuditEvent),
	byID(func(s *service.Service, ctx context.Context, id uuid.UUID) (*service.Decision, error) {
		d, err := s.Decision(ctx, id)
		if err != nil {
			return nil, err
		}
		return &d.Decision, nil
	}),
}

// findNode looks id up as every kind of Node. An id that no kind finds is
// nil without an error, whether it is unknown, another tenant's or of a
// kind the caller may not read: the service answers the first two alike,
// and refuses the third whatever the id, so that refusal says nothing of
// this id and, as an error, would come back for every unknown id too.
func findNode(ctx context.Context, svc *service.Service, id uuid.UUID) (model.Node, error) {
	for _, lookup := range nodeLookups {
		n, found, err := lookup(ctx, svc, id)
		if err != nil || found {
			return n, err
		}
	}
	return nil, nil
}

// notFound reads the service's not_found as "not of this kind", and its
// permission_denied too: the caller may read no object of the kind, so
// none is theirs to find. Any other error, such as the authorizer
// failing, fails the lookup.
func notFound(err error) (model.Node, bool, error) {
	switch service.CodeOf(err) {
	case service.CodeNotFound, service.CodePermissionDenied:
		return nil, false, nil
	}
	return nil, false, err
}

// baseLookup makes a lookup of one kind of base (policies or flows): find
// loads a record by a record id or a base's current record by a base id,
// and tells which it was given, since a base id is not its current
// record's id; a base id is then the base as its summary.
func baseLookup[R any](
	find func(*service.Service, context.Context, uuid.UUID) (*R, error),
	recordID func(*R) uuid.UUID,
	summary func(*service.Service, context.Context, uuid.UUID) (*service.Summary, error),
	node func(*service.Summary) model.Node,
) nodeLookup {
	return func(ctx context.Context, svc *service.Service, id uuid.UUID) (model.Node, bool, error) {
		r, err := find(svc, ctx, id)
		switch {
		case err != nil:
			return notFound(err)
		case recordID(r) == id:
			return r, true, nil
		}
		s, err := summary(svc, ctx, id)
		if err != nil {
			return nil, false, err
		}
		return node(s), true, nil
	}
}

// byID makes a lookup of a service method that finds an object of one
// kind by its id, and nothing else.
func byID[T any](find func(*service.Service, context.Context, uuid.UUID) (*T, error)) nodeLookup {
	return func(ctx context.Context, svc *service.Service, id uuid.UUID) (model.Node, bool, error) {
		n, err := find(svc, ctx, id)
		if err != nil {
			return notFound(err)
		}
		return n, true, nil
	}
}
