#!/usr/bin/env sh
# Install (or with --uninstall remove) the launcher, AppStream metadata and icons for the current user:
#   $XDG_DATA_HOME/applications/io.github.attention_explorer.AttentionExplorer.desktop   (XDG_DATA_HOME: ~/.local/share)
#   $XDG_DATA_HOME/metainfo/io.github.attention_explorer.AttentionExplorer.metainfo.xml
#   $XDG_DATA_HOME/icons/hicolor/{16x16..512x512,scalable}/apps/io.github.attention_explorer.AttentionExplorer.{png,svg}
# Usage: packaging/install-desktop.sh [--uninstall] [EXECUTABLE]
# EXECUTABLE (absolute path) replaces `attention-explorer` in the launcher's Exec lines; `make install-desktop`
# passes the bundle (dist/attention-explorer/attention-explorer) if it is built, else the venv's command.
set -eu
APP_ID=io.github.attention_explorer.AttentionExplorer
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
DATA=${XDG_DATA_HOME:-$HOME/.local/share}

uninstall=0
if [ "${1:-}" = "--uninstall" ]; then uninstall=1; shift; fi
exe=${1:-attention-explorer}

refresh() {
  # No icon-theme.cache or mimeinfo.cache here: a user-level cache that nothing keeps up to date would hide icons
  # other programs install later. Touching the theme folder is enough for desktops to rescan it.
  touch "$DATA/icons/hicolor" 2>/dev/null || true
}

if [ "$uninstall" = 1 ]; then
  rm -f "$DATA/applications/$APP_ID.desktop" "$DATA/metainfo/$APP_ID.metainfo.xml" \
        "$DATA/icons/hicolor/scalable/apps/$APP_ID.svg"
  for d in "$ROOT"/resources/icons/hicolor/*/; do
    rm -f "$DATA/icons/hicolor/$(basename "$d")/apps/$APP_ID.png"
  done
  refresh
  echo "removed $APP_ID from $DATA"
  exit 0
fi

case "$exe" in
  attention-explorer|/*) ;;
  *) echo "error: EXECUTABLE must be an absolute path: $exe" >&2; exit 2 ;;
esac

mkdir -p "$DATA/applications" "$DATA/metainfo" "$DATA/icons/hicolor/scalable/apps"
# Exec=attention-explorer ... -> Exec=<exe> ...; TryExec likewise (paths with spaces are quoted).
case "$exe" in *" "*) q="\"$exe\"" ;; *) q=$exe ;; esac
sed -e "s|^Exec=attention-explorer|Exec=$q|" -e "s|^TryExec=attention-explorer\$|TryExec=$exe|" \
  "$HERE/$APP_ID.desktop" > "$DATA/applications/$APP_ID.desktop"
cp "$HERE/$APP_ID.metainfo.xml" "$DATA/metainfo/"
cp "$ROOT/resources/icons/attention-explorer.svg" "$DATA/icons/hicolor/scalable/apps/$APP_ID.svg"
for d in "$ROOT"/resources/icons/hicolor/*/; do
  size=$(basename "$d")
  mkdir -p "$DATA/icons/hicolor/$size/apps"
  cp "$d/apps/$APP_ID.png" "$DATA/icons/hicolor/$size/apps/"
done
refresh
echo "installed $APP_ID into $DATA (Exec: $exe)"
