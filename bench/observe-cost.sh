#!/usr/bin/env bash
# observe-cost.sh measures what seeing a crawl costs in scenario A (100 hosts
# x 1,000 pages, 64 workers, 2 per host, no delay, 50,000-page cap): the same
# crawl (profile's TestCrawl) plain, with the decision log (all of it, and
# without duplicate-url), the Prometheus collector, the report recorder, and
# all three, interleaved over ROUNDS rounds. It prints one line per crawl:
# the crawler's user and system CPU seconds, peak RSS KB and wall seconds
# (from /usr/bin/time), and the log's lines and bytes.
#
#   bench/observe-cost.sh                 # 5 rounds, about 10 minutes
#   PAGES=5000 ROUNDS=1 bench/observe-cost.sh
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/webserver" ./cmd/webserver
go test -c -o "$work/profile.test" ./profile
seeds="$work/seeds"
coproc WEB { "$work/webserver" -hosts 100 -pages 1000 -seeds "$seeds" -host-limit 2; }
read -r ready <&"${WEB[0]}"
[ "$ready" = ready ] || { echo "webserver did not start" >&2; exit 1; }
log="$work/decisions.jsonl"
for round in $(seq "${ROUNDS:-5}"); do
	for mode in off decisions omit metrics report all; do
		env=(TRAWL_BENCH_SEEDS="$seeds" TRAWL_BENCH_MAX_PAGES="${PAGES:-50000}")
		case $mode in
		decisions) env+=(TRAWL_BENCH_DECISIONS="$log") ;;
		omit) env+=(TRAWL_BENCH_DECISIONS="$log" TRAWL_BENCH_DECISIONS_OMIT=duplicate-url) ;;
		metrics) env+=(TRAWL_BENCH_METRICS=1) ;;
		report) env+=(TRAWL_BENCH_REPORT="$work/report.html") ;;
		all) env+=(TRAWL_BENCH_DECISIONS="$log" TRAWL_BENCH_METRICS=1 TRAWL_BENCH_REPORT="$work/report.html") ;;
		esac
		out=$(env "${env[@]}" /usr/bin/time -f "TIME %U %S %M %e" "$work/profile.test" -test.run TestCrawl -test.count=1 -test.v 2>&1)
		t=$(echo "$out" | grep '^TIME' | tail -1)
		pages=$(echo "$out" | grep -o '[0-9]* pages in' | head -1 | cut -d' ' -f1)
		lines=$(echo "$out" | grep -o 'decision log: [0-9]* lines' | grep -o '[0-9]*' || true)
		size=0
		if [ -n "$lines" ] && [ -f "$log" ]; then size=$(stat -c %s "$log"); fi
		echo "round=$round mode=$mode pages=$pages lines=${lines:-0} jsonl_bytes=$size $t"
		rm -f "$log"
	done
done
eval "exec ${WEB[1]}>&-"
wait "$WEB_PID" || true
