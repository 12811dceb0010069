#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Where the hypervisor's boot (bench row 5d) spends its instructions.

Reads QEMU's log of a boot run with
    -d exec,in_asm,nochain -dfilter 0x40200000+0x200000 -D LOG
(every translation block the hypervisor's region executes, and what each
holds) and prints the instructions per function of hyptrace.elf, up to
the first trap from a lower EL (Linux is running by then). The region's
address is where qemu-run.sh loads the hypervisor on virt; it runs with
VA = PA. See bench/README.md, "Where the boot goes".

usage: bench/boot_profile.py LOG build/hyp/hyptrace.elf [LINES]
"""
import bisect
import collections
import subprocess
import sys

BASE = 0x40200000
LOWER_EL_VECTORS = (0x400, 0x800)	# offsets in VBAR_EL2's table


def main():
    log, elf = sys.argv[1], sys.argv[2]
    lines = int(sys.argv[3]) if len(sys.argv) > 3 else 30
    syms = []
    nm = subprocess.run(['nm', '-n', elf], capture_output=True, text=True,
                        check=True).stdout
    for line in nm.splitlines():
        p = line.split()
        if len(p) == 3 and p[1] in 'tTwW':
            syms.append((int(p[0], 16), p[2]))
    addrs = [a for a, _ in syms]
    vec = BASE + next(a for a, n in syms if n == 'hyp_vectors')
    size, counts, total = {}, collections.Counter(), 0
    cur, n = None, 0
    for line in open(log, errors='replace'):
        if line.startswith('0x'):		# an instruction of a new block
            if cur is None:
                cur, n = int(line.split(':')[0], 16), 0
            n += 1
        elif line.startswith('Trace'):		# a block executed
            if cur is not None:
                size[cur], cur = n, None
            pc = int(line.split('/')[1], 16)
            if vec + LOWER_EL_VECTORS[0] <= pc < vec + LOWER_EL_VECTORS[1]:
                break
            counts[pc] += size.get(pc, 1)
            total += size.get(pc, 1)
        elif cur is not None and not line.strip('-\n'):
            size[cur], cur = n, None
    per_fn = collections.Counter()
    for pc, c in counts.items():
        i = bisect.bisect_right(addrs, pc - BASE) - 1
        per_fn[syms[i][1] if i >= 0 else '?'] += c
    print(f'{total:10d} instructions to the first lower-EL trap')
    for fn, c in per_fn.most_common(lines):
        print(f'{c:10d} {fn}')


if __name__ == '__main__':
    main()
