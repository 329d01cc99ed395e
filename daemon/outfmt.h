/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outfmt.h: names (comm, workloads, call sites, frames, paths: untrusted
 * bytes) written in each output format, so that no name can forge a row, a
 * frame, a series or a spreadsheet formula, and every output is valid in its
 * format.  The rules are in docs/schema.md ("Names in the outputs").
 */
#ifndef CAPAUDIT_OUTFMT_H
#define CAPAUDIT_OUTFMT_H

#include <stddef.h>
#include <stdio.h>
#include <json-c/json.h>

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0 where it is not one */
int outfmt__utf8_len(const unsigned char *s, size_t avail);

/*
 * Text tables and lists: printable UTF-8 as it is; control characters, DEL,
 * C1 controls and each byte of invalid UTF-8 as \xNN; backslash as \\.
 * Left-justified in width bytes (0: no padding).  NULL or "" prints dflt.
 */
void outfmt__text(FILE *f, const char *s, int width, const char *dflt);

/*
 * A frame of folded stacks (report --folded): as text, and ';' and ' ' as
 * \x3b and \x20 too, so that a frame is never empty and holds no frame
 * separator, no count separator and no line break.
 */
void outfmt__folded(FILE *f, const char *s, const char *dflt);

/*
 * A CSV field (RFC 4180) followed by sep (a ',' or '\n'): invalid UTF-8 as
 * U+FFFD; a field starting with '=', '+', '-', '@', tab or CR gets a leading
 * apostrophe (spreadsheets do not run it as a formula); quoted ("" for a quote)
 * when it holds a comma, a quote, CR or LF.
 */
void outfmt__csv(FILE *f, const char *s, char sep);

/*
 * A Prometheus label value between its quotes: invalid UTF-8 as U+FFFD;
 * backslash, double quote and line feed escaped with a backslash (n for LF).
 */
void outfmt__prom_label(FILE *f, const char *s);

/* s as valid UTF-8 (each invalid byte U+FFFD), malloc()ed; NULL on ENOMEM */
char *outfmt__utf8_dup(const char *s, size_t len, size_t *ret_len);

/* A JSON string of s made valid UTF-8 (each invalid byte U+FFFD); NULL for NULL */
json_object *outfmt__json_string(const char *s);

/*
 * A JSON document, pretty and without escaped slashes, on f with a final
 * newline; any invalid UTF-8 json-c would have passed through is replaced.
 */
void outfmt__json_print(FILE *f, json_object *o);

/*
 * At the end of a command: flush stdout and check it; on an error print
 * "capaudit CMD: cannot write the output: REASON" and return -errno.
 */
/*
 * o on one line, no newline after it, with the same guarantees as
 * outfmt__json_print(): for documents written a value at a time
 */
void outfmt__json_put(FILE *f, json_object *o);

int outfmt__finish(const char *cmd);

#endif
