// SPDX-License-Identifier: GPL-2.0
/*
 * capnames.c: capability names ("CAP_SYS_ADMIN"), computed once from libcap's
 * cap_to_name() into a static table, and parsing of names and lists.
 */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/capability.h>

#include "capnames.h"

#define CAPNAMES_NAME_LEN 48	/* "CAP_CHECKPOINT_RESTORE" is 22 */

/* Empty string: libcap has no name for that number */
static char cap_names[CAPNAMES_MAX][CAPNAMES_NAME_LEN];
static pthread_once_t cap_names_once = PTHREAD_ONCE_INIT;

/* libcap names a capability it does not know by its number ("41") */
static bool is_number(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

static void cap_names_init(void)
{
	char *name;
	size_t i, j;

	for (i = 0; i < CAPNAMES_MAX; i++) {
		name = cap_to_name((cap_value_t)i);
		if (!name)
			continue;
		if (!strncmp(name, "cap_", 4) && !is_number(name + 4) &&
		    strlen(name) < CAPNAMES_NAME_LEN) {
			for (j = 0; name[j]; j++)
				cap_names[i][j] = (char)toupper((unsigned char)name[j]);
			cap_names[i][j] = '\0';
		}
		cap_free(name);
	}
}

/* Name table entry for cap, or NULL when libcap has none */
static const char *cap_name(unsigned int cap)
{
	pthread_once(&cap_names_once, cap_names_init);
	if (cap >= CAPNAMES_MAX || !cap_names[cap][0])
		return NULL;
	return cap_names[cap];
}

const char *capnames__name(unsigned int cap, char *buf, size_t size)
{
	const char *name = cap_name(cap);

	if (name)
		return name;
	if (!buf || !size)
		return NULL;
	snprintf(buf, size, "CAP_%u", cap);
	return buf;
}

/* Decimal digits only, no sign or blank; -ERANGE at or above CAPNAMES_MAX */
static int parse_number(const char *s, unsigned int *ret_cap)
{
	unsigned long val;
	char *end;

	if (!is_number(s))
		return -EINVAL;
	errno = 0;
	val = strtoul(s, &end, 10);
	if (errno == ERANGE || val >= CAPNAMES_MAX)
		return -ERANGE;
	*ret_cap = (unsigned int)val;
	return 0;
}

int capnames__parse(const char *name, unsigned int *ret_cap)
{
	const char *n;
	unsigned int i;

	if (!name || !ret_cap)
		return -EINVAL;
	if (!strncasecmp(name, "cap_", 4))
		name += 4;
	if (is_number(name))
		return parse_number(name, ret_cap);
	for (i = 0; i < CAPNAMES_MAX; i++) {
		n = cap_name(i);
		if (n && !strcasecmp(n + 4, name)) {
			*ret_cap = i;
			return 0;
		}
	}
	return -EINVAL;
}

/* Parses list[0..len) with its blanks trimmed */
static int parse_element(const char *elem, size_t len, unsigned int *ret_cap)
{
	char buf[CAPNAMES_NAME_LEN];

	while (len && isblank((unsigned char)*elem)) {
		elem++;
		len--;
	}
	while (len && isblank((unsigned char)elem[len - 1]))
		len--;
	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, elem, len);
	buf[len] = '\0';
	return capnames__parse(buf, ret_cap);
}

int capnames__parse_list(const char *list, __u64 *ret_mask)
{
	__u64 mask = 0;
	unsigned int cap;
	size_t len;
	int err;

	if (!list || !ret_mask)
		return -EINVAL;
	for (;;) {
		len = strcspn(list, ",");
		err = parse_element(list, len, &cap);
		if (err)
			return err;
		mask |= 1ULL << cap;
		if (!list[len])
			break;
		list += len + 1;
	}
	*ret_mask = mask;
	return 0;
}
