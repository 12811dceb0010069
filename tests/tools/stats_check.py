#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check `hyptrace stats --json` against `trace-cmd report -t` of the same file.

t-stats.sh's independent source of truth: Debian's trace-cmd decodes the
trace.dat with its own reader (libtracecmd, libtraceevent), and this script
pairs hyp_enter with hyp_exit in its own code, by the rules of
`hyptrace stats --help`:

  an interval runs from a hyp_enter to the next hyp_exit of the same CPU,
  with the enter's reason and func_id; an enter followed by an enter, an
  enter open at a "CPU:N [... EVENTS DROPPED]" line, an enter open at the
  end, an exit with nothing open, and an exit stamped before its enter are
  unmatched, never paired.

Then it compares, per CPU and reason and over all of them: count, total,
min, max and the log2 histogram of the intervals exactly, nearest-rank
p50/p99 within the bound `hyptrace stats --help` states (1/256 of the
exact value: they come from a log-linear histogram, not the intervals),
the unmatched counts by kind, the lost-event markers and counts, the
records of every event per CPU, and the (reason, func_id) totals.
With --summary, the pair counts and EL2 time also match gen_trace's own
count (only for files where no pair straddles a loss or a foreign event).

usage: stats_check.py REPORT.txt STATS.json [--summary GEN_SUMMARY.txt]
                      [--want KEY=N ...]
  --want enter_then_enter=1 ...  also require at least N of an unmatched
                                 kind (or lost_markers, lost_unknown) over
                                 all CPUs: the scenario must exercise what
                                 it means to
Prints one line per mismatch and a last "ok: ..." or "mismatch: ..." line;
exit 0 when everything agrees.
"""
import json
import math
import re
import sys

REASONS = {"hvc": 1, "smc": 2, "psci": 3, "firmware": 4, "trap": 5,
           "psci_local": 6}
SLOT_NAMES = ["unknown", "hvc", "smc", "psci", "firmware", "trap",
              "psci_local"]
ENTER_KINDS = ["enter_then_enter", "enter_cut_by_lost", "enter_open_at_end",
               "enter_time_backwards"]
EXIT_KINDS = ["exit_no_enter", "exit_time_backwards"]
# p50/p99 may be off by 1/PCT_ERR_DIV of the exact value, no more
PCT_ERR_DIV = 256

# "  <...>--1    [002]     5.000001576: hyp_enter:     reason=trap func_id=0x8"
RECORD = re.compile(r"\[(\d+)\]\s+(\d+)\.(\d{9}):\s+([A-Za-z0-9_]+):\s*(.*)$")
DROPPED = re.compile(r"^CPU:(\d+) \[(?:(\d+) )?EVENTS DROPPED\]")
FIELD = re.compile(r"(\w+)=(\S+)")


def reason_slot(text):
    """trace-cmd prints a named reason, or 0xN for one without a name"""
    if text in REASONS:
        return REASONS[text]
    value = int(text, 0)
    return value if 1 <= value < len(SLOT_NAMES) else 0


def new_group():
    return {"durations": [], "unmatched": {k: 0 for k in ENTER_KINDS + EXIT_KINDS}}


class Trace:
    """What the report says, paired by this script's own rules"""

    def __init__(self, nr_cpus):
        self.nr_cpus = nr_cpus
        self.groups = {(c, r): new_group()
                       for c in range(nr_cpus) for r in range(len(SLOT_NAMES))}
        self.open = {}
        self.lost = {c: {"markers": 0, "events": 0, "unknown_markers": 0}
                     for c in range(nr_cpus)}
        self.records = {c: 0 for c in range(nr_cpus)}
        self.events = {}
        self.funcs = {}

    def unmatched(self, cpu, slot, kind):
        self.groups[(cpu, slot)]["unmatched"][kind] += 1

    def drop_open(self, cpu, kind):
        if cpu in self.open:
            self.unmatched(cpu, self.open.pop(cpu)[1], kind)

    def dropped(self, cpu, count):
        self.drop_open(cpu, "enter_cut_by_lost")
        self.lost[cpu]["markers"] += 1
        if count is None:
            self.lost[cpu]["unknown_markers"] += 1
        else:
            self.lost[cpu]["events"] += int(count)

    def record(self, cpu, ts, event, fields):
        self.records[cpu] += 1
        per_cpu = self.events.setdefault(event, [0] * self.nr_cpus)
        per_cpu[cpu] += 1
        if event == "hyp_enter":
            self.drop_open(cpu, "enter_then_enter")
            self.open[cpu] = (ts, reason_slot(fields["reason"]),
                              int(fields["func_id"], 16))
        elif event == "hyp_exit":
            slot = reason_slot(fields["reason"])
            if cpu not in self.open:
                self.unmatched(cpu, slot, "exit_no_enter")
                return
            start, enter_slot, func_id = self.open.pop(cpu)
            if ts < start:
                self.unmatched(cpu, enter_slot, "enter_time_backwards")
                self.unmatched(cpu, slot, "exit_time_backwards")
                return
            ns = ts - start
            self.groups[(cpu, enter_slot)]["durations"].append(ns)
            func = self.funcs.setdefault((SLOT_NAMES[enter_slot], func_id),
                                         [0, 0, 0])
            func[0] += 1
            func[1] += ns
            func[2] = max(func[2], ns)

    def finish(self):
        for cpu in list(self.open):
            self.drop_open(cpu, "enter_open_at_end")


def parse_report(path):
    trace = None
    with open(path, encoding="utf-8", errors="replace") as report:
        for line in report:
            line = line.rstrip("\n")
            if line.startswith("cpus="):
                trace = Trace(int(line[5:]))
                continue
            if trace is None:
                continue
            match = DROPPED.match(line)
            if match:
                trace.dropped(int(match.group(1)), match.group(2))
                continue
            match = RECORD.search(line)
            if match:
                cpu, secs, nsecs, event, rest = match.groups()
                trace.record(int(cpu), int(secs) * 10**9 + int(nsecs), event,
                             dict(FIELD.findall(rest)))
    if trace is None:
        sys.exit("mismatch: no cpus= line in %s" % path)
    trace.finish()
    return trace


def percentile(values, pct):
    if not values:
        return 0
    return values[max(1, math.ceil(len(values) * pct / 100)) - 1]


def expected_summary(groups):
    """The SUMMARY object, as this script computes it, of some groups"""
    durations = sorted(d for g in groups for d in g["durations"])
    unmatched = {k: sum(g["unmatched"][k] for g in groups)
                 for k in ENTER_KINDS + EXIT_KINDS}
    unmatched["enters"] = sum(unmatched[k] for k in ENTER_KINDS)
    unmatched["exits"] = sum(unmatched[k] for k in EXIT_KINDS)
    hist = {}
    for d in durations:
        hist[d.bit_length()] = hist.get(d.bit_length(), 0) + 1
    return {
        "count": len(durations),
        "total_ns": sum(durations),
        "min_ns": durations[0] if durations else 0,
        "max_ns": durations[-1] if durations else 0,
        "p50_ns": percentile(durations, 50),
        "p99_ns": percentile(durations, 99),
        "unmatched": unmatched,
        "histogram": hist,
    }


class Checker:
    def __init__(self):
        self.problems = 0
        self.checks = 0

    def same(self, what, got, want):
        self.checks += 1
        if got != want:
            self.problems += 1
            if self.problems <= 40:
                print("%s: hyptrace says %r, trace-cmd gives %r" % (what, got, want))

    def near(self, what, got, want):
        """a percentile: |got - exact| * 256 <= exact"""
        self.checks += 1
        if abs(got - want) * PCT_ERR_DIV > want:
            self.problems += 1
            if self.problems <= 40:
                print("%s: hyptrace says %r, trace-cmd gives %r, more than 1/%d off" %
                      (what, got, want, PCT_ERR_DIV))

    def summary(self, where, got, want):
        for key in ("count", "total_ns", "min_ns", "max_ns"):
            self.same("%s %s" % (where, key), got[key], want[key])
        for key in ("p50_ns", "p99_ns"):
            self.near("%s %s" % (where, key), got[key], want[key])
        for key, value in want["unmatched"].items():
            self.same("%s unmatched %s" % (where, key), got["unmatched"][key], value)
        hist = {b["bucket"]: b["count"] for b in got["histogram"]}
        self.same("%s histogram" % where, hist, want["histogram"])
        for b in got["histogram"]:
            self.same("%s bucket %d bounds" % (where, b["bucket"]),
                      (b["lo_ns"], b["hi_ns"]),
                      (0 if b["bucket"] == 0 else 1 << (b["bucket"] - 1),
                       (1 << b["bucket"]) - 1))
        if want["count"]:
            self.same("%s mean" % where, round(got["mean_ns"], 1),
                      round(want["total_ns"] / want["count"], 1))


def check_el2(chk, where, got, groups_of_slot):
    chk.summary(where + " el2", got["el2"],
                expected_summary([g for s in range(len(SLOT_NAMES)) for g in groups_of_slot(s)]))
    for slot, name in enumerate(SLOT_NAMES):
        chk.summary("%s %s" % (where, name), got["reasons"][name],
                    expected_summary(groups_of_slot(slot)))


def check(trace, stats, chk):
    chk.same("nr_cpus", stats["nr_cpus"], trace.nr_cpus)
    chk.same("percentile_rel_error", stats["percentile_rel_error"], 1 / PCT_ERR_DIV)
    chk.same("records", stats["records"], sum(trace.records.values()))
    for cpu in range(trace.nr_cpus):
        got = stats["cpus"][cpu]
        where = "cpu %d" % cpu
        chk.same(where + " cpu", got["cpu"], cpu)
        chk.same(where + " records", got["records"], trace.records[cpu])
        chk.same(where + " lost", got["lost"], trace.lost[cpu])
        check_el2(chk, where, got, lambda s, c=cpu: [trace.groups[(c, s)]])
    check_el2(chk, "all", stats["all"],
              lambda s: [trace.groups[(c, s)] for c in range(trace.nr_cpus)])
    chk.same("all lost", stats["all"]["lost"],
             {k: sum(trace.lost[c][k] for c in range(trace.nr_cpus))
              for k in ("markers", "events", "unknown_markers")})
    events = {e["name"]: e["per_cpu"] for e in stats["events"]}
    chk.same("events per CPU", events, trace.events)
    for e in stats["events"]:
        chk.same("event %s count" % e["name"], e["count"], sum(e["per_cpu"]))
    funcs = {(f["reason"], f["func_id"]): [f["count"], f["total_ns"], f["max_ns"]]
             for f in stats["functions"]["by_count"]}
    chk.same("functions (reason, func_id) -> [count, total, max]", funcs, trace.funcs)
    # gen_trace uses a handful of IDs: none beyond the table's 16384
    chk.same("functions unlisted", stats["functions"]["unlisted"],
             {"count": 0, "total_ns": 0, "max_ns": 0})
    by_count = [(f["count"], f["total_ns"]) for f in stats["functions"]["by_count"]]
    chk.same("by_count order", by_count, sorted(by_count, key=lambda x: (-x[0], -x[1])))
    by_time = [(f["total_ns"], f["count"]) for f in stats["functions"]["by_time"]]
    chk.same("by_time order", by_time, sorted(by_time, key=lambda x: (-x[0], -x[1])))
    for f in stats["functions"]["by_count"]:
        chk.same("func_id_hex", f["func_id_hex"], "0x%08x" % f["func_id"])


def check_gen_summary(path, stats, chk):
    """gen_trace's own counts of what it wrote and the file keeps"""
    per_cpu, totals = {}, {}
    with open(path, encoding="utf-8") as summary:
        for line in summary:
            words = line.split()
            if len(words) == 4 and words[0] == "cpu":
                per_cpu.setdefault(int(words[1]), {})[words[2]] = int(words[3])
            elif len(words) == 3 and words[0] == "total":
                totals[words[1]] = int(words[2])
    for cpu, got in per_cpu.items():
        mine = stats["cpus"][cpu]
        where = "cpu %d (gen_trace summary)" % cpu
        chk.same(where + " pairs", mine["el2"]["count"], got["pairs"])
        chk.same(where + " el2_ns", mine["el2"]["total_ns"], got["el2_ns"])
        chk.same(where + " events", mine["records"], got["events"])
        chk.same(where + " lost_marks", mine["lost"]["markers"], got["lost_marks"])
    chk.same("total pairs (gen_trace summary)", stats["all"]["el2"]["count"],
             totals.get("pairs"))
    chk.same("total el2_ns (gen_trace summary)", stats["all"]["el2"]["total_ns"],
             totals.get("el2_ns"))


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    trace = parse_report(argv[1])
    with open(argv[2], encoding="utf-8") as f:
        stats = json.load(f)
    chk = Checker()
    check(trace, stats, chk)
    args = argv[3:]
    while args:
        if args[0] == "--summary" and len(args) > 1:
            check_gen_summary(args[1], stats, chk)
            args = args[2:]
        elif args[0] == "--want" and len(args) > 1:
            key, _, value = args[1].partition("=")
            if key == "lost_markers":
                have = stats["all"]["lost"]["markers"]
            elif key == "lost_unknown":
                have = stats["all"]["lost"]["unknown_markers"]
            else:
                have = stats["all"]["el2"]["unmatched"][key]
            chk.checks += 1
            if have < int(value):
                chk.problems += 1
                print("the scenario has only %d %s, wants %s" % (have, key, value))
            args = args[2:]
        else:
            sys.exit("stats_check.py: bad argument %r" % args[0])
    intervals = stats["all"]["el2"]["count"]
    unmatched = stats["all"]["el2"]["unmatched"]
    if chk.problems:
        print("mismatch: %d of %d checks differ" % (chk.problems, chk.checks))
        return 1
    print("ok: %d checks, %d intervals, %d+%d unmatched, %d lost markers" %
          (chk.checks, intervals, unmatched["enters"], unmatched["exits"],
           stats["all"]["lost"]["markers"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
