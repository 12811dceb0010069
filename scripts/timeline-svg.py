#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
A timeline of a trace's time in EL2, per CPU, as an SVG picture: the
README's picture (scripts/doc-picture.sh makes the recording and calls
this). Reads `hyptrace report FILE` on standard input, pairs each CPU's
hyp_enter with its next hyp_exit as stats does, and draws each interval
coloured by the enter's reason, at least 2 pixels wide so that a
microsecond still shows at this scale; selftest events are ticks.

usage: hyptrace report trace.dat | timeline-svg.py TITLE > timeline.svg
"""
import re
import sys

COLOURS = {"hvc": "#4e79a7", "smc": "#f28e2b", "psci": "#59a14f",
           "firmware": "#e15759", "trap": "#b07aa1"}
LINE = re.compile(r"^\[(\d+)\]\s+(\d+\.\d+): (\w+)(?: reason=(\w+))?")
WIDTH, LEFT, RIGHT, TOP, LANE = 900, 70, 40, 40, 34


def parse(lines):
    """Intervals (cpu, start, end, reason) and ticks (cpu, time)."""
    open_enter, intervals, ticks = {}, [], []
    for line in lines:
        m = LINE.match(line)
        if not m:
            continue
        cpu, ts, name, reason = int(m[1]), float(m[2]), m[3], m[4]
        if name == "hyp_enter":
            open_enter[cpu] = (ts, reason)
        elif name == "hyp_exit" and cpu in open_enter:
            start, why = open_enter.pop(cpu)
            intervals.append((cpu, start, ts, why))
        elif name == "selftest":
            ticks.append((cpu, ts))
    return intervals, ticks


def svg(title, intervals, ticks):
    times = [t for i in intervals for t in i[1:3]] + [t for _, t in ticks]
    if not times:
        sys.exit("timeline-svg.py: no hyp_enter/hyp_exit pairs on stdin")
    cpus = sorted({i[0] for i in intervals} | {c for c, _ in ticks})
    t0, t1 = min(times), max(times)
    span = (t1 - t0) or 1e-6
    plot = WIDTH - LEFT - RIGHT
    height = TOP + LANE * len(cpus) + 60
    x = lambda t: LEFT + (t - t0) / span * plot
    y = {c: TOP + LANE * i for i, c in enumerate(cpus)}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" '
           f'height="{height}" font-family="sans-serif" font-size="12">',
           f'<rect width="{WIDTH}" height="{height}" fill="white"/>',
           f'<text x="{LEFT}" y="20" font-size="14">{title}</text>']
    for c in cpus:
        out.append(f'<text x="10" y="{y[c] + 20}">CPU {c}</text>')
        out.append(f'<rect x="{LEFT}" y="{y[c] + 6}" width="{plot}" '
                   f'height="20" fill="#f4f4f4"/>')
    for cpu, start, end, why in intervals:
        w = max(x(end) - x(start), 2)
        out.append(f'<rect x="{x(start):.1f}" y="{y[cpu] + 6}" '
                   f'width="{w:.1f}" height="20" '
                   f'fill="{COLOURS.get(why, "#999")}"><title>{why} '
                   f'{(end - start) * 1e6:.3f} us</title></rect>')
    for cpu, ts in ticks:
        out.append(f'<line x1="{x(ts):.1f}" x2="{x(ts):.1f}" y1="{y[cpu] + 2}"'
                   f' y2="{y[cpu] + 30}" stroke="black"/>')
    axis = TOP + LANE * len(cpus) + 10
    for i in range(6):
        t = t0 + span * i / 5
        out.append(f'<text x="{x(t):.1f}" y="{axis + 5}" '
                   f'text-anchor="middle">{t:.3f} s</text>')
    legend = list(COLOURS.items()) + [("selftest event", "black")]
    for i, (name, colour) in enumerate(legend):
        lx = LEFT + i * 130
        out.append(f'<rect x="{lx}" y="{axis + 20}" width="12" height="12" '
                   f'fill="{colour}"/>')
        out.append(f'<text x="{lx + 16}" y="{axis + 31}">{name}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    intervals, ticks = parse(sys.stdin)
    sys.stdout.write(svg(sys.argv[1], intervals, ticks))


if __name__ == "__main__":
    main()
