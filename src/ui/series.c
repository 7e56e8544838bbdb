/* The series' markers and colours. */
#include "series.h"

const char ui_series_markers[UI_SERIES + 1] = "21zuZfs";
const enum theme_role ui_series_roles[UI_SERIES] = {
	ROLE_SENDER_HIGH,  ROLE_RECEIVER_HIGH, ROLE_HIGHLIGHT,	ROLE_SENDER_MID,
	ROLE_RECEIVER_MID, ROLE_MISC,	       ROLE_SENDER_LOW,
};

size_t ui_series_of(const struct strategy_ops *ops)
{
	size_t i = 0;

	while (strategy_at(i) && strategy_at(i) != ops)
		i++;
	return i % UI_SERIES;
}
