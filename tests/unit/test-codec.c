/*
 * Records as JSON: what is written reads back the same (64-bit counts
 * exactly, unknown figures as null and back), and what breaks a record's
 * rules is refused with the path of the value -- an unknown key in strict
 * mode, a missing one, a wrong kind -- while a file may lack what is newer.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "jsonfile.h"
#include "run.h"
#include "sampler.h"
#include "tap.h"
#include "topo.h"

/* obj printed and parsed again, as a file or a message would be. */
static cJSON *again(cJSON *obj)
{
	char *text = cJSON_PrintUnformatted(obj), *cause = NULL;
	cJSON *root = NULL;

	if (jsonfile_parse("test", text, strlen(text), &root, &cause) < 0)
		ok(false, "reparse: %s", cause);
	free(cause);
	cause = NULL;
	cJSON_free(text);
	cJSON_Delete(obj);
	return root;
}

static int read_text_as(const struct record *rec, const char *text, void *obj,
			enum codec_mode mode, char **cause)
{
	cJSON *root = NULL;
	int r;

	*cause = NULL;
	if (jsonfile_parse("test", text, strlen(text), &root, cause) < 0)
		return -EINVAL;
	r = codec_read(rec, root, obj, "part", mode, cause);
	cJSON_Delete(root);
	return r;
}

static void test_totals(void)
{
	struct run_totals
		t =
			{
				.messages_sent =
					9007199254740993ull, /* 2^53 + 1 */
				.bytes_sent = UINT64_MAX,
				.corrupt = 3,
				.zc_copied = 7,
			},
		back;
	cJSON *json = cJSON_CreateObject();
	char *cause = NULL;

	t.rx_side[0] = 11;
	t.rx_side[4] = UINT64_MAX - 1;
	codec_write_totals(&t, RX_URING, json);
	json = again(json);
	memset(&back, 0xff, sizeof(back));
	memset(back.rx_side, 0, sizeof(back.rx_side));
	ok(json &&
		   codec_read_totals(json, &back, RX_URING, "totals",
				     CODEC_STRICT, &cause) == 0 &&
		   memcmp(&t, &back, sizeof(t)) == 0,
	   "totals and a receive side's counters read back exactly, 2^53 + 1 "
	   "and 2^64 - 1 included");
	ok(json &&
		   cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(
			   json, rx_side_of(RX_URING)->block)) &&
		   !cJSON_GetObjectItemCaseSensitive(
			   json, rx_side_of(RX_ZEROCOPY)->block),
	   "the receive side's counters are its block, no other side's");
	ok(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(json, "zerocopy")),
	   "zero-copy totals are a group of their own");
	cJSON_Delete(json);
	free(cause);
	cause = NULL;

	ok(read_text_as(&run_totals_record,
			"{\"messages_sent\":1,\"messages_received\":1,"
			"\"bytes_sent\":1,\"bytes_received\":1,"
			"\"integrity\":{\"checked\":0,\"corrupt\":0},"
			"\"zerocopy\":null,\"uring\":null}",
			&back, CODEC_STRICT, &cause) == 0 &&
		   back.zc_sends == 0,
	   "a null group reads as zeros (%s)", cause ? cause : "ok");
	free(cause);
	cause = NULL;
	ok(read_text_as(&run_totals_record,
			"{\"messages_sent\":1,\"messages_received\":1,"
			"\"bytes_sent\":1,\"bytes_received\":1,"
			"\"integrity\":{\"checked\":0,\"corrupt\":0,\"x\":1},"
			"\"zerocopy\":null}",
			&back, CODEC_STRICT, &cause) < 0 &&
		   cause &&
		   strcmp(cause, "part.integrity.x: not a key here") == 0,
	   "strict: an unknown key in a group is named (%s)",
	   cause ? cause : "ok");
	free(cause);
	cause = NULL;
	ok(read_text_as(&run_totals_record, "{\"messages_sent\":1}", &back,
			CODEC_STRICT, &cause) < 0 &&
		   cause && strstr(cause, "part.messages_received: missing"),
	   "a missing field is named (%s)", cause ? cause : "ok");
	free(cause);
	cause = NULL;
	ok(read_text_as(&run_totals_record,
			"{\"messages_sent\":-1,\"messages_received\":1,"
			"\"bytes_sent\":1,\"bytes_received\":1,"
			"\"integrity\":{\"checked\":0,\"corrupt\":0},"
			"\"zerocopy\":null,\"uring\":null}",
			&back, CODEC_FILE, &cause) < 0 &&
		   cause &&
		   strstr(cause, "part.messages_sent: must be an integer 0 .. "
				 "2^64-1"),
	   "a negative count is refused with its rule (%s)",
	   cause ? cause : "ok");
	free(cause);
	cause = NULL;
}

static void test_counter_value(void)
{
	struct counter_value v = {.status = COUNTER_NOT_SUPPORTED,
				  .value = NAN,
				  .running_pct = NAN},
			     back;
	cJSON *json;
	char *cause = NULL;

	snprintf(v.reason, sizeof(v.reason), "no PMU");
	json = again(codec_object(&counter_value_record, &v));
	ok(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(json, "value")),
	   "a counter that did not count is written as null, not 0");
	ok(codec_read(&counter_value_record, json, &back, "v", CODEC_STRICT,
		      &cause) == 0 &&
		   !counter_known(&back) &&
		   back.status == COUNTER_NOT_SUPPORTED &&
		   strcmp(back.reason, "no PMU") == 0,
	   "and reads back unknown, with its status and reason");
	cJSON_Delete(json);
	free(cause);
	cause = NULL;
	ok(read_text_as(&counter_value_record,
			"{\"value\":1,\"status\":\"fine\",\"running_pct\":100,"
			"\"reason\":null}",
			&back, CODEC_STRICT, &cause) < 0 &&
		   cause && strstr(cause, "part.status: must be one of \"ok\""),
	   "a status that is not one is refused (%s)", cause ? cause : "ok");
	free(cause);
	cause = NULL;
}

static void test_metrics_and_hist(void)
{
	struct metric_values v, back;
	struct latency_hist h = {0}, hb;
	cJSON *json;
	char *cause = NULL;

	metric_values_unknown(&v);
	v.value[metric_find("cpu_pct")] = 42.5;
	json = again(codec_metrics(&v, true));
	ok(!cJSON_GetObjectItemCaseSensitive(json, "gbps") &&
		   cJSON_GetObjectItemCaseSensitive(json, "cpu_ns_per_kib"),
	   "derived figures: the counted ones only");
	ok(codec_read_metrics(json, &back, true, "d", CODEC_STRICT, &cause) ==
			   0 &&
		   back.value[metric_find("cpu_pct")] == 42.5 &&
		   isnan(back.value[metric_find("ipc")]),
	   "figures read back, unknown ones as unknown");
	cJSON_DeleteItemFromObjectCaseSensitive(json, "cpu_ns_per_kib");
	ok(codec_read_metrics(json, &back, true, "d", CODEC_FILE, &cause) ==
			   0 &&
		   isnan(back.value[metric_find("cpu_ns_per_kib")]),
	   "a file from before a metric existed still reads");
	ok(codec_read_metrics(json, &back, true, "d", CODEC_STRICT, &cause) <
			   0 &&
		   cause && strcmp(cause, "d.cpu_ns_per_kib: missing") == 0,
	   "the protocol wants every figure (%s)", cause ? cause : "ok");
	cJSON_Delete(json);
	free(cause);
	cause = NULL;

	h.bucket[3] = 5;
	h.bucket[700] = 9007199254740993ull;
	h.count = 5 + 9007199254740993ull;
	h.sum_ns = 123;
	h.max_ns = 456;
	json = again(codec_hist(&h));
	ok(codec_read_hist(json, &hb, "h", &cause) == 0 &&
		   memcmp(&h, &hb, sizeof(h)) == 0,
	   "a histogram reads back exactly (%s)", cause ? cause : "ok");
	cJSON_Delete(json);
	free(cause);
	cause = NULL;
}

/*
 * A run's summary: its window, and the metric table's delivered figures
 * under their own keys, next to a message's other keys.
 */
static void test_summary(void)
{
	static struct run_result r, back;
	int gbps = metric_find("gbps"), msgs = metric_find("msgs_per_s");
	cJSON *json;
	char *cause = NULL;

	r.measured_s = 2.5;
	r.sampling_effect = NAN;
	metric_values_unknown(&r.receiver.derived);
	r.receiver.derived.value[gbps] = 9.5;
	json = again(codec_object(&run_summary_record, &r));
	ok(cJSON_GetArraySize(json) == 4 &&
		   cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(
			   json, "sampling_effect")) &&
		   cJSON_GetObjectItemCaseSensitive(json, "measured_s")
				   ->valuedouble == 2.5 &&
		   cJSON_GetObjectItemCaseSensitive(json, "gbps")
				   ->valuedouble == 9.5 &&
		   cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(json,
								 "msgs_per_s")),
	   "a summary: measured_s, gbps, msgs_per_s and sampling_effect "
	   "(unknown: null)");
	ok(codec_read(&run_summary_record, json, &back, "s", CODEC_STRICT,
		      &cause) == 0 &&
		   back.measured_s == 2.5 &&
		   back.receiver.derived.value[gbps] == 9.5 &&
		   isnan(back.receiver.derived.value[msgs]),
	   "and reads back into the receiver's figures (%s)",
	   cause ? cause : "ok");
	free(cause);
	cause = NULL;
	ok(codec_has_key(&run_summary_record, "msgs_per_s") &&
		   !codec_has_key(&run_summary_record, "cpu_pct") &&
		   !codec_has_key(&run_summary_record, ""),
	   "its keys are the window and the delivered figures only");
	cJSON_AddItemToObject(json, "totals", cJSON_CreateObject());
	ok(codec_check(&run_summary_record, json, "m", &cause) == 0,
	   "checked beside a message's other keys (%s)", cause ? cause : "ok");
	free(cause);
	cause = NULL;
	cJSON_ReplaceItemInObjectCaseSensitive(json, "measured_s",
					       cJSON_CreateNull());
	ok(codec_check(&run_summary_record, json, "m", &cause) < 0 && cause &&
		   strcmp(cause, "m.measured_s: must be a number >= 0") == 0,
	   "a window is always known: null is refused (%s)",
	   cause ? cause : "ok");
	free(cause);
	cause = NULL;
	cJSON_ReplaceItemInObjectCaseSensitive(json, "measured_s",
					       cJSON_CreateNumber(1));
	cJSON_DeleteItemFromObjectCaseSensitive(json, "msgs_per_s");
	ok(codec_check(&run_summary_record, json, "m", &cause) < 0 && cause &&
		   strcmp(cause, "m.msgs_per_s: missing") == 0,
	   "a missing delivered figure is named (%s)", cause ? cause : "ok");
	free(cause);
	cJSON_Delete(json);
}

/*
 * A link's BIG TCP sizes are written as the kernel names them, and an
 * export from before, which named them gso_max_size and gro_max_size, reads.
 */
static void test_renamed(void)
{
	struct topo_stack s = {.gso_max_size = 185000,
			       .gro_max_size = 131072,
			       .tso_max_size = 524280,
			       .gro = true},
			  back = {0};
	static const char *const before =
		"{\"gso_max_size\": 185000, \"gro_max_size\": 131072, "
		"\"tso_max_size\": 524280, \"gro\": true}";
	cJSON *json = codec_object(&topo_stack_record, &s);
	char *cause = NULL;
	int r;

	ok(cJSON_GetObjectItem(json, "gso_ipv4_max_size") &&
		   cJSON_GetObjectItem(json, "gro_ipv4_max_size") &&
		   !cJSON_GetObjectItem(json, "gso_max_size") &&
		   !cJSON_GetObjectItem(json, "gro_max_size"),
	   "a link's sizes are written as gso_ipv4_max_size and "
	   "gro_ipv4_max_size");
	cJSON_Delete(json);
	r = read_text_as(&topo_stack_record, before, &back, CODEC_FILE, &cause);
	ok(r == 0 && back.gso_max_size == 185000 &&
		   back.gro_max_size == 131072 && back.tso_max_size == 524280 &&
		   back.gro,
	   "an export's former keys read (%s)", cause ? cause : "ok");
	free(cause);
	r = read_text_as(&topo_stack_record, before, &back, CODEC_STRICT,
			 &cause);
	ok(r < 0 && cause, "the protocol wants the new ones: %s", cause);
	free(cause);
}

int main(void)
{
	test_totals();
	test_counter_value();
	test_metrics_and_hist();
	test_summary();
	test_renamed();
	return tap_done();
}
