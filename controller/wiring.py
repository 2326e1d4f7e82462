"""The wiring table of a profile: every line a builder solders, by BCM GPIO and physical header pin."""

from __future__ import annotations

from hw_config import Profile
from hw_config.profile import MCU_BACKENDS

# BCM GPIO -> physical pin of the 40-pin header (every Raspberry Pi since the B+)
HEADER_PIN = {2: 3, 3: 5, 4: 7, 14: 8, 15: 10, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16, 24: 18, 10: 19, 9: 21,
              25: 22, 11: 23, 8: 24, 7: 26, 0: 27, 1: 28, 5: 29, 6: 31, 12: 32, 13: 33, 19: 35, 16: 36, 26: 37,
              20: 38, 21: 40}
I2C_PINS = {1: (2, 3), 0: (0, 1)}  # bus -> (SDA, SCL) BCM


def _gpio(pin: int) -> str:
    header = HEADER_PIN.get(pin)
    return f"GPIO{pin:<2d} header pin {header}" if header is not None else f"GPIO{pin} (not on the header)"


def wiring_table(p: Profile) -> list[str]:
    """Rows, columns, buttons and the display bus, one line each, in the order a builder wires them."""
    out = ["", "wiring (BCM GPIO numbers; header pins of the 40-pin connector):"]
    if p.backend in MCU_BACKENDS:  # the [matrix] numbers are the MCU's line labels: no Pi pin to name
        where = f"on {p.serial.url} at {p.serial.baud} baud" if p.serial is not None else "over a pty (simulated)"
        out.append(f"  matrix {len(p.rows)}x{len(p.cols)}: read by the microcontroller {where} "
                   f"(see firmware_bridge/README.md for its wiring)")
        if p.serial is not None and p.serial.url == "/dev/serial0":  # the Pi's own UART: two more lines to solder
            out.append(f"  serial to the microcontroller: TXD {_gpio(14)} to its RX, RXD {_gpio(15)} to its TX, "
                       "and a common GND")
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
