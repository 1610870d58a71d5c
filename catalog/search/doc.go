// Package search owns product search: the Query and Results types every
// backend speaks, and the backends. Database is the always-available
// backend: a keyword query over the catalog tables (every word must match
// the title, brand, description or category path), with the filters applied
// in SQL so a result never violates a stated price, category or stock limit.
// It serves as the fallback when a richer backend is unreachable.
package search
