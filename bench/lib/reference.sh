# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
#
# The reference figures and targets of bench/run.sh's table, its "target /
# reference" column, in one place. The targets are issue 5's, and issue
# 26's for 1d, 3c and 5d; the pKVM
# figures come from ../shared/build-and-boot.md §5 (pKVM's own
# "hypervisor" remote, Linux 7.2.11, the same method) and the "test"
# figures from the kernel's test remote there. None is measured in a run:
# change them here when the reference is measured again.
# shellcheck disable=SC2034 # read by bench/run.sh, which sources this

# 1a-1d: write_event round trips, and the cost of one traced event
REF_1A="pKVM 1,547; test 1,490"
REF_1B="pKVM 1,673; test 1,687"
REF_1C="pKVM 1,949"
REF_1D="≤ 60 (pKVM 126; ~134)"
# 3c: the price of tracing one trap (two events); 3d: one disabled site
REF_3C="≤ 80"
REF_3D="≤ 3"
# 4a, 4c: the hypervisor's remote drains at least as fast as the test one
REF_DRAIN_PIPE="≥ test remote"
# 4e, 4i: hyptrace record drains at least this many times 4c's (4h's) rate
REF_RECORD_FACTOR=5
# 5a: the hypervisor image
REF_5A="≤ 64 KiB"
# 5d: instructions from the hypervisor's entry to Linux's
REF_5D="≤ 1,000,000"
# 6: the host writer, instructions per event
REF_6="≤ 40"
# 8b: what hyptrace stats must show
REF_8B="memory not growing with the trace"
# 7a-7c: what the proof runs must show
REF_7A="unexpected 0, clobbered 0; image sum and canary unchanged"
REF_7B="unexpected 0, clobbered 0; no oops"
REF_7C="guard intact, sum same, no oops"
