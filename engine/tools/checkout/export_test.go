package checkout

// What the tests of package checkout_test read of checkout's internals.

// CheckoutData is what the model reads at each step of a checkout.
type CheckoutData = checkoutData

// ReasonUnseen is the reason of a confirmation before the summary was seen.
const ReasonUnseen = reasonUnseen

// CheckoutContact is the contact a checkout summary shows.
type CheckoutContact = checkoutContact

// PlaceConfirmed places the order of a confirmed summary.
var PlaceConfirmed = placeConfirmed

// ErrSummaryStale rolls back an order that differs from the summary.
var ErrSummaryStale = errSummaryStale
