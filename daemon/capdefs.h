/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capdefs.h: the capability names of one kernel tree, read from its own
 * header (include/uapi/linux/capability.h, or include/linux/capability.h in
 * trees older than 3.7).
 */
#ifndef CAPAUDIT_CAPDEFS_H
#define CAPAUDIT_CAPDEFS_H

#include <stddef.h>

struct capdefs;

/*
 * Reads the header of the tree at @tree.  Returns 0, or a negative errno with
 * a message for the user in @err: -ENOENT when the tree or its header does
 * not exist, -EBADMSG when the header defines no usable capability.
 */
int capdefs__load(const char *tree, struct capdefs **ret_defs, char *err, size_t errlen);

/* The same from a header's text; @path only names it in messages. */
int capdefs__parse(const char *buf, size_t len, const char *path, struct capdefs **ret_defs,
		   char *err, size_t errlen);

/* A copy of @a with the names of @b that @a lacks (a patch that adds names). */
struct capdefs *capdefs__union(const struct capdefs *a, const struct capdefs *b);

void capdefs__free(struct capdefs *defs);

/* Number of names; they are indexed 0..n-1 in order of value. */
int capdefs__count(const struct capdefs *defs);
const char *capdefs__name(const struct capdefs *defs, int idx);
long capdefs__value(const struct capdefs *defs, int idx);
/* The header's path relative to the tree ("include/uapi/linux/capability.h"). */
const char *capdefs__header(const struct capdefs *defs);

/* Index of the name s[0..len), or -1 when it is not a capability. */
int capdefs__lookup(const struct capdefs *defs, const char *s, size_t len);

#endif
