#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# t-listen-net.sh: `hyptrace listen -N 127.0.0.1:PORT --key FILE` against
# a fake `hyptrace agent -N` (python3 on 127.0.0.1 only; its challenge
# and MACs from Python's hmac module, so that they are checked against a
# second implementation) that refuses it as busy, frames a page wrong, or
# goes away: each time exactly one line on stderr ("hyptrace listen:
# ..."), exit 1, no crash, no trace.dat. The key's handshake: an agent
# that says the key is wrong, one that cannot prove it has the key, one
# without a key, one older than the handshake; the listener's keep-alive
# is "ping", an order, not an empty line. Also: nobody listening, -N
# without a port or without --key / --no-key (exit 2), for listen and
# agent; key files open to others refused; hyptrace keygen.
#
# Run by run_tests.sh (BUILD, HYPTRACE, GEN_TRACE set). Reports in KTAP
# (tests/include/ktap.sh).

. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null 2>&1 || die "python3 not found"

cat >"$T/fakeagent.py" <<'PY'
import hashlib, hmac, os, socket, sys
portfile, case, keyfile = sys.argv[1], sys.argv[2], sys.argv[3]
key = open(keyfile, "rb").read()
if key.endswith(b"\n"):
    key = key[:-1]
srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(1)
open(portfile + ".tmp", "w").write(str(srv.getsockname()[1]))
os.rename(portfile + ".tmp", portfile)
c = srv.accept()[0]
def msg(name, payload):
    c.sendall(b"%s %d\n" % (name, len(payload)) + payload)
def line():
    b = b""
    while not b.endswith(b"\n"):
        d = c.recv(1)
        if not d:
            sys.exit("the listener went away")
        b += d
    return b
def mac(label, na, nc):
    return hmac.new(key, label + na + nc, hashlib.sha256).hexdigest().encode()
# the handshake (vtproto.h), unless the case is about it
na = os.urandom(32)
if case == "nokey":
    msg(b"challenge", b"version=3 nonce=none")
elif case not in ("busy", "old"):
    msg(b"challenge", b"version=3 nonce=" + na.hex().encode())
    w, nc, m = line().split()
    nc = bytes.fromhex(nc.decode())
    if w != b"auth" or not hmac.compare_digest(m, mac(b"hyptrace-vt3 client\n", na, nc)):
        msg(b"error", b"wrong key")
    elif case == "fake":
        msg(b"auth_ok", b"00" * 32)
    else:
        msg(b"auth_ok", mac(b"hyptrace-vt3 agent\n", na, nc))
hello = b"version=3 cpus=2 page_size=4096"
if case == "old":
    msg(b"hello", b"version=2 cpus=2 page_size=4096")
elif case == "ping":
    # the first thing after the handshake, within 2 s or so, is "ping"
    msg(b"error", b"the keep-alive is '" + line().replace(b"\n", b"NL") + b"'")
elif case == "busy":
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

umask 077
if "$HYPTRACE" keygen "$T/key" >"$T/out" 2>&1 &&
   [ "$(stat -c %a "$T/key")" = 600 ] && [ "$(wc -c <"$T/key")" = 65 ]; then
	ok "keygen: $(cat "$T/out")"
else
	bad "keygen: $(cat "$T/out")"
fi
if one_line_exit "$T/err" 1 "$HYPTRACE" keygen "$T/key" &&
   grep -q "File exists" "$T/err"; then
	ok "keygen over a file: $(cat "$T/err")"
else
	bad "keygen over a file: $(head -n 2 "$T/err")"
fi
"$HYPTRACE" keygen "$T/key2" >/dev/null 2>&1

# net_case CASE WANT [KEY]: the listener (with KEY, default the agent's)
# against the fake agent doing CASE
net_case() {
	pf=$T/port-$1
	start_fake "$pf" python3 "$T/fakeagent.py" "$pf" "$1" "$T/key"
	timeout 30 "$HYPTRACE" listen -N "127.0.0.1:$(cat "$pf")" \
		--key "${3:-$T/key}" -o "$T/$1.dat" </dev/null >"$T/out" 2>"$T/err"
	rc=$?
	stop_fake
	listen_fails "$1" $rc "$2" "$T/$1.dat"
}

net_case wrongkey "the agent says: wrong key" "$T/key2"
net_case fake "the agent did not prove it has the key"
net_case nokey "the agent runs without a key (agent --no-key)"
net_case old "the agent sent 'hello' where its challenge was due"
net_case ping "the agent says: the keep-alive is 'pingNL'"

net_case busy "the agent says: another client is being served"
net_case cpu "a page of CPU 2, but the agent has 2 CPUs"
net_case size "a page of CPU 1 of 100 bytes, not 4096"
net_case early "a page before the agent's hello"
net_case corrupt "CPU 0's stream, page 0"
net_case junk "garbage on the control port"
net_case gone "closed (the agent gone?) in the middle of a round"

# nobody there: a free port, closed again
port=$(free_port)
if one_line_exit "$T/err" 1 "$HYPTRACE" listen -N "127.0.0.1:$port" --key "$T/key" -o "$T/x.dat" &&
   grep -q "cannot connect to 127.0.0.1:$port: Connection refused" "$T/err"; then
	ok "nobody there: $(cat "$T/err")"
else
	bad "nobody there: $(head -n 2 "$T/err")"
fi

# a key file others may read, or through a symlink: refused, one line
chmod 640 "$T/key2"
ln -s "$T/key" "$T/keylink"
for args in "listen -N 127.0.0.1:1 --key $T/key2" "agent -N 127.0.0.1:1 --key $T/key2" \
	    "listen -N 127.0.0.1:1 --key $T/keylink"; do
	# shellcheck disable=SC2086 # split on purpose
	if one_line_exit "$T/err" 1 "$HYPTRACE" $args &&
	   grep -q "^hyptrace [a-z]*: key file .*\(chmod 600\|symlink\)" "$T/err"; then
		ok "'$args': $(cat "$T/err")"
	else
		bad "'$args': $(head -n 2 "$T/err")"
	fi
done

K="--key $T/key"
for args in "agent -N 127.0.0.1:1 --idle-s soon $K" "agent -N 4000 $K" "agent -N 127.0.0.1:0 $K" \
	    "agent -N 127.0.0.1:1 --start $K" "agent -N 127.0.0.1:1" "agent $K" "agent --no-key" \
	    "agent -N 127.0.0.1:1 --no-key $K" \
	    "listen -N" "listen -N 127.0.0.1:1" "listen --virtio $T $K" "listen -N 127.0.0.1:1 --no-key $K" \
	    "keygen" "keygen $T/a $T/b"; do
	usage_fails "$args"
done
finish
