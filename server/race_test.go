//go:build race

package server

// raceDetector is whether the tests run under -race, which multiplies the
// time of the heap-measuring tests tenfold; .ci/run runs those without it.
const raceDetector = true
