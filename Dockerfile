# syntax=docker/dockerfile:1
# Shopbot: one static binary on a distroless base, running as non-root.

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# docker build --build-arg VERSION=$(git describe --tags --always --dirty) .
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w -X main.version=${VERSION}" -o /out/shopbot ./bot \
 && mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/shopbot /usr/local/bin/shopbot
COPY --from=build --chown=nonroot:nonroot /out/data /data
USER nonroot:nonroot
ENV DATABASE_URL=sqlite:/data/shopbot.db \
    HTTP_ADDR=0.0.0.0:8080
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["/usr/local/bin/shopbot", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/shopbot"]
CMD ["serve"]
