/* The settings of a session that a preloaded process starts for itself
 * (no READGUARD_SESSION): taken from READGUARD_MODE, READGUARD_CAPACITY and
 * READGUARD_LOG, as readguard run takes them from its options. */
#ifndef RG_ENVSETTINGS_H
#define RG_ENVSETTINGS_H

#include "core/settings.h"
#include "core/table.h"

/* Fills mode, capacity and log_path of s (log_path pointing into log, made
 * absolute from the working directory, or NULL). Returns NULL, or what is
 * wrong, worded for the user: the process then refuses writes under its
 * roots rather than guess. */
const char *rg_env_settings(struct rg_settings *s, char log[RG_LOG_PATH_MAX]);

#endif
