//go:build !race

package topic_test

const raceEnabled = false
