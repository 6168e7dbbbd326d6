#!/usr/bin/env bash
# Deploys (or upgrades) the platform from an overlay, migrations first:
#   1. deletes the last release's finished migration Jobs (a Job's template cannot change in place);
#   2. applies everything but the servers (namespaces, ConfigMaps, Secrets, RBAC, the migration
#      Jobs) and waits for the Jobs;
#   3. applies the rest, so the services' Deployments roll onto the migrated schemas (the console's
#      with them), and waits for them all.
# Usage: deploy/kubernetes/deploy.sh deploy/kubernetes/overlays/production
set -euo pipefail
overlay="${1:?usage: deploy.sh <overlay folder>}"
namespace=cloud-platform
manifests="$(mktemp)"
trap 'rm -f "$manifests"' EXIT

kubectl kustomize "$overlay" >"$manifests"

kubectl -n "$namespace" delete job -l app.kubernetes.io/component=migration --ignore-not-found --wait
kubectl apply -f "$manifests" -l 'app.kubernetes.io/component!=server'
kubectl -n "$namespace" wait job -l app.kubernetes.io/component=migration --for=condition=complete --timeout=15m

kubectl apply -f "$manifests"
for deployment in accounts nodes staking streams node-proxy console; do
  kubectl -n "$namespace" rollout status "deployment/$deployment" --timeout=10m
done
