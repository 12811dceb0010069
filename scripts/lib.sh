# SPDX-License-Identifier: GPL-2.0
# Helpers shared by the build and run scripts: progress output and the cache.

HYPTRACE_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Kernel builds and downloaded packages live outside the work tree so that a
# fresh clone (as CI makes) reuses them.
HYPTRACE_CACHE=${HYPTRACE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hyptrace}
HYPTRACE_BUILD=${HYPTRACE_BUILD:-$HYPTRACE_TOP/build}

step() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
note() { printf '    %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Run a long command, keep its output in a log and show a heartbeat so the
# user sees progress without a wall of compiler lines.
run_logged() {
	local log=$1; shift
	local start=$SECONDS pid
	mkdir -p "$(dirname "$log")"
	"$@" >"$log" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 15
		kill -0 "$pid" 2>/dev/null &&
			note "... $((SECONDS - start))s, $(wc -l <"$log") log lines ($log)"
	done
	if ! wait "$pid"; then
		tail -n 40 "$log" >&2
		die "command failed after $((SECONDS - start))s: $* (full log: $log)"
	fi
	note "done in $((SECONDS - start))s"
}

as_root() {
	if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# The Debian release this machine runs, by its code name (bookworm on
# Debian 12, trixie on Debian 13), from /etc/os-release.
debian_codename() {
	local c
	c=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
	echo "${c:-bookworm}"
}

# The URI of the machine's own Debian archive, read from its apt sources so
# that no registry host is ever written into the project.
debian_archive_uri() {
	local f suite
	suite=$(debian_codename)
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		awk -v s="$suite" 'BEGIN { RS = ""; FS = "\n" }
		     $0 ~ ("Suites:[^\n]*" s "( |$|\n)") && /URIs:/ {
			for (i = 1; i <= NF; i++)
				if ($i ~ /^URIs:/) { sub(/^URIs:[ \t]*/, "", $i);
						     split($i, u, " "); print u[1]; exit }
		     }' "$f"
	done | head -n 1 | grep . && return 0
	awk -v s="$suite" '$1 == "deb" && $3 == s { print $2; exit }' \
		/etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
		grep . || die "cannot find the Debian archive in the apt sources"
}

# add_suite_source SUITE: add Debian's SUITE to the apt sources, pinned low
# so that nothing installs from it by accident: Debian 13's trixie-backports
# (the Linux 7.x source, the newest QEMU and stock kernels come from there),
# or on a later release Debian 12's bookworm (its stock kernel). Returns 1 if
# it was there already; the caller runs apt-get update when it returns 0.
add_suite_source() {
	local suite=$1 src=/etc/apt/sources.list.d/hyptrace-$1.sources uri
	grep -rqsw -- "$suite" /etc/apt/sources.list /etc/apt/sources.list.d/ &&
		return 1
	uri=$(debian_archive_uri)
	step "adding $suite (pinned low) to the apt sources"
	as_root tee "$src" >/dev/null <<EOS
Types: deb
URIs: $uri
Suites: $suite
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOS
	as_root tee "/etc/apt/preferences.d/hyptrace-$suite" >/dev/null <<EOS
Package: *
Pin: release n=$suite
Pin-Priority: 100
EOS
}

add_backports_source() { add_suite_source trixie-backports; }

# run_quiet WHAT LOG COMMAND...: run COMMAND with its output in LOG and a
# heartbeat line every 15 s. On failure, return 1 with quiet_why set to one
# line: WHAT failed, the last line of the log that says why (any URI in it
# replaced by <URI>) and where the log is.
# shellcheck disable=SC2034 # read by the callers
quiet_why=
run_quiet() {
	local what=$1 log=$2 start=$SECONDS pid why
	shift 2
	"$@" >"$log" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		if kill -0 "$pid" 2>/dev/null && [ $(((SECONDS - start) % 15)) = 0 ]; then
			note "... $((SECONDS - start))s ($what)"
		fi
	done
	wait "$pid" && return 0
	why=$(grep -E '^(E|W|Err):' "$log" | tail -n 1)
	[ -n "$why" ] || why=$(grep . "$log" | tail -n 1)
	why=$(sed -E 's#[a-z]+://[^ ]*#<URI>#g' <<<"${why:-no output}")
	quiet_why="$what failed after $((SECONDS - start))s: $why (log: $log)"
	return 1
}

# Debian's arm64 packages fetched without installing them (the stock
# kernels, the Pi's U-Boot): apt_update once, ensure_arm64, deb_download.
apt_updated=0
apt_update() {
	[ "$apt_updated" = 0 ] || return 0
	step "apt-get update"
	mkdir -p "$HYPTRACE_CACHE/logs"
	run_quiet "apt-get update" "$HYPTRACE_CACHE/logs/apt-update.log" \
		as_root apt-get update || die "$quiet_why"
	apt_updated=1
}

# 'apt-get download PKG:arm64' needs arm64 as a dpkg architecture
# (scripts/setup-deps.sh adds it for busybox; this is the same step).
ensure_arm64() {
	dpkg --print-foreign-architectures | grep -qx arm64 && return 0
	step "enabling the arm64 architecture in dpkg"
	as_root dpkg --add-architecture arm64
	apt_update
}

# deb_download DIR NAME VERSION LOG: NAME:arm64's .deb of VERSION into DIR
# (which must hold no other .deb, and which apt's own user must be able to
# read), apt's output in LOG; 1 (quiet_why says why) if apt cannot get it.
deb_download() {
	local dir=$1 name=$2 version=$3 log=$4
	rm -f "$dir"/*.deb
	step "downloading $name:arm64 $version"
	run_quiet "apt-get download $name:arm64=$version" "$log" \
		env -C "$dir" apt-get download "$name:arm64=$version" || return 1
	compgen -G "$dir/*.deb" >/dev/null || {
		quiet_why="apt-get download $name:arm64=$version left no .deb"
		return 1
	}
}

# Unmount whatever debootstrap or apt left mounted under DIR (deepest first),
# then remove DIR without ever crossing into another file system.
remove_tree() {
	local dir=$1 m
	[ -e "$dir" ] || return 0
	while read -r m; do
		as_root umount -l "$m" 2>/dev/null || true
	done < <(awk -v d="$dir/" 'index($2 "/", d) == 1 { print $2 }' /proc/mounts | sort -r)
	as_root rm -rf --one-file-system "$dir"
}

# free_port: a TCP port of 127.0.0.1 that nobody listens on just now (the
# tests and the bench give it to a listener they start next)
free_port() {
	python3 "$HYPTRACE_TOP/scripts/free-port.py"
}
