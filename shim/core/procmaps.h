/* A line of /proc/PID/maps names the file a mapping comes from by device
 * and inode: how `readguard` finds the sessions live processes map, and how
 * the library tells a process that maps its session's table. This is the
 * pure half, one parser for both. */
#ifndef RG_PROCMAPS_H
#define RG_PROCMAPS_H

#include <stdbool.h>
#include <stdint.h>

/* "start-end perms offset MAJ:MIN inode   path", as the kernel's
 * show_map_vma() prints it. */
struct rg_mapping {
    char perms[5]; /* "rw-s": read, write, execute, shared or private */
    uint64_t dev;  /* makedev(MAJ, MIN) */
    uint64_t ino;
    const char *path; /* into the line: "" for an anonymous mapping */
};

/* False when line is not a maps line up to its inode; the path may be cut
 * short (a caller's buffer) without harm. */
bool rg_maps_line(const char *line, struct rg_mapping *m);

/* Can a process whose /proc/PID/cmdline reads empty, and whose
 * /proc/PID/stat reads stat, be inside an execve (its new memory taken,
 * its arguments not yet laid out)? Not a zombie, not a kernel thread, and
 * not one exiting: an exit gives its memory back first, and a big one
 * takes seconds at it, with a command line that reads empty all along. */
bool rg_stat_may_exec(const char *stat);

#endif
