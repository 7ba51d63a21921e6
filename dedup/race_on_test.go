//go:build race

package dedup

// raceEnabled is true when the tests run under the race detector, which
// slows them about tenfold; the heaviest tests then use smaller inputs.
const raceEnabled = true
