// Package jobs is the live job dashboard: running and queued executions
// polled without overlap, with trigger, stop, sequential plans, history, details and data deletion.
package jobs
