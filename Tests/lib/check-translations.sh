#!/bin/sh
# check-translations.sh [FOLDER] — every shipped language (FOLDER/LANG.po; default po) compiles with
# `msgfmt -c --check` and translates every text of FOLDER/stampcam.pot: none missing, none
# untranslated, none fuzzy. Names each text that is not, and exits 1. (That stampcam.pot holds what
# the sources mark is LanguageTests' check: `make pot` makes it.)
set -u
folder=${1:-po}
status=0
found=0
for po in "$folder"/*.po; do
    [ -e "$po" ] || continue
    found=1
    statistics=$(LC_ALL=C msgfmt -c --check --statistics -o /dev/null "$po" 2>&1) || {
        printf '%s: msgfmt --check fails:\n%s\n' "$po" "$statistics"
        status=1
        continue
    }
    case $statistics in
    *fuzzy* | *untranslated*)
        printf '%s: %s\n' "$po" "$statistics"
        LC_ALL=C msgattrib --no-wrap --untranslated "$po" | sed -n 's/^msgid "\(..*\)"$/  untranslated: "\1"/p'
        LC_ALL=C msgattrib --no-wrap --only-fuzzy "$po" | sed -n 's/^msgid "\(..*\)"$/  fuzzy: "\1"/p'
        status=1
        ;;
    esac
    if ! missing=$(LC_ALL=C msgcmp --use-fuzzy --use-untranslated "$po" "$folder/stampcam.pot" 2>&1); then
        printf '%s lacks texts of stampcam.pot (make pot merges them):\n%s\n' "$po" "$missing"
        status=1
    fi
done
[ "$found" = 1 ] || { echo "no $folder/*.po: no languages to check"; exit 1; }
[ "$status" = 0 ] && echo "translations: every text of $folder/stampcam.pot in $(ls "$folder"/*.po | wc -l) languages"
exit "$status"
