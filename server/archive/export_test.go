package archive

// DeflateFixed lets the external tests reach deflateFixed.
var DeflateFixed = deflateFixed

