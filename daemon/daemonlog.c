// SPDX-License-Identifier: GPL-2.0
/*
 * daemonlog.c: the recorder's log lines, to the journal with fields when
 * stderr is its stream (JOURNAL_STREAM names stderr's device and inode, as
 * systemd.exec(5) describes), else to stderr as plain text.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <systemd/sd-journal.h>

#include "array_size.h"
#include "daemonlog.h"

#define MAX_FIELDS 16

static bool stderr_is_journal(void)
{
	static int known = -1;
	const char *s = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;

	if (known < 0)
		known = s && sscanf(s, "%llu:%llu", &dev, &ino) == 2 && !fstat(2, &st) &&
			st.st_dev == dev && st.st_ino == ino;
	return known;
}

struct fields_buf {
	struct iovec iov[MAX_FIELDS + 3];
	size_t n;
	char text[4096];
	size_t used;
};

/* NAME=value appended; -1 when it does not fit */
static int add_field(struct fields_buf *b, const char *name, const char *value)
{
	size_t room = sizeof(b->text) - b->used;
	int len;

	if (b->n == ARRAY_SIZE(b->iov))
		return -1;
	len = snprintf(b->text + b->used, room, "%s=%s", name, value);
	if (len < 0 || (size_t)len >= room)
		return -1;
	b->iov[b->n++] = (struct iovec){ .iov_base = b->text + b->used, .iov_len = len };
	b->used += len + 1;
	return 0;
}

static void send_journal(int priority, const char *event, const struct daemonlog_field *fields,
			 size_t n, const char *message)
{
	struct fields_buf b = { .n = 0 };
	char prio[4];
	size_t i;
	int err;

	snprintf(prio, sizeof(prio), "%d", priority);
	err = add_field(&b, "MESSAGE", message) || add_field(&b, "PRIORITY", prio) ||
	      add_field(&b, "CAPAUDIT_EVENT", event);
	for (i = 0; i < n && !err; i++)
		err = add_field(&b, fields[i].name, fields[i].value);
	if (err || sd_journal_sendv(b.iov, b.n))
		fprintf(stderr, "%s\n", message);
}

void daemonlog__event(int priority, const char *event, const struct daemonlog_field *fields,
		      size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	daemonlog__vevent(priority, event, fields, n, fmt, ap);
	va_end(ap);
}

void daemonlog__vevent(int priority, const char *event, const struct daemonlog_field *fields,
		       size_t n, const char *fmt, va_list ap)
{
	char message[1024];

	vsnprintf(message, sizeof(message), fmt, ap);
	if (stderr_is_journal())
		send_journal(priority, event, fields, n, message);
	else
		fprintf(stderr, "%s\n", message);
}
