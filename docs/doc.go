// Package docs holds Verdict's documentation for the people who use it, as
// Markdown files beside this one. Its tests run every rule example of every
// document against the result the document states, so the documents cannot
// drift from the engine; README.md here describes the format. The package
// also reads the documents' shell examples (Steps), which the command's
// tests run against a live server.
package docs
