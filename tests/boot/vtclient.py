#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A client of `hyptrace agent -N` for tests/boot/91-agent-net.sh, with the
key's handshake (tools/hyptrace/include/hyptrace/vtproto.h) done with Python's hmac, not
the tool's code, so that the two implementations must agree.

As a module: handshake(sock, key) and read_msg(sock) for the test's own
clients. As a program: vtclient.py PORT KEYFILE MODE [FILE], one client on
127.0.0.1:PORT that must end as MODE says (exit 0) or says why not (exit 1):
  garbage    answers with the key, then sends garbage: one "error"
             (unknown order), closed
  newlines   answers with the key, then only empty lines: dropped for
             --idle-s with an "error" (no order)
  wrongkey   answers with the key in FILE: one "error" (wrong key)
  order      sends the order 1 instead of an answer: one "error"
  emptyline  sends only empty lines instead of an answer: one "error"
  replay     sends the answer line recorded in FILE (of an earlier
             connection): one "error" (wrong key)
  silent     sends nothing: one "error" (no answer in time)
Each refused client must get the challenge, then exactly one "error"
message and the end of the connection: nothing of the trace.
"""
import hashlib
import hmac
import os
import select
import socket
import sys
import time


def load_key(path):
    k = open(path, "rb").read()
    return k[:-1] if k.endswith(b"\n") else k


def recv_exact(s, n):
    b = b""
    while len(b) < n:
        d = s.recv(n - len(b))
        if not d:
            raise EOFError("closed inside a message")
        b += d
    return b


def read_msg(s):
    """The next message, (name, payload), read exactly; None at the end"""
    head = b""
    while not head.endswith(b"\n"):
        d = s.recv(1)
        if not d:
            if head:
                raise EOFError("closed inside a header")
            return None
        head += d
    name, n = head.split()
    return name.decode(), recv_exact(s, int(n))


def nonce(payload):
    p = payload.decode()
    if not p.startswith("version=3 nonce="):
        raise ValueError("not a challenge: %r" % p)
    return bytes.fromhex(p.split("nonce=")[1])


def answer(key, na):
    nc = os.urandom(32)
    mac = hmac.new(key, b"hyptrace-vt3 client\n" + na + nc, hashlib.sha256)
    return nc, b"auth %s %s\n" % (nc.hex().encode(), mac.hexdigest().encode())


def challenge(s):
    m = read_msg(s)
    if not m or m[0] != "challenge":
        raise ValueError("no challenge first: %r" % (m,))
    return nonce(m[1])


def handshake(s, key):
    """Answer the challenge with @key and check the agent's proof"""
    na = challenge(s)
    nc, line = answer(key, na)
    s.sendall(line)
    m = read_msg(s)
    want = hmac.new(key, b"hyptrace-vt3 agent\n" + na + nc,
                    hashlib.sha256).hexdigest().encode()
    if not m or m[0] != "auth_ok" or not hmac.compare_digest(m[1], want):
        raise ValueError("the agent did not take the key: %r" % (m,))
    return line


def rest(s, keep_sending=None):
    """Every message until the agent closes; @keep_sending every 0.5 s
    until the first byte comes back (then the agent is done with us)"""
    out = []
    if keep_sending:
        while not select.select([s], [], [], 0.5)[0]:
            s.sendall(keep_sending)
    s.settimeout(30)
    while True:
        m = read_msg(s)
        if m is None:
            return out
        out.append(m)


def main():
    port, key, mode = int(sys.argv[1]), load_key(sys.argv[2]), sys.argv[3]
    t = time.time()
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    keep = None
    if mode in ("garbage", "newlines"):
        handshake(s, key)
        if mode == "garbage":
            s.sendall(b"bogus\x01order\n")
        else:
            keep = b"\n"
            s.sendall(keep)
        want = "unknown order" if mode == "garbage" else "no order from the client in 5 s"
    else:
        na = challenge(s)
        if mode == "wrongkey":
            s.sendall(answer(load_key(sys.argv[4]), na)[1])
            want = "wrong key"
        elif mode == "order":
            s.sendall(b"1\n")
            want = "wants the key first"
        elif mode == "emptyline":
            keep = b"\n"
            s.sendall(keep)
            want = "wants the key first"
        elif mode == "replay":
            s.sendall(open(sys.argv[4], "rb").read())
            want = "wrong key"
        elif mode == "silent":
            want = "no answer to the challenge in time"
        else:
            sys.exit("unknown mode " + mode)
    got = rest(s, keep)
    print("%s: %.1f s: %s" % (mode, time.time() - t,
                              " ".join("%s(%s)" % (n, p.decode(errors="replace"))
                                       for n, p in got)))
    if len(got) != 1 or got[0][0] != "error" or want.encode() not in got[0][1]:
        print("want one error message with '%s'" % want)
        sys.exit(1)


if __name__ == "__main__":
    main()
