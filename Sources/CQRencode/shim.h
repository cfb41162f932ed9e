// libqrencode (Debian's libqrencode-dev): the QR code a stamp can carry (a template's "qr" block).
#include <qrencode.h>
