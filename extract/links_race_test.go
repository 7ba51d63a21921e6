//go:build race

package extract

const linksRaceEnabled = true
