#!/usr/bin/env bash
# docsites.sh: the real documentation sites trawl is measured on, from Debian's doc packages,
# served by nginx on loopback addresses (no other address is ever a target).
#
#   bench/docsites.sh install   apt-get the packages (python3-doc, postgresql-doc-15,
#                               debian-handbook, openjdk-17-doc, rust-doc) and nginx, wget
#   bench/docsites.sh serve     write /etc/nginx/sites-enabled/trawl-docs and (re)start nginx;
#                               the same sites with gzip off on port 8080 (trawl-docs-plain)
#   bench/docsites.sh check     print each site's start URL and its HTTP status
#   bench/docsites.sh stop      stop nginx
#
# The sites and their start URLs (what bench/content, the evaluations in README's opt-in
# table and the perf tables in bench/README.md crawl):
#   127.0.2.1  Python 3.11 (Sphinx)          http://127.0.2.1/index.html
#   127.0.2.2  PostgreSQL 15 (DocBook)       http://127.0.2.2/index.html
#   127.0.2.3  Debian handbook (Publican)    http://127.0.2.3/en-US/index.html
#   127.0.2.4  OpenJDK 17 API (javadoc)      http://127.0.2.4/api/index.html
#   127.0.2.5  Rust std and books (rustdoc, mdBook)  http://127.0.2.5/index.html
# Needs root for apt-get and nginx (as on the project's CI machine).
set -euo pipefail

sites=(
	"127.0.2.1 /usr/share/doc/python3.11/html /index.html"
	"127.0.2.2 /usr/share/doc/postgresql-doc-15/html /index.html"
	"127.0.2.3 /usr/share/doc/debian-handbook/html /en-US/index.html"
	"127.0.2.4 /usr/share/doc/openjdk-17-doc /api/index.html"
	"127.0.2.5 /usr/share/doc/rust-doc/html /index.html"
)
conf=/etc/nginx/sites-enabled/trawl-docs
# Debian's nginx.conf has "gzip on" (text/html only): clients that ask for gzip (trawl, Colly)
# get it on port 80 and inflate it, wget does not ask. Port 8080 serves the same files with
# gzip off, so that the crawlers can also be compared on the same bytes.
plainconf=/etc/nginx/sites-enabled/trawl-docs-plain

install() {
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx wget \
		python3-doc postgresql-doc-15 debian-handbook openjdk-17-doc rust-doc >/dev/null
}

serve() {
	command -v nginx >/dev/null || install
	{
		for s in "${sites[@]}"; do
			read -r addr root _ <<<"$s"
			[ -d "$root" ] || { echo "missing $root: run $0 install" >&2; exit 1; }
			cat <<CONF
server {
	listen $addr:80;
	root $root;
	access_log off;
	location / { try_files \$uri \$uri/ =404; }
}
CONF
		done
	} >"$conf"
	{
		for s in "${sites[@]}"; do
			read -r addr root _ <<<"$s"
			cat <<CONF
server {
	listen $addr:8080;
	root $root;
	access_log off;
	gzip off;
	location / { try_files \$uri \$uri/ =404; }
}
CONF
		done
	} >"$plainconf"
	nginx -t -q
	if pgrep -x nginx >/dev/null; then nginx -s reload; else nginx; fi
	check
}

check() {
	local bad=0
	for s in "${sites[@]}"; do
		read -r addr _ start <<<"$s"
		code=$(wget -q -S -O /dev/null "http://$addr$start" 2>&1 | awk '/HTTP\//{c=$2} END{print c}') || true
		echo "http://$addr$start ${code:-unreachable}"
		[ "$code" = 200 ] || bad=1
	done
	return $bad
}

case "${1:-serve}" in
install) install ;;
serve) serve ;;
check) check ;;
stop) nginx -s stop ;;
*) echo "usage: $0 install|serve|check|stop" >&2; exit 2 ;;
esac
