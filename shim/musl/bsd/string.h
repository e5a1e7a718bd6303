/* libbsd's <bsd/string.h> for the musl build: musl has strlcpy and strlcat
 * in <string.h> itself. */
#include <string.h>
