package model

// Status values of the `status` field.
const (
	StatusSuccess = "success"
	StatusFailure = "failure"
)

// Failure is the body of every failed request: `{"status":"failure","reason":"..."}`.
// Paths names the files a failure is about (restore conflicts, dependents
// that block a delete or an overwrite, dependencies outside a backup).
type Failure struct {
	Status string   `json:"status"`
	Reason string   `json:"reason"`
	Paths  []string `json:"paths,omitempty"`
}

// Success is the body `{"status":"success"}` of connection update and delete.
type Success struct {
	Status string `json:"status"`
}
