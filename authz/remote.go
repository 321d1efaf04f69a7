package authz

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// decisionPath is the policy's decision in OPA's data API.
const decisionPath = "/v1/data/verdict/authz/decision"

// strictQuery makes a failing builtin an error (HTTP 500) rather than an
// undefined expression, as in the embedded evaluator.
const strictQuery = "strict-builtin-errors"

// maxResponseBytes bounds what is read from the server: a decision is a few
// dozen bytes, and a misbehaving server must not cost memory.
const maxResponseBytes = 64 << 10

// Remote asks an OPA server that serves authz.rego. It is safe for
// concurrent use.
type Remote struct {
	endpoint string
	// shown is the endpoint as errors show it: without its user part and
	// query, which may hold a password or a proxy's token.
	shown   string
	client  *http.Client
	timeout time.Duration
}

var _ Authorizer = (*Remote)(nil)

// NewRemote returns an authorizer for the OPA server at baseURL (for example
// "http://127.0.0.1:8181").
func NewRemote(baseURL string, opts ...Option) (*Remote, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(baseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		// The URL may hold a password: the caller names it as it may be shown.
		return nil, errors.New("authz: the OPA URL is not an absolute http(s) URL")
	}
	// Joined as a URL, so that a path prefix or a query the operator's
	// proxy needs stays where it belongs.
	endpoint := u.JoinPath(decisionPath)
	endpoint.Fragment = ""
	endpoint.RawQuery = strings.TrimPrefix(endpoint.RawQuery+"&"+strictQuery, "&")
	shown := *endpoint
	shown.User, shown.RawQuery = nil, ""
	return &Remote{
		endpoint: endpoint.String(),
		shown:    shown.String(),
		// The per-decision context carries the deadline; the client adds none.
		client:  &http.Client{},
		timeout: c.timeout,
	}, nil
}

// Decide posts the input to the OPA server and reads its decision.
func (rm *Remote) Decide(ctx context.Context, p Principal, a Action, r Resource) (Decision, error) {
	body, err := json.Marshal(map[string]any{"input": inputDocument(p, a, r)})
	if err != nil {
		return Decision{}, unavailable(err)
	}
	ctx, cancel := context.WithTimeout(ctx, rm.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, rm.endpoint, bytes.NewReader(body))
	if err != nil {
		return Decision{}, unavailable(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := rm.client.Do(req)
	if err != nil {
		// The error quotes the URL, which the log would keep.
		if ue, ok := errors.AsType[*url.Error](err); ok {
			ue.URL = rm.shown
		}
		return Decision{}, unavailable(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return Decision{}, fmt.Errorf("%w: OPA answered %s", ErrUnavailable, resp.Status)
	}
	var answer struct {
		Result any `json:"result"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxResponseBytes)).Decode(&answer); err != nil {
		return Decision{}, unavailable(fmt.Errorf("read OPA answer: %w", err))
	}
	// OPA leaves "result" out when the decision is undefined.
	return decisionFrom(answer.Result)
}
