#!/usr/bin/env bash
# Install boardkeeper as a systemd service on Raspberry Pi OS (Bookworm), as root, from a checkout:
#   sudo bash systemd/install.sh [PROFILE]        PROFILE defaults to hw_config/profiles/hannibal.toml
# The unit plays the game the profile names ([board] game), with the profile in /etc/boardkeeper/GAME.toml.
# Creates the boardkeeper user (groups gpio, i2c, dialout); a venv in /opt/boardkeeper that sees Debian's
# python3-lgpio (--system-site-packages: pip would have to build lgpio from source); I2C on at 400 kHz
# and i2c-dev loaded at boot, as raspi-config does; for a board whose microcontroller is on the Pi's UART, the
# UART on and the serial console off it (as raspi-config's Serial Port; on a Pi 5 its UART0, /dev/ttyAMA0);
# then installs and enables the unit. If I2C had to be
# switched on, the service starts after the reboot that enables it, not before (it would fail without it).
#
# BOARDKEEPER_ROOT=DIR installs into DIR instead of / (every file read or written below it; the unit still
# names the real paths): the tests run the script in a fake root with stub commands on PATH.
set -euo pipefail

root=${BOARDKEEPER_ROOT:-}
[ "$(id -u)" = 0 ] || { echo "install.sh: run as root (sudo)" >&2; exit 2; }
src=$(cd "$(dirname "$0")/.." && pwd)
[ $# -gt 0 ] || set -- "$src/hw_config/profiles/hannibal.toml"
for profile in "$@"; do [ -f "$profile" ] || { echo "install.sh: no profile at $profile" >&2; exit 2; }; done
prefix=/opt/boardkeeper
etc=/etc/boardkeeper
unit=/etc/systemd/system/boardkeeper.service

# A profile's [board] values, read as TOML (Bookworm's python3 is 3.11: tomllib is there).
board_value() {
    python3 - "$1" "$2" <<'EOF'
import sys, tomllib
try:
    with open(sys.argv[1], "rb") as f:
        value = tomllib.load(f).get("board", {}).get(sys.argv[2], "")
except (OSError, ValueError) as e:
    sys.exit(f"install.sh: {sys.argv[1]}: {e}")
print(value if isinstance(value, str) else "")
EOF
}
# One profile is installed as GAME.toml and the unit plays it; several (a table with more than one board) each
# under its own file name, and the unit starts on the table's game menu of them (play --menu).
names=()
for profile in "$@"; do
    game=$(board_value "$profile" game)
    case $game in
        ""|*[!a-z0-9_-]*) echo "install.sh: $profile: [board] game must name a game (boardkeeper games)" >&2; exit 2 ;;
    esac
    name=$game.toml; [ $# -eq 1 ] || name=$(basename "$profile")
    case " ${names[*]} " in *" $name "*) echo "install.sh: two profiles named $name" >&2; exit 2 ;; esac
    names+=("$name")
done

echo "== packages"
apt-get update -q
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-venv python3-lgpio

echo "== user and groups"
for g in gpio i2c dialout; do getent group "$g" >/dev/null || groupadd --system "$g"; done
id boardkeeper >/dev/null 2>&1 || useradd --system --home-dir /var/lib/boardkeeper --shell /usr/sbin/nologin \
    --user-group boardkeeper
usermod -a -G gpio,i2c,dialout boardkeeper

echo "== the package into a venv in $prefix"
# Built from the package's own files only (pyproject.toml, README.md and its packages, no caches): never the
# checkout's venvs, caches or node_modules, and nothing written into the checkout itself.
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
tar -C "$src" --exclude=__pycache__ --exclude='*.pyc' -cf - pyproject.toml README.md \
    controller engines firmware_bridge hw_config sim_hardware | tar -C "$build" -xf -
rm -rf "$root$prefix"
mkdir -p "$root$prefix"
python3 -m venv --system-site-packages "$root$prefix/.venv"
"$root$prefix/.venv/bin/pip" install -q "$build"
install -m 0644 "$src/README.md" "$root$prefix/README.md"  # the unit's Documentation=
echo "   $(du -sh "$root$prefix" | cut -f1) in $prefix"

install -d -m 0755 "$root$etc"
wiring=""
i=0
for profile in "$@"; do
    name=${names[$i]}; i=$((i + 1))
    echo "== profile: $etc/$name"
    install -m 0644 "$profile" "$root$etc/$name"
    layout=$(board_value "$profile" layout)
    case $layout in  # a layout file beside the profile goes beside it again; one named by game is in the package
        *.toml)
            install -m 0644 "$(dirname "$profile")/$layout" "$root$etc/$(basename "$layout")"
            sed -i "s#^layout *= *\"$layout\"#layout = \"$(basename "$layout")\"#" "$root$etc/$name" ;;
    esac
    checked=$("$root$prefix/.venv/bin/boardkeeper" check-config "$root$etc/$name" --wiring)
    echo "$checked" | head -n 1
    wiring+=$checked$'\n'
done

echo "== I2C on at 400 kHz, i2c-dev loaded at boot"
reboot_needed=no
# KEY=VALUE in config.txt as raspi-config's set_config_var writes it: the line of that key, commented out
# or not, is replaced; else it is added at the end, under [all] so that no model filter applies to it.
set_config_var() {
    local key=$1 value=$2 file=$3
    awk -v key="$key" -v value="$value" '
        $0 ~ "^#?[ \t]*" key "=" { if (!done) print key "=" value; done = 1; next }
        /^\[/ { section = $0 }
        { print }
        END { if (!done) { if (section != "" && section != "[all]") print "[all]"; print key "=" value } }
    ' "$file" > "$file.new"
    if cmp -s "$file" "$file.new"; then rm "$file.new"; else mv "$file.new" "$file"; reboot_needed=yes; fi
}
config=$root/boot/firmware/config.txt; [ -f "$config" ] || config=$root/boot/config.txt
if [ -f "$config" ]; then
    set_config_var dtparam=i2c_arm on "$config"
    set_config_var dtparam=i2c_arm_baudrate 400000 "$config"
else
    echo "   no config.txt found: enable I2C yourself (raspi-config, Interface Options)" >&2
fi
modules=$root/etc/modules
touch "$modules"
cp "$modules" "$modules.old"
sed -i -e 's/^#[[:space:]]*\(i2c[-_]dev\)/\1/' "$modules"
grep -q '^i2c[-_]dev' "$modules" || printf 'i2c-dev\n' >> "$modules"
cmp -s "$modules" "$modules.old" || reboot_needed=yes
rm "$modules.old"

# The board's microcontroller on the Pi's own UART (check-config --wiring says so, naming GPIO 14 and 15): the
# UART on and no serial console on it, as raspi-config's "Serial Port" does (a Pi 5: UART0 on those pins is
# /dev/ttyAMA0, serial0 there being the debug connector). On USB (/dev/ttyACM0): nothing to enable.
if echo "$wiring" | grep -q "on the Pi's UART"; then
    echo "== the UART on GPIO 14 and 15 for the board's microcontroller, no serial console on it"
    if grep -qs "Raspberry Pi 5" "$root/proc/device-tree/model"; then
        [ -f "$config" ] && set_config_var dtparam=uart0 on "$config"
        for name in "${names[@]}"; do
            if grep -q '^url *= *"/dev/serial0"' "$root$etc/$name"; then
                sed -i 's#^url *= *"/dev/serial0"#url = "/dev/ttyAMA0"#' "$root$etc/$name"
                echo "   a Pi 5: the header's UART is /dev/ttyAMA0 (serial0 is the debug connector): $etc/$name says so"
            fi
        done
        echo "   dtparam=uart0=on in config.txt"
    else
        [ -f "$config" ] && set_config_var enable_uart 1 "$config"
        echo "   enable_uart=1 in config.txt"
    fi
    cmdline=$root/boot/firmware/cmdline.txt; [ -f "$cmdline" ] || cmdline=$root/boot/cmdline.txt
    if [ -f "$cmdline" ]; then
        sed -E 's/console=(serial0|ttyAMA0|ttyS0),[0-9]+ ?//g' "$cmdline" > "$cmdline.new"
        if cmp -s "$cmdline" "$cmdline.new"; then
            rm "$cmdline.new"
        else
            mv "$cmdline.new" "$cmdline"
            reboot_needed=yes
            echo "   the serial console taken off it (cmdline.txt)"
        fi
    else
        echo "   no cmdline.txt found: take the serial console off the UART yourself (raspi-config, Serial Port)" >&2
    fi
fi
# Each board's serial port and display bus: device access is narrowed to them below.
ports=(); buses=()
for name in "${names[@]}"; do
    port=$(sed -n 's/^url *= *"\(\/dev\/[^"]*\)".*/\1/p' "$root$etc/$name" | head -n 1)
    bus=$(sed -n 's/^bus *= *\([0-9][0-9]*\).*/\1/p' "$root$etc/$name" | head -n 1)
    case $port in /dev/ttyACM*|/dev/ttyUSB*) echo "== the board's microcontroller on $port: nothing to enable" ;; esac
    [ -z "$port" ] || ports+=("$port")
    buses+=("${bus:-1}")
done

# The web page (check-config says "web page on HOST:PORT"): a socket systemd makes in the host's network and
# hands to the service (boardkeeper-web.socket, open to the local network only), so the service keeps no
# network of its own; the table's game menu (several boards) serves no page. A shared game's broker: the
# network in the service's drop-in, by the addresses its name has now (install.sh again if they change).
# Without either the unit keeps PrivateNetwork=yes.
listen=""
[ ${#names[@]} -ne 1 ] || listen=$(echo "$wiring" | sed -n 's/.*, web page on \([^ ,]*\).*/\1/p' | head -n 1)
brokers=$(echo "$wiring" | sed -n 's/.*, shared game on \([^ ,]*\):[0-9]*.*/\1/p' | sort -u)
# ListenStream= of HOST:PORT: every interface as the port alone (IPv4 and IPv6), an address as it is, a name
# by the address it has now
stream() {
    local host=${1%:*} port=${1##*:}
    case $host in
        0.0.0.0|::) echo "$port" ;;
        *:*) echo "[$host]:$port" ;;
        *[!0-9.]*) addr=$(getent ahosts "$host" | awk 'NR == 1 {print $1}')
                   [ -n "$addr" ] || { echo "install.sh: the web page's host $host has no address" >&2; exit 2; }
                   case $addr in *:*) echo "[$addr]:$port" ;; *) echo "$addr:$port" ;; esac ;;
        *) echo "$host:$port" ;;
    esac
}
network() {
    if [ -n "$listen" ]; then
        printf '[Unit]\nRequires=boardkeeper-web.socket\nAfter=boardkeeper-web.socket\n'
        printf '[Service]\nSockets=boardkeeper-web.socket\n'
    fi
    [ -n "$brokers" ] || return 0
    printf 'PrivateNetwork=no\nRestrictAddressFamilies=AF_UNIX AF_INET AF_INET6\nIPAddressDeny=any\n'
    printf 'IPAddressAllow=localhost\n'
    for host in $brokers; do
        addrs=$(getent ahosts "$host" | awk '{print $1}' | sort -u | tr '\n' ' ')
        [ -n "$addrs" ] || { echo "   the broker $host has no address now: install again once it resolves" >&2; continue; }
        printf 'IPAddressAllow=%s\n' "$addrs"
        echo "   the broker $host: $addrs" >&2
    done
}
socket=/etc/systemd/system/boardkeeper-web.socket
if [ -n "$listen" ]; then
    echo "== the web page on $listen: a socket for the service, open to the local network only"
    at=$(stream "$listen") || exit 2
    install -D -m 0644 "$src/systemd/boardkeeper-web.socket" "$root$socket"
    install -d -m 0755 "$root$socket.d"
    printf '[Socket]\nListenStream=\nListenStream=%s\n' "$at" > "$root$socket.d/listen.conf"
elif [ -e "$root$socket" ]; then  # the page was on before: off now
    systemctl disable --now boardkeeper-web.socket || true
    rm -rf "$root$socket" "$root$socket.d"
fi
[ -z "$brokers" ] || echo "== the network opened to the shared game's broker"
extras=()  # what the page and a shared game import, only where a board uses them
[ -z "$listen" ] || extras+=(web)
[ -z "$brokers" ] || extras+=(remote)
if [ ${#extras[@]} -gt 0 ]; then
    echo "== the package's extras these boards use: ${extras[*]}"
    "$root$prefix/.venv/bin/pip" install -q "$build[$(IFS=,; echo "${extras[*]}")]"
fi

if [ ${#names[@]} -eq 1 ]; then play="play $game --profile $etc/${names[0]}"; else play="play --menu $etc"; fi
echo "== unit: boardkeeper $play"
install -D -m 0644 "$src/systemd/boardkeeper.service" "$root$unit"
# What this table plays, and device access narrowed to what its boards use: the GPIO chips, the displays'
# I2C buses and, for a board read over serial (backend "bridge"), the port it names.
install -d -m 0755 "$root$unit.d"
{
    printf '[Service]\nExecStart=\nExecStart=%s/.venv/bin/boardkeeper %s\n' "$prefix" "$play"
    printf 'DeviceAllow=\nDeviceAllow=/dev/gpiochip0 rw\nDeviceAllow=/dev/gpiochip4 rw\nDeviceAllow=/dev/gpiomem rw\n'
    printf 'DeviceAllow=/dev/i2c-%s rw\n' $(printf '%s\n' "${buses[@]}" | sort -u)
    for port in $(printf '%s\n' "${ports[@]}" | sort -u); do printf 'DeviceAllow=%s rw\n' "$port"; done
    network
} > "$root$unit.d/table.conf"
bus=${buses[0]}
rm -f "$root$unit.d/devices.conf"  # the name an earlier install.sh used for part of this
systemctl daemon-reload
systemctl enable boardkeeper.service
[ -z "$listen" ] || systemctl enable boardkeeper-web.socket
if [ "$reboot_needed" = yes ] || [ ! -e "$root/dev/i2c-${bus:-1}" ]; then
    echo "boardkeeper is installed and enabled; I2C (and the UART, if it needs one) is switched on at boot: reboot, then it starts"
else
    systemctl restart boardkeeper.service
    systemctl --no-pager status boardkeeper.service || {
        echo "boardkeeper did not start: journalctl -u boardkeeper -n 50" >&2; exit 1; }
fi
