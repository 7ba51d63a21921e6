//go:build !race

package soak_test

// raceEnabled reports whether the test binary was built with -race.
const raceEnabled = false
