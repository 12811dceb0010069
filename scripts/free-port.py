#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# free-port.py: a TCP port of 127.0.0.1 that nobody listens on just now,
# for a listener the caller starts next (the boot tests, the tool tests
# and the bench call it through their free_port). Only 127.0.0.1 is used.
import socket

s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
