/*
 * The control protocol: line framing, and the table of messages and their
 * keys that every received message is checked against.  The parts inside
 * messages (totals, counters, histograms, a run's configuration) are records
 * and options, read and written by json/codec and config/options.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cause.h"
#include "codec.h"
#include "jsonfile.h"
#include "metric.h"
#include "proto.h"
#include "run.h"
#include "userfile.h"

#define TEXT_MAX 4096

enum field_kind {
	FIELD_TEXT,
	FIELD_INTEGER, /* exact, min .. max */
	FIELD_NUMBER,  /* finite, or null: unknown */
	FIELD_BOOL,
	FIELD_OBJECT,
	FIELD_LIST,
};

struct field {
	const char *key;
	enum field_kind kind;
	bool required;
	bool nullable;
	uint64_t min, max; /* integers; lengths of text and lists */
};

struct message_type {
	const char *name;
	const struct field *fields;
};

#define RUN_ID                                                                 \
	{                                                                      \
		"run", FIELD_INTEGER, true, false, 1, UINT32_MAX               \
	}
#define END                                                                    \
	{                                                                      \
		NULL, 0, false, false, 0, 0                                    \
	}
#define TEXT(k, r, max)                                                        \
	{                                                                      \
		k, FIELD_TEXT, r, false, 0, max                                \
	}

static const struct field hello_fields[] = {
	{"version", FIELD_INTEGER, true, false, 0, UINT32_MAX},
	TEXT("secret", false, PROTO_SECRET_MAX),
	TEXT("tool", false, 64),
	END,
};
static const struct field welcome_fields[] = {
	{"version", FIELD_INTEGER, true, false, 0, UINT32_MAX},
	TEXT("tool", true, 64),
	{"host", FIELD_OBJECT, true, false, 0, 0},
	{"capabilities", FIELD_OBJECT, true, false, 0, 0},
	END,
};
static const struct field error_fields[] = {
	TEXT("error", true, TEXT_MAX),
	{"version", FIELD_INTEGER, false, false, 0, UINT32_MAX},
	END,
};
static const struct field refused_fields[] = {
	RUN_ID,
	TEXT("error", true, TEXT_MAX),
	END,
};
static const struct field run_fields[] = {
	RUN_ID,
	TEXT("agent_side", true, 16),
	{"config", FIELD_OBJECT, true, false, 0, 0},
	END,
};
static const struct field ready_fields[] = {
	RUN_ID,
	{"port", FIELD_INTEGER, true, false, 1, 65535},
	END,
};
static const struct field flows_fields[] = {
	RUN_ID,
	{"ports", FIELD_LIST, true, false, 1, 64},
	END,
};
static const struct field run_only_fields[] = {RUN_ID, END};
static const struct field abort_fields[] = {
	RUN_ID,
	TEXT("reason", false, TEXT_MAX),
	END,
};
static const struct field tick_fields[] = {
	RUN_ID,
	{"totals", FIELD_OBJECT, true, false, 0, 0},
	{"counting", FIELD_BOOL, true, false, 0, 0},
	{"pmu", FIELD_BOOL, true, false, 0, 0},
	{"counters", FIELD_LIST, true, false, 0, COUNTERS_MAX},
	{"open", FIELD_LIST, true, false, 0, COUNTERS_MAX},
	{"latency", FIELD_OBJECT, true, true, 0, 0},
	{"error", FIELD_TEXT, true, true, 0, TEXT_MAX},
	END,
};
static const struct field result_fields[] = {
	RUN_ID,
	{"totals", FIELD_OBJECT, true, false, 0, 0},
	{"counted", FIELD_BOOL, true, false, 0, 0},
	{"counters", FIELD_LIST, true, false, 0, COUNTERS_MAX},
	{"derived", FIELD_OBJECT, true, false, 0, 0},
	{"latency", FIELD_OBJECT, true, true, 0, 0},
	{"profile", FIELD_OBJECT, true, true, 0, 0},
	{"time", FIELD_OBJECT, true, true, 0, 0},
	{"error", FIELD_TEXT, true, true, 0, TEXT_MAX},
	END,
};

static const struct message_type message_types[] = {
	{"hello", hello_fields},      {"welcome", welcome_fields},
	{"error", error_fields},      {"refused", refused_fields},
	{"run", run_fields},	      {"ready", ready_fields},
	{"flows", flows_fields},      {"started", run_only_fields},
	{"measure", run_only_fields}, {"stop", run_only_fields},
	{"abort", abort_fields},      {"tick", tick_fields},
	{"result", result_fields},
};

/*
 * The records a message holds at its own level besides its fields, checked
 * by the codec: a result's summary (measured_s and the delivered figures).
 */
static const struct {
	const char *type;
	const struct record *record;
} message_records[] = {
	{"result", &run_summary_record},
};

/* The record message type t holds at its own level, or NULL. */
static const struct record *message_record(const struct message_type *t)
{
	for (size_t i = 0;
	     i < sizeof(message_records) / sizeof(message_records[0]); i++)
		if (strcmp(message_records[i].type, t->name) == 0)
			return message_records[i].record;
	return NULL;
}

int proto_read_secret(const char *path, char secret[PROTO_SECRET_MAX + 1],
		      char **cause)
{
	char *text = NULL, *why = NULL;
	size_t len;
	int r;

	*cause = NULL;
	secret[0] = '\0';
	/* The secret, a newline (maybe \r\n) and nothing more. */
	r = userfile_read_private(path, PROTO_SECRET_MAX + 2, &text, &len,
				  &why);
	if (r == -EFBIG)
		r = cause_set(cause, -EINVAL,
			      "--auth-file: %s: the secret is longer than %d "
			      "bytes",
			      path, PROTO_SECRET_MAX);
	else if (r < 0)
		r = cause_set(cause, -EINVAL, "--auth-file: %s",
			      why ? why : strerror(-r));
	free(why);
	if (r < 0)
		return r;
	if (len && text[len - 1] == '\n')
		len--;
	if (len && text[len - 1] == '\r')
		len--;
	if (memchr(text, '\0', len))
		r = cause_set(cause, -EINVAL,
			      "--auth-file: %s: holds a NUL byte", path);
	else if (memchr(text, '\n', len) || memchr(text, '\r', len))
		r = cause_set(cause, -EINVAL,
			      "--auth-file: %s: more than one line; the "
			      "secret is the whole file",
			      path);
	else if (len == 0)
		r = cause_set(cause, -EINVAL,
			      "--auth-file: %s: holds no secret", path);
	else if (len > PROTO_SECRET_MAX)
		r = cause_set(cause, -EINVAL,
			      "--auth-file: %s: the secret is longer than %d "
			      "bytes",
			      path, PROTO_SECRET_MAX);
	if (r == 0) {
		memcpy(secret, text, len);
		secret[len] = '\0';
	}
	explicit_bzero(text, len);
	free(text);
	return r;
}

bool proto_secret_equal(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned char diff = la != lb;

	for (size_t i = 0; i < la; i++)
		diff |= (unsigned char)a[i] ^ (unsigned char)b[i % (lb + 1)];
	return diff == 0;
}

int proto_reader_init(struct proto_reader *r, size_t max)
{
	*r = (struct proto_reader){.max = max};
	r->buf = malloc(max + 1);
	return r->buf ? 0 : -ENOMEM;
}

void proto_reader_fini(struct proto_reader *r)
{
	free(r->buf);
	r->buf = NULL;
}

void proto_reader_reset(struct proto_reader *r)
{
	r->len = r->scanned = r->taken = 0;
}

ssize_t proto_reader_fill(struct proto_reader *r, int fd)
{
	ssize_t n;

	if (r->len == r->max)
		return -EMSGSIZE;
	n = read(fd, r->buf + r->len, r->max - r->len);
	if (n < 0)
		return -errno;
	r->len += (size_t)n;
	return n;
}

int proto_reader_next(struct proto_reader *r, char **line, size_t *len)
{
	char *nl;

	/* The line handed out last time is gone from the front. */
	if (r->taken) {
		memmove(r->buf, r->buf + r->taken, r->len - r->taken);
		r->len -= r->taken;
		r->taken = r->scanned = 0;
	}
	nl = memchr(r->buf + r->scanned, '\n', r->len - r->scanned);
	if (!nl) {
		r->scanned = r->len;
		return r->len == r->max ? -EMSGSIZE : 0;
	}
	*nl = '\0';
	*line = r->buf;
	*len = (size_t)(nl - r->buf);
	r->taken = *len + 1;
	return 1;
}

static const char *const field_kind_rule[] = {
	[FIELD_TEXT] = "must be text",
	[FIELD_INTEGER] = "must be an integer",
	[FIELD_NUMBER] = "must be a number",
	[FIELD_BOOL] = "must be true or false",
	[FIELD_OBJECT] = "must be an object",
	[FIELD_LIST] = "must be a list",
};

static int check_field(const struct field *f, const cJSON *item,
		       const char *type, char **cause)
{
	uint64_t n;
	size_t len;

	if (cJSON_IsNull(item) && f->nullable)
		return 0;
	switch (f->kind) {
	case FIELD_TEXT:
		if (!cJSON_IsString(item))
			break;
		len = strlen(item->valuestring);
		if (len > f->max)
			return cause_set(cause, -EINVAL,
					 "%s.%s: longer than %" PRIu64 " bytes",
					 type, f->key, f->max);
		return 0;
	case FIELD_INTEGER:
		if (jsonfile_u64(item, &n) < 0 || n < f->min || n > f->max)
			return cause_set(cause, -EINVAL,
					 "%s.%s: must be an integer %" PRIu64
					 " .. %" PRIu64,
					 type, f->key, f->min, f->max);
		return 0;
	case FIELD_NUMBER:
		if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble))
			break;
		return 0;
	case FIELD_BOOL:
		if (!cJSON_IsBool(item))
			break;
		return 0;
	case FIELD_OBJECT:
		if (!cJSON_IsObject(item))
			break;
		return 0;
	case FIELD_LIST:
		if (!cJSON_IsArray(item))
			break;
		if ((uint64_t)cJSON_GetArraySize(item) < f->min ||
		    (uint64_t)cJSON_GetArraySize(item) > f->max)
			return cause_set(cause, -EINVAL,
					 "%s.%s: must hold %" PRIu64
					 " .. %" PRIu64 " items",
					 type, f->key, f->min, f->max);
		return 0;
	}
	return cause_set(cause, -EINVAL, "%s.%s: %s%s", type, f->key,
			 field_kind_rule[f->kind],
			 f->nullable ? " or null" : "");
}

/* Every key known, every required key there, every value of its kind. */
static int check_message(const struct message_type *t, const cJSON *msg,
			 char **cause)
{
	const struct record *record = message_record(t);
	const cJSON *item;

	cJSON_ArrayForEach(item, msg)
	{
		const struct field *f = t->fields;

		if (strcmp(item->string, "type") == 0 ||
		    (record && codec_has_key(record, item->string)))
			continue;
		while (f->key && strcmp(f->key, item->string) != 0)
			f++;
		if (!f->key)
			return cause_set(cause, -EINVAL,
					 "%s.%s: not a key of %s", t->name,
					 item->string, t->name);
		if (check_field(f, item, t->name, cause) < 0)
			return -EINVAL;
	}
	for (const struct field *f = t->fields; f->key; f++) {
		if (f->required &&
		    !cJSON_GetObjectItemCaseSensitive(msg, f->key))
			return cause_set(cause, -EINVAL, "%s.%s: missing",
					 t->name, f->key);
	}
	return record ? codec_check(record, msg, t->name, cause) : 0;
}

/*
 * A version, wherever given, is checked before anything else: a message of
 * another version may hold other keys, and the error must say the versions.
 */
static int check_version(const cJSON *msg, char **cause)
{
	const cJSON *version = cJSON_GetObjectItemCaseSensitive(msg, "version");
	uint64_t v;

	if (!version || jsonfile_u64(version, &v) < 0 || v == PROTO_VERSION)
		return 0;
	if (asprintf(cause,
		     "protocol version %" PRIu64
		     " is not supported: this nio-top speaks version %d",
		     v, PROTO_VERSION) < 0)
		*cause = NULL;
	return -EPROTONOSUPPORT;
}

int proto_parse(const char *line, size_t len, cJSON **msg, const char **type,
		char **cause)
{
	const cJSON *name;
	int r;

	*msg = NULL;
	*cause = NULL;
	r = jsonfile_parse("message", line, len, msg, cause);
	if (r < 0)
		return -EINVAL;
	if (!cJSON_IsObject(*msg)) {
		r = cause_set(cause, -EINVAL, "message: must be an object");
		goto err;
	}
	name = cJSON_GetObjectItemCaseSensitive(*msg, "type");
	if (!cJSON_IsString(name)) {
		r = cause_set(cause, -EINVAL, "type: missing, or not text");
		goto err;
	}
	for (size_t i = 0; i < sizeof(message_types) / sizeof(*message_types);
	     i++) {
		if (strcmp(name->valuestring, message_types[i].name) != 0)
			continue;
		r = check_version(*msg, cause);
		if (r == 0)
			r = check_message(&message_types[i], *msg, cause);
		if (r < 0)
			goto err;
		*type = message_types[i].name;
		return 0;
	}
	r = cause_set(cause, -EINVAL, "type: \"%.64s\" is not a message",
		      name->valuestring);
err:
	cJSON_Delete(*msg);
	*msg = NULL;
	return r;
}

cJSON *proto_message(const char *type, unsigned int id)
{
	cJSON *msg = cJSON_CreateObject();

	cJSON_AddStringToObject(msg, "type", type);
	if (id)
		cJSON_AddNumberToObject(msg, "run", id);
	return msg;
}

int proto_send(int fd, const cJSON *msg)
{
	char *text = cJSON_PrintUnformatted(msg);
	size_t len, done = 0;
	int r = 0;

	if (!text)
		return -ENOMEM;
	len = strlen(text);
	text[len++] = '\n'; /* over the NUL: the length is known */
	while (done < len) {
		ssize_t n = send(fd, text + done, len - done, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : -EPIPE;
			break;
		}
		done += (size_t)n;
	}
	cJSON_free(text);
	return r;
}

int proto_send_error(int fd, const char *text)
{
	cJSON *msg = proto_message("error", 0);
	int r;

	cJSON_AddStringToObject(msg, "error", text);
	cJSON_AddNumberToObject(msg, "version", PROTO_VERSION);
	r = proto_send(fd, msg);
	cJSON_Delete(msg);
	return r;
}

unsigned int proto_run_id(const cJSON *msg)
{
	uint64_t id;

	if (jsonfile_u64(cJSON_GetObjectItemCaseSensitive(msg, "run"), &id) <
		    0 ||
	    id > UINT32_MAX)
		return 0;
	return (unsigned int)id;
}

/* A side's profile or time, where it was sampled; else null. */
static cJSON *sampled_side(const struct run_result *r, bool sender, bool time)
{
	int side = sender ? 0 : 1;

	if (time)
		return r->time[side].present ? codec_time(&r->time[side])
					     : cJSON_CreateNull();
	return r->profile[side].present ? codec_profile(&r->profile[side])
					: cJSON_CreateNull();
}

cJSON *proto_result(unsigned int id, const struct run_result *r, bool sender,
		    enum rx_mode rx, const struct latency_hist *rtt)
{
	const struct run_side_counters *side = sender ? &r->sender
						      : &r->receiver;
	unsigned int events = r->config.counters ? r->config.counters->count
						 : 0;
	cJSON *msg = proto_message("result", id);
	cJSON *totals = cJSON_AddObjectToObject(msg, "totals");

	codec_write_totals(&r->totals, rx, totals);
	codec_write(&run_summary_record, r, msg);
	cJSON_AddBoolToObject(msg, "counted", r->counted);
	cJSON_AddItemToObject(msg, "counters",
			      codec_list(&counter_value_record, side->value,
					 sizeof(side->value[0]),
					 r->counted ? events : 0));
	cJSON_AddItemToObject(msg, "derived",
			      codec_metrics(&side->derived, false));
	cJSON_AddItemToObject(msg, "latency",
			      rtt ? codec_hist(rtt) : cJSON_CreateNull());
	cJSON_AddItemToObject(msg, "profile", sampled_side(r, sender, false));
	cJSON_AddItemToObject(msg, "time", sampled_side(r, sender, true));
	if (r->error)
		cJSON_AddStringToObject(msg, "error", r->error);
	else
		cJSON_AddNullToObject(msg, "error");
	return msg;
}

int proto_check_result(const struct run_totals *t,
		       const struct metric_values *derived, double measured_s,
		       double warmup_s, const struct latency_hist *rtt,
		       unsigned int flows, char **cause)
{
	char *why = NULL;
	int r;

	/*
	 * A flow's round trips follow each other: they fit in its window (the
	 * first may have begun in the warm-up).
	 */
	if (rtt && (double)rtt->sum_ns >
			   latency_window_ns(measured_s + warmup_s, flows))
		return cause_set(cause, -EPROTO,
				 "latency: %" PRIu64 " round trips that add "
				 "up to %.3g s do not fit in %.3g s of %u "
				 "flow%s",
				 rtt->count, (double)rtt->sum_ns / 1e9,
				 measured_s, flows, flows == 1 ? "" : "s");
	if (rtt &&
	    (double)rtt->max_ns > latency_window_ns(measured_s + warmup_s, 1))
		return cause_set(cause, -EPROTO,
				 "latency: a round trip of %.3g s in a window "
				 "of %.3g s",
				 (double)rtt->max_ns / 1e9, measured_s);
	r = run_rates_check(t, derived, measured_s, 0, &why);
	if (r < 0) {
		cause_set(cause, -EPROTO, "derived.%s", why);
		free(why);
		return -EPROTO;
	}
	return 0;
}
