#!/usr/bin/python3
# Exports whose spreads the tests chose, for --diff and --gate, made from
# the seed corpus' one-run exports (tests/fuzz/corpus/export): nothing is
# measured, so what a test asserts of the statistics holds on a busy
# machine.
#
#   make TEMPLATE OUT --points S:SIZE,... [--runs N] [--between B]
#        [--within W] [--gbps G]
#       N runs a point (3), each run's figures the point's times
#       1 - B, 1, 1 + B, ... (B 0.02: a tight 2% between runs), each run's
#       ten 100 ms intervals its figure times 1 - W five times, then
#       1 + W five times (W 0.10: wide within), a warm-up interval first.
#       Every rate is set the same way: Gbit/s, msg/s and, each side,
#       CPU %, context switches a second and a message, CPU per KiB and
#       syscalls a message; bytes and messages fit the rates.  An rr
#       TEMPLATE makes rr points, its round trips (p50, p99 and the
#       others) scaled as the figures are.
#   join A B OUT      the runs of B after A's, as one export
#   noise IN OUT --eps E [--seed S]
#       every run's figures times 1 + u, u uniform in +-E (the run's
#       intervals alike), as the same study measured again would be, but
#       only by E
#   scale IN OUT --factor F
#       every Gbit/s, message rate and byte count times F, consistently:
#       a figure per byte or per message over F, one per second as it was
#   fail IN OUT --point S:SIZE --runs K [--error TEXT]
#       the first K runs of the point failed, with TEXT
#   utest A B S:SIZE  the exact two-sided Mann-Whitney p-value of the
#       point's runs' Gbit/s, A's against B's, by counting every way the
#       runs could have been split (no shortcut shared with nio-top)
import itertools, json, random, sys

RATES = ["cpu_pct", "ctx_switches_per_s"]
PER_UNIT = ["ctx_switches_per_msg", "cpu_ns_per_kib", "syscalls_per_msg"]
BASE = {"cpu_pct": 50.0, "ctx_switches_per_s": 2000.0,
        "ctx_switches_per_msg": 0.05, "cpu_ns_per_kib": 400.0,
        "syscalls_per_msg": 1.0}


def load(path):
    with open(path) as f:
        return json.load(f)


def save(doc, path):
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)


def opt(args, name, default):
    return args[args.index(name) + 1] if name in args else default


def points(text):
    out = []
    for item in text.split(","):
        strategy, size = item.split(":")
        out.append((strategy, int(size)))
    return out


def set_rates(run, factor):
    """The run's figures (and its intervals') at factor times its point's."""
    size = run["msg_size"]
    gbps = run["_gbps"] * factor
    run["gbps"] = gbps
    run["bytes_sent"] = run["bytes_received"] = int(
        round(gbps * 1e9 / 8 * run["measured_s"]))
    run["messages_sent"] = run["messages_received"] = max(
        1, run["bytes_sent"] // size)
    run["msgs_per_s"] = run["messages_sent"] / run["measured_s"]
    for side in ("sender", "receiver"):
        for key in RATES + PER_UNIT:
            run[side]["derived"][key] = BASE[key] * factor
    if run["mode"] == "rr":
        for key in ("p50", "p90", "p99", "p99_9", "mean", "max"):
            run["latency_us"][key] = run["_latency"][key] * factor


def set_intervals(run, within):
    """A warm-up interval, then ten of 100 ms: five low, five high."""
    template = run["intervals"][-1]
    out = []
    pattern = [1.0] + [1 - within] * 5 + [1 + within] * 5
    for i, w in enumerate(pattern):
        iv = json.loads(json.dumps(template))
        iv["t_s"] = 0.1 * (i + 1)
        iv["length_s"] = 0.1
        iv["warmup"] = i == 0
        iv["gbps"] = run["gbps"] * w
        iv["msgs_per_s"] = run["msgs_per_s"] * w
        for side in ("sender", "receiver"):
            for key in RATES + PER_UNIT:
                iv[side][key] = run[side]["derived"][key] * w
        out.append(iv)
    run["intervals"] = out


def make(args):
    doc = load(args[0])
    template = doc["runs"][0]
    runs = int(opt(args, "--runs", "3"))
    between = float(opt(args, "--between", "0.02"))
    within = float(opt(args, "--within", "0.10"))
    gbps = float(opt(args, "--gbps", "2"))
    doc["runs"] = []
    wanted = points(opt(args, "--points", "one-copy:4096"))
    for i in range(runs):
        factor = 1 + between * ((i + 1) // 2) * (-1 if i % 2 else 1)
        for n, (strategy, size) in enumerate(wanted):
            run = json.loads(json.dumps(template))
            run.update(strategy=strategy, msg_size=size, round=i + 1,
                       duration_s=1, warmup_s=0.1, measured_s=1.0,
                       error=None)
            run["_gbps"] = gbps * (n + 1)
            run["_latency"] = dict(template.get("latency_us") or {})
            set_rates(run, factor)
            set_intervals(run, within)
            doc["runs"].append(run)
    strategies = sorted({s for s, _ in wanted})
    doc["preset"].update(strategies=strategies, repeat=runs, duration_s=1,
                         warmup_s=0.1,
                         msg_sizes=sorted({size for _, size in wanted}))
    doc["preset"]["events"] = doc["preset"]["events"] + ["syscalls"]
    for run in doc["runs"]:
        for key in ("_gbps", "_latency"):
            del run[key]
    save(doc, args[1])


def each_figure(run, factor_rate, factor_unit):
    """Every rate of the run and its intervals times factor_rate, every
    figure per byte or message times factor_unit."""
    run["gbps"] *= factor_rate
    run["msgs_per_s"] *= factor_rate
    for key in ("bytes_sent", "bytes_received", "messages_sent",
                "messages_received"):
        run[key] = max(1, int(run[key] * factor_rate))
    for iv in run["intervals"]:
        for key in ("gbps", "msgs_per_s"):
            if iv.get(key) is not None:
                iv[key] *= factor_rate
        for side in ("sender", "receiver"):
            for key in PER_UNIT:
                if (iv.get(side) or {}).get(key) is not None:
                    iv[side][key] *= factor_unit
    for side in ("sender", "receiver"):
        derived = (run.get(side) or {}).get("derived") or {}
        for key in PER_UNIT:
            if derived.get(key) is not None:
                derived[key] *= factor_unit


def noise(args):
    doc = load(args[0])
    eps = float(opt(args, "--eps", "0.001"))
    rng = random.Random(int(opt(args, "--seed", "1")))
    for run in doc["runs"]:
        f = 1 + rng.uniform(-eps, eps)
        # A run a little faster: its bytes too, its CPU per byte less.
        each_figure(run, f, 1 / f)
    save(doc, args[1])


def scale(args):
    doc = load(args[0])
    f = float(opt(args, "--factor", "0.5"))
    for run in doc["runs"]:
        each_figure(run, f, 1 / f)
    save(doc, args[1])


def join(args):
    a, b = load(args[0]), load(args[1])
    a["runs"] += b["runs"]
    save(a, args[2])


def fail(args):
    doc = load(args[0])
    strategy, size = points(opt(args, "--point", ""))[0]
    left = int(opt(args, "--runs", "1"))
    for run in doc["runs"]:
        if left and run["strategy"] == strategy and run["msg_size"] == size:
            run["error"] = opt(args, "--error", "connection reset")
            left -= 1
    save(doc, args[1])


def utest(args):
    strategy, size = points(args[2])[0]
    a, b = ([r["gbps"] for r in load(p)["runs"]
             if r["strategy"] == strategy and r["msg_size"] == size]
            for p in args[:2])

    def u(x, y):
        return sum(1 if i > j else 0.5 if i == j else 0
                   for i in x for j in y)

    values, n, seen = a + b, len(a), u(a, b)
    small = min(seen, n * len(b) - seen)
    splits = list(itertools.combinations(range(len(values)), n))
    at_most = sum(1 for pick in splits
                  if u([values[i] for i in pick],
                       [values[i] for i in range(len(values))
                        if i not in pick]) <= small)
    print("%.6f" % min(1.0, 2 * at_most / len(splits)))


if __name__ == "__main__":
    {"make": make, "noise": noise, "scale": scale, "join": join,
     "fail": fail, "utest": utest}[sys.argv[1]](sys.argv[2:])
