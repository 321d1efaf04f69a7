// Package console serves the web console: the single-page application built
// from this directory's sources into dist/ (npm run build) and embedded in
// the binary, so a server needs no Node.js and no other host to serve it.
package console

import (
	"bytes"
	"compress/gzip"
	"embed"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
)

//go:embed all:dist
var dist embed.FS

// Prefix is where the console is mounted; every client-side route lives
// below it.
const Prefix = "/console/"

// assetsDir holds the files whose names carry a hash of their content: they
// never change under one name, so browsers may keep them for good.
const assetsDir = "assets/"

// contentSecurityPolicy lets the page load nothing from another host and
// talk to no server but its own. Styles may be inline because the editor
// sets element styles itself.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Handler serves the embedded console below Prefix. A path that names no
// file and is not under assets/ answers index.html, so that the
// application's own routes survive a reload.
func Handler() http.Handler {
	return &handler{files: files()}
}

func files() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // dist is embedded: a missing directory fails the build, not this
	}
	return sub
}

type handler struct {
	files fs.FS
	// compressed holds the gzip encoding of each file, made on first request.
	compressed sync.Map // name -> []byte
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name, ok := h.file(w, r)
	if !ok {
		return
	}
	body, err := fs.ReadFile(h.files, name)
	if err != nil {
		if strings.HasPrefix(name, assetsDir) {
			http.NotFound(w, r)
			return
		}
		name = "index.html"
		if body, err = fs.ReadFile(h.files, name); err != nil {
			http.Error(w, "the console was not built into this binary", http.StatusNotFound)
			return
		}
	}
	hdr := w.Header()
	hdr.Set("Content-Type", contentType(name))
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Content-Security-Policy", contentSecurityPolicy)
	hdr.Set("Referrer-Policy", "no-referrer")
	if strings.HasPrefix(name, assetsDir) {
		hdr.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		// index.html names the current assets: always ask whether it changed.
		hdr.Set("Cache-Control", "no-cache")
	}
	hdr.Add("Vary", "Accept-Encoding")
	if compressible(name) && acceptsGzip(r) {
		body = h.gzipped(name, body)
		hdr.Set("Content-Encoding", "gzip")
	}
	hdr.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodGet {
		w.Write(body)
	}
}

// file names the file a request asks for; false when it was answered
// already (a redirect or a path outside the console).
func (h *handler) file(w http.ResponseWriter, r *http.Request) (string, bool) {
	if r.URL.Path == strings.TrimSuffix(Prefix, "/") {
		http.Redirect(w, r, Prefix, http.StatusMovedPermanently)
		return "", false
	}
	rel, ok := strings.CutPrefix(r.URL.Path, Prefix)
	if !ok {
		http.NotFound(w, r)
		return "", false
	}
	if name := path.Clean("/" + rel)[1:]; name != "" {
		return name, true
	}
	return "index.html", true
}

func (h *handler) gzipped(name string, body []byte) []byte {
	if z, ok := h.compressed.Load(name); ok {
		return z.([]byte)
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression) // a valid level never fails
	zw.Write(body)
	zw.Close()
	z, _ := h.compressed.LoadOrStore(name, buf.Bytes())
	return z.([]byte)
}

// contentType names the type of the files Vite writes; mime's table depends
// on the host's configuration for some of them.
func contentType(name string) string {
	switch path.Ext(name) {
	case ".html":
		return "text/html; charset=utf-8"
	case ".js", ".mjs":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".json", ".map":
		return "application/json"
	case ".svg":
		return "image/svg+xml"
	case ".woff2":
		return "font/woff2"
	}
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return "application/octet-stream"
}

func compressible(name string) bool {
	switch path.Ext(name) {
	case ".html", ".js", ".mjs", ".css", ".json", ".map", ".svg":
		return true
	}
	return false
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(coding), "gzip") && strings.ReplaceAll(params, " ", "") != "q=0" {
			return true
		}
	}
	return false
}
