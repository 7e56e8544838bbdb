/*
 * The runs table's cells of each side's largest wait: the reason's name
 * and its share of the side's time, or "CPU" and the share on the CPU
 * where the side never waited for a reason (a short run whose sender never
 * left the CPU: the cell once read the name past the reason table's end).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "offcpu.h"
#include "reason.h"
#include "table.h"
#include "tap.h"

/* The table's column of side's largest wait, or NULL. */
static const struct ui_column *wait_column(const struct ui_column *col,
					   size_t n, const char *key)
{
	for (size_t k = 0; k < n; k++)
		if (strcmp(col[k].key, key) == 0)
			return &col[k];
	return NULL;
}

int main(void)
{
	static struct ui_column col[UI_COLUMNS_MAX];
	static struct run_result r;
	size_t n = ui_runs_columns(col);
	const struct ui_column *tx = wait_column(col, n, "tx_wait");
	const struct ui_column *rx = wait_column(col, n, "rx_wait");
	struct run_time *sender = &r.time[SIDE_SENDER];
	struct run_time *receiver = &r.time[SIDE_RECEIVER];
	char cell[64], want[64];

	if (!ok(tx && rx, "the table has each side's largest wait"))
		return tap_done();

	/* The sender on the CPU all its window; the receiver waiting. */
	sender->present = receiver->present = true;
	sender->window_s = receiver->window_s = 0.3;
	sender->on_cpu_s = 0.3;
	receiver->on_cpu_s = 0.12;
	receiver->off_cpu_s = 0.18;
	receiver->reason[0].seconds = 0.15;
	receiver->reason[reason_preempted].seconds = 0.03;

	ui_column_cell(&r, tx, cell, sizeof(cell));
	ok(strcmp(cell, "CPU 100%") == 0,
	   "a side that never waited shows its share on the CPU (%s)", cell);
	ui_column_cell(&r, rx, cell, sizeof(cell));
	snprintf(want, sizeof(want), "%s 50%%", reasons[0].abbrev);
	ok(strcmp(cell, want) == 0,
	   "a side that waited shows its largest wait and its share (%s, "
	   "want %s)",
	   cell, want);

	/* Off the CPU with no reason told (no call chains): still its share. */
	sender->on_cpu_s = 0.2;
	sender->off_cpu_s = 0.1;
	sender->user_only = true;
	ui_column_cell(&r, tx, cell, sizeof(cell));
	ok(strcmp(cell, "CPU 67%") == 0,
	   "off the CPU for no reason it could tell, the share on it (%s)",
	   cell);

	/* Not sampled: no figure. */
	sender->present = false;
	ui_column_cell(&r, tx, cell, sizeof(cell));
	ok(strcmp(cell, "-") == 0, "a side not sampled shows - (%s)", cell);
	return tap_done();
}
