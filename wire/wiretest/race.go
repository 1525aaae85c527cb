//go:build race

package wiretest

// raceRatio loosens MaxRatio under the race detector.
const raceRatio = 3
