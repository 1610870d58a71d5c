// Package personal finds the contact details shoppers type — phone
// numbers, e-mail addresses and street addresses — so that they are kept
// where they belong (an order's contact) and nowhere else: the offline
// planner does not search the catalog for them, the dashboard's search
// statistics leave them out, and logs show them masked.
//
// It is text matching, tuned to miss little: a product query that looks
// like an address ("12 Oak Lane candle") is rare, while a leaked phone
// number is a real cost. Find returns the spans; Contains and Mask are
// the two questions callers ask of them.
package personal
