#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Driver and checker of tests/boot/92-clock-align.sh.

drive HYPTRACE VTDIR OUT.dat CONSOLE.log ROUNDS LISTEN.log
    Run `hyptrace listen --virtio VTDIR -o OUT.dat --align boot`, and for
    each round: note CLOCK_BOOTTIME (h0), order start, note when the
    listener says "started" (h1); wait until the guest's console says
    "@round R written"; note the time (h2), order stop, note when the
    listener says "stopped" (h3). Print "round R h0 h1 h2 h3" lines; the
    listener's output goes to LISTEN.log.

check WINDOWS LISTEN.log REPORT.txt N
    REPORT.txt is `trace-cmd report -t` of the file. Every event must lie
    inside one round's [h0, h3]; that round's selftest ids must be its
    own (N per CPU). Its first event (a hypercall hyptrace.ko makes when
    tracing_on is written, before the agent says "started") must lie in
    [h0, h1], where it truly happened: so the file's clock is right to
    within h1 - h0 either way. Its last, the disabling hypercall's
    hyp_enter, must come after h2. One line: the verdict, or why not.
"""
import re
import subprocess
import sys
import threading
import time


def now():
    return time.clock_gettime_ns(time.CLOCK_BOOTTIME)


def drive(ht, vt, out, console, rounds, listen_log):
    p = subprocess.Popen([ht, "listen", "--virtio", vt, "-o", out,
                          "--align", "boot"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, bufsize=1)
    seen = []                   # (time, line), as the listener prints them
    cond = threading.Condition()

    def reader():
        with open(listen_log, "w") as f:
            for line in p.stdout:
                t = now()
                f.write(line)
                f.flush()
                with cond:
                    seen.append((t, line))
                    cond.notify_all()
        with cond:
            seen.append((None, None))
            cond.notify_all()

    rd = threading.Thread(target=reader, daemon=True)
    rd.start()

    def wait_line(pattern, secs=120):
        rx = re.compile(pattern)
        end = time.monotonic() + secs
        with cond:
            while True:
                for t, line in seen:
                    if line is None:
                        sys.exit("the listener ended before '%s'" % pattern)
                    if rx.search(line):
                        return t
                left = end - time.monotonic()
                if left <= 0:
                    sys.exit("no '%s' from the listener in %d s" %
                             (pattern, secs))
                cond.wait(left)

    def wait_console(pattern, secs=300):
        end = time.monotonic() + secs
        while time.monotonic() < end:
            with open(console, errors="replace") as f:
                if any(ln.startswith(pattern) for ln in f):
                    return
            time.sleep(0.1)
        sys.exit("no console line '%s' in %d s" % (pattern, secs))

    def order(cmd):
        t = now()
        p.stdin.write(cmd + "\n")
        p.stdin.flush()
        return t

    try:
        drive_rounds(p, order, wait_line, wait_console, rounds)
    except BaseException:
        p.kill()        # a failed run leaves no listener behind
        raise
    rc = p.wait(timeout=120)
    rd.join(timeout=10)     # the listener's last lines, into LISTEN.log
    if rc:
        sys.exit("hyptrace listen exited %d" % rc)


def drive_rounds(p, order, wait_line, wait_console, rounds):
    for r in range(1, rounds + 1):
        h0 = order("start")
        h1 = wait_line(r"started \(round %d\)" % r)
        wait_console("@round %d written" % r)
        h2 = order("stop")
        h3 = wait_line(r"stopped \(round %d\)" % r)
        wait_line(r"clock after round %d:" % r)
        print("round %d %d %d %d %d" % (r, h0, h1, h2, h3))
    p.stdin.write("quit\n")
    p.stdin.close()


EVENT = re.compile(r"\[(\d+)\]\s+(\d+)\.(\d{9}):\s+(\w+):\s*(.*)$")


def check(windows, listen_log, report, n):
    rounds = []
    with open(windows) as f:
        for line in f:
            w = line.split()
            rounds.append(dict(r=int(w[1]), h=[int(x) for x in w[2:6]],
                               ev=[], ids=set()))
    text = open(listen_log).read()
    m = re.search(r"timestamps on this machine's boot clock "
                  r"\(OFFSET (-?\d+) ns in the file\)", text)
    if not m:
        return False, "the listener did not say it wrote the offset"
    bound = re.search(r"clock: .* within (\d+) us", text)
    if not bound:
        return False, "the listener gave no clock summary"
    total = 0
    with open(report) as f:
        for line in f:
            e = EVENT.search(line)
            if not e:
                continue
            ts = int(e.group(2)) * 10**9 + int(e.group(3))
            total += 1
            home = [rd for rd in rounds if rd["h"][0] <= ts <= rd["h"][3]]
            if not home:
                near = min(rounds, key=lambda rd: min(abs(ts - rd["h"][0]),
                                                      abs(ts - rd["h"][3])))
                return False, ("%s at %d ns is outside every round; round "
                               "%d ran from %d to %d ns on this machine" %
                               (e.group(4), ts, near["r"], near["h"][0],
                                near["h"][3]))
            rd = home[0]
            rd["ev"].append((ts, e.group(4)))
            if e.group(4) == "selftest":
                rd["ids"].add(int(re.search(r"id=(\d+)", e.group(5))[1]))
    if not total:
        return False, "no events in the report (trace-cmd report -t)"
    starts, stops = [], []
    for rd in rounds:
        r, (h0, h1, h2, h3) = rd["r"], rd["h"]
        want = {r * 1000000 + c * 100000 + 1 + i
                for c in range(4) for i in range(n)}
        if rd["ids"] != want:
            return False, ("round %d: %d of its %d selftest events in its "
                           "window, %d others" %
                           (r, len(rd["ids"] & want), len(want),
                            len(rd["ids"] - want)))
        ev = sorted(rd["ev"])
        first, last = ev[0], ev[-1]
        if first[0] > h1:
            return False, ("round %d: its first event, %s at %d, is after "
                           "'started' came back at %d (start ordered at "
                           "%d)" % (r, first[1], first[0], h1, h0))
        if last[1] != "hyp_enter" or last[0] < h2:
            return False, ("round %d: its last event, %s at %d, is not the "
                           "disabling call's hyp_enter after the stop "
                           "order at %d" % (r, last[1], last[0], h2))
        starts.append((h1 - h0) / 1e6)
        stops.append((h3 - h2) / 1e6)
    return True, (
        "%d events over %d rounds, each inside its round on this machine's "
        "CLOCK_BOOTTIME after --align boot (trace-cmd report); each round's "
        "first event inside [start order, started]: windows %s ms, so the "
        "alignment is right to %.1f ms or better; the disabling hyp_enter "
        "inside [stop order, stopped] (%s ms); the listener's own bound "
        "%s us (OFFSET %s ns)" %
        (total, len(rounds), "/".join("%.1f" % x for x in starts),
         min(starts), "/".join("%.1f" % x for x in stops), bound[1], m[1]))


def main():
    if len(sys.argv) == 8 and sys.argv[1] == "drive":
        drive(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5],
              int(sys.argv[6]), sys.argv[7])
        return 0
    if len(sys.argv) == 6 and sys.argv[1] == "check":
        ok, why = check(sys.argv[2], sys.argv[3], sys.argv[4],
                        int(sys.argv[5]))
        print(why)
        return 0 if ok else 1
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main())
