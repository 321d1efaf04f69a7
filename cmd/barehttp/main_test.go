package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestHandlerAnswersTheGivenBytesToAJSONBody(t *testing.T) {
	response := []byte(`{"result":true}` + "\n")
	h := handler(response)
	tests := []struct {
		name, method, body string
		status             int
		want               string
	}{
		{"a JSON object is answered with the bytes", http.MethodPost, `{"data":{"a":1}}`, http.StatusOK, string(response)},
		{"a body that is not JSON is refused", http.MethodPost, `{"data":`, http.StatusBadRequest, ""},
		{"a JSON array is refused", http.MethodPost, `[1]`, http.StatusBadRequest, ""},
		{"a GET is refused", http.MethodGet, ``, http.StatusBadRequest, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(tt.method, "/run", strings.NewReader(tt.body)))
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d", rec.Code, tt.status)
			}
			if tt.want != "" && rec.Body.String() != tt.want {
				t.Fatalf("body %q, want %q", rec.Body.String(), tt.want)
			}
		})
	}
}
