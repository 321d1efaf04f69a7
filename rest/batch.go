package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"runtime"
	"strings"

	"github.com/google/uuid"

	"github.com/verdict/verdict/internal/bodies"
	"github.com/verdict/verdict/service"
)

// batchRequest is the body of the batch runs: the data of each run.
type batchRequest struct {
	Items []json.RawMessage `json:"items"`
}

// runPolicyBatch is POST /run/policy/{baseId}/batch.
func (s *server) runPolicyBatch(w http.ResponseWriter, r *http.Request) {
	s.runBatch(w, r, "baseId", policyRunHint, s.svc.RunPolicyBatchJSON)
}

// runPolicyVersionBatch is POST /run/policy_version/{policyId}/batch.
func (s *server) runPolicyVersionBatch(w http.ResponseWriter, r *http.Request) {
	s.runBatch(w, r, "policyId", policyRunHint, s.svc.RunPolicyVersionBatchJSON)
}

// runBatch writes the answer the service writes into a kept buffer, sent
// whole once it is complete, so that a failure is still a clean error.
// Once the answer is sent, nothing holds any part of the body: each
// item's result was written out and released, and the `executed` event
// keeps counts alone. So its buffer is left for a later body to be read
// into (bodies.Reusable). An error's message may quote the body: the
// body of a failed batch is left to the collector.
func (s *server) runBatch(w http.ResponseWriter, r *http.Request, idName, hint string,
	run func(ctx context.Context, id uuid.UUID, items service.Items, buf []byte) ([]byte, error)) {
	id, items, err := s.readBatch(r, idName, hint)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	b, err := run(r.Context(), id, items, takeBatchBuffer())
	if err != nil {
		s.writeError(w, r, err)
	} else {
		b = append(b, '\n')
		writeOK(w, b)
		bodies.Reusable(r.Body)
	}
	keepBatchBuffer(b)
}

// runFlowBatch is POST /run/flow/{baseId}/batch.
func (s *server) runFlowBatch(w http.ResponseWriter, r *http.Request) {
	s.runStoredFlowBatch(w, r, "baseId", s.svc.RunFlowBatch)
}

// runFlowVersionBatch is POST /run/flow_version/{flowId}/batch.
func (s *server) runFlowVersionBatch(w http.ResponseWriter, r *http.Request) {
	s.runStoredFlowBatch(w, r, "flowId", s.svc.RunFlowVersionBatch)
}

func (s *server) runStoredFlowBatch(w http.ResponseWriter, r *http.Request, idName string,
	run func(ctx context.Context, id uuid.UUID, items service.Items) (*service.FlowBatchResult, error)) {
	id, items, err := s.readBatch(r, idName, flowRunHint)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	res, err := run(r.Context(), id, items)
	s.reply(w, r, http.StatusOK, res, err)
}

// The hints of a batch body with another member than items: how the
// route's single run, at the path they are given, takes one input.
const (
	policyRunHint = `to run on one input, send {"data": {...}} to %s`
	flowRunHint   = `a batch takes {"items": [input, ...]}; to run on one input, send the input itself to %s`
)

// readBatch reads the id and the items of a batch run as raw JSON;
// whether each item is acceptable data, and how many a call may hold, is
// the service's to decide. The usual body's items are split off and
// checked by the service in one pass.
func (s *server) readBatch(r *http.Request, idName, hint string) (uuid.UUID, service.Items, error) {
	id, err := pathID(r, idName)
	if err != nil {
		return uuid.Nil, service.Items{}, err
	}
	body, err := s.readBody(r)
	if err != nil {
		return uuid.Nil, service.Items{}, err
	}
	if i, ok := soleMember(body, "items"); ok {
		if items, end, ok := s.svc.SplitItems(body[i:]); ok && closesBody(body, i+end) {
			return id, items, nil
		}
	}
	if items, ok := splitItems(body); ok {
		return id, service.Items{List: items}, nil
	}
	var req batchRequest
	if err := decodeObject(body, reflect.ValueOf(&req).Elem()); err != nil {
		// A body for the single run, sent to its batch.
		single := strings.TrimSuffix(r.URL.Path, "/batch")
		return uuid.Nil, service.Items{}, withHint(err, func(name string) bool { return !strings.EqualFold(name, "items") }, fmt.Sprintf(hint, single))
	}
	if req.Items == nil {
		return uuid.Nil, service.Items{}, invalid("items is required: an array of the JSON objects to run on")
	}
	return id, service.Items{List: req.Items}, nil
}

// splitItems reads the usual body, {"items": [{...}, ...]}, in one pass
// that only follows strings and nesting: each item is a slice of the body,
// and the service's decoding of each checks that it is valid JSON. It
// splits what the service's own split refused, so that a bad item is
// named as the batch's checks name it. Any
// other shape, and anything unusual (escapes in the member's name, an item
// that is not an object, a string that does not end), is left to
// decodeObject, whose checks and messages cover every body.
func splitItems(body []byte) ([]json.RawMessage, bool) {
	i, ok := soleMember(body, "items")
	if !ok || body[i] != '[' {
		return nil, false
	}
	// Most items are alike: the first one's size guesses how many follow,
	// within what a batch usually holds.
	var items []json.RawMessage
	for i = skipSpace(body, i+1); ; {
		if i == len(body) || body[i] != '{' {
			return nil, false
		}
		end, ok := objectEnd(body, i)
		if !ok {
			return nil, false
		}
		if items == nil {
			items = make([]json.RawMessage, 0, min(len(body)/(end-i+1)+1, service.DefaultMaxBatchItems))
		}
		items = append(items, body[i:end])
		if i = skipSpace(body, end); i == len(body) {
			return nil, false
		}
		if body[i] == ']' {
			break
		}
		if body[i] != ',' {
			return nil, false
		}
		i = skipSpace(body, i+1)
	}
	return items, closesBody(body, i+1)
}

// batchBuffers keeps the buffers of encoded batch answers between
// requests, as many as there are processors to run batches: a batch of a
// thousand items answers a few megabytes. It is not a sync.Pool, which
// empties at every garbage collection: a server's heap is small enough
// for a collection every batch or two, and each batch would then grow its
// answer from nothing again, doubling and copying it through memory just
// handed back by the collector, which costs more than a quarter of the
// batch. At most GOMAXPROCS buffers of at most maxPooledBatchBuffer stay
// allocated.
var batchBuffers = make(chan []byte, runtime.GOMAXPROCS(0))

// maxPooledBatchBuffer keeps the buffers of unusually large answers out of
// batchBuffers.
const maxPooledBatchBuffer = 8 << 20

// takeBatchBuffer is a kept buffer, emptied, or nil when none is free.
func takeBatchBuffer() []byte {
	select {
	case b := <-batchBuffers:
		return b[:0]
	default:
		return nil
	}
}

// keepBatchBuffer keeps b for a later batch, unless it is too large or
// enough are kept.
func keepBatchBuffer(b []byte) {
	if cap(b) > maxPooledBatchBuffer {
		return
	}
	select {
	case batchBuffers <- b:
	default:
	}
}
