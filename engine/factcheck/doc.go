// Package factcheck reads the figures in a model's answer and words the
// note that corrects them: Mentions finds the prices and SKU-shaped
// tokens the answer states, Known and Amounts what the turn's tool
// results and the shopper's own words make verifiable, and Note the
// catalog's figures or the warning appended after the answer. The engine
// (engine/factcheck.go there) decides what is unverified, reads the
// catalog for the correct figures, counts and logs; this package reads
// no database.
package factcheck
