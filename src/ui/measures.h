/*
 * The figures a screen shows, by the metric table: the gauges' metrics on
 * each side (delivery only at the receiver), their names, and a finished
 * run's figure and label as a table cell says them.
 */
#ifndef NIO_TOP_UI_MEASURES_H
#define NIO_TOP_UI_MEASURES_H

#include "state.h"

/* Fills ui->metric[] from the metric table's gauge rows. */
void ui_metrics_init(struct ui *ui);
/* "Throughput Gbit/s (receiver)" */
void ui_metric_name(const struct ui_metric *m, char *out, size_t size);
/* A result's figure as a table cell: "12.3", or "n/a". */
void ui_result_cell(const struct run_result *r, const struct ui_metric *m,
		    char *out, size_t size);
/* The longest run label, its NUL included. */
#define UI_LABEL_MAX 160

/*
 * "one-copy 16 KiB x1", then the receive side other than copy (" rx-zc")
 * and the knobs set (" gso-ipv4 185000 GRO on").
 */
void ui_result_label(const struct run_result *r, char *out, size_t size);
/*
 * label in exactly width cells: padded, or cut with a marker ("…", or "~"
 * without UTF-8) where it is longer.  Labels are ASCII.
 */
void ui_label_fit(bool utf8, const char *label, int width, char *out,
		  size_t size);
/*
 * Whether any of the session's runs, or the run going on, has a value of
 * metric m: a figure n/a everywhere (no PMU) is skipped when stepping.
 */
bool ui_metric_known(const struct explorer *e, const struct ui_metric *m);
/*
 * What the kernel copied of zero-copy sends, with what proves it: "copied
 * 2.6-100% of 164863 sends (4321 flags, one per range of sends)": a
 * notification flagged copied covers a range and proves one send of it; or
 * "copied 100% of 9120 sends (each flagged)".
 */
void ui_zc_copied(const struct run_totals *t, char *out, size_t size);
/*
 * A side's profile: its largest roles as shares of its samples, the copy
 * roles first ("deliv copy 24%  stack 51%  pin 6%"), as many as width
 * cells hold (the first always) and the rest in one ("rest 12%"); of user
 * space only, said so ("user space
 * only: user copy 73%  other 27%"), its kernel roles n/a; "" without
 * samples.  The caller wraps what is longer than width.
 */
void ui_profile_text(const struct run_profile *p, int width, char *out,
		     size_t size);
/*
 * A side's time: on the CPU, then its largest reasons off it, as shares of
 * its wall time ("CPU 22%  data 62%  preempt 14%"), as many as width cells
 * hold (the CPU always); without reasons (user_only) the time off the CPU
 * in one; "" without a window.  The caller wraps what is longer.
 */
void ui_time_text(const struct run_time *t, int width, char *out, size_t size);

#endif
