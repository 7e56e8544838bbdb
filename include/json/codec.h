/*
 * JSON for records (engine/record.h): one writer and one reader for every
 * described struct, so the export, --load and the control protocol cannot
 * disagree on a shape.  A field's key may be a path ("zerocopy.sends"); its
 * group is an object of its own, and a group that is null reads as zeros.
 * Errors name the path of the value and the rule it broke
 * ("tick.totals.bytes_sent: must be an integer 0 .. 2^64-1").
 */
#ifndef NIO_TOP_CODEC_H
#define NIO_TOP_CODEC_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "environment.h"
#include "hostinfo.h"
#include "latency.h"
#include "metric.h"
#include "offcpu.h"
#include "probe.h"
#include "profile.h"
#include "record.h"
#include "sampler.h"

/*
 * How strictly to read: the protocol wants every field and no other key;
 * a file may lack fields marked optional (it is older) and may hold keys
 * this nio-top does not know (it is newer).
 */
enum codec_mode {
	CODEC_FILE,
	CODEC_STRICT,
};

/* Adds rec's fields of obj to the object into. */
void codec_write(const struct record *rec, const void *obj, cJSON *into);
/* The same as a new object. */
cJSON *codec_object(const struct record *rec, const void *obj);

/* Reads rec's fields from the object from into obj: 0, or -EINVAL. */
int codec_read(const struct record *rec, const cJSON *from, void *obj,
	       const char *path, enum codec_mode mode, char **cause);

/*
 * A run's totals, and its receive side's own counters in the block the
 * side names (an export adds every other side's block, null): written
 * into an object, and
 * read back (0, or -EINVAL) for a run whose receive side is rx.
 */
void codec_write_totals(const struct run_totals *t, enum rx_mode rx,
			cJSON *into);
int codec_read_totals(const cJSON *from, struct run_totals *t, enum rx_mode rx,
		      const char *path, enum codec_mode mode, char **cause);

/*
 * Whether from holds every field of rec, each of its kind, beside keys that
 * are not rec's (the other parts of a message, which the caller checks):
 * 0, or -EINVAL with *cause.  Nothing is read.
 */
int codec_check(const struct record *rec, const cJSON *from, const char *path,
		char **cause);
/* Whether key, at a record's own level, is one of rec's fields or groups. */
bool codec_has_key(const struct record *rec, const char *key);

/* count records stride bytes apart, as a list. */
cJSON *codec_list(const struct record *rec, const void *objs, size_t stride,
		  size_t count);
/* Exactly count of them. */
int codec_read_list(const struct record *rec, const cJSON *from, void *objs,
		    size_t stride, size_t count, const char *path,
		    enum codec_mode mode, char **cause);

/*
 * A side's figures, by the metric table: the counted ones (an export's and
 * the protocol's "derived"), or every one.
 */
cJSON *codec_metrics(const struct metric_values *v, bool counted_only);
int codec_read_metrics(const cJSON *from, struct metric_values *v,
		       bool counted_only, const char *path,
		       enum codec_mode mode, char **cause);

/*
 * A side's profile: its own fields (hz, samples, lost, user_only, why),
 * "roles": {KEY: {"share", "samples"}} for every role of the table,
 * "top_symbols" and "other_top": lists of functions.  A share is written
 * for people and recomputed from the samples when read.
 */
cJSON *codec_profile(const struct run_profile *p);
int codec_read_profile(const cJSON *from, struct run_profile *p,
		       const char *path, enum codec_mode mode, char **cause);

/*
 * One window of a probe (idle or loaded): its round trips as
 * latency_summary_record writes them and probe_window_record's fields, in
 * one object.
 */
cJSON *codec_probe_window(const struct probe_summary *w);
int codec_read_probe_window(const cJSON *from, struct probe_summary *w,
			    const char *path, char **cause);

/*
 * A side's time: its own fields (window_s, on_cpu_s, off_cpu_s,
 * cpu_clock_s, switches, runnable, lost, user_only, why) and "reasons": {KEY: {"seconds",
 * "count", "mean_us", "p99_us", "function"}} for every reason of the
 * table.  Read back, the reasons must hold the off-CPU time they add up
 * to, and the parts the window; a file's reason this table lacks goes to
 * other.
 */
cJSON *codec_time(const struct run_time *t);
int codec_read_time(const cJSON *from, struct run_time *t, const char *path,
		    enum codec_mode mode, char **cause);

/* A histogram, sparse: {"count", "sum_ns", "max_ns", "buckets": [[i, n]]}. */
cJSON *codec_hist(const struct latency_hist *h);
int codec_read_hist(const cJSON *from, struct latency_hist *h, const char *path,
		    char **cause);

/*
 * A host as an export and a welcome describe it: "host" (kernel, CPU model,
 * CPUs) and "capabilities" (each tried: namespaces, veth, qdiscs, the PMU and
 * its events, every strategy).
 */
cJSON *codec_host(const struct host_info *host);
cJSON *codec_capabilities(const struct host_info *host);
int codec_read_host(const cJSON *host_json, const cJSON *capabilities,
		    struct host_info *host, const char *host_path,
		    const char *capabilities_path, enum codec_mode mode,
		    char **cause);

/* The environment (engine/environment.h) an export's head holds. */
cJSON *codec_environment(const struct host_env *env);
int codec_read_environment(const cJSON *from, struct host_env *env,
			   const char *path, char **cause);

#endif
