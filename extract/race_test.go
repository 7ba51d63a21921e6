//go:build race

package extract

// raceEnabled reports whether the test binary was built with -race.
const raceEnabled = true
