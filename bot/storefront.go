package main

import (
	"log/slog"

	"github.com/uptrace/bun"

	"shopbot/catalog/storefront"
	"shopbot/engine/locale"
)

// shopWindow is the shop's public catalog (catalog/storefront): the
// product pages and the product feeds for agents and search engines.
func shopWindow(cfg *Config, db *bun.DB, log *slog.Logger) *storefront.Server {
	return storefront.New(storefront.Options{
		DB: db, ShopName: shopNameOf(shopSettings(cfg, db)), PublicURL: cfg.PublicURL, Secure: cfg.proxies.Secure, Widget: true,
		Lang: locale.Lang, Word: locale.Word, Log: log.With("component", "storefront"),
	})
}

// feedsOf are the product feeds' routes; nil with FEEDS=off.
func feedsOf(cfg *Config, shop *storefront.Server) *feedEndpoints {
	if !cfg.feedsOn {
		return nil
	}
	return &feedEndpoints{openAIJSON: shop.OpenAIJSON(), openAICSV: shop.OpenAICSV(), googleXML: shop.GoogleXML()}
}
