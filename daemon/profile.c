// SPDX-License-Identifier: GPL-2.0
/*
 * profile.c: `capaudit profile WORKLOAD`: the capabilities a workload
 * really needs, with the evidence, and ready-to-paste snippets.
 *
 * A need is a capability granted on an audited check.  No-audit checks are
 * probes the kernel makes on its own account (has_capability_noaudit,
 * ns_capable_noaudit, overcommit accounting) and checks of another cred
 * (override_creds(), another task) are not the workload's: both are shown
 * apart and never enter the set.  Where the advisor has seen this kernel
 * accept a narrower capability at a CAP_SYS_ADMIN call site (the fallback
 * pattern), the narrower one is recommended instead.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pwd.h>
#include <json-c/json.h>
#include <linux/capability.h>

#include "array_size.h"
#include "capnames.h"
#include "commands.h"
#include "fallback.h"
#include "outfmt.h"
#include "reportopts.h"
#include "rowset.h"

#define PROFILE_CAPS 64		/* one slot per capability bit */
#define EVIDENCE_SITES 8
#define CAP_SYS_ADMIN_NR 21

enum evidence_kind {
	EV_NEED, EV_DENIED, EV_PROBE, EV_OTHER_CRED, EV_SETUP_MANAGER, EV_SETUP_RUNTIME, EV_NR
};

static const char *const kind_titles[EV_NR] = {
	[EV_NEED] = "needed (granted on audited checks)",
	[EV_DENIED] = "denied (tried and refused)",
	[EV_PROBE] = "no-audit probes (not needs)",
	[EV_OTHER_CRED] = "checks of another cred (not this workload's needs)",
	[EV_SETUP_MANAGER] = "set-up by the service manager (systemd, before the unit's program "
			     "ran; not needs)",
	[EV_SETUP_RUNTIME] = "set-up by the container runtime (runc, crun, conmon, a shim; "
			     "not needs)",
};

static const char *const kind_keys[EV_NR] = {
	"needed", "denied", "probes", "other_cred", "setup_manager", "setup_runtime"
};

/*
 * What of a unit a service manager's set-up check most likely served: the
 * sandboxing options whose set-up takes the capability (systemd.exec(5))
 */
static const struct {
	unsigned int cap;
	const char *options;
} setup_options[] = {
	{ CAP_SYS_ADMIN, "the mount namespace: PrivateTmp=, ProtectSystem=, ProtectHome=, PrivateDevices=, "
	      "ReadOnlyPaths=, ProtectKernelTunables=, ..." },
	{ CAP_SYS_CHROOT, "RootDirectory=, RootImage= or the mount namespace" },
	{ CAP_MKNOD, "PrivateDevices= (its device nodes)" },
	{ CAP_SETPCAP, "CapabilityBoundingSet= itself (dropping from the bounding set)" },
	{ CAP_NET_ADMIN, "PrivateNetwork= (its loopback device)" },
	{ CAP_DAC_OVERRIDE, "RuntimeDirectory=, StateDirectory=, LogsDirectory= (their directories)" },
	{ CAP_DAC_READ_SEARCH, "RuntimeDirectory=, StateDirectory=, LogsDirectory= (their directories)" },
	{ CAP_CHOWN, "the directories of RuntimeDirectory=, StateDirectory=, ... (their owner)" },
};

struct site_count {
	const char *name;
	__u64 count;
};

struct evidence {
	__u64 count;
	struct site_count sites[EVIDENCE_SITES];
	int nr_sites;
	__u64 more_sites;	/* checks from call sites past EVIDENCE_SITES */
	const char *syscalls[EVIDENCE_SITES];
	int nr_syscalls;
	__u64 example_stack;
	bool instead_of_sys_admin;	/* recommended for a CAP_SYS_ADMIN fallback site */
};

struct profile {
	struct evidence ev[EV_NR][PROFILE_CAPS];
	__u64 other_caps;	/* checks of capabilities >= 64 (none known today) */
};

static void add_site(struct evidence *e, const struct agg_row *r)
{
	/* NULL: a store made by hand, whose table allows it */
	const char *name = r->call_site ? r->call_site : "[unknown]";
	int i;

	for (i = 0; i < e->nr_sites; i++) {
		if (!strcmp(e->sites[i].name, name)) {
			e->sites[i].count += r->count;
			return;
		}
	}
	if (e->nr_sites == EVIDENCE_SITES) {
		e->more_sites += r->count;
		return;
	}
	e->sites[e->nr_sites++] = (struct site_count){ name, r->count };
}

static void add_syscall(struct evidence *e, const char *syscall)
{
	int i;

	if (!syscall)
		return;
	for (i = 0; i < e->nr_syscalls; i++)
		if (!strcmp(e->syscalls[i], syscall))
			return;
	if (e->nr_syscalls < EVIDENCE_SITES)
		e->syscalls[e->nr_syscalls++] = syscall;
}

static enum evidence_kind kind_of(const struct agg_row *r)
{
	if (r->audit == CHECK_SETUP_MANAGER)
		return EV_SETUP_MANAGER;
	if (r->audit == CHECK_SETUP_RUNTIME)
		return EV_SETUP_RUNTIME;
	if (r->audit == CHECK_NOAUDIT)
		return EV_PROBE;
	if (r->audit == CHECK_CRED_OTHER)
		return EV_OTHER_CRED;
	return r->granted ? EV_NEED : EV_DENIED;
}

static void profile__add(struct profile *p, const struct agg_row *r, const struct fallback *fb)
{
	enum evidence_kind k = kind_of(r);
	unsigned int cap = r->cap, narrow;
	struct evidence *e;

	if (cap >= PROFILE_CAPS) {
		p->other_caps += r->count;
		return;
	}
	if (k == EV_NEED && cap == CAP_SYS_ADMIN_NR && r->call_site &&
	    fallback__accepts(fb, r->call_site, &narrow) && narrow < PROFILE_CAPS)
		cap = narrow;
	e = &p->ev[k][cap];
	e->instead_of_sys_admin |= cap != r->cap;
	e->count += r->count;
	add_site(e, r);
	add_syscall(e, r->syscall);
	if (!e->example_stack)
		e->example_stack = r->stack_hash;
}

/* "CAP_SYS_ADMIN" → "SYS_ADMIN" for docker and Kubernetes */
static const char *short_name(const char *name)
{
	return strncmp(name, "CAP_", 4) ? name : name + 4;
}

/* Who the workload's own tasks ran as, from the store */
struct run_as {
	bool known;
	__u64 root, other;	/* checks made as root, as another user */
	__u32 uid;		/* that other user, the one seen most */
};

/* A user name as systemd's User= takes it unquoted (systemd's valid_user_group_name()) */
static bool plain_user_name(const char *s)
{
	const char *c;

	if (!*s || strlen(s) > 31 || *s == '-' || (*s >= '0' && *s <= '9'))
		return false;
	for (c = s; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || *c == '_' || *c == '-'))
			return false;
	return true;
}

static void print_unit_snippet(const struct run_as *ra, const char *list)
{
	struct passwd *pw;

	printf("\nsystemd unit (in a drop-in, first reset the unit's own: "
	       "CapabilityBoundingSet= and AmbientCapabilities= empty):\n"
	       "  CapabilityBoundingSet=%s\n", list);
	if (!ra->known) {
		printf("  # this store does not say which user the service ran as; if not root:\n"
		       "  #   User=...\n  #   AmbientCapabilities=%s\n", list);
		return;
	}
	if (!ra->other) {
		printf("  # it ran as root: no AmbientCapabilities= is needed\n");
		return;
	}
	pw = getpwuid(ra->uid);
	if (pw && plain_user_name(pw->pw_name))
		printf("  User=%s\n", pw->pw_name);
	else
		printf("  User=%u\n", ra->uid);
	printf("  AmbientCapabilities=%s\n", list);
	if (ra->root)
		printf("  # %llu of its checks ran as root, %llu as uid %u\n",
		       (unsigned long long)ra->root, (unsigned long long)ra->other, ra->uid);
}

/* A note for each capability the set-up took, with what needed it */
static void print_setup_note(const struct profile *p)
{
	char buf[CAPNAMES_BUF_LEN];
	unsigned int cap;
	size_t i;
	int any = 0;

	for (cap = 0; cap < PROFILE_CAPS; cap++) {
		if (!p->ev[EV_SETUP_MANAGER][cap].count)
			continue;
		if (!any++)
			printf("\nnote: systemd took these capabilities to set the unit up, before it "
			       "applied CapabilityBoundingSet=\n      (which therefore does not take "
			       "them away); they follow from the unit's own options:\n");
		for (i = 0; i < ARRAY_SIZE(setup_options); i++)
			if (setup_options[i].cap == cap)
				break;
		printf("  %-22s %s\n", capnames__name(cap, buf, sizeof(buf)),
		       i < ARRAY_SIZE(setup_options) ? setup_options[i].options
						     : "the unit's set-up");
	}
	for (cap = 0, any = 0; cap < PROFILE_CAPS; cap++)
		any |= !!p->ev[EV_SETUP_RUNTIME][cap].count;
	if (any)
		printf("\nnote: the container runtime's own checks (above) are not the container's: "
		       "--cap-add and\n      the Kubernetes capabilities do not limit the runtime "
		       "while it sets the container up.\n");
}

static void print_snippets(const struct profile *p, const struct run_as *ra)
{
	char buf[CAPNAMES_BUF_LEN], list[1024] = "", dock[1536] = "", k8s[1536] = "";
	const char *n;
	unsigned int cap;

	for (cap = 0; cap < PROFILE_CAPS; cap++) {
		if (!p->ev[EV_NEED][cap].count)
			continue;
		n = capnames__name(cap, buf, sizeof(buf));
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", *list ? " " : "", n);
		snprintf(dock + strlen(dock), sizeof(dock) - strlen(dock), " --cap-add=%s",
			 short_name(n));
		snprintf(k8s + strlen(k8s), sizeof(k8s) - strlen(k8s), "%s\"%s\"", *k8s ? ", " : "",
			 short_name(n));
	}
	print_setup_note(p);
	print_unit_snippet(ra, list);
	printf("docker:\n  docker run --cap-drop=ALL%s IMAGE\n", dock);
	printf("Kubernetes:\n  securityContext:\n    capabilities:\n      drop: [\"ALL\"]\n"
	       "      add: [%s]\n",
	       k8s);
}

static void print_evidence(struct store *store, const struct evidence *e, unsigned int cap)
{
	char buf[CAPNAMES_BUF_LEN], **frames;
	int i, nr;

	printf("  %-22s %8llu checks%s\n", capnames__name(cap, buf, sizeof(buf)),
	       (unsigned long long)e->count,
	       e->instead_of_sys_admin ? "  (instead of CAP_SYS_ADMIN: this kernel accepts it)" : "");
	for (i = 0; i < e->nr_sites; i++) {
		printf("      call site ");
		outfmt__text(stdout, e->sites[i].name, 36, "-");
		printf(" %8llu\n", (unsigned long long)e->sites[i].count);
	}
	if (e->more_sites)
		printf("      other call sites %37llu\n", (unsigned long long)e->more_sites);
	printf("      syscalls:");
	for (i = 0; i < e->nr_syscalls; i++) {
		putchar(' ');
		outfmt__text(stdout, e->syscalls[i], 0, "-");
	}
	printf("%s\n", e->nr_syscalls ? "" : " -");
	if (e->example_stack && !store__stack_frames(store, e->example_stack, &frames, &nr)) {
		printf("      example stack:");
		for (i = 0; i < nr && i < 12; i++) {
			putchar(' ');
			outfmt__text(stdout, frames[i], 0, "-");
			printf("%s", i + 1 < nr && i < 11 ? " <-" : "");
		}
		printf("\n");
		free(frames);
	}
}

static void print_text(struct store *store, const struct profile *p, const char *workload,
		       const char *image, const struct run_as *ra)
{
	unsigned int cap;
	int k, any;

	printf("workload ");
	outfmt__text(stdout, workload, 0, "-");
	putchar('\n');
	if (*image) {
		printf("image ");
		outfmt__text(stdout, image, 0, "-");
		putchar('\n');
	}
	for (k = 0; k < EV_NR; k++) {
		printf("\n%s:\n", kind_titles[k]);
		for (cap = 0, any = 0; cap < PROFILE_CAPS; cap++) {
			if (!p->ev[k][cap].count)
				continue;
			print_evidence(store, &p->ev[k][cap], cap);
			any = 1;
		}
		if (!any)
			printf("  none\n");
	}
	print_snippets(p, ra);
}

static json_object *evidence_json(const struct evidence *e, unsigned int cap)
{
	json_object *o = json_object_new_object(), *sites = json_object_new_array(),
		    *sys = json_object_new_array(), *s;
	char buf[24];
	int i;

	json_object_object_add(o, "cap", json_object_new_string(capnames__name(cap, buf,
									   sizeof(buf))));
	json_object_object_add(o, "checks", json_object_new_uint64(e->count));
	json_object_object_add(o, "instead_of_cap_sys_admin",
			       json_object_new_boolean(e->instead_of_sys_admin));
	for (i = 0; i < e->nr_sites; i++) {
		s = json_object_new_object();
		json_object_object_add(s, "call_site", outfmt__json_string(e->sites[i].name));
		json_object_object_add(s, "checks", json_object_new_uint64(e->sites[i].count));
		json_object_array_add(sites, s);
	}
	json_object_object_add(o, "call_sites", sites);
	json_object_object_add(o, "other_call_sites_checks", json_object_new_uint64(e->more_sites));
	for (i = 0; i < e->nr_syscalls; i++)
		json_object_array_add(sys, outfmt__json_string(e->syscalls[i]));
	json_object_object_add(o, "syscalls", sys);
	snprintf(buf, sizeof(buf), "%016llx", (unsigned long long)e->example_stack);
	json_object_object_add(o, "example_stack", json_object_new_string(buf));
	return o;
}

static void print_json(const struct profile *p, const char *workload, const char *image,
		       const struct run_as *ra)
{
	json_object *o = json_object_new_object(), *a, *set = json_object_new_array();
	char buf[CAPNAMES_BUF_LEN];
	unsigned int cap;
	int k;

	json_object_object_add(o, "schema", json_object_new_string("capaudit-profile"));
	json_object_object_add(o, "version", json_object_new_int(1));
	json_object_object_add(o, "workload", outfmt__json_string(workload));
	json_object_object_add(o, "image", *image ? outfmt__json_string(image) : NULL);
	for (k = 0; k < EV_NR; k++) {
		a = json_object_new_array();
		for (cap = 0; cap < PROFILE_CAPS; cap++) {
			if (!p->ev[k][cap].count)
				continue;
			json_object_array_add(a, evidence_json(&p->ev[k][cap], cap));
			if (k == EV_NEED)
				json_object_array_add(set, json_object_new_string(
								   capnames__name(cap, buf, sizeof(buf))));
		}
		json_object_object_add(o, kind_keys[k], a);
	}
	json_object_object_add(o, "capabilities", set);
	if (ra->known) {
		json_object_object_add(o, "runs_as_root", json_object_new_boolean(!ra->other));
		json_object_object_add(o, "uid", ra->other ? json_object_new_int64(ra->uid)
							  : json_object_new_int64(0));
	} else {
		json_object_object_add(o, "runs_as_root", NULL);
		json_object_object_add(o, "uid", NULL);
	}
	outfmt__json_print(stdout, o);
	json_object_put(o);
}

static int run(struct report_opts *o)
{
	struct profile *p = calloc(1, sizeof(*p));
	struct fallback *fb = NULL;
	struct store *store;
	struct rowset rs = {};
	struct run_as ra = {};
	char *container = NULL, image[256];
	size_t i;
	int err;

	if (!p)
		return -ENOMEM;
	err = report_opts__open_store(o, &store);
	if (err)
		goto out_free_profile;
	err = report_opts__load_advice(o, store, &fb, NULL);
	if (!err)
		err = rowset__load(&rs, store, &o->filter);
	/* a container by its name alone: "capa-ctr" for "container:capa-ctr" */
	if (!err && !rs.nr && !strchr(o->positional, ':') &&
	    asprintf(&container, "container:%s", o->positional) > 0) {
		o->filter.workload = container;
		err = rowset__load(&rs, store, &o->filter);
		if (!err && rs.nr)
			o->positional = container;
	}
	if (!err && !rs.nr) {
		fprintf(stderr, "capaudit profile: no checks recorded for workload '%s' in %s "
				"(capaudit report lists the workloads)\n",
			o->positional, o->store_path);
		err = -ENOENT;
	}
	for (i = 0; !err && i < rs.nr; i++)
		profile__add(p, &rs.rows[i], fb);
	if (!err) {
		int e = store__workload_users(store, o->positional, &ra.root, &ra.other, &ra.uid);

		ra.known = !e && (ra.root || ra.other);
		if (store__container_image(store, o->positional, image, sizeof(image)))
			image[0] = '\0';
	}
	if (!err && o->format == FORMAT_JSON)
		print_json(p, o->positional, image, &ra);
	else if (!err)
		print_text(store, p, o->positional, image, &ra);
	if (!err)
		err = outfmt__finish("profile");
	rowset__free(&rs);
	fallback__free(fb);
	store__close(store);
out_free_profile:
	free(container);
	free(p);
	return err;
}

int cmd_profile(int argc, char **argv)
{
	struct report_opts o;
	int err;

	err = report_opts__parse(&o, "profile", 1u << FORMAT_TEXT | 1u << FORMAT_JSON, "WORKLOAD",
				 argc, argv);
	if (err)
		return err > 0 ? 0 : 2;
	o.filter.workload = o.positional;
	return run(&o) ? 1 : 0;
}
