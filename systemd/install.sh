#!/usr/bin/env bash
# Install boardkeeper as a systemd service on a Raspberry Pi (run as root from a checkout):
#   sudo bash systemd/install.sh [PROFILE]        PROFILE defaults to hw_config/profiles/hannibal.toml
# Creates the boardkeeper user (groups gpio, i2c, dialout), a venv in /opt/boardkeeper with .[pi],
# the profile in /etc/boardkeeper, I2C at 400 kHz, and installs, enables and starts the unit.
set -euo pipefail

[ "$(id -u)" = 0 ] || { echo "install.sh: run as root (sudo)" >&2; exit 2; }
src=$(cd "$(dirname "$0")/.." && pwd)
profile=${1:-$src/hw_config/profiles/hannibal.toml}
[ -f "$profile" ] || { echo "install.sh: no profile at $profile" >&2; exit 2; }
prefix=/opt/boardkeeper

echo "== user and groups"
for g in gpio i2c dialout; do getent group "$g" >/dev/null || groupadd --system "$g"; done
id boardkeeper >/dev/null 2>&1 || useradd --system --home-dir /var/lib/boardkeeper --shell /usr/sbin/nologin \
    --user-group boardkeeper
usermod -a -G gpio,i2c,dialout boardkeeper

echo "== code and venv in $prefix"
mkdir -p "$prefix"
cp -a "$src/." "$prefix/"
rm -rf "$prefix/.venv"
python3 -m venv "$prefix/.venv"
"$prefix/.venv/bin/pip" install -q "$prefix[pi]"

echo "== profile"
install -d -m 0755 /etc/boardkeeper
install -m 0644 "$profile" /etc/boardkeeper/hannibal.toml
sed -i "s#^layout = \"\([a-z-]*\)\"#layout = \"$prefix/hw_config/layouts/\1.toml\"#" /etc/boardkeeper/hannibal.toml
"$prefix/.venv/bin/boardkeeper" check-config /etc/boardkeeper/hannibal.toml

echo "== I2C at 400 kHz"
config=/boot/firmware/config.txt; [ -f "$config" ] || config=/boot/config.txt
if [ -f "$config" ]; then
    if grep -q '^dtparam=i2c_arm=' "$config"; then
        sed -i 's/^dtparam=i2c_arm=.*/dtparam=i2c_arm=on,i2c_arm_baudrate=400000/' "$config"
    else
        echo 'dtparam=i2c_arm=on,i2c_arm_baudrate=400000' >> "$config"
    fi
    echo "   $config updated (takes effect after a reboot)"
else
    echo "   no config.txt found: enable I2C yourself (raspi-config)"
fi

echo "== unit"
install -m 0644 "$src/systemd/boardkeeper.service" /etc/systemd/system/boardkeeper.service
# Narrow device access to what this profile uses: the GPIO chips, its display's I2C bus and, for a board
# read over serial (backend "bridge"), the port its [serial] url names.
bus=$(sed -n 's/^bus *= *\([0-9][0-9]*\).*/\1/p' /etc/boardkeeper/hannibal.toml | head -n 1)
port=$(sed -n 's/^url *= *"\(\/dev\/[^"]*\)".*/\1/p' /etc/boardkeeper/hannibal.toml | head -n 1)
install -d -m 0755 /etc/systemd/system/boardkeeper.service.d
cat > /etc/systemd/system/boardkeeper.service.d/devices.conf <<EOC
[Service]
DeviceAllow=
DeviceAllow=/dev/gpiochip0 rw
DeviceAllow=/dev/gpiochip4 rw
DeviceAllow=/dev/gpiomem rw
DeviceAllow=/dev/i2c-${bus:-1} rw
${port:+DeviceAllow=$port rw}
EOC
systemctl daemon-reload
systemctl enable --now boardkeeper.service
systemctl --no-pager status boardkeeper.service || {
    echo "boardkeeper did not start: journalctl -u boardkeeper -n 50" >&2; exit 1; }
