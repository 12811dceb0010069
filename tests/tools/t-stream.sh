#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t-stream.sh: a trace sent with lib/tcnet.c (what `hyptrace record -N`
# uses) to Debian's own `trace-cmd listen` on 127.0.0.1 arrives as the
# trace.dat tracedat_write() makes of the same pages: `trace-cmd report` (secs
# and raw ns) and `hyptrace report` read the listener's file exactly as
# the local one, and the two files differ only in the clock text the
# listener writes after the flyrecord table (its own machine's clock; the
# TRACECLOCK option keeps ours). Also: an idle CPU and lost events; a
# stream paced over more than the listener's 5-second message timeout;
# one-line errors for a closed port, a peer that is not a trace-cmd
# listener, one that refuses protocol version 3, a listener killed
# mid-stream, a bad HOST:PORT. gen_trace --send drives the sender (the
# recorder itself needs the hypervisor: tests/boot/86-stream-net.sh).
#
# Run by run_tests.sh (BUILD, HYPTRACE, GEN_TRACE set). Reports in KTAP
# (tests/include/ktap.sh).

. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null 2>&1 || die "python3 not found"
command -v ss >/dev/null 2>&1 || die "ss not found (iproute2)"

# wait_listening PORT: until something listens on 127.0.0.1:PORT (a
# state: on a loaded machine python3 or trace-cmd may take seconds to get
# there; 120 s only against a hang)
wait_listening() {
	_i=0
	while [ $_i -lt 1200 ]; do
		ss -Hltn "sport = :$1" 2>/dev/null | grep -q . && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	return 1
}

LPID=
# listen DIR: Debian's trace-cmd listen, output files DIR/net.*.dat
listen() {
	mkdir -p "$1"
	PORT=$(free_port)
	setsid trace-cmd listen -p "$PORT" -d "$1" -o net >"$1/listen.log" \
		2>&1 &
	LPID=$!
	wait_listening "$PORT" || die "trace-cmd listen -p $PORT did not start: $(cat "$1/listen.log")"
}

unlisten() {
	[ -n "$LPID" ] && /bin/kill -TERM -- "-$LPID" 2>/dev/null
	[ -n "$LPID" ] && wait "$LPID" 2>/dev/null
	LPID=
}
trap 'unlisten; rm -rf "$T"' EXIT

# same TAG GEN_ARGS...: send a generated trace, compare with the local one
same() {
	tag=$1
	shift
	listen "$T/$tag"
	if ! "$GEN" "$@" --expect "$T/$tag.exp" --send "127.0.0.1:$PORT" \
		"$T/$tag.dat" >"$T/$tag.gen" 2>&1; then
		bad "$tag: gen_trace --send: $(tail -n 1 "$T/$tag.gen")"
		unlisten
		return
	fi
	unlisten
	set -- "$T/$tag"/net.*.dat
	if [ $# -ne 1 ] || [ ! -s "$1" ]; then
		bad "$tag: the listener wrote no file: $(tail -n 3 "$T/$tag/listen.log")"
		return
	fi
	net=$1
	"$TC_REPORT" -i "$T/$tag.dat" >"$T/$tag.local" 2>&1
	"$TC_REPORT" -i "$net" >"$T/$tag.net" 2>"$T/$tag.neterr"
	rc=$?
	"$TC_REPORT" -t -i "$T/$tag.dat" >"$T/$tag.local-t" 2>&1
	"$TC_REPORT" -t -i "$net" >"$T/$tag.net-t" 2>&1
	n=$(grep -c ': hyp_enter:' "$T/$tag.net")
	if [ $rc -ne 0 ] || [ -s "$T/$tag.neterr" ]; then
		bad "$tag: trace-cmd report of the listener's file: exit $rc $(head -n 2 "$T/$tag.neterr")"
	elif cmp -s "$T/$tag.local" "$T/$tag.net" &&
	     cmp -s "$T/$tag.local-t" "$T/$tag.net-t" && [ "$n" -gt 0 ]; then
		ok "$tag: trace-cmd report (and -t) of the listener's file = the local file ($(wc -l <"$T/$tag.net") lines, $n hyp_enter); $(sed -n 's/^gen_trace: //p' "$T/$tag.gen")"
	else
		bad "$tag: trace-cmd report differs from the local file's"
		diff "$T/$tag.local" "$T/$tag.net" | head -n 6
	fi
	"$HYPTRACE" report "$net" >"$T/$tag.hr" 2>&1
	if cmp -s "$T/$tag.exp" "$T/$tag.hr"; then
		ok "$tag: hyptrace report of the listener's file is the expected text"
	else
		bad "$tag: hyptrace report of the listener's file: $(head -n 2 "$T/$tag.hr")"
	fi
	# byte for byte, but for the clock text after the flyrecord table
	diffs=$(cmp -l "$T/$tag.dat" "$net" 2>/dev/null | wc -l)
	if [ "$(stat -c %s "$T/$tag.dat")" = "$(stat -c %s "$net")" ] &&
	   [ "$diffs" -le 8 ]; then
		ok "$tag: same size as the local file, $diffs bytes differ (the listener's clock text)"
	else
		bad "$tag: $diffs bytes differ, sizes $(stat -c %s "$T/$tag.dat") and $(stat -c %s "$net")"
	fi
	LAST_NET=$net
}

same plain --cpus 4 --pairs 3000 --seed 3
if "$HYPTRACE" stats "$LAST_NET" 2>&1 | grep -q 'trace clock boot'; then
	ok "hyptrace stats: the listener's file keeps trace clock boot"
else
	bad "hyptrace stats of the listener's file: $("$HYPTRACE" stats "$LAST_NET" 2>&1 | head -n 2)"
fi
same lossy --cpus 3 --pairs 3000 --pages 4 --drain-every 700 --seed 7 --idle-cpu 1
same paced --cpus 2 --pairs 2500 --seed 5 --send-pace 250

# ---- errors: exit 1 and one line ----
err_case() {	# TAG WANT-REGEX WHERE
	if one_line_exit "$T/$1.err" 1 "$GEN" --cpus 1 --pairs 10 \
		--send "$3" "$T/$1.dat" &&
	   grep -Eq "$2" "$T/$1.err"; then
		ok "$1: $(cat "$T/$1.err")"
	else
		bad "$1: want exit 1 and one line matching '$2': $(head -n 3 "$T/$1.err" "$T/$1.err.out")"
	fi
}

err_case refused 'connection refused' "127.0.0.1:$(free_port)"
err_case badaddr 'no port number' "127.0.0.1:http"

# fake peers: one that is no trace-cmd listener, one that is an old one
fake() {	# GREETING REPLY: serve one connection on $FPORT
	FPORT=$(free_port)
	python3 - "$FPORT" "$1" "$2" <<'EOF' &
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen(1)
s.settimeout(20)
c, _ = s.accept()
try:
    c.sendall(sys.argv[2].encode())
    if sys.argv[3]:
        c.recv(64)
        c.sendall(sys.argv[3].encode())
    c.recv(64)
except OSError:
    pass
c.close()
EOF
	FPID=$!
	wait_listening "$FPORT" || die "the fake peer did not start"
}

fake 'SSH-2.0-OpenSSH_9.2' ''
err_case notlistener 'protocol mismatch: .*SSH-2.0.*not a trace-cmd listener' \
	"127.0.0.1:$FPORT"
wait $FPID 2>/dev/null
fake 'tracecmd' '5001,5002'
err_case oldproto 'protocol mismatch.*version 3' "127.0.0.1:$FPORT"
wait $FPID 2>/dev/null

# the listener killed mid-stream (its whole process group)
listen "$T/killed"
"$GEN" --cpus 2 --pairs 2500 --send-pace 200 --send "127.0.0.1:$PORT" \
	"$T/killed.dat" >"$T/killed.out" 2>"$T/killed.err" &
GPID=$!
sleep 2
/bin/kill -KILL -- "-$LPID" 2>/dev/null
wait "$LPID" 2>/dev/null
LPID=
wait $GPID
rc=$?
if [ $rc -eq 1 ] && [ "$(wc -l <"$T/killed.err")" -eq 1 ] &&
   grep -q 'closed .* mid-stream' "$T/killed.err"; then
	ok "listener killed mid-stream: $(cat "$T/killed.err")"
else
	bad "listener killed mid-stream: exit $rc, $(head -n 3 "$T/killed.err")"
fi

# the recorder's own help names the option
if "$HYPTRACE" record --help | grep -q -- '-N HOST:PORT'; then
	ok "hyptrace record --help documents -N HOST:PORT"
else
	bad "hyptrace record --help says nothing of -N"
fi

finish
