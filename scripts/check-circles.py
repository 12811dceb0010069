#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Find files that call each other in circles, from the objects' symbols.

    scripts/check-circles.py [--info] [--nm NM] [--strip DIR] OBJ|DIR...

Every object (a .o, every .o under a directory, or a .a's members) gives `nm` its defined and undefined global symbols.  File A
depends on file B when A uses a symbol B defines.  A circle is a set of
two or more files that reach one another (a strongly connected component
of that graph); each is printed with one path round it and the symbols
that make each step, so that the reader knows which call to move.

Exit status: 0 no circle, 1 one or more circles (0 with --info, which
only prints: for trees other people are restructuring), 2 bad usage or
an nm failure.  Symbols defined twice (weak and strong, say) count for
every file that defines them; symbols no object defines (libc) are not
edges.
"""
import argparse
import os
import subprocess
import sys


def objects(paths):
    """Every .o and .a named, and every .o under a named directory
    (not its archives, whose members are those .o again), sorted; the
    kernel's generated *.mod.o are not source files."""
    found = []
    for path in paths:
        if os.path.isdir(path):
            for root, _, files in os.walk(path):
                found += [os.path.join(root, f) for f in files
                          if f.endswith('.o') and not f.endswith('.mod.o')]
        else:
            found.append(path)
    return sorted(set(found))


def symbols(nm, path, strip):
    """{file: (defined, undefined)} for one object or archive."""
    out = subprocess.run([nm, '-A', '-g', '-P', path], capture_output=True,
                         text=True, check=False)
    if out.returncode:
        print(f'check-circles: {nm} {path}: {out.stderr.strip()}',
              file=sys.stderr)
        sys.exit(2)
    table = {}
    for line in out.stdout.splitlines():
        # POSIX format: "file.o: name T value size", "lib.a[member.o]: ..."
        where, _, rest = line.rpartition(': ')
        fields = rest.split()
        if not where or len(fields) < 2:
            continue
        name, kind = fields[0], fields[1]
        if where.endswith(']') and '[' in where:
            where = where[where.rindex('[') + 1:-1]
        if where.startswith(strip):
            where = where[len(strip):]
        defined, undefined = table.setdefault(where, (set(), set()))
        # U: used here; w/v: a weak reference is a use, not a definition
        if kind in ('U', 'w', 'v'):
            undefined.add(name)
        else:
            defined.add(name)
    return table


def graph(table):
    """{file: {file it uses: [symbols]}}"""
    owner = {}
    for name, (defined, _) in table.items():
        for sym in defined:
            owner.setdefault(sym, set()).add(name)
    edges = {name: {} for name in table}
    for name, (defined, undefined) in table.items():
        for sym in undefined - defined:
            for other in owner.get(sym, ()):
                if other != name:
                    edges[name].setdefault(other, []).append(sym)
    return edges


def circles(edges):
    """The strongly connected components of two or more files (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    sys.setrecursionlimit(10000 + 2 * len(edges))

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            part = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                part.append(top)
                if top == node:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def one_round(edges, part):
    """A shortest path from the first file of @part back to itself."""
    start, inside = part[0], set(part)
    prev, queue = {start: None}, [start]
    for node in queue:
        for nxt in sorted(edges[node]):
            if nxt not in inside:
                continue
            if nxt == start:
                path = [node]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return [start] + path[::-1][1:] + [start]
            if nxt not in prev:
                prev[nxt] = node
                queue.append(nxt)
    return [start]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--info', action='store_true',
                    help='print the circles but exit 0')
    ap.add_argument('--nm', default=os.environ.get('NM', 'nm'))
    ap.add_argument('--strip', default='',
                    help='prefix to take off the file names printed')
    ap.add_argument('--name', default='',
                    help='what the objects are, for the summary line')
    ap.add_argument('paths', nargs='+')
    args = ap.parse_args()

    table = {}
    objs = objects(args.paths)
    if not objs:
        print('check-circles: no objects under ' + ' '.join(args.paths),
              file=sys.stderr)
        return 2
    for path in objs:
        table.update(symbols(args.nm, path, args.strip))
    edges = graph(table)
    found = circles(edges)
    name = args.name or ' '.join(args.paths)
    for part in found:
        print(f'circle of {len(part)} files: {" ".join(part)}')
        path = one_round(edges, part)
        for a, b in zip(path, path[1:]):
            syms = sorted(edges[a][b])
            more = f' (+{len(syms) - 3})' if len(syms) > 3 else ''
            print(f'  {a} -> {b}: {", ".join(syms[:3])}{more}')
    print(f'check-circles: {name}: {len(table)} files, '
          f'{len(found)} circle(s)' + (' (information only)'
                                       if args.info and found else ''))
    return 1 if found and not args.info else 0


if __name__ == '__main__':
    sys.exit(main())
