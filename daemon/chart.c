// SPDX-License-Identifier: GPL-2.0
/*
 * chart.c: draw a source scan as SVG: horizontal bars per capability (the
 * CAP_SYS_ADMIN bar in red) and per top-level directory (each bar's
 * CAP_SYS_ADMIN part in red); and write one self-contained HTML page with
 * those charts inline and every table of the report.
 */
#include <errno.h>
#include <string.h>

#include "chart.h"

#define WIDTH		960
#define LABEL_W		230	/* the names' column */
#define BAR_W		520	/* the longest bar */
#define ROW_H		18
#define TITLE_H		34
#define SA_COLOR	"#c0392b"
#define BAR_COLOR	"#7f8c8d"

/* Text with &, <, >, " escaped, for XML and HTML alike. */
static void put_escaped(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		default:
			fputc(*s, out);
		}
	}
}

static size_t rows_with_uses(const struct scan_table *t)
{
	size_t i, n = 0;

	for (i = 0; i < t->n; i++)
		n += t->rows[i].uses > 0;
	return n;
}

static unsigned long max_uses(const struct scan_table *t)
{
	unsigned long m = 1;
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->rows[i].uses > m)
			m = t->rows[i].uses;
	return m;
}

/* One chart at @y; returns its height.  Rows are sorted by uses already. */
static int svg_chart(FILE *out, const struct scan_table *t, const char *title, int y,
		     int whole_bar_is_sys_admin)
{
	unsigned long max = max_uses(t);
	int row = 0;
	size_t i;

	fprintf(out, "<text x=\"10\" y=\"%d\" class=\"title\">", y + 22);
	put_escaped(out, title);
	fprintf(out, "</text>\n");
	for (i = 0; i < t->n; i++) {
		const struct scan_row *r = &t->rows[i];
		int ry = y + TITLE_H + row * ROW_H;
		int w = (int)(BAR_W * r->uses / max), sa = (int)(BAR_W * r->sys_admin / max);
		int highlight = whole_bar_is_sys_admin && r->sys_admin;

		if (!r->uses)
			continue;
		row++;
		fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"label\">", LABEL_W - 6, ry + 13);
		put_escaped(out, r->name);
		fprintf(out, "</text>\n");
		fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>",
			LABEL_W, ry + 2, w ? w : 1, ROW_H - 4, highlight ? SA_COLOR : BAR_COLOR);
		put_escaped(out, r->name);
		fprintf(out, ": %lu uses, %lu CAP_SYS_ADMIN</title></rect>\n", r->uses, r->sys_admin);
		if (!whole_bar_is_sys_admin && sa)
			fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n",
				LABEL_W, ry + 2, sa, ROW_H - 4, SA_COLOR);
		fprintf(out, "<text x=\"%d\" y=\"%d\" class=\"value\">%lu", LABEL_W + w + 4, ry + 13,
			r->uses);
		if (!whole_bar_is_sys_admin && r->sys_admin)
			fprintf(out, " (%lu CAP_SYS_ADMIN)", r->sys_admin);
		fprintf(out, "</text>\n");
	}
	return TITLE_H + row * ROW_H + 10;
}

static int svg_height(const struct scan_report *r)
{
	return 2 * (TITLE_H + 10) + (int)(rows_with_uses(&r->tables[SCAN_CAPS]) +
					  rows_with_uses(&r->tables[SCAN_DIRS])) * ROW_H + 40;
}

static void svg_body(const struct scan_report *r, FILE *out)
{
	char title[512];
	int y = 0;

	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n",
		WIDTH, svg_height(r), WIDTH, svg_height(r));
	fprintf(out, "<style>.title{font-size:15px;font-weight:bold}.label{text-anchor:end}"
		".value{fill:#333}</style>\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	snprintf(title, sizeof(title), "Capability uses: %lu in %lu files, %lu CAP_SYS_ADMIN (%.1f%%)%s",
		 r->uses, r->files, r->sys_admin_uses,
		 r->uses ? 100.0 * r->sys_admin_uses / r->uses : 0.0,
		 r->article_filter ? ", article filter" : "");
	y += svg_chart(out, &r->tables[SCAN_CAPS], title, y, 1);
	y += svg_chart(out, &r->tables[SCAN_DIRS],
		       "Uses per top-level directory (red: CAP_SYS_ADMIN)", y + 10, 0);
	fprintf(out, "<text x=\"10\" y=\"%d\" class=\"value\">", y + 30);
	put_escaped(out, r->tree);
	fprintf(out, " (names from %s)</text>\n</svg>\n", r->header);
}

int chart__svg(const struct scan_report *r, FILE *out)
{
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	svg_body(r, out);
	return ferror(out) ? -EIO : 0;
}

static void html_table(const struct scan_report *r, FILE *out, const struct scan_table *t)
{
	int helpers = t == &r->tables[SCAN_HELPERS];
	size_t i;

	fprintf(out, "<h2>Per %s</h2>\n<table>\n<tr><th>%s</th>%s<th>uses</th><th>share</th>"
		"<th>CAP_SYS_ADMIN</th></tr>\n", t->key, t->key, helpers ? "<th>calls</th>" : "");
	for (i = 0; i < t->n; i++) {
		const struct scan_row *row = &t->rows[i];
		int sa = t == &r->tables[SCAN_CAPS] && row->sys_admin;

		fprintf(out, "<tr%s><td>", sa ? " class=\"sa\"" : "");
		put_escaped(out, row->name);
		fprintf(out, "</td>");
		if (helpers)
			fprintf(out, "<td>%lu</td>", row->calls);
		fprintf(out, "<td>%lu</td><td>%.1f%%</td><td>%lu</td></tr>\n", row->uses,
			r->uses ? 100.0 * row->uses / r->uses : 0.0, row->sys_admin);
	}
	fprintf(out, "</table>\n");
}

static void html_sites(const struct scan_report *r, FILE *out)
{
	size_t i;

	fprintf(out, "<h2>Call sites</h2>\n<table>\n<tr><th>file:line</th><th>function</th>"
		"<th>capability</th><th>helper</th>%s</tr>\n",
		r->maint ? "<th>MAINTAINERS section</th>" : "");
	for (i = 0; i < r->n_sites; i++) {
		const struct srcscan_site *s = &r->sites[i];

		fprintf(out, "<tr%s><td>", s->cap == r->sys_admin ? " class=\"sa\"" : "");
		put_escaped(out, s->file);
		fprintf(out, ":%u</td><td>", s->line);
		put_escaped(out, s->function);
		fprintf(out, "</td><td>%s</td><td>%s</td>", capdefs__name(r->defs, s->cap),
			s->helper ? s->helper : "");
		if (r->maint) {
			fprintf(out, "<td>");
			if (r->site_n_sections[i])
				put_escaped(out, r->site_sections[i][0]->name);
			fprintf(out, "</td>");
		}
		fprintf(out, "</tr>\n");
	}
	fprintf(out, "</table>\n");
}

int chart__html(const struct scan_report *r, FILE *out)
{
	size_t i;

	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<title>capaudit scan: ");
	put_escaped(out, r->tree);
	fprintf(out, "</title>\n<style>\nbody{font-family:sans-serif;margin:2em;max-width:72em}\n"
		"table{border-collapse:collapse;margin-bottom:2em}\n"
		"td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}\n"
		"td:first-child,th:first-child{text-align:left}\n"
		"tr.sa td{background:#f6d5d1}\n</style>\n</head>\n<body>\n<h1>Capability uses in ");
	put_escaped(out, r->tree);
	fprintf(out, "</h1>\n<p>%d capability names (from <code>%s</code>), %lu %s files (%.1f MB)%s: "
		"<b>%lu uses, %lu of them CAP_SYS_ADMIN (%.1f%%)</b>. One use is one whole "
		"<code>CAP_*</code> token outside comments and literals (docs/counting-rule.md).</p>\n",
		r->n_names, r->header, r->files, r->headers ? ".c and .h" : ".c", r->bytes / 1e6,
		r->article_filter ? ", without drivers/ and non-x86 arch/" : "", r->uses,
		r->sys_admin_uses, r->uses ? 100.0 * r->sys_admin_uses / r->uses : 0.0);
	svg_body(r, out);
	for (i = 0; i < SCAN_N_TABLES; i++)
		html_table(r, out, &r->tables[i]);
	html_sites(r, out);
	fprintf(out, "</body>\n</html>\n");
	return ferror(out) ? -EIO : 0;
}
