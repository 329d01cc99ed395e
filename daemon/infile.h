/* SPDX-License-Identifier: GPL-2.0 */
/*
 * infile.h: an input file capaudit reads (a rules file, a report to merge):
 * a regular file of a bounded size, opened without blocking, so that a FIFO,
 * a device or /dev/zero is refused at once.
 */
#ifndef CAPAUDIT_INFILE_H
#define CAPAUDIT_INFILE_H

/*
 * 0 and a read-only fd of path (close it), or -errno: -EISDIR, -ESPIPE (not
 * a regular file: a FIFO, a device or a socket), -EFBIG (more than max
 * bytes), or open(2)'s error.
 */
int infile__open(const char *path, unsigned long long max, int *ret_fd);

/* A message for infile__open()'s error */
const char *infile__strerror(int err);

#endif
