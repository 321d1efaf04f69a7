package graph

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"html/template"
	"io/fs"
	"net/http"
	"time"
)

// playgroundFiles are the playground's page and the GraphiQL, React and
// ReactDOM builds it runs, as their npm packages ship them (see
// scripts/playground-assets for the versions), so that it works where the
// browser reaches nothing but this server.
//
//go:embed playground/index.html playground/assets
var playgroundFiles embed.FS

var playgroundPage = template.Must(template.ParseFS(playgroundFiles, "playground/index.html"))

// Playground serves the GraphiQL page, which sends its operations to
// endpoint, and its scripts and styles. Mount it at a path P for the page
// and at P/{asset} for the files the page loads from there. The page needs
// no key; its requests do: its headers editor starts with x-api-key, taken
// from ?key= or from the browser tab's storage (verdict.apiKey, which the
// console shares), and the schema is fetched again whenever the key
// changes.
func Playground(endpoint string) http.Handler {
	assets, err := fs.Sub(playgroundFiles, "playground/assets")
	if err != nil {
		panic(err) // the embedded directory is there by construction
	}
	tags := map[string]string{}
	err = fs.WalkDir(assets, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(assets, name)
		sum := sha256.Sum256(b)
		tags[name] = `"` + hex.EncodeToString(sum[:16]) + `"`
		return err
	})
	if err != nil {
		panic(err)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The page takes a key (?key=) and fills requests with it: no other
		// site may frame it, and no request it makes tells where it came
		// from, which would carry the key to the servers' logs.
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Content-Security-Policy", "frame-ancestors 'none'")
		name := r.PathValue("asset")
		if name == "" {
			servePlaygroundPage(w, r, endpoint)
			return
		}
		tag, ok := tags[name]
		if !ok {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"error":{"code":"not_found","message":"the playground has no file of this name"}}` + "\n"))
			return
		}
		// The ETag lets a browser keep a file until the binary changes it.
		w.Header().Set("ETag", tag)
		w.Header().Set("Cache-Control", "no-cache")
		b, _ := fs.ReadFile(assets, name)
		http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(b))
	})
}

func servePlaygroundPage(w http.ResponseWriter, r *http.Request, endpoint string) {
	var page bytes.Buffer
	err := playgroundPage.Execute(&page, struct{ Endpoint, Assets string }{endpoint, r.URL.Path})
	if err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(page.Bytes())
}
