#!/usr/bin/env bash
# ./scripts/package --gtk: the Linux GTK variant, on the system's WebKitGTK (issue 18).
#   dist/Sidekicks-gtk/ (one folder), dist/Sidekicks-gtk.AppDir, Sidekicks-gtk-VERSION-ARCH.AppImage
#   (when appimagetool is on PATH)
# Built in its own venv (.venv-gtk: app.txt without PyQt6, package.txt, requirements/gtk.txt),
# never in .venv, with build/linux/sidekicks-gtk.spec, which bundles no Qt and nothing of the
# GTK/WebKitGTK stack. The package then needs, on the machine that runs it, WebKitGTK 4.1 (or
# 4.0) with its GObject introspection data: `apt install gir1.2-webkit2-4.1` (Debian/Ubuntu).
#
# Chosen by the figures (bench/appimage_backends.py, both on X11 under one Xvfb, 2 CPUs): the
# DEFAULT Linux AppImage stays the Qt one, this is the OPTION. GTK is 6x smaller (AppImage
# payload 29 vs 177 MiB, folder 72 vs 456 MiB) but not quicker (start-up to the bridge's answer
# 1.86 s vs 1.62 s, median of 7; 1.75 s with WebKit's sandbox off like Qt's as root) nor lighter
# (process tree RSS 561 vs 562 MiB, PSS 371 vs 387 MiB), and it works only where the system has
# WebKitGTK 4.1/4.0 (121.6 MiB more when it is missing), at whatever version the distribution
# ships; the Qt one brings the engine the e2e suite tests, the same everywhere.
set -euo pipefail
cd "$(dirname "$0")/../.."
say() { printf '\033[1m[package --gtk]\033[0m %s\n' "$*" >&2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi; }
can_apt() { command -v apt-get >/dev/null && { [ "$(id -u)" = 0 ] || sudo -n true 2>/dev/null; }; }

[ "$(uname -s)" = Linux ] || { say "the GTK variant is Linux's only"; exit 2; }
./scripts/setup # the UI (ui/dist) and the compiled translations the spec bundles

# System packages: PyGObject and pycairo build from source against GObject introspection and
# cairo; the window needs WebKitGTK's typelib (to build: the spec drops whatever WebKitGTK loads
# from the bundle, and to try the result).
typelib() {
  local found
  for found in /usr/lib/*/girepository-1.0/"$1".typelib /usr/lib/girepository-1.0/"$1".typelib; do
    [ -f "$found" ] && echo "$found" && return 0
  done
  return 0
}
missing=()
command -v gcc >/dev/null || missing+=(gcc)
command -v pkg-config >/dev/null || missing+=(pkg-config)
pkg-config --exists gobject-introspection-1.0 2>/dev/null || missing+=(libgirepository1.0-dev)
pkg-config --exists cairo 2>/dev/null || missing+=(libcairo2-dev)
[ -n "$(typelib WebKit2-4.1)" ] || [ -n "$(typelib WebKit2-4.0)" ] || missing+=(gir1.2-webkit2-4.1)
if [ ${#missing[@]} -gt 0 ]; then
  if can_apt; then
    say "installing ${missing[*]}"
    as_root apt-get update -qq >/dev/null
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      "${missing[@]}" >/dev/null
  else
    say "missing system packages: ${missing[*]} (Debian/Ubuntu names): install them, then retry"
    exit 1
  fi
fi

# .venv-gtk, re-installed only when its requirement files change (like scripts/setup's stamps).
venv=.venv-gtk
py=$venv/bin/python
stamp=$venv/.stamp
if [ ! -x "$py" ]; then
  # shellcheck source=scripts/common.sh
  python=$(. scripts/common.sh && find_python)
  say "creating $venv with $($python --version 2>&1)"
  $python -m venv "$venv"
fi
mkdir -p build/work/gtk
# app.txt less the Qt window (PyQt6*): the rest of the app is the same.
grep -v -i '^pyqt6' requirements/app.txt > build/work/gtk/app-without-qt.txt
h=$(cat requirements/constraints.txt build/work/gtk/app-without-qt.txt requirements/package.txt \
  requirements/gtk.txt | sha256sum | cut -c1-16)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$h" ]; then
  say "installing Python packages into $venv (PyGObject builds from source: a minute)"
  "$py" -m pip install --disable-pip-version-check -q -c requirements/constraints.txt \
    -r build/work/gtk/app-without-qt.txt -r requirements/package.txt -r requirements/gtk.txt
  echo "$h" > "$stamp"
fi

version=$("$py" -c 'import tomllib; print(tomllib.load(open("pyproject.toml","rb"))["project"]["version"])')
arch=$(uname -m)
say "icons"
"$py" scripts/make_icons.py >/dev/null
say "PyInstaller (one folder, without Qt and without the GTK stack)"
"$py" -m PyInstaller --noconfirm --clean --log-level WARN \
  --distpath dist --workpath build/work/gtk build/linux/sidekicks-gtk.spec

say "AppDir"
appdir=dist/Sidekicks-gtk.AppDir
rm -rf "$appdir"
mkdir -p "$appdir/usr/lib" "$appdir/usr/share/applications" "$appdir/usr/share/icons/hicolor/512x512/apps"
cp -a dist/Sidekicks-gtk "$appdir/usr/lib/sidekicks"
# The Qt AppImage's entry point and desktop entry serve as they are (same layout inside).
cp build/linux/AppRun "$appdir/AppRun"
cp build/linux/sidekicks.desktop "$appdir/sidekicks.desktop"
cp build/linux/sidekicks.desktop "$appdir/usr/share/applications/"
cp build/icons/sidekicks.png "$appdir/sidekicks.png"
cp build/icons/sidekicks.png "$appdir/usr/share/icons/hicolor/512x512/apps/sidekicks.png"
ln -sf sidekicks.png "$appdir/.DirIcon"
if command -v appimagetool >/dev/null 2>&1; then
  say "AppImage"
  ARCH="$arch" appimagetool --no-appstream "$appdir" "dist/Sidekicks-gtk-$version-$arch.AppImage" >&2
else
  say "appimagetool is not on PATH: no .AppImage (bench/appimage_backends.py measures the" \
    "AppDir's squashfs, which is the AppImage less its ~1 MB runtime)"
fi

say "artifacts"
for artifact in dist/Sidekicks-gtk dist/Sidekicks-gtk.AppDir dist/Sidekicks-gtk-*.AppImage; do
  [ -e "$artifact" ] && printf '  %-48s %s\n' "$(basename "$artifact")" "$(du -sh "$artifact" | cut -f1)"
done
exit 0
