package catalog

// SaveTurnsSQL is the group save's statement, for the test of its plan.
const SaveTurnsSQL = saveTurnsSQL
