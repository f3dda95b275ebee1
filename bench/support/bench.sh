# What the shell benchmarks share; each sources this file after its
# `set -euo pipefail` and `build=...` (the build folder holding sokod).

# A temporary folder for the benchmark ($tmp), removed on any exit with
# the sokod it started ($pid, empty when none runs).
bench_begin() {
  tmp=$(mktemp -d)
  pid=
  trap bench_end EXIT
}
bench_end() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$tmp"
}

# Installs the Debian packages named, for this benchmark only (as root, or
# with sudo); updates the package lists once when an install fails.
bench_install() {
  local sudo=()
  [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  echo "installing $* (for this benchmark only)"
  export DEBIAN_FRONTEND=noninteractive
  if ! "${sudo[@]}" apt-get install -y -q "$@" >/dev/null; then
    "${sudo[@]}" apt-get update -q >/dev/null
    "${sudo[@]}" apt-get install -y -q "$@" >/dev/null
  fi
}

# Installs those of the tools named (each a command and the Debian package
# of the same name) that are not on the PATH.
bench_install_missing() {
  local missing=() tool
  for tool in "$@"; do command -v "$tool" >/dev/null || missing+=("$tool"); done
  if [ ${#missing[@]} -gt 0 ]; then bench_install "${missing[@]}"; fi
}

# Starts `sokod serve` with the arguments given, in the background, its
# output in $tmp/serve.out and $tmp/serve.err; sets pid, and url once sokod
# says where it listens (empty when it has not within 30 s).
bench_serve() {
  "$build/sokod" serve "$@" >"$tmp/serve.out" 2>"$tmp/serve.err" &
  pid=$!
  for _ in $(seq 300); do
    grep -q "listening on" "$tmp/serve.out" 2>/dev/null && break
    sleep 0.1
  done
  url=$(sed -n 's/^sokod: listening on //p' "$tmp/serve.out")
}
