//go:build !race

package maintext

// raceEnabled reports whether the test binary was built with -race.
const raceEnabled = false
