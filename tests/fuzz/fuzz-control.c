/*
 * The control protocol (--serve, --connect): any bytes on the connection
 * give lines no longer than the reader's limit, and each line either parses
 * as a known message whose every part decodes, or gives an error that names
 * where; a parsed message printed again parses again as the same type.
 */
#include <sys/mman.h>
#include <unistd.h>

#include "codec.h"
#include "fuzz.h"
#include "proto.h"
#include "sampler.h"

#define LINE_MAX_TEST 4096

/* The parts a client decodes from a tick or a result. */
__attribute__((nonnull)) static void decode(const cJSON *msg, const char *type)
{
	const cJSON *counters = cJSON_GetObjectItemCaseSensitive(msg,
								 "counters");
	size_t n = (size_t)cJSON_GetArraySize(counters);
	struct counter_reading readings[COUNTERS_MAX];
	struct counter_value values[COUNTERS_MAX];
	struct counter_open open[COUNTERS_MAX];
	struct metric_values derived;
	static struct latency_hist hist;
	struct run_totals totals;
	const cJSON *item;
	char *cause = NULL, path[64];
	size_t len = strlen(type);
	int r;

	if (n > COUNTERS_MAX)
		n = COUNTERS_MAX;
	snprintf(path, sizeof(path), "%s.totals", type);
	r = codec_read(&run_totals_record,
		       cJSON_GetObjectItemCaseSensitive(msg, "totals"), &totals,
		       path, CODEC_STRICT, &cause);
	if (r == 0 && strcmp(type, "tick") == 0) {
		r = codec_read_list(&counter_reading_record, counters, readings,
				    sizeof(readings[0]), n, type, CODEC_STRICT,
				    &cause);
		if (r == 0)
			r = codec_read_list(
				&counter_open_record,
				cJSON_GetObjectItemCaseSensitive(msg, "open"),
				open, sizeof(open[0]), n, type, CODEC_STRICT,
				&cause);
	} else if (r == 0) {
		r = codec_read_list(&counter_value_record, counters, values,
				    sizeof(values[0]), n, type, CODEC_STRICT,
				    &cause);
		item = cJSON_GetObjectItemCaseSensitive(msg, "derived");
		if (r == 0)
			r = codec_read_metrics(item, &derived, false, type,
					       CODEC_STRICT, &cause);
	}
	item = cJSON_GetObjectItemCaseSensitive(msg, "latency");
	if (r == 0 && cJSON_IsObject(item))
		r = codec_read_hist(item, &hist, type, &cause);
	if (r < 0 && (!cause || strncmp(cause, type, len) != 0))
		fuzz_fail("a %s part's error without its path: \"%s\"", type,
			  cause ? cause : "(none)");
	free(cause);
}

static void check_line(const char *line, size_t len)
{
	const char *type = NULL, *again_type = NULL;
	cJSON *msg, *again;
	char *cause = NULL, *text;

	if (memchr(line, '\n', len) || len >= LINE_MAX_TEST)
		fuzz_fail("a line of %zu bytes, or one holding a newline", len);
	if (proto_parse(line, len, &msg, &type, &cause) < 0) {
		if (!cause || !cause[0])
			fuzz_fail("an error without a cause");
		free(cause);
		return;
	}
	if (!type)
		fuzz_fail("a message without its type");
	if (cause)
		fuzz_fail("a message of type %s with an error: %s", type,
			  cause);
	if (strcmp(type, "tick") == 0 || strcmp(type, "result") == 0)
		decode(msg, type);
	text = cJSON_PrintUnformatted(msg);
	if (!text ||
	    proto_parse(text, strlen(text), &again, &again_type, &cause) < 0 ||
	    strcmp(type, again_type) != 0)
		fuzz_fail("\"%s\" does not parse again: %s", text ? text : "",
			  cause ? cause : "");
	cJSON_Delete(again);
	cJSON_free(text);
	cJSON_Delete(msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("control", MFD_CLOEXEC);
	struct proto_reader in;
	char *line;
	size_t len;

	if (fd < 0 || proto_reader_init(&in, LINE_MAX_TEST) < 0 ||
	    write(fd, data, size) != (ssize_t)size || lseek(fd, 0, SEEK_SET))
		abort();
	for (;;) {
		ssize_t n = proto_reader_fill(&in, fd);
		int r;

		while ((r = proto_reader_next(&in, &line, &len)) == 1)
			check_line(line, len);
		if (r < 0 || n <= 0)
			break;
	}
	proto_reader_fini(&in);
	close(fd);
	return 0;
}
