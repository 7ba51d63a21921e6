//go:build race

package topic_test

const raceEnabled = true
