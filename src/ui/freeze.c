/*
 * Freezing copies the explorer and its minute of history, and keeps the
 * number of runs there were: the runs themselves only grow, so the first
 * of them are still the ones the frozen screen showed.
 */
#include <stdlib.h>
#include <string.h>

#include "freeze.h"
#include "status.h"

void ui_freeze_free(struct ui *ui)
{
	if (!ui->frozen)
		return;
	free(ui->frozen_history);
	ui->frozen_history = NULL;
	analysis_fini(&ui->frozen_analysis);
	ui->frozen = false;
}

static void thaw(struct ui *ui, const struct explorer *e)
{
	size_t frozen_newest = ui->frozen_session.result_count;

	ui_freeze_free(ui);
	/* Looking at the newest run when frozen: follow again. */
	if ((!frozen_newest || ui->runs.cursor + 1 == frozen_newest) &&
	    e->session->result_count) {
		ui->runs.cursor = e->session->result_count - 1;
		ui->runs.new_runs = 0;
	}
	ui_note(ui, "live again");
}

void ui_freeze(struct ui *ui, const struct explorer *e)
{
	struct explorer *f = &ui->frozen_explorer;
	struct explorer_point *history = NULL;

	if (ui->frozen) {
		thaw(ui, e);
		return;
	}
	if (e->history_capacity) {
		history = calloc(e->history_capacity, sizeof(*history));
		if (!history) {
			ui_note(ui, "cannot freeze: out of memory");
			return;
		}
		memcpy(history, e->history,
		       e->history_capacity * sizeof(*history));
	}
	*f = *e;
	f->history = history;
	ui->frozen_history = history;
	ui->frozen_session = *e->session;
	memset(&ui->frozen_analysis, 0, sizeof(ui->frozen_analysis));
	analysis_build(e->session->results, e->session->run_facts,
		       e->session->result_count, &ui->frozen_analysis);
	ui->frozen = true;
	ui_note(ui, "frozen: runs go on underneath; Z or F8 shows them");
}

const struct explorer *ui_shown(struct ui *ui, const struct explorer *e)
{
	size_t n = ui->frozen_session.result_count;

	if (!ui->frozen)
		return e;
	/* The results may have moved; the first n stay as they were. */
	ui->frozen_session = *e->session;
	ui->frozen_session.result_count = n;
	if (ui->frozen_session.run_fact_count > n)
		ui->frozen_session.run_fact_count = n;
	ui->frozen_session.analysis = ui->frozen_analysis;
	ui->frozen_explorer.session = &ui->frozen_session;
	ui->frozen_explorer.presets = e->presets;
	ui->frozen_explorer.preset_count = e->preset_count;
	return &ui->frozen_explorer;
}
