// Package model holds the wire types of every resource of the platform's REST
// interface, with JSON names exactly as the spec writes them; client and server share it.
package model
