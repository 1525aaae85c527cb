// Package simkit is the kit the sandbox's simulators share: the sandbox
// clock (accelerated or frozen), deterministic randomness derived from the
// seed, smooth noise for random walks that need no stored history, hostile
// strings for the hostile-input fault, the runtime fault switches, and the
// writers of each interface's error body.
//
// Everything here is safe for concurrent use unless its doc says otherwise.
package simkit
