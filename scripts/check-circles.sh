#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# No file calls back into a file that calls it. scripts/check-circles.py
# over the objects of a build: first the hypervisor's and the module's
# where a build left them (the module's with trace_remote in host-driver/,
# without it where tests/boot/59-hostile-page.sh builds it), failing on a
# circle in a directory of STRICT (today all of them; a tree being
# restructured may be left out, for information only); last, failing on any circle, the objects the native
# build of tools/hyptrace links (its Makefile's check-circles target,
# which builds them if need be).
#
#   scripts/check-circles.sh [BUILD]	BUILD: the build directory, by
#					default $HYPTRACE_BUILD or ./build
set -eu

TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-${HYPTRACE_BUILD:-$TOP/build}}

NM="nm"
command -v aarch64-linux-gnu-nm >/dev/null 2>&1 && NM=aarch64-linux-gnu-nm
STRICT=" hyp host-driver "
status=0

# Whether the copy of host-driver/ in DIR (59-hostile-page.sh's) has the
# sources of the tree: its objects are left from the test's last run
same_sources() {
	for f in "$TOP"/host-driver/*.[ch] "$TOP"/host-driver/Kbuild \
		 "$1"/*.[ch] "$1"/Kbuild; do
		case $f in *.mod.c) continue ;; esac
		f=${f##*/}
		cmp -s "$TOP/host-driver/$f" "$1/$f" || return 1
	done
}

for what in "hyp:$BUILD/hyp" "host-driver:$BUILD/modules/host-driver" \
	    "host-driver:$TOP/host-driver" \
	    "host-driver:$BUILD/fallback-module/host-driver"; do
	name=${what%%:*}
	dir=${what#*:}
	info=--info
	case $STRICT in *" $name "*) info= ;; esac
	case $dir in
	"$BUILD"/fallback-module/*)
		if [ -d "$dir" ] && ! same_sources "$dir"; then
			echo "check-circles: $dir: built from older sources (tests/boot/59-hostile-page.sh builds it): not checked"
			continue
		fi ;;
	esac
	if ls "$dir"/*.o >/dev/null 2>&1 || ls "$dir"/*/*.o >/dev/null 2>&1; then
		python3 "$TOP/scripts/check-circles.py" ${info:+"$info"} --nm "$NM" \
			--name "$name" --strip "$dir/" "$dir" || status=1
	fi
done

make -s --no-print-directory -C "$TOP/tools/hyptrace" \
	BUILD="$BUILD/tools/native" check-circles || status=1
exit $status
