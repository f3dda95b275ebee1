#!/usr/bin/env bash
# One address opens 4,200 live streams, then 40 addresses do, while another
# client makes ordinary requests: prints the streams' answers and the
# ordinary requests' latency (bench/streams_flood.mjs).
#
# Usage: bench/bench_streams_flood.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:-build-bench}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
ulimit -n 16384 2>/dev/null || true
node "$here/streams_flood.mjs" "$build/sokod" 4200
FLOOD_ADDRESSES=40 node "$here/streams_flood.mjs" "$build/sokod" 4200
