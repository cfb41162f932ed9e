// libxml2 for XMP. Debian builds it with ICU, whose headers libxml/encoding.h would pull in and
// which clash with the ICU copy inside Swift's Foundation. Only xmlCharEncodingHandler's layout
// depends on it, a struct stampcam never touches, so ICU is left out of this view of the headers.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlsave.h>
