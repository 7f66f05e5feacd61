# shellcheck shell=bash
# Sourced by scripts/setup on Linux: the system libraries the Qt window needs (PyQt6's wheels
# bring Qt, not the X11/GL/NSS libraries it links to). Finds what is missing with ldd; with
# --dev or --package (tests, packaging, CI) installs it with apt-get as root or through
# password-less sudo, otherwise says which packages to install.

# The Debian/Ubuntu package of a library file name (empty when unknown).
package_of() {
  case "$1" in
    libnss3.so | libnssutil3.so | libsmime3.so) echo libnss3 ;;
    libnspr4.so | libplc4.so | libplds4.so) echo libnspr4 ;;
    libgbm.so.1) echo libgbm1 ;;
    libasound.so.2) echo libasound2 ;;
    libGL.so.1) echo libgl1 ;;
    libEGL.so.1) echo libegl1 ;;
    libOpenGL.so.0) echo libopengl0 ;;
    libX11.so.6) echo libx11-6 ;;
    libX11-xcb.so.1) echo libx11-xcb1 ;;
    libXcomposite.so.1) echo libxcomposite1 ;;
    libXdamage.so.1) echo libxdamage1 ;;
    libXext.so.6) echo libxext6 ;;
    libXfixes.so.3) echo libxfixes3 ;;
    libXrandr.so.2) echo libxrandr2 ;;
    libXrender.so.1) echo libxrender1 ;;
    libXtst.so.6) echo libxtst6 ;;
    libxshmfence.so.1) echo libxshmfence1 ;;
    libxkbfile.so.1) echo libxkbfile1 ;;
    libxkbcommon.so.0) echo libxkbcommon0 ;;
    libxkbcommon-x11.so.0) echo libxkbcommon-x11-0 ;;
    libxcb.so.1) echo libxcb1 ;;
    libxcb-dri3.so.0) echo libxcb-dri3-0 ;;
    libxcb-cursor.so.0) echo libxcb-cursor0 ;;
    libxcb-icccm.so.4) echo libxcb-icccm4 ;;
    libxcb-image.so.0) echo libxcb-image0 ;;
    libxcb-keysyms.so.1) echo libxcb-keysyms1 ;;
    libxcb-render-util.so.0) echo libxcb-render-util0 ;;
    libxcb-shape.so.0) echo libxcb-shape0 ;;
    libxcb-*.so.*) echo "${1%.so.*}${1##*.so.}" ;; # libxcb-xkb.so.1 -> libxcb-xkb1
    libdbus-1.so.3) echo libdbus-1-3 ;;
    libfontconfig.so.1) echo libfontconfig1 ;;
    libfreetype.so.6) echo libfreetype6 ;;
    libglib-2.0.so.0 | libgthread-2.0.so.0 | libgobject-2.0.so.0) echo libglib2.0-0 ;;
    libwayland-server.so.0) echo libwayland-server0 ;;
    libudev.so.1) echo libudev1 ;;
  esac
}

# Library file names the Qt window's binaries cannot find, one a line.
missing_qt_libs() {
  local qt="" found
  for found in .venv/lib/python3*/site-packages/PyQt6/Qt6; do
    [ -d "$found" ] && qt=$found
  done
  [ -n "$qt" ] || return 0
  ldd "$qt/lib/libQt6WebEngineCore.so.6" "$qt/libexec/QtWebEngineProcess" \
    "$qt/plugins/platforms/libqoffscreen.so" "$qt/plugins/platforms/libqxcb.so" 2>/dev/null \
    | awk '/=> not found/ {print $1}' | sort -u
}

# Ubuntu 24.04 renamed some libraries (libasound2 -> libasound2t64): prefer the t64 name there.
apt_name() {
  if apt-cache show "$1t64" >/dev/null 2>&1; then echo "$1t64"; else echo "$1"; fi
}

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi
}

can_apt() {
  command -v apt-get >/dev/null 2>&1 && { [ "$(id -u)" = 0 ] || sudo -n true 2>/dev/null; }
}

# $1: 1 to install what is missing (when apt-get can), 0 to only say it.
check_linux_libs() {
  local install=$1 lib pkg packages="" unknown=""
  for lib in $(missing_qt_libs); do
    pkg=$(package_of "$lib")
    if [ -n "$pkg" ]; then packages="$packages $pkg"; else unknown="$unknown $lib"; fi
  done
  [ -n "$unknown" ] && say "the Qt window also misses:$unknown (install the packages that provide them)"
  [ -n "$packages" ] || return 0
  packages=$(echo "$packages" | tr ' ' '\n' | sort -u | tr '\n' ' ')
  packages=${packages% }
  if [ "$install" = 1 ] && can_apt; then
    say "installing the libraries the Qt window needs:$packages"
    as_root apt-get update -qq >/dev/null
    local names="" p
    for p in $packages; do names="$names $(apt_name "$p")"; done
    # shellcheck disable=SC2086 # one word a package
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      $names >/dev/null \
      || say "could not install:$names (the window and its tests need them)"
  else
    say "the Qt window needs these system packages: sudo apt-get install$packages"
  fi
}
