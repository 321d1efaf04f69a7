package authz

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/rego"
)

// opaServer answers like OPA's data API for the decision, evaluating the
// policy file with a query of its own, so Remote is checked against the real
// rules without an OPA binary.
func opaServer(t *testing.T) *httptest.Server {
	t.Helper()
	query, err := rego.New(rego.Query(decisionQuery), rego.Module("authz.rego", policySource)).
		PrepareForEval(context.Background())
	if err != nil {
		t.Fatalf("prepare: %v", err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/data/verdict/authz/decision" || !r.URL.Query().Has("strict-builtin-errors") ||
			r.Header.Get("Content-Type") != "application/json" {
			http.Error(w, `{"code":"invalid_parameter"}`, http.StatusBadRequest)
			return
		}
		var body struct {
			Input map[string]any `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body.Input == nil {
			http.Error(w, `{"code":"invalid_parameter"}`, http.StatusBadRequest)
			return
		}
		rs, err := query.Eval(r.Context(), rego.EvalInput(body.Input))
		if err != nil {
			http.Error(w, `{"code":"internal_error"}`, http.StatusInternalServerError)
			return
		}
		answer := map[string]any{}
		if len(rs) == 1 {
			answer["result"] = rs[0].Expressions[0].Value
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(answer)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// newTestRemote asks the OPA server at url, allowing each decision
// decisionTimeout unless opts set another: the production 250 ms fail
// closed on a loaded machine, and would make a test fail by timing.
func newTestRemote(t *testing.T, url string, opts ...Option) *Remote {
	t.Helper()
	rm, err := NewRemote(url, append([]Option{WithTimeout(decisionTimeout)}, opts...)...)
	if err != nil {
		t.Fatalf("NewRemote: %v", err)
	}
	return rm
}

func TestRemoteDecidesEveryInputAsTheEmbeddedPolicyDoes(t *testing.T) {
	rm := newTestRemote(t, opaServer(t).URL+"/")
	e := newTestEmbedded(t)
	allowed := 0
	forEveryInput(func(p Principal, a Action, r Resource) {
		got, want := mustDecide(t, rm, p, a, r), mustDecide(t, e, p, a, r)
		if got != want {
			t.Errorf("%+v %s %+v: remote %+v, embedded %+v", p, a, r, got, want)
		}
		if got.Allow {
			allowed++
		}
	})
	if allowed == 0 {
		t.Error("no input was allowed, so the comparison proves little")
	}
}

func TestRemoteFailsClosed(t *testing.T) {
	answering := func(status int, body string) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(status)
			w.Write([]byte(body))
		}))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	closedPort := func() string {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		l.Close()
		return "http://" + addr
	}
	servers := []struct {
		name string
		url  string
	}{
		{"a closed port", closedPort()},
		{"a server answering 500", answering(http.StatusInternalServerError, `{"code":"internal_error"}`)},
		{"a server answering 404", answering(http.StatusNotFound, `{"code":"resource_not_found"}`)},
		{"a malformed body", answering(http.StatusOK, `{"result": {"allow": tr`)},
		{"a body that is not JSON", answering(http.StatusOK, `allow`)},
		{"an undefined decision", answering(http.StatusOK, `{}`)},
		{"a null decision", answering(http.StatusOK, `{"result": null}`)},
		{"an allow that is not a boolean", answering(http.StatusOK, `{"result": {"allow": "true", "reason": "allowed"}}`)},
		{"a decision without a reason", answering(http.StatusOK, `{"result": {"allow": true}}`)},
	}
	for _, s := range servers {
		t.Run(s.name+" is unavailable", func(t *testing.T) {
			d, err := newTestRemote(t, s.url).Decide(context.Background(), userKey(RoleAdmin, ScopeAdmin), ActionView, publishedPolicy)
			if !errors.Is(err, ErrUnavailable) {
				t.Fatalf("err = %v, want ErrUnavailable", err)
			}
			if d.Allow {
				t.Errorf("decision allows on error: %+v", d)
			}
		})
	}
}

func TestRemoteServerSlowerThanTheDeadlineIsUnavailable(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Answers an allow, but only after the test has its answer.
		<-release
		w.Write([]byte(`{"result": {"allow": true, "reason": "allowed"}}`))
	}))
	defer srv.Close()
	defer close(release)
	rm := newTestRemote(t, srv.URL, WithTimeout(20*time.Millisecond))
	d, err := rm.Decide(context.Background(), userKey(RoleAdmin, ScopeAdmin), ActionView, publishedPolicy)
	if !errors.Is(err, ErrUnavailable) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want ErrUnavailable wrapping context.DeadlineExceeded", err)
	}
	if d.Allow {
		t.Errorf("decision allows on timeout: %+v", d)
	}
}

// A query the URL carries, for a proxy in front of OPA, stays a query.
func TestRemoteKeepsTheQueryOfItsURL(t *testing.T) {
	var query string
	srv := opaServer(t)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		query = r.URL.RawQuery
		srv.Config.Handler.ServeHTTP(w, r)
	}))
	t.Cleanup(proxy.Close)
	rm := newTestRemote(t, proxy.URL+"/?via=proxy")
	d, err := rm.Decide(context.Background(), userKey(RoleAdmin, ScopeAdmin), ActionView, publishedPolicy)
	if err != nil || !d.Allow {
		t.Errorf("decision %+v, %v; want allowed", d, err)
	}
	if query != "via=proxy&strict-builtin-errors" {
		t.Errorf("OPA was asked with the query %q", query)
	}
}

// A failure to reach OPA names its URL without the user part or query.
func TestRemoteFailureHidesTheSecretsOfItsURL(t *testing.T) {
	rm := newTestRemote(t, "http://ann:s3cret@127.0.0.1:1/opa?token=T0K3N")
	_, err := rm.Decide(context.Background(), userKey(RoleAdmin, ScopeAdmin), ActionView, publishedPolicy)
	if !errors.Is(err, ErrUnavailable) || strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), "T0K3N") ||
		!strings.Contains(err.Error(), `"http://127.0.0.1:1/opa/v1/data/verdict/authz/decision"`) {
		t.Errorf("error %v", err)
	}
}

func TestRemoteRejectsAURLThatIsNotAbsoluteHTTP(t *testing.T) {
	for _, url := range []string{"", "127.0.0.1:8181", "/v1/data", "ftp://opa:8181", "http://", "http://bad host"} {
		if _, err := NewRemote(url); err == nil {
			t.Errorf("NewRemote(%q) accepted it", url)
		}
	}
}
