package console

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"
)

func serve(t *testing.T, method, target string, header http.Header) *http.Response {
	t.Helper()
	r := httptest.NewRequest(method, target, nil)
	for k, v := range header {
		r.Header[k] = v
	}
	w := httptest.NewRecorder()
	Handler().ServeHTTP(w, r)
	return w.Result()
}

func body(t *testing.T, res *http.Response) []byte {
	t.Helper()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// entryScript is the path of the script index.html loads.
func entryScript(t *testing.T) string {
	t.Helper()
	index := body(t, serve(t, http.MethodGet, Prefix, nil))
	m := regexp.MustCompile(`src="(/console/assets/[^"]+\.js)"`).FindSubmatch(index)
	if m == nil {
		t.Fatalf("index.html loads no script:\n%s", index)
	}
	return string(m[1])
}

func TestIndexAndClientRoutesAnswerTheApplication(t *testing.T) {
	index := body(t, serve(t, http.MethodGet, Prefix, nil))
	for _, target := range []string{Prefix, Prefix + "policies", Prefix + "policies/0193/compare?left=a&right=b", Prefix + "index.html"} {
		res := serve(t, http.MethodGet, target, nil)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d", target, res.StatusCode)
		}
		if got := res.Header.Get("Content-Type"); got != "text/html; charset=utf-8" {
			t.Errorf("%s: Content-Type %q", target, got)
		}
		if got := res.Header.Get("Cache-Control"); got != "no-cache" {
			t.Errorf("%s: Cache-Control %q", target, got)
		}
		if csp := res.Header.Get("Content-Security-Policy"); !regexp.MustCompile(`default-src 'none'; script-src 'self';`).MatchString(csp) {
			t.Errorf("%s: Content-Security-Policy %q", target, csp)
		}
		if b := body(t, res); !bytes.Equal(b, index) {
			t.Errorf("%s: answered something other than index.html", target)
		}
	}
}

func TestHashedAssetsAreCachedForGoodAndCompressed(t *testing.T) {
	script := entryScript(t)
	plain := serve(t, http.MethodGet, script, nil)
	if plain.StatusCode != http.StatusOK || plain.Header.Get("Content-Type") != "text/javascript; charset=utf-8" {
		t.Fatalf("status %d, Content-Type %q", plain.StatusCode, plain.Header.Get("Content-Type"))
	}
	if got := plain.Header.Get("Cache-Control"); got != "public, max-age=31536000, immutable" {
		t.Errorf("Cache-Control %q", got)
	}
	if plain.Header.Get("Content-Encoding") != "" {
		t.Errorf("compressed for a client that did not ask")
	}
	want := body(t, plain)

	zipped := serve(t, http.MethodGet, script, http.Header{"Accept-Encoding": {"br, gzip;q=0.8"}})
	if zipped.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("Content-Encoding %q", zipped.Header.Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(bytes.NewReader(body(t, zipped)))
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the gzip body does not decode to the file")
	}

	refused := serve(t, http.MethodGet, script, http.Header{"Accept-Encoding": {"gzip;q=0"}})
	if refused.Header.Get("Content-Encoding") != "" {
		t.Errorf("gzip sent to a client that refused it")
	}
}

func TestMissingAssetsAndOtherMethodsAreRefused(t *testing.T) {
	if res := serve(t, http.MethodGet, Prefix+"assets/nothing-here.js", nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("missing asset: status %d, want 404", res.StatusCode)
	}
	res := serve(t, http.MethodPost, Prefix, nil)
	if res.StatusCode != http.StatusMethodNotAllowed || res.Header.Get("Allow") != "GET, HEAD" {
		t.Errorf("POST: status %d, Allow %q", res.StatusCode, res.Header.Get("Allow"))
	}
	head := serve(t, http.MethodHead, entryScript(t), nil)
	if head.StatusCode != http.StatusOK || len(body(t, head)) != 0 || head.Header.Get("Content-Length") == "" {
		t.Errorf("HEAD: status %d, Content-Length %q", head.StatusCode, head.Header.Get("Content-Length"))
	}
	redirect := serve(t, http.MethodGet, "/console", nil)
	if redirect.StatusCode != http.StatusMovedPermanently || redirect.Header.Get("Location") != Prefix {
		t.Errorf("/console: status %d, Location %q", redirect.StatusCode, redirect.Header.Get("Location"))
	}
}
