#include "core/wildmatch.h"
#include <ctype.h>
#include <string.h>

enum { MATCH, NOMATCH, ABORT_ALL, ABORT_TO_STARSTAR };

static bool glob_special(unsigned char ch)
{
    return ch == '*' || ch == '?' || ch == '[' || ch == '\\';
}

/* A switch rather than a table of isalnum, isalpha...: every address of a
 * libc function in the shim's data is a symbol the dynamic loader must look
 * up when any preloaded program starts, and ignore rules are rare. */
static bool is_class(size_t i, int ch)
{
    switch (i) {
    case 0: return isalnum(ch);
    case 1: return isalpha(ch);
    case 2: return isblank(ch);
    case 3: return iscntrl(ch);
    case 4: return isdigit(ch);
    case 5: return isgraph(ch);
    case 6: return islower(ch);
    case 7: return isprint(ch);
    case 8: return ispunct(ch);
    case 9: return isspace(ch);
    case 10: return isupper(ch);
    default: return isxdigit(ch);
    }
}

static bool in_class(const unsigned char *name, size_t len, unsigned char ch)
{
    /* Characters, not pointers: no relocations for ld.so at load. */
    static const char classes[][7] = {"alnum", "alpha", "blank", "cntrl", "digit", "graph",
                                      "lower", "print", "punct", "space", "upper", "xdigit"};
    for (size_t i = 0; i < sizeof classes / sizeof *classes; i++)
        if (strlen(classes[i]) == len && memcmp(classes[i], name, len) == 0)
            return is_class(i, ch);
    return false;
}

/* A bracket expression; *pp points at '['. Returns MATCH, NOMATCH or
 * ABORT_ALL (unterminated), and leaves *pp on the closing ']'. */
static int bracket(const unsigned char **pp, unsigned char t, bool pathname)
{
    const unsigned char *p = *pp;
    unsigned char ch = *++p, prev = 0;
    bool negated = ch == '!' || ch == '^', matched = false;
    if (negated)
        ch = *++p;
    do {
        if (!ch)
            return ABORT_ALL;
        if (ch == '\\') {
            if (!(ch = *++p))
                return ABORT_ALL;
            matched |= t == ch;
        } else if (ch == '-' && prev && p[1] && p[1] != ']') {
            ch = *++p;
            if (ch == '\\' && !(ch = *++p))
                return ABORT_ALL;
            matched |= t <= ch && t >= prev;
            ch = 0; /* a range end cannot start another range */
        } else if (ch == '[' && p[1] == ':') {
            const unsigned char *name = p + 2, *end = name;
            while (*end && *end != ']')
                end++;
            if (!*end)
                return ABORT_ALL;
            if (end - name < 1 || end[-1] != ':') {
                /* Not a class after all: a literal '['. */
                matched |= t == '[';
            } else {
                size_t len = (size_t)(end - name) - 1;
                matched |= in_class(name, len, t);
                p = end;
                ch = 0;
            }
        } else {
            matched |= t == ch;
        }
        prev = ch;
    } while ((ch = *++p) != ']');
    *pp = p;
    return matched == negated || (pathname && t == '/') ? NOMATCH : MATCH;
}

static int dowild(const unsigned char *p, const unsigned char *text, bool pathname,
                  unsigned *budget);

/* p is just past a '*': steps it over any more stars, and says whether they
 * are "**" as a whole component (between slashes or at either end), which
 * alone crosses directories under pathname. */
static bool starstar_component(const unsigned char **pp, const unsigned char *pattern)
{
    const unsigned char *p = *pp;
    if (*p != '*')
        return false;
    const unsigned char *before = p - 2;
    while (*++p == '*')
        ;
    *pp = p;
    return (before < pattern || *before == '/') &&
           (*p == '\0' || *p == '/' || (p[0] == '\\' && p[1] == '/'));
}

/* The stars before p may swallow any run of text: tries the rest of the
 * pattern at each place it could start, up to the next '/' unless
 * match_slash. */
static int star_backtrack(const unsigned char *p, const unsigned char *text, bool pathname,
                          bool match_slash, unsigned *budget)
{
    for (unsigned char t = *text;; t = *++text) {
        if (t == '\0')
            return ABORT_ALL;
        if (!glob_special(*p)) {
            /* Skip straight to the next place the literal can match. */
            while ((t = *text) != '\0' && (match_slash || t != '/') && t != *p)
                text++;
            if (t != *p)
                return NOMATCH;
        }
        int r = dowild(p, text, pathname, budget);
        if (r != NOMATCH) {
            if (!match_slash || r != ABORT_TO_STARSTAR)
                return r;
        } else if (!match_slash && t == '/') {
            return ABORT_TO_STARSTAR;
        }
    }
}

static int dowild(const unsigned char *p, const unsigned char *text, bool pathname,
                  unsigned *budget)
{
    const unsigned char *pattern = p;
    if (*budget == 0)
        return ABORT_ALL;
    --*budget;
    for (unsigned char pc; (pc = *p) != '\0'; text++, p++) {
        unsigned char t = *text;
        if (t == '\0' && pc != '*')
            return ABORT_ALL;
        switch (pc) {
        case '\\':
            pc = *++p;
            /* fallthrough */
        default:
            if (t != pc)
                return NOMATCH;
            continue;
        case '?':
            if (pathname && t == '/')
                return NOMATCH;
            continue;
        case '[': {
            int r = bracket(&p, t, pathname);
            if (r != MATCH)
                return r;
            continue;
        }
        case '*': break;
        }
        ++p;
        bool component = starstar_component(&p, pattern);
        /* "a/" "**" "/b" also matches a/b. */
        if (component && p[0] == '/' && dowild(p + 1, text, pathname, budget) == MATCH)
            return MATCH;
        bool match_slash = component || !pathname;
        if (*p == '\0')
            return match_slash || !strchr((const char *)text, '/') ? MATCH : NOMATCH;
        if (!match_slash && *p == '/') {
            /* One '*' then '/': the rest of this component, then on. */
            const char *slash = strchr((const char *)text, '/');
            if (!slash)
                return NOMATCH;
            text = (const unsigned char *)slash;
            continue; /* the loop steps over the slash in both */
        }
        return star_backtrack(p, text, pathname, match_slash, budget);
    }
    return *text ? NOMATCH : MATCH;
}

/* '*' then a literal, the shape of most name rules ("*.o", "*.pyc"): the
 * text's tail compared, as dowild would end up doing after walking the
 * text for each place the literal could start. -1: not of that shape. */
static int star_literal(const char *p, const char *text, bool pathname)
{
    if (p[0] != '*' || p[1] == '*')
        return -1;
    size_t n = 0;
    for (p++; p[n]; n++)
        if (glob_special((unsigned char)p[n]))
            return -1;
    size_t len = strlen(text);
    if (len < n || memcmp(text + len - n, p, n) != 0)
        return RG_WM_NOMATCH;
    return pathname && memchr(text, '/', len - n) ? RG_WM_NOMATCH : RG_WM_MATCH;
}

int rg_wildmatch_bounded(const char *pattern, const char *text, bool pathname)
{
    int quick = star_literal(pattern, text, pathname);
    if (quick >= 0)
        return quick;
    unsigned budget = RG_WILDMATCH_BUDGET;
    int r = dowild((const unsigned char *)pattern, (const unsigned char *)text, pathname, &budget);
    return budget == 0 ? RG_WM_TOO_COSTLY : r == MATCH ? RG_WM_MATCH : RG_WM_NOMATCH;
}

bool rg_wildmatch(const char *pattern, const char *text, bool pathname)
{
    return rg_wildmatch_bounded(pattern, text, pathname) == RG_WM_MATCH;
}
