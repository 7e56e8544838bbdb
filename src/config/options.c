/*
 * The option table: every parameter a user can set, once -- its names, its
 * preset key, its type, where it is stored, its range, its default and its
 * help -- and the lookups of a row by name or key.  What reads and writes
 * the values is elsewhere, by concern: the command line (options_cli.c),
 * presets, their schema, the manual's keys and a run's settings in JSON
 * (options_json.c), each going through the operations of the row's type
 * (options_types.c).  Adding an option is one row here.
 */
#include <stdlib.h>
#include <string.h>

#include "message.h"
#include "options_private.h"

#define O(member) offsetof(struct options, member)
#define R(member) offsetof(struct run_config, member)

/*
 * The explorer's controls: what they step through.  Sizes are powers of two
 * over the whole range; durations in seconds, 0 running until a control
 * changes.
 */
static const double size_steps[] = {
	64,    128,   256,    512,    1024,   2048,    4096,	8192,	 16384,
	32768, 65536, 131072, 262144, 524288, 1048576, 2097152, 4194304,
};
static const double duration_steps[] = {0, 1, 2, 5, 10, 30, 60};
/* BIG TCP's GSO sizes: as built, then past 64 KiB up to the most. */
static const double gso_steps[] = {0, 131072, 185000, 262144, 524280};
static const double busy_poll_steps[] = {0, 10, 50, 100, 200};

/*
 * The gauges each control moves most, by metric key: the strategy its CPU
 * per KiB and its calls, the size the messages' rate, the flows the CPU,
 * the mode the wake-ups, busy polling the CPU it spins and the wake-ups it
 * saves, the receive side and the links' knobs the CPU per KiB.
 */
static const char *const strategy_moves[] = {"cpu_ns_per_kib",
					     "syscalls_per_msg", NULL};
static const char *const size_moves[] = {"msgs_per_s", "cpu_ns_per_kib", NULL};
static const char *const threads_moves[] = {"cpu_pct", NULL};
static const char *const mode_moves[] = {"ctx_switches_per_s", NULL};
static const char *const busy_moves[] = {"cpu_pct", "ctx_switches_per_s", NULL};
static const char *const cost_moves[] = {"cpu_ns_per_kib", NULL};

const char *const diff_test_names[] = {"welch", "utest", NULL};
const char *const diff_format_names[] = {"text", "markdown", NULL};

#define STEPS(list)                                                            \
	.steps = (list), .step_count = sizeof(list) / sizeof(*(list))

const struct option_row option_rows[] = {
	{.name = "batch",
	 .type = OPTION_FLAG,
	 .offset = O(batch),
	 .help = "run every combination headless, print a table, exit"},
	{.name = "preset",
	 .letter = 'p',
	 .arg = "NAME|FILE",
	 .type = OPTION_PRESET,
	 .help = "start from a preset (a name in the presets folder, a file, "
		 "or an export); options given too override it"},
	{.key = "name",
	 .type = OPTION_TEXT,
	 .offset = O(preset_name),
	 .size = sizeof(((struct options *)0)->preset_name),
	 .min = 1,
	 .max = 64,
	 .help = "a short name"},
	{.key = "description",
	 .type = OPTION_TEXT,
	 .offset = O(preset_description),
	 .size = sizeof(((struct options *)0)->preset_description),
	 .min = 0,
	 .max = 1024,
	 .help = "what the preset is for"},
	{.name = "strategy",
	 .letter = 's',
	 .arg = "LIST",
	 .key = "strategies",
	 .run_key = "strategy",
	 .type = OPTION_STRATEGIES,
	 .offset = O(strategies),
	 .count_offset = O(strategy_count),
	 .run_offset = R(strategy),
	 .min = 1,
	 .max = OPTIONS_LIST_MAX,
	 .def = "all",
	 .flags = OPTION_RUN,
	 .help = "strategies, or \"all\" (those this machine can run)",
	 .control =
		 &(const struct option_control){
			 .label = "Strategy",
			 .figures = strategy_moves,
			 .gloss = "how the sender hands each message to the "
				  "kernel, "
				  "with its own receiver (x draws every copy "
				  "of its "
				  "data path)"}},
	{.name = "msg-size",
	 .letter = 'm',
	 .arg = "LIST",
	 .key = "msg_sizes",
	 .run_key = "msg_size",
	 .type = OPTION_SIZES,
	 .offset = O(msg_sizes),
	 .count_offset = O(msg_size_count),
	 .run_offset = R(msg_size),
	 .min = MESSAGE_SIZE_MIN,
	 .max = MESSAGE_SIZE_MAX,
	 .def = "16K",
	 .flags = OPTION_RUN,
	 .help = "message sizes in bytes, or with K or M; on the command "
		 "line also MIN..MAX (MIN, the powers of two between, MAX)",
	 .control =
		 &(const struct option_control){
			 .label = "Size",
			 STEPS(size_steps),
			 .figures = size_moves,
			 .gloss = "a message's bytes, in its fields "
				  "(--fields)"}},
	{.name = "threads",
	 .letter = 't',
	 .arg = "LIST",
	 .key = "threads",
	 .run_key = "threads",
	 .type = OPTION_COUNTS,
	 .offset = O(threads),
	 .count_offset = O(thread_count),
	 .run_offset = R(threads),
	 .min = 1,
	 .max = OPTIONS_THREADS_MAX,
	 .def = "1",
	 .flags = OPTION_RUN,
	 .help = "flows per run",
	 .control =
		 &(const struct option_control){
			 .label = "Threads",
			 .figures = threads_moves,
			 .gloss = "flows: TCP connections at once, each a "
				  "sender and a "
				  "receiver thread"}},
	{.name = "mode",
	 .arg = "LIST",
	 .key = "mode",
	 .run_key = "mode",
	 .type = OPTION_CHOICES,
	 .offset = O(modes),
	 .count_offset = O(mode_count),
	 .run_offset = R(mode),
	 .names = run_mode_names,
	 .min = 1,
	 .max = RUN_MODE_COUNT,
	 .def = "stream",
	 .flags = OPTION_RUN,
	 .help = "what a run measures: stream (throughput), rr (one "
		 "request, one answer: round-trip latency), or both "
		 "(stream,rr)",
	 .control =
		 &(const struct option_control){
			 .label = "Mode",
			 .figures = mode_moves,
			 .gloss = "stream: messages back to back, for "
				  "throughput; rr: "
				  "one request, one answer, the round trip "
				  "timed"}},
	{.name = "duration",
	 .letter = 'd',
	 .arg = "SEC",
	 .key = "duration_s",
	 .run_key = "duration_s",
	 .type = OPTION_SECONDS,
	 .offset = O(run.duration_ms),
	 .run_offset = R(settings.duration_ms),
	 .min = 0.001,
	 .max = 86400,
	 .def = "5",
	 .flags = OPTION_RUN,
	 .help = "measured seconds per run, fractions allowed (the explorer "
		 "runs until a control changes unless given)",
	 .control =
		 &(const struct option_control){
			 .label = "Duration",
			 STEPS(duration_steps),
			 .zero = "continuous",
			 .toggle = 5,
			 .gloss = "the seconds a run is measured; continuous: "
				  "until a "
				  "control changes (Enter switches)"}},
	{.name = "warmup",
	 .letter = 'w',
	 .arg = "SEC",
	 .key = "warmup_s",
	 .run_key = "warmup_s",
	 .type = OPTION_SECONDS,
	 .offset = O(run.warmup_ms),
	 .run_offset = R(settings.warmup_ms),
	 .min = 0,
	 .max = 3600,
	 .def = "0.5",
	 .flags = OPTION_RUN,
	 .help = "seconds run first and left out of the summary"},
	{.name = "repeat",
	 .arg = "N",
	 .key = "repeat",
	 .type = OPTION_UINT,
	 .offset = O(repeat),
	 .min = 1,
	 .max = 100,
	 .def = "1",
	 .help = "runs of each combination, interleaved; the analysis takes "
		 "the median and spread"},
	{.name = "min-measured",
	 .arg = "SEC",
	 .key = "min_measured_s",
	 .type = OPTION_SECONDS,
	 .offset = O(min_measured_ms),
	 .min = 0,
	 .max = 86400,
	 .def = "1",
	 .help = "runs measured for less (or over fewer than 5 intervals) "
		 "are marked short and left out of the analysis and charts; "
		 "0 keeps every run"},
	{.name = "keep-stopped",
	 .key = "keep_stopped",
	 .type = OPTION_BOOL,
	 .offset = O(keep_stopped),
	 .help = "analyse and chart runs whose measured window a stop "
		 "(Ctrl-Z, SIGSTOP) ended, as any other; they stay marked"},
	{.name = "crossover",
	 .arg = "DIM=A,B",
	 .key = "crossover.pair",
	 .type = OPTION_TEXT,
	 .offset = O(crossover),
	 .size = sizeof(((struct options *)0)->crossover),
	 .min = 3,
	 .max = 127,
	 .help = "find the message size in -m MIN..MAX where B overtakes A, "
		 "or A B: two strategies (strategy=one-copy,sendfile), receive "
		 "sides (rx=copy,trunc), values of a knob "
		 "(gso_ipv4_max_size=as-built,185000) or flow counts "
		 "(threads=1,2); sizes chosen as it goes, each run until the "
		 "analysis's test decides it"},
	{.name = "metric",
	 .arg = "KEY",
	 .key = "crossover.metric",
	 .type = OPTION_TEXT,
	 .offset = O(crossover_metric),
	 .size = sizeof(((struct options *)0)->crossover_metric),
	 .min = 1,
	 .max = 47,
	 .help = "the figure a crossover search compares: a metric's key "
		 "(gbps, "
		 "cpu_ns_per_kib, ...), one side's with .sender or .receiver, "
		 "or p50_us or p99_us in rr; default the mode's (Gbit/s, the "
		 "p50 round trip)"},
	{.name = "resolution",
	 .arg = "FACTOR",
	 .key = "crossover.resolution",
	 .type = OPTION_NUMBER,
	 .offset = O(crossover_resolution),
	 .min = 1.05,
	 .max = 16,
	 .def = "1.25",
	 .help = "a crossover search stops once its bracket's ends are at "
		 "most this factor apart"},
	{.name = "budget",
	 .arg = "SEC",
	 .key = "crossover.budget_s",
	 .type = OPTION_SECONDS,
	 .offset = O(crossover_budget_ms),
	 .min = 1,
	 .max = 86400,
	 .def = "300",
	 .help = "the longest a crossover search runs (seconds, or with m or "
		 "h: 5m); no run starts that would end past it"},
	{.name = "verify",
	 .key = "verify",
	 .run_key = "verify",
	 .type = OPTION_BOOL,
	 .offset = O(run.verify),
	 .run_offset = R(settings.verify),
	 .flags = OPTION_RUN,
	 .help = "fill and check every message; count corrupt ones"},
	{.name = "fields",
	 .arg = "N",
	 .key = "fields",
	 .run_key = "fields",
	 .type = OPTION_UINT,
	 .offset = O(run.fields),
	 .run_offset = R(settings.fields),
	 .min = 1,
	 .max = MESSAGE_FIELDS_MAX,
	 .def = "8",
	 .flags = OPTION_RUN,
	 .help = "separately allocated fields per message (1: one buffer, as "
		 "iperf3 and the kernel's examples send)"},
	{.name = "slots",
	 .arg = "N",
	 .key = "slots",
	 .run_key = "slots",
	 .type = OPTION_UINT,
	 .offset = O(run.slots),
	 .run_offset = R(settings.slots),
	 .min = 0,
	 .max = STRATEGY_SLOTS_MAX,
	 .def = "0",
	 .flags = OPTION_RUN,
	 .help = "message slots per zero-copy sender, each a message of "
		 "memory; 0: as many as a full send buffer holds (tcp_wmem "
		 "max / size, at least 16)"},
	{.name = "uring-depth",
	 .arg = "N",
	 .key = "uring_depth",
	 .run_key = "uring_depth",
	 .type = OPTION_UINT,
	 .offset = O(run.uring_depth),
	 .run_offset = R(settings.uring_depth),
	 .min = 1,
	 .max = STRATEGY_URING_DEPTH_MAX,
	 .def = "8",
	 .flags = OPTION_RUN,
	 .help = "messages per io_uring submission"},
	{.name = "uring-fixed",
	 .key = "uring_fixed",
	 .run_key = "uring_fixed",
	 .type = OPTION_BOOL,
	 .offset = O(run.uring_fixed),
	 .run_offset = R(settings.uring_fixed),
	 .flags = OPTION_RUN,
	 .help = "send uring-zc's batches from registered buffers (one "
		 "SENDMSG_ZC with a fixed buffer per batch)"},
	{.name = "unsafe-reuse",
	 .key = "unsafe_reuse",
	 .run_key = "unsafe_reuse",
	 .type = OPTION_BOOL,
	 .offset = O(run.unsafe_reuse),
	 .run_offset = R(settings.unsafe_reuse),
	 .flags = OPTION_RUN,
	 .help = "teaching: sendfile and splice rewrite a message's pages "
		 "without waiting for the receiver to read them (one slot "
		 "unless --slots): corrupt messages follow"},
	{.name = "rx",
	 .arg = "LIST",
	 .key = "rx",
	 .run_key = "rx",
	 .type = OPTION_CHOICES,
	 .offset = O(rxs),
	 .count_offset = O(rx_count),
	 .run_offset = R(settings.rx),
	 .names = rx_mode_names,
	 .min = 1,
	 .max = RX_MODE_COUNT,
	 .def = "copy",
	 .flags = OPTION_RUN,
	 .help = "how receivers take the bytes in, a grid dimension: copy "
		 "(each strategy's receiver), zerocopy "
		 "(TCP_ZEROCOPY_RECEIVE: the receiver maps the pages), trunc "
		 "(recv with MSG_TRUNC: the kernel drops the bytes unread, a "
		 "bound and not a receiver; no --verify), uring (io_uring "
		 "multishot receive into a provided buffer ring)",
	 .control =
		 &(const struct option_control){
			 .label = "Rx",
			 .figures = cost_moves,
			 .gloss = "how the receivers take the bytes in: copy "
				  "(each "
				  "strategy's own), zerocopy, trunc (a bound: "
				  "nothing "
				  "reads them) or uring"}},
	{.name = "nodelay",
	 .arg = "WHEN",
	 .key = "nodelay",
	 .run_key = "nodelay",
	 .type = OPTION_CHOICE,
	 .offset = O(run.nodelay),
	 .run_offset = R(settings.nodelay),
	 .names = nodelay_names,
	 .def = "rr",
	 .flags = OPTION_RUN,
	 .help = "TCP_NODELAY on every flow's sockets: rr (in request-response "
		 "runs, as sockperf does), on, or off (Nagle holds a message "
		 "sent in pieces for the delayed ACK)"},
	{.name = "sndbuf",
	 .arg = "SIZE",
	 .key = "socket.sndbuf",
	 .run_key = "sndbuf",
	 .type = OPTION_BYTES,
	 .offset = O(run.sndbuf),
	 .run_offset = R(settings.sndbuf),
	 .max = 1 << 30,
	 .flags = OPTION_RUN,
	 .help = "SO_SNDBUF on every sender's socket (the kernel doubles it, "
		 "caps it at net.core.wmem_max and stops tuning it; the run "
		 "records what it became)"},
	{.name = "rcvbuf",
	 .arg = "SIZE",
	 .key = "socket.rcvbuf",
	 .run_key = "rcvbuf",
	 .type = OPTION_BYTES,
	 .offset = O(run.rcvbuf),
	 .run_offset = R(settings.rcvbuf),
	 .max = 1 << 30,
	 .flags = OPTION_RUN,
	 .help = "SO_RCVBUF on every receiver's socket (doubled, capped at "
		 "net.core.rmem_max, no longer tuned; recorded as it became)"},
	{.name = "rcvlowat",
	 .arg = "SIZE",
	 .key = "socket.rcvlowat",
	 .run_key = "rcvlowat",
	 .type = OPTION_BYTES,
	 .offset = O(run.rcvlowat),
	 .run_offset = R(settings.rcvlowat),
	 .max = 1 << 30,
	 .flags = OPTION_RUN,
	 .help = "SO_RCVLOWAT on every receiver's socket: it wakes only once "
		 "this many bytes are queued (default: the same 256K for "
		 "every receive side of a stream, lowered where the sender "
		 "cannot reach it; 1: every segment)"},
	{.name = "notsent-lowat",
	 .arg = "SIZE",
	 .key = "socket.notsent_lowat",
	 .run_key = "notsent_lowat",
	 .type = OPTION_BYTES,
	 .offset = O(run.notsent_lowat),
	 .run_offset = R(settings.notsent_lowat),
	 .max = 1 << 30,
	 .flags = OPTION_RUN,
	 .help = "TCP_NOTSENT_LOWAT on every sender's socket: at most this "
		 "many bytes wait unsent in it"},
	{.name = "busy-poll",
	 .arg = "LIST",
	 .key = "socket.busy_poll_us",
	 .run_key = "busy_poll_us",
	 .type = OPTION_COUNTS,
	 .offset = O(busy_polls),
	 .count_offset = O(busy_poll_count),
	 .run_offset = R(settings.busy_poll),
	 .max = 1000000,
	 .def = "0",
	 .flags = OPTION_RUN,
	 .help = "SO_BUSY_POLL on both ends' sockets, microseconds, a grid "
		 "dimension (0,50: without and with): a read with nothing "
		 "queued spins this long on the device's queue first (only "
		 "where packets carry a NAPI id); 0: none",
	 .control =
		 &(const struct option_control){
			 .label = "Busypoll",
			 STEPS(busy_poll_steps),
			 .zero = "none",
			 .unit = " us",
			 .figures = busy_moves,
			 .gloss = "SO_BUSY_POLL: a read with nothing queued "
				  "spins this "
				  "many microseconds on the device's queue "
				  "before it "
				  "sleeps; none: it sleeps at once"}},
	{.name = "prefer-busy-poll",
	 .key = "socket.prefer_busy_poll",
	 .run_key = "prefer_busy_poll",
	 .type = OPTION_BOOL,
	 .offset = O(run.prefer_busy_poll),
	 .run_offset = R(settings.prefer_busy_poll),
	 .flags = OPTION_RUN,
	 .help = "SO_PREFER_BUSY_POLL on both ends' sockets: busy polling "
		 "defers the device's interrupts (where it has NAPI)"},
	{.name = "congestion",
	 .arg = "NAME",
	 .key = "socket.congestion",
	 .run_key = "congestion",
	 .type = OPTION_NAME,
	 .offset = O(run.congestion),
	 .run_offset = R(settings.congestion),
	 .size = sizeof(((struct options *)0)->run.congestion),
	 .min = 1,
	 .max = 15,
	 .flags = OPTION_RUN,
	 .help = "TCP_CONGESTION on both ends' sockets (cubic, reno, bbr, "
		 "...: one this kernel has); default the namespace's own"},
	{.name = "pin",
	 .arg = "LIST",
	 .key = "pin",
	 .run_key = "pin",
	 .type = OPTION_CPUS,
	 .offset = O(run.pin),
	 .run_offset = R(settings.pin),
	 .flags = OPTION_RUN,
	 .help = "CPUs for the flows' threads, senders then receivers, "
		 "round-robin (e.g. 0,1 or 0-3)"},
	{.name = "load-rate",
	 .arg = "LIST",
	 .key = "load_rate_mbps",
	 .run_key = "load_rate_mbps",
	 .type = OPTION_COUNTS,
	 .offset = O(load_rates),
	 .count_offset = O(load_rate_count),
	 .run_offset = R(settings.load_rate_mbps),
	 .max = 1000000,
	 .def = "0",
	 .flags = OPTION_RUN,
	 .help = "the load's pace, all its flows together, in Mbit/s, a grid "
		 "dimension (0,2000: flat out and at 2 Gbit/s): "
		 "SO_MAX_PACING_RATE on each sender, split evenly, so that "
		 "strategies are compared at equal throughput; 0: flat out"},
	{.name = "probe",
	 .arg = "RATE[,SIZE]",
	 .key = "probe",
	 .run_key = "probe",
	 .type = OPTION_PROBE,
	 .offset = O(run.probe),
	 .run_offset = R(settings.probe),
	 .def = "off",
	 .flags = OPTION_RUN,
	 .help = "beside each run, a request/response flow of its own (its "
		 "own connection, send/recv with TCP_NODELAY whatever the "
		 "load's strategy): RATE requests of SIZE bytes (64) a "
		 "second on a schedule, each answered at once; its round "
		 "trips alone and under the load (probe.idle, probe.loaded); "
		 "0 or off: none"},
	{.name = "probe-cpu",
	 .arg = "WHERE",
	 .key = "probe_cpu",
	 .run_key = "probe_cpu",
	 .type = OPTION_CHOICE,
	 .offset = O(run.probe_cpu),
	 .run_offset = R(settings.probe_cpu),
	 .names = probe_cpu_names,
	 .def = "same",
	 .flags = OPTION_RUN,
	 .help = "with --pin, the probe's threads on the CPUs of the load's "
		 "first flow (same: its requester beside the receiver, its "
		 "answerer beside the sender) or on CPUs the load is not "
		 "pinned to (other)"},
	{.name = "events",
	 .arg = "LIST",
	 .key = "events",
	 .type = OPTION_EVENTS,
	 .offset = O(events),
	 .count_offset = O(event_count),
	 .help = "perf events (libpfm4 names) counted per thread, replacing "
		 "the default set; an empty list (--events none) counts "
		 "nothing"},
	{.name = "no-counters",
	 .type = OPTION_FLAG,
	 .offset = O(no_counters),
	 .help = "count no perf events"},
	{.name = "profile-hz",
	 .arg = "N",
	 .key = "profile_hz",
	 .run_key = "profile_hz",
	 .type = OPTION_UINT,
	 .offset = O(run.profile_hz),
	 .run_offset = R(settings.profile_hz),
	 .min = 0,
	 .max = PROFILE_HZ_MAX,
	 .def = "1000",
	 .flags = OPTION_RUN,
	 .help = "samples per second of each thread's CPU time, taken in "
		 "one interval of four and left out of every measured "
		 "figure; 0: no profile"},
	{.name = "no-profile",
	 .type = OPTION_FLAG,
	 .offset = O(no_profile),
	 .help = "sample nothing: no profile of where each side's CPU goes"},
	{.name = "no-waits",
	 .key = "no_waits",
	 .run_key = "no_waits",
	 .type = OPTION_BOOL,
	 .offset = O(run.no_waits),
	 .run_offset = R(settings.no_waits),
	 .flags = OPTION_RUN,
	 .help = "watch no context switches: no account of where each side's "
		 "time goes off the CPU (waiting for data, for buffer space, "
		 "preempted, ...), which is sampled in the profile's "
		 "intervals"},
	{.name = "output",
	 .letter = 'o',
	 .arg = "FILE",
	 .type = OPTION_PATH,
	 .offset = O(output),
	 .help = "write every run as JSON"},
	{.name = "csv",
	 .arg = "FILE",
	 .type = OPTION_PATH,
	 .offset = O(csv),
	 .help = "also write one CSV row per run"},
	{.name = "svg",
	 .arg = "FILE",
	 .type = OPTION_PATH,
	 .offset = O(svg),
	 .help = "also write charts of the runs as SVG (throughput, latency)"},
	{.name = "json-stream",
	 .arg = "FILE",
	 .type = OPTION_PATH,
	 .offset = O(json_stream),
	 .help = "also write JSON lines as it happens (start, each run's "
		 "intervals, runs, analysis, end); -: standard output, "
		 "instead of the table"},
	{.name = "diff",
	 .arg = "OLD",
	 .type = OPTION_PATH,
	 .offset = O(diff),
	 .help = "compare two exports, OLD and the NEW one after it, point "
		 "by point (--diff OLD.json NEW.json)"},
	{.name = "baseline",
	 .arg = "OLD",
	 .type = OPTION_PATH,
	 .offset = O(baseline),
	 .help = "run the study headless, then compare it with the export "
		 "OLD as --diff OLD NEW does"},
	{.name = "diff-test",
	 .arg = "TEST",
	 .type = OPTION_CHOICE,
	 .offset = O(diff_test),
	 .names = diff_test_names,
	 .def = "welch",
	 .help = "what calls a change in a comparison: welch (its 90% "
		 "interval leaves out none) or utest (benchstat's "
		 "Mann-Whitney U, p < 0.05)"},
	{.name = "format",
	 .arg = "FORMAT",
	 .type = OPTION_CHOICE,
	 .offset = O(diff_format),
	 .names = diff_format_names,
	 .def = "text",
	 .help = "a comparison on standard output as text, or as markdown "
		 "tables (a review, a CI job's summary)"},
	{.name = "gate",
	 .arg = "RULES",
	 .type = OPTION_TEXT,
	 .offset = O(gate),
	 .size = sizeof(((struct options *)0)->gate),
	 .min = 1,
	 .max = 255,
	 .help = "judge a comparison: exit 1 when a change's whole 90% "
		 "interval lies beyond a rule (gbps<-5%,p99_us>+10%), 0 "
		 "when none does, 2 on an error"},
	{.name = "change",
	 .arg = "KEYS",
	 .type = OPTION_TEXT,
	 .offset = O(change),
	 .size = sizeof(((struct options *)0)->change),
	 .min = 1,
	 .max = 255,
	 .help = "what differs between the two sides on purpose (fields, "
		 "kernel, host): --gate warns of any other difference"},
	{.name = "drift",
	 .arg = "PCT",
	 .type = OPTION_TEXT,
	 .offset = O(drift),
	 .size = sizeof(((struct options *)0)->drift),
	 .min = 1,
	 .max = 511,
	 .help = "how far a figure moves between two studies, beyond its "
		 "runs' spread (a relative SD, in %): 4 for every figure, "
		 "cpu_pct=8,gbps=1 for some; 0 none; default as measured on "
		 "a 2-CPU VM (nio-top(1))"},
	{.name = "load",
	 .arg = "FILE",
	 .type = OPTION_PATH,
	 .offset = O(load),
	 .help = "open a saved export (runs, charts, analysis) instead of "
		 "running; --load OLD NEW opens two, compared"},
	{.name = "topology",
	 .arg = "KIND",
	 .key = "topology.kind",
	 .type = OPTION_CHOICE,
	 .offset = O(topo.kind),
	 .names = topo_kind_names,
	 .def = "veth",
	 .help = "where the flows run: veth (two namespaces joined by a veth "
		 "pair), loopback (one "
		 "private namespace), current, or remote (another host: "
		 "--connect)"},
	{.name = "subnet",
	 .arg = "CIDR",
	 .key = "topology.subnet",
	 .type = OPTION_SUBNET,
	 .offset = O(topo.subnet),
	 .def = "198.18.0.0/30",
	 .help = "IPv4 subnet of the veth, /8 .. /30"},
	{.name = "mtu",
	 .arg = "N",
	 .key = "topology.mtu",
	 .type = OPTION_UINT,
	 .offset = O(topo.mtu),
	 .min = TOPO_MTU_MIN,
	 .max = TOPO_MTU_MAX,
	 .help = "MTU of the veth pair"},
	{.name = "rate",
	 .arg = "RATE",
	 .key = "topology.rate",
	 .type = OPTION_RATE,
	 .offset = O(topo.rate_bps),
	 .min = TOPO_RATE_MIN_BPS,
	 .max = TOPO_RATE_MAX_BPS,
	 .help = "shape the senders' side with tbf: bit/s, K, M or G (e.g. "
		 "1G)"},
	{.name = "delay",
	 .arg = "MS",
	 .key = "topology.delay_ms",
	 .type = OPTION_NUMBER,
	 .offset = O(topo.delay_ms),
	 .min = 0,
	 .max = 10000,
	 .help = "netem delay on the senders' side, ms (needs sch_netem)"},
	{.name = "loss",
	 .arg = "PCT",
	 .key = "topology.loss_pct",
	 .type = OPTION_NUMBER,
	 .offset = O(topo.loss_pct),
	 .min = 0,
	 .max = 100,
	 .help = "netem loss on the senders' side, % (needs sch_netem)"},
	{.name = "gso-ipv4-max-size",
	 .arg = "LIST",
	 .key = "topology.gso_ipv4_max_size",
	 .run_key = "gso_ipv4_max_size",
	 .type = OPTION_COUNTS,
	 .offset = O(gso_sizes),
	 .count_offset = O(gso_size_count),
	 .run_offset = R(settings.gso_max_size),
	 .max = TOPO_GSO_MAX,
	 .def = "0",
	 .flags = OPTION_RUN,
	 .help = "BIG TCP: the IPv4 GSO size of nio-top's links for the run, "
		 "bytes, a grid dimension (0,185000: as built and BIG) "
		 "(IFLA_GSO_IPV4_MAX_SIZE, Linux 6.3 and later; above 65536, "
		 "TCP builds and hands over segments that large); 0: as built",
	 .control =
		 &(const struct option_control){
			 .label = "GSO IPv4",
			 STEPS(gso_steps),
			 .zero = "as-built",
			 .unit = " B",
			 .figures = cost_moves,
			 .gloss = "BIG TCP: the links' IPv4 GSO size in bytes "
				  "(gso_ipv4_max_size), the segments TCP "
				  "builds; "
				  "as-built: 65536"},
	 .was = &(const struct option_alias){"gso-max-size",
					     "topology.gso_max_size",
					     "gso_max_size"}},
	{.name = "gro-ipv4-max-size",
	 .arg = "N",
	 .key = "topology.gro_ipv4_max_size",
	 .run_key = "gro_ipv4_max_size",
	 .type = OPTION_UINT,
	 .offset = O(run.gro_max_size),
	 .run_offset = R(settings.gro_max_size),
	 .max = TOPO_GSO_MAX,
	 .def = "0",
	 .flags = OPTION_RUN,
	 .help = "BIG TCP: the IPv4 GRO size of nio-top's links for the run, "
		 "bytes (IFLA_GRO_IPV4_MAX_SIZE, Linux 6.3 and later; it "
		 "matters where GRO merges, --gro on); 0: as built",
	 .was = &(const struct option_alias){"gro-max-size",
					     "topology.gro_max_size",
					     "gro_max_size"}},
	{.name = "gro",
	 .arg = "LIST",
	 .key = "topology.gro",
	 .run_key = "gro",
	 .type = OPTION_CHOICES,
	 .offset = O(gros),
	 .count_offset = O(gro_count),
	 .run_offset = R(settings.gro),
	 .names = gro_mode_names,
	 .min = 1,
	 .max = GRO_MODE_COUNT,
	 .def = "as-built",
	 .flags = OPTION_RUN,
	 .help = "GRO on the veth for the run, a grid dimension (off,on): "
		 "on (its NAPI merges segments on receive), off, or as-built",
	 .control =
		 &(const struct option_control){
			 .label = "GRO",
			 .figures = cost_moves,
			 .gloss = "GRO on the veth: on merges segments on "
				  "receive; "
				  "as-built: a veth's is off"}},
	{.name = "keep-netns",
	 .arg = "PREFIX",
	 .type = OPTION_NAME,
	 .offset = O(topo.keep_prefix),
	 .size = sizeof(((struct options *)0)->topo.keep_prefix),
	 .min = 1,
	 .max = TOPO_KEEP_PREFIX_MAX,
	 .help = "also name the namespaces PREFIX-srv and PREFIX-cli in "
		 "/run/netns"},
	{.name = "serve",
	 .type = OPTION_FLAG,
	 .offset = O(serve),
	 .help = "run as an agent for a client on another host (nio-top "
		 "--connect): one client at a time, until interrupted"},
	{.name = "listen",
	 .arg = "ADDR",
	 .type = OPTION_PATH,
	 .offset = O(listen),
	 .flags = OPTION_SERVE,
	 .help = "the IPv4 address to listen on (default every address)"},
	{.name = "port",
	 .arg = "PORT",
	 .type = OPTION_UINT,
	 .offset = O(port),
	 .min = 1,
	 .max = 65535,
	 .def = "5310",
	 .flags = OPTION_SERVE,
	 .help = "the control port"},
	{.name = "connect",
	 .arg = "HOST[:PORT]",
	 .type = OPTION_PATH,
	 .offset = O(connect),
	 .help = "run the senders here and the receivers on the agent at HOST "
		 "(--topology remote)"},
	{.name = "reverse",
	 .type = OPTION_FLAG,
	 .offset = O(reverse),
	 .help = "--connect: the agent runs the senders, this host the "
		 "receivers"},
	{.name = "auth-file",
	 .arg = "FILE",
	 .type = OPTION_PATH,
	 .offset = O(auth_file),
	 .help = "the shared secret (the file's first line) an agent requires "
		 "and a client gives"},
	{.name = "max-memory",
	 .arg = "SIZE",
	 .type = OPTION_BYTES,
	 .offset = O(max_memory),
	 .help = "the buffers one run may allocate here, K, M, G or T: a "
		 "local run, or an agent's side of one (default a quarter of "
		 "this machine's memory)"},
	{.name = "max-threads",
	 .arg = "N",
	 .type = OPTION_UINT,
	 .offset = O(max_threads),
	 .min = 1,
	 .max = OPTIONS_THREADS_MAX,
	 .def = "64",
	 .flags = OPTION_SERVE,
	 .help = "the most flows a run may have"},
	{.name = "max-slots",
	 .arg = "N",
	 .type = OPTION_UINT,
	 .offset = O(max_slots),
	 .min = 1,
	 .max = STRATEGY_SLOTS_MAX,
	 .def = "4096",
	 .flags = OPTION_SERVE,
	 .help = "the most zero-copy slots per flow"},
	{.name = "max-duration",
	 .arg = "SEC",
	 .type = OPTION_SECONDS,
	 .offset = O(max_duration_ms),
	 .min = 0.001,
	 .max = 86400,
	 .def = "86400",
	 .flags = OPTION_SERVE,
	 .help = "the longest a run may last, warm-up included"},
	{.name = "max-idle",
	 .arg = "SEC",
	 .type = OPTION_SECONDS,
	 .offset = O(max_idle_ms),
	 .min = 0.1,
	 .max = 86400,
	 .def = "300",
	 .flags = OPTION_SERVE,
	 .help = "how long a client may hold the agent with no run and no "
		 "word"},
	{.name = "refresh",
	 .arg = "MS",
	 .key = "ui.refresh_ms",
	 .type = OPTION_UINT,
	 .offset = O(refresh_ms),
	 .min = 20,
	 .max = 10000,
	 .def = "100",
	 .help = "redraw the screen every MS milliseconds"},
	{.name = "theme",
	 .arg = "NAME",
	 .key = "ui.theme",
	 .type = OPTION_NAME,
	 .offset = O(theme),
	 .size = sizeof(((struct options *)0)->theme),
	 .min = 1,
	 .max = 64,
	 .def = "default",
	 .help = "colour theme of the screen, a file in the themes folder"},
	{.name = "no-config",
	 .type = OPTION_FLAG,
	 .offset = O(no_config),
	 .flags = OPTION_EARLY,
	 .help = "neither read nor write the explorer's settings, nor the "
		 "presets saved in the user's folder "
		 "($XDG_CONFIG_HOME/nio-top)"},
	{.name = "list-strategies",
	 .type = OPTION_FLAG,
	 .offset = O(list_strategies),
	 .help = "list the strategies and whether this machine can run them"},
	{.name = "completion",
	 .arg = "SHELL",
	 .type = OPTION_NAME,
	 .offset = O(completion),
	 .size = sizeof(((struct options *)0)->completion),
	 .min = 1,
	 .max = 7,
	 .help = "print a completion script for bash, zsh or fish, made "
		 "from this option table, and exit"},
	{.name = "check",
	 .type = OPTION_FLAG,
	 .offset = O(check),
	 .help = "print what this machine supports, and exit"},
	{.name = "help",
	 .letter = 'h',
	 .type = OPTION_FLAG,
	 .offset = O(help),
	 .help = "show this help"},
	{.name = "version",
	 .letter = 'V',
	 .type = OPTION_FLAG,
	 .offset = O(version),
	 .help = "show the version"},
};

const size_t option_row_count = sizeof(option_rows) / sizeof(option_rows[0]);

const struct option_row *options_by_name(const char *name)
{
	for (size_t i = 0; i < option_row_count; i++)
		if (option_rows[i].name &&
		    strcmp(option_rows[i].name, name) == 0)
			return &option_rows[i];
	return NULL;
}

const struct option_row *options_by_key(const char *key)
{
	for (size_t i = 0; i < option_row_count; i++)
		if (option_rows[i].key && strcmp(option_rows[i].key, key) == 0)
			return &option_rows[i];
	for (size_t i = 0; i < option_row_count; i++)
		if (option_rows[i].was && option_rows[i].was->key &&
		    strcmp(option_rows[i].was->key, key) == 0)
			return &option_rows[i];
	return NULL;
}

const cJSON *options_run_item(const cJSON *from, const struct option_row *row,
			      bool file)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(from,
							     row->run_key);

	if (!item && file && row->was && row->was->run_key)
		item = cJSON_GetObjectItemCaseSensitive(from,
							row->was->run_key);
	return item;
}

bool options_given(const struct options *o, const char *name)
{
	const struct option_row *row = options_by_name(name);

	return row && o->given[options_row_index(row)];
}

void options_defaults(struct options *o)
{
	char *cause = NULL;

	*o = (struct options){0};
	topo_options_default(&o->topo);
	for (size_t i = 0; i < option_row_count; i++) {
		if (option_rows[i].def &&
		    options_value_from_text(o, &option_rows[i],
					    option_rows[i].def, &cause) < 0)
			abort(); /* the table's own default does not parse */
	}
	o->counters_enabled = true;
	free(cause);
}
