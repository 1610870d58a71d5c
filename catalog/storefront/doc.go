// Package storefront is the shop's public catalog, read by machines and by
// people who arrive from them: product feeds for AI agents and search
// engines (/feeds/products.json and /feeds/products.csv in the OpenAI
// commerce product-feed format, /feeds/google.xml in the Google Merchant
// Center format) and a landing page per product (/products/{sku}) that the
// feeds' links open, with the shop's chat widget on it.
//
// A feed has one row per purchasable item: a variant, or a product without
// variants; archived products and variants are left out, and so are
// items without a photo (both formats require one). Rows are read
// from the catalog a batch of listings at a time and written as they come
// (items.go), so a catalog of any size streams in bounded memory. Each
// response carries an ETag derived from the catalog's last write
// (Version), so a crawler that revalidates gets 304 until something
// changes.
package storefront
