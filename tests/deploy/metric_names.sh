#!/usr/bin/env bash
# Every metric the Grafana dashboard and the Prometheus rules of deploy/
# use is one that a live sokod's GET /metrics declares (a "# TYPE" line;
# a histogram's _bucket, _sum and _count series included), so that a
# renamed metric cannot leave a panel or an alert silently empty. Names
# that are not sokod's are allowed by prefix: up (Prometheus's own) and
# node_ (node_exporter's). The dashboard must also be JSON that Grafana
# can import: panels with ids, every target with an expression.
# Usage: metric_names.sh SOKOD DEPLOY_DIR
set -u
sokod=$1
deploy=$2
tmp=$(mktemp -d)
pid=
cleanup() {
  if [ -n "$pid" ]; then
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
passed=0
failed=0
ok() {
  passed=$((passed + 1))
  echo "ok   $1"
}
fail() {
  failed=$((failed + 1))
  printf 'FAIL %s\n' "$1"
}

dashboards=("$deploy"/grafana/*.json)
rules=()
for f in "$deploy"/prometheus/*.yml; do
  case $f in *.test.yml) ;; *) rules+=("$f") ;; esac
done
for d in "${dashboards[@]}"; do
  if problems=$(jq -r '
      if (.panels | type) != "array" or (.panels | length) == 0 then "no panels" else
        (.panels[] | select(.type != "row") |
          if (.id | type) != "number" then "panel \(.title): no id"
          elif ((.targets // []) | length) == 0 then "panel \(.title): no target"
          else (.targets[] | select((.expr // "") == "") | "panel: a target without expr") end)
      end' "$d" 2>&1) && [ -z "$problems" ]; then
    ok "$(basename "$d"): $(jq '[.panels[] | select(.type != "row")] | length' "$d") panels, each with its queries"
  else
    fail "$(basename "$d"):"$'\n'"$problems"
  fi
done

# The names used: the dashboard's expressions, the rules' expr lines.
{
  for d in "${dashboards[@]}"; do jq -r '.. | objects | .expr? // empty' "$d"; done
  for r in "${rules[@]}"; do grep -E '^\s*(expr:|[^#]*[a-z_]+\{|\s+[/(])' "$r"; done
} >"$tmp/exprs"
grep -oE '\b(sokod|node)_[a-z0-9_]+|\bup\{' "$tmp/exprs" | sed 's/{$//' | sort -u >"$tmp/used"
if ! grep -q '^sokod_' "$tmp/used"; then
  fail "no sokod_ metric found in the dashboard and the rules: the extraction is broken"
fi

mkdir "$tmp/work"
(cd "$tmp/work" && exec "$sokod" serve --port 0 --db "$tmp/sokod.db" >"$tmp/out" 2>"$tmp/err") &
pid=$!
url=
for _ in $(seq 300); do
  url=$(sed -n 's/^sokod: listening on \(http:[^ ]*\)$/\1/p' "$tmp/out")
  if [ -n "$url" ] || ! kill -0 "$pid" 2>/dev/null; then break; fi
  sleep 0.1
done
if [ -z "$url" ]; then
  fail "sokod serve did not start:"$'\n'"$(tail -5 "$tmp/err")"
  echo "$passed passed, $failed failed"
  exit 1
fi
curl -sS --max-time 30 "$url/metrics" >"$tmp/metrics"
awk '$1 == "#" && $2 == "TYPE" {print $3, $4}' "$tmp/metrics" >"$tmp/types"
if [ ! -s "$tmp/types" ]; then
  fail "GET $url/metrics declared no metric"
fi
while read -r name; do
  case $name in
  up | node_*)
    ok "$name: not sokod's (Prometheus's or node_exporter's)"
    continue
    ;;
  esac
  base=$name
  kind=$(awk -v n="$name" '$1 == n {print $2}' "$tmp/types")
  if [ -z "$kind" ]; then
    base=$(printf '%s' "$name" | sed -E 's/_(bucket|sum|count)$//')
    kind=$(awk -v n="$base" '$1 == n && $2 == "histogram" {print $2}' "$tmp/types")
  fi
  if [ -n "$kind" ]; then
    ok "$name: declared by /metrics ($base, $kind)"
  else
    fail "$name is used in deploy/ but GET /metrics declares no such metric; it declares: $(cut -d' ' -f1 "$tmp/types" | tr '\n' ' ')"
  fi
done <"$tmp/used"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
