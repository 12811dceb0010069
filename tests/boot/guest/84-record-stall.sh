#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The command 84-record.sh's flight and keep recordings run: the recorder
# (our parent) stopped, LOSSN selftest events written on CPU 1 meanwhile
# (ids 1 on), the recorder continued.
#
# usage: 84-record-stall.sh LOSSN (run by hyptrace record; with
#        /root/write_events)
lossn=$1
kill -STOP $PPID
# kill returns before the recorder has stopped: one of its threads may be
# taking a page meanwhile. A thread shows state T only once it has stopped
# on its way back to user space, so wait for every one of them to show it.
while grep -qv "^[0-9]* ([^)]*) T " /proc/$PPID/task/*/stat; do :; done
/root/write_events 1 1 "$lossn"
kill -CONT $PPID
