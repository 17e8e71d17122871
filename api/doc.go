// Package api is the typed HTTP client of the platform's REST interface: one
// method per endpoint, errors as values, refs encoded as the spec says.
package api
