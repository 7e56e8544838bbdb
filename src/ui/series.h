/*
 * The strategies' series on a chart, in registry order: a marker letter
 * and a colour role each, the same in the explorer's chart and (through
 * ui_chart_colours()) in the SVG figures.
 */
#ifndef NIO_TOP_UI_SERIES_H
#define NIO_TOP_UI_SERIES_H

#include "strategy.h"
#include "theme.h"

#define UI_SERIES 7

/* Two-copy, one-copy, zero-copy, uring, uring-zc, sendfile, splice. */
extern const char ui_series_markers[UI_SERIES + 1];
extern const enum theme_role ui_series_roles[UI_SERIES];

/* The series of a strategy: its place in the registry, within UI_SERIES. */
size_t ui_series_of(const struct strategy_ops *ops);

#endif
