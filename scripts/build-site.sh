#!/usr/bin/env bash
# Builds the browser playground into a deployable folder (default
# build/site): site/ sources (the playground, embed.js for embedding it in
# other pages, and the example documentation page docs/, which shows the
# Hugo shortcode of site/hugo/), the editor bundle (web/editor, CodeMirror 6 via
# esbuild), the Overview's charts (web/charts: uPlot and the workload
# timeline, bundled with web/editor's esbuild into charts.js and
# charts.css), wasm_exec.js from the Go installation, kueueplay.wasm, the
# scenarios with scenarios/index.json, and .br and .gz copies of the text
# and wasm files (scripts/precompress). Installs Node and the npm
# packages (npm ci, from the lockfile) when they are missing or stale.
# Called by `make site`; GO and SITE_DIR may be set from the environment.
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
out=${SITE_DIR:-build/site}
editor=web/editor
charts=web/charts

run() {
	echo "+ $*"
	"$@"
}

# Node, then npm: Debian packages npm apart from nodejs.
command -v node >/dev/null || bash scripts/install-node.sh
if ! command -v npm >/dev/null; then
	if command -v apt-get >/dev/null && [[ $(id -u) == 0 ]]; then
		run apt-get update -qq
		DEBIAN_FRONTEND=noninteractive run apt-get install -y -qq npm
	else
		echo "make site: npm is not on PATH and cannot be installed here (apt-get install npm)" >&2
		exit 1
	fi
fi

# npm ci when node_modules is missing or older than the lockfile
# (npm writes node_modules/.package-lock.json on every install). No
# install scripts run: esbuild's only checks its binary, and its bin/esbuild
# finds the platform package without it.
for pkg in "$editor" "$charts"; do
	stamp=$pkg/node_modules/.package-lock.json
	if [[ ! -f $stamp || $pkg/package-lock.json -nt $stamp || $pkg/package.json -nt $stamp ]]; then
		(cd "$pkg" && run npm ci --ignore-scripts --no-audit --no-fund)
	fi
done

# Build next to the output and swap it in, so a running server never sees a
# half-written folder.
tmp=$out.tmp
rm -rf "$tmp"
mkdir -p "$tmp/scenarios"

run cp site/index.html site/style.css site/panels.css site/boot.js site/engine.js site/embed.js site/favicon.svg "$tmp/"
run cp -R site/docs "$tmp/"
run cp "$("$GO" env GOROOT)/lib/wasm/wasm_exec.js" "$tmp/"
run "$editor/node_modules/.bin/esbuild" "$editor/src/editor.js" --bundle --minify --format=iife \
	--target=es2020 --log-level=warning --outfile="$tmp/editor.js"
# charts.js imports uPlot's CSS: esbuild writes it next to it as charts.css.
run "$editor/node_modules/.bin/esbuild" "$charts/src/charts.js" --bundle --minify --format=iife \
	--target=es2020 --log-level=warning --outfile="$tmp/charts.js"
run env GOOS=js GOARCH=wasm "$GO" build -trimpath -ldflags='-s -w' -o "$tmp/kueueplay.wasm" ./wasm
echo "+ cp testdata/scenarios/*.yaml $tmp/scenarios/"
cp testdata/scenarios/*.yaml "$tmp/scenarios/"
# Kueue's scalability test at its real size (15,000 workloads, 5.8 MB) is
# generated here rather than committed: the gallery lists it, the page
# fetches it when it is opened, and it is neither in the WASM nor in the
# service worker's precache bundle (-bundle-max).
run "$GO" run ./scripts/scalability -o "$tmp/scenarios/scalability-kueue.yaml"
run "$GO" run ./scripts/scenarioindex -o "$tmp/scenarios/index.json" -bundle "$tmp/scenarios/bundle.json" -bundle-max 1048576 "$tmp/scenarios"

# The service worker (offline use): site/sw.js after two lines naming this
# build (a hash of every file) and the files to keep. "./" is the page. The
# documentation page is not the playground: it counts in the version but is
# not precached (a visit caches it); nor is the Overview's chart bundle,
# which the page loads only when the Overview is opened (its first use
# caches it), so that the first visit does not pay for it. The scenarios are precached from
# scenarios/bundle.json, which sw.js expands into one cache entry each.
files=$(cd "$tmp" && find . -type f ! -name '*.gz' ! -name '*.br' | LC_ALL=C sort)
version=$(cd "$tmp" && sha256sum $files | sha256sum | cut -c1-16)
{
	echo "const VERSION = \"$version\";"
	printf 'const FILES = ["./"'
	for f in $files; do
		case $f in ./docs/* | ./scenarios/*.yaml | ./scenarios/bundle.json | ./charts.js | ./charts.css) continue ;; esac
		printf ', "%s"' "${f#./}"
	done
	echo '];'
	cat site/sw.js
} >"$tmp/sw.js"

# Precompressed copies (.br and .gz) for `kueueplay serve` and any server
# that serves them, only where they are smaller; in Go, so that every
# machine builds the same bytes without a brotli or gzip command.
run "$GO" run ./scripts/precompress -cache build/cache/precompress "$tmp"

rm -rf "$out"
mv "$tmp" "$out"

size() { stat -c %s "$1" 2>/dev/null || echo -; }
echo "make site: built $out"
for f in kueueplay.wasm editor.js charts.js charts.css wasm_exec.js boot.js engine.js embed.js style.css panels.css index.html sw.js; do
	printf '  %-15s %9s bytes  gzip %9s  br %9s\n' "$f" "$(size "$out/$f")" "$(size "$out/$f.gz")" "$(size "$out/$f.br")"
done
