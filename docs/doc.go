// Package docs holds Verdict's documentation for the people who use it, as
// Markdown files beside this one. It has no code: its test runs every rule
// example of every document against the result the document states, so the
// documents cannot drift from the engine. README.md here describes the
// example format.
package docs
