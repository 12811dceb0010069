#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# doc-screenshot.sh TRACE.DAT OUT.png: the README's KernelShark picture.
# Open TRACE.DAT in the stock KernelShark (Debian's kernelshark package)
# on a virtual X display (xvfb-run), through a session file that sets the
# window size and the CPU plots, wait until the window has drawn the
# trace, take the window's picture and write it as a small PNG. Run by
# scripts/doc-picture.sh (make doc-picture).
#
# KernelShark shows a dialog that waits for a click when it runs as root,
# unless its settings say noRootWarn; its settings and session files live
# in KS_USER_CACHE_DIR, here a directory of our own under the build tree,
# so root needs no other user and the user's own KernelShark settings are
# not touched.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

WIDTH=1100
HEIGHT=680

if [ "${1:-}" = --in-display ]; then
	# Inside xvfb-run: $2 the session, $3 the PNG
	session=$2 png=$3
	kernelshark -s "$session" >"$KS_USER_CACHE_DIR/kernelshark.log" 2>&1 &
	ks=$!
	# KernelShark's main() loads the session before its event loop
	# runs, and the window is drawn in that loop: wait for the window,
	# then until three grabs in a row are the same.
	tries=0
	until win=$(xdotool search --onlyvisible --name '^Kernel Shark$'); do
		kill -0 "$ks" 2>/dev/null ||
			die "KernelShark exited: $KS_USER_CACHE_DIR/kernelshark.log"
		tries=$((tries + 1))
		[ $tries -lt 600 ] || die "KernelShark's window never came"
		sleep 0.1	# a poll's interval, not a wait for time
	done
	win=${win%%$'\n'*}
	prev='' same=0 tries=0
	while [ $same -lt 2 ]; do
		import -window "$win" "$png.tmp.png"
		sum=$(md5sum <"$png.tmp.png")
		if [ "$sum" = "$prev" ]; then
			same=$((same + 1))
		else
			same=0
		fi
		prev=$sum
		tries=$((tries + 1))
		[ $tries -lt 300 ] || die "KernelShark's window never settled"
	done
	# fewer colours: the picture is flat areas and text
	convert "$png.tmp.png" -strip -colors 64 "PNG8:$png"
	rm -f "$png.tmp.png"
	xdotool windowfocus --sync "$win" key ctrl+q
	wait "$ks"
	exit 0
fi

[ $# -eq 2 ] || die "usage: doc-screenshot.sh TRACE.DAT OUT.png"
dat=$(realpath "$1")
out=$2
for tool in kernelshark xvfb-run xdotool import convert; do
	command -v "$tool" >/dev/null ||
		die "$tool is missing (scripts/setup-deps.sh --doc-picture installs it)"
done

export KS_USER_CACHE_DIR=$HYPTRACE_BUILD/doc/kernelshark
rm -rf "$KS_USER_CACHE_DIR"
mkdir -p "$KS_USER_CACHE_DIR"
printf '[General]\nnoRootWarn=true\n' >"$KS_USER_CACHE_DIR/setting.ini"

# The view: 1.5 ms around the first PSCI call Linux makes (a CPU going
# off or on), its row marked and the list scrolled to the view's first
# row; the whole trace if there is no PSCI call. From trace-cmd report -t
# (nanoseconds), whose rows are in KernelShark's order: by time, CPUs
# merged.
trace-cmd report -t -i "$dat" >"$KS_USER_CACHE_DIR/report.txt" 2>/dev/null
ncpu=$(sed -n 's/^cpus=//p;q' "$KS_USER_CACHE_DIR/report.txt")
read -r mark top from to < <(awk '
	/^cpus=/ { next }
	match($0, /\] +[0-9]+\.[0-9]+:/) {
		t = substr($0, RSTART + 1, RLENGTH - 2)
		gsub(/[ .]/, "", t)
		ts[n++] = t + 0
		if (mark == "" && / hyp_enter: .*reason=psci /)
			mark = n - 1
	}
	END {
		if (mark == "") { print -1, 0, 0, 0; exit }
		from = ts[mark] - 500000; to = ts[mark] + 1000000
		for (top = 0; top < n && ts[top] < from; top++)
			;
		printf "%d %d %.0f %.0f\n", mark, top, from, to
	}' "$KS_USER_CACHE_DIR/report.txt")
if [ "$mark" -ge 0 ]; then
	model='"Model": { "type": "kshark.config.model",'
	model+=" \"range\": [ $from, $to ], \"bins\": $((WIDTH - 113)) },"
	marka="{ \"isSet\": true, \"row\": $mark }"
else
	model='' marka='{ "isSet": false }' top=0
fi

# The session: this file (KernelShark checks its mtime), the window's
# size, the graph above the list, all CPUs plotted, no task plots.
cat >"$KS_USER_CACHE_DIR/session.json" <<EOF
{
  "type": "kshark.config.session",
  "MainWindow": [ $WIDTH, $HEIGHT ],
  "Splitter": [ 400, 240 ],
  $model
  "data streams": [
    {
      "type": "kshark.config.stream",
      "stream id": 0,
      "data": {
        "type": "kshark.config.data",
        "file": "$dat",
        "name": "top buffer",
        "time": $(stat -c %Y "$dat")
      },
      "filters": { "type": "kshark.config.filter", "filter mask": 7 },
      "plugins": { "type": "kshark.config.plugins", "registered": [ ] },
      "CPUPlots": [ $(seq -s ', ' 0 $((${ncpu:-4} - 1))) ],
      "TaskPlots": [ ]
    }
  ],
  "ComboPlots": [ ],
  "Markers": {
    "type": "kshark.config.markers",
    "markA": $marka,
    "markB": { "isSet": false },
    "Active": "A"
  },
  "ViewTop": $top,
  "ColorScheme": 0.75,
  "User Plugins": { "type": "kshark.config.plugins", "obj. files": [ ] }
}
EOF

xvfb-run -a -s "-screen 0 $((WIDTH + 100))x$((HEIGHT + 100))x24" \
	bash "$0" --in-display "$KS_USER_CACHE_DIR/session.json" \
	"$(realpath -m "$out")" </dev/null
note "wrote $out ($(du -k "$out" | cut -f1) KiB) from $1"
