// SPDX-License-Identifier: GPL-2.0
/*
 * advise.c: classification of one CAP_SYS_ADMIN call site by the split
 * advisor.  Behaviour first: what the kernel was seen to accept outranks
 * what the rules propose.
 */
#include <string.h>
#include <linux/capability.h>

#include "advise.h"

static const char *const class_names[ADVISE_CLASS_NR] = {
	[ADVISE_NARROWER_ACCEPTED] = "narrower-accepted",
	[ADVISE_SPLIT_CANDIDATE] = "split-candidate",
	[ADVISE_GENERIC_ADMIN] = "generic-admin",
};

static const char accepted_rationale[] =
	"this kernel checks the narrower capability first at this call site and falls back to "
	"CAP_SYS_ADMIN only when it is missing: grant it instead of CAP_SYS_ADMIN";
static const char accepted_reference[] =
	"observed: a denied check of it directly followed by CAP_SYS_ADMIN, same task, syscall "
	"and call site (docs/rules.md)";
static const char generic_rationale[] =
	"no narrower capability accepted by this kernel here, and no rule proposes one";

const char *advise__class_name(enum advise_class cls)
{
	if ((unsigned int)cls >= ADVISE_CLASS_NR)
		return NULL;
	return class_names[cls];
}

void advise__classify(const struct fallback *fb, const struct rules *rules,
		      const char *call_site, struct advice *ret)
{
	const struct rule *rule;
	unsigned int cap;

	memset(ret, 0, sizeof(*ret));
	if (fb && fallback__accepts(fb, call_site, &cap)) {
		ret->cls = ADVISE_NARROWER_ACCEPTED;
		ret->cap = (int)cap;
		ret->cap_name = capnames__name(cap, ret->cap_name_buf, sizeof(ret->cap_name_buf));
		ret->rationale = accepted_rationale;
		ret->reference = accepted_reference;
		ret->times = fallback__times(fb, call_site, cap);
		return;
	}
	rule = rules__match(rules, call_site);
	if (rule) {
		ret->cls = ADVISE_SPLIT_CANDIDATE;
		ret->cap = rule->cap;
		ret->cap_name = rule->cap < 0 ? rule->new_cap_name :
			capnames__name((unsigned int)rule->cap, ret->cap_name_buf,
				       sizeof(ret->cap_name_buf));
		ret->rationale = rule->rationale;
		ret->reference = rule->reference;
		ret->rule = rule;
		return;
	}
	ret->cls = ADVISE_GENERIC_ADMIN;
	ret->cap = CAP_SYS_ADMIN;
	ret->cap_name = capnames__name(CAP_SYS_ADMIN, ret->cap_name_buf, sizeof(ret->cap_name_buf));
	ret->rationale = generic_rationale;
}
