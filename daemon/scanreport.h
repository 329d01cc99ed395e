/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scanreport.h: the tables of a source scan (per capability, top-level
 * directory, subsystem, helper) and their text, JSON and CSV forms.
 */
#ifndef CAPAUDIT_SCANREPORT_H
#define CAPAUDIT_SCANREPORT_H

#include <stdio.h>

#include "maintainers.h"
#include "srcscan.h"

struct scan_row {
	char *name;
	unsigned long uses;
	unsigned long sys_admin;	/* of which CAP_SYS_ADMIN */
	unsigned long calls;		/* helpers: calls, with or without a literal name */
};

struct scan_table {
	const char *name;		/* "capabilities", "directories", ... */
	const char *key;		/* the first column's title */
	struct scan_row *rows;
	size_t n;
};

enum scan_table_id {
	SCAN_CAPS,
	SCAN_DIRS,
	SCAN_SUBSYSTEMS,
	SCAN_HELPERS,
	SCAN_N_TABLES,
};

struct scan_report {
	const char *tree;
	const char *header;		/* the capability header, relative to the tree */
	int n_names;
	int sys_admin;			/* capdefs index of CAP_SYS_ADMIN, or -1 */
	int headers;			/* .h files counted too */
	int article_filter;
	unsigned long files;
	unsigned long long bytes;
	unsigned long uses;
	unsigned long sys_admin_uses;
	struct scan_table tables[SCAN_N_TABLES];
	const struct srcscan_site *sites;
	size_t n_sites;
	const struct capdefs *defs;
	/* --maintainers: each site's MAINTAINERS sections, most specific first */
	struct maintainers *maint;
	const struct maint_section ***site_sections;	/* shared by a file's sites */
	size_t *site_n_sections;
};

/* The section always cc'd about a split of CAP_SYS_ADMIN (Kerrisk's article). */
#define SCAN_SPLIT_CC "CAPABILITIES"

int scan_report__build(struct scan_report *r, struct srcscan *s, const char *tree,
		       const struct srcscan_opts *opts);
void scan_report__free(struct scan_report *r);

/* Attributes every site to its MAINTAINERS sections (@m stays the caller's). */
int scan_report__maintainers(struct scan_report *r, struct maintainers *m);

/* Finds a table by name ("capabilities", ...); -1 when unknown. */
int scan_report__table_id(const char *name);

int scan_report__text(const struct scan_report *r, FILE *out, int with_sites);
int scan_report__json(const struct scan_report *r, FILE *out);
/* One table (SCAN_*), or the call sites when @table is SCAN_N_TABLES. */
int scan_report__csv(const struct scan_report *r, FILE *out, int table);

struct json_object;

/* One call site as a JSON object: the form --json and --diff share. */
struct json_object *scan_report__json_site(const struct capdefs *defs,
					   const struct srcscan_site *s);

/* The subsystem of a file: its first two directories ("drivers/net"). */
void scan_report__subsystem(const char *file, char *buf, size_t size);

#endif
