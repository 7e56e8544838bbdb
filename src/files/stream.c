/*
 * The stream's lines: each an object printed on one line and written at
 * once (the outfile writes through, so a reader sees it as it happens).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "codec.h"
#include "export.h"
#include "stream.h"

int stream_open(struct stream *st, const char *path, char **cause)
{
	*st = (struct stream){0};
	if (strcmp(path, "-") == 0)
		outfile_borrow(&st->file, STDOUT_FILENO, "standard output");
	else
		outfile_open_flags(&st->file, path, OUTFILE_LIVE);
	if (st->file.error)
		return outfile_commit(&st->file, cause);
	return 0;
}

bool stream_gone(const struct stream *st)
{
	return st->file.error == -EPIPE;
}

/* {"event": event, "time": now, "data": data}, data taken. */
static void stream_line(struct stream *st, const char *event, cJSON *data)
{
	cJSON *line = cJSON_CreateObject();
	struct timespec now;
	char *text;

	clock_gettime(CLOCK_REALTIME, &now);
	cJSON_AddStringToObject(line, "event", event);
	cJSON_AddNumberToObject(line, "time",
				(double)now.tv_sec + (double)now.tv_nsec / 1e9);
	cJSON_AddItemToObject(line, "data", data ? data : cJSON_CreateNull());
	text = cJSON_PrintUnformatted(line);
	cJSON_Delete(line);
	if (!text) {
		if (!st->file.error)
			st->file.error = -ENOMEM;
		return;
	}
	outfile_puts(&st->file, text);
	outfile_puts(&st->file, "\n");
	cJSON_free(text);
}

void stream_start(struct stream *st, const struct session *s)
{
	cJSON *head = export_head(s);

	if (head) {
		cJSON_ReplaceItemInObjectCaseSensitive(
			head, "format", cJSON_CreateString(STREAM_FORMAT));
		cJSON_AddNumberToObject(head, "runs_planned",
					(double)s->plan_count);
	}
	stream_line(st, "start", head);
}

static void stream_interval(struct stream *st, const struct session *s,
			    const struct run_config *c,
			    const struct run_interval *iv)
{
	cJSON *data = cJSON_CreateObject();

	cJSON_AddNumberToObject(data, "run", (double)session_next_run(s));
	cJSON_AddStringToObject(data, "strategy", c->strategy->name);
	cJSON_AddNumberToObject(data, "msg_size", (double)c->msg_size);
	cJSON_AddNumberToObject(data, "threads", c->threads);
	cJSON_AddStringToObject(data, "mode", run_mode_name(c->mode));
	cJSON_AddStringToObject(data, "rx", rx_mode_names[c->settings.rx]);
	cJSON_AddNumberToObject(data, "t_s", iv->t_s);
	cJSON_AddNumberToObject(data, "length_s", iv->length_s);
	cJSON_AddBoolToObject(data, "warmup", iv->warmup);
	cJSON_AddItemToObject(data, "sender",
			      codec_metrics(&iv->side[0], false));
	cJSON_AddItemToObject(data, "receiver",
			      codec_metrics(&iv->side[1], false));
	stream_line(st, "interval", data);
}

void stream_intervals(struct stream *st, const struct session *s,
		      const struct run *run)
{
	size_t n = run_interval_count(run), first = n;
	struct run_interval iv;

	if (st->run != run) {
		st->run = run;
		st->sent_t_s = -1;
	}
	/* Back from the end to the first not sent: older ones may merge. */
	while (first > 0) {
		if (run_interval_at(run, first - 1, &iv) &&
		    iv.t_s <= st->sent_t_s)
			break;
		first--;
	}
	for (size_t i = first; i < n; i++) {
		if (!run_interval_at(run, i, &iv))
			continue;
		stream_interval(st, s, run_config_of(run), &iv);
		st->sent_t_s = iv.t_s;
	}
}

void stream_results(struct stream *st, const struct session *s)
{
	while (st->runs_sent < s->result_count) {
		stream_line(st, "run",
			    export_run(s, &s->results[st->runs_sent]));
		st->runs_sent++;
		/* A new run reuses the address of the one before. */
		st->run = NULL;
	}
}

void stream_analysis(struct stream *st, const struct session *s)
{
	stream_line(st, "analysis", export_analysis(s));
}

int stream_close(struct stream *st, const struct session *s, const char *why,
		 char **cause)
{
	cJSON *data = cJSON_CreateObject();
	bool gone;

	cJSON_AddNumberToObject(data, "runs", (double)s->result_count);
	cJSON_AddBoolToObject(data, "complete", why == NULL);
	if (why)
		cJSON_AddStringToObject(data, "why", why);
	else
		cJSON_AddNullToObject(data, "why");
	stream_line(st, "end", data);
	gone = stream_gone(st);
	if (outfile_commit(&st->file, cause) < 0 && !gone)
		return -EIO;
	if (gone) {
		free(*cause);
		*cause = NULL;
	}
	return 0;
}
