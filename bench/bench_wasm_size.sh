#!/usr/bin/env bash
# Prints the size of core.wasm, as built and as sent gzip-compressed.
# Usage: bench/bench_wasm_size.sh BUILD_DIR
set -euo pipefail
wasm="${1:-build-bench}/core.wasm"
raw=$(stat -c %s "$wasm")
gz=$(gzip -9 -c "$wasm" | wc -c)
exports=$(node -e "const m=new WebAssembly.Module(require('fs').readFileSync('$wasm'));console.log(WebAssembly.Module.exports(m).filter(e=>e.kind==='function').length)")
awk -v raw="$raw" -v gz="$gz" -v n="$exports" 'BEGIN {
  printf "core.wasm: %d bytes (%.1f KB), gzip -9: %d bytes (%.1f KB), %d exported functions\n",
         raw, raw / 1024, gz, gz / 1024, n }'
