#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t-listen.sh: `hyptrace listen --virtio DIR` against a fake QEMU (UNIX
# sockets served by python3, as QEMU's chardevs serve them) that says the
# wrong things on agent-ctl-path (a malformed clock_now among them) or
# sends a bad page on trace-path-cpu0:
# each time exactly one line on stderr ("hyptrace listen: ..."), exit 1,
# no crash, no trace.dat. Also: no sockets at all, no metadata at quit,
# and the agent's bad command line.
#
# Run by run_tests.sh (BUILD, HYPTRACE, GEN_TRACE set). Reports in KTAP
# (tests/include/ktap.sh).

. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null 2>&1 || die "python3 not found"

cat >"$T/fakeqemu.py" <<'EOF'
import os, socket, sys, time
d, case = sys.argv[1], sys.argv[2]
names = ["agent-ctl-path", "trace-path-cpu0", "trace-path-cpu1"]
srv = {}
for n in names:
    s = socket.socket(socket.AF_UNIX)
    s.bind(os.path.join(d, n))
    s.listen(1)
    srv[n] = s
open(os.path.join(d, "ready"), "w").close()
conn = {n: srv[n].accept()[0] for n in names}
ctl, cpu0 = conn["agent-ctl-path"], conn["trace-path-cpu0"]
hello = b"version=3 cpus=2 page_size=4096"
def msg(name, payload):
    ctl.sendall(b"%s %d\n" % (name, len(payload)) + payload)
if case == "garbage":
    ctl.sendall(bytes(range(256)) * 4)
elif case == "badlen":
    ctl.sendall(b"hello 99999999999999999999\n")
elif case == "early":
    msg(b"started", b"1")
elif case == "badhello":
    msg(b"hello", b"version=3 cpus=two")
elif case == "version":
    msg(b"hello", b"version=9 cpus=2 page_size=4096")
elif case == "cpus":
    msg(b"hello", b"version=3 cpus=9 page_size=4096")
elif case == "unknown":
    msg(b"hello", hello); msg(b"frobnicate", b"")
elif case == "clock":
    msg(b"hello", hello); msg(b"clock_now", b"boot 12x")
elif case == "stopped":
    msg(b"hello", hello); msg(b"stopped", b"1\ncpu 0 sent lots\n")
elif case == "corrupt":
    msg(b"hello", hello); time.sleep(0.3); cpu0.sendall(b"\xff" * 4096)
elif case == "short":
    msg(b"hello", hello); time.sleep(0.3); cpu0.sendall(b"\0" * 100); cpu0.close()
elif case == "closed":
    ctl.close()
# wait for the listener to go
try:
    ctl.settimeout(10)
    while ctl.recv(4096):
        pass
except Exception:
    pass
EOF

# listen_case CASE WANT: the listener, against the fake, exits 1 with one
# line on stderr matching WANT, and leaves no trace.dat
listen_case() {
	d=$T/vt-$1
	mkdir -p "$d"
	start_fake "$d/ready" python3 "$T/fakeqemu.py" "$d" "$1"
	timeout 30 "$HYPTRACE" listen --virtio "$d" -o "$T/$1.dat" \
		</dev/null >"$T/out" 2>"$T/err"
	rc=$?
	stop_fake
	listen_fails "$1" $rc "$2" "$T/$1.dat"
}

listen_case garbage "garbage on the control port"
listen_case badlen "bad length"
listen_case early "before the agent's hello"
listen_case badhello "hello is not one"
listen_case version "version 9"
listen_case cpus "has 9 CPUs"
listen_case unknown "unknown control message 'frobnicate'"
listen_case stopped "bad line"
listen_case clock "'clock_now': bad time '12x'"
listen_case corrupt "CPU 0's stream, page 0"
listen_case short "ended inside a page"
listen_case closed "closed"

# no sockets
"$HYPTRACE" listen --virtio "$T/nowhere" </dev/null >"$T/out" 2>"$T/err"
rc=$?
if [ $rc -eq 1 ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
   grep -q "cannot connect to $T/nowhere/agent-ctl-path" "$T/err"; then
	ok "no sockets: $(cat "$T/err")"
else
	bad "no sockets: exit $rc, stderr: $(head -n 3 "$T/err")"
fi

# quit before any metadata came: nothing to write
d=$T/vt-quiet
mkdir -p "$d"
start_fake "$d/ready" python3 "$T/fakeqemu.py" "$d" quiet
echo quit | timeout 30 "$HYPTRACE" listen --virtio "$d" -o "$T/quiet.dat" \
	>"$T/out" 2>"$T/err"
rc=$?
stop_fake
listen_fails "quit without metadata" $rc "no metadata from the agent" "$T/quiet.dat"

# command lines
for args in "listen" "listen --virtio" "listen --virtio d extra" \
	    "listen --virtio d --align tsc" \
	    "agent --stall-ms soon" "agent -b 0" "agent extra"; do
	usage_fails "$args"
done
for sub in agent listen; do
	if "$HYPTRACE" $sub --help | grep -q "^usage: hyptrace $sub"; then
		ok "$sub --help"
	else
		bad "$sub --help"
	fi
done
finish
