/* Where the shim is, for the verbs that put it in LD_PRELOAD. */
#ifndef RG_SHIM_PATH_H
#define RG_SHIM_PATH_H

/* The shim's path, found next to this executable or in ../lib/readguard/. */
int rg_find_shim(char *out, unsigned long cap);
/* What to put in LD_PRELOAD for it: the path, with $LIB for an install. */
int rg_preload_path(char *out, unsigned long cap);

#endif
