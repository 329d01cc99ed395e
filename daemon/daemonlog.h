/* SPDX-License-Identifier: GPL-2.0 */
/*
 * daemonlog.h: the recorder's log lines.  On stderr as text; when stderr is
 * the journal's stream (a systemd service), sent to the journal instead,
 * with the same MESSAGE= and structured fields (CAPAUDIT_EVENT=, ...) that
 * journalctl can select on: journalctl -u capaudit CAPAUDIT_EVENT=attached.
 */
#ifndef CAPAUDIT_DAEMONLOG_H
#define CAPAUDIT_DAEMONLOG_H

#include <stdarg.h>
#include <stddef.h>
#include <syslog.h>

struct daemonlog_field {
	const char *name;	/* "CAPAUDIT_STORE": upper case, digits, '_' */
	const char *value;
};

/*
 * One event: @priority (LOG_INFO, LOG_WARNING, LOG_ERR), @event the value of
 * CAPAUDIT_EVENT=, @fields (@n of them) more fields, then the message.
 */
void daemonlog__event(int priority, const char *event, const struct daemonlog_field *fields,
		      size_t n, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void daemonlog__vevent(int priority, const char *event, const struct daemonlog_field *fields,
		       size_t n, const char *fmt, va_list ap) __attribute__((format(printf, 5, 0)));

#endif
