package reviews

import "shopbot/engine/toolkit"

// Deps are what the review tools read, asked for at each call (the
// engine's tools.Deps passes its stores: a test may swap one after the
// tools are built).
type Deps struct {
	Products func() toolkit.Products
	// Passages searches review texts; nil when none can be searched.
	Passages func() toolkit.PassageSearcher
}
