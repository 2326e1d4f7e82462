"""The wiring table of a profile: every line a builder solders, by BCM GPIO and physical header pin."""

from __future__ import annotations

from firmware_bridge.firmware.pico import FREE_PINS, SHIFT_PINS, direct
from hw_config import Profile
from hw_config.profile import MCU_BACKENDS

# BCM GPIO -> physical pin of the 40-pin header (every Raspberry Pi since the B+)
HEADER_PIN = {2: 3, 3: 5, 4: 7, 14: 8, 15: 10, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16, 24: 18, 10: 19, 9: 21,
              25: 22, 11: 23, 8: 24, 7: 26, 0: 27, 1: 28, 5: 29, 6: 31, 12: 32, 13: 33, 19: 35, 16: 36, 26: 37,
              20: 38, 21: 40}
I2C_PINS = {1: (2, 3), 0: (0, 1)}  # bus -> (SDA, SCL) BCM
# DIP-16 pins of a 74HC595's outputs QA-QH and of a 74HC165's parallel inputs A-H
OUT_PINS = (15, 1, 2, 3, 4, 5, 6, 7)
IN_PINS = (11, 12, 13, 14, 3, 4, 5, 6)


def _gpio(pin: int) -> str:
    header = HEADER_PIN.get(pin)
    return f"GPIO{pin:<2d} header pin {header}" if header is not None else f"GPIO{pin} (not on the header)"


UART_PORTS = ("/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0")
"""The Pi's own UART on GPIO 14 and 15 (serial0 is its alias; ttyAMA0 on a Pi 5): any other port is a USB one."""


def wiring_table(p: Profile) -> list[str]:
    """Rows, columns, buttons and the display bus, one line each, in the order a builder wires them."""
    out = ["", "wiring (BCM GPIO numbers; header pins of the 40-pin connector):"]
    if p.backend in MCU_BACKENDS:  # the [matrix] numbers are the MCU's line labels: no Pi pin to name
        where = f"on {p.serial.url} at {p.serial.baud} baud" if p.serial is not None else "over a pty (simulated)"
        out.append(f"  matrix {len(p.rows)}x{len(p.cols)}: read by the microcontroller {where} "
                   f"(see firmware_bridge/README.md for its wiring)")
        if p.serial is not None and p.serial.url in UART_PORTS:  # the Pi's own UART: two more lines to solder
            out.append(f"  serial to the microcontroller on the Pi's UART: TXD {_gpio(14)} to its RX, RXD {_gpio(15)} "
                       "to its TX, and a common GND; the UART on and no serial console on it (systemd/install.sh "
                       "does both: enable_uart=1, on a Pi 5 dtparam=uart0=on and /dev/ttyAMA0)")
        elif p.serial is not None:
            out.append(f"  serial to the microcontroller over USB ({p.serial.url}): nothing to enable on the Pi")
        out += _mcu_lines(p)
    else:
        out.append("  matrix rows (driven low one at a time, diode cathode toward the row):")
        out += [f"    row {i}: {_gpio(pin)}" for i, pin in enumerate(p.rows)]
        out.append("  matrix columns (inputs with pull-ups):")
        out += [f"    col {i}: {_gpio(pin)}" for i, pin in enumerate(p.cols)]
    out.append("  buttons (to ground):")
    for b in p.buttons.values():
        where = _gpio(b.pin) if b.pin is not None else f"matrix cell r{b.cell[0]} c{b.cell[1]}" if b.cell else "?"
        out.append(f"    {b.name}: {where}")
    sda, scl = I2C_PINS.get(p.display.bus, (None, None))
    bus = (f"SDA {_gpio(sda)}, SCL {_gpio(scl)}" if sda is not None and scl is not None
           else "see your board's I2C pins")
    out.append(f"  display {p.display.driver} {p.display.width}x{p.display.height}: I2C bus {p.display.bus} "
               f"address 0x{p.display.address:02X}, {bus}, VCC 3.3 V header pin 1, GND header pin 9")
    return out


def _mcu_lines(p: Profile) -> list[str]:
    """Each matrix line of a board read by the Pico, as ``firmware_bridge/firmware/pico.py`` wires that
    size (its own GP pins, or the chained 74HC595s and 74HC165s), with the locations on it: what a builder
    checks a soldered line against. A profile label that is not that line is flagged."""
    nrows, ncols = len(p.rows), len(p.cols)
    on_row: dict[int, list[str]] = {}
    on_col: dict[int, list[str]] = {}
    for (r, c), loc in sorted(p.cells.items()):
        on_row.setdefault(r, []).append(loc)
        on_col.setdefault(c, []).append(loc)
    if direct(nrows, ncols):
        out = ["  on the Pico's own pins (rows driven low one at a time, columns with pull-ups):"]
        rows = [(FREE_PINS[i], f"GP{FREE_PINS[i]}") for i in range(nrows)]
        cols = [(FREE_PINS[nrows + j], f"GP{FREE_PINS[nrows + j]}") for j in range(ncols)]
    else:
        chips = (nrows + 7) // 8
        pins = ", ".join(f"{name.upper().replace('LOAD', 'SH/LD')} GP{pin}" for name, pin in SHIFT_PINS.items())
        out = [f"  through 74HC595s on the rows (U1-U{chips}) and 74HC165s on the columns: Pico {pins}"]
        rows = [(i, f"U{1 + i // 8} Q{'ABCDEFGH'[i % 8]} (pin {OUT_PINS[i % 8]})") for i in range(nrows)]
        cols = [(j, f"U{chips + 1 + j // 8} {'ABCDEFGH'[j % 8]} (pin {IN_PINS[j % 8]})") for j in range(ncols)]
    for kind, lines, labels, on in (("row", rows, p.rows, on_row), ("col", cols, p.cols, on_col)):
        for i, ((line, name), label) in enumerate(zip(lines, labels, strict=True)):
            flag = f" -- the profile says {label}, the firmware's line is {line}" if label != line else ""
            out.append(f"    {kind} {i}: {name}: {' '.join(on.get(i, [])) or 'spare'}{flag}")
    return out
