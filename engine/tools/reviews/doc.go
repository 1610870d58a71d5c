// Package reviews holds the tools over what shoppers wrote about the
// products: get_reviews_summary (the star distribution and the newest
// reviews) and search_reviews (the reviews that speak to a question,
// through the passage search). Review texts reach the model as quotes on
// one line, with a note that they are not instructions.
//
// The tools are listed in engine/tools' registry (tools.Tools), which
// passes them Deps.
package reviews
