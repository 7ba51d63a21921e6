//go:build !race

package extract

const linksRaceEnabled = false
