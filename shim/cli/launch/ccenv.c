#include "cli/launch/ccenv.h"
#include <limits.h>
#include <stdio.h>

#include "core/settings.h"
#include "os/session.h"

/* 'text', with each ' written as '\'' */
static void sh_quote(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++)
        *s == '\'' ? fputs("'\\''", f) : fputc(*s, f);
    fputc('\'', f);
}

int rg_ccenv_write(const char *env_file, const char *table, const char *shim)
{
    /* The roots, the log and the id go along with the table: a command
     * that finds the table removed then still guards them all, not just its
     * working directory, and logs what it refuses under the session's id. A
     * table unusable already leaves every file guarded, as its commands will
     * say; it names no log and no id. */
    struct rg_fallback fb;
    if (rg_session_fallback(table, &fb)) {
        snprintf(fb.roots, sizeof fb.roots, "/");
        fb.log[0] = fb.id[0] = fb.bind[0] = '\0';
    }
    FILE *f = fopen(env_file, "a");
    if (!f)
        return -1;
    fputs("export " RG_ENV_SESSION "=", f);
    sh_quote(f, table);
    fputs("\nexport " RG_ENV_ROOTS "=", f);
    sh_quote(f, fb.roots);
    fputs("\nexport " RG_ENV_SESSION_LOG "=", f);
    sh_quote(f, fb.log);
    fputs("\nexport " RG_ENV_SESSION_ID "=", f);
    sh_quote(f, fb.id);
    fputs("\nexport " RG_ENV_SESSION_FILE "=", f);
    sh_quote(f, fb.bind);
    fputs("\ncase \":${LD_PRELOAD-}:\" in *", f);
    sh_quote(f, shim);
    fputs("*) ;; *) export LD_PRELOAD=", f);
    sh_quote(f, shim);
    fputs("\"${LD_PRELOAD:+:$LD_PRELOAD}\" ;; esac\n"
          "if [ -n \"${BASH_EXECUTION_STRING-}\" ] && [ \"${READGUARD_SHELL-}\" != \"$$\" ]; "
          "then export READGUARD_SHELL=$$; "
          "exec \"$BASH\" -c \"$BASH_EXECUTION_STRING\" \"$0\" \"$@\"; fi\n",
          f);
    return fclose(f) == 0 ? 0 : -1;
}
