#!/usr/bin/env bash
# Builds the Docker image and measures what the README reports: the image size (uncompressed, as
# `docker images` shows it) and the time from `docker run` to the first 200 on /health.
#
#   scripts/measure-image.sh                        # with Docker
#   DOCKER=podman scripts/measure-image.sh          # with podman
#   RUN_ARGS='--ulimit nofile=1024:1024' ...        # extra words for `run`, if the host needs them
set -euo pipefail
cd "$(dirname "$0")/.."
read -r -a docker <<<"${DOCKER:-docker}"
read -r -a run_args <<<"${RUN_ARGS:-}"
tag=parcel-sandbox:measure

"${docker[@]}" build -q -t "$tag" . >/dev/null
bytes=$("${docker[@]}" image inspect --format '{{.Size}}' "$tag")

started=$(date +%s%3N)
id=$("${docker[@]}" run -d --rm -p 127.0.0.1::8080 "${run_args[@]}" "$tag")
trap '"${docker[@]}" rm -f "$id" >/dev/null 2>&1' EXIT
port=$("${docker[@]}" port "$id" 8080/tcp | head -1 | sed 's/.*://')
until curl -sf --max-time 1 "http://127.0.0.1:$port/health" >/dev/null; do
  if (($(date +%s%3N) - started > 30000)); then echo "measure-image: no answer on /health within 30 s" >&2; exit 1; fi
  sleep 0.05
done
answered=$(($(date +%s%3N) - started))
echo "image $(((bytes + 500000) / 1000000)) MB, first /health answer ${answered} ms after run"
