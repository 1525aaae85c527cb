//go:build !race

package wiretest

// raceRatio loosens MaxRatio under the race detector (not here).
const raceRatio = 1
