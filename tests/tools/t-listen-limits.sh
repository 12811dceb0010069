#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t-listen-limits.sh: `hyptrace listen -N 127.0.0.1:PORT --no-key` against
# a fake `hyptrace agent -N --no-key` (python3 on 127.0.0.1 only; one
# anybody could run, which a listener with --no-key cannot tell from the
# real one) that floods it: formats of 4 MiB, thousands of formats,
# megabytes of them, formats of many systems, a stats text of 4 MiB, and
# pages without end. Each time the listener stays small (its peak resident
# size under 64 MiB) and says so in exactly one line on stderr, exit 1; for
# the pages, the trace.dat keeps what came before --max-size and is a good
# one. Also: the trace.dat or a temporary OUTPUT.cpuN that is a symbolic
# link is not followed, and a board clock of INT64_MAX ns is refused.
#
# The fake's floods are bounded (at most 100 MiB) and it ends with the
# connection: against a listener without these limits each case fails
# instead of hanging.
#
# Run by run_tests.sh (BUILD, HYPTRACE, GEN_TRACE set). Reports in KTAP
# (tests/include/ktap.sh).

. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null 2>&1 || die "python3 not found"
[ -x "$BUILD/gen_vtstream" ] || die "no gen_vtstream in $BUILD"
"$BUILD/gen_vtstream" --cpus 2 --pages 1 "$T/round.vt" ||
	die "gen_vtstream failed"

MAX_RSS_KB=65536

# fakeagent.py T HYPTRACE STREAM RUN...: for each RUN, "NAME CASE ARGS...",
# the listener ($HYPTRACE listen -N to a port of ours --no-key -o
# T/NAME.dat ARGS)
# against the fake playing CASE; its exit status, peak resident size (KiB;
# from the fork, so python's own size bounds it from below), stdout and
# stderr in T/NAME.rc, .rss, .out, .err. One python for all.
cat >"$T/fakeagent.py" <<'PY'
import os, socket, subprocess, sys, threading
T, hyptrace, stream, runs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]

# the messages of one round, as gen_vtstream wrote them
data, msgs = open(stream, "rb").read(), []
while data:
    head, data = data.split(b"\n", 1)
    name, n = head.split(b" ")
    msgs.append((name, data[:int(n)]))
    data = data[int(n):]
started = [i for i, m in enumerate(msgs) if m[0] == b"started"][0]
meta, hello = msgs[:started + 1], msgs[0]
pages = [m for m in msgs if m[0].startswith(b"page:")]
end = [m for m in msgs if m[0].startswith(b"cpustat:") or m[0] == b"stopped"]

def msg(c, name, payload):
    c.sendall(b"%s %d\n" % (name, len(payload)) + payload)

def flood(c, gen):
    try:
        for name, payload in gen:
            msg(c, name, payload)
    except OSError:
        pass    # the listener has had enough

def orders(c):
    buf = b""
    while True:
        try:
            got = c.recv(4096)
        except OSError:
            return
        if not got:
            return
        buf += got
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            yield line

def play(c, case):
    if case == "formats-big":
        flood(c, [hello] + [(b"format:hypervisor", b"x" * (4 << 20))] * 25)
    elif case == "formats-many":
        flood(c, [hello] + [(b"format:hypervisor", b"name: e\n")] * 5000)
    elif case == "formats-bytes":
        flood(c, [hello] + [(b"format:hypervisor", b"x" * 60000)] * 1000)
    elif case == "systems":
        flood(c, [hello] + [(b"format:sys%d" % i, b"name: e\n")
                            for i in range(40)])
    elif case == "texts":
        flood(c, [hello, (b"cpustat:0", b"x" * (4 << 20))] * 25)
    elif case == "pages":
        # the round starts, then pages, whatever the listener says
        next(orders(c), None)
        flood(c, meta + pages[:1] * 25600)
    else:
        # a round as an agent has it: "1", "0", and "clock" answered
        t = 5 * 10**9
        for line in orders(c):
            if line == b"1":
                flood(c, meta + pages)
            elif line == b"0":
                flood(c, end)
            elif line == b"clock":
                t += 1000
                flood(c, [(b"clock_now", b"boot %d" % (
                    2**63 - 1 if case == "clockmax" else t))])

for run in runs:
    name, case, *args = run.split()
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    srv.settimeout(30)
    out = os.path.join(T, name)
    p = subprocess.Popen([hyptrace, "listen", "-N",
                          "127.0.0.1:%d" % srv.getsockname()[1],
                          "--no-key", "-o", out + ".dat"] + args,
                         stdin=subprocess.DEVNULL,
                         stdout=open(out + ".out", "w"),
                         stderr=open(out + ".err", "w"))
    try:
        c = srv.accept()[0]
        c.settimeout(30)
        # the challenge of an agent without a key (vtproto.h)
        msg(c, b"challenge", b"version=3 nonce=none")
        play(c, case)
        c.close()
    except OSError:
        pass    # it never came, or went quiet: its exit says why
    srv.close()
    # a listener that hangs is ended, and fails
    timer = threading.Timer(60, p.kill)
    timer.start()
    _, status, ru = os.wait4(p.pid, 0)
    timer.cancel()
    open(out + ".rc", "w").write("%d\n" % os.waitstatus_to_exitcode(status))
    open(out + ".rss", "w").write("%d\n" % ru.ru_maxrss)
PY

# what the links point to stays as it is
echo precious >"$T/victim"
ln -s "$T/victim" "$T/link.dat"
ln -s "$T/victim" "$T/tmp.dat.cpu0"

python3 "$T/fakeagent.py" "$T" "$HYPTRACE" "$T/round.vt" \
	"formats-big formats-big" "formats-many formats-many" \
	"formats-bytes formats-bytes" "systems systems" "texts texts" \
	"pages pages --start --max-size 4M" "good good --start" \
	"link good --start" "tmp good --start" "clockmax clockmax --start" ||
	die "the fake agent failed"

# result NAME: run NAME's exit status in $rc, peak resident KiB in $rss,
# stderr in $T/err
result() {
	rc=$(cat "$T/$1.rc")
	rss=$(cat "$T/$1.rss")
	cp "$T/$1.err" "$T/err"
}

# flood_refused NAME WANT: refused in one line matching WANT, still small
flood_refused() {
	result "$1"
	listen_fails "$1" $rc "$2" "$T/$1.dat"
	if [ "$rss" -gt 0 ] && [ "$rss" -lt $MAX_RSS_KB ]; then
		ok "$1: peak resident $rss KiB"
	else
		bad "$1: peak resident $rss KiB, not under $MAX_RSS_KB"
	fi
}

flood_refused formats-big "'format:hypervisor': 4194304 bytes, more than a format file's 65536"
flood_refused formats-many "more than 4096 formats after its hello"
flood_refused formats-bytes "more than 8 MiB of formats after its hello"
flood_refused systems "formats of more than 16 systems"
flood_refused texts "'cpustat:0': 4194304 bytes, more than the 65536"

# pages without end: --max-size ends the round; the file keeps 4 MiB of
# pages (1024 of 4 KiB) and the metadata, and is a good trace.dat
result pages
size=$(wc -c <"$T/pages.dat" 2>/dev/null || echo 0)
if [ $rc -eq 1 ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
   grep -q "^hyptrace listen: .*pages.dat: the pages reached --max-size 4194304 bytes in round 1" "$T/err"; then
	ok "pages: $(cat "$T/err")"
else
	bad "pages: exit $rc, stderr: $(head -n 3 "$T/err")"
fi
if [ "$size" -gt $((4 << 20)) ] && [ "$size" -lt $((5 << 20)) ] &&
   "$HYPTRACE" report "$T/pages.dat" >"$T/report" 2>&1 &&
   [ "$(grep -c hyp_enter "$T/report")" -eq $((1024 * 8)) ]; then
	ok "pages: $size bytes, 1024 pages of 8 hyp_enter each, hyptrace report reads it"
else
	bad "pages: trace.dat of $size bytes: $(tail -n 1 "$T/report")"
fi
if [ "$rss" -gt 0 ] && [ "$rss" -lt $MAX_RSS_KB ]; then
	ok "pages: peak resident $rss KiB"
else
	bad "pages: peak resident $rss KiB, not under $MAX_RSS_KB"
fi
if ls "$T"/pages.dat.cpu* >/dev/null 2>&1; then
	bad "pages: temporary files left: $(ls "$T"/pages.dat.cpu*)"
else
	ok "pages: no temporary file left"
fi

# a good round, to show the links are what is refused
result good
if [ $rc -eq 0 ] && [ -s "$T/good.dat" ]; then
	ok "good round: trace.dat written"
else
	bad "good round: exit $rc, stderr: $(head -n 3 "$T/err")"
fi

# the trace.dat is a link: not followed, what it points to untouched
result link
if [ $rc -eq 1 ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
   grep -q "cannot create $T/link.dat: a symbolic link, not followed" "$T/err" &&
   [ "$(cat "$T/victim")" = precious ]; then
	ok "trace.dat a link: $(cat "$T/err")"
else
	bad "trace.dat a link: exit $rc, victim '$(head -c 20 "$T/victim")', stderr: $(head -n 3 "$T/err")"
fi

# OUTPUT.cpu0 is there already, as a link: not followed, not removed
result tmp
if [ $rc -eq 1 ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
   grep -q "cannot create $T/tmp.dat.cpu0: File exists (left by a listener" "$T/err" &&
   [ "$(cat "$T/victim")" = precious ] && [ -L "$T/tmp.dat.cpu0" ]; then
	ok "OUTPUT.cpu0 a link: $(cat "$T/err")"
else
	bad "OUTPUT.cpu0 a link: exit $rc, victim '$(head -c 20 "$T/victim")', stderr: $(head -n 3 "$T/err")"
fi

# a board clock of INT64_MAX ns
result clockmax
listen_fails clockmax $rc "the board's clock says 9223372036854775807 ns" \
	"$T/clockmax.dat"

# with --no-key, so that --max-size is all that is wrong
for args in "listen -N 127.0.0.1:1 --no-key --max-size" \
	    "listen -N 127.0.0.1:1 --no-key --max-size 4X" \
	    "listen -N 127.0.0.1:1 --no-key --max-size -1" \
	    "listen -N 127.0.0.1:1 --no-key --max-size 99999999999G"; do
	usage_fails "$args"
done
if "$HYPTRACE" listen --help | grep -q "default 1G, 0 for no limit"; then
	ok "listen --help: --max-size's default"
else
	bad "listen --help says nothing of --max-size's default"
fi
finish
