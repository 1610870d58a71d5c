package engine

// Tools returns every shopping tool, in the order the model sees them.
func Tools(d *Deps) []Tool {
	return []Tool{
		searchProductsTool(d),
	}
}
