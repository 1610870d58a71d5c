# Shopbot's build, test and benchmark entry points. `make test` is the test
# command of the README and of CI (.ci/run).

GO ?= go
export SHOPBOT_REQUIRE_POSTGRES ?= 1

.PHONY: test vet build run bench bench-rss bench-compare deploy-check image compose-up

test: vet deploy-check
	@bash .ci/check-postgres
	@bash .ci/weaviate-server >/dev/null
	SHOPBOT_WEAVIATE_BIN=$$(bash .ci/weaviate-server) SHOPBOT_REQUIRE_WEAVIATE=1 $(GO) test -race -count=1 -timeout 30m ./...

# staticcheck is pinned and comes from the module proxy (cached after the
# first run).
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

vet:
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

# Helm is pinned like staticcheck; deploy/kube_test.go reads this line and
# builds it from the module proxy into ~/.cache/shopbot/bin/helm-VERSION
# once (about 9 minutes cold on a loaded 2-core machine; warm: seconds).
HELM ?= helm.sh/helm/v3/cmd/helm@v3.19.0

# The deployment files: helm lint --strict and helm template, the output
# strict-decoded into the Kubernetes API types (deploy/, offline); the
# compose file, the alert rules (promtool check and test rules) and the
# metrics the dashboard and alerts name (bot/).
deploy-check:
	$(GO) test -count=1 ./deploy/
	$(GO) test -count=1 -run 'Compose|AlertRules|AlertsCover|DashboardAndAlerts' ./bot/

# The version `shopbot version`, the banner and shopbot_build_info show.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)

build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "-X main.version=$(VERSION)" -o bin/shopbot ./bot

run:
	$(GO) run ./bot

# The image and the compose stack carry the same VERSION as `make build`
# (docs/deploy.md); the Helm chart takes it as --set image.tag=$(VERSION).
IMAGE ?= shopbot
image:
	docker build --build-arg VERSION=$(VERSION) -t $(IMAGE):$(VERSION) .

compose-up:
	SHOPBOT_VERSION=$(VERSION) docker compose -f deploy/compose.yaml --env-file deploy/.env up -d --build

# Benchmarks behind the README's figures.
bench: build
	$(GO) test -run '^$$' -bench 'Startup' -benchtime 5x ./bot/
	$(GO) test -run '^$$' -bench 'Import100k' -benchtime 1x ./catalog/importer/
	@bash .ci/bench-rss bin/shopbot

# The engine benchmark and `shopbot bench` on SQLite and Postgres, the base
# commit (BASE=…, default the last release tag) against the working tree;
# fails on a regression over 15 %. Not part of `make test`.
bench-compare:
	@bash .ci/bench-compare $(BASE)
