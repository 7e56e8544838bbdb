#!/usr/bin/env python3
"""nio-top's account of each side's time against perf record's of the same run.

waits-perf.py REASONS EXPORT SCRIPT STRATEGY

REASONS is `test-metric --print-man-reasons` (the reason table as nio-top(1)
lists it), EXPORT the run's export, SCRIPT `perf script --show-switch-events
-F comm,tid,time,event,ip,sym,trace` of `perf record -e context-switches -c 1
-g --switch-events -k mono -e syscalls:sys_enter_ioctl` attached to it.
nio-top's sampled intervals are where its main thread enables its events
(PERF_EVENT_IOC_ENABLE, a burst each) until it disables them.  perf saw
every switch of the whole run, so each wait's reason and length are its own:
each off-CPU interval, from a switch out to the next switch in, is put in
the reason its chain's first frame names, as nio-top does, and its part
inside the intervals counted.
"""
import json
import re
import sys

IOC_ENABLE, IOC_DISABLE = 0x2400, 0x2401
# reason.c's polls and sleeps, and what each strategy's say they wait for
# (strategy_ops.tx_waits, rx_waits).
GENERIC = "do_sys_poll do_select core_sys_select do_epoll_wait ep_poll " \
          "do_nanosleep hrtimer_nanosleep".split()
TX_WAITS = {"zero-copy": "completion", "sendfile": "completion",
            "splice": "completion"}


def read_reasons(path):
    reasons, key = [], None
    for line in open(path):
        m = re.match(r"\.It Li (\S+)", line)
        if m:
            key = m.group(1)
            reasons.append((key, []))
            continue
        m = re.match(r"\.Li (\S+)", line)
        if m and key:
            reasons[-1][1].append(m.group(1))
    return reasons


def matcher(reasons):
    def match(pattern, name):
        if pattern.endswith("*"):
            return len(pattern) if name.startswith(pattern[:-1]) else 0
        return 10**6 if pattern == name else 0

    def reason_of(fn, side, strategy):
        name = fn.split(".")[0]
        best, best_len = None, 0
        for key, patterns in reasons:
            for p in patterns:
                got = match(p, name)
                if got > best_len:
                    best, best_len = key, got
        if any(match(p, name) > best_len for p in GENERIC):
            return TX_WAITS.get(strategy, "other") if side == 0 else "other"
        return best
    return reason_of


def parse(script, reason_of, strategy):
    """Each worker thread's off-CPU intervals, and the sampled windows."""
    waits = {}     # tid -> (side, [(out, in, reason)])
    state = {}     # tid -> (out time, reason) while off
    sample = {}    # tid -> reason of its last switch's chain
    enables = []   # (time, cmd)
    head = re.compile(r"^\s*(\S+)\s+(\d+)\s+([0-9.]+):\s+(.*)$")
    cur = None     # (tid, side) of the sample whose chain is being read
    frames = []

    def close_sample():
        nonlocal cur, frames
        if cur:
            tid, side = cur
            r = None
            for fn in frames:
                r = reason_of(fn, side, strategy)
                if r:
                    break
            sample[tid] = r
        cur, frames = None, []

    for line in open(script, errors="replace"):
        if line.startswith("\t") or line.startswith(" " * 8):
            parts = line.split()
            if cur and len(parts) >= 2:
                frames.append(parts[1])
            continue
        m = head.match(line)
        if not m:
            continue
        close_sample()
        comm, tid, t, rest = m.group(1), int(m.group(2)), float(m.group(3)), m.group(4)
        if "sys_enter_ioctl" in rest:
            c = re.search(r"cmd: 0x([0-9a-f]+)", rest)
            if c and int(c.group(1), 16) in (IOC_ENABLE, IOC_DISABLE):
                enables.append((t, int(c.group(1), 16)))
            continue
        if not comm.startswith(("nio-tx", "nio-rx")):
            continue
        side = 0 if comm.startswith("nio-tx") else 1
        if "PERF_RECORD_SWITCH" in rest:
            if " OUT" in rest:
                r = sample.pop(tid, None)
                if r is None:
                    r = "preempted" if "preempt" in rest else "other"
                state[tid] = (t, r)
            elif tid in state:
                out, r = state.pop(tid)
                waits.setdefault(tid, (side, []))[1].append((out, t, r))
        elif "context-switches" in rest:
            cur = (tid, side)
    close_sample()
    return waits, windows(enables)


def windows(events):
    """The sampled intervals: a burst of enables to the next of disables."""
    out, start, last_off = [], None, None
    for t, cmd in events:
        if cmd == IOC_ENABLE:
            if start is None or (last_off is not None and t > last_off):
                if start is not None and last_off is not None:
                    out.append((start, last_off))
                start, last_off = t, None
        else:
            last_off = t
    if start is not None and last_off is not None:
        out.append((start, last_off))
    return out


def main():
    reasons = read_reasons(sys.argv[1])
    export = json.load(open(sys.argv[2]))
    strategy = sys.argv[4]
    waits, wins = parse(sys.argv[3], matcher(reasons), strategy)
    run = export["runs"][0]
    keys = [k for k, _ in reasons]
    perf = [dict.fromkeys(keys, 0.0), dict.fromkeys(keys, 0.0)]
    wall = [0.0, 0.0]
    for tid, (side, intervals) in waits.items():
        wall[side] += sum(e - s for s, e in wins)
        for out, back, r in intervals:
            for s, e in wins:
                lo, hi = max(out, s), min(back, e)
                if hi > lo:
                    perf[side][r] += hi - lo
    print("%d sampled intervals, %.2f s" % (len(wins), sum(e - s for s, e in wins)))
    print("| reason      | nio-top tx | perf tx | nio-top rx | perf rx |")
    print("|-------------|------------|---------|------------|---------|")
    times = [run["time"]["sender"], run["time"]["receiver"]]
    for k in ["on the CPU"] + keys:
        cells = []
        for side in (0, 1):
            t = times[side]
            mine = t["on_cpu_s"] if k == "on the CPU" else t["reasons"][k]["seconds"]
            theirs = wall[side] - sum(perf[side].values()) if k == "on the CPU" \
                else perf[side][k]
            cells += ["%5.1f%%" % (100 * mine / t["window_s"]),
                      "%5.1f%%" % (100 * theirs / wall[side]) if wall[side] else "n/a"]
        print("| %-11s | %10s | %7s | %10s | %7s |" % (k, *cells))
    for side, name in ((0, "sender"), (1, "receiver")):
        t = times[side]
        print("%s: off the CPU, nio-top %.1f%% of its window, perf %.1f%%; "
              "the window less the threads' CPU clocks %.1f%%" % (
                  name, 100 * t["off_cpu_s"] / t["window_s"],
                  100 * sum(perf[side].values()) / wall[side] if wall[side] else float("nan"),
                  100 * (t["window_s"] - t["cpu_clock_s"]) / t["window_s"]))


main()
