#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# tcp-relay.py PORT: QEMU's user-mode network runs this for each connection
# the guest makes to a guestfwd=...-cmd: address (the connection is stdin
# and stdout); it joins it to 127.0.0.1:PORT, passing each direction's end
# on (a half-close stays a half-close), and exits when both are done. Only
# 127.0.0.1 is ever dialled. Nothing goes to stderr: that is the guest's
# connection too.
import os
import socket
import sys
import threading

sys.stderr = open(os.devnull, "w")


def main():
    try:
        peer = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
    except OSError:
        return 1

    def upstream():
        try:
            while True:
                data = os.read(0, 65536)
                if not data:
                    break
                peer.sendall(data)
        except OSError:
            pass
        try:
            peer.shutdown(socket.SHUT_WR)
        except OSError:
            pass

    up = threading.Thread(target=upstream, daemon=True)
    up.start()
    try:
        while True:
            data = peer.recv(65536)
            if not data:
                break
            while data:
                n = os.write(1, data)
                data = data[n:]
    except OSError:
        pass
    try:
        socket.socket(fileno=os.dup(1)).shutdown(socket.SHUT_WR)
    except OSError:
        pass
    up.join(30)
    return 0


sys.exit(main())
