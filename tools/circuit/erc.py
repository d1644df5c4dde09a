# Electrical rules check: rules a circuit (design.py) must pass in every build option. Each rule
# looks at the netlist and the ratings of the parts fitted (parts.py) together with what the
# firmware does (circuit.settings: row mode, settle time, LED current cap, I2C speed and
# address), and returns Violations that name the rule, the net or part, and what is wrong in
# numbers. A rule reports; it never raises, whatever the circuit data holds.
#
# Power (rules_power.py)
#   one-source          every supply rail has exactly one source joined to it (diode-fed
#                       inputs such as the Pico's VSYS may be fed by several, through diodes)
#   fused               an external supply reaches its loads only through a fuse
#   supply-range        every part's supply pin sees a voltage within its rating
#   supply-drop         ... and still does at full load, after the user's cable, the fuses and
#                       switches on the way
#   supply-current      no source (USB port, 3V3 regulator, external supply) is asked for more
#                       than it gives, with the firmware's LED current cap; a regulator's and a
#                       diode-fed rail's loads count at what feeds them
#   fuse-rating         a PTC holds its load when warm (50 C) and trips below what its supply
#                       delivers when cold (0 C)
#   conductor-rating    connectors, switches, the Pico's USB socket and harness wires carry the
#                       current that can flow before a fuse trips; the wire fits the crimps
#   input-protection    what a plug can bring (any adapter that fits the DC jack, either
#                       polarity, and its ringing at hot-plug; 5.5 V on USB) damages no part; a
#                       TVS stays off at it; the cut-off, with the window its resistors set,
#                       passes the board's own supply
#   backfeed            no source pushes current through a diode into another source's rail
#   diode-orientation   feed, flyback and reverse-blocking diodes point the way their job needs
#   ground-return       the LED chain's current returns to its supply without passing the Pico
#   usb-capacitance     the capacitance a USB port charges at plug-in stays small
#   capacitor-voltage   capacitors are rated at least 1.25 x the voltage across them
#   bypass              every supply pin whose datasheet asks for a ceramic capacitor has one
# Parts (rules_parts.py)
#   power-pins          supply pins on a powered rail, ground pins on ground, enable pins held
#                       at the level the part needs
#   capacitor-polarity  polarised capacitors the right way round
#   exposed-metal       metal a player touches (the encoder's shaft) is grounded
#   i2c-address         one device per I2C address, and the display at the firmware's address
#   bulk-capacitor      the bulk capacitor the LED datasheet asks for on the chain's supply
#   series-resistor     the series resistor the first LED's data input and the BOOTSEL pad need
# Signals (rules_signal.py)
#   gpio-voltage        no net that can reach more than the RP2040's 3.6 V touches a GPIO
#   gpio-fight          no GPIO driven high can be joined to a GPIO driven low, even with one
#                       shorted matrix diode and every sensor closed, in any scan state; no
#                       part's output (as its direction pin sets it) drives a GPIO's net
#   gpio-capacitance    no output GPIO charges a capacitor (> 10 nF) at every switch
#   gpio-current        no GPIO sources or sinks more than its drive strength
#   logic-levels        every logic input is driven above its high threshold
#   undriven-input      every logic input is connected and driven or pulled
#   signal-path         every data input (the LED chain, LED by LED) gets its data from a GPIO
#   gpio-assignment     every GPIO the firmware uses is on the net it is there for, alone
#   usb-data            the USB socket's D+ and D- reach the RP2040's, each its own
#   i2c-rise-time       the I2C lines have pull-ups that make them rise in time for I2C_FREQ
#                       and that a pin can still pull low
#   esd                 every signal a player can touch has an ESD clamp
# Matrix (rules_matrix.py)
#   column-pullup       every matrix column has an external pull-up (or pull-down)
#   column-low-level    a column pulled through a sensor stays below the RP2040's 0.8 V
#   column-settle       the firmware waits long enough for a column to recover
#   diode-direction     each square reads its sensor with the firmware's diode and level
#                       settings, and no square on another row shows on its column
#   ghosting            with every other square full, an empty square still reads empty
#   hall-row-drive      a hall row gives its 7 sensors enough voltage while they power up
from circuit.graph import Graph, Violation  # noqa: F401  (the rules' API)
from circuit.rules_matrix import (column_low_level, column_rise_us,  # noqa: F401
                                  rule_column_low_level, rule_column_pullup, rule_column_settle,
                                  rule_diode_direction, rule_ghosting, rule_hall_row_drive)
from circuit.rules_parts import (rule_bulk_capacitor, rule_capacitor_polarity,
                                 rule_exposed_metal, rule_i2c_address, rule_power_pins,
                                 rule_series_resistor)
from circuit.rules_power import (rule_backfeed, rule_bypass, rule_capacitor_voltage,
                                 rule_conductor_rating, rule_diode_orientation, rule_fuse_rating,
                                 rule_fused, rule_ground_return, rule_input_protection,
                                 rule_one_source, rule_supply_current, rule_supply_drop,
                                 rule_supply_range, rule_usb_capacitance)
from circuit.rules_signal import (rule_esd, rule_gpio_capacitance, rule_gpio_current,
                                  rule_gpio_fight, rule_gpio_voltage, rule_i2c_rise_time,
                                  rule_gpio_assignment, rule_logic_levels, rule_signal_path,
                                  rule_undriven_input, rule_usb_data)

RULES = [rule_one_source, rule_fused, rule_supply_range, rule_supply_drop, rule_supply_current,
         rule_fuse_rating, rule_conductor_rating, rule_input_protection, rule_backfeed,
         rule_diode_orientation, rule_ground_return, rule_usb_capacitance,
         rule_capacitor_voltage, rule_bypass,
         rule_power_pins, rule_capacitor_polarity, rule_exposed_metal, rule_i2c_address,
         rule_bulk_capacitor, rule_series_resistor,
         rule_gpio_voltage, rule_gpio_fight, rule_gpio_capacitance, rule_gpio_current,
         rule_logic_levels, rule_undriven_input, rule_signal_path, rule_gpio_assignment,
         rule_usb_data, rule_i2c_rise_time, rule_esd,
         rule_column_pullup, rule_column_low_level, rule_column_settle, rule_diode_direction,
         rule_ghosting, rule_hall_row_drive]
RULE_IDS = [r.__name__[5:].replace("_", "-") for r in RULES]
BY_ID = dict(zip(RULE_IDS, RULES))


def check(c, rules=None):
    """Every violation of every rule (or of the rules named), in rule order."""
    g = Graph(c)
    out = []
    for rule in ([BY_ID[r] for r in rules] if rules else RULES):
        out.extend(rule(c, g))
    return out
