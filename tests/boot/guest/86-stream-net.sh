#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of 86-stream-net.sh: the network up; hyptrace record -N
# of the workload (N per CPU, workload.sh) to 10.0.2.100:PORT with a local
# copy, its status (@rc_stream) and /proc/uptime after and before it
# (@stream_secs); the one-line errors of a recorder sent to DEAD_PORT
# (@dead lines) and to an address without a port (@badaddr lines); then
# local.dat sent out in base64 between "@B64 local.dat" and "@END
# local.dat".
#
# usage: 86-stream-net.sh N PORT DEAD_PORT (with /root/write_events,
#        /root/workload.sh)
n=$1
port=$2
dead=$3
cd /tmp || exit 1
ifconfig lo 127.0.0.1 up
ifconfig eth0 10.0.2.15 netmask 255.255.255.0 up || exit 1
start=$(cut -d" " -f1 /proc/uptime)
hyptrace record -N "10.0.2.100:$port" -o local.dat -b 64 -- sh /root/workload.sh "$n"
echo "@rc_stream=$?"
echo "@stream_secs=$(cut -d" " -f1 /proc/uptime) $start"
hyptrace record -N "10.0.2.100:$dead" -e selftest -- true 2>&1 | sed "s/^/@dead /"
hyptrace record -N 10.0.2.100 -e selftest -- true 2>&1 | sed "s/^/@badaddr /"
echo "@B64 local.dat"; base64 local.dat 2> /dev/null || true; echo "@END local.dat $(wc -c 2> /dev/null < local.dat || echo none)"
