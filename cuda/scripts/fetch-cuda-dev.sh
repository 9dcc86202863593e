#!/usr/bin/env bash
# fetch-cuda-dev.sh CACHE — fill CACHE with what compiling the GPU backend
# (go build -tags cuda) needs on a machine without a GPU or a CUDA install:
#
#   CACHE/include   cuda.h, cublas_v2.h, nvrtc.h and the headers they include
#   CACHE/stubs     the link stubs libcuda.so, libcublas.so, libnvrtc.so, …
#                   (they link, and never run)
#   CACHE/lib       the real NVRTC library, which compiles CUDA C to PTX on
#                   the CPU: the kernels' compile check runs it
#
# The files come from Debian 12's non-free packages nvidia-cuda-dev (CUDA
# 11.8), libnvrtc11.2 and libnvrtc-builtins11.8, downloaded once with a
# private apt configuration: a sources list made from the system's own
# Debian source with the contrib and non-free components added, and apt
# state under CACHE/apt. The system's apt sources and state are not
# touched. The .deb files (nvidia-cuda-dev is 774 MB) are deleted once the
# ~30 MB kept are extracted. A complete cache is left alone.
set -euo pipefail

cache=${1:?usage: fetch-cuda-dev.sh CACHE}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
if [ -f "$cache/.complete" ]; then
	exit 0
fi

# debian_source prints the URI of the system's Debian source for the
# release codename $1, from one-line (*.list) or deb822 (*.sources) files.
debian_source() {
	local files
	files=$(find /etc/apt/sources.list /etc/apt/sources.list.d -maxdepth 1 -type f \
		\( -name '*.list' -o -name '*.sources' \) 2>/dev/null || true)
	[ -n "$files" ] || return 0
	# shellcheck disable=SC2086
	awk -v want="$1" '
		function flush() {
			if (types ~ /(^|[ \t])deb([ \t]|$)/ && (" " suites " ") ~ ("[ \t]" want "[ \t]") && uris != "") {
				split(uris, u, /[ \t]+/); print u[1]
			}
			types = ""; suites = ""; uris = ""
		}
		FNR == 1 { flush() }
		/^[ \t]*$/ { flush(); next }
		/^Types:/ { types = $0; sub(/^Types:[ \t]*/, "", types) }
		/^Suites:/ { suites = $0; sub(/^Suites:[ \t]*/, "", suites) }
		/^URIs:/ { uris = $0; sub(/^URIs:[ \t]*/, "", uris) }
		/^deb[ \t]/ {
			line = $0; sub(/\[[^]]*\]/, "", line)
			n = split(line, f, /[ \t]+/)
			if (n >= 3 && f[3] == want) print f[2]
		}
		END { flush() }
	' $files | head -n 1
}

codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
if [ "$codename" != bookworm ]; then
	echo "fetch-cuda-dev: this procedure uses Debian 12 (bookworm) packages; this system is '${codename:-unknown}'" >&2
	exit 1
fi
uri=$(debian_source "$codename")
if [ -z "$uri" ]; then
	echo "fetch-cuda-dev: no Debian source for $codename in /etc/apt/sources.list{,.d}" >&2
	exit 1
fi
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)

apt="$cache/apt"
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$cache/debs"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $codename main contrib non-free" >"$apt/sources.list"
opts=(-o "Dir::Etc::sourcelist=$apt/sources.list" -o "Dir::Etc::sourceparts=-"
	-o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" -o "APT::Sandbox::User=root")
packages=(nvidia-cuda-dev libnvrtc11.2 libnvrtc-builtins11.8)

start=$(date +%s)
apt-get "${opts[@]}" -qq update
(cd "$cache/debs" && apt-get "${opts[@]}" -qq download "${packages[@]}")
bytes=$(cat "$cache"/debs/*.deb | wc -c)
echo "fetch-cuda-dev: downloaded $((bytes / 1000000)) MB in $(($(date +%s) - start)) s"

root="$cache/root"
rm -rf "$root" "$cache/include" "$cache/stubs" "$cache/lib"
mkdir -p "$root" "$cache/include" "$cache/stubs" "$cache/lib"
dpkg-deb --fsys-tarfile "$cache"/debs/nvidia-cuda-dev_*.deb |
	tar -x -C "$root" --wildcards './usr/include/*.h' './usr/include/*.hpp' "./usr/lib/$multiarch/stubs/*"
for deb in "$cache"/debs/libnvrtc*.deb; do
	dpkg-deb -x "$deb" "$root"
done
cp -a "$root/usr/include/." "$cache/include/"
cp -a "$root/usr/lib/$multiarch/stubs/." "$cache/stubs/"
cp -a "$root/usr/lib/$multiarch/"libnvrtc*.so* "$cache/lib/"
rm -rf "$root" "$cache/debs" "$apt"
echo "fetch-cuda-dev: kept $(du -sm "$cache" | cut -f1) MB in $cache after $(($(date +%s) - start)) s"
touch "$cache/.complete"
