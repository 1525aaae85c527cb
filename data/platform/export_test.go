package platform

// FullEvery is fullEvery, for the tests of the payments feed.
const FullEvery = fullEvery
