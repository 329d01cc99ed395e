// SPDX-License-Identifier: GPL-2.0
/*
 * scanreport.c: turn the sites of a source scan into tables (per capability,
 * top-level directory, two-level subsystem, capable()-family helper) and
 * write them as text, JSON (json-c) or CSV.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "outfmt.h"
#include "scanreport.h"

static const char *const table_names[SCAN_N_TABLES] = {
	[SCAN_CAPS] = "capabilities",
	[SCAN_DIRS] = "directories",
	[SCAN_SUBSYSTEMS] = "subsystems",
	[SCAN_HELPERS] = "helpers",
};

static const char *const table_keys[SCAN_N_TABLES] = {
	[SCAN_CAPS] = "capability",
	[SCAN_DIRS] = "directory",
	[SCAN_SUBSYSTEMS] = "subsystem",
	[SCAN_HELPERS] = "helper",
};

int scan_report__table_id(const char *name)
{
	int i;

	for (i = 0; i < SCAN_N_TABLES; i++)
		if (!strcmp(name, table_names[i]))
			return i;
	return -1;
}

void scan_report__subsystem(const char *file, char *buf, size_t size)
{
	const char *a = strchr(file, '/');
	const char *b = a ? strchr(a + 1, '/') : NULL;

	if (!a)
		snprintf(buf, size, ".");
	else if (!b)
		snprintf(buf, size, "%.*s", (int)(a - file), file);
	else
		snprintf(buf, size, "%.*s", (int)(b - file), file);
}

static void top_dir(const char *file, char *buf, size_t size)
{
	const char *a = strchr(file, '/');

	if (!a)
		snprintf(buf, size, ".");
	else
		snprintf(buf, size, "%.*s", (int)(a - file), file);
}

static int cmp_row(const void *a, const void *b)
{
	const struct scan_row *x = a, *y = b;

	if (x->uses != y->uses)
		return x->uses > y->uses ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return strcmp(x->name, y->name);
}

static struct scan_row *table__row(struct scan_table *t, const char *name)
{
	struct scan_row *rows;
	size_t i;

	for (i = t->n; i-- > 0;)
		if (!strcmp(t->rows[i].name, name))
			return &t->rows[i];
	rows = realloc(t->rows, (t->n + 1) * sizeof(*rows));
	if (!rows)
		return NULL;
	t->rows = rows;
	memset(&rows[t->n], 0, sizeof(*rows));
	rows[t->n].name = strdup(name);
	if (!rows[t->n].name)
		return NULL;
	return &rows[t->n++];
}

/* Sites are sorted by file, so consecutive sites share their directory: check the last row first. */
static int table__count(struct scan_table *t, const char *name, int is_sys_admin)
{
	struct scan_row *row;

	if (t->n && !strcmp(t->rows[t->n - 1].name, name))
		row = &t->rows[t->n - 1];
	else
		row = table__row(t, name);
	if (!row)
		return -ENOMEM;
	row->uses++;
	row->sys_admin += is_sys_admin;
	return 0;
}

static int scan_report__helpers(struct scan_report *r, struct srcscan *s)
{
	struct scan_table *t = &r->tables[SCAN_HELPERS];
	const struct srcscan_helper *h;
	struct scan_row *row;
	size_t i, n;

	h = srcscan__helpers(s, &n);
	for (i = 0; i < n; i++) {
		row = table__row(t, h[i].name);
		if (!row)
			return -ENOMEM;
		row->calls = h[i].calls;
	}
	for (i = 0; i < r->n_sites; i++) {
		const struct srcscan_site *site = &r->sites[i];

		row = table__row(t, site->helper ? site->helper : "(none)");
		if (!row)
			return -ENOMEM;
		row->uses++;
		row->sys_admin += site->cap == r->sys_admin;
	}
	return 0;
}

int scan_report__build(struct scan_report *r, struct srcscan *s, const char *tree,
		       const struct srcscan_opts *opts)
{
	const struct capdefs *defs = srcscan__defs(s);
	struct scan_table *caps = &r->tables[SCAN_CAPS];
	char buf[4096];
	size_t i;
	int c, ret;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < SCAN_N_TABLES; i++) {
		r->tables[i].name = table_names[i];
		r->tables[i].key = table_keys[i];
	}
	r->tree = tree;
	r->defs = defs;
	r->header = capdefs__header(defs);
	r->n_names = capdefs__count(defs);
	r->sys_admin = capdefs__lookup(defs, "CAP_SYS_ADMIN", 13);
	r->headers = opts->headers;
	r->article_filter = opts->article_filter;
	r->files = srcscan__files(s);
	r->bytes = srcscan__bytes(s);
	r->sites = srcscan__sites(s, &r->n_sites);
	r->uses = r->n_sites;

	caps->rows = calloc(r->n_names, sizeof(*caps->rows));
	if (!caps->rows)
		return -ENOMEM;
	for (c = 0; c < r->n_names; c++) {
		caps->rows[c].name = strdup(capdefs__name(defs, c));
		if (!caps->rows[c].name)
			return -ENOMEM;
		caps->n++;
	}
	for (i = 0; i < r->n_sites; i++) {
		const struct srcscan_site *site = &r->sites[i];
		int sa = site->cap == r->sys_admin;

		caps->rows[site->cap].uses++;
		caps->rows[site->cap].sys_admin += sa;
		r->sys_admin_uses += sa;
		top_dir(site->file, buf, sizeof(buf));
		ret = table__count(&r->tables[SCAN_DIRS], buf, sa);
		if (ret)
			return ret;
		scan_report__subsystem(site->file, buf, sizeof(buf));
		ret = table__count(&r->tables[SCAN_SUBSYSTEMS], buf, sa);
		if (ret)
			return ret;
	}
	ret = scan_report__helpers(r, s);
	if (ret)
		return ret;
	for (i = 0; i < SCAN_N_TABLES; i++)
		if (r->tables[i].n)
			qsort(r->tables[i].rows, r->tables[i].n, sizeof(struct scan_row), cmp_row);
	return 0;
}

int scan_report__maintainers(struct scan_report *r, struct maintainers *m)
{
	size_t i;
	int ret;

	r->maint = m;
	r->site_sections = calloc(r->n_sites + 1, sizeof(*r->site_sections));
	r->site_n_sections = calloc(r->n_sites + 1, sizeof(*r->site_n_sections));
	if (!r->site_sections || !r->site_n_sections)
		return -ENOMEM;
	for (i = 0; i < r->n_sites; i++) {
		if (i && !strcmp(r->sites[i].file, r->sites[i - 1].file)) {
			r->site_sections[i] = r->site_sections[i - 1];
			r->site_n_sections[i] = r->site_n_sections[i - 1];
			continue;
		}
		ret = maintainers__for_file(m, r->sites[i].file, &r->site_sections[i],
					    &r->site_n_sections[i]);
		if (ret)
			return ret;
	}
	return 0;
}

void scan_report__free(struct scan_report *r)
{
	size_t i, j;

	for (i = 0; r->site_sections && i < r->n_sites; i++)
		if (!i || r->site_sections[i] != r->site_sections[i - 1])
			free(r->site_sections[i]);
	free(r->site_sections);
	free(r->site_n_sections);
	r->site_sections = NULL;
	r->site_n_sections = NULL;

	for (i = 0; i < SCAN_N_TABLES; i++) {
		for (j = 0; j < r->tables[i].n; j++)
			free(r->tables[i].rows[j].name);
		free(r->tables[i].rows);
		r->tables[i].rows = NULL;
		r->tables[i].n = 0;
	}
}

static double pct(unsigned long part, unsigned long whole)
{
	return whole ? 100.0 * part / whole : 0.0;
}

static const char *filter_name(const struct scan_report *r)
{
	return r->article_filter ? "article (no drivers/, arch/ x86 only)" : "none";
}

static void text_table(const struct scan_report *r, FILE *out, const struct scan_table *t)
{
	int helpers = t == &r->tables[SCAN_HELPERS];
	size_t i;

	if (helpers)
		fprintf(out, "\n%-38s %7s %7s %9s\n", t->key, "calls", "uses", "SYS_ADMIN");
	else
		fprintf(out, "\n%-38s %7s %7s %9s %8s\n", t->key, "uses", "share", "SYS_ADMIN",
			"SA share");
	for (i = 0; i < t->n; i++) {
		const struct scan_row *row = &t->rows[i];

		if (helpers)
			fprintf(out, "%-38s %7lu %7lu %9lu\n", row->name, row->calls, row->uses,
				row->sys_admin);
		else
			fprintf(out, "%-38s %7lu %6.1f%% %9lu %7.1f%%\n", row->name, row->uses,
				pct(row->uses, r->uses), row->sys_admin,
				pct(row->sys_admin, row->uses));
	}
}

static void text_section(FILE *out, const struct maint_section *s)
{
	size_t i;

	for (i = 0; i < s->n_maintainers; i++)
		fprintf(out, "%14sM: %s\n", "", s->maintainers[i]);
	for (i = 0; i < s->n_reviewers; i++)
		fprintf(out, "%14sR: %s\n", "", s->reviewers[i]);
	for (i = 0; i < s->n_lists; i++)
		fprintf(out, "%14sL: %s\n", "", s->lists[i]);
}

static int cmp_count(const void *a, const void *b)
{
	const struct scan_row *x = a, *y = b;

	if (x->uses != y->uses)
		return x->uses > y->uses ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The most specific section of each CAP_SYS_ADMIN use, counted, with whom to write to. */
static int text_who(const struct scan_report *r, FILE *out)
{
	struct scan_table t = { 0 };
	const struct maint_section *cc;
	size_t i, j;
	int ret = 0;

	for (i = 0; !ret && i < r->n_sites; i++)
		if (r->sites[i].cap == r->sys_admin)
			ret = table__count(&t, r->site_n_sections[i] ? r->site_sections[i][0]->name
								  : "(no section)", 1);
	if (ret)
		goto out_free_rows;
	if (t.n)
		qsort(t.rows, t.n, sizeof(*t.rows), cmp_count);
	fprintf(out, "\nwho to ask about the CAP_SYS_ADMIN uses (their most specific MAINTAINERS section):\n");
	fprintf(out, "%7s  %s\n", "uses", "section");
	for (i = 0; i < t.n; i++) {
		fprintf(out, "%7lu  %s\n", t.rows[i].uses, t.rows[i].name);
		for (j = 0; j < r->n_sites; j++) {
			if (r->site_n_sections[j] && !strcmp(r->site_sections[j][0]->name, t.rows[i].name)) {
				text_section(out, r->site_sections[j][0]);
				break;
			}
		}
	}
	cc = maintainers__section(r->maint, SCAN_SPLIT_CC);
	if (cc) {
		fprintf(out, "%7s  always cc'd about a split: %s\n", "", SCAN_SPLIT_CC);
		text_section(out, cc);
	}
out_free_rows:
	for (i = 0; i < t.n; i++)
		free(t.rows[i].name);
	free(t.rows);
	return ret;
}

int scan_report__text(const struct scan_report *r, FILE *out, int with_sites)
{
	size_t i;

	fprintf(out, "tree: %s\n", r->tree);
	fprintf(out, "capability header: %s (%d names)\n", r->header, r->n_names);
	fprintf(out, "files: %lu %s (%.1f MB), filter: %s\n", r->files,
		r->headers ? ".c and .h" : ".c", r->bytes / 1e6, filter_name(r));
	fprintf(out, "uses: %lu, CAP_SYS_ADMIN: %lu (%.1f%%)\n", r->uses, r->sys_admin_uses,
		pct(r->sys_admin_uses, r->uses));
	for (i = 0; i < SCAN_N_TABLES; i++)
		text_table(r, out, &r->tables[i]);
	if (r->maint && text_who(r, out))
		return -ENOMEM;
	if (with_sites) {
		fprintf(out, "\ncall sites (file:line function capability helper%s):\n",
			r->maint ? " [MAINTAINERS section]" : "");
		for (i = 0; i < r->n_sites; i++) {
			const struct srcscan_site *s = &r->sites[i];

			fprintf(out, "%s:%u %s %s %s", s->file, s->line, s->function,
				capdefs__name(r->defs, s->cap), s->helper ? s->helper : "-");
			if (r->maint && r->site_n_sections[i])
				fprintf(out, " [%s]", r->site_sections[i][0]->name);
			fputc('\n', out);
		}
	}
	return ferror(out) ? -EIO : 0;
}

static json_object *json_table(const struct scan_report *r, const struct scan_table *t)
{
	json_object *arr = json_object_new_array();
	size_t i;

	for (i = 0; arr && i < t->n; i++) {
		const struct scan_row *row = &t->rows[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, t->key, json_object_new_string(row->name));
		if (t == &r->tables[SCAN_CAPS])
			json_object_object_add(o, "value", json_object_new_int64(
				capdefs__value(r->defs, capdefs__lookup(r->defs, row->name,
									strlen(row->name)))));
		if (t == &r->tables[SCAN_HELPERS])
			json_object_object_add(o, "calls", json_object_new_int64(row->calls));
		json_object_object_add(o, "uses", json_object_new_int64(row->uses));
		json_object_object_add(o, "share", json_object_new_double(
			pct(row->uses, r->uses) / 100.0));
		json_object_object_add(o, "sys_admin", json_object_new_int64(row->sys_admin));
		json_object_array_add(arr, o);
	}
	return arr;
}

/* One call site as a JSON object: the form --json and --diff share. */
json_object *scan_report__json_site(const struct capdefs *defs, const struct srcscan_site *s)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "file", json_object_new_string(s->file));
	json_object_object_add(o, "line", json_object_new_int64(s->line));
	json_object_object_add(o, "function", json_object_new_string(s->function));
	json_object_object_add(o, "capability", json_object_new_string(capdefs__name(defs, s->cap)));
	json_object_object_add(o, "helper", s->helper ? json_object_new_string(s->helper) : NULL);
	return o;
}

static json_object *json_strings(const char *const *v, size_t n)
{
	json_object *arr = json_object_new_array();
	size_t i;

	for (i = 0; arr && i < n; i++)
		json_object_array_add(arr, json_object_new_string(v[i]));
	return arr;
}

static void json_add_section(json_object *sections, const struct maint_section *s)
{
	json_object *o;

	if (json_object_object_get_ex(sections, s->name, NULL))
		return;
	o = json_object_new_object();
	json_object_object_add(o, "maintainers", json_strings(s->maintainers, s->n_maintainers));
	json_object_object_add(o, "reviewers", json_strings(s->reviewers, s->n_reviewers));
	json_object_object_add(o, "lists", json_strings(s->lists, s->n_lists));
	json_object_object_add(o, "status", s->status ? json_object_new_string(s->status) : NULL);
	json_object_object_add(sections, s->name, o);
}

/* Each site's sections by name, and the sections themselves once. */
static void json_maintainers(const struct scan_report *r, json_object *root, json_object *sites)
{
	json_object *sections = json_object_new_object();
	const struct maint_section *cc;
	size_t i, j;

	for (i = 0; i < r->n_sites; i++) {
		json_object *names = json_object_new_array();

		for (j = 0; j < r->site_n_sections[i]; j++) {
			json_object_array_add(names, json_object_new_string(r->site_sections[i][j]->name));
			json_add_section(sections, r->site_sections[i][j]);
		}
		json_object_object_add(json_object_array_get_idx(sites, i), "maintainers", names);
	}
	cc = maintainers__section(r->maint, SCAN_SPLIT_CC);
	if (cc)
		json_add_section(sections, cc);
	json_object_object_add(root, "split_cc", cc ? json_object_new_string(cc->name) : NULL);
	json_object_object_add(root, "sections", sections);
}

int scan_report__json(const struct scan_report *r, FILE *out)
{
	json_object *root = json_object_new_object();
	json_object *sites;
	size_t i;

	if (!root)
		return -ENOMEM;
	json_object_object_add(root, "tree", json_object_new_string(r->tree));
	json_object_object_add(root, "capability_header", json_object_new_string(r->header));
	json_object_object_add(root, "names", json_object_new_int(r->n_names));
	json_object_object_add(root, "headers", json_object_new_boolean(r->headers));
	json_object_object_add(root, "article_filter", json_object_new_boolean(r->article_filter));
	json_object_object_add(root, "files", json_object_new_int64(r->files));
	json_object_object_add(root, "bytes", json_object_new_int64(r->bytes));
	json_object_object_add(root, "uses", json_object_new_int64(r->uses));
	json_object_object_add(root, "sys_admin_uses", json_object_new_int64(r->sys_admin_uses));
	for (i = 0; i < SCAN_N_TABLES; i++)
		json_object_object_add(root, r->tables[i].name, json_table(r, &r->tables[i]));
	sites = json_object_new_array();
	for (i = 0; i < r->n_sites; i++)
		json_object_array_add(sites, scan_report__json_site(r->defs, &r->sites[i]));
	if (r->maint)
		json_maintainers(r, root, sites);
	json_object_object_add(root, "sites", sites);
	outfmt__json_print(out, root);
	json_object_put(root);
	return ferror(out) ? -EIO : 0;
}

/* The sections of a site as one field, "A;B;C". */
static void csv_sections(FILE *out, const struct maint_section **s, size_t n)
{
	size_t i, len = 1;
	char *buf;

	for (i = 0; i < n; i++)
		len += strlen(s[i]->name) + 1;
	buf = malloc(len);
	if (!buf) {
		fputs("\n", out);
		return;
	}
	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		strcat(buf, s[i]->name);
		if (i + 1 < n)
			strcat(buf, ";");
	}
	outfmt__csv(out, buf, '\n');
	free(buf);
}

int scan_report__csv(const struct scan_report *r, FILE *out, int table)
{
	const struct scan_table *t;
	size_t i;

	if (table == SCAN_N_TABLES) {
		fprintf(out, "file,line,function,capability,helper%s\n", r->maint ? ",sections" : "");
		for (i = 0; i < r->n_sites; i++) {
			const struct srcscan_site *s = &r->sites[i];

			outfmt__csv(out, s->file, ',');
			fprintf(out, "%u,", s->line);
			outfmt__csv(out, s->function, ',');
			outfmt__csv(out, capdefs__name(r->defs, s->cap), ',');
			outfmt__csv(out, s->helper ? s->helper : "", r->maint ? ',' : '\n');
			if (r->maint)
				csv_sections(out, r->site_sections[i], r->site_n_sections[i]);
		}
		return ferror(out) ? -EIO : 0;
	}
	t = &r->tables[table];
	fprintf(out, "%s,%suses,share,sys_admin\n", t->key, table == SCAN_HELPERS ? "calls," : "");
	for (i = 0; i < t->n; i++) {
		outfmt__csv(out, t->rows[i].name, ',');
		if (table == SCAN_HELPERS)
			fprintf(out, "%lu,", t->rows[i].calls);
		fprintf(out, "%lu,%.4f,%lu\n", t->rows[i].uses, pct(t->rows[i].uses, r->uses) / 100.0,
			t->rows[i].sys_admin);
	}
	return ferror(out) ? -EIO : 0;
}
