// Package deploy holds no code: its tests check the deployment files of
// this folder. kube_test.go renders the Helm chart (helm/shopbot) with the
// pinned helm of the Makefile, lints it, and strict-decodes every rendered
// manifest into the Kubernetes API types (offline: no schema download),
// then checks what the chart promises (probes, non-root read-only pods,
// graceful termination longer than the drain, settings shopbot reads).
// The compose file and the alert rules are checked in bot/ (deploy_test.go,
// deploy_metrics_test.go), beside the settings list they are held to.
package deploy
