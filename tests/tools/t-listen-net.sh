#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t-listen-net.sh: `hyptrace listen -N 127.0.0.1:PORT` against a fake
# `hyptrace agent -N` (python3 on 127.0.0.1 only) that refuses it as busy,
# frames a page wrong, or goes away: each time exactly one line on stderr
# ("hyptrace listen: ..."), exit 1, no crash, no trace.dat. Also: nobody
# listening, and -N without a port (exit 2), for listen and agent.
#
# Run by run_tests.sh (BUILD, HYPTRACE, GEN_TRACE set). Last line PASS/FAIL.

. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null 2>&1 || die "python3 not found"

cat >"$T/fakeagent.py" <<'PY'
import os, socket, sys
portfile, case = sys.argv[1], sys.argv[2]
srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(1)
open(portfile + ".tmp", "w").write(str(srv.getsockname()[1]))
os.rename(portfile + ".tmp", portfile)
c = srv.accept()[0]
def msg(name, payload):
    c.sendall(b"%s %d\n" % (name, len(payload)) + payload)
hello = b"version=2 cpus=2 page_size=4096"
if case == "busy":
    msg(b"error", b"another client is being served: one at a time")
elif case == "cpu":
    msg(b"hello", hello); msg(b"page:2", b"\0" * 4096)
elif case == "size":
    msg(b"hello", hello); msg(b"page:1", b"\0" * 100)
elif case == "early":
    msg(b"page:0", b"\0" * 4096)
elif case == "corrupt":
    msg(b"hello", hello); msg(b"page:0", b"\xff" * 4096)
elif case == "junk":
    c.sendall(bytes(range(256)) * 4)
elif case == "gone":
    msg(b"hello", hello); msg(b"started", b"1"); c.close()
try:
    c.settimeout(10)
    while c.recv(4096):
        pass
except Exception:
    pass
PY

net_case() {
	pf=$T/port-$1
	start_fake "$pf" python3 "$T/fakeagent.py" "$pf" "$1"
	timeout 30 "$HYPTRACE" listen -N "127.0.0.1:$(cat "$pf")" \
		-o "$T/$1.dat" </dev/null >"$T/out" 2>"$T/err"
	rc=$?
	stop_fake
	listen_fails "$1" $rc "$2" "$T/$1.dat"
}

net_case busy "the agent says: another client is being served"
net_case cpu "a page of CPU 2, but the agent has 2 CPUs"
net_case size "a page of CPU 1 of 100 bytes, not 4096"
net_case early "a page before the agent's hello"
net_case corrupt "CPU 0's stream, page 0"
net_case junk "garbage on the control port"
net_case gone "closed (the agent gone?) in the middle of a round"

# nobody there: a free port, closed again
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
if one_line_exit "$T/err" 1 "$HYPTRACE" listen -N "127.0.0.1:$port" -o "$T/x.dat" &&
   grep -q "cannot connect to 127.0.0.1:$port: Connection refused" "$T/err"; then
	ok "nobody there: $(cat "$T/err")"
else
	bad "nobody there: $(head -n 2 "$T/err")"
fi

for args in "agent -N 127.0.0.1:1 --idle-s soon" "agent -N 4000" "agent -N 127.0.0.1:0" "agent -N 127.0.0.1:1 --start" \
	    "listen -N"; do
	usage_fails "$args"
done
finish
