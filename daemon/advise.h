/* SPDX-License-Identifier: GPL-2.0 */
/*
 * advise.h: the split advisor's verdict on one CAP_SYS_ADMIN call site:
 * a narrower capability this kernel already accepts there (learned by
 * fallback.c from behaviour), else a split candidate (a rule of rules.c),
 * else generic administration that stays CAP_SYS_ADMIN.
 */
#ifndef CAPAUDIT_ADVISE_H
#define CAPAUDIT_ADVISE_H

#include <linux/types.h>

#include "capnames.h"
#include "fallback.h"
#include "rules.h"

enum advise_class {
	ADVISE_NARROWER_ACCEPTED,	/* grant cap instead of CAP_SYS_ADMIN */
	ADVISE_SPLIT_CANDIDATE,		/* a split patch could move it to cap */
	ADVISE_GENERIC_ADMIN,		/* stays CAP_SYS_ADMIN */
	ADVISE_CLASS_NR
};

struct advice {
	enum advise_class cls;
	/*
	 * narrower-accepted: the narrow capability; split-candidate: the
	 * proposed one, -1 for a new one; generic-admin: CAP_SYS_ADMIN
	 */
	int cap;
	const char *cap_name;	/* "CAP_BPF", "CAP_SYS_HOSTNAME" (new), "CAP_SYS_ADMIN" */
	const char *rationale;	/* never NULL */
	const char *reference;	/* NULL for generic-admin */
	__u64 times;		/* narrower-accepted: fallbacks seen, else 0 */
	const struct rule *rule;	/* split-candidate: the rule, else NULL */
	/* cap_name's storage for "CAP_<n>" (a capability libcap does not name) */
	char cap_name_buf[CAPNAMES_BUF_LEN];
};

/*
 * Classifies call_site: learned by fb (regardless of rules) -> narrower-
 * accepted; else the first rule that matches -> split-candidate; else
 * generic-admin.  fb or rules may be NULL (nothing learned, no rules).  The
 * strings in *ret live as long as rules (rule text) or forever (the rest);
 * ret->cap_name may point into ret->cap_name_buf, so use ret in place.
 */
void advise__classify(const struct fallback *fb, const struct rules *rules,
		      const char *call_site, struct advice *ret);

/* "narrower-accepted", "split-candidate", "generic-admin"; NULL if invalid */
const char *advise__class_name(enum advise_class cls);

#endif /* CAPAUDIT_ADVISE_H */
