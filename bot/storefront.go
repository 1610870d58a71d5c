package main

import (
	"log/slog"

	"github.com/uptrace/bun"

	"shopbot/catalog/storefront"
	"shopbot/engine/locale"
)

// shopWindow is the shop's public catalog (catalog/storefront): the
// product pages, always, and the product feeds for agents and search
// engines unless FEEDS=off (feedsOn).
func shopWindow(cfg *Config, db *bun.DB, log *slog.Logger) *storefront.Server {
	return storefront.New(storefront.Options{
		DB: db, ShopName: shopNameOf(shopSettings(cfg, db)), PublicURL: cfg.PublicURL, Widget: true,
		Lang: locale.Lang, Word: locale.Word, Log: log.With("component", "storefront"),
	})
}
