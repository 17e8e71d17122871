// Package archive writes backup ZIP archives as a stream and reads uploaded
// ones safely: every entry is validated, within caps, before anything is applied.
package archive
